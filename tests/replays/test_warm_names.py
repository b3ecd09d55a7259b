"""A worker warms every game's name reading before it forks (replays.service.warm): each game's
names module is imported and its pool's names indexed, so a forked work horse reads a log written
with names without loading either again."""

from __future__ import annotations

import subprocess
import sys

from tests.helpers import ROOT

SCRIPT = """
import sys
from judge.games import registry
from judge.games.base import names_reader
from replays.service import warm
modules = [registry.get(g).names_module for g in registry.written()]
assert modules and not any(m in sys.modules for m in modules), [m for m in modules if m in sys.modules]
warm()
assert all(m in sys.modules for m in modules), modules
for g in registry.written():
    game = registry.get(g)
    assert names_reader(game) is sys.modules[game.names_module]
indexed = 0
for g in registry.written():
    cards = registry.get(g).default_cards()
    indexed += len(cards.names)
print(len(modules), indexed)
"""


def test_warm_imports_every_games_name_reading_and_indexes_its_pool() -> None:
    out = subprocess.run([sys.executable, "-c", SCRIPT], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    games, indexed = map(int, out.stdout.split())
    assert games == 3 and indexed >= 5  # Destiny's and SW TCG's pools, Relic's cards, sheets and scenarios
