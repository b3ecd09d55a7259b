"""Resolving dice: symbols, modifiers, costs, the pool, and what each symbol does."""

from __future__ import annotations

import pytest

from tests.judge.destiny.tablehelp import Table, error, final, player, position_of, ruling_json, run


def resolve(pid: str, *entries: dict, **extra: object) -> dict:
    return {"by": pid, "do": "resolve", "dice": list(entries), **extra}


def han_vs_trooper(**p1_pool: str) -> Table:
    """p1: Han Solo (05046, elite) and Luke Skywalker (05031); p2: Veteran Stormtrooper (05013)."""
    t = Table()
    t.character("p1", "05046", dice=2)
    t.character("p1", "05031", dice=2)
    t.character("p2", "05013")
    t.pool("p1", {k.replace("_", "/").replace("han", "p1.05046").replace("luke", "p1.05031"): v
                  for k, v in p1_pool.items()})
    return t


@pytest.mark.rules("destiny.actions.resolve-one-symbol")
def test_one_action_resolves_one_symbol() -> None:
    t = han_vs_trooper(han_1="2RD", luke_1="1MD")
    err = error(t.log([resolve("p1", {"die": "p1.05046/1", "target": "p2.05013"},
                               {"die": "p1.05031/1", "target": "p2.05013"})]))
    assert err is not None and err["rule"] == "destiny.actions.resolve-one-symbol"


@pytest.mark.rules("destiny.actions.resolve-one-symbol", "destiny.symbols.damage-one-target")
def test_several_dice_of_one_symbol_may_hit_different_characters() -> None:
    t = han_vs_trooper(han_1="2RD", luke_1="1RD")
    t.character("p2", "05019")
    state = final(t.log([resolve("p1", {"die": "p1.05046/1", "target": "p2.05013"},
                                 {"die": "p1.05031/1", "target": "p2.05019"})]))
    chars = player(state, "p2")["characters"]
    assert (chars["p2.05013"]["damage"], chars["p2.05019"]["damage"]) == (2, 1)
    assert player(state, "p1")["pool"] == {}


@pytest.mark.rules("destiny.dice.modifier-needs-base")
def test_a_modifier_cannot_resolve_alone() -> None:
    t = han_vs_trooper(han_2="+1R")
    err = error(t.log([resolve("p1", {"die": "p1.05046/2"})]))
    assert err is not None and err["rule"] == "destiny.dice.modifier-needs-base"


@pytest.mark.rules("destiny.dice.modifier-needs-base", "destiny.symbols.resource")
def test_a_modifier_adds_to_a_base_of_the_same_symbol() -> None:
    t = han_vs_trooper(han_1="1R", han_2="+1R")
    t.set("p1", resources=0)
    modifier = {"die": "p1.05046/2", "modifies": "p1.05046/1"}
    state = final(t.log([resolve("p1", {"die": "p1.05046/1"}, modifier)]))
    assert player(state, "p1")["resources"] == 2
    assert player(state, "p1")["pool"] == {}


@pytest.mark.rules("destiny.dice.modifier-needs-base")
def test_a_modifier_must_name_a_base_resolved_in_the_same_action() -> None:
    t = han_vs_trooper(han_1="1R", han_2="+1R", luke_1="1R")
    modifier = {"die": "p1.05046/2", "modifies": "p1.05031/1"}
    err = error(t.log([resolve("p1", {"die": "p1.05046/1"}, modifier)]))
    assert err is not None and err["rule"] == "destiny.dice.modifier-needs-base"


@pytest.mark.rules("destiny.dice.pool-only")
def test_a_die_not_in_the_pool_cannot_be_resolved() -> None:
    t = han_vs_trooper()
    err = error(t.log([resolve("p1", {"die": "p1.05046/1", "target": "p2.05013"})]))
    assert err is not None and err["rule"] == "destiny.dice.pool-only"


@pytest.mark.rules("destiny.dice.pool-only")
def test_an_opponents_die_cannot_be_resolved() -> None:
    t = han_vs_trooper()
    t.pool("p2", {"p2.05013/1": "2RD"})
    err = error(t.log([resolve("p1", {"die": "p2.05013/1", "target": "p2.05013"})]))
    assert err is not None and err["rule"] == "destiny.dice.pool-only"
    assert "p2's pool" in err["message"]


@pytest.mark.rules("destiny.symbols.blank")
def test_a_blank_cannot_be_resolved() -> None:
    t = han_vs_trooper(han_1="-")
    err = error(t.log([resolve("p1", {"die": "p1.05046/1"})]))
    assert err is not None and err["rule"] == "destiny.symbols.blank"


@pytest.mark.rules("destiny.actions.resolve-once-each")
def test_a_die_named_twice_is_rejected() -> None:
    t = han_vs_trooper(han_1="2RD")
    err = error(t.log([resolve("p1", {"die": "p1.05046/1", "target": "p2.05013"},
                               {"die": "p1.05046/1", "target": "p2.05013"})]))
    assert err is not None and err["rule"] == "destiny.actions.resolve-once-each"


@pytest.mark.rules("destiny.actions.resolve-at-least-one")
def test_a_resolve_names_at_least_one_die() -> None:
    t = han_vs_trooper(han_1="2RD")
    r = run(t.log([resolve("p1")]))
    assert r["valid"] is False and r["faults"] and r["faults"][0]["path"] == "/steps/0/dice"


@pytest.mark.rules("destiny.dice.face-cost", "destiny.resources.currency")
def test_a_face_cost_is_paid_before_it_resolves() -> None:
    t = han_vs_trooper(han_1="2RD1")
    t.set("p1", resources=1)
    state = final(t.log([resolve("p1", {"die": "p1.05046/1", "target": "p2.05013"})]))
    assert player(state, "p1")["resources"] == 0
    assert player(state, "p2")["characters"]["p2.05013"]["damage"] == 2


@pytest.mark.rules("destiny.dice.face-cost", "destiny.resources.never-negative")
def test_an_unaffordable_face_cannot_resolve() -> None:
    t = han_vs_trooper(han_1="2RD1")
    t.set("p1", resources=0)
    r = run(t.log([resolve("p1", {"die": "p1.05046/1", "target": "p2.05013"})]))
    assert r["error"]["rule"] == "destiny.dice.face-cost"
    assert r["final_state"]["players"]["p2"]["characters"]["p2.05013"]["damage"] == 0
    assert r["final_state"]["players"]["p1"]["pool"] == {"p1.05046/1": "2RD1"}


# ---------------------------------------------------------------------- focus
def focus_table() -> Table:
    """p1: Luke with Jedi Robes (01040: 1F 1F 1Dr 1R +1R -), Luke's dice in the pool."""
    t = Table()
    t.character("p1", "05031", dice=2, upgrades=["01040"])
    t.character("p2", "05013")
    t.pool("p1", {"p1.01040#1/1": "1F", "p1.05031/1": "-", "p1.05031/2": "1R"})
    t.pool("p2", {"p2.05013/1": "-"})
    return t


@pytest.mark.rules("destiny.symbols.focus", "destiny.terms.turn-die")
def test_focus_turns_another_own_die_to_a_chosen_face() -> None:
    state = final(focus_table().log([resolve("p1", {"die": "p1.01040#1/1", "turn": {"p1.05031/1": "2RD"}})]))
    assert player(state, "p1")["pool"] == {"p1.05031/1": "2RD", "p1.05031/2": "1R"}


@pytest.mark.rules("destiny.symbols.focus")
def test_focus_turns_at_most_its_value() -> None:
    err = error(focus_table().log([resolve("p1", {"die": "p1.01040#1/1",
                                                  "turn": {"p1.05031/1": "2RD", "p1.05031/2": "1Sh"}})]))
    assert err is not None and err["rule"] == "destiny.symbols.focus"


@pytest.mark.rules("destiny.symbols.focus-own-only")
def test_focus_never_turns_an_opponents_die() -> None:
    err = error(focus_table().log([resolve("p1", {"die": "p1.01040#1/1", "turn": {"p2.05013/1": "3ID"}})]))
    assert err is not None and err["rule"] == "destiny.symbols.focus-own-only"
    r = run(focus_table().log([resolve("p1", {"die": "p1.01040#1/1", "turn": {"p2.05013/1": "3ID"}})]))
    assert r["final_state"]["players"]["p2"]["pool"] == {"p2.05013/1": "-"}


@pytest.mark.rules("destiny.terms.turn-die")
def test_a_die_is_not_turned_to_the_face_it_shows() -> None:
    err = error(focus_table().log([resolve("p1", {"die": "p1.01040#1/1", "turn": {"p1.05031/2": "1R"}})]))
    assert err is not None and err["rule"] == "destiny.terms.turn-die"


@pytest.mark.rules("destiny.terms.turn-die")
def test_a_die_may_be_turned_to_an_identical_repeated_face() -> None:
    t = Table()
    t.character("p1", "05013", upgrades=["01040"])  # Veteran Stormtrooper: two blank faces
    t.character("p2", "05031")
    t.pool("p1", {"p1.01040#1/1": "1F", "p1.05013/1": "-"})
    log = t.log([resolve("p1", {"die": "p1.01040#1/1", "turn": {"p1.05013/1": "-"}})])
    state = final(log)
    assert player(state, "p1")["pool"] == {"p1.05013/1": "-"}
    turned = [e for e in ruling_json(log)["events"] if e["event"] == "turn"]
    assert [(e["die"], e["face"]) for e in turned] == [("p1.05013/1", "-")]


@pytest.mark.rules("destiny.terms.turn-die")
def test_a_die_is_turned_only_to_a_face_it_has() -> None:
    err = error(focus_table().log([resolve("p1", {"die": "p1.01040#1/1", "turn": {"p1.05031/1": "3ID"}})]))
    assert err is not None and err["rule"] == "destiny.terms.turn-die"


@pytest.mark.rules("destiny.symbols.focus")
def test_a_focus_die_does_not_turn_itself() -> None:
    err = error(focus_table().log([resolve("p1", {"die": "p1.01040#1/1", "turn": {"p1.01040#1/1": "1R"}})]))
    assert err is not None and err["rule"] == "destiny.symbols.focus"


# ---------------------------------------------------------------------- disrupt and discard
@pytest.mark.rules("destiny.symbols.disrupt", "destiny.resources.never-negative")
@pytest.mark.parametrize(("had", "left"), [(3, 2), (0, 0)])
def test_disrupt_takes_resources_but_never_below_zero(had: int, left: int) -> None:
    t = Table()
    t.character("p1", "05019", dice=2)
    t.character("p2", "05031")
    t.pool("p1", {"p1.05019/1": "1Dr"})
    t.set("p2", resources=had)
    state = final(t.log([resolve("p1", {"die": "p1.05019/1"})]))
    assert player(state, "p2")["resources"] == left


def discard_table() -> Table:
    t = han_vs_trooper(han_1="1Dc")
    t.set("p2", hand=["05116", "05073", "05058"])
    return t


@pytest.mark.rules("destiny.symbols.discard")
@pytest.mark.parametrize("outcome", ["05073", 1])
def test_a_random_discard_follows_the_logs_random_outcome(outcome: object) -> None:
    state = final(discard_table().log([resolve("p1", {"die": "p1.05046/1"}, random=[outcome])]))
    assert player(state, "p2")["discard"] == ["05073"] and player(state, "p2")["hand"] == 2


@pytest.mark.rules("destiny.symbols.discard")
def test_a_random_discard_outcome_not_in_hand_is_rejected() -> None:
    err = error(discard_table().log([resolve("p1", {"die": "p1.05046/1"}, random=["05013"])]))
    assert err is not None and err["rule"] == "destiny.symbols.discard"


@pytest.mark.rules("destiny.symbols.discard")
def test_a_random_discard_without_an_outcome_or_rng_is_a_missing_outcome() -> None:
    err = error(discard_table().log([resolve("p1", {"die": "p1.05046/1"})]))
    assert err is not None and (err["kind"], err["at"]) == ("missing-outcome", 1)


@pytest.mark.rules("destiny.symbols.discard", "destiny.zones.discard-pile")
def test_a_random_discard_of_a_card_the_position_does_not_name_gives_no_ruling() -> None:
    t = han_vs_trooper(han_1="1Dc").set("p2", hand=["?", "?", "05058"])
    err = error(t.log([resolve("p1", {"die": "p1.05046/1"}, random=[0])]))
    assert err is not None and (err["kind"], err["rule"]) == ("missing-outcome", "destiny.symbols.discard")
    assert err["message"] == ("p2's hand holds a card the position does not name, and it goes to the public "
                              "discard pile: list the cards in the position")
    # a named card picked is discarded; a card the log names is the unnamed one picked
    assert player(final(t.log([resolve("p1", {"die": "p1.05046/1"}, random=[2])])), "p2")["discard"] == ["05058"]
    state = final(t.log([resolve("p1", {"die": "p1.05046/1"}, random=["05073"])]))
    assert player(state, "p2")["discard"] == ["05073"] and player(state, "p2")["hand"] == 2


@pytest.mark.rules("destiny.symbols.discard")
def test_a_random_discard_from_the_rng_is_repeatable() -> None:
    log = discard_table().with_rng("seed-7").log([resolve("p1", {"die": "p1.05046/1"})])
    first, second = final(log), final(log)
    discarded = player(first, "p2")["discard"]
    assert len(discarded) == 1 and discarded[0] in ("05116", "05073", "05058")
    assert first == second
    assert run(log)["final_state_hash"] == run(log)["final_state_hash"]


@pytest.mark.rules("destiny.symbols.discard")
def test_discard_from_a_short_hand_discards_it_all() -> None:
    t = han_vs_trooper(han_1="1Dc")
    t.set("p2", hand=[])
    state = final(t.log([resolve("p1", {"die": "p1.05046/1"})]))
    assert player(state, "p2")["discard"] == []


# ---------------------------------------------------------------------- shields, damage, defeat
@pytest.mark.rules("destiny.shields.max-three", "destiny.symbols.shield")
@pytest.mark.parametrize(("had", "now"), [(0, 1), (2, 3), (3, 3)])
def test_shields_are_capped_at_three(had: int, now: int) -> None:
    t = Table()
    t.character("p1", "05031", dice=2, shields=had)
    t.character("p2", "05013")
    t.pool("p1", {"p1.05031/1": "1Sh"})
    state = final(t.log([resolve("p1", {"die": "p1.05031/1", "target": "p1.05031"})]))
    assert player(state, "p1")["characters"]["p1.05031"]["shields"] == now


@pytest.mark.rules("destiny.symbols.melee", "destiny.symbols.damage-one-target")
def test_melee_damage_needs_one_target_character() -> None:
    t = han_vs_trooper(luke_1="1MD")
    err = error(t.log([resolve("p1", {"die": "p1.05031/1"})]))
    assert err is not None and err["rule"] == "destiny.symbols.damage-one-target"


@pytest.mark.rules("destiny.symbols.ranged", "destiny.damage.tokens")
def test_ranged_damage_goes_to_the_target() -> None:
    t = han_vs_trooper(han_1="2RD")
    state = final(t.log([resolve("p1", {"die": "p1.05046/1", "target": "p2.05013"})]))
    assert player(state, "p2")["characters"]["p2.05013"]["damage"] == 2


@pytest.mark.rules("destiny.damage.shields-block", "destiny.shields.mandatory")
def test_shields_block_damage_and_are_removed() -> None:
    t = han_vs_trooper(han_1="2RD")
    t.player("p2")["characters"]["p2.05013"]["shields"] = 3
    state = final(t.log([resolve("p1", {"die": "p1.05046/1", "target": "p2.05013"})]))
    ch = player(state, "p2")["characters"]["p2.05013"]
    assert (ch["damage"], ch["shields"]) == (0, 1)


def indirect_table() -> Table:
    t = Table(turn="p2")
    t.character("p1", "05031", dice=2)
    t.character("p1", "05046", dice=2)
    t.character("p2", "05013")
    t.pool("p2", {"p2.05013/1": "3ID"})
    return t


@pytest.mark.rules("destiny.symbols.indirect")
def test_indirect_damage_is_split_as_the_receiving_opponent_writes() -> None:
    log = indirect_table().log([resolve("p2", {"die": "p2.05013/1", "target": "p1",
                                               "split": {"p1.05031": 2, "p1.05046": 1}})])
    chars = player(final(log), "p1")["characters"]
    assert (chars["p1.05031"]["damage"], chars["p1.05046"]["damage"]) == (2, 1)


@pytest.mark.rules("destiny.symbols.indirect")
def test_a_missing_indirect_split_is_a_pending_decision_of_the_receiving_opponent() -> None:
    err = error(indirect_table().log([resolve("p2", {"die": "p2.05013/1"})]))
    assert err is not None and err["kind"] == "pending-decision"
    assert err["pending"]["by"] == "p1" and err["pending"]["kind"] == "split"
    assert "destiny.symbols.indirect" in err["pending"]["rules"]


@pytest.mark.rules("destiny.symbols.indirect")
def test_the_split_may_come_as_the_opponents_choice() -> None:
    log = indirect_table().log([resolve("p2", {"die": "p2.05013/1"},
                                        choices=[{"by": "p1", "kind": "split",
                                                  "answer": {"p1.05031": 0, "p1.05046": 3}}])])
    chars = player(final(log), "p1")["characters"]
    assert (chars["p1.05031"]["damage"], chars["p1.05046"]["damage"]) == (0, 3)


@pytest.mark.rules("destiny.symbols.indirect")
def test_the_split_must_add_up_to_the_damage() -> None:
    err = error(indirect_table().log([resolve("p2", {"die": "p2.05013/1", "split": {"p1.05031": 1,
                                                                                   "p1.05046": 1}})]))
    assert err is not None and err["rule"] == "destiny.symbols.indirect"


@pytest.mark.rules("destiny.symbols.indirect")
def test_the_split_is_not_made_by_the_player_resolving_the_die() -> None:
    err = error(indirect_table().log([resolve("p2", {"die": "p2.05013/1"},
                                              choices=[{"by": "p2", "kind": "split",
                                                        "answer": {"p1.05031": 3}}])]))
    assert err is not None and err["kind"] == "illegal-action"
    assert "p1 makes this decision" in err["message"]


@pytest.mark.rules("destiny.defeat.threshold", "destiny.defeat.cleanup", "destiny.dice.leave-with-card")
def test_defeat_removes_the_characters_dice_and_discards_its_upgrades() -> None:
    t = Table(turn="p2")
    t.character("p1", "05031", dice=2, damage=9, upgrades=["05073"])
    t.character("p1", "05046", dice=2)
    t.character("p2", "05013")
    t.pool("p1", {"p1.05031/1": "1R", "p1.05073#1/1": "1Dr", "p1.05046/1": "2RD"})
    t.pool("p2", {"p2.05013/1": "2RD"})
    state = final(t.log([resolve("p2", {"die": "p2.05013/1", "target": "p1.05031"})]))
    p1 = player(state, "p1")
    luke = p1["characters"]["p1.05031"]
    assert luke["defeated"] is True and luke["upgrades"] == []
    assert p1["discard"] == ["05073"]
    assert p1["pool"] == {"p1.05046/1": "2RD"}
    assert state["winner"] is None


@pytest.mark.rules("destiny.defeat.excess-ignored", "destiny.defeat.threshold")
def test_damage_beyond_what_defeats_is_ignored() -> None:
    t = han_vs_trooper(han_1="2RD")
    t.character("p2", "05019")
    t.player("p2")["characters"]["p2.05013"]["damage"] = 8
    log = t.log([resolve("p1", {"die": "p1.05046/1", "target": "p2.05013"})])
    trooper = player(final(log), "p2")["characters"]["p2.05013"]
    assert trooper["defeated"] is True and trooper["damage"] == 9


@pytest.mark.rules("destiny.defeat.no-further-use")
def test_a_defeated_character_cannot_be_targeted() -> None:
    t = han_vs_trooper(han_1="2RD")
    t.character("p2", "05019", defeated=True)
    err = error(t.log([resolve("p1", {"die": "p1.05046/1", "target": "p2.05019"})]))
    assert err is not None and err["rule"] == "destiny.defeat.no-further-use"


def test_position_helper_reads_hidden_hands() -> None:
    pos, digest = position_of(discard_table().log([]))
    assert pos["players"]["p2"]["hand"] == ["05116", "05073", "05058"] and digest.startswith("sha256:")


@pytest.mark.rules("destiny.symbols.disrupt", "destiny.symbols.discard")
@pytest.mark.parametrize(("face", "rule"), [("1Dr", "destiny.symbols.disrupt"),
                                           ("1Dc", "destiny.symbols.discard")])
def test_disrupt_and_discard_cannot_name_the_resolving_player(face: str, rule: str) -> None:
    t = Table()
    t.character("p1", "05019" if face == "1Dr" else "05046", dice=2)
    t.character("p2", "05031")
    die = "p1.05019/1" if face == "1Dr" else "p1.05046/1"
    t.pool("p1", {die: face})
    t.set("p1", resources=3, hand=["05116"])
    r = run(t.log([resolve("p1", {"die": die, "target": "p1"}, random=[0])]))
    assert r["error"] is not None and r["error"]["rule"] == rule
    p1 = r["final_state"]["players"]["p1"]
    assert (p1["resources"], p1["discard"]) == (3, [])
