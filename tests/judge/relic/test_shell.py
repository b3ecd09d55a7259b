"""Relic logs through the shells, unchanged: self-play (in a fresh process), ``arbiter rule`` and
``arbiter selfplay``, and the API with a real worker."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from click.testing import CliRunner
from flask.testing import FlaskClient

from arbiter.cli import main
from judge.games import registry
from judge.games.relic.cards import default_pool
from replays.selfplay import play_game
from replays.service import replay_json, ruling_json
from tests.helpers import ROOT
from tests.worker.live import registered_worker

EXAMPLE = ROOT / "replays" / "examples" / "relic" / "second-charge-same-turn.json"
HASHES = """
import json, sys
from replays.service import replay_json
log = json.load(open(sys.argv[1]))
print(replay_json(log)["final_state_hash"])
"""


def test_selfplay_logs_replay_to_the_same_hashes_in_a_fresh_process(tmp_path: Path) -> None:
    for seed in ("relic-a", "relic-b"):
        game = play_game(seed, "battle-sister", "tech-priest", game="relic", max_steps=300)
        assert game.steps > 0
        result = replay_json(game.log)
        assert result["valid"] and result["checkpoints"]["failed"] == [], result["error"]
        assert result["final_state_hash"] == game.state.state_hash()
        path = tmp_path / f"{seed}.json"
        path.write_text(json.dumps(game.log))
        fresh = subprocess.run([sys.executable, "-c", HASHES, str(path)], capture_output=True, text=True, check=True,
                               cwd=ROOT)
        assert fresh.stdout.strip() == game.state.state_hash()
        again = registry.get("relic").from_position(game.state.position(), game.log["players"], default_pool())[0]
        assert again is not None and again.position() == game.state.position()
    assert play_game("relic-a", "battle-sister", "tech-priest", game="relic", max_steps=300).log == \
        play_game("relic-a", "battle-sister", "tech-priest", game="relic", max_steps=300).log


def test_arbiter_selfplay_game_relic(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["selfplay", "--game", "relic", "--games", "2", "--seed", "cli",
                                       "--max-steps", "200", "--out", str(tmp_path)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    logs = sorted(tmp_path.glob("*.json"))
    assert len(logs) == 2
    for path in logs:
        log = json.loads(path.read_text())
        assert log["game"] == "relic"
        assert replay_json(log)["valid"]


def test_arbiter_rule_on_a_relic_example() -> None:
    log = json.loads(EXAMPLE.read_text())
    want = ruling_json(log)
    text = CliRunner().invoke(main, ["rule", str(EXAMPLE)], catch_exceptions=False)
    assert text.exit_code == 0, text.output
    assert text.output.startswith(f"Step {want['at']}: ")
    assert "relic.charges.one-per-card-per-turn" in text.output
    as_json = CliRunner().invoke(main, ["rule", str(EXAMPLE), "--json"], catch_exceptions=False)
    assert json.loads(as_json.output) == json.loads(json.dumps(want))


@pytest.fixture()
def worker_alive(redis_url: str, redis_db: redis.Redis) -> Iterator[Any]:
    with registered_worker(redis_url) as rq_worker:
        yield rq_worker


def test_the_api_rules_on_a_posted_relic_log(client: FlaskClient, run_jobs: Callable[[], bool],
                                             worker_alive: Any) -> None:
    log = json.loads(EXAMPLE.read_text())
    stored = client.post("/v1/replays", json=log)
    assert stored.status_code == 201, stored.get_data(as_text=True)
    assert stored.get_json()["summary"]["valid"] is True
    resp = client.post("/v1/rulings", json={"replay": stored.get_json()["id"]})
    assert resp.status_code == 202, resp.get_data(as_text=True)
    assert run_jobs()
    done = client.get(resp.headers["Location"]).get_json()
    assert done["status"] == "finished" and done["error"] is None
    assert done["ruling"] == json.loads(json.dumps(ruling_json(log)))
    assert done["ruling"]["violation"]["rule"] == "relic.charges.one-per-card-per-turn"
