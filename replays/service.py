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


#: steps of the short self-play game of each game that ``warm`` runs through the engine
WARM_STEPS = 30


def warm(engine: bool = True) -> None:
    """Load every written game, its card pool and the index of its cards' names now; with ``engine``,
    run each game's engine over a short self-play game too (replayed, ruled on, its timeline and the
    viewer's data made), from its beginning and again from a position taken halfway.

    A worker calls this before it forks, so that a forked work horse neither loads the games and
    their cards again for each job nor imports the modules and makes the tables the engine loads on
    first use (a position's setup code, the rule index: without them, each ruling's horse spent
    about 13 ms importing, more than the ruling itself). tests/replays/test_warm_names.py checks
    that nothing is left to import. A local batch (``engine=False``) replays many logs in each
    process it forks: there, a first use costs once per process, less than the warm-up."""
    if not engine:
        _load_games()
        return
    from replays.selfplay import play_game  # (here: only workers warm; the API and the CLI need no self-play)
    from replays.viewer import viewer_json_langs  # (the timeline job's other half)

    for game_id in _load_games():
        hero, villain = registry.get(game_id).selfplay_sides()[:2]
        log = play_game("warm", hero, villain, game=game_id, max_steps=WARM_STEPS).log
        half = len(log["steps"]) // 2
        state = replay(fmt.parse_log(log), stop_after=half).state
        assert state is not None
        from_position = {**log, "setup": {"position": state.position()}, "steps": log["steps"][half:]}
        if "rng" in log:  # (the stream goes on where the position left it)
            from_position["rng"] = {**log["rng"], "drawn": state.rng_drawn}
        for each in (log, from_position):
            replay_json(each)
            ruling_json(each)
            timeline_json(each)
            viewer_json_langs(each)


def _load_games() -> tuple[str, ...]:
    """Every written game, its card pool and the reading of its cards' names loaded; their IDs."""
    games = registry.written()
    for game_id in games:
        game = registry.get(game_id)
        cards = game.default_cards()
        names = names_reader(game)
        if names is not None:  # the reading of card names and the pool's index of them
            names.warm_names(cards)
    return games


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
