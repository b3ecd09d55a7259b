"""Timing in Destiny games: replacement effects, simultaneous abilities and the after-queue."""

from __future__ import annotations

from typing import Any

import pytest

from judge.games.destiny import events as ev
from judge.games.destiny.engine import Ctx
from judge.games.destiny.model import Ability, CardDef, CardType
from tests.judge.destiny.tablehelp import Table, error, final, player, pool_with, ruling_json


def _gain_one(ctx: Ctx, src: str, _e: Any) -> None:
    ctx.gain(src, ctx.owner_of(src), 1)


def _draw_one(ctx: Ctx, src: str, _e: Any) -> None:
    ctx.draw(src, ctx.owner_of(src), 1)


def _any_activation(ctx: Ctx, src: str, e: Any) -> bool:
    return isinstance(e, ev.Activate)


def _any_defeat(ctx: Ctx, src: str, e: Any) -> bool:
    return isinstance(e, ev.Defeat)


def _any_draw(ctx: Ctx, src: str, e: Any) -> bool:
    return isinstance(e, ev.Draw) and e.source != "upkeep"


def support(code: str, name: str, *abilities: Ability) -> CardDef:
    return CardDef(code, name, CardType.SUPPORT, "neutral", "gray", cost=0, abilities=abilities)


# after any activation, gain 1 resource / draw 1 card; after any defeat, gain 1; after any draw, gain 1
PAYDAY = support("99010", "Payday", Ability("after", "After a character is activated, gain 1 resource.",
                                            _gain_one, _any_activation))
BRIEFING = support("99011", "Briefing", Ability("after", "After a character is activated, draw 1 card.",
                                                _draw_one, _any_activation))
WAKE = support("99012", "Wake", Ability("after", "After a character is defeated, gain 1 resource.",
                                        _gain_one, _any_defeat))
TALLY = support("99013", "Tally", Ability("after", "After a player draws, gain 1 resource.",
                                          _gain_one, _any_draw))
CARDS = pool_with(PAYDAY, BRIEFING, WAKE, TALLY)


def table(controller: str = "p1") -> Table:
    t = Table(controller=controller, turn="p1")
    t.character("p1", "05013")
    t.character("p2", "05031", dice=2)
    for pid in ("p1", "p2"):
        t.set(pid, resources=0, deck=["05073", "05058", "05072"])
    return t


ACTIVATE = {"by": "p1", "do": "activate", "card": "p1.05013", "roll": ["1R"]}


def order(by: str, *ids: str) -> dict:
    return {"by": by, "kind": "order", "answer": list(ids)}


def resolving(log: dict) -> list[str]:
    return [e["ability"] for e in ruling_json(log, cards=CARDS)["events"] if e["event"] == "resolving"]


# ---------------------------------------------------------------------- replacement
def second_chance_table(controller: str, chances: int = 1) -> Table:
    t = Table(controller=controller, turn="p2")
    ups = [f"p1.01137#{n}" for n in range(1, chances + 1)]
    t.character("p1", "05046", dice=2, damage=8, upgrades=ups)  # Han Solo, health 10
    t.character("p2", "05019", dice=2)
    t.support("p2", "99012")  # Wake: after a character is defeated, gain 1 resource
    t.set("p2", resources=0)
    t.pool("p2", {"p2.05019/1": "2RD"})
    return t


SHOOT_HAN = {"by": "p2", "do": "resolve", "dice": [{"die": "p2.05019/1", "target": "p1.05046"}]}


@pytest.mark.rules("destiny.replacement.instead", "destiny.replacement.no-triggers-from-replaced")
def test_a_replaced_defeat_never_happens_and_triggers_nothing() -> None:
    log = second_chance_table("p1").log([SHOOT_HAN])
    state = final(log, CARDS)
    han = player(state, "p1")["characters"]["p1.05046"]
    assert (han["defeated"], han["damage"], han["upgrades"]) == (False, 5, [])
    assert player(state, "p1")["discard"] == ["01137"]
    assert player(state, "p2")["resources"] == 0  # Wake did not trigger
    events = ruling_json(log, cards=CARDS)["events"]
    replaced = [e for e in events if e["event"] == "replaced"]
    assert len(replaced) == 1 and replaced[0]["instead_of"] == "defeat"
    assert not [e for e in events if e["event"] in ("defeat", "queued")]


@pytest.mark.rules("destiny.defeat.threshold", "destiny.timing.after")
def test_without_the_replacement_the_defeat_triggers_after_abilities() -> None:
    t = second_chance_table("p1", chances=0)
    t.character("p1", "05031")
    state = final(t.log([SHOOT_HAN]), CARDS)
    assert player(state, "p1")["characters"]["p1.05046"]["defeated"] is True
    assert player(state, "p2")["resources"] == 1


@pytest.mark.rules("destiny.replacement.competing")
@pytest.mark.parametrize("controller", ["p1", "p2"])
def test_competing_replacements_are_chosen_by_the_battlefield_controller(controller: str) -> None:
    log = second_chance_table(controller, chances=2).log([SHOOT_HAN])
    err = error(log, CARDS)
    assert err is not None and err["kind"] == "pending-decision"
    assert err["pending"]["by"] == controller and err["pending"]["kind"] == "replacement"
    assert err["pending"]["rules"][0] == "destiny.replacement.competing"
    assert set(err["pending"]["options"]) == {"p1.01137#1", "p1.01137#2"}


@pytest.mark.rules("destiny.replacement.competing", "destiny.replacement.instead")
def test_only_the_chosen_replacement_resolves() -> None:
    step = {**SHOOT_HAN, "choices": [{"by": "p2", "kind": "replacement", "answer": "p1.01137#2"}]}
    state = final(second_chance_table("p2", chances=2).log([step]), CARDS)
    han = player(state, "p1")["characters"]["p1.05046"]
    assert (han["damage"], han["upgrades"]) == (5, ["p1.01137#1"])
    assert player(state, "p1")["discard"] == ["01137"]


# ---------------------------------------------------------------------- simultaneous abilities
@pytest.mark.rules("destiny.timing.simultaneous-same-player", "destiny.timing.queue-same-trigger")
def test_one_players_simultaneous_abilities_are_ordered_by_that_player() -> None:
    t = table(controller="p2")
    t.support("p1", "99010")
    t.support("p1", "99011")
    err = error(t.log([ACTIVATE]), CARDS)
    assert err is not None and err["kind"] == "pending-decision"
    assert err["pending"]["by"] == "p1" and err["pending"]["kind"] == "order"
    assert err["pending"]["rules"] == ["destiny.timing.simultaneous-same-player"]


@pytest.mark.rules("destiny.timing.simultaneous-battlefield-controller")
@pytest.mark.parametrize("controller", ["p1", "p2"])
def test_two_players_abilities_are_ordered_by_the_battlefield_controller(controller: str) -> None:
    t = table(controller=controller)
    t.support("p1", "99010")
    t.support("p2", "99010")
    err = error(t.log([ACTIVATE]), CARDS)
    assert err is not None and err["kind"] == "pending-decision"
    assert err["pending"]["by"] == controller and err["pending"]["kind"] == "order"
    assert err["pending"]["rules"] == ["destiny.timing.simultaneous-battlefield-controller"]


@pytest.mark.rules("destiny.timing.simultaneous-battlefield-controller")
def test_the_player_who_does_not_control_the_battlefield_cannot_order() -> None:
    t = table(controller="p2")
    t.support("p1", "99010")
    t.support("p2", "99010")
    err = error(t.log([{**ACTIVATE, "choices": [order("p1", "p1.99010#1", "p2.99010#1")]}]), CARDS)
    assert err is not None and err["kind"] == "illegal-action"


@pytest.mark.rules("destiny.timing.queue-fifo", "destiny.timing.after")
@pytest.mark.parametrize("first", ["p1.99010#1", "p1.99011#1"])
def test_queued_abilities_resolve_in_the_chosen_order(first: str) -> None:
    t = table()
    t.support("p1", "99010")
    t.support("p1", "99011")
    other = "p1.99011#1" if first == "p1.99010#1" else "p1.99010#1"
    log = t.log([{**ACTIVATE, "choices": [order("p1", first, other)]}])
    assert resolving(log) == [first, other]
    p1 = player(final(log, CARDS), "p1")
    assert (p1["resources"], p1["hand"]) == (1, 1)


@pytest.mark.rules("destiny.timing.queue-fifo", "destiny.timing.queue-wait")
def test_an_ability_triggered_while_the_queue_resolves_joins_at_the_back() -> None:
    t = table()
    t.support("p1", "99011")  # Briefing: draw 1 after an activation
    t.support("p2", "99010")  # Payday: gain 1 after an activation
    t.support("p2", "99013")  # Tally: gain 1 after a player draws
    log = t.log([{**ACTIVATE, "choices": [order("p1", "p1.99011#1", "p2.99010#1")]}])
    assert resolving(log) == ["p1.99011#1", "p2.99010#1", "p2.99013#1"]
    assert player(final(log, CARDS), "p2")["resources"] == 2


@pytest.mark.rules("destiny.timing.simultaneous-same-player")
def test_an_order_must_name_each_ability_once() -> None:
    t = table()
    t.support("p1", "99010")
    t.support("p1", "99011")
    err = error(t.log([{**ACTIVATE, "choices": [order("p1", "p1.99010#1", "p1.99010#1")]}]), CARDS)
    assert err is not None and err["kind"] == "illegal-action"
    assert err["rule"] == "destiny.timing.simultaneous-same-player"



@pytest.mark.rules("destiny.abilities.triggered-independent", "destiny.timing.queue-fifo",
                   "destiny.timing.simultaneous-same-player")
def test_an_after_ability_resolves_in_full_after_its_card_left_play() -> None:
    """Two after-abilities trigger on one activation: the character's discards the upgrade, the
    upgrade's gives the character a shield. Ordered discard first, the upgrade's ability, already
    triggered, still resolves in full on the character it was attached to."""
    from judge.games.destiny.cards.common import ability, after_you_activate_this, attached_to
    from judge.games.destiny.events import Activate
    from judge.games.destiny.model import CardDef, CardType, faces
    from judge.games.destiny.table import Table
    from replays.service import replay_json
    from tests.judge.destiny.tablehelp import pool_with

    def discard_upgrades(ctx, src, _e):  # noqa: ANN001, ANN202
        for up in list(ctx.character(src).upgrades):
            ctx.discard_from_play(src, up)

    def shield_host(ctx, src, _e):  # noqa: ANN001, ANN202
        host = attached_to(ctx, src)
        assert host is not None
        ctx.give_shields(src, host, 1)

    def host_activated(ctx, src, e):  # noqa: ANN001, ANN202
        return isinstance(e, Activate) and e.card == ctx.upgrade_host(src)

    hero = CardDef("99020", "Test Purger", CardType.CHARACTER, "hero", "gray", points=(10,), health=10,
                   faces=faces("1R", "1R", "1R", "1R", "1R", "1R"),
                   abilities=(ability("after", "After you activate it, discard its upgrades.", discard_upgrades,
                                      after_you_activate_this),))
    gear = CardDef("99021", "Test Shield Gear", CardType.UPGRADE, "neutral", "gray", cost=0,
                   abilities=(ability("after", "After the attached character is activated, give it 1 shield.",
                                      shield_host, host_activated),))
    pool = pool_with(hero, gear)
    t = Table()
    t.character("p1", "99020", upgrades=["99021"])
    t.character("p2", "05019", dice=2)
    step = {"by": "p1", "do": "activate", "card": "p1.99020", "roll": ["1R"],
            "choices": [{"by": "p1", "kind": "order", "answer": ["p1.99020", "p1.99021#1"]}]}
    r = replay_json(t.log([step]), cards=pool)
    assert r["valid"], r["error"]
    me = r["final_state"]["players"]["p1"]
    assert me["characters"]["p1.99020"]["upgrades"] == [] and me["discard"] == ["99021"]
    assert me["characters"]["p1.99020"]["shields"] == 1
