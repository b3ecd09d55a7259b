"""RQ jobs with a real worker (SimpleWorker, burst) on a real Redis, JSON serializer throughout."""

from __future__ import annotations

import dataclasses
import json
import logging
import os
import resource
import zlib
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import pytest
import redis
from rq import Retry
from rq.job import JobStatus

from arbiter import settings as settings_mod
from arbiter import store
from judge.limits import MAX_QUEUED_JOBS, MAX_STEPS_IN_REQUEST
from replays.service import MalformedLog, log_id, replay_json, ruling_json, timeline_json
from tests.helpers import load_example, malformed_log
from worker import jobs
from worker.queue import (
    enqueue_noop,
    enqueue_replay,
    enqueue_ruling,
    enqueue_timeline,
    fetch_job,
    is_full,
    make_queue,
    public_status,
    replay_job_id,
    timeline_job_id,
)


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
    assert value == {"ruling": ruling_id, "replay": replay_id, "at": 1, "ok": True, "outcome": "ok",
                     "delivered": True}
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
    assert job.return_value()["outcome"] == "malformed"
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


def test_replay_job_stores_the_result_once(rq_conn: redis.Redis, run_jobs: Callable[[], bool]) -> None:
    log = load_example("deck-out-both.json")
    stored_log = store.put_log(rq_conn, log, replay=False)
    replay_id = stored_log.replay_id
    assert stored_log.result is None and store.get_result(rq_conn, replay_id) is None
    job = enqueue_replay(make_queue(rq_conn), replay_id, request_id="req-7")
    assert job.id == replay_job_id(replay_id) and job.meta["request_id"] == "req-7"
    run_jobs()
    job.refresh()
    assert job.get_status() == JobStatus.FINISHED
    assert job.return_value() == {"replay": replay_id, "ok": True, "outcome": "ok", "delivered": True,
                                  "valid": True}
    assert store.get_result(rq_conn, replay_id) == json.loads(json.dumps(replay_json(log)))
    # a second run (as after a re-queue) finds the result and writes nothing
    again = make_queue(rq_conn).enqueue("worker.jobs.replay_stored", replay_id)
    gone = enqueue_replay(make_queue(rq_conn), "f" * 64)
    run_jobs()
    again.refresh()
    gone.refresh()
    assert again.return_value() == {"replay": replay_id, "ok": True, "outcome": "ok", "delivered": False}
    assert gone.return_value()["outcome"] == "not-found"
    assert store.get_result(rq_conn, "f" * 64) is None


def slow_replay(replay_id: str) -> dict[str, Any]:
    """The real replay job whose engine call outlasts the job's time ceiling (queued by name)."""
    from tests.worker.heavy_jobs import _slow

    return jobs.replay_job(replay_id, _slow)


def test_a_replay_past_its_ceiling_stores_an_error_that_expires_not_an_invalid_result(
        rq_conn: redis.Redis, run_jobs: Callable[[], bool], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARBITER_FAILURE_TTL", "300")
    replay_id = store.put_log(rq_conn, load_example("shields-cap.json"), replay=False).replay_id
    cfg = dataclasses.replace(settings_mod.load(), job_timeout=1)
    job = enqueue_replay(make_queue(rq_conn, cfg), replay_id, cfg, function="tests.worker.test_jobs.slow_replay")
    run_jobs()
    job.refresh()
    assert job.get_status() == JobStatus.FINISHED  # an answer, not a retry
    assert job.return_value() == {"replay": replay_id, "ok": False, "outcome": "ceiling", "delivered": True}
    assert store.get_result(rq_conn, replay_id) is None
    error = store.get_replay_error(rq_conn, replay_id)
    assert error == {"kind": "ceiling", "ceiling": "time", "message": error["message"]}  # type: ignore[index]
    assert "The replay took longer than 1 s" in error["message"]  # type: ignore[index]
    assert 0 < rq_conn.ttl(store.replay_error_key(replay_id)) <= 300
    # run again (the operator raised the ceiling): the result is stored and the error goes
    enqueue_replay(make_queue(rq_conn), replay_id)
    run_jobs()
    assert store.get_result(rq_conn, replay_id) is not None
    assert store.get_replay_error(rq_conn, replay_id) is None


def test_put_log_replays_only_what_fits_the_request_budget(rq_conn: redis.Redis) -> None:
    log = load_example("shields-cap.json")
    step = log["steps"][0]
    plain = {k: v for k, v in step.items() if k != "expect"}
    assert store.replay_work(log) == 2 and store.replay_work({"steps": [plain, plain]}) == 2
    assert store.replay_work({}) == 0
    half = MAX_STEPS_IN_REQUEST // 2 + 1  # steps with a checkpoint each: just over the budget
    heavy = dict(log, steps=[dict(step)] * half)
    assert store.replay_work(heavy) == 2 * half > MAX_STEPS_IN_REQUEST
    assert store.replays_in_request(dict(log, steps=[plain] * MAX_STEPS_IN_REQUEST))
    assert not store.replays_in_request(heavy)
    # its shortcuts (by the number of steps alone) answer as the work counted in full
    checked = {"expect": {"state_hash": "0" * 64}}
    for n in (0, 1, MAX_STEPS_IN_REQUEST // 2 - 1, MAX_STEPS_IN_REQUEST // 2, MAX_STEPS_IN_REQUEST // 2 + 1,
              MAX_STEPS_IN_REQUEST - 1, MAX_STEPS_IN_REQUEST, MAX_STEPS_IN_REQUEST + 1, 2 * MAX_STEPS_IN_REQUEST):
        for checks in sorted(c for c in {0, 1, n // 3, n // 2, n - 1, n} if 0 <= c <= n):
            steps = [checked] * checks + [plain] * (n - checks)
            other = dict(log, steps=steps)
            assert store.replays_in_request(other) == (store.replay_work(other) <= MAX_STEPS_IN_REQUEST), (n, checks)
    for odd in ({}, [], {"steps": None}, {"steps": {"a": 1}}, {"steps": [1, "x", None]}):
        assert store.replays_in_request(odd) == (store.replay_work(odd) <= MAX_STEPS_IN_REQUEST)
    light = store.put_log(rq_conn, log)
    assert light.result == json.loads(json.dumps(replay_json(log)))
    assert store.get_result(rq_conn, light.replay_id) == light.result
    stored_heavy = store.put_log(rq_conn, heavy)
    assert stored_heavy.created and stored_heavy.result is None
    assert store.get_log(rq_conn, stored_heavy.replay_id) == heavy
    assert store.get_result(rq_conn, stored_heavy.replay_id) is None
    assert store.put_log(rq_conn, heavy) == store.Stored(stored_heavy.replay_id, None, created=False)
    with pytest.raises(MalformedLog):
        store.put_log(rq_conn, malformed_log(), replay=False)
    # nothing of the malformed log was stored
    assert sorted(rq_conn.keys("arbiter:replay:*")) == sorted(k.encode() for k in (
        store.log_key(stored_heavy.replay_id), store.log_key(light.replay_id), store.result_key(light.replay_id),
        store.meta_key(stored_heavy.replay_id), store.meta_key(light.replay_id)))
    assert rq_conn.zcard(store.INDEX_KEY) == 2


def test_the_queue_is_full_at_its_bound(rq_conn: redis.Redis, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARBITER_MAX_QUEUED", "3")
    cfg = settings_mod.load()
    assert cfg.max_queued == 3
    queue = make_queue(rq_conn, cfg)
    for n in range(3):
        assert not is_full(queue, cfg), n
        enqueue_noop(queue, cfg)
    assert is_full(queue, cfg) and queue.count == 3
    assert settings_mod.Settings(None, cfg.data_dir, 1, 0, 0, 1, 1, 1).max_queued == MAX_QUEUED_JOBS


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


def test_a_ruling_is_written_once_even_when_its_job_runs_twice(
        rq_conn: redis.Redis, run_jobs: Callable[[], bool]) -> None:
    replay_id, log = stored(rq_conn, "shields-cap.json")
    queue = make_queue(rq_conn)
    ruling_id = enqueue_ruling(queue, replay_id, 1)
    assert run_jobs()
    first = store.get_ruling(rq_conn, ruling_id)
    assert first is not None and first["ruling"] == json.loads(json.dumps(ruling_json(log, 1)))
    assert store.deliveries(rq_conn, ruling_id) == 1
    # a second run for the same ruling (as after a re-queue) computes an answer of its own ...
    again = queue.enqueue("tests.worker.heavy_jobs.other_ruling", ruling_id, replay_id, 1)
    assert run_jobs()
    again.refresh()
    assert again.return_value() == {"ruling": ruling_id, "replay": replay_id, "at": 1, "ok": True,
                                    "outcome": "ok", "delivered": False}
    # ... but the first answer stays, delivered once
    assert store.get_ruling(rq_conn, ruling_id) == first
    assert store.deliveries(rq_conn, ruling_id) == 1


def test_the_timeline_job_stores_the_timeline_once(
        rq_conn: redis.Redis, run_jobs: Callable[[], bool]) -> None:
    replay_id, log = stored(rq_conn, "claim-then-auto-pass.json")
    job = enqueue_timeline(make_queue(rq_conn), replay_id)
    assert job.id == timeline_job_id(replay_id)
    assert run_jobs()
    job.refresh()
    assert job.return_value() == {"replay": replay_id, "ok": True, "outcome": "ok", "delivered": True}
    assert store.get_timeline(rq_conn, replay_id) == {"timeline": json.loads(json.dumps(timeline_json(log)))}
    queue = make_queue(rq_conn)
    again = queue.enqueue("worker.jobs.compute_timeline", replay_id)  # already there: not computed again
    gone = enqueue_timeline(queue, "f" * 64)
    assert run_jobs()
    again.refresh()
    gone.refresh()
    assert again.return_value()["delivered"] is False
    assert gone.return_value()["outcome"] == "not-found"
    assert store.get_timeline(rq_conn, "f" * 64) is None


def test_the_time_ceiling_in_a_simple_worker_is_an_answer_and_no_memory_ceiling_is_set(
        rq_conn: redis.Redis, run_jobs: Callable[[], bool]) -> None:
    replay_id, _log = stored(rq_conn, "shields-cap.json")
    cfg = dataclasses.replace(settings_mod.load(), job_timeout=1)
    before = resource.getrlimit(resource.RLIMIT_AS)
    ruling_id = enqueue_ruling(make_queue(rq_conn, cfg), replay_id, 1, cfg,
                               function="tests.worker.heavy_jobs.slow_ruling")
    run_jobs()
    error = store.get_ruling(rq_conn, ruling_id)["error"]  # type: ignore[index]
    assert error == {"kind": "ceiling", "ceiling": "time", "message": error["message"]}
    assert "took longer than 1 s" in error["message"]
    job = fetch_job(rq_conn, ruling_id)
    assert job is not None and job.get_status() == JobStatus.FINISHED  # an answer, not a retry
    assert resource.getrlimit(resource.RLIMIT_AS) == before  # the memory ceiling is a work horse's only


def test_one_json_log_line_per_job(rq_conn: redis.Redis, run_jobs: Callable[[], bool],
                                   caplog: pytest.LogCaptureFixture) -> None:
    replay_id, log = stored(rq_conn, "shields-cap.json")
    queue = make_queue(rq_conn)
    ok = enqueue_ruling(queue, replay_id, 1, request_id="req-42")
    far = enqueue_ruling(queue, replay_id, len(log["steps"]) + 1)
    broken = queue.enqueue("worker.jobs.noop", "unexpected-argument", meta={"replay": replay_id})
    with caplog.at_level(logging.INFO, logger="arbiter.jobs"):
        run_jobs()
    lines = [json.loads(r.getMessage()) for r in caplog.records if r.name == "arbiter.jobs"]
    by_job = {line["job"]: line for line in lines}
    assert len(lines) == len(by_job) == 3
    first = by_job[ok]
    assert first["function"] == "worker.jobs.compute_ruling" and first["replay"] == replay_id
    assert first["request_id"] == "req-42" and first["outcome"] == "ok" and first["delivered"] is True
    assert first["pid"] == os.getpid() and first["worker"] and first["duration_ms"] >= 0
    assert by_job[far]["outcome"] == "step-out-of-range" and by_job[far]["request_id"] is None
    assert by_job[broken.id]["outcome"] == "failed" and by_job[broken.id]["level"] == "error"
    assert first["level"] == "info" and first["ts"].startswith(str(datetime.now(UTC).year))


def test_waiting_for_a_retry_shows_as_queued() -> None:
    assert public_status(JobStatus.SCHEDULED) == "queued"
    assert public_status(JobStatus.STARTED) == "started"
    assert public_status(JobStatus.FAILED) == "failed"
