"""``arbiter worker --burst`` as a real subprocess (forking RQ worker) against the session Redis."""

from __future__ import annotations

import os
import subprocess
import sys

import redis
from rq.job import JobStatus

from arbiter import store
from tests.helpers import ROOT, load_example
from worker.queue import enqueue_noop, enqueue_ruling, fetch_job, make_queue


def test_arbiter_worker_burst_runs_queued_jobs(redis_url: str, redis_db: redis.Redis) -> None:
    conn = redis.Redis.from_url(redis_url)
    replay_id = store.put_log(conn, load_example("modifier-alone.json")).replay_id
    queue = make_queue(conn)
    noop = enqueue_noop(queue)
    ruling_id = enqueue_ruling(queue, replay_id, None)
    env = {**os.environ, "REDIS_URL": redis_url}
    proc = subprocess.run([sys.executable, "-m", "arbiter", "worker", "--burst"], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    noop.refresh()
    assert noop.get_status() == JobStatus.FINISHED and noop.return_value() == {"ok": True}
    job = fetch_job(conn, ruling_id)
    assert job is not None and job.get_status() == JobStatus.FINISHED
    record = store.get_ruling(conn, ruling_id)
    assert record is not None and "ruling" in record, record
