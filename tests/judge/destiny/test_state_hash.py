"""State views, positions and the state hash (spec section 5)."""

from __future__ import annotations

import re

import pytest

from tests.judge.destiny.tablehelp import Table, position_of, run


def table(deck: list[str], hand: list[str] | None = None) -> Table:
    t = Table()
    t.character("p1", "05031", dice=2, upgrades=["05073"])
    t.character("p2", "05046", dice=2)
    t.set("p1", deck=deck, hand=hand or ["05116"])
    t.set("p2", deck=["05058"] * 4, hand=["05072"], resources=4)
    return t


STEPS = [
    {"by": "p1", "do": "activate", "card": "p1.05031", "roll": ["1RD", "1Sh", "1Dr"]},
    {"by": "p2", "do": "play", "card": "05072", "on": "p2.05046", "choices": [{"by": "p2", "kind": "may",
                                                                                 "answer": False}]},
]


@pytest.mark.rules("destiny.zones.deck")
def test_the_hash_is_deterministic_and_well_formed() -> None:
    log = table(["05073", "05058"]).log(STEPS)
    a, b = run(log), run(log)
    assert a["final_state_hash"] == b["final_state_hash"]
    assert re.fullmatch(r"sha256:[0-9a-f]{64}", a["final_state_hash"])


@pytest.mark.rules("destiny.zones.deck", "destiny.zones.hand-hidden")
def test_hidden_information_changes_the_hash_but_not_the_view() -> None:
    a = run(table(["05073", "05058"]).log(STEPS))
    b = run(table(["05058", "05073"]).log(STEPS))
    c = run(table(["05073", "05058"], hand=["05058"]).log(STEPS))
    assert a["final_state"] == b["final_state"] == c["final_state"]
    assert len({a["final_state_hash"], b["final_state_hash"], c["final_state_hash"]}) == 3


@pytest.mark.rules("destiny.zones.hand-hidden", "destiny.zones.resources-public")
def test_the_public_view_counts_hand_and_deck() -> None:
    view = run(table(["05073", "05058"]).log([]))["final_state"]
    assert (view["players"]["p1"]["hand"], view["players"]["p1"]["deck"]) == (1, 2)
    assert view["players"]["p2"]["resources"] == 4


@pytest.mark.rules("destiny.keywords.ambush", "destiny.actions.power-action")
def test_a_position_replays_to_the_same_hash() -> None:
    """A state written as a position and read back is the same state: same hash, same view."""
    t = table(["05073", "05058"])
    t.set("p1", resources=6)
    steps = [*STEPS, {"by": "p2", "do": "pass"},
             {"by": "p1", "do": "use", "card": "p1.05031",
              "dice": [{"die": "p1.05031/1", "target": "p2.05046"}]}]
    log = t.log(steps)
    pos, digest = position_of(log)
    assert pos["players"]["p1"].get("power_used") == ["p1.05031"]
    again = Table()
    again.position = pos
    pos2, digest2 = position_of(again.log([]))
    assert pos2 == pos and digest2 == digest
    # and mid-Ambush (an extra action pending)
    pos, digest = position_of(t.log(STEPS))
    assert pos.get("extra_action") == "p2"
    again.position = pos
    assert position_of(again.log([]))[1] == digest


@pytest.mark.rules("destiny.zones.discard-pile")
def test_a_position_with_exhausted_upgrades_round_trips() -> None:
    t = table(["05073"])
    t.player("p1")["upgrades"] = {"p1.05073#1": {"exhausted": True}}
    pos, digest = position_of(t.log([]))
    assert pos["players"]["p1"]["upgrades"]["p1.05073#1"]["exhausted"] is True
    again = Table()
    again.position = pos
    assert position_of(again.log([]))[1] == digest
