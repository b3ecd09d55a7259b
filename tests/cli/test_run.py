"""``arbiter run`` end to end: embedded Redis, two workers, the API on gunicorn; what dies is
restarted; a busy port is refused; SIGINT leaves nothing behind."""

from __future__ import annotations

import copy
import http.server
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import click
import psutil
import pytest

from arbiter.commands.run import wait_healthy
from arbiter.supervise import Process
from replays.service import log_id
from tests.helpers import ROOT, load_example

PROBLEM = "application/problem+json"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def request(url: str, data: Any = None, headers: dict[str, str] | None = None,
            timeout: float = 5) -> tuple[int, Any, bytes]:
    """``(status, headers, body)``; HTTP errors are answers too."""
    body = json.dumps(data).encode() if data is not None else None
    req = urllib.request.Request(url, data=body, headers={
        **({"Content-Type": "application/json"} if body is not None else {}), **(headers or {})})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp:
            return resp.status, resp.headers, resp.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.headers, exc.read()


def get(url: str) -> tuple[int, bytes]:
    status, _, body = request(url)
    return status, body


def alive(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def wait_for(predicate: Any, timeout: float, what: str) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


class Stack:
    """One ``arbiter run`` in a temp data dir, its output in a file (a pipe could fill up)."""

    def __init__(self, tmp_path: Path, *args: str):
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.data = tmp_path / "var"
        self.out_path = tmp_path / "run.out"
        env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
        env["ARBITER_DATA_DIR"] = str(self.data)
        self.out = self.out_path.open("w")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "arbiter", "run", "--port", str(self.port), *args],
            cwd=ROOT, env=env, stdout=self.out, stderr=subprocess.STDOUT, text=True)
        self.redis_pids: set[int] = set()

    def output(self) -> str:
        return self.out_path.read_text()

    def events(self, kind: str) -> list[dict[str, Any]]:
        found = []
        for line in self.output().splitlines():
            if line.startswith("{") and f'"event": "{kind}"' in line:
                found.append(json.loads(line))
        return found

    def wait_ready(self, timeout: float = 60) -> None:
        def banner() -> bool:
            assert self.proc.poll() is None, self.output()
            return "Ctrl-C stops everything" in self.output()

        wait_for(banner, timeout, "the banner")

    def children(self, word: str) -> list[psutil.Process]:
        found = []
        for child in psutil.Process(self.proc.pid).children():
            try:
                if word in " ".join(child.cmdline()):
                    found.append(child)
            except psutil.Error:  # exited (a zombie until the supervisor notices)
                pass
        return found

    def redis_pid(self) -> int:
        registry = json.loads((self.data / "arbiter.rdb.settings").read_text())
        pid = int(Path(registry["pidfile"]).read_text())
        self.redis_pids.add(pid)
        return pid

    def stop(self) -> str:
        self.proc.send_signal(signal.SIGINT)
        self.proc.wait(timeout=30)
        self.out.close()
        return self.output()

    def close(self) -> None:  # on failure: stop gracefully if possible, never leave Redis behind
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.out.close()
        for pid in self.redis_pids:
            if alive(pid):
                os.kill(pid, signal.SIGKILL)


@pytest.fixture()
def stack(tmp_path: Path) -> Iterator[Stack]:
    s = Stack(tmp_path)
    try:
        s.wait_ready()
        s.redis_pid()
        yield s
    finally:
        s.close()


def test_run_starts_everything_and_sigint_stops_everything(stack: Stack) -> None:
    assert len(stack.children("arbiter worker")) == 2
    [api] = stack.children("arbiter serve")
    wait_for(lambda: len(api.children()) == 2, 10, "gunicorn's two worker processes")
    everything = psutil.Process(stack.proc.pid).children(recursive=True)  # + schedulers, gunicorn
    redis_pid = stack.redis_pid()
    assert alive(redis_pid)

    # gunicorn answers, with a request ID, and the request is one JSON line
    status, headers, body = request(f"{stack.base}/healthz", headers={"X-Request-ID": "run-test-1"})
    assert status == 200 and headers["Server"].startswith("gunicorn")
    assert headers["X-Request-ID"] == "run-test-1"
    wait_for(lambda: [e for e in stack.events("request") if e["request_id"] == "run-test-1"],
             10, "the request's log line")

    # the examples were loaded through the same code as POST /v1/replays
    replay_id = log_id(load_example("shields-cap.json"))
    status, body = get(f"{stack.base}/v1/replays/{replay_id}")
    assert status == 200 and json.loads(body)["id"] == replay_id

    out = stack.stop()
    assert stack.proc.returncode == 0, out
    assert "curl" in out and f"{stack.base}/docs" in out
    time.sleep(0.2)
    left = [c.pid for c in everything if alive(c.pid)]
    assert left == [], left
    assert not alive(redis_pid)
    assert (stack.data / "appendonly.aof").exists()
    assert {e["service"] for e in stack.events("stopped")} == {"redis", "worker-1", "worker-2", "api"}


def test_a_killed_worker_is_restarted_and_the_api_stays_up(stack: Stack) -> None:
    before = {c.pid for c in stack.children("arbiter worker")}
    victim = min(before)
    statuses: list[int] = []
    stop = threading.Event()

    def poll_health() -> None:
        while not stop.is_set():
            statuses.append(get(f"{stack.base}/healthz")[0])
            time.sleep(0.05)

    poller = threading.Thread(target=poll_health)
    poller.start()
    try:
        os.kill(victim, signal.SIGKILL)
        after = wait_for(lambda: (lambda now: now if len(now) == 2 and victim not in now else None)(
            {c.pid for c in stack.children("arbiter worker")}), 20, "a new worker")
    finally:
        stop.set()
        poller.join()
    [new] = after - before
    [exited] = stack.events("exited")
    assert exited["pid"] == victim and exited["signal"] == "SIGKILL"
    assert exited["service"].startswith("worker-") and exited["restart_in_s"] == 0.5
    [restarted] = [e for e in stack.events("started") if e["pid"] == new]
    assert restarted["service"] == exited["service"] and restarted["restarts"] == 1
    assert statuses and set(statuses) == {200}
    assert alive(new)


def test_a_killed_api_is_restarted_and_its_port_never_refuses(stack: Stack) -> None:
    [api] = stack.children("arbiter serve")
    os.kill(api.pid, signal.SIGKILL)
    [exited] = wait_for(lambda: stack.events("exited"), 10, "the exit to be noticed")
    assert (exited["service"], exited["pid"], exited["signal"]) == ("api", api.pid, "SIGKILL")
    # the supervisor holds the listening socket: a request made meanwhile waits, it is not refused
    status, headers, _ = request(f"{stack.base}/healthz", timeout=30)
    assert status == 200 and headers["Server"].startswith("gunicorn")
    [new] = stack.children("arbiter serve")
    assert new.pid != api.pid
    assert [e["pid"] for e in stack.events("started") if e["service"] == "api"] == [api.pid, new.pid]


def test_killed_redis_comes_back_on_the_same_socket_and_keeps_every_acknowledged_write(
        stack: Stack) -> None:
    registry = json.loads((stack.data / "arbiter.rdb.settings").read_text())
    base_log = load_example("shields-cap.json")
    ids = []
    for i in range(50):
        log = copy.deepcopy(base_log)
        log["meta"]["title"] = f"durable {i}"
        status, _, body = request(f"{stack.base}/v1/replays", data=log)
        assert status == 201, body
        ids.append(json.loads(body)["id"])
    old = stack.redis_pid()
    os.kill(old, signal.SIGKILL)  # right after the last acknowledged write

    answers: list[tuple[int, Any, bytes]] = []

    def back() -> bool:
        answers.append(request(f"{stack.base}/v1/replays/{ids[-1]}"))
        return answers[-1][0] == 200

    wait_for(back, 20, "the API to answer 200 again")
    down = answers[:-1]
    assert down, "no answer while Redis was down"
    for status, headers, body in down:
        assert status == 503, (status, body)
        assert headers["Content-Type"] == PROBLEM and json.loads(body)["status"] == 503
        assert int(headers["Retry-After"]) >= 1
    for replay_id in ids:
        status, body = get(f"{stack.base}/v1/replays/{replay_id}")
        assert status == 200 and json.loads(body)["id"] == replay_id
    new = stack.redis_pid()
    assert new != old and alive(new)
    assert json.loads((stack.data / "arbiter.rdb.settings").read_text())["unixsocket"] == \
        registry["unixsocket"]
    [exited] = [e for e in stack.events("exited") if e["service"] == "redis"]
    assert (exited["pid"], exited["signal"]) == (old, "SIGKILL")


def test_a_busy_port_is_reported_and_nothing_starts(tmp_path: Path) -> None:
    with socket.socket() as squatter:
        squatter.bind(("127.0.0.1", 0))
        squatter.listen()
        port = squatter.getsockname()[1]
        env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
        env["ARBITER_DATA_DIR"] = str(tmp_path / "var")
        for command in (["run"], ["serve"]):
            started = time.monotonic()
            done = subprocess.run([sys.executable, "-m", "arbiter", *command, "--port", str(port)],
                                  cwd=ROOT, env=env, capture_output=True, text=True, timeout=30)
            assert done.returncode != 0
            assert f"port {port} is in use by another process" in done.stderr
            assert time.monotonic() - started < 15  # no retries, no health check
        assert not (tmp_path / "var" / "arbiter.rdb.settings").exists()  # Redis never started


def test_a_data_dir_in_use_is_reported(stack: Stack) -> None:
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    env["ARBITER_DATA_DIR"] = str(stack.data)
    done = subprocess.run([sys.executable, "-m", "arbiter", "run", "--port", str(free_port())],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=30)
    assert done.returncode == 1
    assert "an embedded Redis already runs on" in done.stderr and "Traceback" not in done.stderr
    assert get(f"{stack.base}/healthz")[0] == 200  # the first one is untouched
    assert alive(stack.redis_pid())


def test_a_worker_joins_the_redis_given_by_redis_url(redis_url: str, redis_db: Any,
                                                      tmp_path: Path) -> None:
    import redis as redis_py

    from arbiter import settings
    from worker.queue import enqueue_noop, fetch_job, make_queue

    conn = redis_py.Redis.from_url(redis_url)
    job = enqueue_noop(make_queue(conn), settings.load())
    name = f"cli-{uuid.uuid4().hex[:8]}"
    env = {**os.environ, "REDIS_URL": "redis://127.0.0.1:1/0",  # overridden by --redis-url
           "ARBITER_DATA_DIR": str(tmp_path / "var")}
    done = subprocess.run([sys.executable, "-m", "arbiter", "worker", "--redis-url", redis_url,
                           "--name", name, "--burst"], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    finished = fetch_job(conn, job.id)
    assert finished is not None and finished.get_status() == "finished"
    assert redis_db.exists(f"rq:worker:{name}")  # it ran under that name
    assert not (tmp_path / "var").exists()  # no embedded Redis was started
    bad = subprocess.run([sys.executable, "-m", "arbiter", "worker", "--redis-url", "http://x",
                          "--burst"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "--redis-url" in bad.stderr and "Traceback" not in bad.stderr
    conn.close()


def test_a_health_answer_from_another_process_is_not_taken_for_ours() -> None:
    class Impostor(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 (http.server's naming)
            self.send_response(200)
            self.end_headers()
            self.wfile.write(b"{}")

        def log_message(self, *args: Any) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Impostor)
    thread = threading.Thread(target=server.serve_forever)
    thread.start()
    child = Process("api", [sys.executable, "-c", "import time; time.sleep(30)"])
    child.start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/healthz"
        with pytest.raises(click.ClickException, match="answered by another process"):
            wait_healthy(url, child, "our-instance", timeout=10)
    finally:
        child.stop(5)
        server.shutdown()
        thread.join()
        server.server_close()
