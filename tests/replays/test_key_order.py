"""An object's key order is not part of a log: the content address sorts keys, so a log posted with
its keys in any order (or read back from the store, sorted) must replay, rule and draw the same."""

from __future__ import annotations

import json
import sys
from typing import Any

import pytest

from replays.format import sorted_keys
from replays.service import log_id, replay_json, ruling_json, timeline_json
from replays.viewer import viewer_json
from tests.helpers import EXAMPLE_NAMES, load_example


def reversed_keys(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: reversed_keys(value[k]) for k in reversed(list(value))}
    if isinstance(value, list):
        return [reversed_keys(v) for v in value]
    return value


@pytest.mark.parametrize("name", EXAMPLE_NAMES)
def test_key_order_changes_nothing(name: str) -> None:
    log = load_example(name)
    other = reversed_keys(log)
    assert json.dumps(other) != json.dumps(log)  # the orders differ indeed
    assert log_id(other) == log_id(log)
    assert replay_json(other) == replay_json(log)
    assert json.dumps(timeline_json(other), sort_keys=True) == json.dumps(timeline_json(log), sort_keys=True)
    assert json.dumps(viewer_json(other), sort_keys=True) == json.dumps(viewer_json(log), sort_keys=True)
    assert ruling_json(other) == ruling_json(log)


def test_sorted_keys_sorts_every_object_and_keeps_lists() -> None:
    value = {"b": [{"z": 1, "a": 2}, 3], "a": {"y": None, "x": [2, 1]}}
    out = sorted_keys(value)
    assert out == value
    assert json.dumps(out) == '{"a": {"x": [2, 1], "y": null}, "b": [{"a": 2, "z": 1}, 3]}'
    depth = sys.getrecursionlimit() + 100  # iterative: deeper than recursion could go
    deep: Any = []
    node = deep
    for _ in range(depth):
        node.append({"b": 1, "a": []})
        node = node[0]["a"]
    out, seen = sorted_keys(deep), 0
    while out:
        assert list(out[0]) == ["a", "b"]
        out, seen = out[0]["a"], seen + 1
    assert seen == depth
