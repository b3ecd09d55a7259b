"""Awakenings characters: First Order Stormtrooper, Kylo Ren, Jango Fett, Tusken Raider, Leia Organa,
Qui-Gon Jinn, Rey, Finn, Han Solo."""

from __future__ import annotations

from typing import Any

import pytest

from judge.games.destiny.cards import default_pool
from judge.games.destiny.cards.common import character_color_only
from judge.games.destiny.model import Ability, CardDef, CardPool, CardType, faces
from judge.games.destiny.table import Table
from replays.service import ruling_json
from tests.judge.destiny.cards.helpers import char, choice, may, ok, quick, run


def table(p1: tuple[str, ...], p2: tuple[str, ...] = ("01045",), **kw: Any) -> Table:
    t = Table(**kw)
    for code in p1:
        t.character("p1", code)
    for code in p2:
        t.character("p2", code)
    return t


# ---------------------------------------------------------------------- First Order Stormtrooper
@pytest.mark.rules("destiny.dice.face-cost", "destiny.symbols.ranged")
def test_stormtrooper_has_no_text_and_its_costly_face_is_paid() -> None:
    t = table(("01002",)).pool("p1", {"p1.01002/1": "2RD1"})
    state = ok(t, {"by": "p1", "do": "resolve", "dice": [{"die": "p1.01002/1", "target": "p2.01045"}]})
    assert char(state, "p2.01045")["damage"] == 2
    assert state["players"]["p1"]["resources"] == 1
    assert default_pool().get("01002").abilities == ()


# ---------------------------------------------------------------------- Kylo Ren
@pytest.mark.rules("destiny.symbols.special", "destiny.terms.look-at")
def test_kylo_special_deals_the_cost_of_a_random_card_looked_at() -> None:
    t = table(("01011",)).pool("p1", {"p1.01011/1": "Sp"}).set("p2", hand=["01155", "01059"])
    step = {
        "by": "p1",
        "do": "resolve",
        "dice": [{"die": "p1.01011/1", "target": "p2.01045"}],
        "random": ["01059"],
    }
    state = ok(t, step)
    assert char(state, "p2.01045")["damage"] == 3  # Lightsaber costs 3
    assert state["players"]["p2"]["hand"] == 2  # looking does not move the card


@pytest.mark.rules("destiny.then.requires-full-resolution")
def test_kylo_special_with_an_empty_hand_deals_nothing() -> None:
    t = table(("01011",)).pool("p1", {"p1.01011/1": "Sp"})
    state = ok(t, {"by": "p1", "do": "resolve", "dice": [{"die": "p1.01011/1", "target": "p2.01045"}]})
    assert char(state, "p2.01045")["damage"] == 0


# ---------------------------------------------------------------------- Jango Fett and Tusken Raider
@pytest.mark.rules("destiny.timing.simultaneous-battlefield-controller", "destiny.timing.queue-fifo")
def test_tusken_and_opponents_jango_trigger_together_and_the_battlefield_controller_orders() -> None:
    t = Table(controller="p2", turn="p1")
    t.character("p1", "01022")
    t.character("p2", "01021")
    step = {"by": "p1", "do": "activate", "card": "p1.01022", "roll": ["1MD"]}
    pending = ruling_json(t.log([step]))["pending"]
    assert pending["by"] == "p2" and pending["kind"] == "order"
    assert sorted(pending["options"]) == ["p1.01022", "p2.01021"]
    assert "destiny.timing.simultaneous-battlefield-controller" in pending["rules"]
    step = {
        **step,
        "roll": ["1MD", "2RD"],
        "choices": [
            {"by": "p2", "kind": "order", "answer": ["p2.01021", "p1.01022"]},
            may("p2"),
            may("p1", False),
        ],
    }
    state = ok(t, step)
    assert char(state, "p2.01021")["exhausted"] is True
    assert state["players"]["p2"]["pool"] == {"p2.01021/1": "2RD"}
    assert state["players"]["p1"]["pool"] == {"p1.01022/1": "1MD"}


@pytest.mark.rules("destiny.timing.after", "destiny.dice.resolve-via-card", "destiny.dice.face-cost")
def test_tusken_discards_a_card_to_resolve_its_own_die() -> None:
    t = table(("01022",)).set("p1", hand=["01155"])
    step = {
        "by": "p1",
        "do": "activate",
        "card": "p1.01022",
        "roll": ["3MD1"],
        "choices": [may("p1"), {"by": "p1", "kind": "target", "answer": "p2.01045"}],
    }
    state = ok(t, step)
    assert char(state, "p2.01045")["damage"] == 3
    assert state["players"]["p1"]["resources"] == 1
    assert state["players"]["p1"]["discard"] == ["01155"]
    assert state["players"]["p1"]["pool"] == {}


@pytest.mark.rules("destiny.abilities.resolve-fully")
def test_tusken_without_a_card_in_hand_does_nothing() -> None:
    state = ok(
        table(("01022",)),
        {"by": "p1", "do": "activate", "card": "p1.01022", "roll": ["3MD1"], "choices": [may("p1")]},
    )
    assert state["players"]["p1"]["pool"] == {"p1.01022/1": "3MD1"}


TUSKEN = ("turn p1\np1 Ana: resources 2, hand {hand}, deck 10\np1 character Tusken Raider: 1 die\n"
          "p2 Ben: resources 2, hand 3, deck 12\np2 character Luke Skywalker: 2 dice\n"
          "ask p1 activate Tusken Raider rolling 1RD")


@pytest.mark.rules("destiny.zones.discard-pile", "destiny.timing.after")
def test_tusken_discarding_from_a_hand_the_position_does_not_name_gives_no_ruling() -> None:
    # the card discarded goes to the public discard pile, and which it is the player chooses
    ruling = ruling_json(quick(TUSKEN.format(hand="2"), may("p1"), choice("p1", "target", "p2.05031")), 1)
    assert ruling["legal"] is None and ruling["pending"] is None
    assert (ruling["error"]["kind"], ruling["error"]["rule"]) == ("missing-outcome", "destiny.zones.discard-pile")
    assert ruling["error"]["message"] == ("p1's hand holds a card the position does not name, and what Tusken "
                                          "Raider does depends on it: list the cards in the position")
    assert not [e for e in ruling["events"] if e["event"] == "discard"]
    # declining the ability needs no card named
    ruling = ruling_json(quick(TUSKEN.format(hand="2"), may("p1", False)), 1)
    assert ruling["legal"] is True
    p1 = ruling["state"]["players"]["p1"]
    assert p1["hand"] == 2 and p1["discard"] == [] and p1["pool"] == {"p1.01022/1": "1RD"}


@pytest.mark.rules("destiny.dice.resolve-via-card")
def test_tusken_discarding_from_a_listed_hand_asks_which_card() -> None:
    log = quick(TUSKEN.format(hand="Alter; Bravado"), may("p1"))
    ruling = ruling_json(log, 1)
    assert (ruling["pending"]["kind"], ruling["pending"]["options"]) == ("discard", ["05116", "05125"])
    log["steps"][0]["choices"] += [choice("p1", "discard", "05125"), choice("p1", "target", "p2.05031")]
    ruling = ruling_json(log, 1)
    assert ruling["legal"] is True and ruling["pending"] is None
    assert ruling["state"]["players"]["p1"]["discard"] == ["05125"]
    assert ruling["state"]["players"]["p2"]["characters"]["p2.05031"]["damage"] == 1


# ---------------------------------------------------------------------- Leia Organa
@pytest.mark.rules("destiny.actions.card-action", "destiny.terms.remove-die")
def test_leia_removes_her_die_to_reroll_up_to_two_dice() -> None:
    t = Table()
    t.character("p1", "01028", dice=2)
    t.character("p2", "01045")
    t.pool("p1", {"p1.01028/1": "1F", "p1.01028/2": "-"})
    step = {
        "by": "p1",
        "do": "use",
        "card": "p1.01028",
        "roll": ["2RD"],
        "choices": [
            {"by": "p1", "kind": "die", "answer": "p1.01028/1"},
            {"by": "p1", "kind": "dice", "answer": ["p1.01028/2"]},
        ],
    }
    state = ok(t, step)
    assert state["players"]["p1"]["pool"] == {"p1.01028/2": "2RD"}


@pytest.mark.rules("destiny.actions.card-action")
def test_leia_action_needs_one_of_her_dice_in_the_pool() -> None:
    err = run(table(("01028",)), {"by": "p1", "do": "use", "card": "p1.01028"})["error"]
    assert err["kind"] == "illegal-action" and err["rule"] == "destiny.actions.card-action"


# ---------------------------------------------------------------------- Qui-Gon Jinn
@pytest.mark.rules("destiny.timing.before", "destiny.timing.trigger-condition")
def test_qui_gon_removes_a_shield_before_gaining_shields_to_deal_one_damage() -> None:
    t = Table()
    t.character("p1", "01037", shields=1)
    t.character("p2", "01045")
    t.pool("p1", {"p1.01037/1": "2Sh"})
    step = {
        "by": "p1",
        "do": "resolve",
        "dice": [{"die": "p1.01037/1", "target": "p1.01037"}],
        "choices": [may("p1"), {"by": "p1", "kind": "target", "answer": "p2.01045"}],
    }
    state = ok(t, step)
    assert char(state, "p2.01045")["damage"] == 1
    assert char(state, "p1.01037")["shields"] == 2  # 1 - 1 + 2


@pytest.mark.rules("destiny.timing.trigger-condition")
def test_qui_gon_without_shields_has_nothing_to_remove() -> None:
    t = table(("01037",)).pool("p1", {"p1.01037/1": "2Sh"})
    state = ok(t, {"by": "p1", "do": "resolve", "dice": [{"die": "p1.01037/1", "target": "p1.01037"}]})
    assert char(state, "p1.01037")["shields"] == 2
    assert char(state, "p2.01045")["damage"] == 0


# ---------------------------------------------------------------------- Rey
@pytest.mark.rules("destiny.timing.after", "destiny.actions.extra-actions-immediate")
def test_rey_gives_an_extra_action_after_an_upgrade_is_played_on_her() -> None:
    t = table(("01038",)).set("p1", hand=["01044", "01157"])
    play = {"by": "p1", "do": "play", "card": "01044", "on": "p1.01038", "choices": [may("p1")]}
    state = ok(t, play)
    assert state["turn"] == "p1" and state["extra_action"] == "p1"
    assert state["players"]["p1"]["resources"] == 0
    state = ok(t, play, {"by": "p1", "do": "play", "card": "01157", "target": "p1.01038"})
    assert char(state, "p1.01038")["shields"] == 1
    assert state["turn"] == "p2"


# ---------------------------------------------------------------------- Finn
def _pool_with_red_only_weapon() -> CardPool:
    pool = CardPool()
    for card in default_pool().cards.values():
        pool.add(card)
    pool.add(
        CardDef(
            "99101",
            "Test Red Blaster",
            CardType.UPGRADE,
            "villain",
            "red",
            cost=1,
            faces=faces("1RD", "1RD", "1RD", "1RD", "1RD", "-"),
            subtypes=("weapon",),
            abilities=(Ability("restriction", "Red character only.", condition=character_color_only("red")),),
        )
    )
    return pool


@pytest.mark.rules("destiny.abilities.constant", "destiny.terms.play-restrictions")
def test_finn_takes_any_weapon_ignoring_its_play_restriction() -> None:
    cards = _pool_with_red_only_weapon()
    t = table(("01045", "01046"), ("01002",)).set("p1", hand=["99101", "01057"])
    state = ok(t, {"by": "p1", "do": "play", "card": "99101", "on": "p1.01045"}, cards=cards)
    assert char(state, "p1.01045")["upgrades"] == ["p1.99101#1"]
    err = run(t, {"by": "p1", "do": "play", "card": "99101", "on": "p1.01046"}, cards=cards)["error"]
    assert err["rule"] == "destiny.terms.play-restrictions"
    # Force Throw is no weapon: its "blue character only" still applies to Finn
    err = run(t, {"by": "p1", "do": "play", "card": "01057", "on": "p1.01045"}, cards=cards)["error"]
    assert err["rule"] == "destiny.terms.play-restrictions"


@pytest.mark.rules("destiny.deckbuilding.affiliation-match", "destiny.deckbuilding.color-match",
                    "destiny.general.golden-rule")
def test_finn_lets_his_deck_include_red_villain_weapons_and_vehicles_only() -> None:
    from judge.games.destiny.deckcheck import check_deck
    from judge.games.destiny.starters import STARTERS

    pool = default_pool()
    rey_starter = STARTERS["AW-H"].player("p1", "Ana")  # holds F-11D Rifle (01008), a red villain weapon
    assert check_deck(rey_starter, pool, "starter") == []
    without_finn = dict(rey_starter, characters=[{"card": "01038", "dice": 2}])
    rules = {v.rule for v in check_deck(without_finn, pool, "starter") if v.card == "01008"}
    assert rules == {"destiny.deckbuilding.affiliation-match", "destiny.deckbuilding.color-match"}
    # a red villain event is neither weapon nor vehicle: Finn does not allow it
    with_event = dict(rey_starter, deck=list(rey_starter["deck"][:-1]) + ["01075"])
    assert any(v.card == "01075" for v in check_deck(with_event, pool, "starter"))


# ---------------------------------------------------------------------- Han Solo
@pytest.mark.rules("destiny.keywords.ambush", "destiny.timing.after")
def test_han_gains_a_shield_after_an_ambush_card_is_played() -> None:
    t = table(("01046",)).set("p1", hand=["01162"])
    state = ok(t, {"by": "p1", "do": "play", "card": "01162", "choices": [may("p1")]})
    assert char(state, "p1.01046")["shields"] == 1
    assert state["extra_action"] == "p1"


@pytest.mark.rules("destiny.timing.trigger-condition")
def test_han_ignores_cards_without_ambush() -> None:
    t = table(("01046",)).set("p1", hand=["01157"])
    state = ok(t, {"by": "p1", "do": "play", "card": "01157", "target": "p2.01045"})
    assert char(state, "p1.01046")["shields"] == 0
    assert char(state, "p2.01045")["shields"] == 1


# ---------------------------------------------------------------------- the whole set
def test_every_awakenings_card_is_implemented() -> None:
    from judge.games.destiny.cards import awakenings

    missing = [c.code for c in awakenings.CARDS if not c.implemented or c.unimplemented]
    assert missing == []
    textless = [c.code for c in awakenings.CARDS if not c.abilities and not c.keywords]
    assert textless == ["01002"]  # First Order Stormtrooper has no text
