"""The games Arbiter knows, chosen by a log's ``game`` field. Adding a game: one package under
``judge/games/`` whose ``game`` module defines ``GAME`` (the ``Game`` interface of
``judge.games.base``), and one line in ``WRITTEN``."""

from __future__ import annotations

import importlib
import sys
from typing import Any

from judge.rules.index import GAMES

# the rule systems of the seed documents (the rule index's games), whether or not their engine is
# written yet
KNOWN: tuple[str, ...] = GAMES
# games whose engine is written: id -> module defining GAME
WRITTEN = {
    "destiny": "judge.games.destiny.game",
    "relic": "judge.games.relic.game",
    "swtcg": "judge.games.swtcg.game",
}


class UnknownGame(KeyError):
    """A game id the registry has no engine for."""


def get(game_id: str) -> Any:
    """The ``Game`` for ``game_id`` (imported on first use)."""
    module = WRITTEN.get(game_id)
    if module is None:
        raise UnknownGame(game_id)
    # (read from ``sys.modules`` once imported: ``import_module`` runs the import machinery's Python
    # code at every call, and every log read asks; tests/judge/test_registry.py compares them)
    loaded = sys.modules.get(module)
    return (loaded if loaded is not None else importlib.import_module(module)).GAME


def written() -> tuple[str, ...]:
    return tuple(WRITTEN)
