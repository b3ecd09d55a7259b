"""One JSON line per job on the worker's stderr, written by the worker after the job ran.

``{"ts", "level", "event": "job", "job": <job ID (= the ruling ID)>, "function", "replay",
"request_id", "duration_ms", "outcome", "status", "delivered", "worker", "pid"}`` (the shape of the
API's request lines, api/requestlog.py, at level ``error`` when the job failed); ``outcome`` is ``ok``, the
kind of error the job stored as its answer (``ceiling``, ``malformed``, ``step-out-of-range``,
``not-found``), or ``failed`` (the job raised, or its work horse died; ``status`` then says whether
RQ will retry it: ``scheduled`` or ``queued``, else ``failed``). ``request_id`` is the ID of the
HTTP request that queued the job (the API puts it in the job's meta).
"""

from __future__ import annotations

import json
import logging
import os
import sys
from typing import Any

from rq.exceptions import InvalidJobOperation
from rq.job import Job, JobStatus

from arbiter import jsonlog

logger = logging.getLogger("arbiter.jobs")


def install(stream: Any = None) -> None:
    """Send the job lines to ``stream`` (stderr), one JSON object per line, once per process."""
    if any(getattr(h, "_arbiter_jobs", False) for h in logger.handlers):
        return
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(logging.Formatter("%(message)s"))
    handler._arbiter_jobs = True  # type: ignore[attr-defined]
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    logger.propagate = False


_UNREAD = object()  # the job's return value, not known in this process: read from Redis


def _outcome(job: Job, status: JobStatus | None, value: Any = _UNREAD) -> tuple[str, bool | None]:
    if status != JobStatus.FINISHED:
        return ("stopped" if status == JobStatus.STOPPED else "failed"), None
    if value is _UNREAD:
        result = job.latest_result()
        value = result.return_value if result is not None else None
    if not isinstance(value, dict):
        return "ok", None
    delivered = value.get("delivered")
    outcome = value.get("outcome") or ("ok" if value.get("ok") else str(value.get("error") or "error"))
    return str(outcome), delivered if isinstance(delivered, bool) else None


def line(job: Job, worker_name: str, seconds: float, finished: Any = _UNREAD) -> dict[str, Any]:
    """The log record of ``job`` as it stands after a run that took ``seconds``; ``finished``: the
    value the job returned when it finished in this process (else its status and result are read
    back from Redis: a work horse ran it, or it failed)."""
    status: JobStatus | None
    if finished is not _UNREAD:
        status = JobStatus.FINISHED
    else:
        try:
            status = job.get_status(refresh=True)
        except InvalidJobOperation:  # the job and its result are gone already (result_ttl 0)
            status = None
    meta = job.meta or {}
    outcome, delivered = _outcome(job, status, finished) if status is not None else ("unknown", None)
    try:
        function = job.func_name
    except Exception:  # a payload that does not deserialize: RQ failed the job already
        function = None
    return {"ts": jsonlog.now(), "level": "error" if outcome in ("failed", "unknown") else "info",
            "event": "job", "job": job.id, "function": function, "replay": meta.get("replay"),
            "request_id": meta.get("request_id"), "duration_ms": round(seconds * 1000, 1),
            "outcome": outcome, "status": status.value if status is not None else None,
            "delivered": delivered, "worker": worker_name, "pid": os.getpid()}


def emit(job: Job, worker_name: str, seconds: float, finished: Any = _UNREAD) -> None:
    """Log ``job``'s line (``finished``: as for :func:`line`); never raises (a logging failure must
    not stop the worker)."""
    try:
        record = line(job, worker_name, seconds, finished)
    except Exception as exc:  # Redis away for a moment: say so in one line, keep working
        record = {"ts": jsonlog.now(), "level": "error", "event": "job", "job": job.id, "worker": worker_name,
                  "pid": os.getpid(),
                  "duration_ms": round(seconds * 1000, 1), "outcome": "unknown", "log_error": repr(exc)}
    level = logging.ERROR if record.get("level") == "error" else logging.INFO
    # ensure_ascii: plain ASCII lines; jsonlog.write: logger.log without its look for the calling frame
    jsonlog.write(logger, level, json.dumps(record, separators=(",", ":")))
