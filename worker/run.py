"""Building and running an RQ worker on the arbiter queue (used by ``arbiter worker``)."""

from __future__ import annotations

import redis
from rq import SimpleWorker, Worker

from arbiter.settings import Settings
from worker.queue import SERIALIZER, make_queue


def make_worker(conn: redis.Redis, cfg: Settings, *, simple: bool = False) -> Worker:
    """A worker on the arbiter queue; ``simple`` runs jobs in-process instead of forking."""
    cls = SimpleWorker if simple else Worker
    return cls([make_queue(conn, cfg)], connection=conn, serializer=SERIALIZER)


def run_worker(url: str, cfg: Settings, *, burst: bool = False, simple: bool = False) -> bool:
    """Work the queue at ``url`` (until stopped, or until it is empty with ``burst``)."""
    import worker.jobs  # noqa: F401  -- imported once here, so forked work horses inherit the engine

    conn = redis.Redis.from_url(url)
    worker = make_worker(conn, cfg, simple=simple)
    return worker.work(burst=burst, with_scheduler=True, logging_level="WARNING")
