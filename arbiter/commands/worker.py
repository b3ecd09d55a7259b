"""``arbiter worker``: an RQ worker on the arbiter queue, with the JSON serializer."""

from __future__ import annotations

import click

from arbiter import settings
from arbiter.redis_conn import shared_url


@click.command()
@click.option("--burst", is_flag=True, help="Exit once the queue is empty.")
@click.option("--simple", is_flag=True, help="Run jobs in this process instead of forking.")
def worker(burst: bool, simple: bool) -> None:
    """Work the arbiter queue (REDIS_URL, or the embedded Redis under var/)."""
    from worker.run import run_worker

    cfg = settings.load()
    run_worker(shared_url(cfg.redis_url, cfg.data_dir), cfg, burst=burst, simple=simple)
