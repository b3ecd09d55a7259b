"""The replay layer's public facade: JSON in, JSON out.

The CLI, the RQ jobs and the API call only these functions. Each takes a log already decoded from
JSON (``dict``) and returns plain JSON-ready data in the shapes of docs/replay-format.md.

- ``replay_json(log)``: spec section 4 (never raises for a bad log: ``valid`` is false and
  ``faults`` or ``error`` says why).
- ``ruling_json(log, at=None)``: spec section 6 for step ``at`` (1-based; default: the step marked
  ``dispute``, else the last). Raises ``MalformedLog`` or ``StepOutOfRange``.
- ``timeline_json(log)``: per-step events, rule IDs, notes and state hashes. Raises ``MalformedLog``.
- ``validate(log)``: the list of faults (empty when the log is well formed).
- ``log_id(log)``: the content address of a log (same log, same ID).
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from replays.errors import Fault, MalformedLog, StepOutOfRange

__all__ = ["Fault", "MalformedLog", "StepOutOfRange", "log_id", "replay_json", "ruling_json",
           "timeline_json", "validate"]


def log_id(log: Any) -> str:
    """Content address: SHA-256 of the canonical JSON encoding (sorted keys, no spaces, UTF-8)."""
    canon = json.dumps(log, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canon.encode("utf-8")).hexdigest()


def validate(log: Any) -> list[Fault]:
    raise NotImplementedError("engine facade not wired yet")


def replay_json(log: Any) -> dict[str, Any]:
    raise NotImplementedError("engine facade not wired yet")


def ruling_json(log: Any, at: int | None = None) -> dict[str, Any]:
    raise NotImplementedError("engine facade not wired yet")


def timeline_json(log: Any) -> dict[str, Any]:
    raise NotImplementedError("engine facade not wired yet")
