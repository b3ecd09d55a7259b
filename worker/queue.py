"""The RQ queue every producer and worker uses: one name, JSON serialization, settings-driven TTLs.

Job arguments and results go through RQ's ``JSONSerializer`` on both sides, so no user data is
ever pickled. Jobs take IDs (a replay ID, a step number), never logs or connections.
"""

from __future__ import annotations

import uuid

import redis
from rq import Queue, Retry
from rq.job import Job, JobStatus
from rq.serializers import JSONSerializer

from arbiter import settings as settings_mod
from arbiter.settings import QUEUE_NAME, Settings

SERIALIZER = JSONSerializer


def make_queue(conn: redis.Redis, cfg: Settings | None = None) -> Queue:
    """The arbiter queue on ``conn`` (a client with ``decode_responses=False``, as RQ needs)."""
    cfg = cfg or settings_mod.load()
    return Queue(QUEUE_NAME, connection=conn, serializer=SERIALIZER, default_timeout=cfg.job_timeout)


def _job_options(cfg: Settings) -> dict[str, object]:
    retry = Retry(max=cfg.job_retries, interval=cfg.retry_interval) if cfg.job_retries > 0 else None
    return {"job_timeout": cfg.job_timeout, "result_ttl": cfg.result_ttl,
            "failure_ttl": cfg.failure_ttl, "retry": retry}


def enqueue_ruling(queue: Queue, replay_id: str, at: int | None, cfg: Settings | None = None) -> str:
    """Queue a ruling on step ``at`` of a stored replay; returns the ruling ID (= the job ID)."""
    cfg = cfg or settings_mod.load()
    ruling_id = uuid.uuid4().hex
    queue.enqueue("worker.jobs.compute_ruling", ruling_id, replay_id, at, job_id=ruling_id,
                  **_job_options(cfg))
    return ruling_id


def enqueue_replay(queue: Queue, replay_id: str, cfg: Settings | None = None) -> Job:
    """Queue a replay of a stored log (its result is stored beside the log)."""
    cfg = cfg or settings_mod.load()
    return queue.enqueue("worker.jobs.replay_stored", replay_id, **_job_options(cfg))


def enqueue_noop(queue: Queue, cfg: Settings | None = None) -> Job:
    """A job that does nothing: the queue's latency floor, for benchmarks and health checks."""
    cfg = cfg or settings_mod.load()
    return queue.enqueue("worker.jobs.noop", **_job_options(cfg))


def fetch_job(conn: redis.Redis, job_id: str) -> Job | None:
    from rq.exceptions import NoSuchJobError

    try:
        return Job.fetch(job_id, connection=conn, serializer=SERIALIZER)
    except NoSuchJobError:
        return None


def public_status(status: JobStatus | None) -> str:
    """RQ's job statuses folded into the four the API shows: queued, started, finished, failed."""
    if status in (JobStatus.STARTED,):
        return "started"
    if status == JobStatus.FINISHED:
        return "finished"
    if status in (JobStatus.FAILED, JobStatus.STOPPED, JobStatus.CANCELED):
        return "failed"
    return "queued"
