"""Positions (docs/replay-format.md sections 2 and 5): every state a log reaches writes itself as a
position that reads back to the same position and hash, and a game can be continued from it; a
malformed position is reported with every fault at once, each with its JSON Pointer."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from judge.games.destiny.setup import from_position
from judge.games.destiny.table import Table
from replays.service import replay_json, validate
from tests.replays.samples import POOL, Recorder, corpus, cut, example, run

CORPUS = [pytest.param(name, log, id=name) for name, log in corpus()]


class Positions(Recorder):
    """Also writes down each state's position and words drawn, at the time of the call."""

    def __init__(self) -> None:
        super().__init__()
        self.states: list[tuple[int, str, dict[str, Any], int | None, str]] = []

    def begin(self, log: Any, setup: Any) -> None:
        super().begin(log, setup)
        self._keep(setup)

    def visit_step(self, record: Any) -> None:
        super().visit_step(record)
        self._keep(record)

    def _keep(self, rec: Any) -> None:
        st = rec.state
        self.states.append((rec.at, st.phase, st.position(), st.rng_drawn, st.state_hash()))


def players_of(log: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"id": p["id"], "name": p["name"]} for p in log["players"]]


@pytest.mark.parametrize(("name", "log"), CORPUS)
def test_every_state_reached_round_trips_through_a_position(name: str, log: dict[str, Any]) -> None:
    rec = Positions()
    run(log, rec)
    checked = 0
    for at, phase, position, drawn, digest in rec.states:
        if phase == "over":
            continue  # a finished game is no position (see the test below)
        # through JSON, as a judge's file would carry it
        state, faults = from_position(json.loads(json.dumps(position)), players_of(log), POOL)
        assert faults == [], (at, faults[:3])
        assert state is not None
        state.rng_drawn = drawn  # the words drawn travel in the log's "rng", not in the position
        assert state.position() == position, at
        assert state.state_hash() == digest, at
        checked += 1
    assert checked >= len(log["steps"])  # every state but a final one that ends the game


def continued(log: dict[str, Any], at: int, position: dict[str, Any], drawn: int | None) -> dict[str, Any]:
    """The log's game from the position after step ``at``: the same players, the rest of the steps."""
    out = {k: copy.deepcopy(v) for k, v in log.items() if k not in ("players", "setup", "steps")}
    out["players"] = players_of(log)
    out["setup"] = {"position": copy.deepcopy(position)}
    out["steps"] = copy.deepcopy(log["steps"][at:])
    if "rng" in log:
        out["rng"] = {**log["rng"], "drawn": drawn}
    return out


@pytest.mark.parametrize(("name", "log"), CORPUS)
def test_a_game_continued_from_a_position_ends_where_the_whole_log_does(name: str, log: dict[str, Any]) -> None:
    """From the position after any step, with the seeded generator moved on by the words drawn so
    far, the rest of the log replays to the same states (every checkpoint of the rest passes) and
    the same end."""
    rec = Positions()
    whole = run(log, rec)
    end = whole.state.state_hash()
    states = [s for s in rec.states if s[1] != "over" and s[0] < len(log["steps"])]
    stride = max(1, len(states) // 12)  # a dozen positions of a long game are enough
    for at, _, position, drawn, _ in states[::stride]:
        cont = continued(log, at, position, drawn)
        r = replay_json(cont)
        assert r["faults"] == [], (at, r["faults"][:3])
        assert r["valid"] == whole.valid, (at, r["error"])
        assert r["final_state_hash"] == end, at
        assert r["checkpoints"]["passed"] == [p - at for p in whole.passed if p > at], at
        if whole.error is not None:
            assert r["error"]["at"] == whole.error.at - at and r["error"]["rule"] == whole.error.rule


def test_a_finished_game_is_no_position() -> None:
    log = example("deck-out-one")
    rec = Positions()
    run(log, rec)
    at, phase, position, _, _ = rec.states[-1]
    assert phase == "over" and position["winner"] is not None
    state, faults = from_position(position, players_of(log), POOL)
    assert state is None
    paths = [p for p, _ in faults]
    assert "/setup/position/winner" in paths and "/setup/position/phase" in paths


# ---------------------------------------------------------------------- malformed positions
def sound() -> dict[str, Any]:
    """A well-formed position: Luke (with a Heirloom Lightsaber) and a 2 ranged die, against a
    trooper."""
    t = Table()
    t.character("p1", "05031", dice=2, upgrades=["05058"])
    t.character("p2", "05013")
    t.set("p1", hand=["05116"])
    t.pool("p1", {"p1.05031/1": "2RD"})
    return t.log([{"by": "p1", "do": "pass"}])


def test_the_sound_position_is_sound() -> None:
    r = replay_json(sound())
    assert r["valid"] and r["faults"] == []


BAD = "/setup/position"
# each: (what is broken, where its fault is, a word the message must say)
BREAKS = [
    (lambda pos: pos.update(turn="p3"), "/turn", "turn"),
    (lambda pos: pos["battlefield"].update(card="05031"), "/battlefield/card", "not a battlefield"),
    (lambda pos: pos.update(claimed_by="p9"), "/claimed_by", "player"),
    (lambda pos: pos["players"]["p1"]["hand"].append("99999"), "/players/p1/hand/1", "99999"),
    (lambda pos: pos["players"]["p1"]["characters"]["p1.05031"].update(damage=11),
     "/players/p1/characters/p1.05031/damage", "11 health"),
    (lambda pos: pos["players"]["p1"]["characters"]["p1.05031"].update(shields=4),
     "/players/p1/characters/p1.05031/shields", "3 shields"),
    (lambda pos: pos["players"]["p1"]["pool"].update({"p1.05031/2": "3ID"}), "/players/p1/pool/p1.05031~12",
     "no face 3ID"),
    (lambda pos: pos["players"]["p1"]["pool"].update({"p1.05058#1/1": "9RD"}), "/players/p1/pool/p1.05058#1~11",
     "9RD"),
    (lambda pos: pos["players"]["p1"]["pool"].update({"p1.05058#1/2": "2MD"}), "/players/p1/pool/p1.05058#1~12",
     "has 1 dice"),  # an upgrade has one die at most
    (lambda pos: pos["players"]["p2"].update(resources=True), "/players/p2/resources", "whole number"),
    (lambda pos: pos["players"]["p2"]["characters"]["p2.05013"].update(
        upgrades=["p2.05058#1", "p2.05073#1", "p2.05072#1", "p2.01164#1"]),
     "/players/p2/characters/p2.05013/upgrades", "at most 3 upgrades"),
    (lambda pos: pos["players"]["p2"]["characters"].update({"p1.05019": {"dice": 2}}),
     "/players/p2/characters/p1.05019", "character reference of p2"),
    (lambda pos: pos["players"]["p2"]["pool"].update({"p2.05019/1": "2RD"}), "/players/p2/pool/p2.05019~11",
     "no card of p2 in play"),
]


@pytest.mark.parametrize(("brk", "path", "says"), BREAKS, ids=[b[1] for b in BREAKS])
def test_one_fault_in_a_position_is_reported_where_it_is(brk: Any, path: str, says: str) -> None:
    log = sound()
    brk(log["setup"]["position"])
    r = replay_json(log)
    assert r["valid"] is False and r["steps"] == 0 and r["error"]["kind"] == "malformed"
    assert [f["path"] for f in r["faults"]] == [BAD + path]
    assert says in r["faults"][0]["message"]


def test_every_fault_of_a_position_is_reported_at_once() -> None:
    log = sound()
    for brk, _, _ in BREAKS:
        brk(log["setup"]["position"])
    r = replay_json(log)
    assert r["error"]["kind"] == "malformed"
    assert sorted(f["path"] for f in r["faults"]) == sorted(BAD + path for _, path, _ in BREAKS)
    assert r["error"]["message"].startswith(f"{len(BREAKS)} fault(s) in the log")


def test_an_eliminated_player_stays_eliminated_in_a_position() -> None:
    """What the multiplayer-seats example needs, on its own: Ben (p2) is eliminated after step 3."""
    log = example("multiplayer-seats")
    rec = Positions()
    run(cut(log, 3), rec)
    position = rec.states[-1][2]
    assert position["players"]["p2"].get("eliminated") is True
    state, faults = from_position(copy.deepcopy(position), players_of(log), POOL)
    assert faults == [] and state is not None
    assert state.players["p2"].eliminated and state.position() == position


def test_validate_reports_the_faults_of_a_position() -> None:
    log = sound()
    for brk, _, _ in BREAKS:
        brk(log["setup"]["position"])
    assert sorted(f.path for f in validate(log)) == sorted(BAD + path for _, path, _ in BREAKS)


def test_pointers_into_a_position_escape_slashes_and_tildes() -> None:
    log = sound()
    p1 = log["setup"]["position"]["players"]["p1"]
    p1["characters"]["p1.05031/1"] = {"dice": 1}
    p1["supports"]["a/b~c"] = {}
    r = replay_json(log)
    assert sorted(f["path"] for f in r["faults"]) == [BAD + "/players/p1/characters/p1.05031~11",
                                                     BAD + "/players/p1/supports/a~1b~0c"]
