"""Legacies upgrades: Heirloom Lightsaber, Hidden Blaster, Hunting Rifle, Hunter Instinct, Wrist Rockets,
Force Focus, 74-Z Speeder Bike, Quickdraw Holster."""

from __future__ import annotations

import pytest

from judge.games.destiny.table import Table
from replays.service import ruling_json
from tests.judge.destiny.cards.helpers import may, player, run


def table(p1_upgrades: list[str] | None = None, p2_upgrades: list[str] | None = None) -> Table:
    t = Table()
    t.character("p1", "05031", dice=2, upgrades=p1_upgrades)
    t.character("p1", "05046")
    t.character("p2", "05019", dice=2, upgrades=p2_upgrades)
    return t



# ---------------------------------------------------------------------- Heirloom Lightsaber
@pytest.mark.rules("destiny.keywords.redeploy", "destiny.keywords.binary")
def test_heirloom_lightsaber_redeploys_from_a_blue_character() -> None:
    t = table(p1_upgrades=["05058"]).pool("p2", {"p2.05019/1": "2RD"})
    t.player("p1")["characters"]["p1.05031"]["damage"] = 10
    t.position["turn"] = "p2"
    r = run(
        t,
        {
            "by": "p2",
            "do": "resolve",
            "dice": [{"die": "p2.05019/1", "target": "p1.05031"}],
            "choices": [may("p1")],
        },
    )
    assert r["error"] is None
    p1 = player(r, "p1")
    assert p1["characters"]["p1.05031"]["defeated"] is True
    assert p1["characters"]["p1.05046"]["upgrades"] == ["p1.05058#1"]
    assert "05058" not in p1["discard"]


@pytest.mark.rules("destiny.keywords.redeploy", "destiny.defeat.cleanup")
def test_heirloom_lightsaber_on_a_yellow_character_is_discarded() -> None:
    t = Table()
    t.character("p1", "05046", upgrades=["05058"], damage=9)
    t.character("p1", "05031", dice=2)
    t.character("p2", "05019", dice=2)
    t.pool("p2", {"p2.05019/1": "2RD"}).position["turn"] = "p2"
    r = run(t, {"by": "p2", "do": "resolve", "dice": [{"die": "p2.05019/1", "target": "p1.05046"}]})
    assert r["error"] is None
    assert player(r, "p1")["discard"] == ["05058"]
    assert player(r, "p1")["characters"]["p1.05031"]["upgrades"] == []


# ---------------------------------------------------------------------- Hidden Blaster
@pytest.mark.rules("destiny.keywords.ambush", "destiny.timing.after")
def test_hidden_blaster_removes_a_shield_and_gives_an_extra_action() -> None:
    t = table().set("p1", hand=["05072"])
    t.player("p2")["characters"]["p2.05019"]["shields"] = 2
    r = run(t, {"by": "p1", "do": "play", "card": "05072", "on": "p1.05046", "choices": [may("p1")]})
    assert r["error"] is None
    assert player(r, "p2")["characters"]["p2.05019"]["shields"] == 1
    assert player(r, "p1")["resources"] == 0
    assert r["final_state"]["turn"] == "p1"
    assert r["final_state"]["extra_action"] == "p1"


@pytest.mark.rules("destiny.abilities.resolve-fully")
def test_hidden_blaster_shield_removal_is_optional() -> None:
    t = table().set("p1", hand=["05072"])
    t.player("p2")["characters"]["p2.05019"]["shields"] = 2
    r = run(t, {"by": "p1", "do": "play", "card": "05072", "on": "p1.05046", "choices": [may("p1", False)]})
    assert player(r, "p2")["characters"]["p2.05019"]["shields"] == 2


# ---------------------------------------------------------------------- Hunting Rifle
@pytest.mark.rules("destiny.dice.face-cost", "destiny.symbols.ranged")
def test_hunting_rifle_face_costs_a_resource() -> None:
    t = table(p1_upgrades=["05073"]).set("p1", resources=0).pool("p1", {"p1.05073#1/1": "2RD1"})
    r = run(t, {"by": "p1", "do": "resolve", "dice": [{"die": "p1.05073#1/1", "target": "p2.05019"}]})
    assert r["error"]["rule"] == "destiny.dice.face-cost"
    t.set("p1", resources=1)
    r = run(t, {"by": "p1", "do": "resolve", "dice": [{"die": "p1.05073#1/1", "target": "p2.05019"}]})
    assert player(r, "p2")["characters"]["p2.05019"]["damage"] == 2
    assert player(r, "p1")["resources"] == 0


# ---------------------------------------------------------------------- Hunter Instinct
@pytest.mark.rules("destiny.symbols.special", "destiny.symbols.special-own-card")
@pytest.mark.parametrize(("before", "after"), [(0, 1), (2, 3), (3, 5)])
def test_hunter_instinct_deals_two_to_a_hurt_character(before: int, after: int) -> None:
    t = table(p2_upgrades=["05026"]).pool("p2", {"p2.05026#1/1": "Sp"})
    t.player("p1")["characters"]["p1.05031"]["damage"] = before
    t.position["turn"] = "p2"
    r = run(t, {"by": "p2", "do": "resolve", "dice": [{"die": "p2.05026#1/1", "target": "p1.05031"}]})
    assert r["error"] is None
    assert player(r, "p1")["characters"]["p1.05031"]["damage"] == after


# ---------------------------------------------------------------------- Wrist Rockets
@pytest.mark.rules("destiny.terms.play-restrictions")
def test_wrist_rockets_only_on_a_yellow_character() -> None:
    t = table().set("p1", hand=["05027"], resources=3)
    r = run(t, {"by": "p1", "do": "play", "card": "05027", "on": "p1.05031"})
    assert r["error"]["rule"] == "destiny.terms.play-restrictions"
    r = run(t, {"by": "p1", "do": "play", "card": "05027", "on": "p1.05046"})
    assert r["error"] is None
    assert player(r, "p1")["characters"]["p1.05046"]["upgrades"] == ["p1.05027#1"]


@pytest.mark.rules("destiny.symbols.special", "destiny.abilities.resolve-fully")
def test_wrist_rockets_special_with_the_paid_second_shot() -> None:
    t = table(p2_upgrades=["05027"]).pool("p2", {"p2.05027#1/1": "Sp"})
    t.position["turn"] = "p2"
    step = {
        "by": "p2",
        "do": "resolve",
        "dice": [{"die": "p2.05027#1/1", "target": "p1.05031"}],
        "choices": [may("p2"), {"by": "p2", "kind": "target", "answer": "p1.05046"}],
    }
    r = run(t, step)
    assert r["error"] is None
    assert player(r, "p1")["characters"]["p1.05031"]["damage"] == 2
    assert player(r, "p1")["characters"]["p1.05046"]["damage"] == 2
    assert player(r, "p2")["resources"] == 1


@pytest.mark.rules("destiny.abilities.resolve-fully")
def test_wrist_rockets_second_shot_not_offered_without_resources() -> None:
    t = table(p2_upgrades=["05027"]).pool("p2", {"p2.05027#1/1": "Sp"}).set("p2", resources=0)
    t.position["turn"] = "p2"
    r = run(t, {"by": "p2", "do": "resolve", "dice": [{"die": "p2.05027#1/1", "target": "p1.05031"}]})
    assert r["error"] is None
    assert player(r, "p1")["characters"]["p1.05031"]["damage"] == 2


# ---------------------------------------------------------------------- Force Focus
@pytest.mark.rules("destiny.terms.spot", "destiny.terms.play-restrictions")
def test_force_focus_needs_a_blue_character() -> None:
    t = table().set("p2", hand=["05056"])
    t.position["turn"] = "p2"
    r = run(t, {"by": "p2", "do": "play", "card": "05056", "on": "p2.05019"})
    assert r["error"]["rule"] == "destiny.terms.play-restrictions"


@pytest.mark.rules("destiny.symbols.special", "destiny.terms.turn-die", "destiny.terms.reveal")
def test_force_focus_turns_own_die_then_reveals_for_an_opponents() -> None:
    t = table(p1_upgrades=["05056"]).set("p1", hand=["05102", "05116"])
    t.pool("p1", {"p1.05056#1/1": "Sp", "p1.05031/1": "1R"}).pool("p2", {"p2.05019/1": "2RD"})
    step = {
        "by": "p1",
        "do": "resolve",
        "dice": [{"die": "p1.05056#1/1"}],
        "choices": [
            {"by": "p1", "kind": "turn", "answer": {"p1.05031/1": "2RD"}},
            may("p1"),
            {"by": "p1", "kind": "turn", "answer": {"p2.05019/1": "-"}},
        ],
    }
    r = run(t, step)
    assert r["error"] is None
    assert player(r, "p1")["pool"] == {"p1.05031/1": "2RD"}
    assert player(r, "p2")["pool"] == {"p2.05019/1": "-"}
    assert player(r, "p1")["hand"] == 2


@pytest.mark.rules("destiny.terms.reveal")
def test_force_focus_with_a_hand_the_position_does_not_name_gives_no_ruling() -> None:
    # whether a blue card can be revealed depends on the card the position does not name
    t = table(p1_upgrades=["05056"]).set("p1", hand=["05116", "?"])
    t.pool("p1", {"p1.05056#1/1": "Sp", "p1.05031/1": "1R"}).pool("p2", {"p2.05019/1": "2RD"})
    turn = {"by": "p1", "kind": "turn", "answer": {"p1.05031/1": "2RD"}}
    step = {"by": "p1", "do": "resolve", "dice": [{"die": "p1.05056#1/1"}], "choices": [turn]}
    err = run(t, step)["error"]
    assert (err["kind"], err["rule"]) == ("missing-outcome", "destiny.terms.reveal")
    # with no opponent's die to turn, no card of the hand matters
    t.position["players"]["p2"]["pool"] = {}
    r = run(t, step)
    assert r["error"] is None and player(r, "p1")["pool"] == {"p1.05031/1": "2RD"}


@pytest.mark.rules("destiny.terms.turn-die")
def test_force_focus_cannot_turn_to_a_face_the_die_lacks() -> None:
    t = table(p1_upgrades=["05056"]).pool("p1", {"p1.05056#1/1": "Sp", "p1.05031/1": "1R"})
    step = {
        "by": "p1",
        "do": "resolve",
        "dice": [{"die": "p1.05056#1/1"}],
        "choices": [{"by": "p1", "kind": "turn", "answer": {"p1.05031/1": "3MD"}}],
    }
    assert run(t, step)["error"]["rule"] == "destiny.terms.turn-die"


# ---------------------------------------------------------------------- 74-Z Speeder Bike
@pytest.mark.rules("destiny.actions.card-action", "destiny.dice.resolve-via-card", "destiny.dice.face-cost")
def test_speeder_bike_resolves_its_die_and_a_character_die() -> None:
    t = table(p1_upgrades=["05064"]).pool("p1", {"p1.05064#1/1": "2RD1", "p1.05031/1": "1Sh"})
    step = {
        "by": "p1",
        "do": "use",
        "card": "p1.05064#1",
        "dice": [{"die": "p1.05031/1", "target": "p1.05031"}, {"die": "p1.05064#1/1", "target": "p2.05019"}],
    }
    r = run(t, step)
    assert r["error"] is None
    assert player(r, "p1")["characters"]["p1.05031"]["shields"] == 1
    assert player(r, "p2")["characters"]["p2.05019"]["damage"] == 2
    assert player(r, "p1")["resources"] == 1
    assert player(r, "p1")["pool"] == {}


@pytest.mark.rules("destiny.abilities.resolve-fully")
def test_speeder_bike_must_resolve_a_character_die_when_it_can() -> None:
    t = table(p1_upgrades=["05064"]).pool("p1", {"p1.05064#1/1": "2RD1", "p1.05031/1": "1Sh"})
    step = {
        "by": "p1",
        "do": "use",
        "card": "p1.05064#1",
        "dice": [{"die": "p1.05064#1/1", "target": "p2.05019"}],
    }
    assert run(t, step)["error"]["rule"] == "destiny.abilities.resolve-fully"


@pytest.mark.rules("destiny.dice.resolve-via-card")
def test_speeder_bike_cannot_resolve_another_characters_die() -> None:
    t = table(p1_upgrades=["05064"]).pool("p1", {"p1.05064#1/1": "1F", "p1.05046/1": "1R"})
    step = {
        "by": "p1",
        "do": "use",
        "card": "p1.05064#1",
        "dice": [{"die": "p1.05064#1/1", "turn": {}}, {"die": "p1.05046/1"}],
    }
    assert run(t, step)["error"]["rule"] == "destiny.dice.resolve-via-card"


@pytest.mark.rules("destiny.actions.card-action")
def test_speeder_bike_action_needs_its_die_in_the_pool() -> None:
    t = table(p1_upgrades=["05064"]).pool("p1", {"p1.05031/1": "1Sh"})
    step = {
        "by": "p1",
        "do": "use",
        "card": "p1.05064#1",
        "dice": [{"die": "p1.05031/1", "target": "p1.05031"}],
    }
    assert run(t, step)["error"]["rule"] == "destiny.actions.card-action"


# ---------------------------------------------------------------------- Quickdraw Holster
@pytest.mark.rules("destiny.timing.after", "destiny.terms.choose-any-number")
def test_quickdraw_holster_rerolls_weapon_dice_after_activation() -> None:
    t = table(p1_upgrades=["05167", "05073"])
    step = {
        "by": "p1",
        "do": "activate",
        "card": "p1.05031",
        "roll": ["1R", "1R", "-", "2RD1"],
        "choices": [may("p1"), {"by": "p1", "kind": "dice", "answer": ["p1.05073#1/1"]}],
    }
    r = run(t, step)
    assert r["error"] is None
    assert player(r, "p1")["pool"]["p1.05073#1/1"] == "2RD1"


@pytest.mark.rules("destiny.timing.after", "destiny.abilities.resolve-fully")
def test_quickdraw_holster_asks_only_after_its_characters_activation() -> None:
    t = table(p1_upgrades=["05167", "05073"])
    ruling = ruling_json(
        t.log([{"by": "p1", "do": "activate", "card": "p1.05031", "roll": ["1R", "1R", "-"]}])
    )
    assert ruling["pending"]["by"] == "p1"
    assert ruling["pending"]["source"] == "p1.05167#1"
    r = run(
        t, {"by": "p1", "do": "activate", "card": "p1.05046", "roll": ["1R"], "choices": [may("p1", False)]}
    )
    assert r["error"] is None
