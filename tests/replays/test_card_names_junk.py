"""The card-name readers of every game (judge.games.<game>.names) never raise, whatever JSON a
step, a player entry or a setup holds where a card is named: each value of each example replaced
by values of every JSON type."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from typing import Any

import pytest

from judge.games import registry
from judge.games.base import names_reader
from tests.helpers import EXAMPLE_NAMES, EXAMPLES_DIR

JUNK: tuple[Any, ...] = (None, 1, 2.5, True, "", "p1.", "p1.#/", "p9.Luke Skywalker", "p1.Han Solo", [], [{}],
                         [[1]], {}, {"x": [1]}, {"p1.Luke Skywalker": [1]})


def places(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield path
    if isinstance(value, dict):
        for k, v in value.items():
            yield from places(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value[:3]):
            yield from places(v, (*path, i))


def replaced(root: Any, path: tuple[Any, ...], new: Any) -> Any:
    out = copy.deepcopy(root)
    node = out
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = new
    return out


@pytest.mark.parametrize("name", EXAMPLE_NAMES[::3])
def test_the_name_readers_never_raise(name: str) -> None:
    log = json.loads((EXAMPLES_DIR / name).read_text(encoding="utf-8"))
    game = registry.get(log["game"])
    cards = game.default_cards()
    names = names_reader(game)
    ids = [p["id"] for p in log["players"]]
    for i, step in enumerate(log["steps"][:6]):
        for path in list(places(step))[1:]:
            for junk in JUNK:
                names.step_codes(replaced(step, path, junk), f"/steps/{i}", ids, cards)
    for path in list(places({"players": log["players"], "setup": log["setup"]}))[1:40]:
        for junk in JUNK:
            whole = replaced({"players": log["players"], "setup": log["setup"]}, path, junk)
            if isinstance(whole["players"], list):
                names.setup_codes(whole["players"], whole["setup"], cards)
