"""RQ jobs with a real worker (SimpleWorker, burst) on a real Redis, JSON serializer throughout."""

from __future__ import annotations

import json
import zlib
from collections.abc import Callable
from typing import Any

import pytest
import redis
from rq import Retry
from rq.job import JobStatus

from arbiter import settings as settings_mod
from arbiter import store
from replays.service import log_id, replay_json, ruling_json
from tests.helpers import load_example, malformed_log
from worker import jobs
from worker.queue import enqueue_noop, enqueue_replay, enqueue_ruling, fetch_job, make_queue


@pytest.fixture()
def rq_conn(redis_url: str, redis_db: redis.Redis) -> redis.Redis:
    return redis.Redis.from_url(redis_url)


def stored(r: redis.Redis, name: str) -> tuple[str, dict[str, Any]]:
    log = load_example(name)
    return store.put_log(r, log).replay_id, log


def test_ruling_job_stores_ruling_and_returns_a_json_dict(
        rq_conn: redis.Redis, run_jobs: Callable[[], bool]) -> None:
    replay_id, log = stored(rq_conn, "shields-cap.json")
    ruling_id = enqueue_ruling(make_queue(rq_conn), replay_id, 1)
    assert run_jobs()
    job = fetch_job(rq_conn, ruling_id)
    assert job is not None and job.get_status() == JobStatus.FINISHED
    value = job.return_value()
    assert isinstance(value, dict)  # not RQ's placeholder string for unserializable values
    assert value == {"ruling": ruling_id, "replay": replay_id, "at": 1, "ok": True}
    record = store.get_ruling(rq_conn, ruling_id)
    assert record == {"replay": replay_id, "at": 1, "ruling": json.loads(json.dumps(ruling_json(log, 1)))}


def test_job_payload_is_json_not_pickle(rq_conn: redis.Redis) -> None:
    replay_id = "e" * 64
    ruling_id = enqueue_ruling(make_queue(rq_conn), replay_id, None)
    raw = rq_conn.hget(f"rq:job:{ruling_id}", "data")
    assert raw is not None
    payload = json.loads(zlib.decompress(raw))
    assert payload[0] == "worker.jobs.compute_ruling"
    assert payload[2] == [ruling_id, replay_id, None]


def test_malformed_stored_log_gives_a_stored_error_not_a_failed_job(
        rq_conn: redis.Redis, run_jobs: Callable[[], bool]) -> None:
    log = malformed_log()
    replay_id = log_id(log)
    rq_conn.set(store.log_key(replay_id), json.dumps(log))  # bypass validation on purpose
    ruling_id = enqueue_ruling(make_queue(rq_conn), replay_id, 1)
    run_jobs()
    job = fetch_job(rq_conn, ruling_id)
    assert job is not None and job.get_status() == JobStatus.FINISHED
    assert job.return_value()["ok"] is False
    record = store.get_ruling(rq_conn, ruling_id)
    assert record is not None and record["error"]["kind"] == "malformed"
    assert any(f["path"] == "/format" for f in record["error"]["faults"])


def test_step_out_of_range_and_missing_replay_are_stored_errors(
        rq_conn: redis.Redis, run_jobs: Callable[[], bool]) -> None:
    replay_id, log = stored(rq_conn, "shields-cap.json")
    queue = make_queue(rq_conn)
    far = enqueue_ruling(queue, replay_id, len(log["steps"]) + 5)
    gone = enqueue_ruling(queue, "f" * 64, 1)
    run_jobs()
    assert store.get_ruling(rq_conn, far)["error"]["kind"] == "step-out-of-range"  # type: ignore[index]
    assert store.get_ruling(rq_conn, gone)["error"]["kind"] == "not-found"  # type: ignore[index]
    for job_id in (far, gone):
        job = fetch_job(rq_conn, job_id)
        assert job is not None and job.get_status() == JobStatus.FINISHED


def test_replay_job_stores_the_result(rq_conn: redis.Redis, run_jobs: Callable[[], bool]) -> None:
    replay_id, log = stored(rq_conn, "deck-out-both.json")
    rq_conn.delete(store.result_key(replay_id))
    job = enqueue_replay(make_queue(rq_conn), replay_id)
    run_jobs()
    job.refresh()
    assert job.get_status() == JobStatus.FINISHED
    assert job.return_value() == {"replay": replay_id, "ok": True, "valid": True}
    assert store.get_result(rq_conn, replay_id) == json.loads(json.dumps(replay_json(log)))


def test_job_options_come_from_settings(rq_conn: redis.Redis, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARBITER_JOB_TIMEOUT", "7")
    monkeypatch.setenv("ARBITER_JOB_RETRIES", "4")
    monkeypatch.setenv("ARBITER_RESULT_TTL", "120")
    monkeypatch.setenv("ARBITER_FAILURE_TTL", "240")
    job = enqueue_noop(make_queue(rq_conn))
    assert job.timeout == 7
    assert job.retries_left == 4
    assert job.result_ttl == 120
    assert job.failure_ttl == 240
    assert settings_mod.load().job_retries == 4


def test_non_json_results_are_refused() -> None:
    with pytest.raises(TypeError):
        jobs._json_result({"x": object()})
    with pytest.raises(ValueError):
        jobs._json_result({"x": float("nan")})
    assert jobs._json_result({"t": (1, 2)}) == {"t": [1, 2]}


def test_a_failing_job_is_retried_then_failed(
        rq_conn: redis.Redis, run_jobs: Callable[[], bool], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARBITER_JOB_RETRIES", "2")
    monkeypatch.setenv("ARBITER_JOB_RETRY_INTERVAL", "0")
    queue = make_queue(rq_conn)
    # an unexpected exception (here: a wrong arity) fails the job after its retries
    job = queue.enqueue("worker.jobs.noop", "unexpected-argument", retry=Retry(max=2))
    run_jobs()
    job.refresh()
    assert job.get_status() == JobStatus.FAILED
    assert job.retries_left == 0
