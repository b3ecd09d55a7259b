"""What one Encounter phase allows: a battle lost or tied ends its threats at once
(relic.base.threats), and the Confrontation is resolved once in each (relic.base.winning); both go
with the phase, and a position (and a judge's quick position) can say either."""

from __future__ import annotations

from typing import Any

import pytest

from judge.games import registry
from judge.games.relic.cards import default_pool
from tests.judge.relic.helpers import battle, error, events, final, log, run, step

LOSE = ["5", "1"]  # the Ork Boy's die, then Ana's: 5 + 3 against 1 + 4
TIE = ["3", "2"]  # 3 + 3 against 2 + 4
WIN = ["1", "5"]
GATE = {"name": "Test Gate", "confrontation": {"kind": "test", "skill": "willpower", "target": 30}}
GAME = registry.get("relic")


def _buyable() -> str:
    return next(code for code, card in sorted(default_pool().cards.items())
                if card.influence is not None and card.influence <= 3 and not card.enemy and not card.power)


@pytest.mark.rules("relic.base.threats", "relic.base.battle")
@pytest.mark.parametrize(("roll", "ended", "outcome"), [(LOSE, "lost", "lose"), (TIE, "tied", "tie")])
def test_a_battle_lost_or_tied_ends_the_encounter_phases_threats(roll: list[str], ended: str, outcome: str) -> None:
    fought = battle(["ork-boy"], step("roll", roll=roll), step("resolve"))
    over = events(fought, "encounter-ended")
    assert [(e["player"], e["outcome"]) for e in over] == [("p1", outcome)]
    assert "relic.base.threats" in over[0]["rules"]
    assert final(fought)["ended"] == ended
    for then in (step("battle", enemies=["ork-boy"]), step("test", skill="willpower", target=6),
                 step("buy", card=_buyable())):
        err = error(log([*fought["steps"][2:], then]))
        assert err is not None and err.rule == "relic.base.threats" and err.at == len(fought["steps"]) + 1
        assert ended in err.message and "end-phase" in err.message
    # ending the phase is what remains; the next phase knows nothing of it
    ended_phase = log([*fought["steps"][2:], step("end-phase")])
    assert "ended" not in final(ended_phase) and final(ended_phase)["phase"] == "experience"


@pytest.mark.rules("relic.base.threats")
def test_a_battle_won_leaves_the_phase_open_and_the_next_turns_encounter_is_new() -> None:
    won = battle(["ork-boy"], step("roll", roll=WIN), step("resolve"), step("battle", enemies=["ork-boy"]))
    assert error(won) is None and events(won, "encounter-ended") == []
    lost = battle(["ork-boy"], step("roll", roll=LOSE), step("resolve"))
    round_on = [step("end-phase"), step("end-phase")] + [{"by": "p2", "do": "end-phase"}] * 4 + [
        step("end-phase"), step("end-phase")]
    again = log([*lost["steps"][2:], *round_on, step("battle", enemies=["ork-boy"])])
    assert error(again) is None
    assert final(again)["phase"] == "encounter" and "ended" not in final(again)


@pytest.mark.rules("relic.base.winning", "relic.scenario.confrontation")
def test_the_confrontation_once_in_each_encounter_phase() -> None:
    to_gate = [step("reach"), step("end-phase"), step("end-phase")]
    failed = [step("confront"), step("roll", roll=["2"]), step("resolve")]
    once = log([*to_gate, *failed], scenario=GATE, encounter=False)
    result, _ = run(once)
    assert result.error is None and result.outcome() is None and final(once)["confronted"] is True
    twice = log([*to_gate, *failed, step("confront")], scenario=GATE, encounter=False)
    err = error(twice)
    assert err is not None and err.rule == "relic.base.winning" and err.at == len(twice["steps"])
    # a failed test is not a lost battle: the phase's other steps stay open
    assert error(log([*to_gate, *failed, step("test", skill="cunning", target=6)], scenario=GATE,
                     encounter=False)) is None
    round_on = [step("end-phase"), step("end-phase")] + [{"by": "p2", "do": "end-phase"}] * 4 + [
        step("end-phase"), step("end-phase")]
    next_turn = log([*to_gate, *failed, *round_on, step("confront")], scenario=GATE, encounter=False)
    assert error(next_turn) is None and "confronted" in final(next_turn)
    # a Confrontation battle lost ends the phase as any battle does
    gate = {"name": "Battle Gate", "confrontation": {"kind": "battle", "color": "red", "value": 9}}
    lost = log([*to_gate, step("confront"), step("roll", roll=LOSE), step("resolve")], scenario=gate,
               encounter=False)
    assert final(lost)["ended"] == "lost" and final(lost)["confronted"] is True


def _position(data: dict[str, Any]) -> dict[str, Any]:
    result, _ = run(data)
    assert result.error is None and result.state is not None
    position: dict[str, Any] = result.state.position()
    return position


@pytest.mark.rules("relic.base.threats", "relic.base.winning")
def test_positions_carry_the_phases_state_and_refuse_what_cannot_be() -> None:
    lost = _position(battle(["ork-boy"], step("roll", roll=LOSE), step("resolve")))
    players = [{"id": "p1", "name": "Ana", "character": "battle-sister"},
               {"id": "p2", "name": "Ben", "character": "tech-priest"}]
    back, faults = GAME.from_position(lost, players, default_pool())
    assert faults == [] and back is not None and back.position() == lost and back.ended == "lost"
    for bad, where in (({**lost, "ended": "won"}, "ended"), ({**lost, "phase": "experience"}, "ended"),
                       ({**lost, "confronted": True}, "confronted"), ({**lost, "confronted": "yes"}, "confronted")):
        state, faults = GAME.from_position(bad, players, default_pool())
        assert state is None and [p for p, _ in faults] == [f"/setup/position/{where}"]


def _quick(text: str) -> dict[str, Any]:
    spec, faults = GAME.quick_text(text)
    assert faults == []
    made, faults = GAME.quick_log(spec, GAME.default_cards())
    assert faults == [] and made is not None
    from replays.service import ruling_json

    ruling: dict[str, Any] = ruling_json(made, 1)
    return ruling


@pytest.mark.rules("relic.base.threats", "relic.base.winning")
def test_a_judges_quick_position_says_the_phase_ended_or_the_confrontation_was_resolved() -> None:
    table = "p1 Ana: Battle Sister\np2 Ben: Tech-Priest\n"
    refused = _quick(table + "ended lost\nask p1 battle Ork Boy")
    assert refused["legal"] is False and refused["violation"]["rule"] == "relic.base.threats"
    assert _quick(table + "ask p1 battle Ork Boy")["legal"] is True
    gate = "p1 Ana: Battle Sister, at scenario\np2 Ben: Tech-Priest\nscenario The Mystery Beyond\n"
    again = _quick(gate + "confronted\nask p1 confront")
    assert again["legal"] is False and again["violation"]["rule"] == "relic.base.winning"
    assert _quick(gate + "ask p1 confront")["legal"] is True
    for text, where in ((table + "ended maybe\nask p1 end-phase", "/ended"),
                        (table + "phase experience\nended tied\nask p1 end-phase", "/ended"),
                        (table + "confronted\nask p1 end-phase", "/confronted")):
        spec, faults = GAME.quick_text(text)
        assert faults == []
        made, faults = GAME.quick_log(spec, GAME.default_cards())
        assert made is None and [p for p, _ in faults] == [where]


@pytest.mark.rules("relic.base.winning")
def test_a_confrontation_under_way_in_a_position_counts_as_this_phases() -> None:
    ruled = _quick("p1 Ana: Battle Sister, at scenario\np2 Ben: Tech-Priest\nscenario The Mystery Beyond\n"
                   "confrontation\ndice e1 6, e2 6 from e1, e3 1 from e2, d1 2\nask p1 resolve")
    assert ruled["legal"] is True and ruled["state"]["confronted"] is True


@pytest.mark.rules("relic.base.life")
def test_vanquished_on_their_own_turn_the_turn_ends_and_they_leave_the_scenario_space() -> None:
    weak = {"name": "Weakling", "strength": 1, "willpower": 1, "cunning": 1, "life": 1}
    to_gate = [step("reach"), step("end-phase"), step("end-phase")]
    data = log([*to_gate, step("battle", enemies=["ork-boy"]), step("roll", roll=LOSE), step("resolve")],
               scenario=GATE, encounter=False, character=weak)
    result, seen = run(data)
    assert result.error is None, result.error
    kinds = [e["event"] for e in seen.steps[-1].events]
    assert "vanquished" in kinds and kinds.index("vanquished") < kinds.index("turn-begins")
    view = final(data)
    assert view["turn"] == "p2" and view["phase"] == "movement" and "ended" not in view
    assert "at_scenario" not in view["players"]["p1"] and view["players"]["p1"]["life"] == 1
    # p1 acts no more this turn: no Experience phase
    assert error(log([*data["steps"], step("end-phase")], scenario=GATE, encounter=False,
                     character=weak)).rule == "relic.base.turn"
