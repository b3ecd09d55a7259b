"""API throughput beside a Flask hello-world, on the same gunicorn settings, in the same run.

Two gunicorn servers (gthread, the same workers and threads, 127.0.0.1 on free ports) are started:
the Arbiter API (``api:create_app()``) on a real Redis with RQ workers (``python -m arbiter worker``
subprocesses) and ``bench/hello_app.py``. A load generator in other processes (``wrk`` when it is
installed, else a Python client: several processes, each with a few keep-alive ``http.client``
connections) drives, each for a warm-up and then a measured window at a fixed concurrency:

- ``GET /`` of the hello-world (the baseline), before and after the API's runs (the ratios are to
  the mean of the two, so that a load drifting during the run moves both sides alike);
- ``GET /v1/rulings/<id>`` of a finished ruling (200);
- ``POST /v1/rulings`` with ``{"replay": <id of a stored example>}`` (202; the jobs it queues are
  worked meanwhile by the RQ workers, which share the machine's CPUs with the server).

Each API figure is printed beside the hello-world's and as a ratio to it. ``--keep-alive 5`` and
gthread with 2 x 4 are the settings ``arbiter serve`` uses. Any answer other than the
expected status (or a socket error) fails the bench: the figure would not mean what it says. The
queue is emptied afterwards and every process started here is stopped.

Environment: ``REDIS_URL`` (default: an embedded server in a temp dir; with a shared server the
``arbiter`` queue is emptied at the end), ``BENCH_CONCURRENCY`` (16), ``BENCH_WARMUP`` (5 s),
``BENCH_DURATION`` (10 s), ``BENCH_GUNICORN_WORKERS`` (2), ``BENCH_GUNICORN_THREADS`` (4),
``BENCH_RQ_WORKERS`` (2), ``BENCH_CLIENT`` (``wrk`` or ``python``; default ``wrk`` when installed).
``wrk`` on Debian/Ubuntu: ``apt-get install -y wrk``.
"""

from __future__ import annotations

import http.client
import json
import math
import multiprocessing as mp
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import redis

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from arbiter.redis_conn import EmbeddedRedis  # noqa: E402
from worker.queue import make_queue  # noqa: E402

CONCURRENCY = int(os.environ.get("BENCH_CONCURRENCY", "16"))
WARMUP = float(os.environ.get("BENCH_WARMUP", "5"))
DURATION = float(os.environ.get("BENCH_DURATION", "10"))
GUNICORN_WORKERS = int(os.environ.get("BENCH_GUNICORN_WORKERS", "2"))
GUNICORN_THREADS = int(os.environ.get("BENCH_GUNICORN_THREADS", "4"))
RQ_WORKERS = int(os.environ.get("BENCH_RQ_WORKERS", "2"))
EXAMPLE = ROOT / "replays" / "examples" / "shields-cap.json"
STARTUP_TIMEOUT = 60.0
INSTALL_WRK = "apt-get install -y wrk"


# ------------------------------------------------------------------ processes


@dataclass
class Proc:
    """A subprocess started here, in its own process group (so its children go with it)."""

    name: str
    popen: subprocess.Popen[bytes]
    log: Path

    def alive(self) -> bool:
        return self.popen.poll() is None

    def tail(self, lines: int = 30) -> str:
        try:
            text = self.log.read_text(errors="replace").splitlines()
        except OSError:
            return ""
        return "\n".join(text[-lines:])

    def stop(self, timeout: float = 15.0) -> None:
        """SIGTERM to the group (a graceful stop), then SIGKILL to the group if it lingers."""
        pgid = self.popen.pid  # start_new_session=True: the group id is the leader's pid
        for sig, wait in ((signal.SIGTERM, timeout), (signal.SIGKILL, 5.0)):
            try:
                os.killpg(pgid, sig)
            except ProcessLookupError:
                break
            try:
                self.popen.wait(timeout=wait)
            except subprocess.TimeoutExpired:
                continue
            # the leader is gone; make sure nothing of its group (forked work horses) is left
            try:
                os.killpg(pgid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            break


def start(name: str, argv: list[str], env: dict[str, str], tmp: Path, cwd: Path = ROOT) -> Proc:
    log = tmp / f"{name}.log"
    with open(log, "wb") as out:
        popen = subprocess.Popen(argv, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT,
                                 stdin=subprocess.DEVNULL, start_new_session=True)
    return Proc(name, popen, log)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def gunicorn(name: str, app: str, chdir: Path, port: int, env: dict[str, str], tmp: Path) -> Proc:
    """One gunicorn server; both apps get exactly these settings."""
    argv = [sys.executable, "-m", "gunicorn", "--worker-class", "gthread",
            "--workers", str(GUNICORN_WORKERS), "--threads", str(GUNICORN_THREADS),
            "--bind", f"127.0.0.1:{port}", "--chdir", str(chdir), "--log-level", "warning",
            "--keep-alive", "5", "--graceful-timeout", "5", app]
    return start(name, argv, env, tmp)


def request(port: int, method: str, path: str, body: Any = None) -> tuple[int, Any]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        headers = {"Content-Type": "application/json"} if body is not None else {}
        data = json.dumps(body).encode() if body is not None else None
        conn.request(method, path, body=data, headers=headers)
        resp = conn.getresponse()
        raw = resp.read()
        try:
            return resp.status, json.loads(raw) if raw else None
        except ValueError:
            return resp.status, raw.decode(errors="replace")
    finally:
        conn.close()


def wait_answering(proc: Proc, port: int, path: str) -> None:
    deadline = time.monotonic() + STARTUP_TIMEOUT
    while time.monotonic() < deadline:
        if not proc.alive():
            raise RuntimeError(f"{proc.name} exited ({proc.popen.returncode}):\n{proc.tail()}")
        try:
            status, _ = request(port, "GET", path)
            if status == 200:
                return
        except OSError:
            pass
        time.sleep(0.1)
    raise RuntimeError(f"{proc.name} did not answer GET {path} within {STARTUP_TIMEOUT:.0f} s:\n{proc.tail()}")


# ------------------------------------------------------------------ load generators


@dataclass
class Figures:
    requests: int
    seconds: float
    p50_ms: float
    p99_ms: float
    unexpected: int  # answers with another status, plus socket errors
    detail: str = ""
    statuses: Counter[int] = field(default_factory=Counter)

    @property
    def rate(self) -> float:
        return self.requests / self.seconds if self.seconds else 0.0


_UNIT_MS = {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60_000.0}


def _wrk_ms(text: str) -> float:
    m = re.fullmatch(r"([\d.]+)(us|ms|s|m)", text)
    if not m:
        raise ValueError(f"cannot read a wrk latency {text!r}")
    return float(m.group(1)) * _UNIT_MS[m.group(2)]


def run_wrk(port: int, path: str, method: str, body: str | None, seconds: float, tmp: Path) -> Figures:
    script = tmp / f"wrk-{method.lower()}.lua"
    lines = [f'wrk.method = "{method}"']
    if body is not None:
        lines += [f"wrk.body = '{body}'", 'wrk.headers["Content-Type"] = "application/json"']
    script.write_text("\n".join(lines) + "\n")
    threads = max(1, min(CONCURRENCY, os.cpu_count() or 1))
    argv = ["wrk", f"-t{threads}", f"-c{CONCURRENCY}", f"-d{max(1, round(seconds))}s", "--latency",
            "--timeout", "10s", "-s", str(script), f"http://127.0.0.1:{port}{path}"]
    out = subprocess.run(argv, capture_output=True, text=True, timeout=seconds + 60, check=True).stdout
    total = re.search(r"(\d+) requests in ([\d.]+)(us|ms|s|m)", out)
    p50 = re.search(r"^\s+50%\s+(\S+)", out, re.M)
    p99 = re.search(r"^\s+99%\s+(\S+)", out, re.M)
    if not (total and p50 and p99):
        raise RuntimeError(f"cannot read wrk's output:\n{out}")
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", out)
    unexpected = int(non2xx.group(1)) if non2xx else 0
    unexpected += sum(int(g) for g in errors.groups()) if errors else 0
    seconds_run = _wrk_ms(total.group(2) + total.group(3)) / 1000.0
    return Figures(int(total.group(1)), seconds_run, _wrk_ms(p50.group(1)), _wrk_ms(p99.group(1)),
                   unexpected, detail=out.strip() if unexpected else "")


def _client_process(port: int, method: str, path: str, body: bytes | None, expect: int, threads: int,
                    t_start: float, t_end: float, out: Any) -> None:
    """One client process: ``threads`` keep-alive connections, each sending requests back to back."""
    lock = threading.Lock()
    latencies: list[float] = []
    statuses: Counter[int] = Counter()
    headers = {"Content-Type": "application/json"} if body is not None else {}

    def loop() -> None:
        mine: list[float] = []
        seen: Counter[int] = Counter()
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        while time.time() < t_start:
            time.sleep(0.001)
        while True:
            t0 = time.time()
            if t0 >= t_end:
                break
            try:
                conn.request(method, path, body=body, headers=headers)
                resp = conn.getresponse()
                resp.read()
                status = resp.status
            except (OSError, http.client.HTTPException):
                status = 0  # a socket error; reconnect
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            t1 = time.time()
            if t1 <= t_end:  # a request still in flight at the end is not counted
                mine.append(t1 - t0)
                seen[status] += 1
        conn.close()
        with lock:
            latencies.extend(mine)
            statuses.update(seen)

    pool = [threading.Thread(target=loop) for _ in range(threads)]
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    out.put((latencies, dict(statuses)))


def run_python(port: int, path: str, method: str, body: str | None, seconds: float, expect: int) -> Figures:
    ctx = mp.get_context("fork")  # the children only use http.client
    procs_n = max(1, min(CONCURRENCY, 4))
    per = [CONCURRENCY // procs_n + (1 if i < CONCURRENCY % procs_n else 0) for i in range(procs_n)]
    t_start = time.time() + 0.5
    t_end = t_start + seconds
    out = ctx.Queue()
    data = body.encode() if body is not None else None
    procs = [ctx.Process(target=_client_process, args=(port, method, path, data, expect, n, t_start, t_end, out))
             for n in per]
    for p in procs:
        p.start()
    latencies: list[float] = []
    statuses: Counter[int] = Counter()
    try:
        for _ in procs:
            lat, st = out.get(timeout=seconds + 60)
            latencies.extend(lat)
            statuses.update({int(k): v for k, v in st.items()})
    finally:
        for p in procs:
            p.join(timeout=10)
            if p.is_alive():
                p.kill()
                p.join()
    ordered = sorted(latencies)

    def pct(q: float) -> float:
        return ordered[min(len(ordered) - 1, math.ceil(q * len(ordered)) - 1)] * 1000.0 if ordered else math.nan

    unexpected = sum(n for s, n in statuses.items() if s != expect)
    return Figures(len(latencies), seconds, pct(0.50), pct(0.99), unexpected, statuses=statuses,
                   detail=f"statuses {dict(statuses)}" if unexpected else "")


def load(kind: str, port: int, path: str, method: str, body: str | None, expect: int, tmp: Path) -> Figures:
    """A warm-up window (discarded), then the measured window."""
    for seconds, keep in ((WARMUP, False), (DURATION, True)):
        if seconds <= 0:
            continue
        if kind == "wrk":
            figures = run_wrk(port, path, method, body, seconds, tmp)
        else:
            figures = run_python(port, path, method, body, seconds, expect)
        if keep:
            return figures
    raise ValueError("BENCH_DURATION must be positive")


# ------------------------------------------------------------------ the bench


def bench(url: str, tmp: Path, embedded: bool) -> int:
    kind = os.environ.get("BENCH_CLIENT") or ("wrk" if shutil.which("wrk") else "python")
    if kind == "wrk" and not shutil.which("wrk"):
        raise SystemExit(f"BENCH_CLIENT=wrk but wrk is not installed ({INSTALL_WRK})")
    if kind == "python" and not os.environ.get("BENCH_CLIENT"):
        print(f"wrk is not installed ({INSTALL_WRK}); using the Python multi-process client instead")

    # the queue's bound (MAX_QUEUED_JOBS) answers 503 once 1,000 rulings wait, and a 10 s burst queues
    # several thousand: the bench lifts it to measure the API's own rate of accepting (202) rulings
    env = {**os.environ, "REDIS_URL": url, "ARBITER_DATA_DIR": str(tmp / "data"), "PYTHONUNBUFFERED": "1",
           "ARBITER_MAX_QUEUED": "1000000"}
    procs: list[Proc] = []
    conn = redis.Redis.from_url(url)
    queue = make_queue(conn)
    try:
        for i in range(RQ_WORKERS):
            procs.append(start(f"rq-worker-{i + 1}", [sys.executable, "-m", "arbiter", "worker"], env, tmp))
        api_port, hello_port = free_port(), free_port()
        api = gunicorn("api", "api:create_app()", ROOT, api_port, env, tmp)
        procs.append(api)
        hello = gunicorn("hello", "hello_app:app", ROOT / "bench", hello_port, env, tmp)
        procs.append(hello)
        wait_answering(api, api_port, "/healthz")
        wait_answering(hello, hello_port, "/")

        status, created = request(api_port, "POST", "/v1/replays", json.loads(EXAMPLE.read_text()))
        if status not in (200, 201):
            raise RuntimeError(f"POST /v1/replays {EXAMPLE.name}: {status} {created}")
        replay_id = created["id"]
        ruling_body = json.dumps({"replay": replay_id}, separators=(",", ":"))

        # One finished ruling to GET; also proves a worker is alive (503 while none is).
        deadline = time.monotonic() + STARTUP_TIMEOUT
        ruling_id = None
        while time.monotonic() < deadline:
            for p in procs:
                if not p.alive():
                    raise RuntimeError(f"{p.name} exited ({p.popen.returncode}):\n{p.tail()}")
            if ruling_id is None:
                status, accepted = request(api_port, "POST", "/v1/rulings", {"replay": replay_id})
                if status == 202:
                    ruling_id = accepted["id"]
                elif status != 503:
                    raise RuntimeError(f"POST /v1/rulings: {status} {accepted}")
            else:
                status, answer = request(api_port, "GET", f"/v1/rulings/{ruling_id}")
                if status == 200 and answer.get("status") == "finished":
                    if answer.get("error") or not answer.get("ruling"):
                        raise RuntimeError(f"the ruling finished without a ruling: {answer}")
                    break
                if status != 200 or answer.get("status") == "failed":
                    raise RuntimeError(f"GET /v1/rulings/{ruling_id}: {status} {answer}")
            time.sleep(0.05)
        else:
            raise RuntimeError(f"no finished ruling within {STARTUP_TIMEOUT:.0f} s (are the workers up?)\n"
                               + "\n".join(p.tail(10) for p in procs if p.name.startswith("rq")))

        # hello-world before and after the API (the ratio is to their mean): a load that drifts
        # during the run (other processes on the machine) moves both sides alike
        hello_before = load(kind, hello_port, "/", "GET", None, 200, tmp)
        get_fig = load(kind, api_port, f"/v1/rulings/{ruling_id}", "GET", None, 200, tmp)
        finished_before = queue.finished_job_registry.count
        post_fig = load(kind, api_port, "/v1/rulings", "POST", ruling_body, 202, tmp)
        backlog = queue.count
        worked = queue.finished_job_registry.count - finished_before
        failed_jobs = queue.failed_job_registry.count
        queue.empty()  # the backlog would keep the workers busy during the second hello-world run
        time.sleep(1.0)
        hello_after = load(kind, hello_port, "/", "GET", None, 200, tmp)
        for p in procs:
            if not p.alive():
                raise RuntimeError(f"{p.name} died during the bench ({p.popen.returncode}):\n{p.tail()}")
    finally:
        try:
            queue.empty()  # drain: nothing of this bench is left for a worker
        except redis.RedisError as exc:
            print(f"could not empty the queue: {exc}")
        for p in reversed(procs):
            p.stop()
        conn.connection_pool.disconnect()

    client = ("wrk " + subprocess.run(["wrk", "-v"], capture_output=True, text=True).stdout.split()[1]
              if kind == "wrk" else "Python client (4 processes, keep-alive http.client)")
    print(f"API throughput beside a Flask hello-world, same run, same server: gunicorn gthread "
          f"{GUNICORN_WORKERS} workers x {GUNICORN_THREADS} threads on 127.0.0.1; {RQ_WORKERS} RQ workers; "
          f"Redis {'embedded (unix socket)' if embedded else url.split('@')[-1] + ' (its finished rulings stay)'}; "
          f"{os.cpu_count()} CPUs shared "
          f"by server, workers and load generator")
    print(f"load: {client}, {CONCURRENCY} connections, {WARMUP:g} s warm-up + {DURATION:g} s measured each; "
          f"load average {os.getloadavg()[0]:.1f} at the end (other processes slow every figure)")
    hello_rate = (hello_before.rate + hello_after.rate) / 2
    rows = [("GET / (hello-world, 200), before", hello_before), ("GET / (hello-world, 200), after", hello_after),
            ("GET /v1/rulings/<id> (finished, 200)", get_fig), ("POST /v1/rulings {replay} (202)", post_fig)]
    for label, fig in rows:
        ratio = "" if fig is hello_before or fig is hello_after else f" = {fig.rate / hello_rate:.2f}x hello-world"
        print(f"  {label:38s} {fig.rate:9,.0f} req/s{ratio:22s}  p50 {fig.p50_ms:7.2f} ms  "
              f"p99 {fig.p99_ms:7.2f} ms  ({fig.requests} requests)")
    print(f"  rulings queued by the measured POSTs: {post_fig.requests}; worked meanwhile "
          f"(warm-up included): {worked}; left in the queue and dropped: {backlog}; failed jobs: {failed_jobs}")
    bad = [(label, fig) for label, fig in rows if fig.unexpected]
    for label, fig in bad:
        print(f"FAILED {label}: {fig.unexpected} answers with another status or socket errors\n{fig.detail}")
    return 1 if bad else 0


def main() -> int:
    url = os.environ.get("REDIS_URL")
    with tempfile.TemporaryDirectory(prefix="bench-api-") as name:
        tmp = Path(name)
        if url:
            return bench(url, tmp, embedded=False)
        server = EmbeddedRedis(tmp / "redis")
        try:
            return bench(server.start(), tmp, embedded=True)
        finally:
            server.stop()


if __name__ == "__main__":
    sys.exit(main())
