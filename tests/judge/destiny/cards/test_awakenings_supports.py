"""Awakenings supports: First Order TIE Fighter, BB-8, Emperor's Favor, Power of the Dark Side,
Underworld Connections, Awakening, It Binds All Things."""

from __future__ import annotations

import pytest

from judge.games.destiny.table import Table
from tests.judge.destiny.cards.helpers import char, may, ok, run


def table(
    *supports: str, p1: tuple[str, ...] = ("01002",), p2: tuple[str, ...] = ("01045", "01046")
) -> Table:
    t = Table()
    for code in p1:
        t.character("p1", code)
    for code in p2:
        t.character("p2", code)
    for code in supports:
        t.support("p1", code)
    return t


# ---------------------------------------------------------------------- First Order TIE Fighter
@pytest.mark.rules("destiny.symbols.special")
def test_tie_fighter_strips_every_shield_of_an_opponent() -> None:
    t = table("01006").pool("p1", {"p1.01006#1/1": "Sp"})
    t.player("p2")["characters"]["p2.01045"]["shields"] = 3
    t.player("p2")["characters"]["p2.01046"]["shields"] = 1
    t.player("p1")["characters"]["p1.01002"]["shields"] = 2
    state = ok(t, {"by": "p1", "do": "resolve", "dice": [{"die": "p1.01006#1/1"}]})
    assert char(state, "p2.01045")["shields"] == 0 and char(state, "p2.01046")["shields"] == 0
    assert char(state, "p1.01002")["shields"] == 2


@pytest.mark.rules("destiny.supports.dice", "destiny.actions.activate")
def test_tie_fighter_is_activated_for_its_die() -> None:
    state = ok(table("01006"), {"by": "p1", "do": "activate", "card": "p1.01006#1", "roll": ["3RD1"]})
    assert state["players"]["p1"]["pool"] == {"p1.01006#1/1": "3RD1"}


# ---------------------------------------------------------------------- BB-8
@pytest.mark.rules("destiny.symbols.special", "destiny.symbols.special-self-reroll")
def test_bb8_rerolls_itself_and_another_die_and_stays_in_the_pool() -> None:
    t = table("01043").pool("p1", {"p1.01043#1/1": "Sp", "p1.01002/1": "-"})
    step = {
        "by": "p1",
        "do": "resolve",
        "dice": [{"die": "p1.01043#1/1", "target": "p1.01002/1"}],
        "roll": ["1Sh", "2RD"],
    }
    state = ok(t, step)
    assert state["players"]["p1"]["pool"] == {"p1.01043#1/1": "1Sh", "p1.01002/1": "2RD"}


@pytest.mark.rules("destiny.actions.resolve-once-each", "destiny.symbols.special-self-reroll")
def test_bb8_cannot_resolve_twice_in_one_action() -> None:
    t = table("01043").pool("p1", {"p1.01043#1/1": "Sp"})
    step = {"by": "p1", "do": "resolve", "dice": [{"die": "p1.01043#1/1"}, {"die": "p1.01043#1/1"}]}
    assert run(t, step)["error"]["rule"] == "destiny.actions.resolve-once-each"


# ---------------------------------------------------------------------- Emperor's Favor
@pytest.mark.rules("destiny.zones.hand-limit", "destiny.terms.increase", "destiny.round.upkeep")
def test_emperors_favor_raises_the_hand_limit() -> None:
    state = ok(table("01088"), {"by": "p1", "do": "pass"}, {"by": "p2", "do": "pass"})
    assert state["players"]["p1"]["hand"] == 6
    assert state["players"]["p2"]["hand"] == 5


# ---------------------------------------------------------------------- Power of the Dark Side
@pytest.mark.rules("destiny.actions.card-action", "destiny.damage.unblockable")
def test_power_of_the_dark_side_blank_reroll_deals_two_unblockable() -> None:
    t = table("01089").pool("p1", {"p1.01002/1": "1R"})
    t.player("p2")["characters"]["p2.01045"]["shields"] = 2
    step = {
        "by": "p1",
        "do": "use",
        "card": "p1.01089#1",
        "dice": [{"die": "p1.01002/1"}],
        "roll": ["-"],
        "target": "p2.01045",
    }
    state = ok(t, step)
    assert char(state, "p2.01045")["damage"] == 2 and char(state, "p2.01045")["shields"] == 2
    assert state["players"]["p1"]["supports"]["p1.01089#1"]["exhausted"] is True
    state = ok(t, {**step, "roll": ["2RD"]})
    assert char(state, "p2.01045")["damage"] == 0
    assert state["players"]["p1"]["pool"] == {"p1.01002/1": "2RD"}


@pytest.mark.rules("destiny.actions.card-action")
def test_power_of_the_dark_side_needs_a_die_to_reroll() -> None:
    err = run(table("01089"), {"by": "p1", "do": "use", "card": "p1.01089#1"})["error"]
    assert err["rule"] == "destiny.actions.card-action"


# ---------------------------------------------------------------------- Underworld Connections
@pytest.mark.rules("destiny.actions.card-action", "destiny.cards.exhausted")
def test_underworld_connections_exhausts_for_a_resource() -> None:
    t = table("01101")
    use = {"by": "p1", "do": "use", "card": "p1.01101#1"}
    state = ok(t, use)
    assert state["players"]["p1"]["resources"] == 3
    err = run(t, use, {"by": "p2", "do": "pass"}, use)["error"]
    assert err["at"] == 3 and err["kind"] == "illegal-action"


# ---------------------------------------------------------------------- Awakening
@pytest.mark.rules("destiny.dice.resolve-via-card", "destiny.dice.modifier-needs-base")
def test_awakening_resolves_a_modifier_alone_as_if_it_had_no_plus() -> None:
    t = table("01124", p1=("01038",)).pool("p1", {"p1.01038/1": "+2MD"})
    use = {
        "by": "p1",
        "do": "use",
        "card": "p1.01124#1",
        "dice": [{"die": "p1.01038/1", "target": "p2.01045"}],
    }
    state = ok(t, use)
    assert char(state, "p2.01045")["damage"] == 2
    assert state["players"]["p1"]["pool"] == {}
    plain = table("01124", p1=("01038",)).pool("p1", {"p1.01038/1": "1MD"})
    err = run(plain, {**use, "dice": [{"die": "p1.01038/1", "target": "p2.01045"}]})["error"]
    assert err["kind"] == "illegal-action" and err["rule"] == "destiny.dice.resolve-via-card"


# ---------------------------------------------------------------------- It Binds All Things
@pytest.mark.rules("destiny.terms.reduce", "destiny.timing.before")
def test_it_binds_all_things_lowers_a_blue_upgrades_cost_once() -> None:
    t = table("01150", p1=("01038",)).set("p1", hand=["01059", "01059"], resources=2)
    play = {
        "by": "p1",
        "do": "play",
        "card": "01059",
        "on": "p1.01038",
        "choices": [may("p1"), may("p1", False)],
    }
    state = ok(t, play)
    assert state["players"]["p1"]["resources"] == 0
    assert state["players"]["p1"]["supports"]["p1.01150#1"]["exhausted"] is True
    # declined, the full cost is due
    err = run(t, {**play, "choices": [may("p1", False)]})["error"]
    assert err["rule"] == "destiny.cards.cost"
    # the reduction lasted only for that upgrade: the next copy costs 3
    t.set("p1", resources=5)
    state = ok(
        t,
        play,
        {"by": "p2", "do": "pass"},
        {"by": "p1", "do": "play", "card": "01059", "on": "p1.01038", "choices": [may("p1", False)]},
    )
    assert state["players"]["p1"]["resources"] == 0


@pytest.mark.rules("destiny.timing.trigger-condition")
def test_it_binds_all_things_ignores_other_cards() -> None:
    t = table("01150", p1=("01011",)).set("p1", hand=["01061"], resources=2)
    state = ok(
        t, {"by": "p1", "do": "play", "card": "01061", "on": "p1.01011", "choices": [may("p1", False)]}
    )
    assert state["players"]["p1"]["resources"] == 0
    assert state["players"]["p1"]["supports"]["p1.01150#1"]["exhausted"] is False
