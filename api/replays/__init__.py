"""The replays resource: store a log, read it back with its replay result and timeline.

``POST`` replays the log in the request (bounded by judge/limits.py). The timeline is computed by a
worker job (:func:`worker.jobs.compute_timeline`, under the job's time and memory ceilings) queued
by the first ``GET .../timeline``, and stored beside the log: ``GET`` answers 200 with it once it is
stored, 202 with the job's status (and ``Retry-After``, ``Location``) until then, and a 422 problem
when the log is too heavy to compute within the ceilings.
"""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from flask import Response, g, jsonify, url_for
from flask_smorest import Blueprint

from api.extensions import get_queue, get_redis, get_settings
from api.problems import PROBLEM_JSON, ProblemError, ProblemSchema
from api.replays.schemas import LogSchema, ReplayCreatedSchema, ReplaySchema, TimelineSchema
from arbiter import store
from replays.service import Fault, MalformedLog
from worker.liveness import live_workers
from worker.queue import enqueue_timeline, fetch_job, public_status, timeline_job_id

blp = Blueprint("replays", __name__, description="Replay logs")

#: seconds a client is asked to wait before asking for a timeline again (with / without a worker)
RETRY_AFTER_PENDING = 1
RETRY_AFTER_NO_WORKER = 10


class TimelinePendingSchema(ma.Schema):
    """A timeline that a worker has yet to compute."""

    id = ma.fields.String()
    status = ma.fields.String(metadata={"description": "queued | started"})
    workers = ma.fields.Integer(metadata={"description": "workers alive on the queue"})
    message = ma.fields.String(allow_none=True, metadata={"description": "set when no worker is running"})
    links = ma.fields.Dict(metadata={"description": "self: the URL to ask again"})


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


def _timeline_error(error: dict[str, Any]) -> ProblemError:
    if error.get("kind") == "malformed":  # stored logs were validated; only an engine change gets here
        faults = [Fault(f.get("path", ""), f.get("message", "")) for f in error.get("faults", [])]
        return malformed(faults)
    if error.get("kind") == "ceiling":
        return ProblemError(422, "Log too heavy", str(error.get("message")))
    return ProblemError(500, "Internal Server Error", "The timeline could not be computed.")


def _stored(replay_id: str, record: dict[str, Any]) -> dict[str, Any]:
    if "error" in record:
        raise _timeline_error(record["error"])
    return {"id": replay_id, "timeline": record.get("timeline")}


def _pending(replay_id: str, status: str) -> Response:
    workers = live_workers(get_queue())
    location = url_for("replays.get_timeline", replay_id=replay_id)
    body = {"id": replay_id, "status": status, "workers": workers, "links": {"self": location},
            "message": None if workers else
            "No worker is running: the timeline is computed once one starts."}
    resp = jsonify(TimelinePendingSchema().dump(body))
    resp.status_code = 202
    resp.headers["Location"] = location
    resp.headers["Retry-After"] = str(RETRY_AFTER_PENDING if workers else RETRY_AFTER_NO_WORKER)
    return resp


@blp.route("/<string:replay_id>/timeline")
@blp.response(200, TimelineSchema)
@blp.alt_response(202, schema=TimelinePendingSchema, success=True,
                  description="Not computed yet: a worker computes it; ask again at Location after Retry-After",
                  headers={"Retry-After": {"description": "seconds to wait", "schema": {"type": "integer"}},
                           "Location": {"description": "where to ask again", "schema": {"type": "string"}}})
@blp.alt_response(422, schema=ProblemSchema, content_type=PROBLEM_JSON,
                  description="The log is too heavy: computing its timeline passed the time or memory ceiling")
def get_timeline(replay_id: str) -> Any:
    """Per-step events, rule IDs, notes and state hashes, computed by a worker.

    The first request queues the computation: 202 (``status`` queued or started, ``workers``,
    ``Retry-After``, ``Location``) until it is stored, then 200. A log too heavy to compute within
    the job's time or memory ceiling gets a 422 problem saying which.
    """
    r = get_redis()
    if not store.has_log(r, replay_id):
        raise ProblemError(404, "Not Found", f"No replay with ID {replay_id}.")
    record = store.get_timeline(r, replay_id)
    if record is not None:
        return _stored(replay_id, record)
    queue = get_queue()
    job = fetch_job(queue.connection, timeline_job_id(replay_id))
    status = public_status(job.get_status()) if job is not None else None
    if status == "finished":  # the job may have finished between the two reads
        record = store.get_timeline(r, replay_id)
        if record is not None:
            return _stored(replay_id, record)
    if status in ("queued", "started"):
        return _pending(replay_id, status)
    if status == "failed":
        raise ProblemError(500, "Internal Server Error",
                           "The timeline job failed; see the worker's log. It is tried again after "
                           "ARBITER_FAILURE_TTL.")
    # never queued, or its job is gone (expired, or it finished while its record expired): queue it
    cfg = get_settings()
    if store.claim_timeline_job(r, replay_id, cfg.job_timeout):
        enqueue_timeline(queue, replay_id, cfg, request_id=getattr(g, "request_id", None))
    return _pending(replay_id, "queued")
