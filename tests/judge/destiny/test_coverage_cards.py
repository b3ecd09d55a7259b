"""Coverage of card-type rules not tested elsewhere: supports, upgrades, events, restrictions."""

from __future__ import annotations

import dataclasses

import pytest

from judge.games.destiny.cards import default_pool
from tests.judge.destiny.tablehelp import Table, duel, error, final, player, pool_with, ruling_json


def play(pid: str, code: str, **kw: object) -> dict:
    return {"by": pid, "do": "play", "card": code, **kw}


@pytest.mark.rules("destiny.supports.no-damage")
def test_damage_cannot_be_dealt_to_a_support() -> None:
    t = duel()
    t.support("p2", "05163")
    t.pool("p1", {"p1.05031/1": "2RD"})
    err = error(t.log([{"by": "p1", "do": "resolve", "dice": [{"die": "p1.05031/1", "target": "p2.05163#1"}]}]))
    assert err is not None and err["rule"] == "destiny.supports.no-damage"


@pytest.mark.rules("destiny.supports.no-limit")
def test_a_player_may_have_any_number_of_supports() -> None:
    t = duel().set("p1", hand=["05163"], resources=1)
    for n in range(1, 5):
        t.support("p1", "05163", serial=n)
    state = final(t.log([play("p1", "05163")]))
    assert len(player(state, "p1")["supports"]) == 5


@pytest.mark.rules("destiny.upgrades.no-subtype-limit")
def test_three_weapons_on_one_character_need_no_discard() -> None:
    t = Table()
    t.character("p1", "05031", dice=2, upgrades=["05073", "05072"])
    t.character("p2", "05013")
    t.set("p1", hand=["05073"], resources=1)
    state = final(t.log([play("p1", "05073", on="p1.05031")]))
    p1 = player(state, "p1")
    assert len(p1["characters"]["p1.05031"]["upgrades"]) == 3 and p1["discard"] == []


@pytest.mark.rules("destiny.events.limbo", "destiny.abilities.when-active")
def test_an_event_reaches_the_discard_pile_only_after_it_resolves() -> None:
    # Crackdown: gain 1 resource. Out of the hand when played, in the discard pile after its effect
    t = duel().set("p1", hand=["05136", "05136"], resources=0)
    t.character("p2", "05013", damage=1)
    log = t.log([play("p1", "05136")])
    events = [e["event"] for e in ruling_json(log)["events"]]
    assert events.index("limbo") < events.index("gain-resources") < events.index("discarded")
    p1 = player(final(log), "p1")
    assert p1["discard"] == ["05136"] and p1["resources"] == 1


@pytest.mark.rules("destiny.terms.play-restriction-checked-once")
def test_a_restriction_met_when_played_is_not_checked_again() -> None:
    # Force Focus needs a blue character spotted to be played: Luke is, then he is defeated
    t = Table()
    t.character("p1", "05031", dice=2, damage=9)
    t.character("p1", "05046", dice=2)
    t.character("p2", "05013")
    t.set("p1", hand=["05056"])
    t.pool("p2", {"p2.05013/1": "2RD"})
    state = final(t.log([play("p1", "05056", on="p1.05046"),
                         {"by": "p2", "do": "resolve", "dice": [{"die": "p2.05013/1", "target": "p1.05031"}]}]))
    p1 = player(state, "p1")
    assert p1["characters"]["p1.05031"]["defeated"] is True
    assert p1["characters"]["p1.05046"]["upgrades"] == ["p1.05056#1"]


@pytest.mark.rules("destiny.keywords.redeploy-ignores-restrictions")
def test_a_redeployed_upgrade_ignores_its_play_restriction() -> None:
    # a test copy of F-11D Rifle (Redeploy) that goes only on a yellow character moves to blue Luke
    rifle = default_pool().cards["01008"]
    restricted = dataclasses.replace(rifle, code="99008", abilities=rifle.abilities + tuple(
        a for a in default_pool().cards["05027"].abilities if a.timing == "restriction"))
    cards = pool_with(restricted)
    t = Table(turn="p2")
    t.character("p1", "01002", upgrades=["99008"], damage=6)
    t.character("p1", "05031", dice=2)
    t.character("p2", "05019", dice=2)
    t.pool("p2", {"p2.05019/1": "2RD"})
    t.set("p1", hand=["99008"])
    step = {"by": "p2", "do": "resolve", "dice": [{"die": "p2.05019/1", "target": "p1.01002"}],
            "choices": [{"by": "p1", "kind": "may", "answer": True}]}
    p1 = player(final(t.log([step]), cards), "p1")
    assert p1["characters"]["p1.01002"]["defeated"] is True
    assert p1["characters"]["p1.05031"]["upgrades"] == ["p1.99008#1"]
    t.set("p2", pool={})
    t.position["turn"] = "p1"
    err = error(t.log([play("p1", "99008", on="p1.05031")]), cards)
    assert err is not None and err["rule"] == "destiny.terms.play-restrictions"


@pytest.mark.rules("destiny.terms.heal-none")
def test_healing_an_undamaged_character_heals_nothing() -> None:
    # Invigorate heals 1 from each of p1's characters: Han has 2 damage, Luke none
    t = Table()
    t.character("p1", "05031", dice=2)
    t.character("p1", "05046", dice=2, damage=2)
    t.character("p2", "05013")
    t.set("p1", hand=["05128"])
    log = t.log([play("p1", "05128")])
    heals = {e["target"]: e for e in ruling_json(log)["events"] if e["event"] == "heal"}
    assert heals["p1.05031"]["healed"] == 0 and "destiny.terms.heal-none" in heals["p1.05031"]["rules"]
    assert heals["p1.05046"]["healed"] == 1 and "destiny.terms.heal-none" not in heals["p1.05046"]["rules"]
    chars = player(final(log), "p1")["characters"]
    assert (chars["p1.05031"]["damage"], chars["p1.05046"]["damage"]) == (0, 1)


@pytest.mark.rules("destiny.effects.self-reference")
def test_this_upgrade_means_the_copy_whose_die_resolved() -> None:
    # two Infantry Grenades on one character: the special discards only its own copy
    t = Table()
    t.character("p1", "05031", dice=2, upgrades=["p1.01017#1", "p1.01017#2"])
    t.character("p2", "05013")
    t.pool("p1", {"p1.01017#2/1": "Sp"})
    state = final(t.log([{"by": "p1", "do": "resolve", "dice": [{"die": "p1.01017#2/1"}]}]))
    p1 = player(state, "p1")
    assert p1["characters"]["p1.05031"]["upgrades"] == ["p1.01017#1"] and p1["discard"] == ["01017"]
    assert player(state, "p2")["characters"]["p2.05013"]["damage"] == 2


@pytest.mark.rules("destiny.cards.subtypes")
def test_a_card_that_names_a_subtype_sees_only_that_subtype() -> None:
    # Quick Draw plays a weapon from hand: Hunting Rifle (weapon) is played, Jedi Robes (equipment) is not
    t = duel().set("p1", hand=["05155", "05073"], resources=5)
    state = final(t.log([play("p1", "05155", choices=[{"by": "p1", "kind": "card", "answer": "05073"},
                                                      {"by": "p1", "kind": "may", "answer": False}])]))
    assert player(state, "p1")["characters"]["p1.05031"]["upgrades"] == ["p1.05073#1"]
    t = duel().set("p1", hand=["05155", "01040"], resources=5)
    state = final(t.log([play("p1", "05155")]))
    assert player(state, "p1")["characters"]["p1.05031"]["upgrades"] == []
    assert player(state, "p1")["resources"] == 5


@pytest.mark.rules("destiny.zones.set-aside-dice")
def test_an_upgrade_die_is_set_aside_until_its_character_is_activated() -> None:
    t = duel().set("p1", hand=["05073"], resources=1)
    log = t.log([play("p1", "05073", on="p1.05031"),
                 {"by": "p2", "do": "pass"},
                 {"by": "p1", "do": "activate", "card": "p1.05031", "roll": ["1RD", "1RD", "2RD1"]}])
    state = final(log)
    assert player(state, "p1")["pool"] == {"p1.05031/1": "1RD", "p1.05031/2": "1RD", "p1.05073#1/1": "2RD1"}
    played = final(t.log(log["steps"][:1]))
    assert player(played, "p1")["pool"] == {}
