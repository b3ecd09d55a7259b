"""Awakenings events: The Best Defense..., Enrage, Intimidate, Nowhere to Run, Ace in the Hole, Heroism,
Daring Escape, Draw Attention, Let The Wookiee Win, Scavenge, Disturbance in the Force, Use The Force, Aim,
Block, Close Quarters Assault, Dodge, Flank, Take Cover, Unpredictable."""

from __future__ import annotations

from typing import Any

import pytest

from judge.games.destiny.cards import default_pool
from judge.games.destiny.table import Table
from replays import format as fmt
from replays.replayer import replay
from tests.judge.destiny.cards.helpers import char, choice, ok, run


def play(code: str, *choices: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {
        "by": "p1",
        "do": "play",
        "card": code,
        **({"choices": list(choices)} if choices else {}),
        **extra,
    }


def table(
    code: str, p1: tuple[str, ...] = ("01002",), p2: tuple[str, ...] = ("01045", "01046"), **kw: Any
) -> Table:
    """p1 holds the event ``code`` (and 5 resources)."""
    t = Table(**kw)
    for c in p1:
        t.character("p1", c)
    for c in p2:
        t.character("p2", c)
    t.set("p1", hand=[code], resources=5)
    return t


def spent(state: dict[str, Any], cost: int) -> None:
    assert state["players"]["p1"]["resources"] == 5 - cost


# ---------------------------------------------------------------------- The Best Defense...
@pytest.mark.rules("destiny.events.resolve-then-discard", "destiny.terms.remove-die")
def test_best_defense_hurts_your_red_character_to_remove_two_dice() -> None:
    t = table("01075").pool("p2", {"p2.01045/1": "2RD", "p2.01046/1": "1R"})
    state = ok(t, play("01075", choice("p1", "dice", ["p2.01045/1", "p2.01046/1"])))
    assert char(state, "p1.01002")["damage"] == 3
    assert state["players"]["p2"]["pool"] == {}
    assert state["players"]["p1"]["discard"] == ["01075"]
    spent(state, 1)


@pytest.mark.rules("destiny.events.no-effect-allowed")
def test_best_defense_without_a_red_character_does_nothing() -> None:
    t = table("01075", p1=("01038",)).pool("p2", {"p2.01045/1": "2RD"})
    state = ok(t, play("01075"))
    assert state["players"]["p2"]["pool"] == {"p2.01045/1": "2RD"}
    assert char(state, "p1.01038")["damage"] == 0


# ---------------------------------------------------------------------- Enrage / Intimidate / Take Cover
@pytest.mark.rules("destiny.events.resolve-then-discard")
def test_enrage_trades_one_damage_for_one_resource() -> None:
    state = ok(table("01081", p1=("01011",)), play("01081"))
    assert char(state, "p1.01011")["damage"] == 1
    spent(state, -1)


@pytest.mark.rules("destiny.terms.choose-target")
def test_intimidate_removes_all_shields() -> None:
    t = table("01084")
    t.player("p2")["characters"]["p2.01045"]["shields"] = 3
    state = ok(t, play("01084", target="p2.01045"))
    assert char(state, "p2.01045")["shields"] == 0


@pytest.mark.rules("destiny.symbols.shield", "destiny.terms.choose-target")
def test_take_cover_gives_one_shield_to_any_character() -> None:
    state = ok(table("01157"), play("01157", choice("p1", "target", "p2.01046")))
    assert char(state, "p2.01046")["shields"] == 1


# ---------------------------------------------------------------------- Nowhere to Run
@pytest.mark.rules("destiny.terms.turn-die")
def test_nowhere_to_run_turns_every_blank_die() -> None:
    t = table("01091", p1=("01002", "01011")).pool("p1", {"p1.01002/1": "-", "p1.01011/1": "-"})
    turns = {"p1.01002/1": "2RD1", "p1.01011/1": "Sp"}
    state = ok(t, play("01091", choice("p1", "turn", turns)))
    assert state["players"]["p1"]["pool"] == turns
    # every blank die must be turned; the Stormtrooper's die has two blanks, so it may stay blank
    err = run(t, play("01091", choice("p1", "turn", {"p1.01002/1": "1R"})))["error"]
    assert err["rule"] == "destiny.terms.turn-die"
    state = ok(t, play("01091", choice("p1", "turn", {"p1.01002/1": "-", "p1.01011/1": "1R"})))
    assert state["players"]["p1"]["pool"]["p1.01002/1"] == "-"


# ---------------------------------------------------------------------- Ace in the Hole
@pytest.mark.rules("destiny.abilities.special-die-without-card", "destiny.delayed.definition")
def test_ace_in_the_hole_rolls_a_discarded_upgrades_die_whose_special_still_works() -> None:
    t = table("01092", p1=("01021",))
    t.set("p1", hand=["01092", "01023"])
    state = ok(t, play("01092", roll=["Sp"]))
    assert state["players"]["p1"]["pool"] == {"p1.01023#0/1": "Sp"}
    assert state["players"]["p1"]["discard"] == ["01023", "01092"]
    resolve = {"by": "p1", "do": "resolve", "dice": [{"die": "p1.01023#0/1", "target": "p2.01046"}]}
    state = ok(t, play("01092", roll=["Sp"]), {"by": "p2", "do": "pass"}, resolve)
    assert state["delayed"][0]["target"] == "p2.01046"
    assert state["players"]["p1"]["pool"] == {}  # set aside once resolved
    assert state["players"]["p1"]["resources"] == 0


@pytest.mark.rules("destiny.events.no-effect-allowed")
def test_ace_in_the_hole_without_a_yellow_upgrade_does_nothing() -> None:
    t = table("01092").set("p1", hand=["01092", "01059"])
    state = ok(t, play("01092"))
    assert state["players"]["p1"]["pool"] == {} and state["players"]["p1"]["hand"] == 1


@pytest.mark.rules("destiny.zones.discard-pile")
def test_ace_in_the_hole_from_a_hand_the_position_does_not_name_gives_no_ruling() -> None:
    # the yellow upgrade discarded may be the card the position does not name
    t = table("01092").set("p1", hand=["01092", "01059", "?"])
    err = run(t, play("01092"))["error"]
    assert (err["kind"], err["rule"]) == ("missing-outcome", "destiny.zones.discard-pile")
    assert err["message"].endswith("list the cards in the position")


# ---------------------------------------------------------------------- Heroism
@pytest.mark.rules("destiny.then.requires-full-resolution", "destiny.terms.remove-die")
def test_heroism_takes_an_opponents_damage_die_onto_a_unique_character() -> None:
    t = table("01117", p1=("01002", "01038")).pool("p2", {"p2.01046/1": "3RD1", "p2.01045/1": "1R"})
    state = ok(t, play("01117"))
    assert char(state, "p1.01038")["damage"] == 3 and char(state, "p1.01002")["damage"] == 0
    assert state["players"]["p2"]["pool"] == {"p2.01045/1": "1R"}


# ---------------------------------------------------------------------- Daring Escape
@pytest.mark.rules("destiny.keywords.ambush", "destiny.then.requires-full-resolution")
def test_daring_escape_rerolls_then_removes_blanks_then_gives_an_action() -> None:
    t = table("01126").pool("p2", {"p2.01045/1": "2RD", "p2.01046/1": "3RD1"})
    state = ok(t, play("01126", choice("p1", "dice", ["p2.01045/1", "p2.01046/1"]), roll=["-", "1R"]))
    assert state["players"]["p2"]["pool"] == {"p2.01046/1": "1R"}
    assert state["extra_action"] == "p1" and state["turn"] == "p1"


# ---------------------------------------------------------------------- Draw Attention
@pytest.mark.rules("destiny.terms.move-damage", "destiny.terms.move")
def test_draw_attention_moves_damage_ignoring_shields() -> None:
    t = table("01128", p1=("01002", "01011", "01038"))
    t.player("p1")["characters"]["p1.01002"]["damage"] = 3
    t.player("p1")["characters"]["p1.01011"]["shields"] = 2
    state = ok(t, play("01128", choice("p1", "target", "p1.01011"), choice("p1", "amount", 2)))
    assert char(state, "p1.01002")["damage"] == 1
    assert char(state, "p1.01011")["damage"] == 2 and char(state, "p1.01011")["shields"] == 2


# ---------------------------------------------------------------------- Let The Wookiee Win
@pytest.mark.rules("destiny.terms.choose-option")
def test_let_the_wookiee_win_the_opponent_chooses_damage() -> None:
    t = table("01130").pool("p2", {"p2.01045/1": "2RD"})
    t.player("p2")["characters"]["p2.01046"]["exhausted"] = True
    state = ok(t, play("01130", choice("p2", "option", "damage")))
    assert char(state, "p2.01046")["damage"] == 2
    assert state["players"]["p2"]["pool"] == {"p2.01045/1": "2RD"}


@pytest.mark.rules("destiny.terms.choose-option")
def test_let_the_wookiee_win_the_opponent_chooses_dice() -> None:
    t = table("01130").pool("p2", {"p2.01045/1": "2RD", "p2.01046/1": "1R"})
    t.player("p2")["characters"]["p2.01046"]["exhausted"] = True
    dice = choice("p2", "dice", ["p2.01045/1", "p2.01046/1"])
    state = ok(t, play("01130", choice("p2", "option", "remove-dice"), dice))
    assert state["players"]["p2"]["pool"] == {}
    assert char(state, "p2.01046")["damage"] == 0


# ---------------------------------------------------------------------- Scavenge
def _position(t: Table, *steps: dict[str, Any]) -> dict[str, Any]:
    pool = default_pool()
    result = replay(fmt.parse_log(t.log(list(steps)), pool), pool)
    assert result.error is None and result.state is not None
    return result.state.position()


@pytest.mark.rules("destiny.then.requires-full-resolution")
def test_scavenge_discards_three_then_takes_back_an_upgrade() -> None:
    t = table("01132").set("p1", hand=["01132"], deck=["01155", "01059", "01157", "01153"])
    pos = _position(t, play("01132", choice("p1", "may", True), choice("p1", "card", "01059")))
    me = pos["players"]["p1"]
    assert me["hand"] == ["01059"] and me["deck"] == ["01153"]
    assert me["discard"] == ["01155", "01157", "01132"]


@pytest.mark.rules("destiny.then.requires-full-resolution", "destiny.draw.insufficient")
def test_scavenge_with_a_short_deck_takes_nothing() -> None:
    t = table("01132").set("p1", hand=["01132"], deck=["01059", "01157"], discard=["01061"])
    pos = _position(t, play("01132"))
    me = pos["players"]["p1"]
    assert me["hand"] == [] and me["deck"] == []
    assert me["discard"] == ["01061", "01059", "01157", "01132"]


# ---------------------------------------------------------------------- Disturbance in the Force
@pytest.mark.rules("destiny.events.resolve-then-discard")
def test_disturbance_rerolls_every_die() -> None:
    t = table("01146").pool("p1", {"p1.01002/1": "1R"}).pool("p2", {"p2.01045/1": "2RD"})
    state = ok(t, play("01146", roll=["-", "1Sh"]))
    assert state["players"]["p1"]["pool"] == {"p1.01002/1": "-"}
    assert state["players"]["p2"]["pool"] == {"p2.01045/1": "1Sh"}


# ---------------------------------------------------------------------- Use The Force
@pytest.mark.rules("destiny.terms.spot", "destiny.terms.turn-die")
def test_use_the_force_turns_any_die_when_a_blue_character_is_spotted() -> None:
    t = table("01149", p1=("01011",)).pool("p2", {"p2.01045/1": "2RD"})
    state = ok(t, play("01149", choice("p1", "turn", {"p2.01045/1": "-"})))
    assert state["players"]["p2"]["pool"] == {"p2.01045/1": "-"}


@pytest.mark.rules("destiny.terms.spot-own-only")
def test_use_the_force_without_your_own_blue_character_does_nothing() -> None:
    t = table("01149", p1=("01002",), p2=("01011",)).pool("p2", {"p2.01011/1": "2MD1"})
    state = ok(t, play("01149"))
    assert state["players"]["p2"]["pool"] == {"p2.01011/1": "2MD1"}
    spent(state, 1)


# ---------------------------------------------------------------------- Aim
@pytest.mark.rules("destiny.terms.turn-die", "destiny.terms.showing-modifier-faces")
def test_aim_turns_one_of_your_dice_to_ranged_damage() -> None:
    t = table("01151").pool("p1", {"p1.01002/1": "-"})
    state = ok(t, play("01151", choice("p1", "turn", {"p1.01002/1": "2RD1"})))
    assert state["players"]["p1"]["pool"] == {"p1.01002/1": "2RD1"}
    err = run(t, play("01151", choice("p1", "turn", {"p1.01002/1": "1R"})))["error"]
    assert err["rule"] == "destiny.terms.turn-die"


# ---------------------------------------------------------------------- Block / Dodge
@pytest.mark.rules("destiny.terms.showing-modifier-faces", "destiny.terms.remove-die")
def test_block_removes_only_melee_dice() -> None:
    t = table("01153", p2=("01038", "01045"), turn="p1").pool(
        "p2", {"p2.01038/1": "+2MD", "p2.01045/1": "2RD"}
    )
    state = ok(t, play("01153"))
    assert state["players"]["p2"]["pool"] == {"p2.01045/1": "2RD"}


@pytest.mark.rules("destiny.terms.remove-die")
def test_dodge_removes_only_ranged_dice() -> None:
    t = table("01155", p2=("01038", "01045")).pool("p2", {"p2.01038/1": "+2MD", "p2.01045/1": "2RD"})
    state = ok(t, play("01155"))
    assert state["players"]["p2"]["pool"] == {"p2.01038/1": "+2MD"}


# ---------------------------------------------------------------------- Close Quarters Assault
@pytest.mark.rules("destiny.symbols.discard")
def test_close_quarters_assault_discards_one_random_card_per_melee_die() -> None:
    t = table("01154", p1=("01011", "01038")).pool("p1", {"p1.01011/1": "1MD", "p1.01038/1": "+2MD"})
    t.set("p2", hand=["01155", "01153", "01157"])
    state = ok(t, play("01154", random=["01153", "01157"]))
    assert state["players"]["p2"]["hand"] == 1
    assert state["players"]["p2"]["discard"] == ["01153", "01157"]


# ---------------------------------------------------------------------- Flank
@pytest.mark.rules("destiny.terms.play-restrictions")
def test_flank_needs_more_ready_characters_than_the_opponent() -> None:
    t = table("01156", p1=("01002", "01011")).pool("p2", {"p2.01045/1": "2RD"})
    t.player("p2")["characters"]["p2.01046"]["exhausted"] = True
    state = ok(t, play("01156"))
    assert state["players"]["p2"]["pool"] == {}
    t.player("p2")["characters"]["p2.01046"]["exhausted"] = False
    err = run(t, play("01156"))["error"]
    assert err["rule"] == "destiny.terms.play-restrictions"


# ---------------------------------------------------------------------- Unpredictable
@pytest.mark.rules("destiny.keywords.ambush", "destiny.actions.extra-actions-immediate")
def test_unpredictable_rerolls_a_die_and_gives_an_extra_action() -> None:
    t = table("01162").pool("p2", {"p2.01045/1": "2RD"})
    state = ok(t, play("01162", target="p2.01045/1", roll=["1Sh"]))
    assert state["players"]["p2"]["pool"] == {"p2.01045/1": "1Sh"}
    assert state["extra_action"] == "p1"
    state = ok(t, play("01162", target="p2.01045/1", roll=["1Sh"]), {"by": "p1", "do": "pass"})
    assert state["turn"] == "p2"
