"""``GET /healthz``: is Redis answering? 200, or a 503 problem with ``Retry-After`` (promptly:
the client's time-outs are those of :mod:`api.extensions`)."""

from __future__ import annotations

from typing import Any

import marshmallow as ma
import redis
from flask_smorest import Blueprint

from api.extensions import get_redis
from api.problems import ProblemError

blp = Blueprint("health", __name__, description="Liveness")


class HealthSchema(ma.Schema):
    status = ma.fields.String()
    redis = ma.fields.String()


@blp.route("/healthz")
@blp.response(200, HealthSchema)
def healthz() -> dict[str, Any]:
    """Liveness: 200 when Redis answers PING, 503 problem otherwise."""
    try:
        get_redis().ping()
    except redis.RedisError as exc:
        raise ProblemError(503, "Service Unavailable",
                           f"The data store is unavailable: Redis does not answer ({exc}).") from exc
    return {"status": "ok", "redis": "ok"}
