"""Process settings read from the environment, in one place.

Every knob the shells (API, worker, CLI) share lives here with its default, so that a job, the API
and ``arbiter run`` agree on queue names, time-outs and where the embedded Redis keeps its data.

A value that cannot be used (``ARBITER_JOB_TIMEOUT=abc``, ``0``, a hundred years;
``ARBITER_REDIS_FSYNC=bogus``) makes :func:`load` raise :class:`SettingError`, whose message names
the setting, the value and what is allowed: the commands print it as their one-line error (the
``arbiter`` group turns it into click's ``Error: ...``) before anything starts.
"""

from __future__ import annotations

import contextlib
import errno
import os
import shlex
import tempfile
from dataclasses import dataclass
from pathlib import Path

from judge.limits import MAX_QUEUED_JOBS

QUEUE_NAME = "arbiter"
#: the AOF fsync policies of the embedded Redis (``ARBITER_REDIS_FSYNC``)
FSYNC_POLICIES = ("always", "everysec", "no")
DAY = 86_400
#: the longest a TTL may be: ten years (Redis takes far more; a longer one is a typo)
MAX_TTL = 3650 * DAY


class SettingError(ValueError):
    """A setting whose value cannot be used; the message names the setting, the value and what is
    allowed (one line, for a terminal)."""


def shown(value: str) -> str:
    """``value`` as a shell would need it written (``abc``, ``'two words'``, ``''``)."""
    return shlex.quote(value)


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


def _int(name: str, default: int, low: int, high: int, unit: str) -> int:
    """The whole number ``name`` holds (``default`` when unset or empty), from ``low`` to ``high``."""
    raw = os.environ.get(name)
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError:
        value = None
    if value is None or not low <= value <= high:
        what = "not a whole number" if value is None else "out of range"
        raise SettingError(f"{name}={shown(raw)} is {what}: it must be a whole number of {unit} "
                           f"from {low} to {high} (default {default})")
    return value


def load() -> Settings:
    """Settings from the environment (``REDIS_URL``, ``ARBITER_DATA_DIR``, ``ARBITER_JOB_*``,
    ``ARBITER_REDIS_FSYNC``, ``ARBITER_MAX_QUEUED``); :class:`SettingError` for a value that cannot
    be used."""
    fsync = os.environ.get("ARBITER_REDIS_FSYNC") or "always"
    if fsync not in FSYNC_POLICIES:
        raise SettingError(f"ARBITER_REDIS_FSYNC={shown(fsync)} is not an fsync policy: it must be "
                           f"one of {', '.join(FSYNC_POLICIES)} (default always)")
    return Settings(
        redis_url=os.environ.get("REDIS_URL") or None,
        data_dir=Path(os.environ.get("ARBITER_DATA_DIR", "var")).resolve(),
        job_timeout=_int("ARBITER_JOB_TIMEOUT", 30, 1, DAY, "seconds"),
        job_retries=_int("ARBITER_JOB_RETRIES", 2, 0, 100, "retries"),
        retry_interval=_int("ARBITER_JOB_RETRY_INTERVAL", 1, 0, DAY, "seconds"),
        result_ttl=_int("ARBITER_RESULT_TTL", 3600, 1, MAX_TTL, "seconds"),
        failure_ttl=_int("ARBITER_FAILURE_TTL", DAY, 1, MAX_TTL, "seconds"),
        ruling_ttl=_int("ARBITER_RULING_TTL", 7 * DAY, 1, MAX_TTL, "seconds"),
        redis_fsync=fsync,
        job_memory_mb=_int("ARBITER_JOB_MEMORY_MB", 512, 0, 1_048_576, "MB (0: no ceiling)"),
        max_queued=_int("ARBITER_MAX_QUEUED", MAX_QUEUED_JOBS, 1, 100_000_000, "jobs"),
    )


def check_data_dir(path: Path) -> None:
    """Make the data directory ``path`` (and its parents) when it is missing, and see that this
    process can create files in it (one file made and removed); :class:`SettingError`
    (``ARBITER_DATA_DIR``) when it is a file, or cannot be made or written."""
    try:
        path.mkdir(parents=True, exist_ok=True)
        fd, probe = tempfile.mkstemp(prefix=".write-check-", dir=path)
        os.close(fd)
        with contextlib.suppress(OSError):
            os.unlink(probe)
    except OSError as exc:
        if path.exists() and not path.is_dir():
            problem = "a file, not a directory"
        elif isinstance(exc, FileExistsError):  # (a link to nothing, say)
            problem = "there but not a directory"
        elif isinstance(exc, NotADirectoryError):
            above = next((p for p in path.parents if p.exists() and not p.is_dir()), None)
            problem = f"under {above}, which is a file" if above else "under a file, not a directory"
        elif exc.errno in (errno.EACCES, errno.EPERM):
            problem = "not writable by this user" if path.is_dir() else "not makeable by this user"
        elif exc.errno == errno.EROFS:
            problem = "on a read-only file system"
        else:
            problem = f"not usable ({exc.strerror or exc})"
        raise SettingError(f"ARBITER_DATA_DIR={shown(str(path))} is {problem}: it must be a directory "
                           "this user can write, or a path where one can be made (default var)") from exc
