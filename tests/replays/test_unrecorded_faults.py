"""A replay with no visitor applies its steps unrecorded (``apply_unrecorded``, the fast path of
replays.replayer.replay; in this suite, whose replay the hash ledger wraps with a visitor of its
own, tests.replays.ledger.unwrapped_replay); one with a visitor applies them with every record (``apply``). For a log
that fails, or expects a failure, they must still give the same result: validity, steps, error
(step, kind, rule, message, pending decision), checkpoints passed and failed, final state and hash.
Each game with an unrecorded path is replayed both ways over variants of one of its self-play logs
(longer than the replayer's first snapshot, so that a failure after it rebuilds the state from it):
a step out of turn inserted (with no expectation, expected with its rule, expected with another
rule), a legal step expected to fail, a wrong hash, a wrong expected state, a step's choices taken
out (a decision left pending), a step after the game ended."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import pytest

from replays.format import parse_log
from replays.replayer import FIRST_SNAPSHOT, replay
from replays.selfplay import play_game
from tests.helpers import StateCollector
from tests.replays.ledger import unwrapped_replay

# (game, the two decks, the most steps of its self-play log)
GAMES = [("destiny", ("LEG-H", "AW-V"), 400), ("swtcg", ("DARK-60", "LIGHT-60"), 160)]


def _positions(n: int) -> list[int]:
    """Where variants change a log of ``n`` steps: early, a third and half way, around the first
    snapshot (FIRST_SNAPSHOT), and the last two steps."""
    near = [FIRST_SNAPSHOT - 1, FIRST_SNAPSHOT, FIRST_SNAPSHOT + 1, FIRST_SNAPSHOT + 6]
    return sorted({i for i in [0, 1, 4, n // 3, n // 2, *near, n - 2, n - 1] if 0 <= i < n})


def _variants(log: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    steps = log["steps"]
    players = [p["id"] for p in log["players"]]

    def changed(at: int, *new: dict[str, Any], drop: bool = False) -> dict[str, Any]:
        """The log with ``new`` inserted before step ``at`` (``drop``: instead of it)."""
        variant = copy.deepcopy(log)
        variant["steps"][at:at + (1 if drop else 0)] = [copy.deepcopy(s) for s in new]
        return variant

    for i in _positions(len(steps)):
        step = steps[i]
        other = next((p for p in players if p != step.get("by")), players[0])
        out_of_turn = {"by": other, "do": "pass"}
        yield f"{i}: out of turn", changed(i, out_of_turn)
        for rule in ("?", "no.such.rule"):
            expected = {**out_of_turn, "expect": {"error": {"kind": "illegal-action"} if rule == "?" else
                                                  {"kind": "illegal-action", "rule": rule}}}
            yield f"{i}: out of turn, expected ({rule})", changed(i, expected)
        legal = {k: v for k, v in step.items() if k != "expect"}
        yield f"{i}: legal, expected to fail", changed(i, {**legal, "expect": {"error": {"kind": "illegal-action"}}},
                                                      drop=True)
        yield f"{i}: wrong hash", changed(i, {**legal, "expect": {"hash": "sha256:" + "0" * 64}}, drop=True)
        yield f"{i}: wrong state", changed(i, {**legal, "expect": {"state": {"round": 999}}}, drop=True)
    chosen = [i for i, step in enumerate(steps) if "choices" in step]
    after = [i for i in chosen if i > FIRST_SNAPSHOT]
    for i in sorted({*chosen[:3], *after[:2]}):
        unanswered = {k: v for k, v in steps[i].items() if k not in ("choices", "expect")}
        yield f"{i}: choices taken out", changed(i, unanswered, drop=True)
    yield "a step after the end", changed(len(steps), {"by": players[0], "do": "pass"})


def _both_ways(raw: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    plain = unwrapped_replay()(parse_log(raw))  # (the suite's replay has the hash ledger's visitor)
    visited = replay(parse_log(raw), visitors=(StateCollector(),))
    return plain.to_json(), visited.to_json()


@pytest.mark.parametrize(("game", "decks", "most"), GAMES, ids=[g for g, _, _ in GAMES])
def test_a_failing_log_replays_alike_with_and_without_records(game: str, decks: tuple[str, str], most: int) -> None:
    raw = play_game(f"unrecorded-faults-{game}", *decks, game=game, max_steps=most).log
    assert len(raw["steps"]) > FIRST_SNAPSHOT + 6  # (failures after the first snapshot rebuild from it)
    assert parse_log(raw).rules.apply_unrecorded is not None
    kinds: dict[str, int] = {}
    for name, variant in _variants(raw):
        plain, visited = _both_ways(variant)
        assert plain == visited, name
        err = plain["error"]
        kind = "valid" if plain["valid"] else err["kind"] if err else "checkpoint"
        kinds[kind] = kinds.get(kind, 0) + 1
        if err is not None and err["kind"] == "pending-decision":
            assert err.get("pending") is not None, name  # (who decides, the options: the same both ways)
    # the variants reach the failing paths: illegal steps, failed checkpoints, expected errors that hold
    assert kinds.get("illegal-action", 0) >= 5 and kinds.get("checkpoint-mismatch", 0) >= 5, kinds
    assert kinds.get("valid", 0) >= 3, kinds  # (a step out of turn expected to fail, with any rule: passed)
    assert kinds.get("pending-decision", 0) >= 3, kinds  # (choices taken out)
