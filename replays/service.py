"""The replay layer's public facade: JSON in, JSON out.

The CLI, the RQ jobs and the API call only these functions. Each takes a log already decoded from
JSON (``dict``) and returns plain JSON-ready data in the shapes of docs/replay-format.md.

- ``replay_json(log)``: spec section 4 (never raises for a bad log: ``valid`` is false and
  ``faults`` or ``error`` says why).
- ``ruling_json(log, at=None)``: spec section 6 for step ``at`` (1-based; default: the step marked
  ``dispute``, else the last). Raises ``MalformedLog`` or ``StepOutOfRange``.
- ``ruling_words_json(log, at=None)``: the ruling and, beside it, the same ruling in words with card
  names (``replays.ruling.ruling_words``): ``{"ruling": ..., "words": ...}``. Raises as ``ruling_json``.
- ``timeline_json(log)``: per-step events, rule IDs, notes and state hashes. Raises ``MalformedLog``.
- ``validate(log)``: the list of faults (empty when the log is well formed).
- ``log_id(log)``: the content address of a log (same log, same ID). Raises ``MalformedLog`` for
  a log whose JSON structure is out of bounds (a lone surrogate cannot even be encoded).

Whatever JSON they are given, these functions raise nothing but ``MalformedLog`` and
``StepOutOfRange`` (tests/replays/test_fuzz_logs.py), and do bounded work: every log is first
scanned once for its structure's bounds (judge.games.jsonbounds, judge.limits).
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from judge.games import registry
from judge.games.base import names_reader
from replays import format as fmt
from replays.errors import Fault, MalformedLog, StepOutOfRange
from replays.replayer import ReplayResult, replay
from replays.ruling import rule, ruling_words
from replays.timeline import timeline

__all__ = ["Fault", "MalformedLog", "StepOutOfRange", "log_id", "replay_json", "ruling_json",
           "ruling_words_json", "timeline_json", "validate"]


def warm() -> None:
    """Load every written game, its card pool and the index of its cards' names now (a worker calls
    this before it forks, so that a forked work horse does not load them again for each job)."""
    for game_id in registry.written():
        game = registry.get(game_id)
        cards = game.default_cards()
        names = names_reader(game)
        if names is not None:  # the reading of card names and the pool's index of them
            names.warm_names(cards)


def log_id(log: Any) -> str:
    """Content address: SHA-256 of the canonical JSON encoding (sorted keys, no spaces, UTF-8)."""
    faults = fmt.structure_faults(log)
    if faults:
        raise MalformedLog(faults)
    canon = json.dumps(log, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canon.encode("utf-8")).hexdigest()


def validate(log: Any, cards: Any = None) -> list[Fault]:
    """``cards``: a card pool of the log's game to read it with (default: the game's own)."""
    try:
        fmt.parse_log(log, cards)
    except MalformedLog as exc:
        return exc.faults
    return []


def replay_result(log: Any, cards: Any = None) -> ReplayResult:
    try:
        parsed = fmt.parse_log(log, cards)
        return replay(parsed, cards)
    except MalformedLog as exc:
        return ReplayResult(valid=False, steps=0, state=None, faults=exc.faults)


def replay_json(log: Any, cards: Any = None) -> dict[str, Any]:
    result = replay_result(log, cards).to_json()
    if result["faults"]:
        result["error"] = {"at": None, "kind": "malformed", "rule": None,
                           "message": f"{len(result['faults'])} fault(s) in the log; the first: "
                                      f"{result['faults'][0]['path'] or '/'}: {result['faults'][0]['message']}"}
    return result


def ruling_json(log: Any, at: int | None = None, cards: Any = None) -> dict[str, Any]:
    parsed = fmt.parse_log(log, cards)
    if at is not None and type(at) is not int:  # a step number is a whole number (not 2.0, not true)
        raise StepOutOfRange(at, len(parsed.steps))
    return rule(parsed, cards, at)


def ruling_words_json(log: Any, at: int | None = None, cards: Any = None, lang: str = "en") -> dict[str, Any]:
    parsed = fmt.parse_log(log, cards)
    if at is not None and type(at) is not int:
        raise StepOutOfRange(at, len(parsed.steps))
    return ruling_words(parsed, cards, at, lang)


def timeline_json(log: Any, cards: Any = None) -> dict[str, Any]:
    return timeline(fmt.parse_log(log, cards), cards)
