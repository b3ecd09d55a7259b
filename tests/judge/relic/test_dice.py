"""Exploding sixes, additional dice, rerolls and modifiers (relic.dice.*)."""

from __future__ import annotations

import pytest

from tests.judge.relic.helpers import battle, error, events, final, last_events, log, step

PLAIN = {"plain": {"name": "Plain Foe", "class": "Threat", "type": "Enemy", "battle": {"color": "red", "value": 3}}}


def plain_battle(*steps, **kw):  # type: ignore[no-untyped-def]
    return battle(["plain"], *steps, cards=PLAIN, **kw)


@pytest.mark.rules("relic.dice.exploding", "relic.project.roll-order")
def test_the_seed_example_six_six_two_adds_fourteen() -> None:
    data = plain_battle(step("roll", roll=["1", "6", "6", "2"]))
    evs = last_events(data)
    player = [e for e in evs if e.get("side") == "player"]
    assert [(e["event"], e["die"], e["result"]) for e in player] == [
        ("die-rolled", "d1", 6), ("die-exploded", "d2", 6), ("die-exploded", "d3", 2)]
    # Battle Sister strength 4: 4 + 6 + 6 + 2
    assert [e["score"] for e in player] == [10, 16, 18]
    assert player[-1]["score"] - 4 == 14


@pytest.mark.rules("relic.dice.exploding")
def test_the_enemy_die_explodes_too() -> None:
    evs = last_events(plain_battle(step("roll", roll=["6", "5", "3"])))
    assert [(e["event"], e["die"], e["side"], e["score"]) for e in evs] == [
        ("die-rolled", "e1", "enemy", 9), ("die-exploded", "e2", "enemy", 14), ("die-rolled", "d1", "player", 7)]


@pytest.mark.rules("relic.dice.explode-per-die", "relic.dice.additional-simultaneous")
def test_only_a_die_showing_six_explodes_each_on_its_own() -> None:
    threes = plain_battle(step("use", card="p1.servo-skull"), step("roll", roll=["1", "3", "3"]),
                          assets=("servo-skull",))
    assert [e["event"] for e in last_events(threes)] == ["die-rolled"] * 3
    sixes = plain_battle(step("use", card="p1.servo-skull"), step("roll", roll=["1", "6", "6", "2", "4"]),
                         assets=("servo-skull",))
    evs = last_events(sixes)
    assert [(e["event"], e["die"], e.get("parent")) for e in evs] == [
        ("die-rolled", "e1", None), ("die-rolled", "d1", None), ("die-rolled", "d2", None),
        ("die-exploded", "d3", "d1"), ("die-exploded", "d4", "d2")]
    assert evs[-1]["score"] == 4 + 6 + 6 + 2 + 4


@pytest.mark.rules("relic.dice.additional-simultaneous")
def test_no_additional_die_after_the_roll() -> None:
    data = plain_battle(step("roll", roll=["1", "6", "2"]), step("use", card="p1.servo-skull"),
                        assets=("servo-skull",))
    err = error(data)
    assert err.kind == "illegal-action" and err.rule == "relic.dice.additional-simultaneous"
    assert err.at == len(data["steps"])
    # and a roll lists exactly the dice rolled
    extra = plain_battle(step("roll", roll=["1", "2", "3"]))
    assert error(extra).rule == "relic.dice.additional-simultaneous"


@pytest.mark.rules("relic.dice.modify", "relic.dice.base-result-triggers")
def test_a_plus_one_that_makes_a_six_does_not_explode() -> None:
    data = plain_battle(step("roll", roll=["1", "5"]), step("use", card="p1.targeting-cogitator", die="d1"),
                        assets=("targeting-cogitator",))
    evs = last_events(data)
    assert [e["event"] for e in evs] == ["charge-spent", "die-modified"]
    assert evs[1]["base"] == 5 and evs[1]["result"] == 6 and evs[1]["score"] == 4 + 6
    dice = final(data)["contest"]["dice"]
    assert [(d["id"], d["result"], d["exploded"]) for d in dice if d["side"] == "player"] == [("d1", 6, False)]


@pytest.mark.rules("relic.dice.base-result-triggers", "relic.dice.modify")
def test_a_rolled_six_lowered_by_a_modifier_still_exploded() -> None:
    cards = {**PLAIN, "dampener": {"name": "Dampener", "class": "Wargear", "type": "Equipment",
                                   "effect": {"kind": "modify", "value": -1}}}
    data = battle(["plain"], step("roll", roll=["1", "6", "3"]), step("use", card="p1.dampener", die="d1"),
                  cards=cards, assets=("dampener",))
    view = final(data)
    dice = {d["id"]: d for d in view["contest"]["dice"]}
    assert dice["d1"]["base"] == 6 and dice["d1"]["result"] == 5 and dice["d1"]["exploded"]
    assert dice["d2"]["parent"] == "d1" and not dice["d2"].get("void")
    assert view["contest"]["player_score"] == 4 + 5 + 3


@pytest.mark.rules("relic.dice.reroll")
def test_a_rerolled_six_explodes_and_only_the_new_result_counts() -> None:
    data = plain_battle(step("roll", roll=["1", "2"]), step("use", card="p1.auspex", die="d1", roll=["6", "4"]),
                        assets=("auspex",))
    evs = last_events(data)
    assert [e["event"] for e in evs] == ["charge-spent", "die-rerolled", "die-exploded"]
    assert evs[1]["was"] == 2 and evs[1]["result"] == 6 and evs[1]["score"] == 10
    assert evs[2]["parent"] == "d1" and evs[2]["score"] == 14
    d1 = final(data)["contest"]["dice"][1]
    assert d1["rolls"] == [2, 6] and d1["base"] == 6


@pytest.mark.rules("relic.dice.reroll", "relic.project.reroll-voids-explosions")
def test_rerolling_an_exploded_six_voids_its_explosions() -> None:
    data = plain_battle(step("roll", roll=["1", "6", "6", "3"]),
                        step("use", card="p1.auspex", die="d1", roll=["2"]), assets=("auspex",))
    evs = last_events(data)
    assert evs[-1]["event"] == "die-rerolled" and evs[-1]["voided"] == ["d2", "d3"]
    assert evs[-1]["score"] == 4 + 2
    assert final(data)["contest"]["player_score"] == 6


@pytest.mark.rules("relic.dice.reroll")
def test_a_die_may_be_rerolled_several_times_by_several_means() -> None:
    data = plain_battle(step("roll", roll=["1", "1"]),
                        step("use", card="p1.auspex", die="d1", roll=["2"]),
                        step("use", card="p1.blessed-ammunition", die="d1", roll=["3"]),
                        assets=("auspex", "blessed-ammunition"))
    dice = final(data)["contest"]["dice"]
    assert dice[1]["rolls"] == [1, 2, 3] and dice[1]["result"] == 3


@pytest.mark.rules("relic.dice.reroll")
def test_a_reroll_needs_the_roll_first() -> None:
    data = plain_battle(step("use", card="p1.auspex", die="d1"), assets=("auspex",))
    assert error(data).rule == "relic.dice.reroll"


@pytest.mark.rules("relic.dice.exploding")
def test_a_missing_roll_is_a_missing_outcome_and_an_rng_draws_it() -> None:
    err = error(plain_battle(step("roll", roll=["3"])))
    assert err.kind == "missing-outcome"
    drawn = events(plain_battle(step("roll"), rng="dice"), "die-rolled")
    assert [e["die"] for e in drawn] == ["e1", "d1"] and all(1 <= e["result"] <= 6 for e in drawn)
    assert error(plain_battle(step("roll", roll=["7", "1"]))).rule == "relic.dice.exploding"


@pytest.mark.rules("relic.base.power", "relic.dice.base-result-triggers")
def test_a_power_number_six_is_a_rolled_six_and_explodes() -> None:
    data = log([step("battle", enemies=["plain"]), step("power", card="p1.divination"), step("roll", roll=["1", "2"])],
               cards=PLAIN, power=("divination",))
    evs = last_events(data)
    assert [(e["event"], e["die"], e["result"]) for e in evs] == [
        ("die-rolled", "e1", 1), ("die-rolled", "d1", 6), ("die-exploded", "d2", 2)]
    view = final(data)
    assert view["players"]["p1"]["hand"] == 0 and view["players"]["p1"]["discard"] == ["divination"]
    twice = log([step("battle", enemies=["plain"]), step("power", card="p1.divination"),
                 step("power", card="p1.emperors-grace")], cards=PLAIN, power=("divination", "emperors-grace"))
    assert error(twice).rule == "relic.base.power"
