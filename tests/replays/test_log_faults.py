"""Malformed logs: every fault reported at once, each with its JSON Pointer (spec section 4)."""

from __future__ import annotations

import copy

import pytest

from judge.games.destiny.table import Table
from replays.service import replay_json, validate


def base() -> dict:
    t = Table()
    t.character("p1", "05031", dice=2)
    t.character("p2", "05013")
    return t.log([{"by": "p1", "do": "pass"}])


def paths(log: dict) -> list[str]:
    return [f.path for f in validate(log)]


def test_a_well_formed_log_has_no_faults() -> None:
    assert validate(base()) == []


@pytest.mark.rules("destiny.actions.list")
def test_several_faults_are_reported_together_with_json_pointers() -> None:
    log = base()
    log["format"] = "arbiter.replay/9"
    log["steps"] = [
        {"by": "p1", "do": "dance"},
        {"by": "p1", "do": "activate", "card": "Luke"},
        {"by": "p1", "do": "resolve", "dice": [{"die": "p1.05031"}]},
        {"by": "p9", "do": "pass"},
        {"by": "p1", "do": "play", "card": "05058", "on": "nobody"},
    ]
    r = replay_json(log)
    assert r["valid"] is False and r["steps"] == 0
    assert r["error"]["kind"] == "malformed"
    got = [f["path"] for f in r["faults"]]
    for want in ("/format", "/steps/0/do", "/steps/1/card", "/steps/2/dice/0/die", "/steps/3/by",
                 "/steps/4/on"):
        assert want in got, (want, got)
    by_path = {f["path"]: f["message"] for f in r["faults"]}
    assert "arbiter.replay/1" in by_path["/format"]
    assert "play" in by_path["/steps/0/do"]


def test_the_steps_of_a_game_without_an_engine_are_not_read() -> None:
    """Only the game a log names can read its steps: with an unknown game the envelope's faults
    are reported, and nothing is guessed about the steps."""
    log = base()
    log["format"] = "arbiter.replay/9"
    log["game"] = "chess"
    log["steps"] = [{"by": "p1", "do": "dance"}]
    assert paths(log) == ["/format", "/game"]


def test_an_unknown_game_is_a_fault_naming_the_games() -> None:
    log = base()
    log["game"] = "monopoly"
    faults = validate(log)
    assert [f.path for f in faults] == ["/game"] and "must be one of" in faults[0].message
    assert all(game in faults[0].message for game in ("destiny", "swtcg", "relic"))  # every engine is written


def test_unknown_keys_are_named_with_escaped_pointers() -> None:
    log = base()
    log["colour"] = "blue"
    log["steps"][0]["a/b"] = 1
    assert paths(log) == ["/colour", "/steps/0/a~1b"]


def test_a_bad_position_is_reported_where_it_is_wrong() -> None:
    log = base()
    pos = log["setup"]["position"]
    pos["players"]["p1"]["characters"]["p1.05031"]["shields"] = 4
    pos["players"]["p2"]["pool"] = {"p2.05013/1": "9RD"}
    pos["players"]["p2"]["resources"] = -1
    r = replay_json(log)
    got = [f["path"] for f in r["faults"]]
    assert "/setup/position/players/p1/characters/p1.05031/shields" in got
    assert "/setup/position/players/p2/pool/p2.05013~11" in got
    assert "/setup/position/players/p2/resources" in got
    assert r["valid"] is False and r["error"]["kind"] == "malformed"


def test_bad_outcomes_and_choices_are_shape_faults() -> None:
    log = base()
    log["steps"] = [{"by": "p1", "do": "activate", "card": "p1.05031", "roll": [2, "1RD"],
                     "choices": [{"by": "p7", "answer": 1}, "yes"]}]
    assert paths(log) == ["/steps/0/roll", "/steps/0/choices/0/by", "/steps/0/choices/1"]


def test_faults_do_not_depend_on_the_order_of_keys() -> None:
    log = base()
    log["steps"] = [{"do": "dance", "by": "p1"},
                    {"by": "p1", "do": "reroll", "discard": 5, "dice": "p1.05031/1"}]
    reordered = copy.deepcopy(log)
    reordered["steps"][0] = {"by": "p1", "do": "dance"}
    assert paths(log) == paths(reordered) == ["/steps/0/do", "/steps/1/discard", "/steps/1/dice"]
