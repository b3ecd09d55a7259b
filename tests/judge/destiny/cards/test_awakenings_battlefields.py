"""Awakenings battlefields: Frozen Wastes, Rebel War Room, Starship Graveyard."""

from __future__ import annotations

import pytest

from judge.games.destiny.cards import default_pool
from judge.games.destiny.table import Table
from replays import format as fmt
from replays.replayer import replay
from tests.judge.destiny.cards.helpers import char, ok, run


def table(battlefield: str, controller: str = "p2") -> Table:
    """p1 (Leia elite, Han) to act; the battlefield held by ``controller``."""
    t = Table(battlefield=battlefield, controller=controller, turn="p1")
    t.character("p1", "01028", dice=2)
    t.character("p1", "01046")
    t.character("p2", "01011", dice=2)
    t.support("p2", "01006")
    return t


CLAIM = {"by": "p1", "do": "claim"}


# ---------------------------------------------------------------------- Frozen Wastes
@pytest.mark.rules("destiny.abilities.claim", "destiny.terms.remove-die", "destiny.terms.character-die")
def test_frozen_wastes_removes_a_character_die() -> None:
    t = table("01168").pool("p2", {"p2.01011/1": "2MD1", "p2.01006#1/1": "3RD1"})
    state = ok(t, {**CLAIM, "target": "p2.01011/1"})
    assert state["players"]["p2"]["pool"] == {"p2.01006#1/1": "3RD1"}
    assert state["battlefield"]["controller"] == "p1"
    err = run(t, {**CLAIM, "target": "p2.01006#1/1"})["error"]
    assert err["kind"] == "illegal-action" and err["rule"] == "destiny.terms.choose-target"


# ---------------------------------------------------------------------- Rebel War Room
@pytest.mark.rules("destiny.abilities.claim", "destiny.terms.free", "destiny.deckbuilding.battlefield")
def test_rebel_war_room_resolves_hans_costly_face_for_free() -> None:
    t = table("01171").pool("p1", {"p1.01046/1": "3RD1"}).set("p1", resources=0)
    state = ok(t, {**CLAIM, "dice": [{"die": "p1.01046/1", "target": "p2.01011"}]})
    assert char(state, "p2.01011")["damage"] == 3
    assert state["players"]["p1"]["resources"] == 0
    assert state["players"]["p1"]["pool"] == {}


@pytest.mark.rules("destiny.abilities.claim", "destiny.dice.resolve-via-card-modifiers")
def test_rebel_war_room_resolves_one_die_only() -> None:
    t = table("01171").pool("p1", {"p1.01028/1": "1RD", "p1.01028/2": "2RD"})
    dice = [{"die": "p1.01028/1", "target": "p2.01011"}, {"die": "p1.01028/2", "target": "p2.01011"}]
    err = run(t, {**CLAIM, "dice": dice})["error"]
    assert err["kind"] == "illegal-action" and err["rule"] == "destiny.abilities.claim"
    # without 'dice' on the step, the claimer is asked which die and its target
    choices = [
        {"by": "p1", "kind": "die", "answer": "p1.01028/2"},
        {"by": "p1", "kind": "target", "answer": "p2.01011"},
    ]
    state = ok(t, {**CLAIM, "choices": choices})
    assert char(state, "p2.01011")["damage"] == 2
    assert state["players"]["p1"]["pool"] == {"p1.01028/1": "1RD"}


# ---------------------------------------------------------------------- Starship Graveyard
@pytest.mark.rules("destiny.abilities.claim", "destiny.zones.deck")
def test_starship_graveyard_puts_an_upgrade_from_discard_on_top_of_the_deck() -> None:
    t = table("01174").set("p1", discard=["01155", "01044", "01043"], deck=["01157"])
    step = {**CLAIM, "choices": [{"by": "p1", "kind": "card", "answer": "01044"}]}
    pool = default_pool()
    result = replay(fmt.parse_log(t.log([step]), pool), pool)
    assert result.error is None and result.state is not None
    me = result.state.position()["players"]["p1"]
    assert me["deck"] == ["01044", "01157"]
    assert me["discard"] == ["01155", "01043"]
    err = run(t, {**CLAIM, "choices": [{"by": "p1", "kind": "card", "answer": "01155"}]})["error"]
    assert err["kind"] == "illegal-action"


@pytest.mark.rules("destiny.actions.claim-battlefield")
def test_a_claim_may_skip_the_ability() -> None:
    t = table("01174").set("p1", discard=["01044"], deck=[])
    state = ok(t, {**CLAIM, "claim_ability": False})
    assert state["players"]["p1"]["discard"] == ["01044"] and state["players"]["p1"]["deck"] == 0
