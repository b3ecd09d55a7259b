"""Building and running an RQ worker on the arbiter queue (used by ``arbiter worker``)."""

from __future__ import annotations

import importlib

import redis
from rq import SimpleWorker, Worker
from rq.worker import BaseWorker

from arbiter.settings import Settings
from worker.queue import SERIALIZER, make_queue


def make_worker(conn: redis.Redis, cfg: Settings, *, simple: bool = False) -> BaseWorker:
    """A worker on the arbiter queue; ``simple`` runs jobs in-process instead of forking."""
    cls: type[BaseWorker] = SimpleWorker if simple else Worker
    return cls([make_queue(conn, cfg)], connection=conn, serializer=SERIALIZER)


def run_worker(url: str, cfg: Settings, *, burst: bool = False, simple: bool = False) -> bool:
    """Work the queue at ``url`` (until stopped, or until it is empty with ``burst``)."""
    importlib.import_module("worker.jobs")  # imported once here: forked work horses inherit it
    from replays.service import warm

    warm()  # the games and their cards, loaded once here too

    conn = redis.Redis.from_url(url)
    rq_worker = make_worker(conn, cfg, simple=simple)
    return rq_worker.work(burst=burst, with_scheduler=True, logging_level="WARNING")
