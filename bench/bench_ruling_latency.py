"""End-to-end ruling latency, beside the queue's own floor.

For each of N requests: ``POST /v1/rulings`` (Flask test client) -> RQ queue -> a real forking
``arbiter worker`` subprocess -> poll ``GET /v1/rulings/<id>`` until finished. In the same run, N
no-op RQ jobs give the floor any queued job pays (enqueue, fork, dequeue, result), each right
after a ruling (the two in turn), and N direct ``ruling_json`` calls give the engine's share.
Bounded loops, loopback/unix socket only.

Environment: ``BENCH_N`` (default 200), ``REDIS_URL`` (default: an embedded server in a temp dir).
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import redis

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from api import create_app  # noqa: E402
from arbiter.redis_conn import EmbeddedRedis  # noqa: E402
from replays.service import ruling_json  # noqa: E402
from tests.helpers import load_example  # noqa: E402
from worker.liveness import live_workers  # noqa: E402
from worker.queue import enqueue_noop, make_queue  # noqa: E402

N = int(os.environ.get("BENCH_N", "200"))
POLL = 0.0005  # seconds between status polls
TIMEOUT = 10.0  # per request
EXAMPLE = "shields-cap.json"


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def wait_until(done: Callable[[], bool]) -> None:
    deadline = time.perf_counter() + TIMEOUT
    while not done():
        if time.perf_counter() > deadline:
            raise TimeoutError("no answer within the time-out")
        time.sleep(POLL)


def bench(url: str) -> None:
    env = {**os.environ, "REDIS_URL": url}
    worker = subprocess.Popen([sys.executable, "-m", "arbiter", "worker"], env=env, cwd=ROOT)
    try:
        app = create_app({"REDIS_URL": url})
        client = app.test_client()
        log = load_example(EXAMPLE)
        replay_id = client.post("/v1/replays", json=log).get_json()["id"]
        queue = make_queue(redis.Redis.from_url(url))
        wait_until(lambda: live_workers(queue) > 0)  # the API refuses rulings (503) until a worker beats

        def one_ruling() -> float:
            t0 = time.perf_counter()
            resp = client.post("/v1/rulings", json={"replay": replay_id, "at": 1})
            assert resp.status_code == 202, resp.get_data(as_text=True)
            location = resp.headers["Location"]
            state: dict[str, str] = {}

            def finished() -> bool:
                state["status"] = client.get(location).get_json()["status"]
                return state["status"] in ("finished", "failed")

            wait_until(finished)
            assert state["status"] == "finished", state
            return time.perf_counter() - t0

        def one_noop() -> float:
            t0 = time.perf_counter()
            job = enqueue_noop(queue)
            wait_until(lambda: job.get_status(refresh=True).value in ("finished", "failed"))
            return time.perf_counter() - t0

        def one_engine() -> float:
            t0 = time.perf_counter()
            ruling_json(log, 1)
            return time.perf_counter() - t0

        for _ in range(5):  # warm-up: imports, first fork, connections
            one_ruling()
            one_noop()
        rulings: list[float] = []
        noops: list[float] = []
        for _ in range(N):  # in turn, so that a slow spell of the machine falls on both sides
            rulings.append(one_ruling())
            noops.append(one_noop())
        engine = [one_engine() for _ in range(N)]
    finally:
        worker.terminate()
        worker.wait(timeout=30)

    ms = 1000.0
    r50, r99 = pct(rulings, 0.5) * ms, pct(rulings, 0.99) * ms
    n50, n99 = pct(noops, 0.5) * ms, pct(noops, 0.99) * ms
    e50, e99 = pct(engine, 0.5) * ms, pct(engine, 0.99) * ms
    print(f"ruling latency ({EXAMPLE}, step 1), N={N}, one forking worker, redis {url.split('?')[0]}")
    print(f"  API+queue+worker ruling  p50 {r50:8.2f} ms   p99 {r99:8.2f} ms   "
          f"mean {statistics.mean(rulings) * ms:8.2f} ms")
    print(f"  no-op RQ job (floor)     p50 {n50:8.2f} ms   p99 {n99:8.2f} ms")
    print(f"  ruling_json in-process   p50 {e50:8.2f} ms   p99 {e99:8.2f} ms")
    print(f"  ratio ruling/no-op       p50 {r50 / n50:8.2f} x   p99 {r99 / n99:8.2f} x")
    print(f"  above the floor          p50 {r50 - n50:8.2f} ms (engine p50 {e50:.2f} ms)")


def main() -> None:
    url = os.environ.get("REDIS_URL")
    if url:
        bench(url)
        return
    with tempfile.TemporaryDirectory() as tmp:
        server = EmbeddedRedis(tmp)
        try:
            bench(server.start())
        finally:
            server.stop()


if __name__ == "__main__":
    main()
