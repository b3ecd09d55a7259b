"""The replays resource: store a log, read it back with its replay result and timeline."""

from __future__ import annotations

from typing import Any

from flask import url_for
from flask_smorest import Blueprint

from api.extensions import get_redis
from api.problems import ProblemError
from api.replays.schemas import LogSchema, ReplayCreatedSchema, ReplaySchema, TimelineSchema
from arbiter import store
from replays.service import Fault, MalformedLog, timeline_json

blp = Blueprint("replays", __name__, description="Replay logs")


def malformed(faults: list[Fault]) -> ProblemError:
    """422 with one error per fault; the pointer is the fault's path in the log."""
    n = len(faults)
    return ProblemError(422, "Malformed log", f"The log has {n} fault{'s' if n != 1 else ''}.",
                        errors=[{"pointer": f.path, "detail": f.message} for f in faults])


def load_stored_log(replay_id: str) -> Any:
    log = store.get_log(get_redis(), replay_id)
    if log is None:
        raise ProblemError(404, "Not Found", f"No replay with ID {replay_id}.")
    return log


def links(replay_id: str) -> dict[str, str]:
    return {"self": url_for("replays.get_replay", replay_id=replay_id),
            "timeline": url_for("replays.get_timeline", replay_id=replay_id)}


@blp.route("", methods=["POST"])
@blp.arguments(LogSchema)
@blp.response(201, ReplayCreatedSchema)
@blp.alt_response(200, schema=ReplayCreatedSchema, description="The same log was already stored")
def post_replay(log: dict[str, Any]) -> tuple[dict[str, Any], int, dict[str, str]]:
    """Validate a log, replay it and store it under its content address.

    201 the first time, 200 (same ID, same summary) when the identical log is posted again.
    A malformed log gets a 422 problem with one error per fault.
    """
    try:
        stored = store.put_log(get_redis(), log)
    except MalformedLog as exc:
        raise malformed(exc.faults) from exc
    body = {"id": stored.replay_id, "created": stored.created,
            "summary": store.summary(stored.result), "links": links(stored.replay_id)}
    return body, 201 if stored.created else 200, {"Location": links(stored.replay_id)["self"]}


@blp.route("/<string:replay_id>")
@blp.response(200, ReplaySchema)
def get_replay(replay_id: str) -> dict[str, Any]:
    """The stored log and its replay result."""
    log = load_stored_log(replay_id)
    result = store.get_result(get_redis(), replay_id)
    return {"id": replay_id, "log": log, "replay": result, "links": links(replay_id)}


@blp.route("/<string:replay_id>/timeline")
@blp.response(200, TimelineSchema)
def get_timeline(replay_id: str) -> dict[str, Any]:
    """Per-step events, rule IDs, notes and state hashes."""
    log = load_stored_log(replay_id)
    try:
        timeline = timeline_json(log)
    except MalformedLog as exc:  # stored logs were validated; only an engine change gets here
        raise malformed(exc.faults) from exc
    return {"id": replay_id, "timeline": timeline}
