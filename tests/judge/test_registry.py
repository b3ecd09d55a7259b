"""The registry's games: read from ``sys.modules`` once imported, as the import machinery gives them."""

from __future__ import annotations

import importlib

import pytest

from judge.games import registry


@pytest.mark.parametrize("game_id", sorted(registry.WRITTEN))
def test_get_is_the_imported_modules_game(game_id: str) -> None:
    first = registry.get(game_id)  # (imported now, or already)
    again = registry.get(game_id)  # (read from sys.modules)
    assert first is again is importlib.import_module(registry.WRITTEN[game_id]).GAME
    assert first.id == game_id


def test_unknown_game() -> None:
    with pytest.raises(registry.UnknownGame):
        registry.get("no-such-game")
