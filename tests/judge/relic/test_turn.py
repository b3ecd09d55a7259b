"""The turn's phases, Influence and trophies, assets, and the steps of a battle."""

from __future__ import annotations

import pytest

from judge.games.relic.cards import default_pool
from judge.games.relic.engine import TIMING_RULES
from tests.judge.relic.helpers import battle, error, events, final, log, run, step


@pytest.mark.rules("relic.base.turn", "relic.base.setup")
def test_the_phases_run_in_order_and_the_turn_passes_on() -> None:
    data = log([step("end-phase")] * 4, encounter=False)
    result, seen = run(data)
    assert seen.setup is not None
    assert [e["event"] for e in seen.setup.events] == ["charges-placed", "turn-begins", "phase"]
    phases = [e["phase"] for rec in seen.steps for e in rec.events if e["event"] == "phase"]
    assert phases == ["exploration", "encounter", "experience", "movement"]
    assert result.state is not None and result.state.turn == "p2" and result.state.round == 1
    assert error(log([{"by": "p2", "do": "end-phase"}], encounter=False)).rule == "relic.base.turn"
    view = final(log([], encounter=False))
    assert view["players"]["p1"]["influence"] == 3 and view["players"]["p1"]["life"] == 5


@pytest.mark.rules("relic.base.levels", "relic.base.battle")
def test_influence_and_trophies() -> None:
    data = battle(["ork-boy"], step("roll", roll=["1", "6", "1"]), step("resolve"))
    evs = events(data)
    lost = [e for e in evs if e["event"] == "effect"]
    assert [(e["effect"], e["change"], e["now"]) for e in lost] == [("lose-influence", -1, 2)]
    assert final(data)["players"]["p1"]["trophies"] == ["ork-boy"]
    tie = battle(["ork-boy"], step("roll", roll=["3", "2"]), step("resolve"))
    assert events(tie, "contest-resolved")[0]["outcome"] == "tie" and final(tie)["players"]["p1"]["trophies"] == []


@pytest.mark.rules("relic.base.assets")
def test_only_ones_own_assets_in_play_give_bonuses() -> None:
    bens = battle(["ork-boy"], step("declare", card="p2.needle-rifle"))
    assert error(bens).rule == "relic.base.assets"
    in_hand = battle(["ork-boy"], step("declare", card="p1.divination"), power=("divination",))
    assert error(in_hand).rule == "relic.base.assets"


@pytest.mark.rules("relic.project.contest-steps", "relic.base.battle")
def test_a_battle_goes_begin_prepare_roll_change_resolve() -> None:
    assert error(log([step("roll", roll=["1", "1"])])).rule == "relic.base.battle"
    assert error(battle(["ork-boy"], step("resolve"))).rule == "relic.base.battle"
    assert error(battle(["ork-boy"], step("roll", roll=["1", "1"]), step("roll"))).rule == \
        "relic.dice.additional-simultaneous"
    assert error(battle(["ork-boy"], step("end-phase"))).rule == "relic.base.battle"
    assert error(battle(["ork-boy"], step("battle", enemies=["ork-nob"]))).rule == "relic.base.battle"
    done = final(battle(["ork-boy"], step("roll", roll=["1", "1"]), step("resolve")))
    assert done["contest"] is None and done["last"] == {"kind": "battle", "score": 5, "against": 4, "outcome": "win"}


@pytest.mark.rules("relic.project.no-replacements")
def test_no_relic_event_is_replaced() -> None:
    assert {TIMING_RULES.instead, TIMING_RULES.competing} == {"relic.project.no-replacements"}
    data = battle(["ork-boy", "ork-nob"], step("roll", roll=["1", "6", "2"]), step("resolve"))
    data["steps"][2]["choices"] = [{"by": "p1", "kind": "order", "answer": ["ork-boy", "ork-nob"]}]
    kinds = {e["event"] for e in events(data)}
    assert "triggered" in kinds and "replaced" not in kinds


@pytest.mark.rules("relic.project.card-values")
def test_the_projects_pool_is_complete_and_in_range() -> None:
    pool = default_pool()
    for ch in pool.characters.values():
        assert all(1 <= v <= 12 for v in (ch.strength, ch.willpower, ch.cunning, ch.life))
    for card in pool.cards.values():
        assert card.enemy or card.power or card.influence is not None, card.code
        assert card.effect is None or card.effect.implemented or card.enemy, card.code
    assert {"needle-rifle", "ork-boy", "ork-nob"} <= set(pool.cards)
