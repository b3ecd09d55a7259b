"""The time and memory ceilings of a job, in a real forking ``arbiter worker`` on the session Redis: a
job past either ceiling stores a clear answer (no retry), and the worker lives on to the next job."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import redis
from rq.job import JobStatus

from arbiter import settings as settings_mod
from arbiter import store
from replays.service import ruling_json
from tests.helpers import load_example
from tests.worker.live import start_worker
from worker.queue import enqueue_ruling, enqueue_timeline, fetch_job, make_queue

HEAVY = "tests.worker.heavy_jobs."


def job_lines(path: Path) -> dict[str, dict[str, object]]:
    lines = {}
    for raw in path.read_text().splitlines():
        if raw.startswith("{"):
            record = json.loads(raw)
            if record.get("event") == "job":
                lines[record["job"]] = record
    return lines


def test_a_job_past_a_ceiling_fails_clearly_and_the_worker_takes_the_next(
        redis_url: str, redis_db: redis.Redis, tmp_path: Path) -> None:
    conn = redis.Redis.from_url(redis_url)
    log = load_example("shields-cap.json")
    replay_id = store.put_log(conn, log).replay_id
    cfg = dataclasses.replace(settings_mod.load(), job_timeout=2, job_memory_mb=64)
    queue = make_queue(conn, cfg)
    slow = enqueue_ruling(queue, replay_id, 1, cfg, function=HEAVY + "slow_ruling")
    hungry = enqueue_ruling(queue, replay_id, 1, cfg, function=HEAVY + "hungry_ruling")
    bloated = enqueue_ruling(queue, replay_id, 1, cfg, function=HEAVY + "bloated_ruling")
    hungry_timeline = enqueue_timeline(queue, replay_id, cfg, function=HEAVY + "hungry_timeline")
    limits = enqueue_ruling(queue, replay_id, 1, cfg, function=HEAVY + "limits_ruling")
    after = enqueue_ruling(queue, replay_id, 1, cfg)

    stderr = tmp_path / "worker.err"
    proc = start_worker(redis_url, stderr, burst=True, ARBITER_JOB_MEMORY_MB="64")
    assert proc.wait(timeout=90) == 0, stderr.read_text()

    slow_error = store.get_ruling(conn, slow)["error"]  # type: ignore[index]
    assert slow_error["kind"] == "ceiling" and slow_error["ceiling"] == "time"
    assert "took longer than 2 s" in slow_error["message"]
    hungry_error = store.get_ruling(conn, hungry)["error"]  # type: ignore[index]
    assert hungry_error["kind"] == "ceiling" and hungry_error["ceiling"] == "memory"
    assert "needed more than 64 MB" in hungry_error["message"]
    # an answer computed within the ceiling whose JSON text is not: the ceiling's error is stored instead
    assert store.get_ruling(conn, bloated) == {"replay": replay_id, "at": 1, "error": hungry_error}
    timeline_error = store.get_timeline(conn, replay_id)["error"]  # type: ignore[index]
    assert timeline_error["ceiling"] == "memory"
    for job_id in (slow, hungry, bloated, hungry_timeline.id):  # answered, not failed and retried
        job = fetch_job(conn, job_id)
        assert job is not None and job.get_status() == JobStatus.FINISHED
        assert job.retries_left == cfg.job_retries

    # the ceiling is set in the work horse only, never in the worker that forks it
    seen = conn.hgetall(f"arbiter:test:limits:{limits}")
    unlimited = int(seen[b"unlimited"])
    assert int(seen[b"worker"]) == unlimited
    assert int(seen[b"horse"]) != unlimited

    # the same worker went on: the next job is a real ruling, answered in full
    assert store.get_ruling(conn, after) == {"replay": replay_id, "at": 1,
                                             "ruling": json.loads(json.dumps(ruling_json(log, 1)))}

    # one JSON line per job on the worker's stderr
    lines = job_lines(stderr)
    assert {lines[j]["outcome"] for j in (slow, hungry, bloated, hungry_timeline.id)} == {"ceiling"}
    assert lines[after]["outcome"] == "ok" and lines[after]["function"] == "worker.jobs.compute_ruling"
    assert lines[after]["replay"] == replay_id and lines[after]["delivered"] is True
    assert lines[after]["pid"] == proc.pid
    conn.close()
