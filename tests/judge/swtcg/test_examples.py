"""The SW TCG example logs (replays/examples/swtcg/) replay as their ``expect`` fields say, their
disputes are ruled, and the HTTP API takes a SW TCG log and rules on it unchanged."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from flask.testing import FlaskClient

from replays.service import replay_json, ruling_json
from tests.worker.live import registered_worker

EXAMPLES = Path(__file__).resolve().parents[3] / "replays" / "examples" / "swtcg"
NAMES = sorted(p.name for p in EXAMPLES.glob("*.json"))


def load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((EXAMPLES / name).read_text(encoding="utf-8"))
    return data


def test_the_examples_cover_the_disputes_the_issue_names() -> None:
    assert {"chance-dark-side-first.json", "held-trigger-yoda.json", "reroll-window.json", "deflect-new-damage.json",
            "intercept.json", "pilot-moves.json", "selfplay-game.json", "mission-location-equip.json"} <= set(NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_each_example_replays_as_its_checkpoints_say(name: str) -> None:
    log = load(name)
    result = replay_json(log)
    assert result["valid"], result["error"]
    expects = [i + 1 for i, s in enumerate(log["steps"]) if "expect" in s]
    assert expects and result["checkpoints"]["passed"] == expects


@pytest.mark.parametrize("name", [n for n in NAMES if n != "selfplay-game.json"])
def test_each_dispute_is_ruled_with_the_rules_it_turns_on(name: str) -> None:
    log = load(name)
    ruling = ruling_json(log)
    assert ruling["question"]
    step = log["steps"][ruling["at"] - 1]
    want = (step.get("expect") or {}).get("error")
    if want:
        assert ruling["legal"] is False and ruling["violation"]["rule"] == want["rule"]
    else:
        assert ruling["legal"] is True and ruling["rules_cited"]
        # the step's last event names who has the chance to play (or acts) now, and what they may do
        last = ruling["events"][-1]
        assert last["event"] in ("chance", "await") and last["player"] == ruling["state"]["turn"]
        assert last["may"] == ruling["state"]["may"]
    state = ruling["state"]
    assert state["turn"] in ("p1", "p2") and isinstance(state["may"], list)


@pytest.fixture()
def worker_alive(redis_url: str, redis_db: redis.Redis) -> Iterator[Any]:
    with registered_worker(redis_url) as rq_worker:
        yield rq_worker


def test_the_api_stores_a_swtcg_log_and_rules_on_it(client: FlaskClient, run_jobs: Callable[[], bool],
                                                      worker_alive: Any) -> None:
    log = load("reroll-window.json")
    resp = client.post("/v1/replays", json=log)
    assert resp.status_code in (200, 201), resp.get_data(as_text=True)
    replay_id = resp.get_json()["id"]
    queued = client.post("/v1/rulings", json={"replay": replay_id, "at": 3})
    assert queued.status_code == 202, queued.get_data(as_text=True)
    assert run_jobs()
    done = client.get(queued.headers["Location"]).get_json()
    assert done["status"] == "finished" and done["error"] is None
    assert done["ruling"] == json.loads(json.dumps(ruling_json(log, 3)))
    assert done["ruling"]["violation"]["rule"] == "swtcg.timing.reroll-once-per-roll"
