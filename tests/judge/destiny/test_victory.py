"""Victory: all characters defeated, decking out, both decking out, and nothing after the end."""

from __future__ import annotations

import pytest

from tests.judge.destiny.tablehelp import Table, error, player, run

PASS1 = {"by": "p1", "do": "pass"}
PASS2 = {"by": "p2", "do": "pass"}


def last_trooper() -> Table:
    t = Table()
    t.character("p1", "05031", dice=2)
    t.character("p2", "05013", damage=7)
    t.character("p2", "05019", dice=2, defeated=True)
    t.pool("p1", {"p1.05031/1": "2RD"})
    return t


SHOOT = {"by": "p1", "do": "resolve", "dice": [{"die": "p1.05031/1", "target": "p2.05013"}]}


@pytest.mark.rules("destiny.victory.all-defeated")
def test_defeating_the_last_character_ends_the_game() -> None:
    r = run(last_trooper().log([SHOOT]))
    assert r["valid"] is True and r["error"] is None
    assert r["outcome"] == {"winner": "p1", "reason": "all-defeated",
                            "rules": ["destiny.victory.all-defeated"]}
    assert r["final_state"]["phase"] == "over" and r["final_state"]["turn"] is None


@pytest.mark.rules("destiny.victory.all-defeated")
def test_a_step_after_the_end_is_rejected() -> None:
    err = error(last_trooper().log([SHOOT, PASS2]))
    assert err is not None and (err["at"], err["kind"], err["rule"]) == (2, "illegal-action",
                                                                         "destiny.victory.all-defeated")


@pytest.mark.rules("destiny.victory.all-defeated")
def test_a_player_with_a_character_left_plays_on() -> None:
    t = last_trooper()
    t.player("p2")["characters"]["p2.05019"]["defeated"] = False
    r = run(t.log([SHOOT]))
    assert r["outcome"] is None and r["final_state"]["turn"] == "p2"


def empty_handed(p1_deck: list[str], p2_deck: list[str], controller: str = "p1") -> Table:
    t = Table(controller=controller, turn=controller)
    t.character("p1", "05031", dice=2)
    t.character("p2", "05013")
    t.set("p1", hand=[], deck=p1_deck)
    t.set("p2", hand=[], deck=p2_deck)
    return t


@pytest.mark.rules("destiny.victory.deck-out", "destiny.draw.insufficient")
def test_no_hand_and_no_deck_at_the_end_of_the_round_loses() -> None:
    r = run(empty_handed(["05073"], []).log([PASS1, PASS2]))
    assert r["outcome"] == {"winner": "p1", "reason": "deck-out", "rules": ["destiny.victory.deck-out"]}


@pytest.mark.rules("destiny.victory.deck-out")
def test_running_out_mid_round_is_not_yet_a_loss() -> None:
    r = run(empty_handed(["05073"], []).log([PASS1]))
    assert r["outcome"] is None and r["final_state"]["phase"] == "action"


@pytest.mark.rules("destiny.victory.deck-out", "destiny.round.upkeep")
def test_a_card_drawn_in_upkeep_saves_the_player() -> None:
    r = run(empty_handed(["05073"], ["05058"]).log([PASS1, PASS2]))
    assert r["outcome"] is None and r["final_state"]["round"] == 2
    assert player(r["final_state"], "p2")["hand"] == 1


@pytest.mark.rules("destiny.victory.deck-out-both", "destiny.battlefields.single-controller")
@pytest.mark.parametrize("controller", ["p1", "p2"])
def test_both_decked_out_the_battlefield_controller_wins(controller: str) -> None:
    first, second = ({"by": controller, "do": "pass"},
                     {"by": "p2" if controller == "p1" else "p1", "do": "pass"})
    r = run(empty_handed([], [], controller).log([first, second]))
    assert r["outcome"]["winner"] == controller and r["outcome"]["reason"] == "deck-out-both"
    assert "destiny.victory.deck-out-both" in r["outcome"]["rules"]


@pytest.mark.rules("destiny.victory.deck-out-both", "destiny.actions.claim-battlefield")
def test_the_controller_at_the_end_of_the_round_wins_a_double_deck_out() -> None:
    # p1 controlled the battlefield when the round began; p2 claims it
    steps = [PASS1, {"by": "p2", "do": "claim", "claim_ability": False}, PASS1]
    r = run(empty_handed([], [], "p1").log(steps))
    assert r["outcome"]["winner"] == "p2" and r["outcome"]["reason"] == "deck-out-both"


@pytest.mark.rules("destiny.victory.deck-out")
def test_a_step_after_a_deck_out_is_rejected() -> None:
    err = error(empty_handed(["05073"], []).log([PASS1, PASS2, PASS1]))
    assert err is not None and (err["at"], err["rule"]) == (3, "destiny.victory.deck-out")
