"""Workers for tests: a registered one whose jobs the test runs itself, and real ``arbiter worker``
subprocesses on the session Redis.

The API answers 503 to ``POST /v1/rulings`` when no worker is alive (worker/liveness.py). A test that
wants to see a ruling ``queued`` and then run it with ``run_jobs`` uses :func:`registered_worker`:
a real arbiter worker that has registered and sent its heartbeat exactly as a worker does when it
starts (RQ's ``register_birth``), but whose loop the test drives; it registers its death on exit.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

import redis

from arbiter import settings as settings_mod
from tests.helpers import ROOT
from worker.liveness import live_workers
from worker.queue import make_queue
from worker.run import make_worker


@contextmanager
def registered_worker(redis_url: str) -> Iterator[Any]:
    """A worker that counts as alive for the API while the ``with`` block runs."""
    conn = redis.Redis.from_url(redis_url)
    rq_worker = make_worker(conn, settings_mod.load(), simple=True)
    rq_worker.register_birth()
    try:
        yield rq_worker
    finally:
        rq_worker.register_death()
        conn.close()


def count_live(redis_url: str) -> int:
    conn = redis.Redis.from_url(redis_url)
    try:
        return live_workers(make_queue(conn))
    finally:
        conn.close()


def wait_live(redis_url: str, n: int, timeout: float = 60.0) -> None:
    """Wait until at least ``n`` workers are alive on the arbiter queue."""
    deadline = time.monotonic() + timeout
    while count_live(redis_url) < n:
        if time.monotonic() > deadline:
            raise TimeoutError(f"fewer than {n} workers alive after {timeout} s")
        time.sleep(0.1)


def start_worker(redis_url: str, stderr: IO[Any] | Path | None = None, *, burst: bool = False,
                 **env: str) -> subprocess.Popen[bytes]:
    """``arbiter worker`` in a session of its own (its scheduler child is killed with it by
    :func:`stop_worker`); ``env`` adds ``ARBITER_*`` settings. ``stderr``: a file path or stream."""
    err: Any = stderr
    if isinstance(stderr, Path):
        err = stderr.open("ab")
    args = [sys.executable, "-m", "arbiter", "worker", *(["--burst"] if burst else [])]
    proc = subprocess.Popen(args, cwd=ROOT, env={**os.environ, "REDIS_URL": redis_url, "PYTHONUNBUFFERED": "1",
                                                 **env},
                            stdout=subprocess.DEVNULL, stderr=err if err is not None else subprocess.DEVNULL,
                            start_new_session=True)
    if isinstance(stderr, Path):
        err.close()
    return proc


def stop_worker(proc: subprocess.Popen[bytes]) -> None:
    """SIGKILL the worker's whole session (the worker, its scheduler) and reap the worker."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    proc.wait(timeout=30)


def kill(pid: int) -> None:
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
