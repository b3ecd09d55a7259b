"""Stored replays and rulings in Redis: the one place that knows the key layout.

Keys (all values are JSON text):

- ``arbiter:replay:<id>:log``: the log as posted; ``<id>`` is :func:`replays.service.log_id`.
- ``arbiter:replay:<id>:result``: its replay result (spec section 4).
- ``arbiter:ruling:<ruling id>``: a finished ruling job's record, ``{"replay", "at", "ruling"}``
  or ``{"replay", "at", "error"}``; it expires after ``ruling_ttl`` seconds.

The API's ``POST /v1/replays``, ``arbiter run`` (loading the examples) and the replay job all store
logs through :func:`put_log`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import redis

from replays.service import MalformedLog, log_id, replay_json, validate

PREFIX = "arbiter"


def log_key(replay_id: str) -> str:
    return f"{PREFIX}:replay:{replay_id}:log"


def result_key(replay_id: str) -> str:
    return f"{PREFIX}:replay:{replay_id}:result"


def ruling_key(ruling_id: str) -> str:
    return f"{PREFIX}:ruling:{ruling_id}"


def dumps(value: Any) -> str:
    """Strict JSON text: raises ``TypeError``/``ValueError`` for anything not JSON (NaN included)."""
    return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))


@dataclass(frozen=True)
class Stored:
    replay_id: str
    result: dict[str, Any]
    created: bool


def summary(result: dict[str, Any]) -> dict[str, Any]:
    """The short form of a replay result: everything but the final state view."""
    return {k: result.get(k) for k in ("valid", "steps", "final_state_hash", "outcome", "checkpoints",
                                       "error")}


def put_log(r: redis.Redis, log: Any) -> Stored:
    """Validate, replay and store a log. Raises ``MalformedLog`` (nothing stored) for a bad one.

    Storing the same log twice keeps the first copy and reports ``created=False``.
    """
    faults = validate(log)
    if faults:
        raise MalformedLog(faults)
    replay_id = log_id(log)
    existing = r.get(result_key(replay_id))
    if existing is not None and r.exists(log_key(replay_id)):
        return Stored(replay_id, json.loads(existing), created=False)
    result = replay_json(log)
    created = bool(r.set(log_key(replay_id), dumps(log), nx=True))
    r.set(result_key(replay_id), dumps(result))
    return Stored(replay_id, result, created=created)


def get_log(r: redis.Redis, replay_id: str) -> Any | None:
    raw = r.get(log_key(replay_id))
    return None if raw is None else json.loads(raw)


def get_result(r: redis.Redis, replay_id: str) -> dict[str, Any] | None:
    raw = r.get(result_key(replay_id))
    return None if raw is None else json.loads(raw)


def put_result(r: redis.Redis, replay_id: str, result: dict[str, Any]) -> None:
    r.set(result_key(replay_id), dumps(result))


def put_ruling(r: redis.Redis, ruling_id: str, record: dict[str, Any], ttl: int) -> None:
    r.set(ruling_key(ruling_id), dumps(record), ex=ttl if ttl > 0 else None)


def get_ruling(r: redis.Redis, ruling_id: str) -> dict[str, Any] | None:
    raw = r.get(ruling_key(ruling_id))
    return None if raw is None else json.loads(raw)
