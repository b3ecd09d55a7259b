"""Keeping ``arbiter run``'s processes up: what dies is restarted, with backoff, and said so.

A :class:`Supervisor` holds services in start order (the embedded Redis, the RQ workers, the API).
:meth:`Supervisor.check`, called in a loop, notices a service that exited, logs it and starts it
again after a delay that doubles with each quick death (:class:`Backoff`: 0.5 s, 1 s, 2 s ... 30 s;
a service that ran for a minute starts over at 0.5 s). A service that ``needs`` another (a worker
needs Redis) is not restarted while that one is down. :meth:`Supervisor.stop` stops them all, the
last started first.

Every event is one JSON line on stderr through the ``arbiter.supervise`` logger::

    {"ts": "...", "level": "warning", "event": "exited", "service": "worker-1", "pid": 4242,
     "exit_code": null, "signal": "SIGKILL", "uptime_s": 12.5, "restarts": 0, "restart_in_s": 0.5}

A :class:`Process` is a command run in its own process group (a Ctrl-C at the terminal reaches the
supervisor only, which stops the services in order); on Linux it is sent SIGTERM if the supervisor
itself dies. When a process exits, whatever it left in its group (a gunicorn worker) is killed.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import signal
import subprocess
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from arbiter import jsonlog
from arbiter.redis_conn import EmbeddedRedis, die_with_parent

log = logging.getLogger("arbiter.supervise")


def log_to_stderr() -> None:
    """Send the supervisor's JSON lines to stderr (once)."""
    jsonlog.to_stderr(log)
    log.setLevel(logging.INFO)


def event(name: str, level: int = logging.INFO, **fields: Any) -> None:
    """Log one supervisor event as a JSON line."""
    record = {"ts": jsonlog.now(),
              "level": logging.getLevelName(level).lower(), "event": name, **fields}
    log.log(level, json.dumps(record))


def exit_fields(code: int | None) -> dict[str, Any]:
    """``exit_code`` and ``signal`` of a Popen-style return code (negative: killed by a signal)."""
    if code is not None and code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = str(-code)
        return {"exit_code": None, "signal": name}
    return {"exit_code": code, "signal": None}


@dataclass(frozen=True)
class Backoff:
    """Restart delays: ``initial`` doubling up to ``maximum``; reset after ``reset_after`` of uptime."""

    initial: float = 0.5
    factor: float = 2.0
    maximum: float = 30.0
    reset_after: float = 60.0

    def delay(self, failures: int) -> float:
        """The delay before restart number ``failures`` of a run of quick deaths (1-based)."""
        if failures < 1:
            raise ValueError("failures counts from 1")
        return min(self.maximum, self.initial * self.factor ** min(failures - 1, 64))


class Service(Protocol):
    """Something the supervisor starts, watches and stops."""

    name: str

    @property
    def pid(self) -> int: ...

    def start(self) -> None:
        """Start it; raise if it cannot be started."""

    def poll(self) -> int | None:
        """``None`` while it runs, else its exit status (negative: killed by that signal)."""

    def terminate(self) -> None:
        """Ask it to stop (without waiting)."""

    def stop(self, timeout: float) -> None:
        """Stop it and wait; force it after ``timeout`` seconds."""


class Process:
    """A command run as a child in its own process group."""

    def __init__(self, name: str, argv: Sequence[str], env: Mapping[str, str] | None = None,
                 pass_fds: Sequence[int] = ()):
        self.name = name
        self.argv = list(argv)
        self.env = dict(env) if env is not None else None
        self.pass_fds = tuple(pass_fds)
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def pid(self) -> int:
        return self.proc.pid if self.proc is not None else 0

    def start(self) -> None:
        self.proc = subprocess.Popen(self.argv, env=self.env, pass_fds=self.pass_fds,
                                     stdin=subprocess.DEVNULL, process_group=0,
                                     preexec_fn=die_with_parent())

    def poll(self) -> int | None:
        if self.proc is None:
            return None
        code = self.proc.poll()
        if code is not None:
            self._kill_group()  # what it left behind (its own children) goes with it
        return code

    def terminate(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                self.proc.terminate()

    def stop(self, timeout: float) -> None:
        if self.proc is None:
            return
        self.terminate()
        try:
            self.proc.wait(timeout=max(0.0, timeout))
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self._kill_group()

    def _kill_group(self) -> None:
        # The group keeps the leader's id while any member lives, so the id cannot be someone else's.
        assert self.proc is not None
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.proc.pid, signal.SIGKILL)


class Redis:
    """The embedded Redis as a service: restarted on the same data directory and socket."""

    def __init__(self, server: EmbeddedRedis, name: str = "redis"):
        self.name = name
        self.server = server

    @property
    def pid(self) -> int:
        return self.server.pid

    def start(self) -> None:
        self.server.start()

    def poll(self) -> int | None:
        return self.server.poll()

    def terminate(self) -> None:
        pass  # stopped last, by stop(): SHUTDOWN SAVE

    def stop(self, timeout: float) -> None:
        self.server.stop(timeout)


@dataclass
class _Watch:
    service: Service
    needs: tuple[str, ...]
    started_at: float | None = None  # None: not running
    restart_at: float | None = None  # when it is due to start again
    restarts: int = 0  # times it was started again after it died
    failures: int = 0  # deaths in a row, each within Backoff.reset_after of its start


class Supervisor:
    """Starts services in order, restarts the ones that die, stops them in reverse order."""

    def __init__(self, backoff: Backoff | None = None, clock: Callable[[], float] = time.monotonic):
        self.backoff = backoff or Backoff()
        self.clock = clock
        self._watches: dict[str, _Watch] = {}

    def add(self, service: Service, needs: Sequence[str] = ()) -> None:
        if service.name in self._watches:
            raise ValueError(f"two services named {service.name!r}")
        unknown = [n for n in needs if n not in self._watches]
        if unknown:
            raise ValueError(f"{service.name} needs unknown services {unknown}")
        self._watches[service.name] = _Watch(service, tuple(needs))

    def service(self, name: str) -> Service:
        return self._watches[name].service

    def restarts(self, name: str) -> int:
        return self._watches[name].restarts

    def up(self, name: str) -> bool:
        return self._watches[name].started_at is not None

    def start(self, name: str) -> None:
        """Start one service now; an exception means it could not be started."""
        watch = self._watches[name]
        watch.service.start()
        watch.started_at = self.clock()
        watch.restart_at = None
        event("started", service=name, pid=watch.service.pid, restarts=watch.restarts)

    def check(self) -> None:
        """Notice services that exited and restart the ones that are due."""
        now = self.clock()
        for name, watch in self._watches.items():
            if watch.started_at is not None:
                code = watch.service.poll()
                if code is None:
                    continue
                self._died(name, watch, now, exit_fields(code))
            if watch.restart_at is None or now < watch.restart_at:
                continue
            if not all(self._watches[n].started_at is not None for n in watch.needs):
                continue  # waits for what it needs
            watch.restarts += 1
            try:
                self.start(name)
            except Exception as exc:  # a failed start counts as one more quick death
                self._died(name, watch, self.clock(),
                           {"error": f"{type(exc).__name__}: {exc}"}, event_name="start_failed")
            now = self.clock()

    def _died(self, name: str, watch: _Watch, now: float, why: dict[str, Any],
              event_name: str = "exited") -> None:
        uptime = now - watch.started_at if watch.started_at is not None else 0.0
        watch.failures = 1 if uptime >= self.backoff.reset_after else watch.failures + 1
        delay = self.backoff.delay(watch.failures)
        watch.started_at = None
        watch.restart_at = now + delay
        event(event_name, logging.WARNING, service=name, pid=watch.service.pid, **why,
              uptime_s=round(uptime, 3), restarts=watch.restarts, restart_in_s=delay)

    def stop(self, timeout: float = 15.0) -> None:
        """Stop every service: all are asked at once, then each is waited for (and forced after
        ``timeout``) in reverse start order, so Redis stops last, once nothing uses it."""
        watches = list(self._watches.values())[::-1]
        for watch in watches:
            watch.service.terminate()
        deadline = self.clock() + timeout
        for watch in watches:
            pid = watch.service.pid
            watch.service.stop(max(2.0, deadline - self.clock()))
            if watch.started_at is not None:
                event("stopped", service=watch.service.name, pid=pid)
            watch.started_at = None
            watch.restart_at = None
