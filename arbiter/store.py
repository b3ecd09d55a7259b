"""Stored replays and rulings in Redis: the one place that knows the key layout.

Keys (all values are JSON text):

- ``arbiter:replay:<id>:log``: the log as posted; ``<id>`` is :func:`replays.service.log_id`.
- ``arbiter:replay:<id>:result``: its replay result (spec section 4), written with the log when the
  request replayed it, else by the replay job (:func:`worker.jobs.replay_stored`).
- ``arbiter:replay:<id>:result:error``: why the replay job stored no result
  (``{"kind": "ceiling", "ceiling", "message"}``); it expires, so that a later request tries again.
- ``arbiter:replay:<id>:result:queued``: a short-lived claim taken by the request that queues the
  replay job, so that two API processes do not queue it twice.
- ``arbiter:replay:<id>:timeline``: its annotated timeline, computed by a worker job, as
  ``{"timeline": ...}``, or ``{"error": {"kind", "message", ...}}`` when it could not be computed
  (an error expires, so that a later request tries again).
- ``arbiter:replay:<id>:timeline:queued``: the same claim for the timeline job.
- ``arbiter:ruling:<ruling id>``: a finished ruling job's record, ``{"replay", "at", "ruling"}``
  or ``{"replay", "at", "error"}``; it expires after ``ruling_ttl`` seconds.
- ``arbiter:ruling:<ruling id>:deliveries``: how many times a record was written for the ruling.

Records computed by jobs are written once (``SET NX``): a job that RQ runs twice (its worker was
presumed dead and it was re-queued, yet the first run finished too) cannot replace the answer a
client may already have read. The deliveries counter is raised in the same atomic step as the
write, so it reads 1 for every delivered ruling.

The API's ``POST /v1/replays`` and ``POST /v1/rulings``, ``arbiter run`` (loading the examples) and
the tests store logs through :func:`put_log`, which replays a log itself only when its replay work
(:func:`replay_work`) fits ``MAX_STEPS_IN_REQUEST`` (judge/limits.py).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import redis

from judge.limits import MAX_STEPS_IN_REQUEST
from replays.service import MalformedLog, log_id, replay_json, validate

PREFIX = "arbiter"


def log_key(replay_id: str) -> str:
    return f"{PREFIX}:replay:{replay_id}:log"


def result_key(replay_id: str) -> str:
    return f"{PREFIX}:replay:{replay_id}:result"


def replay_error_key(replay_id: str) -> str:
    return f"{PREFIX}:replay:{replay_id}:result:error"


def replay_claim_key(replay_id: str) -> str:
    return f"{PREFIX}:replay:{replay_id}:result:queued"


def timeline_key(replay_id: str) -> str:
    return f"{PREFIX}:replay:{replay_id}:timeline"


def timeline_claim_key(replay_id: str) -> str:
    return f"{PREFIX}:replay:{replay_id}:timeline:queued"


def ruling_key(ruling_id: str) -> str:
    return f"{PREFIX}:ruling:{ruling_id}"


def deliveries_key(ruling_id: str) -> str:
    return f"{PREFIX}:ruling:{ruling_id}:deliveries"


def dumps(value: Any) -> str:
    """Strict JSON text: raises ``TypeError``/``ValueError`` for anything not JSON (NaN included)."""
    return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))


@dataclass(frozen=True)
class Stored:
    replay_id: str
    #: the replay result; None when the log was stored without replaying it (a job computes it)
    result: dict[str, Any] | None
    created: bool


def summary(result: dict[str, Any]) -> dict[str, Any]:
    """The short form of a replay result: everything but the final state view."""
    return {k: result.get(k) for k in ("valid", "steps", "final_state_hash", "outcome", "checkpoints",
                                       "error")}


def replay_work(log: Any) -> int:
    """The work of replaying a (validated) log, in the unit of ``MAX_STEPS_IN_REQUEST``: its steps,
    each step with a checkpoint (``expect``: a state hash and view, or an expected error's state
    copy) counting twice. On a table at every bound either costs about a millisecond."""
    steps = log.get("steps") if isinstance(log, dict) else None
    if not isinstance(steps, list):
        return 0
    return len(steps) + sum(1 for step in steps if isinstance(step, dict) and "expect" in step)


def replays_in_request(log: Any) -> bool:
    """Whether a request may replay ``log`` itself (else a worker job does)."""
    return replay_work(log) <= MAX_STEPS_IN_REQUEST


def put_log(r: redis.Redis, log: Any, *, replay: bool | None = None) -> Stored:
    """Validate and store a log; raises ``MalformedLog`` (nothing stored) for a bad one.

    The log is replayed here, its result stored with it in one transaction, when ``replay`` is true,
    or by default when :func:`replays_in_request`; otherwise it is stored alone (``result`` None)
    and the replay job computes its result. Storing the same log twice keeps the first copy and
    reports ``created=False`` (with the stored result, if any).
    """
    faults = validate(log)
    if faults:
        raise MalformedLog(faults)
    replay_id = log_id(log)
    existing = r.get(result_key(replay_id))
    if existing is not None and r.exists(log_key(replay_id)):
        return Stored(replay_id, json.loads(existing), created=False)
    if replay is None:
        replay = replays_in_request(log)
    if not replay:
        return Stored(replay_id, None, created=bool(r.set(log_key(replay_id), dumps(log), nx=True)))
    result = replay_json(log)
    with r.pipeline(transaction=True) as pipe:
        pipe.set(log_key(replay_id), dumps(log), nx=True)
        pipe.set(result_key(replay_id), dumps(result))
        created, _ = pipe.execute()
    return Stored(replay_id, result, created=bool(created))


def get_log(r: redis.Redis, replay_id: str) -> Any | None:
    raw = r.get(log_key(replay_id))
    return None if raw is None else json.loads(raw)


def has_log(r: redis.Redis, replay_id: str) -> bool:
    return bool(r.exists(log_key(replay_id)))


def get_result(r: redis.Redis, replay_id: str) -> dict[str, Any] | None:
    raw = r.get(result_key(replay_id))
    return None if raw is None else json.loads(raw)


def put_result(r: redis.Redis, replay_id: str, result: dict[str, Any]) -> bool:
    """Store a replay result unless one is stored (the replay job's); True when this call wrote it.
    A replay error left by an earlier run goes with it."""
    written = bool(r.set(result_key(replay_id), dumps(result), nx=True))
    if written:
        r.delete(replay_error_key(replay_id))
    return written


def put_replay_error(r: redis.Redis, replay_id: str, error: dict[str, Any], ttl: int) -> bool:
    """Store why the replay job stored no result, for ``ttl`` seconds (0: for good), unless an
    error is stored already; True when this call wrote it."""
    return bool(r.set(replay_error_key(replay_id), dumps(error), nx=True, ex=ttl if ttl > 0 else None))


def get_replay_error(r: redis.Redis, replay_id: str) -> dict[str, Any] | None:
    raw = r.get(replay_error_key(replay_id))
    return None if raw is None else json.loads(raw)


def claim_replay_job(r: redis.Redis, replay_id: str, seconds: int) -> bool:
    """True for the one caller (among concurrent ones) that should queue the replay job now."""
    return bool(r.set(replay_claim_key(replay_id), "1", nx=True, ex=max(seconds, 1)))


# KEYS: record, counter; ARGV: JSON text, ttl (seconds, 0: none). 1 when written, 0 when one was there.
_WRITE_ONCE = """
local ttl = tonumber(ARGV[2])
local written
if ttl > 0 then
  written = redis.call('SET', KEYS[1], ARGV[1], 'NX', 'EX', ttl)
else
  written = redis.call('SET', KEYS[1], ARGV[1], 'NX')
end
if not written then
  return 0
end
redis.call('INCR', KEYS[2])
if ttl > 0 then
  redis.call('EXPIRE', KEYS[2], ttl)
end
return 1
"""


def put_ruling(r: redis.Redis, ruling_id: str, record: dict[str, Any], ttl: int) -> bool:
    """Store a ruling's record unless one is stored already; True when this call wrote it."""
    written = r.eval(_WRITE_ONCE, 2, ruling_key(ruling_id), deliveries_key(ruling_id), dumps(record),
                     max(ttl, 0))
    return bool(written)


def deliveries(r: redis.Redis, ruling_id: str) -> int:
    """How many times a record was written for ``ruling_id`` (1 once delivered, 0 before)."""
    raw = r.get(deliveries_key(ruling_id))
    return int(raw) if raw is not None else 0


def get_ruling(r: redis.Redis, ruling_id: str) -> dict[str, Any] | None:
    raw = r.get(ruling_key(ruling_id))
    return None if raw is None else json.loads(raw)


def put_timeline(r: redis.Redis, replay_id: str, record: dict[str, Any], ttl: int = 0) -> bool:
    """Store a timeline record (``{"timeline"}`` or ``{"error"}``) unless one is stored; True if written."""
    return bool(r.set(timeline_key(replay_id), dumps(record), nx=True, ex=ttl if ttl > 0 else None))


def get_timeline(r: redis.Redis, replay_id: str) -> dict[str, Any] | None:
    raw = r.get(timeline_key(replay_id))
    return None if raw is None else json.loads(raw)


def claim_timeline_job(r: redis.Redis, replay_id: str, seconds: int) -> bool:
    """True for the one caller (among concurrent ones) that should queue the timeline job now."""
    return bool(r.set(timeline_claim_key(replay_id), "1", nx=True, ex=max(seconds, 1)))
