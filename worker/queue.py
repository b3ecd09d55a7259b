"""The RQ queue every producer and worker uses: one name, JSON serialization, settings-driven TTLs.

Job arguments and results go through RQ's ``JSONSerializer`` on both sides, so no user data is
ever pickled. Jobs take IDs (a replay ID, a step number), never logs or connections. Each job's
``meta`` carries the replay ID and the ID of the HTTP request that queued it (if any), for the
worker's log line (:mod:`worker.joblog`), and ``light`` for a replay whose work fits what a request
does itself (``MAX_STEPS_IN_REQUEST``): a forking worker runs such a job in its own process
(:class:`worker.workers.ArbiterWorker`).

The queue has a ceiling: :func:`is_full` is true once ``ARBITER_MAX_QUEUED`` jobs
(``judge.limits.MAX_QUEUED_JOBS``) wait, and a request that would queue one more is refused (503)
instead. The check and the queuing are two steps, so requests that check at the same moment may
each queue past it: the bound is that many jobs plus the requests in flight.
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


RULING_JOB = "worker.jobs.compute_ruling"
TIMELINE_JOB = "worker.jobs.compute_timeline"
REPLAY_JOB = "worker.jobs.replay_stored"


def is_full(queue: Queue, cfg: Settings | None = None) -> bool:
    """True when ``max_queued`` jobs (or more) wait in the queue (one ``LLEN``)."""
    cfg = cfg or settings_mod.load()
    return queue.count >= cfg.max_queued


def _meta(replay_id: str, request_id: str | None) -> dict[str, object]:
    meta: dict[str, object] = {"replay": replay_id}
    if request_id:
        meta["request_id"] = request_id
    return meta


def enqueue_ruling(queue: Queue, replay_id: str, at: int | None, cfg: Settings | None = None, *,
                   request_id: str | None = None, function: str = RULING_JOB) -> str:
    """Queue a ruling on step ``at`` of a stored replay; returns the ruling ID (= the job ID).

    ``function`` is the job's dotted name: tests queue stand-ins for the engine call through here.
    """
    cfg = cfg or settings_mod.load()
    ruling_id = uuid.uuid4().hex
    queue.enqueue(function, ruling_id, replay_id, at, job_id=ruling_id, meta=_meta(replay_id, request_id),
                  **_job_options(cfg))
    return ruling_id


def timeline_job_id(replay_id: str) -> str:
    """The timeline job of a replay has a fixed ID: at most one is waiting or running at a time."""
    return f"timeline-{replay_id}"


def enqueue_timeline(queue: Queue, replay_id: str, cfg: Settings | None = None, *,
                     request_id: str | None = None, function: str = TIMELINE_JOB) -> Job:
    """Queue the computation of a stored replay's timeline (stored beside the log)."""
    cfg = cfg or settings_mod.load()
    return queue.enqueue(function, replay_id, job_id=timeline_job_id(replay_id),
                         meta=_meta(replay_id, request_id), **_job_options(cfg))


def replay_job_id(replay_id: str) -> str:
    """The replay job of a stored log has a fixed ID: at most one is waiting or running at a time."""
    return f"replay-{replay_id}"


#: the job meta key of a light job (see the module's docstring)
LIGHT = "light"


def enqueue_replay(queue: Queue, replay_id: str, cfg: Settings | None = None, *,
                   request_id: str | None = None, function: str = REPLAY_JOB, light: bool = False) -> Job:
    """Queue the replay of a stored log (its result is stored beside the log); ``light``: its replay
    work fits ``MAX_STEPS_IN_REQUEST`` (:func:`arbiter.store.replays_in_request`)."""
    cfg = cfg or settings_mod.load()
    meta = _meta(replay_id, request_id) | ({LIGHT: True} if light else {})
    return queue.enqueue(function, replay_id, job_id=replay_job_id(replay_id), meta=meta, **_job_options(cfg))


def enqueue_replays(queue: Queue, replays: list[tuple[str, bool]], cfg: Settings | None = None) -> list[Job]:
    """``enqueue_replay`` for each (replay ID, light) of ``replays``, in one round trip."""
    cfg = cfg or settings_mod.load()
    retry = Retry(max=cfg.job_retries, interval=cfg.retry_interval) if cfg.job_retries > 0 else None
    datas = [Queue.prepare_data(REPLAY_JOB, (replay_id,), job_id=replay_job_id(replay_id),
                                meta=_meta(replay_id, None) | ({LIGHT: True} if light else {}),
                                timeout=cfg.job_timeout, result_ttl=cfg.result_ttl, failure_ttl=cfg.failure_ttl,
                                retry=retry)
            for replay_id, light in replays]
    return queue.enqueue_many(datas) if datas else []


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
    """RQ's job statuses folded into the four the API shows: queued, started, finished, failed.

    A job waiting for a retry (``scheduled``) or for another job (``deferred``) shows as queued.
    """
    if status in (JobStatus.STARTED,):
        return "started"
    if status == JobStatus.FINISHED:
        return "finished"
    if status in (JobStatus.FAILED, JobStatus.STOPPED, JobStatus.CANCELED):
        return "failed"
    return "queued"
