"""The request does bounded work: a log heavier than MAX_STEPS_IN_REQUEST is replayed by a worker,
an inline ruling's log is not replayed in the request, and the queue has a ceiling (ARBITER_MAX_QUEUED).

Real Redis, real RQ queue; jobs are run in-process with ``run_jobs``, a worker is "alive" through
tests/worker/live.py's registered (heartbeating, idle) worker.
"""

from __future__ import annotations

import copy
import dataclasses
import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient

from arbiter import settings as settings_mod
from arbiter import store
from judge.games.destiny.table import Table
from judge.limits import MAX_STEPS_IN_REQUEST
from replays.selfplay import play
from replays.service import log_id, replay_json, ruling_json
from tests.helpers import assert_problem, create_test_app, load_example, malformed_log
from tests.worker.live import registered_worker
from worker.queue import enqueue_noop, enqueue_replay, make_queue, replay_job_id

QUEUE = "rq:queue:arbiter"


def long_log(steps: int, seed: str = "budget") -> dict[str, Any]:
    """A game of ``steps`` steps (as bench/bench_replay.py ``long_log``): unknown decks, no damage."""
    t = Table().with_rng(f"{seed}-{steps}")
    t.character("p1", "05031", dice=2)
    t.character("p1", "05046", dice=1)
    t.character("p2", "05019", dice=2)
    t.character("p2", "05013", dice=1)
    deck = {"unknown": 200}
    t.set("p1", deck=deck, hand=["?"] * 5)
    t.set("p2", deck=deck, hand=["?"] * 5)
    calm = {"RD", "MD", "ID", "Sp", "Dc"}

    def allow(step: dict[str, Any], state: Any) -> bool:
        if step["do"] in ("play", "use", "reroll"):
            return False
        if step["do"] == "resolve":
            return state.players[step["by"]].pool[step["dice"][0]["die"]].symbol not in calm
        return True

    log = play(t.log(), max_steps=steps, allow=allow, checkpoint_every=0).log
    assert len(log["steps"]) == steps
    return log


@pytest.fixture(scope="module")
def heavy() -> dict[str, Any]:
    log = long_log(MAX_STEPS_IN_REQUEST + 10)
    assert store.replay_work(log) > MAX_STEPS_IN_REQUEST
    return log


@pytest.fixture()
def worker_alive(redis_url: str, redis_db: redis.Redis) -> Iterator[Any]:
    with registered_worker(redis_url) as rq_worker:
        yield rq_worker


def as_json(value: Any) -> Any:
    return json.loads(json.dumps(value))


def queued(r: redis.Redis) -> list[str]:
    return list(r.lrange(QUEUE, 0, -1))


# ---------------------------------------------------------------- a log too heavy for the request


def test_a_log_within_the_budget_is_replayed_in_the_request(client: FlaskClient, redis_db: redis.Redis) -> None:
    log = long_log(MAX_STEPS_IN_REQUEST - 1)  # its last step has a checkpoint: exactly the budget
    assert store.replay_work(log) == MAX_STEPS_IN_REQUEST
    resp = client.post("/v1/replays", json=log)
    assert resp.status_code == 201, resp.get_data(as_text=True)
    body = resp.get_json()
    assert body["status"] == "finished" and body["summary"] == as_json(store.summary(replay_json(log)))
    assert queued(redis_db) == []


def test_a_heavy_log_is_stored_then_replayed_by_a_worker(
        client: FlaskClient, run_jobs: Callable[[], bool], redis_db: redis.Redis, worker_alive: Any,
        heavy: dict[str, Any]) -> None:
    replay_id = log_id(heavy)
    resp = client.post("/v1/replays", json=heavy)
    assert resp.status_code == 202, resp.get_data(as_text=True)
    assert resp.get_json() == {"id": replay_id, "created": True, "status": "queued", "summary": None,
                               "workers": 1, "message": None,
                               "links": {"self": f"/v1/replays/{replay_id}",
                                         "timeline": f"/v1/replays/{replay_id}/timeline",
                                         "view": f"/replays/{replay_id}"}}
    assert resp.headers["Location"] == f"/v1/replays/{replay_id}" and resp.headers["Retry-After"] == "1"
    assert store.get_log(redis_db, replay_id) == heavy and store.get_result(redis_db, replay_id) is None
    assert queued(redis_db) == [replay_job_id(replay_id)]

    again = client.post("/v1/replays", json=heavy)  # posted again while it waits: no second job
    assert again.status_code == 202 and again.get_json()["created"] is False
    pending = client.get(f"/v1/replays/{replay_id}")
    assert pending.status_code == 200 and pending.headers["Retry-After"] == "1"
    body = pending.get_json()
    assert (body["replay"], body["status"], body["workers"], body["message"]) == (None, "queued", 1, None)
    assert body["log"] == heavy
    assert queued(redis_db) == [replay_job_id(replay_id)]

    assert run_jobs()
    done = client.get(f"/v1/replays/{replay_id}")
    assert done.get_json()["replay"] == as_json(replay_json(heavy))
    assert done.get_json()["status"] == "finished" and "workers" not in done.get_json()
    assert "Retry-After" not in done.headers
    third = client.post("/v1/replays", json=heavy)
    assert third.status_code == 200
    assert third.get_json()["summary"] == as_json(store.summary(replay_json(heavy)))
    assert not run_jobs()  # nothing more was queued


def test_a_heavy_log_without_a_worker_is_queued_and_says_so(
        client: FlaskClient, redis_db: redis.Redis, heavy: dict[str, Any]) -> None:
    resp = client.post("/v1/replays", json=heavy)
    assert resp.status_code == 202
    body = resp.get_json()
    assert body["workers"] == 0 and "no worker is running" in body["message"].lower()
    assert int(resp.headers["Retry-After"]) > 1
    assert queued(redis_db) == [replay_job_id(log_id(heavy))]


def test_a_malformed_heavy_log_is_422_and_reaches_neither_store_nor_queue(
        client: FlaskClient, redis_db: redis.Redis, heavy: dict[str, Any]) -> None:
    bad = copy.deepcopy(heavy)
    bad["steps"][-1]["by"] = "p9"
    problem = assert_problem(client.post("/v1/replays", json=bad), 422)
    assert any(e["pointer"].startswith(f"/steps/{len(bad['steps']) - 1}") for e in problem["errors"]), problem
    assert redis_db.keys("arbiter:*") == [] and queued(redis_db) == []


def test_a_replay_past_its_ceiling_is_a_failed_status_with_the_ceiling_error(
        client: FlaskClient, run_jobs: Callable[[], bool], redis_url: str, redis_db: redis.Redis,
        heavy: dict[str, Any]) -> None:
    replay_id = store.put_log(redis_db, heavy).replay_id
    conn = redis.Redis.from_url(redis_url)
    cfg = dataclasses.replace(settings_mod.load(), job_timeout=1)
    enqueue_replay(make_queue(conn, cfg), replay_id, cfg, function="tests.worker.test_jobs.slow_replay")
    assert run_jobs()
    body = client.get(f"/v1/replays/{replay_id}").get_json()
    assert body["replay"] is None and body["status"] == "failed"
    assert body["error"]["kind"] == "ceiling" and body["error"]["ceiling"] == "time"
    assert "took longer than 1 s" in body["error"]["message"]
    posted = client.post("/v1/replays", json=heavy)
    assert posted.status_code == 200
    assert posted.get_json()["status"] == "failed" and posted.get_json()["summary"] is None
    assert posted.get_json()["error"] == body["error"]
    assert queued(redis_db) == []  # a stored error is an answer: nothing is queued again
    conn.close()


def test_a_failed_replay_job_shows_as_failed(
        client: FlaskClient, run_jobs: Callable[[], bool], redis_url: str, redis_db: redis.Redis,
        heavy: dict[str, Any]) -> None:
    replay_id = store.put_log(redis_db, heavy).replay_id
    conn = redis.Redis.from_url(redis_url)
    make_queue(conn).enqueue("worker.jobs.noop", replay_id, job_id=replay_job_id(replay_id))  # fails: arity
    run_jobs()
    body = client.get(f"/v1/replays/{replay_id}").get_json()
    assert body["status"] == "failed" and body["error"]["kind"] == "job-failed" and body["replay"] is None
    assert queued(redis_db) == []
    conn.close()


# ---------------------------------------------------------------- inline rulings


def test_an_inline_ruling_stores_the_log_unreplayed_and_queues_its_replay(
        client: FlaskClient, run_jobs: Callable[[], bool], redis_db: redis.Redis, worker_alive: Any) -> None:
    log = load_example("claim-then-auto-pass.json")
    replay_id = log_id(log)
    resp = client.post("/v1/rulings", json={"log": log})
    assert resp.status_code == 202, resp.get_data(as_text=True)
    ruling_id = resp.get_json()["id"]
    assert store.get_log(redis_db, replay_id) == log
    assert store.get_result(redis_db, replay_id) is None  # not replayed in the request
    assert queued(redis_db) == [ruling_id, replay_job_id(replay_id)]  # the ruling first
    pending = client.get(f"/v1/replays/{replay_id}").get_json()
    assert pending["status"] == "queued" and pending["replay"] is None
    again = client.post("/v1/rulings", json={"log": log, "at": 1})  # same log: its replay is not queued twice
    assert queued(redis_db) == [ruling_id, replay_job_id(replay_id), again.get_json()["id"]]

    assert run_jobs()
    assert client.get(f"/v1/rulings/{ruling_id}").get_json()["ruling"] == as_json(ruling_json(log))
    done = client.get(f"/v1/replays/{replay_id}").get_json()
    assert done["status"] == "finished" and done["replay"] == as_json(replay_json(log))
    client.post("/v1/rulings", json={"log": log})  # a replayed log: only the ruling is queued
    assert len(queued(redis_db)) == 1


def test_an_inline_ruling_on_a_malformed_log_stores_and_queues_nothing(
        client: FlaskClient, redis_db: redis.Redis, worker_alive: Any) -> None:
    problem = assert_problem(client.post("/v1/rulings", json={"log": malformed_log()}), 422)
    assert all(e["pointer"].startswith("/log") for e in problem["errors"])
    assert redis_db.keys("arbiter:*") == [] and queued(redis_db) == []


# ---------------------------------------------------------------- the queue's ceiling


@pytest.fixture()
def small_queue_app(redis_url: str, redis_db: redis.Redis, monkeypatch: pytest.MonkeyPatch) -> Flask:
    monkeypatch.setenv("ARBITER_MAX_QUEUED", "5")
    return create_test_app(redis_url)


def fill_queue(redis_url: str, n: int) -> list[str]:
    conn = redis.Redis.from_url(redis_url)
    try:
        queue = make_queue(conn)
        return [enqueue_noop(queue).id for _ in range(n)]
    finally:
        conn.close()


def assert_queue_full(resp: Any) -> dict[str, Any]:
    body = assert_problem(resp, 503)
    assert "the queue is full" in body["detail"].lower(), body
    assert int(resp.headers["Retry-After"]) >= 1
    return body


def test_past_the_queue_bound_every_request_that_would_queue_is_a_503_and_queues_nothing(
        small_queue_app: Flask, redis_url: str, redis_db: redis.Redis, run_jobs: Callable[[], bool],
        worker_alive: Any, heavy: dict[str, Any]) -> None:
    client = small_queue_app.test_client()
    light = load_example("shields-cap.json")
    stored_id = client.post("/v1/replays", json=light).get_json()["id"]
    jobs = fill_queue(redis_url, 4)
    # one place left: a ruling by ID is queued, then the queue is at its bound
    assert client.post("/v1/rulings", json={"replay": stored_id}).status_code == 202
    full = queued(redis_db)
    assert len(full) == 5 and full[:4] == jobs

    assert_queue_full(client.post("/v1/rulings", json={"replay": stored_id}))
    inline = load_example("deck-out-one.json")
    assert_queue_full(client.post("/v1/rulings", json={"log": inline}))
    assert store.get_log(redis_db, log_id(inline)) == inline  # a validated log is kept all the same
    assert_queue_full(client.get(f"/v1/replays/{stored_id}/timeline"))
    body = assert_queue_full(client.post("/v1/replays", json=heavy))
    assert log_id(heavy) in body["detail"]
    assert store.get_log(redis_db, log_id(heavy)) == heavy  # stored, not lost: post it again later
    assert_queue_full(client.get(f"/v1/replays/{log_id(heavy)}"))  # its replay would have to be queued
    assert queued(redis_db) == full  # nothing was queued
    # what queues nothing is answered as usual
    assert client.post("/v1/replays", json=load_example("modifier-alone.json")).status_code == 201
    assert client.get(f"/v1/replays/{stored_id}").status_code == 200
    # ... invalid requests still get their 422 first
    assert_problem(client.post("/v1/rulings", json={"log": malformed_log()}), 422)

    assert run_jobs()  # the queue drains: the same requests are accepted
    again = client.post("/v1/replays", json=heavy)
    assert again.status_code == 202 and again.get_json()["created"] is False
    assert client.post("/v1/rulings", json={"replay": stored_id}).status_code == 202
    assert client.get(f"/v1/replays/{stored_id}/timeline").status_code == 202
    assert len(queued(redis_db)) == 3


def test_the_queue_bound_and_the_202_are_documented(client: FlaskClient) -> None:
    paths = client.get("/openapi.json").get_json()["paths"]
    post = paths["/v1/replays"]["post"]["responses"]
    assert {"200", "201", "202", "503"} <= post.keys()
    assert {"Retry-After", "Location"} <= post["202"]["headers"].keys()
    for answers in (post, paths["/v1/rulings"]["post"]["responses"],
                    paths["/v1/replays/{replay_id}/timeline"]["get"]["responses"],
                    paths["/v1/replays/{replay_id}"]["get"]["responses"]):
        assert "queue is full" in answers["503"]["description"]
        assert "application/problem+json" in answers["503"]["content"]
        assert "Retry-After" in answers["503"]["headers"]
    replay = client.get("/openapi.json").get_json()["components"]["schemas"]["ReplayStatus"]["properties"]
    assert replay["replay"].get("nullable") is True and {"status", "error", "workers"} <= replay.keys()
