"""Per-app Redis clients and the RQ queue, reached through :func:`get_redis` and :func:`get_queue`.

Two clients share one server: ``get_redis()`` decodes responses to ``str`` for the views, while
the queue gets a bytes client, as RQ requires.
"""

from __future__ import annotations

from typing import Any

import redis
from flask import Flask, current_app
from rq import Queue

from arbiter.settings import Settings
from worker.queue import make_queue

_KEY = "arbiter"


def init_app(app: Flask, url: str, cfg: Settings) -> None:
    app.extensions[_KEY] = {
        "url": url,
        "settings": cfg,
        "redis": redis.Redis.from_url(url, decode_responses=True),
        "rq_redis": redis.Redis.from_url(url),
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
