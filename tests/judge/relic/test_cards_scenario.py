"""Cards written by the user, buying, effects the engine does not implement, and scenario sheets
(relic.cards.*, relic.scenario.*)."""

from __future__ import annotations

import pytest

from judge.games.relic.cards import default_pool
from replays.errors import MalformedLog
from replays.format import parse_log
from tests.judge.relic.helpers import battle, error, events, final, log, run, step
from tests.judge.relic.test_positions import position_log

SCENARIO = {"name": "Test Gate", "special": [{"kind": "enemy-score", "value": 2}],
            "confrontation": {"kind": "battle", "color": "red", "value": 5}}


@pytest.mark.rules("relic.cards.anatomy", "relic.project.effect-kinds")
def test_a_card_written_in_the_log_is_read_with_every_part() -> None:
    cards = {"lucky-coin": {"name": "Lucky Coin", "class": "Wargear", "type": "Equipment", "influence": 1,
                            "charges": 3, "bonuses": [{"kind": "skill", "color": "yellow", "value": 1}],
                            "effect": {"kind": "reroll", "timing": "during", "window": "test", "charge": True}}}
    data = log([step("test", skill="cunning", target=9), step("declare", card="p1.lucky-coin"),
                step("roll", roll=["4"]), step("use", card="p1.lucky-coin", die="d1", roll=["6", "1"])],
               cards=cards, assets=("lucky-coin",))
    view = final(data)
    coin = view["players"]["p1"]["assets"][0]
    assert coin["name"] == "Lucky Coin" and coin["charges"] == 2 and coin["charge_value"] == 3
    assert view["cards"]["lucky-coin"]["effect"]["kind"] == "reroll"
    assert view["contest"]["player_score"] == 2 + 1 + 6 + 1
    with pytest.raises(MalformedLog) as exc:
        parse_log(log([], cards={"Bad Code": {"name": "x", "class": "y", "type": "z"},
                                 "ok": {"name": "Ok", "class": "Wargear", "type": "Equipment", "charges": -1,
                                        "effect": {"kind": "reroll", "timing": "soon"}}}))
    assert sorted(f.path for f in exc.value.faults) == ["/setup/cards/Bad Code", "/setup/cards/ok/charges",
                                                        "/setup/cards/ok/effect/timing"]


@pytest.mark.rules("relic.project.effect-kinds", "relic.cards.anatomy")
def test_effect_text_the_engine_does_not_know_is_not_implemented_never_skipped() -> None:
    data = log([step("battle", enemies=["warp-spawn"])])
    result, seen = run(data)
    assert result.error is not None and result.error.kind == "not-implemented"
    assert [e["event"] for e in seen.steps[-1].events][-1] == "not-implemented"
    cards = {"odd": {"name": "Odd Relic", "class": "Relic", "type": "Relic", "effect": "Move directly to any space."}}
    used = log([step("use", card="p1.odd")], cards=cards, assets=("odd",))
    assert error(used).kind == "not-implemented" and "Odd Relic" in error(used).message
    # a card with such text is still held, and its other parts work
    assert final(log([], cards=cards, assets=("odd",)))["players"]["p1"]["assets"][0]["code"] == "odd"


@pytest.mark.rules("relic.cards.influence-cost", "relic.charges.initial", "relic.project.buying")
def test_buying_a_card_costs_its_influence_and_places_its_charges() -> None:
    data = log([step("buy", card="auspex")], assets=())
    evs = events(data)
    assert [e["event"] for e in evs][-2:] == ["bought", "charges-placed"]
    assert evs[-2]["cost"] == 2 and evs[-2]["influence"] == 1 and evs[-1]["charges"] == 2
    too_dear = log([step("buy", card="auspex"), step("buy", card="needle-rifle")], assets=())
    assert error(too_dear).rule == "relic.cards.influence-cost"
    not_for_sale = log([step("buy", card="ork-boy")])
    assert error(not_for_sale).rule == "relic.cards.influence-cost"
    in_movement = log([step("buy", card="auspex")], encounter=False)
    assert error(in_movement).rule == "relic.project.buying"
    twice = final(log([step("buy", card="purity-seal")], assets=("purity-seal",)))
    assert [a["ref"] for a in twice["players"]["p1"]["assets"]] == ["p1.purity-seal", "p1.purity-seal#2"]


@pytest.mark.rules("relic.scenario.special-rules", "relic.scenario.anatomy")
def test_a_scenario_special_rule_applies_to_every_player() -> None:
    mine = battle(["ork-boy"], step("roll", roll=["1", "1"]), scenario=SCENARIO)
    assert final(mine)["contest"]["against"] == 1 + 3 + 2
    bens = log([step("end-phase"), step("end-phase"), *[{"by": "p2", "do": "end-phase"}] * 2,
                {"by": "p2", "do": "battle", "enemies": ["plague-zombie"]},
                {"by": "p2", "do": "roll", "roll": ["1", "1"]}],
               scenario=SCENARIO)
    view = final(bens)
    assert view["turn"] == "p2" and view["contest"]["against"] == 1 + 2 + 2
    assert view["scenario"]["name"] == "Test Gate"
    difficulty = log([step("test", skill="strength", target=5), step("roll", roll=["1"])],
                     scenario="the-warp-storm")
    assert final(difficulty)["contest"]["against"] == 6
    with pytest.raises(MalformedLog) as exc:
        parse_log(log([], scenario={"name": "x", "confrontation": {"kind": "dance"}}))
    assert [f.path for f in exc.value.faults] == ["/setup/scenario/confrontation"]


@pytest.mark.rules("relic.scenario.confrontation", "relic.base.winning", "relic.project.board")
def test_the_confrontation_needs_the_scenario_space_and_the_encounter_phase() -> None:
    away = log([step("confront")], scenario=SCENARIO)
    assert error(away).rule == "relic.scenario.confrontation"
    there = log([step("reach"), step("end-phase"), step("end-phase"), step("confront")], scenario=SCENARIO,
                encounter=False)
    evs = events(there)
    assert "scenario-reached" in [e["event"] for e in evs]
    begins = [e for e in evs if e["event"] == "contest-begins"][0]
    assert begins["confrontation"] is True and begins["value"] == 5
    early = log([step("reach"), step("confront")], scenario=SCENARIO, encounter=False)
    assert error(early).rule == "relic.scenario.confrontation"


@pytest.mark.rules("relic.scenario.first-to-win", "relic.scenario.confrontation")
def test_the_first_player_to_win_the_confrontation_wins_the_game() -> None:
    lose_then = [step("reach"), step("end-phase"), step("end-phase"), step("confront"),
                 step("roll", roll=["6", "1", "1"])]
    data = log([*lose_then, step("resolve")], scenario=SCENARIO, encounter=False)
    result, _ = run(data)
    assert result.error is None and result.outcome() is None
    win = log([step("reach"), step("end-phase"), step("end-phase"), step("confront"), step("roll", roll=["1", "5"]),
               step("resolve")], scenario=SCENARIO, encounter=False)
    result, _ = run(win)
    assert result.outcome() == {"winner": "p1", "reason": "confrontation",
                                "rules": ["relic.scenario.confrontation", "relic.scenario.first-to-win"]}
    after = log([*win["steps"], {"by": "p2", "do": "end-phase"}], scenario=SCENARIO, encounter=False)
    assert error(after).rule == "relic.scenario.first-to-win"


@pytest.mark.rules("relic.base.threats")
def test_enemies_of_one_colour_are_one_battle_others_are_not() -> None:
    two = final(battle(["ork-boy", "plague-zombie"], step("roll", roll=["1", "1"]),))
    assert two["contest"]["value"] == 5 and len(two["contest"]["enemies"]) == 2
    mixed = battle(["ork-boy", "genestealer"])
    assert error(mixed).rule == "relic.base.threats"


@pytest.mark.rules("relic.base.skill")
def test_a_skill_test_passes_on_equal_and_fails_on_all_ones() -> None:
    equal = log([step("test", skill="strength", target=9), step("roll", roll=["5"]), step("resolve")])
    assert events(equal, "contest-resolved")[0]["outcome"] == "pass"
    ones = log([step("test", skill="strength", target=2), step("roll", roll=["1"]), step("resolve")])
    assert events(ones, "contest-resolved")[0]["outcome"] == "fail"


@pytest.mark.rules("relic.base.life")
def test_a_character_at_zero_life_is_vanquished() -> None:
    data = position_log(steps=[step("battle", enemies=["ork-boy"]), step("roll", roll=["6", "1", "1"]),
                               step("resolve")])
    data["setup"]["position"]["players"]["p1"]["life"] = 1
    data["setup"]["position"]["players"]["p1"]["trophies"] = ["plague-zombie"]
    result, seen = run(data)
    assert result.error is None and result.state is not None
    assert "vanquished" in [e["event"] for e in seen.steps[-1].events]
    p1 = result.state.view()["players"]["p1"]
    assert p1["life"] == 5 and p1["trophies"] == [] and p1["influence"] == 0


def test_the_project_pool_names_the_needle_rifle_of_the_seed() -> None:
    rifle = default_pool().cards["needle-rifle"]
    assert rifle.name == "Needle Rifle" and rifle.charges == 2 and rifle.bonuses[0].charge
