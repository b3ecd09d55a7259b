"""POST/GET /v1/replays and the timeline (computed by a worker), against the real engine and a real Redis."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from typing import Any

import redis
from flask.testing import FlaskClient

from arbiter import settings as settings_mod
from replays.service import log_id, replay_json, timeline_json
from tests.helpers import assert_problem, load_example, malformed_log
from tests.worker.live import registered_worker
from worker.queue import enqueue_timeline, make_queue


def test_post_each_example_gives_content_address_and_summary(
        client: FlaskClient, example: tuple[str, dict[str, Any]]) -> None:
    name, log = example
    resp = client.post("/v1/replays", json=log)
    assert resp.status_code == 201, resp.get_data(as_text=True)
    body = resp.get_json()
    assert body["id"] == log_id(log)
    assert body["created"] is True
    assert resp.headers["Location"] == f"/v1/replays/{body['id']}"
    summary = body["summary"]
    assert summary["valid"] is True, (name, summary)
    assert summary["checkpoints"]["failed"] == []
    expected = replay_json(log)
    assert summary["final_state_hash"] == expected["final_state_hash"]
    assert summary["steps"] == expected["steps"]


def test_same_log_again_gets_same_id_and_200(client: FlaskClient) -> None:
    log = load_example("deck-out-one.json")
    first = client.post("/v1/replays", json=log)
    # key order and whitespace do not change the content address
    again = client.post("/v1/replays", data=json.dumps(log, indent=3, sort_keys=True),
                        content_type="application/json")
    assert first.status_code == 201
    assert again.status_code == 200
    assert again.get_json()["id"] == first.get_json()["id"]
    assert again.get_json()["created"] is False


def test_get_replay_returns_log_and_result(client: FlaskClient) -> None:
    log = load_example("shields-cap.json")
    replay_id = client.post("/v1/replays", json=log).get_json()["id"]
    resp = client.get(f"/v1/replays/{replay_id}")
    assert resp.status_code == 200
    body = resp.get_json()
    assert body["log"] == log
    assert body["replay"] == replay_json(log)
    assert body["links"]["timeline"] == f"/v1/replays/{replay_id}/timeline"


def test_timeline_is_computed_by_a_worker(client: FlaskClient, run_jobs: Callable[[], bool],
                                          redis_url: str) -> None:
    log = load_example("claim-then-auto-pass.json")
    replay_id = client.post("/v1/replays", json=log).get_json()["id"]
    url = f"/v1/replays/{replay_id}/timeline"
    with registered_worker(redis_url):
        first = client.get(url)
        assert first.status_code == 202
        assert first.get_json() == {"id": replay_id, "status": "queued", "workers": 1, "message": None,
                                    "links": {"self": url}}
        assert first.headers["Location"] == url and first.headers["Retry-After"] == "1"
        assert client.get(url).status_code == 202  # asked again: still one job
    assert run_jobs()
    resp = client.get(url)
    assert resp.status_code == 200
    assert resp.get_json() == {"id": replay_id, "timeline": json.loads(json.dumps(timeline_json(log)))}
    assert not run_jobs()  # the second request queued nothing more


def test_timeline_without_a_worker_says_so(client: FlaskClient, redis_db: Any) -> None:
    replay_id = client.post("/v1/replays", json=load_example("shields-cap.json")).get_json()["id"]
    resp = client.get(f"/v1/replays/{replay_id}/timeline")
    assert resp.status_code == 202
    body = resp.get_json()
    assert body["status"] == "queued" and body["workers"] == 0
    assert "no worker is running" in body["message"].lower()
    assert int(resp.headers["Retry-After"]) > 1
    assert redis_db.llen("rq:queue:arbiter") == 1  # queued all the same: computed once a worker starts


def test_a_timeline_past_its_ceiling_is_a_422_problem(client: FlaskClient, run_jobs: Callable[[], bool],
                                                      redis_url: str) -> None:
    replay_id = client.post("/v1/replays", json=load_example("shields-cap.json")).get_json()["id"]
    conn = redis.Redis.from_url(redis_url)
    cfg = dataclasses.replace(settings_mod.load(), job_timeout=1)
    enqueue_timeline(make_queue(conn, cfg), replay_id, cfg, function="tests.worker.heavy_jobs.slow_timeline")
    assert run_jobs()
    body = assert_problem(client.get(f"/v1/replays/{replay_id}/timeline"), 422)
    assert "took longer than 1 s" in body["detail"]
    conn.close()


def test_unknown_replay_is_404_problem(client: FlaskClient) -> None:
    body = assert_problem(client.get("/v1/replays/" + "0" * 64), 404)
    assert body["instance"] == "/v1/replays/" + "0" * 64
    assert_problem(client.get("/v1/replays/nope/timeline"), 404)


def test_malformed_log_is_422_with_a_pointer_per_fault(client: FlaskClient, redis_db: Any) -> None:
    body = assert_problem(client.post("/v1/replays", json=malformed_log()), 422)
    pointers = [e["pointer"] for e in body["errors"]]
    assert "/format" in pointers
    assert any(p.startswith("/steps/0") for p in pointers), pointers
    assert all(p.startswith("/") for p in pointers)
    assert all(e["detail"] for e in body["errors"])
    assert redis_db.keys("arbiter:replay:*") == []  # nothing stored


def test_non_object_bodies_are_422(client: FlaskClient) -> None:
    for body in ([], [1, 2], "log", 3, True):
        problem = assert_problem(client.post("/v1/replays", json=body), 422)
        assert problem["errors"]


def test_empty_object_is_malformed(client: FlaskClient) -> None:
    body = assert_problem(client.post("/v1/replays", json={}), 422)
    assert body["errors"]


def test_invalid_json_is_400(client: FlaskClient) -> None:
    for raw in (b"{", b'{"format": }', b"\xff\xfe", b"NaN", b'{"a": Infinity}', b"[" * 50000):
        body = assert_problem(client.post("/v1/replays", data=raw, content_type="application/json"), 400)
        assert body["errors"][0]["pointer"] == ""


def test_wrong_content_type_is_415(client: FlaskClient) -> None:
    raw = json.dumps(load_example("shields-cap.json"))
    assert_problem(client.post("/v1/replays", data=raw, content_type="text/plain"), 415)
    assert_problem(client.post("/v1/replays", data=raw, content_type="application/x-www-form-urlencoded"),
                   415)


def test_missing_body_is_422(client: FlaskClient) -> None:
    assert_problem(client.post("/v1/replays"), 422)


def test_too_big_is_413(client: FlaskClient) -> None:
    log = load_example("shields-cap.json")
    log["meta"]["padding"] = "x" * (2 * 1024 * 1024)
    body = assert_problem(client.post("/v1/replays", json=log), 413)
    assert "2097152" in body["detail"]


def test_the_timeline_answers_are_documented(client: FlaskClient) -> None:
    answers = client.get("/openapi.json").get_json()["paths"]["/v1/replays/{replay_id}/timeline"]["get"]["responses"]
    assert {"200", "202", "422"} <= answers.keys()
    assert "application/problem+json" in answers["422"]["content"]


def test_a_malformed_log_is_worded_in_the_language_asked_for(client: FlaskClient, redis_db: Any) -> None:
    """Only the words change: the same pointers, the same problem type, the detail in Polish or Russian."""
    log = {"format": "arbiter.replay/1", "game": "destny", "players": [], "setup": {}, "steps": []}
    en = assert_problem(client.post("/v1/replays", json=log), 422)
    ru = assert_problem(client.post("/v1/replays", json=log, headers={"Accept-Language": "ru-RU,ru;q=0.9"}), 422)
    pl = assert_problem(client.post("/v1/replays?lang=pl", json=log), 422)  # (its cookie keeps Polish after)
    assert [e["pointer"] for e in pl["errors"]] == [e["pointer"] for e in en["errors"]] == ["/game", "/players"]
    assert pl["type"] == ru["type"] == en["type"]
    assert en["errors"][0]["detail"] == "'game' must be one of destiny, swtcg, relic (did you mean 'destiny'?)"
    assert pl["errors"][0]["detail"] == "'game' musi być jednym z: destiny, swtcg, relic (czy chodziło o 'destiny'?)"
    assert pl["title"] == "Wadliwy log" and pl["detail"] == "Log ma 2 błędy."  # Polish plural of 2
    assert ru["errors"][1]["detail"] == "в 'players' должно быть от 2 до 4 игроков"
    assert ru["detail"] == "В логе 2 ошибки."


def test_a_log_written_with_card_names_is_replayed(client: FlaskClient) -> None:
    """Cards named by name (docs/replay-format.md section 3): the log is stored as written, and
    replayed as its twin written with codes; a name two cards share is a malformed log whose
    problem points at the field."""
    from replays.format import parse_log

    log = load_example("named-cards.json")
    resp = client.post("/v1/replays", json=log)
    assert resp.status_code == 201, resp.get_data(as_text=True)
    replay_id = resp.get_json()["id"]
    summary = resp.get_json()["summary"]
    assert summary["valid"] is True and summary["checkpoints"]["failed"] == []
    parsed = parse_log(log)
    twin = {**log, "players": parsed.players, "setup": parsed.setup, "steps": parsed.steps}
    assert "Luke Skywalker" not in json.dumps(twin["setup"])
    assert summary["final_state_hash"] == replay_json(twin)["final_state_hash"]
    body = client.get(f"/v1/replays/{replay_id}").get_json()
    assert body["log"] == log
    assert body["replay"] == replay_json(twin)
    bad = json.loads(json.dumps(log))
    bad["steps"][0]["dice"][0]["target"] = "p2.Han Solo"
    problem = assert_problem(client.post("/v1/replays", json=bad), 422)
    assert "/steps/0/dice/0/target" in json.dumps(problem)
    assert "names several cards" in json.dumps(problem)
