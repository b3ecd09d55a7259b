"""RQ jobs: thin functions that take IDs, load the log from Redis, call the engine, store the result.

Each job returns a small dict that survives a strict JSON round trip (:func:`_json_result`): RQ
would otherwise store a value its serializer cannot encode as a placeholder string and still report
success. A malformed log or a step the log does not have is an *answer* (a stored ruling error), not
a crash, so RQ never retries it; only unexpected exceptions fail the job (and are retried).
"""

from __future__ import annotations

import json
from typing import Any

import redis
from rq import get_current_job

from arbiter import settings as settings_mod
from arbiter import store
from arbiter.redis_conn import shared_url
from replays.service import MalformedLog, StepOutOfRange, replay_json, ruling_json


def _connection() -> redis.Redis:
    job = get_current_job()
    if job is not None:
        return job.connection
    cfg = settings_mod.load()  # called outside a worker (tests, the CLI)
    return redis.Redis.from_url(shared_url(cfg.redis_url, cfg.data_dir))


def _json_result(value: dict[str, Any]) -> dict[str, Any]:
    """``value`` after a strict JSON round trip; raises ``TypeError``/``ValueError`` if not JSON."""
    result = json.loads(store.dumps(value))
    if not isinstance(result, dict):
        raise TypeError("a job result must be a JSON object")
    return result


def compute_ruling(ruling_id: str, replay_id: str, at: int | None) -> dict[str, Any]:
    """Rule on step ``at`` (None: the disputed step, else the last) of stored replay ``replay_id``."""
    r = _connection()
    record: dict[str, Any] = {"replay": replay_id, "at": at}
    log = store.get_log(r, replay_id)
    if log is None:
        record["error"] = {"kind": "not-found", "message": f"no stored replay {replay_id}"}
    else:
        try:
            record["ruling"] = ruling_json(log, at)
        except MalformedLog as exc:
            record["error"] = {"kind": "malformed", "message": str(exc),
                               "faults": [f.to_json() for f in exc.faults]}
        except StepOutOfRange as exc:
            record["error"] = {"kind": "step-out-of-range", "message": str(exc)}
    store.put_ruling(r, ruling_id, record, settings_mod.load().ruling_ttl)
    return _json_result({"ruling": ruling_id, "replay": replay_id, "at": at,
                         "ok": "error" not in record})


def replay_stored(replay_id: str) -> dict[str, Any]:
    """Replay a stored log and store its result beside it."""
    r = _connection()
    log = store.get_log(r, replay_id)
    if log is None:
        return _json_result({"replay": replay_id, "ok": False, "error": "not-found"})
    result = replay_json(log)
    store.put_result(r, replay_id, result)
    return _json_result({"replay": replay_id, "ok": True, "valid": bool(result.get("valid"))})


def noop() -> dict[str, Any]:
    """Does nothing; measures the queue's own latency."""
    return {"ok": True}
