"""Legacies supports: Slave I, R2-D2, Millennium Falcon, Maz's Vault, Perseverance, Backup Specialist."""

from __future__ import annotations

import pytest

from judge.games.destiny.table import Table
from replays.service import ruling_json
from tests.judge.destiny.cards.helpers import may, player, run


def table() -> Table:
    t = Table()
    t.character("p1", "05031", dice=2)
    t.character("p1", "05046")
    t.character("p2", "05019", dice=2)
    t.character("p2", "05013")
    return t



# ---------------------------------------------------------------------- Slave I
@pytest.mark.rules("destiny.actions.power-action", "destiny.terms.remove-die", "destiny.dice.value")
def test_slave_one_rerolls_a_yellow_die_and_removes_a_matching_opponent_die() -> None:
    t = table()
    t.support("p2", "05025")
    t.pool("p2", {"p2.05019/1": "1R", "p2.05013/1": "3ID"}).pool(
        "p1", {"p1.05031/1": "2RD", "p1.05046/1": "1R"}
    )
    t.position["turn"] = "p2"
    r = run(t, {"by": "p2", "do": "use", "card": "p2.05025#1", "roll": ["2MD"], "choices": [may("p2")]})
    assert r["error"] is None
    assert player(r, "p2")["pool"] == {"p2.05019/1": "2MD", "p2.05013/1": "3ID"}
    assert player(r, "p1")["pool"] == {"p1.05046/1": "1R"}
    assert player(r, "p2")["power_used"] == ["p2.05025#1"]


@pytest.mark.rules("destiny.dice.value")
def test_slave_one_offers_nothing_when_no_value_matches() -> None:
    t = table()
    t.support("p2", "05025")
    t.pool("p2", {"p2.05019/1": "1R"}).pool("p1", {"p1.05031/1": "2RD"})
    t.position["turn"] = "p2"
    r = run(t, {"by": "p2", "do": "use", "card": "p2.05025#1", "roll": ["1Dr"]})
    assert r["error"] is None
    assert player(r, "p1")["pool"] == {"p1.05031/1": "2RD"}


# ---------------------------------------------------------------------- R2-D2
@pytest.mark.rules("destiny.symbols.special", "destiny.draw.top-card", "destiny.terms.turn-die")
def test_r2d2_draws_then_may_turn_one_of_your_dice() -> None:
    t = table()
    t.support("p1", "05035")
    t.pool("p1", {"p1.05035#1/1": "Sp", "p1.05031/1": "1R"})
    step = {
        "by": "p1",
        "do": "resolve",
        "dice": [{"die": "p1.05035#1/1"}],
        "choices": [may("p1"), {"by": "p1", "kind": "turn", "answer": {"p1.05031/1": "2RD"}}],
    }
    r = run(t, step)
    assert r["error"] is None
    assert player(r, "p1")["hand"] == 1
    assert player(r, "p1")["deck"] == 9
    assert player(r, "p1")["pool"] == {"p1.05031/1": "2RD"}


@pytest.mark.rules("destiny.symbols.focus-own-only", "destiny.terms.turn-die")
def test_r2d2_cannot_turn_an_opponents_die() -> None:
    t = table()
    t.support("p1", "05035")
    t.pool("p1", {"p1.05035#1/1": "Sp", "p1.05031/1": "1R"}).pool("p2", {"p2.05019/1": "2RD"})
    step = {
        "by": "p1",
        "do": "resolve",
        "dice": [{"die": "p1.05035#1/1"}],
        "choices": [may("p1"), {"by": "p1", "kind": "turn", "answer": {"p2.05019/1": "-"}}],
    }
    assert run(t, step)["error"]["rule"] == "destiny.terms.turn-die"


# ---------------------------------------------------------------------- Millennium Falcon
@pytest.mark.rules("destiny.actions.activate", "destiny.timing.after")
def test_millennium_falcon_activates_a_character_too() -> None:
    t = table()
    t.support("p1", "05052")
    step = {
        "by": "p1",
        "do": "activate",
        "card": "p1.05052#1",
        "roll": ["3RD", "1R"],
        "choices": [may("p1"), {"by": "p1", "kind": "target", "answer": "p1.05046"}, may("p1", False)],
    }
    r = run(t, step)
    assert r["error"] is None
    p1 = player(r, "p1")
    assert p1["supports"]["p1.05052#1"]["exhausted"] is True
    assert p1["characters"]["p1.05046"]["exhausted"] is True
    assert p1["pool"] == {"p1.05052#1/1": "3RD", "p1.05046/1": "1R"}


@pytest.mark.rules("destiny.abilities.resolve-fully")
def test_millennium_falcon_asks_its_controller() -> None:
    t = table()
    t.support("p1", "05052")
    ruling = ruling_json(t.log([{"by": "p1", "do": "activate", "card": "p1.05052#1", "roll": ["3RD"]}]))
    assert ruling["pending"]["by"] == "p1"
    assert ruling["pending"]["source"] == "p1.05052#1"


# ---------------------------------------------------------------------- Maz's Vault
@pytest.mark.rules("destiny.abilities.constant", "destiny.round.upkeep")
def test_mazs_vault_gives_every_player_one_more_upkeep_resource() -> None:
    t = table()
    t.support("p1", "05122")
    r = run(t, {"by": "p1", "do": "pass"}, {"by": "p2", "do": "pass"})
    assert r["error"] is None
    assert player(r, "p1")["resources"] == 5
    assert player(r, "p2")["resources"] == 5
    plain = run(table(), {"by": "p1", "do": "pass"}, {"by": "p2", "do": "pass"})
    assert player(plain, "p2")["resources"] == 4


# ---------------------------------------------------------------------- Perseverance
@pytest.mark.rules("destiny.actions.card-action", "destiny.cards.exhaust-usage")
def test_perseverance_exhausts_to_reroll_twice() -> None:
    t = table()
    t.support("p1", "05134")
    t.pool("p1", {"p1.05031/1": "-"})
    r = run(t, {"by": "p1", "do": "use", "card": "p1.05134#1", "roll": ["1R", "2RD"], "choices": [may("p1")]})
    assert r["error"] is None
    assert player(r, "p1")["pool"] == {"p1.05031/1": "2RD"}
    assert player(r, "p1")["supports"]["p1.05134#1"]["exhausted"] is True


@pytest.mark.rules("destiny.actions.card-action", "destiny.cards.exhaust-usage")
def test_perseverance_cannot_be_used_exhausted() -> None:
    t = table()
    t.support("p1", "05134", exhausted=True)
    t.pool("p1", {"p1.05031/1": "-"})
    r = run(t, {"by": "p1", "do": "use", "card": "p1.05134#1", "roll": ["1R"]})
    assert r["error"]["rule"] == "destiny.actions.card-action"
    assert player(r, "p1")["pool"] == {"p1.05031/1": "-"}


# ---------------------------------------------------------------------- Backup Specialist
@pytest.mark.rules("destiny.actions.card-action", "destiny.cards.exhaust-usage")
def test_backup_specialist_rerolls_up_to_two_dice() -> None:
    t = table()
    t.support("p1", "05163")
    t.pool("p1", {"p1.05031/1": "-", "p1.05046/1": "-", "p1.05031/2": "-"})
    step = {
        "by": "p1",
        "do": "use",
        "card": "p1.05163#1",
        "roll": ["2RD", "2RD"],
        "choices": [{"by": "p1", "kind": "dice", "answer": ["p1.05031/1", "p1.05046/1"]}],
    }
    r = run(t, step)
    assert r["error"] is None
    assert player(r, "p1")["pool"] == {"p1.05031/1": "2RD", "p1.05046/1": "2RD", "p1.05031/2": "-"}
    assert player(r, "p1")["supports"]["p1.05163#1"]["exhausted"] is True


@pytest.mark.rules("destiny.terms.choose-target")
def test_backup_specialist_rejects_three_dice() -> None:
    t = table()
    t.support("p1", "05163")
    t.pool("p1", {"p1.05031/1": "-", "p1.05046/1": "-", "p1.05031/2": "-"})
    step = {
        "by": "p1",
        "do": "use",
        "card": "p1.05163#1",
        "roll": ["2RD", "2RD", "1R"],
        "choices": [{"by": "p1", "kind": "dice", "answer": ["p1.05031/1", "p1.05046/1", "p1.05031/2"]}],
    }
    assert run(t, step)["error"]["rule"] == "destiny.terms.choose-target"
