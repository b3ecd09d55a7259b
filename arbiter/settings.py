"""Process settings read from the environment, in one place.

Every knob the shells (API, worker, CLI) share lives here with its default, so that a job, the API
and ``arbiter run`` agree on queue names, time-outs and where the embedded Redis keeps its data.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from judge.limits import MAX_QUEUED_JOBS

QUEUE_NAME = "arbiter"


@dataclass(frozen=True)
class Settings:
    redis_url: str | None
    data_dir: Path
    job_timeout: int
    job_retries: int
    retry_interval: int
    result_ttl: int
    failure_ttl: int
    ruling_ttl: int
    #: AOF fsync policy of the embedded Redis (``always``: no acknowledged write is lost when it
    #: is killed; ``everysec``: faster for one client at a time, may lose about a second of writes)
    redis_fsync: str = "always"
    job_memory_mb: int = 512
    #: jobs waiting in the queue before a request that would queue one more is refused (503)
    max_queued: int = MAX_QUEUED_JOBS


def _int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    return int(raw) if raw else default


def load() -> Settings:
    """Settings from the environment (``REDIS_URL``, ``ARBITER_DATA_DIR``, ``ARBITER_JOB_*``,
    ``ARBITER_REDIS_FSYNC``, ``ARBITER_MAX_QUEUED``)."""
    return Settings(
        redis_url=os.environ.get("REDIS_URL") or None,
        data_dir=Path(os.environ.get("ARBITER_DATA_DIR", "var")).resolve(),
        job_timeout=_int("ARBITER_JOB_TIMEOUT", 30),
        job_retries=_int("ARBITER_JOB_RETRIES", 2),
        retry_interval=_int("ARBITER_JOB_RETRY_INTERVAL", 1),
        result_ttl=_int("ARBITER_RESULT_TTL", 3600),
        failure_ttl=_int("ARBITER_FAILURE_TTL", 86400),
        ruling_ttl=_int("ARBITER_RULING_TTL", 7 * 86400),
        redis_fsync=os.environ.get("ARBITER_REDIS_FSYNC") or "always",
        job_memory_mb=_int("ARBITER_JOB_MEMORY_MB", 512),
        max_queued=_int("ARBITER_MAX_QUEUED", MAX_QUEUED_JOBS),
    )
