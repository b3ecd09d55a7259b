"""Building and running an RQ worker on the arbiter queue (used by ``arbiter worker``)."""

from __future__ import annotations

import importlib

import redis
from rq.worker import BaseWorker

from arbiter.redis_conn import connect
from arbiter.settings import Settings
from worker import joblog
from worker.queue import SERIALIZER, make_queue
from worker.workers import ArbiterSimpleWorker, ArbiterWorker


def make_worker(conn: redis.Redis, cfg: Settings, *, simple: bool = False, name: str | None = None) -> BaseWorker:
    """A worker on the arbiter queue; ``simple`` runs jobs in-process instead of forking; ``name``
    (unique per Redis) defaults to a random one.

    A forking worker runs each job in a work horse under the time ceiling (``cfg.job_timeout``) and
    the memory ceiling (``cfg.job_memory_mb``); a simple one under the time ceiling only.
    """
    queues = [make_queue(conn, cfg)]
    if simple:
        return ArbiterSimpleWorker(queues, name=name, connection=conn, serializer=SERIALIZER)
    return ArbiterWorker(queues, name=name, connection=conn, serializer=SERIALIZER, memory_mb=cfg.job_memory_mb)


def run_worker(url: str, cfg: Settings, *, burst: bool = False, simple: bool = False,
               name: str | None = None) -> bool:
    """Work the queue at ``url`` (until stopped, or until it is empty with ``burst``)."""
    importlib.import_module("worker.jobs")  # imported once here: forked work horses inherit it
    from replays.service import warm

    warm()  # the games and their cards, loaded once here too
    joblog.install()  # one JSON line per job on stderr

    conn = connect(url)
    rq_worker = make_worker(conn, cfg, simple=simple, name=name)
    return rq_worker.work(burst=burst, with_scheduler=True, logging_level="WARNING")
