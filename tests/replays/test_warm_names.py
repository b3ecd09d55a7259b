"""A worker warms every game's name reading before it forks (replays.service.warm): each game's
names module is imported and its pool's names indexed, so a forked work horse reads a log written
with names without loading either again."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.helpers import EXAMPLES_DIR, ROOT

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


JOBS_SCRIPT = """
import glob, json, sys
import worker.jobs  # (as ``arbiter worker`` does before it warms: worker.run.run_worker)
from judge.games import registry
from replays.selfplay import play_game
from replays.service import replay_json, ruling_json, timeline_json, warm
from replays.viewer import viewer_json_langs
logs = [play_game("not-warm's", *registry.get(g).selfplay_sides()[:2], game=g, max_steps=60).log
        for g in registry.written()]
logs += [json.load(open(f)) for f in sorted(glob.glob(sys.argv[1] + "/*.json"))]
warm()
before = set(sys.modules)
for log in logs:
    replay_json(log); ruling_json(log); timeline_json(log); viewer_json_langs(log)
print(json.dumps({"logs": len(logs), "positions": sum("position" in log["setup"] for log in logs),
                  "games": sorted({log.get("game", "destiny") for log in logs}),
                  "imported": sorted(set(sys.modules) - before)}))
"""


def test_warm_leaves_a_work_horse_nothing_to_import() -> None:
    # a forked horse imports what its parent did not: warm() runs each game's engine (from a beginning
    # and from a position, ruling, timeline, viewer) so that no job's horse imports anything again
    out = subprocess.run([sys.executable, "-c", JOBS_SCRIPT, str(EXAMPLES_DIR)], cwd=ROOT, capture_output=True,
                         text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    found = json.loads(out.stdout)
    assert found["games"] == ["destiny", "relic", "swtcg"] and found["positions"] >= 1, found
    assert found["imported"] == [], found["imported"]
