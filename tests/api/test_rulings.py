"""POST /v1/rulings, the queue, a real (in-process) worker, and GET /v1/rulings/<id>."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import pytest
from flask.testing import FlaskClient

from replays.service import ruling_json
from tests.helpers import assert_problem, load_example, malformed_log


def store(client: FlaskClient, name: str) -> str:
    resp = client.post("/v1/replays", json=load_example(name))
    assert resp.status_code in (200, 201), resp.get_data(as_text=True)
    replay_id: str = resp.get_json()["id"]
    return replay_id


def test_ruling_by_replay_id_is_queued_then_finished(
        client: FlaskClient, run_jobs: Callable[[], bool]) -> None:
    log = load_example("shields-cap.json")
    replay_id = store(client, "shields-cap.json")
    resp = client.post("/v1/rulings", json={"replay": replay_id, "at": 1})
    assert resp.status_code == 202, resp.get_data(as_text=True)
    body = resp.get_json()
    location = resp.headers["Location"]
    assert location == f"/v1/rulings/{body['id']}" == body["links"]["job"]
    assert body["status"] == "queued"

    pending = client.get(location).get_json()
    assert pending["status"] == "queued" and pending["ruling"] is None
    assert pending["replay"] == replay_id and pending["at"] == 1

    assert run_jobs()
    done = client.get(location).get_json()
    assert done["status"] == "finished"
    assert done["error"] is None
    assert done["ruling"] == json.loads(json.dumps(ruling_json(log, 1)))


@pytest.mark.parametrize("name", ["modifier-alone.json", "deck-out-both.json"])
def test_ruling_on_inline_log_defaults_to_disputed_or_last_step(
        client: FlaskClient, run_jobs: Callable[[], bool], name: str) -> None:
    log = load_example(name)
    resp = client.post("/v1/rulings", json={"log": log})
    assert resp.status_code == 202, resp.get_data(as_text=True)
    assert resp.get_json()["at"] is None
    run_jobs()
    done = client.get(resp.headers["Location"]).get_json()
    assert done["status"] == "finished"
    assert done["ruling"] == json.loads(json.dumps(ruling_json(log)))
    # the inline log was stored as by POST /v1/replays
    assert client.get(f"/v1/replays/{done['replay']}").status_code == 200


def test_step_out_of_range_is_422_up_front(client: FlaskClient, redis_db: Any) -> None:
    replay_id = store(client, "shields-cap.json")
    steps = len(load_example("shields-cap.json")["steps"])
    body = assert_problem(client.post("/v1/rulings", json={"replay": replay_id, "at": steps + 1}), 422)
    assert body["errors"][0]["pointer"] == "/at"
    assert str(steps) in body["detail"]
    assert redis_db.keys("rq:job:*") == []  # nothing queued


@pytest.mark.parametrize("payload,pointer", [
    ({}, ""),
    ({"replay": "a" * 64, "log": {}}, ""),
    ({"replay": "not-an-id"}, "/replay"),
    ({"replay": "a" * 64, "at": 0}, "/at"),
    ({"replay": "a" * 64, "at": "3"}, "/at"),
    ({"replay": "a" * 64, "at": 1.5}, "/at"),
    ({"log": "text"}, "/log"),
])
def test_bad_requests_are_422_with_pointers(client: FlaskClient, payload: dict[str, Any],
                                            pointer: str) -> None:
    body = assert_problem(client.post("/v1/rulings", json=payload), 422)
    assert pointer in [e["pointer"] for e in body["errors"]], body


def test_unknown_replay_is_404(client: FlaskClient) -> None:
    assert_problem(client.post("/v1/rulings", json={"replay": "b" * 64}), 404)


def test_unknown_ruling_is_404(client: FlaskClient) -> None:
    assert_problem(client.get("/v1/rulings/nope"), 404)


def test_malformed_inline_log_points_into_log(client: FlaskClient) -> None:
    body = assert_problem(client.post("/v1/rulings", json={"log": malformed_log()}), 422)
    pointers = [e["pointer"] for e in body["errors"]]
    assert "/log/format" in pointers
    assert all(p.startswith("/log/") for p in pointers)


def test_non_json_and_too_big(client: FlaskClient) -> None:
    assert_problem(client.post("/v1/rulings", data="replay=x", content_type="text/plain"), 415)
    assert_problem(client.post("/v1/rulings", data="{", content_type="application/json"), 400)
    log = copy.deepcopy(load_example("shields-cap.json"))
    log["meta"]["padding"] = "y" * (3 * 1024 * 1024)
    assert_problem(client.post("/v1/rulings", json={"log": log}), 413)
