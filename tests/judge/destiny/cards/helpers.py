"""Helpers shared by the card test modules: run a log built on a ``Table`` and read the result."""

from __future__ import annotations

from typing import Any

from judge.games.destiny.model import CardPool
from judge.games.destiny.table import Table
from replays.service import replay_json


def run(t: Table, *steps: dict[str, Any], cards: CardPool | None = None) -> dict[str, Any]:
    """The replay result of ``t`` followed by ``steps``."""
    return replay_json(t.log(list(steps)), cards)


def ok(t: Table, *steps: dict[str, Any], cards: CardPool | None = None) -> dict[str, Any]:
    """The final state view, asserting the steps replayed without error."""
    r = run(t, *steps, cards=cards)
    assert r["error"] is None, r["error"]
    state: dict[str, Any] = r["final_state"]
    return state


def player(result: dict[str, Any], pid: str) -> dict[str, Any]:
    """A player's view, from a replay result or a state view."""
    state = result["final_state"] if "final_state" in result else result
    out: dict[str, Any] = state["players"][pid]
    return out


def char(result_or_state: dict[str, Any], ref: str) -> dict[str, Any]:
    """A character's view, from a replay result or a state view."""
    out: dict[str, Any] = player(result_or_state, ref.split(".")[0])["characters"][ref]
    return out


def choice(by: str, kind: str, answer: Any) -> dict[str, Any]:
    return {"by": by, "kind": kind, "answer": answer}


def may(by: str, answer: bool = True) -> dict[str, Any]:
    return choice(by, "may", answer)


def quick(text: str, *choices: dict[str, Any]) -> dict[str, Any]:
    """The log of a quick position in text (judge.games.destiny.quick), its asked step answering
    ``choices``."""
    from judge.games import registry

    game = registry.get("destiny")
    spec, faults = game.quick_text(text)
    assert faults == []
    log, faults = game.quick_log(spec, game.default_cards())
    assert faults == [] and log is not None
    if choices:
        log["steps"][0]["choices"] = list(choices)
    return log
