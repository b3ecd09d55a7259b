"""The ceilings on one job: wall time and memory. A job that passes one gets a clear answer, not a retry.

- **Time** is RQ's job timeout (``ARBITER_JOB_TIMEOUT``, 30 s by default): RQ raises
  ``JobTimeoutException`` in the job when it runs out.
- **Memory** is ``ARBITER_JOB_MEMORY_MB`` (512 by default) of address space on top of what the work
  horse holds when it is forked: :func:`limit_memory` sets ``RLIMIT_AS`` in the forked horse only
  (:class:`worker.workers.ArbiterWorker` calls it), never in the worker that forks it nor in the
  API, so an allocation beyond it raises ``MemoryError`` in the job and the worker lives on. A
  ``--simple`` worker runs jobs in its own process and sets no memory ceiling; so does the forking
  worker for a light replay job (work that fits ``MAX_STEPS_IN_REQUEST``, which the API does in a
  request itself: :class:`worker.workers.ArbiterWorker`).

:func:`bounded` turns either into :class:`CeilingExceeded`, which a job stores as the answer
``{"kind": "ceiling", "ceiling": "time" | "memory", "message": ...}``.
"""

from __future__ import annotations

import resource
from collections.abc import Callable
from typing import Any, TypeVar

import psutil
from rq import get_current_job
from rq.timeouts import JobTimeoutException

T = TypeVar("T")
MB = 1024 * 1024

_memory_mb: int | None = None  # the ceiling set in this process (a work horse), if any


class CeilingExceeded(Exception):
    """A job's computation passed its time or memory ceiling."""

    def __init__(self, ceiling: str, message: str):
        super().__init__(message)
        self.ceiling = ceiling
        self.message = message

    def to_json(self) -> dict[str, str]:
        return {"kind": "ceiling", "ceiling": self.ceiling, "message": self.message}


def limit_memory(mb: int) -> int | None:
    """Let this process grow by at most ``mb`` MB of address space; returns the limit in bytes.

    For a freshly forked work horse only: the limit cannot be raised again past the hard limit,
    and it counts the address space the horse inherited. ``mb <= 0`` sets no limit.
    """
    global _memory_mb
    if mb <= 0:
        return None
    limit = psutil.Process().memory_info().vms + mb * MB
    _soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    _memory_mb = mb
    return limit


def memory_ceiling_mb() -> int | None:
    """The memory ceiling :func:`limit_memory` set in this process (None: none)."""
    return _memory_mb


def _time_ceiling() -> int | None:
    job = get_current_job()
    timeout = job.timeout if job is not None else None
    return int(timeout) if timeout else None


def message(what: str, ceiling: str) -> str:
    if ceiling == "time":
        seconds = _time_ceiling()
        limit = f"{seconds} s" if seconds else "the job's time limit"
        return f"{what} took longer than {limit} (ARBITER_JOB_TIMEOUT): the log is too heavy to compute here."
    mb = memory_ceiling_mb()
    limit = f"{mb} MB" if mb else "the memory the worker has"
    return f"{what} needed more than {limit} (ARBITER_JOB_MEMORY_MB): the log is too heavy to compute here."


def bounded(what: str, compute: Callable[..., T], *args: Any) -> T:
    """``compute(*args)``, or :class:`CeilingExceeded` if it passes the time or the memory ceiling.

    ``what`` names the computation in the message ("The ruling", "The timeline"). The exception is
    raised after the failed computation's frames are gone, so its memory is free again by then.
    """
    try:
        return compute(*args)
    except JobTimeoutException:
        hit = "time"
    except MemoryError:
        hit = "memory"
    raise CeilingExceeded(hit, message(what, hit))
