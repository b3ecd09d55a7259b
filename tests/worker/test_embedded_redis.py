"""The embedded Redis: AOF on, data kept across restarts and kills, a fixed socket, nothing left
running."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest
import redis

from arbiter.redis_conn import MAX_SOCKET_PATH, EmbeddedRedis, running_embedded_url, socket_path

ROOT = Path(__file__).resolve().parents[2]


def test_start_persist_stop(tmp_path: Path) -> None:
    server = EmbeddedRedis(tmp_path / "data")
    url = server.start()
    assert url.startswith("unix://") and url.endswith("?db=0")
    client = server.client(decode_responses=True)
    other = redis.Redis.from_url(url)  # a pool the server does not know about
    other.ping()
    client.set("k", "v")
    assert client.config_get("appendonly") == {"appendonly": "yes"}
    assert client.config_get("port") == {"port": "0"}
    assert running_embedded_url(tmp_path / "data") == url
    with pytest.raises(RuntimeError):
        EmbeddedRedis(tmp_path / "data").start()  # one server per data dir
    pid = server.pid
    server.stop()
    assert not psutil.pid_exists(pid) or psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
    assert running_embedded_url(tmp_path / "data") is None
    assert (tmp_path / "data" / "appendonly.aof").exists() or (tmp_path / "data" / "appendonlydir").exists()

    again = EmbeddedRedis(tmp_path / "data")
    again.start()
    try:
        assert again.client(decode_responses=True).get("k") == "v"
    finally:
        again.stop()
    server.stop()  # idempotent


def test_no_periodic_snapshots_beside_the_aof(tmp_path: Path) -> None:
    """With the AOF on, no periodic RDB snapshot (the AOF is what a restart reads); with it off, the
    snapshots are the data's only copy on disk, and stay."""
    server = EmbeddedRedis(tmp_path / "aof")
    client = redis.Redis.from_url(server.start(), decode_responses=True)
    try:
        assert client.config_get("save") == {"save": ""}
        client.set("k", "v")
    finally:
        client.close()
        server.stop()
    assert (tmp_path / "aof" / "arbiter.rdb").exists()  # SHUTDOWN SAVE still writes one
    plain = EmbeddedRedis(tmp_path / "rdb", appendonly=False)
    client = redis.Redis.from_url(plain.start(), decode_responses=True)
    try:
        assert client.config_get("appendonly") == {"appendonly": "no"} and client.config_get("save")["save"]
    finally:
        client.close()
        plain.stop()


def test_socket_path_is_fixed_and_short(tmp_path: Path) -> None:
    assert socket_path(tmp_path / "data") == (tmp_path / "data").resolve() / "redis.sock"
    deep = tmp_path / ("d" * 60) / ("e" * 60)
    short = socket_path(deep)
    assert short.parent == Path("/tmp") / f"arbiter-{os.getuid()}"
    assert len(os.fsencode(short)) <= MAX_SOCKET_PATH
    assert short == socket_path(deep) != socket_path(tmp_path / ("d" * 60) / ("f" * 60))


def test_killed_server_restarts_on_the_same_socket_with_every_acknowledged_write(
        tmp_path: Path) -> None:
    # a data dir too long for a unix socket path: the socket goes under /tmp, and stays there
    server = EmbeddedRedis(tmp_path / ("x" * 90))
    url = server.start()
    assert url == f"unix://{server.socket}?db=0" and server.socket.parent != server.data_dir
    client = redis.Redis.from_url(url)
    try:
        assert client.config_get("appendfsync") == {"appendfsync": "always"}
        for i in range(200):
            client.set(f"k{i}", i)  # each acknowledged before the next
        first = server.pid
        os.kill(first, signal.SIGKILL)  # right after the last acknowledgement
        deadline = time.monotonic() + 10
        while server.poll() is None and time.monotonic() < deadline:
            time.sleep(0.01)
        assert server.poll() == -signal.SIGKILL and not server.running
        with pytest.raises(redis.ConnectionError):
            client.ping()
        assert server.start() == url  # same data dir, same socket
        assert server.pid != first
        # the old client reconnects by itself and finds every write
        assert [int(v) for v in client.mget([f"k{i}" for i in range(200)])] == list(range(200))
        assert running_embedded_url(server.data_dir) == url
    finally:
        client.close()
        server.stop()
    assert not server.socket.exists() and running_embedded_url(server.data_dir) is None


def test_a_forked_child_never_stops_its_parents_server(tmp_path: Path) -> None:
    server = EmbeddedRedis(tmp_path / "data")
    url = server.start()
    try:
        pid = os.fork()
        if pid == 0:  # the child: what a gunicorn worker or an RQ work horse does at exit
            server.stop()
            os._exit(0)
        assert os.waitpid(pid, 0)[1] == 0
        assert server.running and redis.Redis.from_url(url).ping()
    finally:
        server.stop()


@pytest.mark.parametrize("starter", [
    "from worker.jobs import _connection; conn = _connection()",
    "from api import create_app; conn = create_app().extensions['arbiter']['rq_redis']",
])
def test_every_starter_of_the_embedded_redis_takes_the_fsync_setting(tmp_path: Path, starter: str) -> None:
    """``ARBITER_REDIS_FSYNC`` holds whichever process starts the embedded server (a worker, a batch,
    the API), not only ``arbiter worker`` and ``arbiter run``."""
    code = (f"import redis\n{starter}\n"
            "value = list(conn.config_get('appendfsync').values())[0]\n"
            "print(value.decode() if isinstance(value, bytes) else value)")
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60,
                         env={**env, "ARBITER_DATA_DIR": str(tmp_path / "data"), "ARBITER_REDIS_FSYNC": "everysec"})
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "everysec"


def test_a_connection_made_by_connect_reads_no_package_metadata(redis_url: str, redis_db: redis.Redis,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """``connect``'s clients tell the server redis-py's version without reading the package's metadata
    (redis-py's default reads it for each new connection: a few ms in each forked work horse)."""
    import redis.utils

    from arbiter.redis_conn import connect

    def no_metadata(name: str) -> str:
        raise AssertionError(f"read the metadata of {name}")

    monkeypatch.setattr(redis.utils.metadata, "version", no_metadata)
    client = connect(redis_url)
    assert client.ping()  # (a new connection: its handshake sends the driver's info, CLIENT SETINFO)
    assert client.connection_pool.connection_kwargs["driver_info"].lib_version == redis.__version__
    client.close()
    with pytest.raises(AssertionError, match="metadata"):
        redis.Redis.from_url(redis_url).ping()  # (redis-py's own default reads it)
