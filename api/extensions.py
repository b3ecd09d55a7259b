"""Per-app Redis clients and the RQ queue, reached through :func:`get_redis` and :func:`get_queue`.

Two clients share one server: ``get_redis()`` decodes responses to ``str`` for the views, while
the queue gets a bytes client, as RQ requires.

Both are built so that a request never waits long on a Redis that is away (:data:`CLIENT_OPTIONS`):
connecting gives up after 1 s and a command after 2 s; a lost connection is retried twice at once
on a new one (so the first request after Redis comes back succeeds), a time-out is not retried (a
hung server costs one time-out, not three); idle pooled connections are checked with PING after
10 s. Whatever still fails reaches :mod:`api.problems` as a 503 with ``Retry-After``.
"""

from __future__ import annotations

from typing import Any

import redis
from flask import Flask, current_app
from redis.backoff import ExponentialBackoff
from redis.retry import Retry
from rq import Queue

from arbiter.redis_conn import connect
from arbiter.settings import Settings
from worker.queue import make_queue

_KEY = "arbiter"

#: seconds to wait for a connection / for one command's reply
CONNECT_TIMEOUT = 1.0
COMMAND_TIMEOUT = 2.0


def client_options() -> dict[str, Any]:
    """Time-outs, retries and health checks of the API's Redis clients (see the module docstring)."""
    return {
        "socket_connect_timeout": CONNECT_TIMEOUT,
        "socket_timeout": COMMAND_TIMEOUT,
        "retry": Retry(ExponentialBackoff(cap=0.1, base=0.01), 2,
                       supported_errors=(redis.exceptions.ConnectionError,)),
        "retry_on_timeout": False,
        "health_check_interval": 10,
    }


def init_app(app: Flask, url: str, cfg: Settings) -> None:
    app.extensions[_KEY] = {
        "url": url,
        "settings": cfg,
        "redis": connect(url, decode_responses=True, **client_options()),
        "rq_redis": connect(url, **client_options()),
    }


def _ext() -> dict[str, Any]:
    ext: dict[str, Any] = current_app.extensions[_KEY]
    return ext


def get_redis() -> redis.Redis:
    """The app's Redis client (``decode_responses=True``)."""
    client: redis.Redis = _ext()["redis"]
    return client


def get_settings() -> Settings:
    cfg: Settings = _ext()["settings"]
    return cfg


def get_queue() -> Queue:
    """The arbiter RQ queue (JSON serializer) on the app's Redis."""
    return make_queue(_ext()["rq_redis"], get_settings())


def redis_url() -> str:
    url: str = _ext()["url"]
    return url
