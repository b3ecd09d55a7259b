"""The supervisor on real processes: restarts with backoff, waits for what a service needs, cleans
up what a dead process left behind, logs one JSON line per event."""

from __future__ import annotations

import json
import logging
import os
import signal
import sys
import time
from typing import Any

import psutil
import pytest

from arbiter.supervise import Backoff, Process, Supervisor

SLEEPER = [sys.executable, "-c", "import time; time.sleep(60)"]


class Clock:
    """The supervisor's notion of time, moved by the test (the processes are real)."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def events(caplog: pytest.LogCaptureFixture) -> list[dict[str, Any]]:
    return [json.loads(r.getMessage()) for r in caplog.records if r.name == "arbiter.supervise"]


def wait_dead(pid: int, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if psutil.Process(pid).status() == psutil.STATUS_ZOMBIE:
                return
        except psutil.NoSuchProcess:
            return
        time.sleep(0.01)
    raise AssertionError(f"{pid} still alive")


def alive(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def test_backoff_doubles_up_to_its_cap() -> None:
    backoff = Backoff()
    assert [backoff.delay(n) for n in range(1, 10)] == [0.5, 1, 2, 4, 8, 16, 30, 30, 30]
    assert backoff.delay(10_000) == 30
    with pytest.raises(ValueError):
        backoff.delay(0)


def test_a_dying_process_is_restarted_later_each_time(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="arbiter.supervise")
    clock = Clock()
    sup = Supervisor(clock=clock)
    sup.add(Process("flaky", [sys.executable, "-c", "import sys; sys.exit(3)"]))
    sup.start("flaky")
    pids = [sup.service("flaky").pid]
    try:
        for expected_delay in (0.5, 1.0, 2.0):
            wait_dead(pids[-1])
            sup.check()  # notices the exit
            assert not sup.up("flaky")
            clock.now += expected_delay - 0.01
            sup.check()  # not yet
            assert not sup.up("flaky")
            clock.now += 0.02
            sup.check()  # due: started again
            assert sup.up("flaky")
            pids.append(sup.service("flaky").pid)
    finally:
        sup.stop()
    assert len(set(pids)) == 4
    exits = [e for e in events(caplog) if e["event"] == "exited"]
    assert [(e["service"], e["pid"], e["exit_code"], e["signal"], e["restarts"], e["restart_in_s"])
            for e in exits] == [("flaky", pids[i], 3, None, i, d) for i, d in enumerate((0.5, 1, 2))]
    starts = [e for e in events(caplog) if e["event"] == "started"]
    assert [(e["pid"], e["restarts"]) for e in starts] == [(p, i) for i, p in enumerate(pids)]
    assert all(e["ts"].endswith("+00:00") for e in exits + starts)


def test_a_minute_of_uptime_resets_the_delay(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="arbiter.supervise")
    clock = Clock()
    sup = Supervisor(clock=clock)
    sup.add(Process("svc", SLEEPER))
    sup.start("svc")
    try:
        delays = []
        for uptime in (1.0, 1.0, 61.0, 1.0):
            clock.now += uptime
            pid = sup.service("svc").pid
            os.kill(pid, signal.SIGKILL)
            wait_dead(pid)
            sup.check()
            exited = events(caplog)[-1]
            assert exited["event"] == "exited" and exited["signal"] == "SIGKILL"
            assert exited["exit_code"] is None and exited["uptime_s"] == uptime
            delays.append(exited["restart_in_s"])
            clock.now += exited["restart_in_s"]
            sup.check()
            assert sup.up("svc")
    finally:
        sup.stop()
    assert delays == [0.5, 1.0, 0.5, 1.0]


def test_a_service_waits_for_what_it_needs() -> None:
    clock = Clock()
    sup = Supervisor(clock=clock)
    sup.add(Process("base", SLEEPER))
    sup.add(Process("user", SLEEPER), needs=["base"])
    with pytest.raises(ValueError):
        sup.add(Process("other", SLEEPER), needs=["nothing"])
    sup.start("base")
    sup.start("user")
    try:
        user_pid = sup.service("user").pid
        os.kill(user_pid, signal.SIGKILL)
        wait_dead(user_pid)
        clock.now = 1.0
        sup.check()  # user restarts at 1.5
        base_pid = sup.service("base").pid
        os.kill(base_pid, signal.SIGKILL)
        wait_dead(base_pid)
        clock.now = 1.4
        sup.check()  # base restarts at 1.9
        clock.now = 1.6
        sup.check()
        assert not sup.up("user") and not sup.up("base")  # user is due, but base is down
        clock.now = 2.0
        sup.check()
        assert sup.up("base") and sup.up("user")
        assert sup.restarts("base") == sup.restarts("user") == 1
        assert alive(sup.service("user").pid) and sup.service("user").pid != user_pid
    finally:
        sup.stop()


def test_what_a_dead_process_left_behind_is_killed_and_stop_leaves_nothing() -> None:
    spawner = [sys.executable, "-c",
               "import subprocess, sys, time\n"
               "p = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)'])\n"
               "print(p.pid, flush=True)\n"
               "time.sleep(60)"]
    sup = Supervisor()
    sup.add(Process("parent", spawner))
    sup.add(Process("other", spawner))
    sup.start("parent")
    sup.start("other")
    try:
        deadline = time.monotonic() + 10
        kids: list[psutil.Process] = []
        while len(kids) < 2 and time.monotonic() < deadline:
            kids = [k for name in ("parent", "other")
                    for k in psutil.Process(sup.service(name).pid).children()]
            time.sleep(0.02)
        assert len(kids) == 2
        parent = sup.service("parent").pid
        orphan = psutil.Process(parent).children()[0].pid
        os.kill(parent, signal.SIGKILL)  # its child lives on, reparented
        wait_dead(parent)
        assert alive(orphan)
        sup.check()
        wait_dead(orphan)
        other = sup.service("other").pid
        other_kid = psutil.Process(other).children()[0].pid
    finally:
        started = time.monotonic()
        sup.stop()
    assert time.monotonic() - started < 5  # SIGTERM is enough for them
    wait_dead(other, timeout=2)
    wait_dead(other_kid, timeout=2)
