"""POST /v1/rulings, the queue, a real (in-process) worker, and GET /v1/rulings/<id>.

A ruling is queued only while a worker is alive: most tests here run with a registered worker
(tests/worker/live.py) whose jobs they run themselves with ``run_jobs``.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import redis
from flask.testing import FlaskClient

from replays.service import ruling_json
from tests.helpers import assert_problem, load_example, malformed_log
from tests.worker.live import registered_worker


@pytest.fixture()
def worker_alive(redis_url: str, redis_db: redis.Redis) -> Iterator[Any]:
    with registered_worker(redis_url) as rq_worker:
        yield rq_worker


def store(client: FlaskClient, name: str) -> str:
    resp = client.post("/v1/replays", json=load_example(name))
    assert resp.status_code in (200, 201), resp.get_data(as_text=True)
    replay_id: str = resp.get_json()["id"]
    return replay_id


def test_ruling_by_replay_id_is_queued_then_finished(
        client: FlaskClient, run_jobs: Callable[[], bool], worker_alive: Any) -> None:
    log = load_example("shields-cap.json")
    replay_id = store(client, "shields-cap.json")
    resp = client.post("/v1/rulings", json={"replay": replay_id, "at": 1})
    assert resp.status_code == 202, resp.get_data(as_text=True)
    body = resp.get_json()
    location = resp.headers["Location"]
    assert location == f"/v1/rulings/{body['id']}" == body["links"]["job"]
    assert body["status"] == "queued"

    pending_resp = client.get(location)
    pending = pending_resp.get_json()
    assert pending["status"] == "queued" and pending["ruling"] is None
    assert pending["replay"] == replay_id and pending["at"] == 1
    assert pending["workers"] == 1 and pending["message"] is None
    assert pending_resp.headers["Retry-After"] == "1"

    assert run_jobs()
    done = client.get(location).get_json()
    assert done["status"] == "finished"
    assert done["error"] is None
    assert done["ruling"] == json.loads(json.dumps(ruling_json(log, 1)))
    assert "workers" not in done and "Retry-After" not in client.get(location).headers


@pytest.mark.parametrize("name", ["modifier-alone.json", "deck-out-both.json"])
def test_ruling_on_inline_log_defaults_to_disputed_or_last_step(
        client: FlaskClient, run_jobs: Callable[[], bool], worker_alive: Any, name: str) -> None:
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


def test_no_worker_alive_is_503_and_nothing_is_queued(client: FlaskClient, redis_db: Any) -> None:
    replay_id = store(client, "shields-cap.json")
    resp = client.post("/v1/rulings", json={"replay": replay_id, "at": 1})
    body = assert_problem(resp, 503)
    assert "no worker is running" in body["detail"].lower()
    assert int(resp.headers["Retry-After"]) > 0
    assert redis_db.keys("rq:job:*") == [] and redis_db.llen("rq:queue:arbiter") == 0
    # the request is checked before the queue: a bad step is still a 422, not a 503
    assert_problem(client.post("/v1/rulings", json={"replay": replay_id, "at": 99}), 422)


def test_a_worker_that_stopped_beating_does_not_count(client: FlaskClient, redis_db: Any,
                                                      worker_alive: Any) -> None:
    replay_id = store(client, "shields-cap.json")
    assert client.post("/v1/rulings", json={"replay": replay_id, "at": 1}).status_code == 202
    # a SIGKILLed worker leaves its key behind; its last heartbeat is what ages (here: long ago)
    redis_db.hset(worker_alive.key, "last_heartbeat", "2000-01-01T00:00:00.000000Z")
    assert redis_db.exists(worker_alive.key)
    assert_problem(client.post("/v1/rulings", json={"replay": replay_id, "at": 1}), 503)


def test_a_queued_ruling_says_when_no_worker_is_alive(client: FlaskClient, redis_db: Any,
                                                      redis_url: str) -> None:
    replay_id = store(client, "shields-cap.json")
    with registered_worker(redis_url):
        location = client.post("/v1/rulings", json={"replay": replay_id, "at": 1}).headers["Location"]
    resp = client.get(location)  # the worker has gone: the ruling waits, and the client is told why
    body = resp.get_json()
    assert resp.status_code == 200 and body["status"] == "queued"
    assert body["workers"] == 0 and "no worker is running" in body["message"].lower()
    assert int(resp.headers["Retry-After"]) > 1


def test_the_request_id_travels_with_the_job(app: Any, redis_db: Any, worker_alive: Any) -> None:
    from flask import g

    @app.before_request
    def tag() -> None:  # what api/requestlog.py does for every request
        g.request_id = "req-7"

    client = app.test_client()
    replay_id = store(client, "shields-cap.json")
    ruling_id = client.post("/v1/rulings", json={"replay": replay_id, "at": 1}).get_json()["id"]
    from worker.queue import fetch_job

    job = fetch_job(redis.Redis.from_url(app.extensions["arbiter"]["url"]), ruling_id)
    assert job is not None and job.meta == {"replay": replay_id, "request_id": "req-7"}


def test_503_is_documented(client: FlaskClient) -> None:
    spec = client.get("/openapi.json").get_json()
    answers = spec["paths"]["/v1/rulings"]["post"]["responses"]
    assert "application/problem+json" in answers["503"]["content"]
    get_answers = spec["paths"]["/v1/rulings/{ruling_id}"]["get"]["responses"]
    schema = get_answers["200"]["content"]["application/json"]["schema"]
    props = spec["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]["properties"]
    assert {"workers", "message"} <= props.keys()
