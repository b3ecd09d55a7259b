"""Attacks, dice, damage and the attack keywords (swtcg.keywords.*, swtcg.base.attack)."""

from __future__ import annotations

import pytest

from tests.judge.swtcg.table import Table, error, play, ruled, state


def attack(attacker: str, target: str, roll: list[str], **kw: object) -> dict[str, object]:
    return {"by": attacker.split(".")[0], "do": "attack", "card": attacker, "target": target, "roll": roll, **kw}


@pytest.mark.rules("swtcg.base.attack", "swtcg.pop.damage")
def test_an_attack_rolls_power_in_dice_and_each_four_or_more_is_a_damage_counter() -> None:
    t2 = Table().unit("p1.DS-ISD").unit("p2.LS-AW", tapped=True)  # Star Destroyer: power 6
    result, seen = play(t2.log(attack("p1.DS-ISD", "p2.LS-AW", ["6", "4", "3", "1", "2", "5"])))
    assert result.error is None
    assert [e["dice"] for e in seen.events(1, "roll")] == [[6, 4, 3, 1, 2, 5]]
    assert seen.events(1, "hits")[0]["damage"] == 3
    assert "p2.LS-AW" not in result.state.cards  # 3 counters on a health 2 unit
    assert result.state.cards["p1.DS-ISD"].tapped


@pytest.mark.rules("swtcg.keywords.accuracy", "swtcg.keywords.armor-threshold")
def test_accuracy_adds_to_each_die_and_armor_needs_five() -> None:
    t = Table().unit("p1.DS-TIEB").unit("p2.LS-MC", damage=0)
    result, seen = play(t.log(attack("p1.DS-TIEB", "p2.LS-MC", ["4", "3", "1"])))
    [hits] = seen.events(1, "hits")
    assert (hits["need"], hits["accuracy"], hits["hits"]) == (5, 1, 1)  # only 4+1 reaches 5
    t2 = Table().unit("p1.DS-TIEB").unit("p2.LS-YW")
    _, seen2 = play(t2.log(attack("p1.DS-TIEB", "p2.LS-YW", ["3", "1"])))  # Y-wing's Shields 1: 2 dice
    [hits2] = seen2.events(1, "hits")
    assert (hits2["need"], hits2["hits"]) == (4, 1)  # 3+1 hits without Armor


@pytest.mark.rules("swtcg.keywords.armor-no-stack")
def test_two_armor_abilities_are_one() -> None:
    from dataclasses import replace

    from judge.games.swtcg.cards import default_pool
    from judge.games.swtcg.model import CardPool, Keyword

    pool = CardPool(dict(default_pool().cards))
    mc = pool.cards["LS-MC"]
    pool.add(replace(mc, keywords=(Keyword("armor"), Keyword("armor"))))
    t = Table().unit("p1.DS-TIEB").unit("p2.LS-MC")
    _, seen = play(t.log(attack("p1.DS-TIEB", "p2.LS-MC", ["4", "3", "6"])), pool)
    assert seen.events(1, "hits")[0]["need"] == 5  # not 6


@pytest.mark.rules("swtcg.keywords.accuracy", "swtcg.abilities.cumulative-modifiers", "swtcg.base.critical-hit")
def test_critical_hit_needs_a_natural_six_and_accuracy_does_not_make_one() -> None:
    t = Table(arena="ground").unit("p2.LS-SS").unit("p1.DS-ATAT")  # Snowspeeder: power 3, Critical Hit 1
    _, seen = play(t.log(attack("p2.LS-SS", "p1.DS-ATAT", ["6", "5", "1"])))
    assert seen.events(1, "hits")[0]["critical"] == 1
    assert "swtcg.base.critical-hit" in seen.events(1, "hits")[0]["rules"]
    assert seen.events(1, "damage")[0]["counters"] == 3  # 6 and 5 hit Armor, +1 critical
    _, seen = play(t.log(attack("p2.LS-SS", "p1.DS-ATAT", ["5", "5", "1"])))
    assert seen.events(1, "hits")[0]["critical"] == 0
    assert "swtcg.base.critical-hit" not in seen.events(1, "hits")[0]["rules"]


@pytest.mark.rules("swtcg.base.attack")
def test_a_unit_is_discarded_with_damage_counters_equal_to_its_health() -> None:
    t = Table().unit("p1.DS-TIE").unit("p2.LS-AW", damage=1, tapped=True)  # A-wing: health 2
    st = state(t.log(attack("p1.DS-TIE", "p2.LS-AW", ["4", "1"])))
    assert "p2.LS-AW" not in st.cards and st.players["p2"].discard == ["LS-AW"]


@pytest.mark.rules("swtcg.keywords.stun")
def test_stun_takes_power_until_the_end_of_battle_only_when_counters_are_put() -> None:
    t = Table(arena="character").unit("p1.DS-ST").unit("p2.LS-JK", tapped=True).set("p2", force=0)  # Stun 1
    st = state(t.log(attack("p1.DS-ST", "p2.LS-JK", ["4", "1", "1"])))
    assert [m["amount"] for m in st.mods if m["target"] == "p2.LS-JK" and m["stat"] == "power"] == [-1]
    st = state(t.log(attack("p1.DS-ST", "p2.LS-JK", ["1", "1", "1"])))
    assert not st.mods


@pytest.mark.rules("swtcg.keywords.stun", "swtcg.keywords.stun-deflect", "swtcg.pop.new-damage-waits",
                   "swtcg.damage.prevent-when")
def test_deflected_damage_waits_for_its_own_chance_and_does_not_stun_for_the_attacker() -> None:
    t = Table(arena="character").unit("p1.DS-ST").unit("p2.LS-JK", tapped=True).set("p2", force=5)
    log = t.log(attack("p1.DS-ST", "p2.LS-JK", ["5", "5", "1"]),
                {"by": "p2", "do": "prevent", "ability": "p2.LS-JK:deflect", "to": "p1.DS-ST"})
    result, seen = play(log)
    assert result.error is None
    kinds = [e["event"] for e in seen.events(2)]
    # the deflected damage waits: the first chance ends, then a new one for the new damage
    assert kinds.index("deflect") < kinds.index("chance-end") < kinds.index("pending")
    assert result.state.cards["p2.LS-JK"].damage == 0
    assert "p1.DS-ST" not in result.state.cards  # 2 damage on a health 2 unit
    assert not [e for e in seen.all("stun")]  # the Jedi dealt it and has no Stun


@pytest.mark.rules("swtcg.damage.excess-prevention-wasted", "swtcg.damage.prevent-not-remove")
def test_prevention_beyond_the_damage_is_wasted_and_counters_stay() -> None:
    t = Table().unit("p2.LS-AW").unit("p1.DS-TIE", damage=1).set("p1", hand=["DS-DEF"])
    log = t.log(attack("p2.LS-AW", "p1.DS-TIE", ["4", "1"]),
                {"by": "p1", "do": "play", "card": "DS-DEF", "target": "p1.DS-TIE"})
    result, seen = play(log)
    assert result.error is None, result.error
    [p] = seen.events(2, "prevent")
    assert (p["prevented"], p["wasted"]) == (1, 1)
    assert result.state.cards["p1.DS-TIE"].damage == 1  # the counter already there stays


@pytest.mark.rules("swtcg.base.attack")
def test_shields_take_attack_dice() -> None:
    t = Table().unit("p1.DS-TIE").unit("p2.LS-YW", tapped=True)  # TIE power 2, Y-wing Shields 1
    _, seen = play(t.log(attack("p1.DS-TIE", "p2.LS-YW", ["5"])))
    assert seen.events(1, "roll")[0]["dice"] == [5]


@pytest.mark.rules("swtcg.keywords.overkill-remaining-health")
def test_overkill_sends_hits_beyond_the_remaining_health_to_another_unit() -> None:
    t = Table(arena="ground").unit("p1.DS-BDD").unit("p2.LS-RT", damage=1).unit("p2.LS-SS", tapped=True)
    log = t.log(attack("p1.DS-BDD", "p2.LS-RT", ["6", "6", "5", "4", "4", "1", "1", "1"],
                       choices=[{"by": "p1", "kind": "overkill", "answer": "p2.LS-SS"}]))
    result, seen = play(log)
    assert result.error is None, result.error
    pend = {e["target"]: e["amount"] for e in seen.events(1, "pending")}
    assert pend == {"p2.LS-RT": 2, "p2.LS-SS": 3}  # remaining health 2 of 3


@pytest.mark.rules("swtcg.keywords.overkill-then-double", "swtcg.base.location")
def test_hoth_battle_plains_doubles_after_overkill_splits_the_hits_as_the_seed_works_it_out() -> None:
    # the seed's worked example (001 "Overkill"): 4 hits against remaining health 3 with Hoth Battle
    # Plains in play: 3 to the defender and 1 to another unit, then doubled: 6 and 2
    t = (Table(arena="ground").unit("p1.DS-BDD").unit("p2.LS-TG", damage=1).unit("p2.LS-SS", tapped=True)
         .unit("p1.DS-HBP", zone="location", at="ground"))
    log = t.log(attack("p1.DS-BDD", "p2.LS-TG", ["6", "5", "4", "4", "1", "1", "1", "1"],
                       choices=[{"by": "p1", "kind": "overkill", "answer": "p2.LS-SS"}]))
    result, seen = play(log)
    assert result.error is None, result.error
    assert seen.events(1, "hits")[0]["damage"] == 4
    doubled = {e["target"]: (e["was"], e["amount"], e["source"], e["by"]) for e in seen.events(1, "doubled")}
    assert doubled == {"p2.LS-TG": (3, 6, "p1.DS-HBP", "p1.DS-BDD"), "p2.LS-SS": (1, 2, "p1.DS-HBP", "p1.DS-BDD")}
    assert {e["target"]: e["amount"] for e in seen.events(1, "pending")} == {"p2.LS-TG": 6, "p2.LS-SS": 2}
    assert "p2.LS-TG" not in result.state.cards and result.state.cards["p2.LS-SS"].damage == 2
    # without the Location the same attack does 3 and 1
    plain = Table(arena="ground").unit("p1.DS-BDD").unit("p2.LS-TG", damage=1).unit("p2.LS-SS", tapped=True)
    result, seen = play(plain.log(attack("p1.DS-BDD", "p2.LS-TG", ["6", "5", "4", "4", "1", "1", "1", "1"],
                                         choices=[{"by": "p1", "kind": "overkill", "answer": "p2.LS-SS"}])))
    assert not seen.events(1, "doubled") and result.state.cards["p2.LS-SS"].damage == 1


@pytest.mark.rules("swtcg.keywords.overkill-then-double", "swtcg.damage.prevent-when")
def test_doubled_damage_is_what_waits_to_be_prevented_and_any_side_s_ground_units_are_doubled() -> None:
    # a Light Side unit attacking in the Ground arena: the Dark Side's Location doubles its damage too,
    # before damage prevention (the card's text): a prevention takes from the doubled amount
    t = (Table(arena="ground").unit("p2.LS-TG").unit("p1.DS-ATAT", tapped=True)
         .unit("p1.DS-HBP", zone="location", at="ground").set("p1", hand=["DS-DEF"]))
    attacked = t.log(attack("p2.LS-TG", "p1.DS-ATAT", ["6", "5", "1"]))
    result, seen = play(attacked)
    assert result.error is None, result.error
    assert "play DS-DEF" in result.state.may  # the step ends in p1's chance to prevent
    [d] = seen.events(1, "doubled")
    assert (d["was"], d["amount"]) == (2, 4)
    assert seen.events(1, "pending")[0]["amount"] == 4
    result, seen = play(t.log(attack("p2.LS-TG", "p1.DS-ATAT", ["6", "5", "1"]),
                              {"by": "p1", "do": "play", "card": "DS-DEF", "target": "p1.DS-ATAT"}))
    assert result.error is None, result.error
    assert seen.events(2, "prevent")[0]["prevented"] == 2
    assert result.state.cards["p1.DS-ATAT"].damage == 2  # 4 doubled, 2 prevented


@pytest.mark.rules("swtcg.keywords.overkill-then-double")
def test_hoth_battle_plains_doubles_only_damage_done_by_units_in_the_ground_arena() -> None:
    t = Table().unit("p1.DS-TIE").unit("p2.LS-AW", tapped=True).unit("p1.DS-HBP", zone="location", at="ground")
    result, seen = play(t.log(attack("p1.DS-TIE", "p2.LS-AW", ["4", "1"])))  # a Space attack
    assert result.error is None, result.error
    assert not seen.events(1, "doubled") and result.state.cards["p2.LS-AW"].damage == 1
    # a Location still being built (not in play) doubles nothing either
    building = Table(arena="ground").unit("p1.DS-BDD").unit("p2.LS-TG", tapped=True).unit(
        "p1.DS-HBP", zone="build", built=False, counters=0)
    result, seen = play(building.log(attack("p1.DS-BDD", "p2.LS-TG", ["4", "1", "1", "1", "1", "1", "1", "1"])))
    assert result.error is None, result.error
    assert not seen.events(1, "doubled") and result.state.cards["p2.LS-TG"].damage == 1


@pytest.mark.rules("swtcg.keywords.intercept", "swtcg.keywords.intercept-once-per-attack")
def test_intercept_turns_the_attack_and_each_instance_is_used_once() -> None:
    t = Table(arena="ground").unit("p1.DS-SPB").unit("p2.LS-TG").unit("p2.LS-RT", tapped=True)
    log = t.log(attack("p1.DS-SPB", "p2.LS-TG", []),
                {"by": "p2", "do": "use", "ability": "p2.LS-RT:intercept", "roll": ["4", "4"]})
    result, seen = play(log)
    assert result.error is None, result.error
    assert seen.events(2, "intercept")[0]["defender"] == "p2.LS-RT"
    assert result.state.cards["p2.LS-RT"].damage == 2 and result.state.cards["p2.LS-TG"].damage == 0


@pytest.mark.rules("swtcg.keywords.intercept-illegal-target")
def test_intercept_by_a_unit_the_attacker_cannot_attack_changes_nothing() -> None:
    t = Table(arena="ground").unit("p1.DS-JHD").unit("p2.LS-TG").unit("p2.LS-RT", tapped=True)
    log = t.log(attack("p1.DS-JHD", "p2.LS-TG", []),
                {"by": "p2", "do": "use", "ability": "p2.LS-RT:intercept", "roll": ["1", "1", "1", "1"]})
    result, seen = play(log)
    assert result.error is None, result.error
    [i] = seen.events(2, "intercept")
    assert (i["changed"], i["defender"]) == (False, "p2.LS-TG")


@pytest.mark.rules("swtcg.keywords.retaliate", "swtcg.keywords.retaliate-value-lock")
def test_retaliate_deals_its_dice_when_the_attack_ends_even_from_the_discard_pile() -> None:
    t = Table(arena="character").unit("p1.DS-VK").unit("p2.LS-LF", tapped=True).set("p2", force=1)
    log = t.log(attack("p1.DS-VK", "p2.LS-LF", []),
                {"by": "p1", "do": "pass"},  # Vader could play his own ability: the Dark Side acts first
                {"by": "p2", "do": "use", "ability": "p2.LS-LF:retaliate"},
                {"by": "p1", "do": "pass", "roll": ["5", "5", "5", "1", "1", "1", "6", "6"]},
                {"by": "p1", "do": "pass"})  # Vader could Evade the Retaliate damage: he does not
    result, seen = play(log)
    assert result.error is None, result.error
    assert "p2.LS-LF" not in result.state.cards  # Luke (health 3) is discarded by the attack
    assert seen.events(3, "retaliate")[0]["dice"] == 2
    rolls = seen.events(4, "roll")
    assert [r["purpose"] for r in rolls] == ["attack", "dice"] and rolls[1]["source"] == "p2.LS-LF"
    assert result.state.cards["p1.DS-VK"].damage == 2  # Vader's Armor: both 6s hit


@pytest.mark.rules("swtcg.keywords.lucky-once-per-attack", "swtcg.keywords.lucky-reroll-count",
                   "swtcg.keywords.lucky-sum",
                   "swtcg.timing.reroll-once-per-roll", "swtcg.pop.dice-roll")
def test_lucky_rerolls_once_per_attack_at_most_its_value_and_the_dice_rolled() -> None:
    t = (Table(arena="ground").unit("p2.LS-ANP").unit("p1.DS-ATAT", tapped=True)
         .unit("p2.LS-AJ", zone="pilot", on="p2.LS-ANP").set("p2", hand=["LS-LS"]))
    # Podracer: power 2, Lucky 1; Anakin piloting: Lucky 2 more (3), but only 2 dice were rolled
    too_many = t.log(attack("p2.LS-ANP", "p1.DS-ATAT", ["1", "2"]),
                     {"by": "p2", "do": "reroll", "ability": "p2.LS-ANP:lucky", "dice": [0, 1, 2]})
    assert error(too_many) == ("illegal-action", "swtcg.keywords.lucky-reroll-count")
    ok = t.log(attack("p2.LS-ANP", "p1.DS-ATAT", ["1", "2"]),
               {"by": "p2", "do": "reroll", "ability": "p2.LS-ANP:lucky", "dice": [0, 1], "roll": ["6", "5"]},
               {"by": "p2", "do": "reroll", "ability": "p2.LS-ANP:lucky@p2.LS-AJ", "dice": [0]})
    result, seen = play(ok)
    assert result.error is not None and result.error.rule == "swtcg.keywords.lucky-once-per-attack"
    assert seen.events(2, "reroll")[0]["dice"] == [6, 5]


SIDIOUS = ("round 3\nphase battle\narena space\np1 Vera: dark, force 4\np1 space TIE Fighter\n"
           "p1 character Darth Sidious (D)\n")


@pytest.mark.rules("swtcg.abilities.activated-definition", "swtcg.keywords.lucky-once-per-attack",
                   "swtcg.costs.must-pay")
def test_darth_sidious_makes_activated_abilities_dearer_but_not_lucky() -> None:
    """Darth Sidious (D): each of the opponent's activated abilities costs 2 more Force. Lucky has no
    arrow: a static keyword, no activated ability (swtcg.abilities.activated-definition), so it stays
    free; Evade ("Pay 1 Force -> Evade 1") costs 3."""
    for force in (0, 2):
        _, ruling = ruled(SIDIOUS + f"p2 Luke: light, force {force}\np2 space Millennium Falcon\n"
                          "before p2 attack Millennium Falcon -> TIE Fighter rolling 1 1 1 1 1\n"
                          "ask p2 reroll Millennium Falcon:lucky dice 0 rolling 5\n")
        assert ruling["legal"] is True, ruling["violation"]
        [use] = [e for e in ruling["events"] if e["event"] == "use"]
        assert use["cost"] == 0 and "swtcg.abilities.activated-definition" in use["rules"]
        assert "swtcg.costs.must-pay" not in use["rules"]
        [reroll] = [e for e in ruling["events"] if e["event"] == "reroll"]
        assert reroll["dice"] == [5, 1, 1, 1, 1]
        assert ruling["state"]["players"]["p2"]["force"] == force  # nothing paid
        assert ruling["state"]["arenas"]["space"]["p1.DS-TIE"]["damage"] == 1  # the rerolled 5 hits
    _, evade = ruled(SIDIOUS + "p2 Luke: light, force 2, hand Evasive Maneuver\np2 space X-wing: tapped\n"
                     "before p1 attack TIE Fighter -> X-wing\nbefore p2 pass rolling 6 6\n"
                     "ask p2 prevent X-wing:evade amount 1\n")
    assert evade["legal"] is False and evade["violation"]["rule"] == "swtcg.costs.must-pay"
    assert evade["state"]["players"]["p2"]["force"] == 2


@pytest.mark.rules("swtcg.keywords.power-boost-self-damage", "swtcg.keywords.power-boost-duration",
                   "swtcg.effects.one-shot-vs-lasting",
                   "swtcg.triggers.release", "swtcg.pop.triggers-first")
def test_power_boost_adds_power_for_the_attack_and_damages_the_unit_when_it_ends() -> None:
    t = Table(arena="character").unit("p2.LS-RC").unit("p1.DS-ST")  # Commando: speed 40 > 30
    log = t.log(attack("p2.LS-RC", "p1.DS-ST", ["1", "1", "1", "1", "4"],
                       choices=[{"by": "p2", "kind": "may", "answer": True}]))
    result, seen = play(log)
    assert result.error is None, result.error
    assert len(seen.events(1, "roll")[0]["dice"]) == 5  # 3 + 2
    assert result.state.cards["p2.LS-RC"].damage == 1  # the self-damage comes when the attack ends
    assert not [m for m in result.state.mods if m["target"] == "p2.LS-RC"]  # the bonus lasted for the attack


@pytest.mark.rules("swtcg.battle.dice-of-damage-not-attack")
def test_dice_of_damage_get_no_accuracy_and_armor_still_counts() -> None:
    t = (Table(arena="space").unit("p1.DS-ISD", tapped=True).unit("p1.DS-TIEB", tapped=True)
         .unit("p2.LS-XW", tapped=True).set("p2", hand=["LS-RS"]))
    log = t.log({"by": "p2", "do": "play", "card": "LS-RS", "target": "p1.DS-ISD", "roll": ["5", "4", "6"]})
    result, seen = play(log)
    assert result.error is None, result.error
    [hits] = seen.events(1, "hits")
    assert (hits["need"], hits["accuracy"], hits["critical"], hits["damage"]) == (5, 0, 0, 2)
    assert result.state.cards["p1.DS-ISD"].damage == 2
    assert result.state.players["p2"].force == 2  # Rebel Strike cost 3


@pytest.mark.rules("swtcg.base.bombard", "swtcg.battle.empty-arena")
def test_bombard_attacks_the_ground_from_space_with_its_own_dice() -> None:
    t = Table().unit("p1.DS-DEV").unit("p2.LS-RT", zone="ground", tapped=True)  # no enemy in Space
    result, seen = play(t.log(attack("p1.DS-DEV", "p2.LS-RT", ["5", "5", "1"])))
    assert result.error is None, result.error
    assert len(seen.events(1, "roll")[0]["dice"]) == 3  # Bombard 3, not its power 6
    assert result.state.cards["p2.LS-RT"].damage == 2
    plain = Table().unit("p1.DS-ISD").unit("p2.LS-RT", zone="ground", tapped=True)
    assert error(plain.log(attack("p1.DS-ISD", "p2.LS-RT", []))) == ("illegal-action", "swtcg.base.battle.order")


def _with_keyword(code: str, *keywords: object) -> object:
    """The default pool with ``code``'s unit given ``keywords`` besides its own."""
    from dataclasses import replace

    from judge.games.swtcg.cards import default_pool
    from judge.games.swtcg.model import CardPool

    pool = CardPool(dict(default_pool().cards))
    card = pool.cards[code]
    pool.add(replace(card, keywords=card.keywords + tuple(keywords)))
    return pool


@pytest.mark.rules("swtcg.keywords.retaliate", "swtcg.base.bombard")
def test_retaliate_answers_only_an_attacker_in_its_own_arena_not_a_bombard_from_space() -> None:
    from judge.games.swtcg.model import Keyword

    pool = _with_keyword("LS-RT", Keyword("retaliate", 2, cost=0))  # a Ground unit with Retaliate 2
    bombard = Table().unit("p1.DS-DEV").unit("p2.LS-RT", zone="ground", tapped=True)
    # nothing for p2 to do in the attack's chance: the engine passes for them and the dice are rolled at once
    result, seen = play(bombard.log(attack("p1.DS-DEV", "p2.LS-RT", ["5", "5", "1"])), pool)
    assert result.error is None, result.error
    assert not seen.all("retaliate") and result.state.cards["p1.DS-DEV"].damage == 0
    assert result.state.cards["p2.LS-RT"].damage == 2
    # in its own arena the same unit retaliates
    ground = Table(arena="ground").unit("p1.DS-ATAT").unit("p2.LS-RT", tapped=True)
    log = ground.log(attack("p1.DS-ATAT", "p2.LS-RT", []), {"by": "p2", "do": "use", "ability": "p2.LS-RT:retaliate"})
    result, seen = play(log, pool)
    # (the step is legal; the log gives no dice for the attack roll that comes next)
    assert result.error is not None and result.error.kind == "missing-outcome", result.error
    assert seen.events(2, "use")[0]["ability"] == "p2.LS-RT:retaliate"


@pytest.mark.rules("swtcg.keywords.stun", "swtcg.keywords.power-boost-self-damage")
def test_a_unit_with_stun_does_not_stun_itself_with_its_own_damage() -> None:
    from judge.games.swtcg.model import Keyword

    pool = _with_keyword("LS-RC", Keyword("stun", 1))  # Commando: Power Boost (1 damage to itself) and Stun 1
    t = Table(arena="character").unit("p2.LS-RC").unit("p1.DS-ST")
    log = t.log(attack("p2.LS-RC", "p1.DS-ST", ["1", "1", "1", "1", "4"],
                       choices=[{"by": "p2", "kind": "may", "answer": True}]))
    result, seen = play(log, pool)
    assert result.error is None, result.error
    assert result.state.cards["p2.LS-RC"].damage == 1  # its own Power Boost damage
    stunned = [e["target"] for e in seen.all("stun")]
    assert stunned == ["p1.DS-ST"]  # the unit it attacked, not itself
