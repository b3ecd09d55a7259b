"""Legacies characters: Luke Skywalker, Han Solo, Boba Fett, Veteran Stormtrooper."""

from __future__ import annotations

import pytest

from judge.games.destiny.table import Table
from replays.service import ruling_json
from tests.judge.destiny.cards.helpers import char, run


def table() -> Table:
    t = Table()
    t.character("p1", "05031", dice=2)
    t.character("p1", "05046")
    t.character("p2", "05019", dice=2)
    t.character("p2", "05013")
    return t


@pytest.mark.rules("destiny.actions.power-action", "destiny.dice.resolve-via-card")
def test_luke_power_action_pays_two_and_adds_two() -> None:
    t = table().set("p1", resources=3).pool("p1", {"p1.05031/1": "2RD"})
    r = run(
        t,
        {"by": "p1", "do": "use", "card": "p1.05031", "dice": [{"die": "p1.05031/1", "target": "p2.05019"}]},
    )
    assert r["error"] is None
    assert char(r, "p2.05019")["damage"] == 4
    assert r["final_state"]["players"]["p1"]["resources"] == 1
    assert r["final_state"]["players"]["p1"]["power_used"] == ["p1.05031"]


@pytest.mark.rules("destiny.dice.resolve-via-card")
def test_luke_power_action_only_resolves_his_own_dice() -> None:
    t = table().set("p1", resources=3).pool("p1", {"p1.05046/1": "2RD"})
    r = run(
        t,
        {"by": "p1", "do": "use", "card": "p1.05031", "dice": [{"die": "p1.05046/1", "target": "p2.05019"}]},
    )
    assert r["error"]["kind"] == "illegal-action"
    assert r["error"]["rule"] == "destiny.dice.resolve-via-card"


@pytest.mark.rules("destiny.actions.card-action")
def test_luke_power_action_needs_two_resources() -> None:
    t = table().set("p1", resources=1).pool("p1", {"p1.05031/1": "2RD"})
    r = run(
        t,
        {"by": "p1", "do": "use", "card": "p1.05031", "dice": [{"die": "p1.05031/1", "target": "p2.05019"}]},
    )
    assert r["error"]["rule"] == "destiny.actions.card-action"
    assert char(r, "p2.05019")["damage"] == 0


@pytest.mark.rules("destiny.actions.power-action")
def test_luke_power_action_once_per_round() -> None:
    t = table().set("p1", resources=4).pool("p1", {"p1.05031/1": "2RD", "p1.05031/2": "1RD"})
    use = {"by": "p1", "do": "use", "card": "p1.05031"}
    r = run(
        t,
        {**use, "dice": [{"die": "p1.05031/1", "target": "p2.05019"}]},
        {"by": "p2", "do": "pass"},
        {**use, "dice": [{"die": "p1.05031/2", "target": "p2.05019"}]},
    )
    assert r["error"]["at"] == 3
    assert r["error"]["rule"] == "destiny.actions.power-action"


@pytest.mark.rules("destiny.timing.after", "destiny.abilities.resolve-fully")
def test_han_may_reroll_an_opponents_die_after_activation() -> None:
    t = table().pool("p2", {"p2.05019/1": "2RD"})
    step = {
        "by": "p1",
        "do": "activate",
        "card": "p1.05046",
        "roll": ["1R", "-"],
        "choices": [
            {"by": "p1", "kind": "may", "answer": True},
            {"by": "p1", "kind": "die", "answer": "p2.05019/1"},
        ],
    }
    r = run(t, step)
    assert r["error"] is None
    assert r["final_state"]["players"]["p2"]["pool"] == {"p2.05019/1": "-"}


@pytest.mark.rules("destiny.abilities.resolve-fully")
def test_han_asks_his_player_whether_to_reroll() -> None:
    t = table()
    ruling = ruling_json(t.log([{"by": "p1", "do": "activate", "card": "p1.05046", "roll": ["1R"]}]))
    assert ruling["pending"]["by"] == "p1"
    assert ruling["pending"]["kind"] == "may"
    assert ruling["pending"]["source"] == "p1.05046"


@pytest.mark.rules("destiny.symbols.special", "destiny.dice.value")
def test_boba_special_deals_the_value_of_any_die() -> None:
    t = table().pool("p2", {"p2.05019/1": "Sp"}).pool("p1", {"p1.05031/1": "2RD"})
    t.position["turn"] = "p2"
    r = run(
        t,
        {
            "by": "p2",
            "do": "resolve",
            "dice": [{"die": "p2.05019/1", "target": "p1.05046"}],
            "choices": [{"by": "p2", "kind": "die", "answer": "p1.05031/1"}],
        },
    )
    assert r["error"] is None
    assert char(r, "p1.05046")["damage"] == 2
    assert r["final_state"]["players"]["p1"]["pool"] == {"p1.05031/1": "2RD"}


@pytest.mark.rules("destiny.symbols.special", "destiny.terms.choose-target")
def test_boba_special_pending_names_boba_player() -> None:
    t = table().pool("p2", {"p2.05019/1": "Sp", "p2.05013/1": "3ID"}).pool("p1", {"p1.05031/1": "1RD"})
    t.position["turn"] = "p2"
    ruling = ruling_json(t.log([{"by": "p2", "do": "resolve", "dice": [{"die": "p2.05019/1"}]}]))
    assert ruling["pending"]["by"] == "p2"
    assert ruling["pending"]["kind"] == "die"
    assert sorted(ruling["pending"]["options"]) == ["p1.05031/1", "p2.05013/1"]


@pytest.mark.rules("destiny.symbols.indirect", "destiny.cards.die-faces")
def test_veteran_stormtrooper_die_deals_indirect() -> None:
    t = table()
    t.position["turn"] = "p2"
    r = run(
        t,
        {"by": "p2", "do": "activate", "card": "p2.05013", "roll": ["3ID"]},
        {"by": "p1", "do": "pass"},
        {
            "by": "p2",
            "do": "resolve",
            "dice": [{"die": "p2.05013/1", "target": "p1"}],
            "choices": [{"by": "p1", "kind": "split", "answer": {"p1.05031": 1, "p1.05046": 2}}],
        },
    )
    assert r["error"] is None
    assert char(r, "p1.05031")["damage"] == 1
    assert char(r, "p1.05046")["damage"] == 2


@pytest.mark.rules("destiny.cards.die-faces")
def test_veteran_stormtrooper_has_no_special_face() -> None:
    t = table()
    t.position["turn"] = "p2"
    r = run(t, {"by": "p2", "do": "activate", "card": "p2.05013", "roll": ["Sp"]})
    assert r["error"]["rule"] == "destiny.cards.die-faces"


@pytest.mark.rules("destiny.general.golden-rule")
def test_every_legacies_card_is_implemented() -> None:
    from judge.games.destiny.cards import legacies

    assert len(legacies.CARDS) == 44
    assert [c.code for c in legacies.CARDS if not c.implemented or c.unimplemented] == []
