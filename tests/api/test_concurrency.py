"""Two API servers (gunicorn) and three ``arbiter worker`` processes on one Redis: 500 concurrent
``POST /v1/rulings`` spread over both servers, each ruling finished and delivered exactly once.

"Delivered" counts the writes of a ruling's record (arbiter/store.py: written once, ``SET NX``,
with a counter raised in the same step); every job run also logs one JSON line (worker/joblog.py),
from which the runs per ruling are counted.
"""

from __future__ import annotations

import http.client
import json
import os
import socket
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
import redis

from arbiter import store
from replays.service import ruling_json
from tests.helpers import ROOT, load_example
from tests.worker.live import start_worker, stop_worker, wait_live

RULINGS = 500
EXAMPLES = ["shields-cap.json", "modifier-alone.json", "deck-out-both.json", "claim-then-auto-pass.json"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _request(port: int, method: str, path: str, body: Any = None) -> tuple[int, Any]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        data = None if body is None else json.dumps(body).encode()
        conn.request(method, path, body=data, headers={"Content-Type": "application/json"} if data else {})
        resp = conn.getresponse()
        return resp.status, json.loads(resp.read() or b"null")
    finally:
        conn.close()


@pytest.fixture()
def service(redis_url: str, redis_db: redis.Redis, tmp_path: Path) -> Iterator[tuple[list[int], Path]]:
    """Two gunicorn servers and three workers on the session Redis; yields the ports and the
    workers' stderr (their job lines)."""
    env = {**os.environ, "REDIS_URL": redis_url, "PYTHONUNBUFFERED": "1"}
    ports = [_free_port(), _free_port()]
    servers = [subprocess.Popen([sys.executable, "-m", "gunicorn", "--workers", "2", "--worker-class", "gthread",
                                 "--threads", "8", "--bind", f"127.0.0.1:{port}", "api:create_app()"],
                                cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                start_new_session=True)
               for port in ports]
    stderr = tmp_path / "workers.err"
    workers = [start_worker(redis_url, stderr) for _ in range(3)]
    try:
        deadline = time.monotonic() + 60
        for port in ports:
            while True:
                try:
                    if _request(port, "GET", "/healthz")[0] == 200:
                        break
                except OSError:
                    pass
                assert time.monotonic() < deadline, "an API server never answered /healthz"
                time.sleep(0.1)
        wait_live(redis_url, 3)
        yield ports, stderr
    finally:
        for proc in servers:
            proc.terminate()
        for proc in servers:
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        for proc in workers:
            stop_worker(proc)


def test_500_concurrent_rulings_on_two_apis_and_three_workers_are_each_delivered_once(
        service: tuple[list[int], Path], redis_url: str) -> None:
    ports, stderr = service
    logs = {name: load_example(name) for name in EXAMPLES}
    replay_ids = {}
    for i, name in enumerate(EXAMPLES):
        status, body = _request(ports[i % 2], "POST", "/v1/replays", logs[name])
        assert status in (200, 201), body
        replay_ids[name] = body["id"]
    # each example in turn, on each of its steps in turn
    asks = [(name, 1 + (i // len(EXAMPLES)) % len(logs[name]["steps"]))
            for i, name in ((i, EXAMPLES[i % len(EXAMPLES)]) for i in range(RULINGS))]

    def post(i: int) -> tuple[int, Any]:
        name, at = asks[i]
        return _request(ports[i % 2], "POST", "/v1/rulings", {"replay": replay_ids[name], "at": at})

    started = time.monotonic()
    with ThreadPoolExecutor(max_workers=100) as pool:
        answers = list(pool.map(post, range(RULINGS)))
    posted = time.monotonic() - started
    assert [status for status, _ in answers] == [202] * RULINGS, Counter(status for status, _ in answers)
    ids = [body["id"] for _, body in answers]
    assert len(set(ids)) == RULINGS

    conn = redis.Redis.from_url(redis_url, decode_responses=True)
    deadline = time.monotonic() + 60
    while True:
        stored = conn.mget([store.ruling_key(ruling_id) for ruling_id in ids])
        if all(stored) or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    done = time.monotonic() - started
    assert sum(1 for raw in stored if raw is None) == 0, "rulings lost or never finished"

    # each ruling: delivered exactly once, run exactly once, and answered in full by either server
    counts = conn.mget([store.deliveries_key(ruling_id) for ruling_id in ids])
    assert Counter(counts) == {"1": RULINGS}
    expected = {(name, at): json.loads(json.dumps(ruling_json(logs[name], at))) for name, at in set(asks)}

    def get(i: int) -> tuple[int, Any]:
        return _request(ports[(i + 1) % 2], "GET", f"/v1/rulings/{ids[i]}")

    with ThreadPoolExecutor(max_workers=50) as pool:
        polled = list(pool.map(get, range(RULINGS)))
    for i, (status, body) in enumerate(polled):
        name, at = asks[i]
        assert status == 200 and body["status"] == "finished", body
        assert body["ruling"] == expected[(name, at)] and body["replay"] == replay_ids[name]

    time.sleep(0.5)  # the workers log a job's line just after its result is stored
    lines = [line for line in (json.loads(raw) for raw in stderr.read_text().splitlines() if raw.startswith("{"))
             if line.get("event") == "job"]
    runs = Counter(line["job"] for line in lines)
    assert runs == Counter({ruling_id: 1 for ruling_id in ids})
    assert {line["outcome"] for line in lines} == {"ok"} and all(line["delivered"] for line in lines)
    assert len({line["worker"] for line in lines}) == 3  # all three workers took part
    assert conn.zcard("rq:failed:arbiter") == 0
    print(f"{RULINGS} rulings: posted in {posted:.1f} s, all delivered after {done:.1f} s")
    conn.close()
