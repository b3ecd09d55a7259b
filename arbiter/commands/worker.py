"""``arbiter worker``: an RQ worker on the arbiter queue, with the JSON serializer.

``--redis-url`` (or ``REDIS_URL``) joins any Redis server, so workers on other machines share the
queue of an API elsewhere; without either, the embedded Redis under ``var/`` is used. Before it
works, the settings are read (a value that cannot be used is refused), and the Redis it joins must
answer: else it says so in one line (``Error: cannot reach Redis at ...``) and exits 1.
"""

from __future__ import annotations

import dataclasses
import os

import click
import redis

from arbiter import settings
from arbiter.redis_conn import check_reachable, shared_url


def check_redis_url(url: str) -> str:
    """``url`` when redis-py can read it (``redis://``, ``rediss://``, ``unix://``); else a usage error."""
    try:
        redis.ConnectionPool.from_url(url)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--redis-url") from exc
    return url


@click.command()
@click.option("--redis-url", default=None, metavar="URL",
              help="Redis to join, e.g. redis://:password@host:6379/0 (overrides REDIS_URL).")
@click.option("--name", default=None, help="Worker name (default: random); unique per Redis.")
@click.option("--burst", is_flag=True, help="Exit once the queue is empty.")
@click.option("--simple", is_flag=True, help="Run jobs in this process instead of forking.")
def worker(redis_url: str | None, name: str | None, burst: bool, simple: bool) -> None:
    """Work the arbiter queue (--redis-url, REDIS_URL, or the embedded Redis under var/)."""
    from worker.run import run_worker

    cfg = settings.load()
    if redis_url is not None:
        cfg = dataclasses.replace(cfg, redis_url=check_redis_url(redis_url))
        os.environ["REDIS_URL"] = redis_url  # the jobs read their settings from the environment
    if cfg.redis_url is not None:
        url = check_reachable(cfg.redis_url, "REDIS_URL" if redis_url is None else "--redis-url")
    else:
        try:
            url = shared_url(None, cfg.data_dir, cfg.redis_fsync)
        except RuntimeError as exc:  # redis-server would not start
            raise click.ClickException(str(exc)) from exc
    run_worker(url, cfg, burst=burst, simple=simple, name=name)
