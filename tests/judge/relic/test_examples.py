"""The Relic example logs (replays/examples/relic/): each replays as its ``expect`` fields say, and
the ruling on its disputed step answers the dispute."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from replays.service import replay_json, ruling_json

EXAMPLES = Path(__file__).resolve().parents[3] / "replays" / "examples" / "relic"
NAMES = sorted(p.name for p in EXAMPLES.glob("*.json"))


def load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((EXAMPLES / name).read_text(encoding="utf-8"))
    return data


def test_there_is_an_example_for_each_dispute_of_the_issue() -> None:
    assert {"rerolled-six-explodes.json", "plus-one-makes-six.json", "bonus-declared-late.json",
            "second-charge-same-turn.json", "two-start-effects.json", "discard-player-chooses.json",
            "confrontation-first-to-win.json"} <= set(NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_each_example_replays_as_its_checkpoints_say(name: str) -> None:
    log = load(name)
    result = replay_json(log)
    with_expect = [i for i, s in enumerate(log["steps"], 1) if "expect" in s]
    assert result["valid"], result["error"]
    assert result["checkpoints"] == {"passed": with_expect, "failed": []}
    assert any("dispute" in s for s in log["steps"])


def ruling(name: str) -> dict[str, Any]:
    return ruling_json(load(name))


@pytest.mark.rules("relic.dice.reroll", "relic.dice.exploding")
def test_ruling_a_rerolled_six_explodes() -> None:
    r = ruling("rerolled-six-explodes.json")
    assert r["legal"] is True
    assert [e["event"] for e in r["events"]] == ["charge-spent", "die-rerolled", "die-exploded"]
    assert "relic.dice.reroll" in r["rules_cited"] and "relic.dice.exploding" in r["rules_cited"]


@pytest.mark.rules("relic.dice.base-result-triggers")
def test_ruling_a_plus_one_never_makes_a_six_explode() -> None:
    r = ruling("plus-one-makes-six.json")
    assert [e["event"] for e in r["events"]] == ["charge-spent", "die-modified"]
    assert r["state"]["contest"]["dice"][0]["exploded"] is False


@pytest.mark.rules("relic.bonuses.battle-declare")
def test_ruling_a_bonus_declared_after_the_roll_is_illegal() -> None:
    r = ruling("bonus-declared-late.json")
    assert r["legal"] is False and r["violation"]["rule"] == "relic.bonuses.battle-declare"


@pytest.mark.rules("relic.charges.one-per-card-per-turn")
def test_ruling_the_second_charge_of_the_needle_rifle() -> None:
    r = ruling("second-charge-same-turn.json")
    assert r["legal"] is False and r["violation"]["rule"] == "relic.charges.one-per-card-per-turn"


@pytest.mark.rules("relic.timing.active-player-orders", "relic.timing.start")
def test_ruling_two_start_effects_are_ordered_by_the_active_player() -> None:
    r = ruling("two-start-effects.json")
    assert r["decisions"] == [{"by": "p1", "kind": "order", "options": ["ork-nob", "ork-boy"],
                               "prompt": "order of 2 simultaneous before-abilities",
                               "answer": ["ork-boy", "ork-nob"], "rules": ["relic.timing.active-player-orders"]}]
    assert [e["ability"] for e in r["events"] if e["event"] == "triggered"] == ["ork-boy", "ork-nob"]
    log = load("two-start-effects.json")
    disputed = next(i for i, s in enumerate(log["steps"]) if "dispute" in s)
    del log["steps"][disputed]["choices"]
    pending = ruling_json(log)
    assert pending["legal"] is True and pending["pending"]["by"] == "p1" and pending["pending"]["kind"] == "order"


@pytest.mark.rules("relic.discard.player-chooses")
def test_ruling_what_must_be_discarded() -> None:
    r = ruling("discard-player-chooses.json")
    assert r["decisions"][0]["by"] == "p1" and r["decisions"][0]["kind"] == "discard"
    assert [e["card"] for e in r["events"] if e["event"] == "discarded"] == ["p1.divination"]


@pytest.mark.rules("relic.scenario.first-to-win")
def test_ruling_the_first_to_win_the_confrontation() -> None:
    r = ruling("confrontation-first-to-win.json")
    assert r["outcome"] == {"winner": "p1", "reason": "confrontation",
                            "rules": ["relic.scenario.confrontation", "relic.scenario.first-to-win"]}
    assert r["events"][-1]["event"] == "game-over"
