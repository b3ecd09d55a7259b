"""``arbiter run`` end to end: embedded Redis, two workers, the API; SIGINT leaves nothing behind."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import psutil

from replays.service import log_id
from tests.helpers import ROOT, load_example


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def get(url: str) -> tuple[int, bytes]:
    with urllib.request.urlopen(url, timeout=2) as resp:
        return resp.status, resp.read()


def alive(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def test_run_starts_everything_and_sigint_stops_everything(tmp_path: Path) -> None:
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    env["ARBITER_DATA_DIR"] = str(tmp_path / "var")
    proc = subprocess.Popen([sys.executable, "-m", "arbiter", "run", "--port", str(port)], cwd=ROOT,
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    redis_pid = 0
    try:
        deadline = time.monotonic() + 60
        healthy = False
        while time.monotonic() < deadline and proc.poll() is None:
            try:
                healthy = get(f"http://127.0.0.1:{port}/healthz")[0] == 200
            except OSError:
                pass
            if healthy:
                break
            time.sleep(0.2)
        assert healthy, "API never became healthy"
        time.sleep(0.5)  # let it print its banner
        children = psutil.Process(proc.pid).children(recursive=True)  # workers fork schedulers
        cmdlines = [" ".join(c.cmdline()) for c in psutil.Process(proc.pid).children()]
        assert sum("arbiter worker" in c for c in cmdlines) == 2, cmdlines
        assert any("arbiter serve" in c for c in cmdlines), cmdlines
        registry = json.loads((tmp_path / "var" / "arbiter.rdb.settings").read_text())
        redis_pid = int(Path(registry["pidfile"]).read_text())
        assert alive(redis_pid)

        # the examples were loaded through the same code as POST /v1/replays
        replay_id = log_id(load_example("shields-cap.json"))
        status, body = get(f"http://127.0.0.1:{port}/v1/replays/{replay_id}")
        assert status == 200 and json.loads(body)["id"] == replay_id

        proc.send_signal(signal.SIGINT)
        out, _ = proc.communicate(timeout=30)
        assert proc.returncode == 0, out
        assert "curl" in out and f"http://127.0.0.1:{port}/docs" in out
        time.sleep(0.2)
        left = [c.pid for c in children if alive(c.pid)]
        assert left == [], left
        assert not alive(redis_pid)
        assert (tmp_path / "var" / "appendonly.aof").exists()
    finally:  # on failure: stop gracefully if possible, and never leave a redis-server behind
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        if redis_pid and alive(redis_pid):
            os.kill(redis_pid, signal.SIGKILL)
