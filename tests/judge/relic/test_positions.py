"""Positions round-trip; a table set up from a position."""

from __future__ import annotations

from typing import Any

import pytest

from judge.games import registry
from judge.games.relic.cards import default_pool
from tests.judge.relic.helpers import battle, log, run, step

GAME = registry.get("relic")
PLAYERS = [{"id": "p1", "name": "Ana"}, {"id": "p2", "name": "Ben"}]


def position_log(phase: str = "encounter", assets: list[dict[str, Any]] | None = None,
                 steps: list[dict[str, Any]] | None = None, **extra: Any) -> dict[str, Any]:
    sister = {"name": "Battle Sister", "strength": 4, "willpower": 4, "cunning": 2, "life": 5}
    priest = {"name": "Tech-Priest", "strength": 3, "willpower": 3, "cunning": 4, "life": 4}
    position = {"round": 1, "phase": phase, "turn": "p1", "order": ["p1", "p2"],
                "players": {"p1": {"name": "Ana", "character": sister, "strength": 4, "willpower": 4, "cunning": 2,
                                   "life": 5, "influence": 3, "assets": assets or []},
                            "p2": {"name": "Ben", "character": priest, "strength": 3, "willpower": 3, "cunning": 4,
                                   "life": 4, "influence": 3}},
                "scenario": None, "contest": None, "winner": None, "reason": None, **extra}
    return {"format": "arbiter.replay/1", "game": "relic", "players": PLAYERS, "setup": {"position": position},
            "steps": steps or []}


@pytest.mark.rules("relic.base.setup")
def test_every_state_of_a_battle_round_trips_through_its_position() -> None:
    data = battle(["ork-boy", "ork-nob"], step("declare", card="p1.needle-rifle"),
                  step("roll", roll=["6", "2", "6", "1"]), step("use", card="p1.auspex", die="d1", roll=["5"]),
                  assets=("needle-rifle", "auspex"), scenario="the-mystery-beyond",
                  cards={"mine": {"name": "Mine", "class": "Wargear", "type": "Equipment", "influence": 1}})
    data["steps"][2]["choices"] = [{"by": "p1", "kind": "order", "answer": ["ork-boy", "ork-nob"]}]
    result, seen = run(data)
    assert result.error is None, result.error
    for rec in [seen.setup, *seen.steps]:
        assert rec is not None
        state = rec.state
        again, faults = GAME.from_position(state.position(), PLAYERS, default_pool())
        assert faults == [] and again is not None
        assert again.position() == state.position()
        assert again.view() == state.view()
        again.rng_drawn = state.rng_drawn
        assert again.state_hash() == state.state_hash()


def test_a_log_from_a_position_replays() -> None:
    data = position_log(assets=[{"ref": "p1.needle-rifle", "code": "needle-rifle", "charges": 1}],
                        steps=[step("battle", enemies=["plague-zombie"]), step("declare", card="p1.needle-rifle"),
                               step("roll", roll=["1", "1"]), step("resolve")])
    result, seen = run(data)
    assert result.error is None and result.state is not None
    view = result.state.view()
    assert view["players"]["p1"]["trophies"] == ["plague-zombie"]
    assert view["players"]["p1"]["discard"] == ["needle-rifle"]


def test_a_bad_position_is_a_malformed_log() -> None:
    from replays.errors import MalformedLog
    from replays.format import parse_log

    data = position_log(phase="lunch")
    with pytest.raises(MalformedLog) as exc:
        parse_log(data)
    assert [f.path for f in exc.value.faults] == ["/setup/position/phase"]


class _CanonicalChecker:
    """A visitor that compares, after setup and every step, the state's canonical bytes (written
    straight from the state) with the canonical encoding of its position (what they stand for)."""

    def __init__(self) -> None:
        self.checked = 0

    def check(self, state: Any) -> None:
        from judge.games import canon

        doc = state.position()
        if state.rng_drawn is not None:
            doc["rng_drawn"] = state.rng_drawn
        assert state.canonical() == canon.canonical(doc)
        self.checked += 1

    def begin(self, log: Any, setup: Any) -> None:
        self.check(setup.state)

    def visit_step(self, record: Any) -> None:
        self.check(record.state)

    def end(self, result: Any) -> None:
        pass


def _canonical_logs() -> list[dict[str, Any]]:
    import json
    from pathlib import Path

    from replays.selfplay import play_game

    examples = sorted((Path(__file__).resolve().parents[3] / "replays" / "examples" / "relic").glob("*.json"))
    own = {"mine": {"name": "Mine", "class": "Wargear", "type": "Equipment", "influence": 1},
           "ikona": {"name": "Ікона «Святая»", "class": "Wargear", "type": "Relic", "influence": 2, "charges": 1,
                     "bonuses": [{"kind": "skill", "color": "blue", "value": 1, "charge": True}]}}
    rerolled = battle(["ork-boy", "ork-nob"], step("declare", card="p1.needle-rifle"),
                      step("roll", roll=["6", "2", "6", "1"]), step("use", card="p1.auspex", die="d1", roll=["5"]),
                      step("use", card="p1.targeting-cogitator", die="d1"), step("resolve"),
                      assets=("needle-rifle", "auspex", "targeting-cogitator"), scenario="the-mystery-beyond",
                      cards=own)
    rerolled["steps"][2]["choices"] = [{"by": "p1", "kind": "order", "answer": ["ork-boy", "ork-nob"]}]
    named = position_log(assets=[{"ref": "p1.needle-rifle", "code": "needle-rifle", "charges": 1}],
                         steps=[step("battle", enemies=["plague-zombie"]), step("declare", card="p1.needle-rifle"),
                                step("roll", roll=["1", "1"]), step("resolve")],
                         last={"kind": "test", "score": 7, "against": 9, "outcome": "fail"})
    named["setup"]["position"]["players"]["p1"]["name"] = "Zoë \"Ясна\" \u2603"
    sheet = {"name": "Буря «Варпа»", "confrontation": {"kind": "test", "skill": "cunning", "target": 10},
             "special": ["Every player feels watched.", {"kind": "curse", "text": "Зло"},
                         {"kind": "gain-influence", "value": 1, "timing": "start", "window": "turn"},
                         {"kind": "enemy-score", "value": 2, "charge": True},
                         {"kind": "discard", "value": 1, "type": "Power", "window": "experience"}]}
    scenario = log([step("test", skill="cunning", target=6), step("roll", roll=["3"]), step("resolve")],
                   scenario=sheet)
    return [*(json.loads(p.read_text(encoding="utf-8")) for p in examples), rerolled, named, scenario,
            play_game("canonical-1", "tech-priest", "sanctioned-psyker", game="relic").log]


def test_the_canonical_bytes_are_the_positions_canonical_json() -> None:
    from replays.format import parse_log
    from replays.replayer import replay

    checker = _CanonicalChecker()
    for data in _canonical_logs():
        parsed = parse_log(data)
        replay(parsed, parsed.rules.default_cards(), visitors=(checker,))
    assert checker.checked > 100
