"""Extra actions (destiny.actions.extra-actions-immediate): each one given is taken, or passed, at
once and in turn; two given together are two (the FAQ, Rey (38): "If you play an upgrade with
Ambush on Rey, you may take two additional actions during your turn")."""

from __future__ import annotations

from typing import Any

import pytest

from judge.games import registry
from replays.service import replay_json

GAME = registry.get("destiny")
TABLE = """round 2
turn p1
battlefield p1 Outer Rim Outpost
p1 Ana: resources 5, hand Hidden Blaster; Comlink, deck 10
p1 character Rey: 1 dice
p1 character Finn: 1 dice
p2 Ben: resources 2, hand 3, deck 12
p2 character First Order Stormtrooper: 1 dice
ask p1 play Hidden Blaster on Rey
"""
# Hidden Blaster's Ambush and Rey's "you may take an extra action" (after an upgrade is played on her)
CHOICES = [{"by": "p1", "kind": "order", "answer": ["p1.05072#1", "p1.01038"]},
           {"by": "p1", "kind": "may", "answer": False}, {"by": "p1", "kind": "may", "answer": True}]


def _log(*more: dict[str, Any]) -> dict[str, Any]:
    spec, faults = GAME.quick_text(TABLE)
    assert faults == []
    log, faults = GAME.quick_log(spec, GAME.default_cards())
    assert faults == [] and log is not None
    log["steps"][0]["choices"] = CHOICES
    log["steps"] += list(more)
    return log


@pytest.mark.rules("destiny.actions.extra-actions-immediate", "destiny.keywords.ambush")
def test_two_extra_actions_given_together_are_both_taken_in_turn() -> None:
    finn = {"by": "p1", "do": "activate", "card": "p1.01045", "roll": ["1R"]}
    rey = {"by": "p1", "do": "activate", "card": "p1.01038", "roll": ["1R", "1R"]}
    first = replay_json(_log())
    assert first["valid"], first["error"]
    assert first["final_state"]["extra_action"] == "p1" and first["final_state"]["extra_more"] == 1
    both = replay_json(_log(finn, rey))
    assert both["valid"], both["error"]
    assert both["final_state"]["turn"] == "p2" and "extra_action" not in both["final_state"]
    third = replay_json(_log(finn, rey, {"by": "p1", "do": "activate", "card": "p1.01045", "roll": ["1R"]}))
    assert not third["valid"] and third["error"]["at"] == 4
    # passing the first leaves the second, still to take at once
    passed = replay_json(_log({"by": "p1", "do": "pass"}, rey))
    assert passed["valid"], passed["error"]
    assert passed["final_state"]["turn"] == "p2"


@pytest.mark.rules("destiny.actions.extra-actions-immediate")
def test_a_position_says_how_many_more_extra_actions_wait() -> None:
    from replays.format import parse_log
    from replays.replayer import replay

    log = _log()
    result = replay(parse_log(log), GAME.default_cards())
    assert result.error is None and result.state is not None
    position = result.state.position()
    assert position["extra_action"] == "p1" and position["extra_more"] == 1
    back, faults = GAME.from_position(position, log["players"], GAME.default_cards())
    assert faults == [] and back is not None and back.position() == position
    for bad in ({**position, "extra_more": 0.5}, {**position, "extra_more": 10},
                {**{k: v for k, v in position.items() if k != "extra_action"}, "extra_more": 1}):
        state, faults = GAME.from_position(bad, log["players"], GAME.default_cards())
        assert state is None and [p for p, _ in faults] == ["/setup/position/extra_more"], faults
