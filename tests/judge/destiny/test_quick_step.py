"""A log's reader asks ``quick_step`` first (judge.games.destiny.steps.quick_step, the game's optional
``quick_step``) and calls ``parse_step``, with the step's JSON Pointer, only for the steps it does not
read at once: what it reads must be what ``parse_step`` reads, and a log must read the same either
way."""

from __future__ import annotations

from typing import Any

from judge.games.destiny import steps as st_
from judge.games.destiny.game import Destiny
from judge.games.inputs import NO_INPUTS, parse_inputs
from replays.format import parse_log
from tests.replays.samples import POOL, corpus

CORPUS = corpus()

ODD: list[Any] = [
    None, [], "pass", 3,
    {"by": "p1", "do": "pass"},
    {"by": "p1", "do": "pass", "note": 3},
    {"by": "p1", "do": "pass", "expect": {"hash": "sha256:x"}},
    {"by": "p3", "do": "pass"},
    {"by": "p1", "do": "claim", "card": "05116"},
    {"by": "p1", "do": "activate", "card": "p1.05031", "roll": ["1RD"], "choices": [{"answer": True}]},
    {"by": "p1", "do": "resolve", "dice": [{"die": "p1.05031/1", "target": "p2"}], "dispute": "why?"},
    {"by": "p1", "do": "reroll", "discard": "05116", "dice": ["p1.05031/1"]},
    {"by": "p1", "do": "play", "card": "05058", "on": "p1.05031"},
    {"by": "p1", "do": "play", "card": "Nope"},
    {"by": "p1", "do": "use", "card": "p1.05031"},
    {"do": "upkeep"},
    # an input or an annotation where the verb's own key should be (no more keys than the verb's own,
    # QUICK_OWN_KEYS: quick_step does not count them, and must still not read such a step)
    {"by": "p1", "do": "activate", "roll": ["1RD"]},
    {"by": "p1", "do": "use", "note": "x"},
    {"by": "p1", "do": "resolve", "expect": {"hash": "sha256:x"}},
    {"by": "p1", "do": "reroll", "discard": "05116", "random": [0]},
    {"by": "p1", "do": "reroll", "dice": ["p1.05031/1"], "dispute": "why?"},
    {"by": "p1", "do": "play", "choices": [{"answer": "p1.05031"}]},
    {"by": "p1", "do": "claim", "note": "x"},
    {"by": "p1", "do": "pass", "roll": ["1RD"]},
]

# steps with inputs or annotations beside the verb's own keys, which quick_step reads
WITH_INPUTS: list[Any] = [
    {"by": "p1", "do": "play", "card": "05058", "choices": [{"answer": "p1.05031"}]},
    {"by": "p1", "do": "play", "card": "05058", "on": "p1.05031", "note": "x"},
    {"by": "p1", "do": "activate", "card": "p1.05031", "roll": ["1RD"]},
    {"by": "p1", "do": "reroll", "discard": "05116", "dice": ["p1.05031/1"], "expect": {"hash": "sha256:" + "0" * 64}},
    {"by": "p1", "do": "claim", "choices": [{"answer": True}]},
    {"by": "p1", "do": "pass", "note": "x"},
]


def test_quick_step_reads_what_parse_step_reads() -> None:
    read = 0
    steps = [(ids, step) for _, log in CORPUS for ids in [[p["id"] for p in log["players"]]]
             for step in log["steps"]]
    for ids, step in steps + [(["p1", "p2"], step) for step in ODD]:
        quick = st_.quick_step(step, ids, POOL)
        full, faults = st_.parse_step(step, "/steps/0", ids, POOL)
        if quick is not None:
            read += 1
            assert not faults and type(quick) is type(full) and quick == full, step
    assert read > len(steps) // 2  # most steps are read at once
    assert Destiny().quick_step(ODD[4], ["p1", "p2"], POOL) == st_.Pass("p1")  # the game's, which a log's reader asks


def test_quick_step_reads_steps_with_inputs_or_annotations_beside_their_own_keys() -> None:
    for step in WITH_INPUTS:
        quick = st_.quick_step(step, ["p1", "p2"], POOL)
        full, faults = st_.parse_step(step, "/steps/0", ["p1", "p2"], POOL)
        assert not faults and quick is not None and type(quick) is type(full) and quick == full, step


def test_a_log_reads_the_same_as_parse_step_reads_each_step() -> None:
    for name, data in CORPUS:
        log = parse_log(data, POOL)
        ids = [p["id"] for p in log.players]
        assert len(log.actions) == len(log.steps) == len(log.inputs), name
        for i, step in enumerate(log.steps):
            full, faults = st_.parse_step(step, f"/steps/{i}", ids, POOL)
            assert not faults and log.actions[i] == full and type(log.actions[i]) is type(full), (name, i)
            if "choices" in step or "roll" in step or "random" in step:
                want = parse_inputs(step, f"/steps/{i}", ids, [])
                assert log.inputs[i] is not NO_INPUTS and log.inputs[i] == want, (name, i)
            else:
                assert log.inputs[i] is NO_INPUTS, (name, i)

