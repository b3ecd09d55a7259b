"""Coverage of dice rules not tested elsewhere: symbols, the pool, dice on cards, resolving."""

from __future__ import annotations

import pytest

from tests.judge.destiny.tablehelp import Table, error, final, player, ruling_json


def resolve(pid: str, *entries: dict, **extra: object) -> dict:
    return {"by": pid, "do": "resolve", "dice": list(entries), **extra}


def luke_vs_trooper() -> Table:
    t = Table()
    t.character("p1", "05031", dice=2)
    t.character("p2", "05013")
    return t


@pytest.mark.rules("destiny.dice.symbol")
@pytest.mark.parametrize(("face", "entry", "check"), [
    ("2RD", {"target": "p2.05013"}, lambda s: player(s, "p2")["characters"]["p2.05013"]["damage"] == 2),
    ("1MD", {"target": "p2.05013"}, lambda s: player(s, "p2")["characters"]["p2.05013"]["damage"] == 1),
    ("1Sh", {"target": "p1.05031"}, lambda s: player(s, "p1")["characters"]["p1.05031"]["shields"] == 1),
    ("1R", {}, lambda s: player(s, "p1")["resources"] == 3),
])
def test_a_die_applies_its_symbol_scaled_by_its_value(face: str, entry: dict, check) -> None:
    t = luke_vs_trooper().pool("p1", {"p1.05031/1": face})
    assert check(final(t.log([resolve("p1", {"die": "p1.05031/1", **entry})])))


@pytest.mark.rules("destiny.actions.resolve-dice", "destiny.zones.dice-pool")
def test_resolved_dice_leave_the_pool_and_unnamed_dice_stay() -> None:
    t = luke_vs_trooper().pool("p1", {"p1.05031/1": "2RD", "p1.05031/2": "1RD"})
    state = final(t.log([resolve("p1", {"die": "p1.05031/1", "target": "p2.05013"})]))
    assert player(state, "p1")["pool"] == {"p1.05031/2": "1RD"}
    assert player(state, "p2")["characters"]["p2.05013"]["damage"] == 2


@pytest.mark.rules("destiny.damage.sequential")
def test_dice_deal_damage_one_after_another_but_a_modifier_with_its_base() -> None:
    t = Table()
    t.character("p1", "05046", dice=2, upgrades=["05072"])
    t.character("p2", "05013")
    t.pool("p1", {"p1.05046/1": "2RD", "p1.05046/2": "2RD", "p1.05072#1/1": "+2RD"})
    log = t.log([resolve("p1", {"die": "p1.05046/1", "target": "p2.05013"},
                         {"die": "p1.05046/2", "target": "p2.05013"},
                         {"die": "p1.05072#1/1", "modifies": "p1.05046/2"})])
    damage = [e for e in ruling_json(log)["events"] if e["event"] == "damage"]
    assert [e.get("amount") for e in damage] == [2, 4]
    assert player(final(log), "p2")["characters"]["p2.05013"]["damage"] == 6


@pytest.mark.rules("destiny.zones.dice-on-cards", "destiny.terms.showing")
def test_a_die_resting_on_its_card_cannot_be_resolved() -> None:
    t = luke_vs_trooper()
    err = error(t.log([resolve("p1", {"die": "p1.05031/1", "target": "p2.05013"})]))
    assert err is not None and err["rule"] == "destiny.dice.pool-only"


@pytest.mark.rules("destiny.zones.dice-on-cards", "destiny.terms.showing")
def test_a_die_resting_on_its_card_cannot_be_turned() -> None:
    t = luke_vs_trooper().set("p1", hand=["05125"])
    t.pool("p1", {"p1.05031/2": "1R"})
    def alter(die: str) -> dict:
        return {"by": "p1", "do": "play", "card": "05125",
                "choices": [{"by": "p1", "kind": "turn", "answer": {die: "2RD"}}]}

    err = error(t.log([alter("p2.05013/1")]))
    assert err is not None and err["rule"] == "destiny.terms.turn-die"
    assert "cannot be turned" in err["message"]
    assert player(final(t.log([alter("p1.05031/2")])), "p1")["pool"] == {"p1.05031/2": "2RD"}


@pytest.mark.rules("destiny.uniqueness.dice-exempt", "destiny.characters.in-play")
def test_an_elite_unique_character_rolls_two_copies_of_its_die() -> None:
    t = luke_vs_trooper()
    state = final(t.log([{"by": "p1", "do": "activate", "card": "p1.05031", "roll": ["2RD", "1R"]}]))
    assert player(state, "p1")["pool"] == {"p1.05031/1": "2RD", "p1.05031/2": "1R"}
    assert player(state, "p1")["characters"]["p1.05031"]["exhausted"] is True


@pytest.mark.rules("destiny.symbols.special-multiple")
@pytest.mark.parametrize(("first", "damage"), [("p1.05019/1", 5), ("p1.05026#1/1", 4)])
def test_several_specials_resolve_in_one_action_in_the_order_picked(first: str, damage: int) -> None:
    # Boba Fett's special deals the value of a die (1); Hunter Instinct deals 1, or 2 once the
    # target has 3 damage: Boba first gives 2+1+2, Hunter Instinct first 2+1+1.
    t = Table()
    t.character("p1", "05019", dice=1, upgrades=["05026"])
    t.character("p2", "05013", damage=2)
    t.pool("p1", {"p1.05019/1": "Sp", "p1.05026#1/1": "Sp"}).pool("p2", {"p2.05013/1": "1RD"})
    entries = {"p1.05019/1": {"die": "p1.05019/1", "die_value": "p2.05013/1", "target": "p2.05013"},
               "p1.05026#1/1": {"die": "p1.05026#1/1", "target": "p2.05013"}}
    second = next(d for d in entries if d != first)
    state = final(t.log([resolve("p1", entries[first], entries[second])]))
    assert player(state, "p2")["characters"]["p2.05013"]["damage"] == damage
    assert player(state, "p1")["pool"] == {}


@pytest.mark.rules("destiny.dice.resolve-via-card-cost")
def test_a_die_resolved_through_a_card_still_pays_its_face_cost() -> None:
    t = Table()
    t.character("p1", "05046", dice=2)
    t.character("p2", "05013")
    t.set("p1", hand=["05119"], resources=1)
    t.pool("p1", {"p1.05046/1": "2RD1"})
    step = {"by": "p1", "do": "play", "card": "05119", "dice": [{"die": "p1.05046/1", "target": "p2.05013"}]}
    state = final(t.log([step]))
    assert player(state, "p1")["resources"] == 0
    assert player(state, "p2")["characters"]["p2.05013"]["damage"] == 2
    t.set("p1", resources=0)
    err = error(t.log([step]))
    assert err is not None and err["rule"] == "destiny.dice.face-cost"


@pytest.mark.rules("destiny.terms.remove-die-as-cost")
@pytest.mark.parametrize("face", ["+2RD", "2RD1"])
def test_a_die_showing_a_modifier_or_cost_face_counts_as_showing_its_symbol(face: str) -> None:
    # The Force Is With Me removes a die showing ranged damage: a +2RD or 2RD1 face qualifies
    t = Table()
    t.character("p1", "05031", dice=2)
    t.character("p2", "05046", upgrades=["05072"])
    t.set("p1", hand=["05133"])
    die = "p2.05072#1/1" if face.startswith("+") else "p2.05046/1"
    t.pool("p2", {die: face})
    state = final(t.log([{"by": "p1", "do": "play", "card": "05133", "target": die}]))
    assert player(state, "p2")["pool"] == {}
