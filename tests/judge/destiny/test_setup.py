"""A game from the beginning (destiny.setup.*): deck orders, the battlefield roll, compensation."""

from __future__ import annotations

from typing import Any

import pytest

from tests.judge.destiny.tablehelp import error, player, position_of, ruling_json, run

DECK1 = ["05073", "05058", "05072", "05116", "05122", "05073", "05058"]
DECK2 = ["05058", "05073", "05116", "05072", "05122", "05058", "05073"]


def game(setup: dict[str, Any], steps: list | None = None, rng: str | None = None,
         p1_chars: list | None = None) -> dict[str, Any]:
    log: dict[str, Any] = {
        "format": "arbiter.replay/1",
        "game": "destiny",
        "meta": {"format": "sandbox"},
        "players": [
            {"id": "p1", "name": "Ana", "characters": p1_chars or [{"card": "05031", "dice": 2}],
             "battlefield": "05178", "deck": list(DECK1)},
            {"id": "p2", "name": "Ben",
             "characters": [{"card": "05019", "dice": 2}, {"card": "05013", "dice": 1}],
             "battlefield": "05174", "deck": list(DECK2)},
        ],
        "setup": setup,
        "steps": steps or [],
    }
    if rng:
        log["rng"] = {"algorithm": "sha256-ctr", "seed": rng}
    return log


# p1 rolls Luke's two dice (2RD + 2RD = 4); p2 rolls Boba's two and the trooper's (1R + 1R + 1R = 3)
P1_WINS = {"p1": ["2RD", "2RD"], "p2": ["1R", "1R", "1R"]}
P2_WINS = {"p1": ["1RD", "-"], "p2": ["2RD", "2MD", "3ID"]}
TIE = {"p1": ["2RD", "1RD"], "p2": ["1R", "1Dr", "1RD"]}
BASE = {"decks": {"p1": DECK1, "p2": DECK2}, "battlefield_roll": [P1_WINS], "battlefield": "p1",
        "shields": {"p2": {"p2.05019": 1, "p2.05013": 1}}}


@pytest.mark.rules("destiny.setup.opening-hand", "destiny.setup.resources", "destiny.setup.order")
def test_explicit_deck_orders_give_the_opening_hands() -> None:
    pos, _ = position_of(game(BASE))
    assert pos["players"]["p1"]["hand"] == DECK1[:5] and pos["players"]["p1"]["deck"] == DECK1[5:]
    assert pos["players"]["p2"]["hand"] == DECK2[:5]
    assert pos["players"]["p1"]["resources"] == 2 and pos["players"]["p2"]["resources"] == 2
    assert (pos["round"], pos["phase"], pos["turn"]) == (1, "action", "p1")


@pytest.mark.rules("destiny.setup.opening-hand")
def test_a_deck_order_must_be_that_players_deck() -> None:
    err = error(game({**BASE, "decks": {"p1": ["05116"] * 7, "p2": DECK2}}))
    assert err is not None and err["at"] == 0 and err["rule"] == "destiny.setup.opening-hand"


@pytest.mark.rules("destiny.setup.opening-hand", "destiny.setup.battlefield-roll")
def test_without_orders_or_rng_setup_is_a_missing_outcome() -> None:
    err = error(game({"battlefield": "p1"}))
    assert err is not None and (err["at"], err["kind"]) == (0, "missing-outcome")


@pytest.mark.rules("destiny.setup.opening-hand", "destiny.setup.battlefield-roll")
def test_with_rng_the_random_outcomes_are_drawn_repeatably() -> None:
    log = game({"battlefield": "p1", "shields": {"p2": {"p2.05019": 2}}}, rng="table-12")
    a, b = run(log), run(log)
    assert a["error"] is None or a["error"]["kind"] == "pending-decision"
    assert a["final_state_hash"] == b["final_state_hash"]
    other = run(game({"battlefield": "p1", "shields": {"p2": {"p2.05019": 2}}}, rng="table-13"))
    assert other["final_state_hash"] != a["final_state_hash"]


@pytest.mark.rules("destiny.setup.mulligan")
def test_a_mulligan_shuffles_back_and_draws_as_many() -> None:
    back = DECK1[:2]
    new_order = [*DECK1[5:], *back]
    pos, _ = position_of(game({**BASE, "mulligan": {"p1": back}, "mulligan_decks": {"p1": new_order}}))
    assert pos["players"]["p1"]["hand"] == [*DECK1[2:5], *new_order[:2]]
    assert len(pos["players"]["p1"]["deck"]) == 2


@pytest.mark.rules("destiny.setup.battlefield-roll", "destiny.battlefields.first-action")
def test_a_tied_battlefield_roll_is_repeated() -> None:
    log = game({**BASE, "battlefield_roll": [TIE, P2_WINS], "battlefield": "p2", "shields": {}})
    events = ruling_json(log, at=0)["events"]
    rolls = [e for e in events if e["event"] == "battlefield-roll"]
    assert [r["try"] for r in rolls] == [1, 2]
    assert rolls[0]["totals"] == {"p1": 3, "p2": 3}
    chosen = next(e for e in events if e["event"] == "battlefield-chosen")
    assert chosen["by"] == "p2"
    pos, _ = position_of(log)
    assert pos["battlefield"]["card"] == "05174" and pos["turn"] == "p2"


@pytest.mark.rules("destiny.setup.battlefield-roll")
def test_a_missing_battlefield_choice_is_the_roll_winners_decision() -> None:
    setup = {k: v for k, v in BASE.items() if k != "battlefield"}
    for rolls, winner in (([P1_WINS], "p1"), ([TIE, P2_WINS], "p2")):
        err = error(game({**setup, "battlefield_roll": rolls}))
        assert err is not None and err["kind"] == "pending-decision" and err["at"] == 0
        assert err["pending"]["by"] == winner and err["pending"]["kind"] == "battlefield"
        assert set(err["pending"]["options"]) == {"p1", "p2"}


@pytest.mark.rules("destiny.setup.battlefield-roll", "destiny.battlefields.single-controller")
def test_the_winner_may_choose_the_opponents_battlefield() -> None:
    log = game({**BASE, "battlefield": "p2", "shields": {"p1": {"p1.05031": 2}}})
    pos, _ = position_of(log)
    assert pos["battlefield"]["card"] == "05174" and pos["battlefield"]["controller"] == "p2"
    assert pos["turn"] == "p2"
    assert pos["players"]["p1"]["characters"]["p1.05031"]["shields"] == 2


@pytest.mark.rules("destiny.setup.battlefield-compensation")
def test_the_loser_of_the_battlefield_places_two_shields() -> None:
    pos, _ = position_of(game(BASE))
    chars = pos["players"]["p2"]["characters"]
    assert (chars["p2.05019"]["shields"], chars["p2.05013"]["shields"]) == (1, 1)
    assert pos["players"]["p1"]["characters"]["p1.05031"]["shields"] == 0


@pytest.mark.rules("destiny.setup.battlefield-compensation")
def test_a_missing_shield_placement_is_asked_of_that_player() -> None:
    err = error(game({**BASE, "shields": {}}))
    assert err is not None and err["kind"] == "pending-decision"
    assert err["pending"]["by"] == "p2" and err["pending"]["kind"] == "shields"
    assert err["pending"]["rules"] == ["destiny.setup.battlefield-compensation"]


@pytest.mark.rules("destiny.setup.battlefield-compensation")
def test_a_single_character_takes_both_shields_without_asking() -> None:
    log = game({**BASE, "battlefield": "p2", "shields": {}})
    assert position_of(log)[0]["players"]["p1"]["characters"]["p1.05031"]["shields"] == 2


@pytest.mark.rules("destiny.setup.battlefield-compensation")
@pytest.mark.parametrize("split", [{"p2.05019": 2, "p2.05013": 1}, {"p2.05019": 3, "p2.05013": -1},
                                   {"p1.05031": 2}])
def test_the_shields_are_exactly_two_on_own_characters(split: dict[str, int]) -> None:
    err = error(game({**BASE, "shields": {"p2": split}}))
    assert err is not None and err["rule"] == "destiny.setup.battlefield-compensation"


@pytest.mark.rules("destiny.setup.return-dice", "destiny.setup.characters")
def test_the_battlefield_roll_leaves_no_dice_in_the_pools() -> None:
    state = run(game(BASE))["final_state"]
    assert player(state, "p1")["pool"] == {} and player(state, "p2")["pool"] == {}
