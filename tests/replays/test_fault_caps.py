"""However many faults a log has, reading it stops at MAX_FAULTS, and a replay whose checkpoints all
fail keeps a result of bounded size (bench/bench_limits.py found 30 s and 2 GB before these caps)."""

from __future__ import annotations

import copy

import pytest

from judge.limits import MAX_FAULTS
from replays.errors import MalformedLog
from replays.format import parse_log
from replays.replayer import CHECKPOINT_MESSAGE_CHARS
from replays.service import replay_json
from tests.helpers import load_example


def test_reading_stops_after_max_faults_steps_with_near_miss_card_codes() -> None:
    log = copy.deepcopy(load_example("shields-cap.json"))
    # a card code one digit off a known one: each fault searches for the nearest known code
    log["steps"] = [{"by": "p1", "do": "play", "card": "05032" if i % 2 else "99931"} for i in range(5_000)]
    with pytest.raises(MalformedLog) as caught:
        parse_log(log)
    faults = caught.value.faults
    assert MAX_FAULTS <= len(faults) <= MAX_FAULTS + 20  # the last step read may add a few
    assert "MAX_FAULTS" in faults[-1].message
    assert faults[-1].path.startswith("/steps/")


def test_a_replay_whose_every_checkpoint_fails_keeps_a_bounded_result() -> None:
    log = copy.deepcopy(load_example("shields-cap.json"))
    position = log["setup"]["position"]
    position["players"]["p1"]["deck"] = ["05058", "05072"] * 75  # a long deck for the message to quote
    wrong = {"players": {"p1": {"resources": 99, "deck": ["05073"] * 150}}}
    log["steps"] = [{"by": "p1" if i % 2 == 0 else "p2", "do": "pass", "expect": {"state": wrong}}
                    for i in range(2 * MAX_FAULTS)]
    result = replay_json(log)
    assert result["steps"] == 2 * MAX_FAULTS and not result["valid"]
    failed = result["checkpoints"]["failed"]
    assert [f["at"] for f in failed] == list(range(1, 2 * MAX_FAULTS + 1))  # every failure is counted
    assert sum(1 for f in failed if f["expected"]) == MAX_FAULTS  # the details of the first MAX_FAULTS
    assert all(len(f["message"]) <= CHECKPOINT_MESSAGE_CHARS + 40 for f in failed)
    assert "more characters" in failed[0]["message"]  # the message was cut, not short to begin with
    assert len(result["error"]["message"]) <= CHECKPOINT_MESSAGE_CHARS + 40
