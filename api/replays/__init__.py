"""The replays resource: store a log, read it back with its replay result and timeline.

The request does bounded work: ``POST`` validates every log (a 422 problem for any fault, nothing
stored) and replays it itself only when its replay work fits ``MAX_STEPS_IN_REQUEST``
(judge/limits.py, :func:`arbiter.store.replay_work`): 201 (200 when stored already) with its
summary. A heavier log is stored as it is and replayed by a worker job
(:func:`worker.jobs.replay_stored`, under the job's time and memory ceilings): 202 with
``status``, ``Retry-After`` and ``Location``; ``GET`` shows ``replay: null`` and the job's status
until the result is stored (a ``failed`` status with the ceiling's error when the log is too heavy
for the worker too), then the result.

The timeline is computed by a worker job too (:func:`worker.jobs.compute_timeline`), queued by the
first ``GET .../timeline``, and stored beside the log: ``GET`` answers 200 with it once it is
stored, 202 with the job's status (and ``Retry-After``, ``Location``) until then, and a 422 problem
when the log is too heavy to compute within the ceilings.

A request that would queue a job while ``ARBITER_MAX_QUEUED`` jobs wait (:func:`worker.queue.is_full`)
is a 503 problem (``Retry-After``) and queues nothing; a validated log is stored all the same, so
posting it again later (same ID) or asking for it queues its replay.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import marshmallow as ma
from flask import Response, g, jsonify, url_for
from flask_smorest import Blueprint

from api.extensions import get_queue, get_redis, get_settings
from api.i18n import request_text
from api.problems import PROBLEM_JSON, ProblemError, ProblemSchema
from api.replays.schemas import LogSchema, ReplayCreatedSchema, ReplaySchema, TimelineSchema
from arbiter import store
from judge import limits
from replays.service import Fault, MalformedLog
from replays.viewer import state_at
from worker.liveness import live_workers
from worker.queue import (
    enqueue_replay,
    enqueue_timeline,
    fetch_job,
    is_full,
    public_status,
    replay_job_id,
    timeline_job_id,
)

blp = Blueprint("replays", __name__, description="Replay logs")

#: seconds a client is asked to wait before asking again (a job waits, with / without a worker)
RETRY_AFTER_PENDING = 1
RETRY_AFTER_NO_WORKER = 10
#: seconds to wait after a 503 "the queue is full"
RETRY_AFTER_QUEUE_FULL = 5

RETRY_AFTER_HEADER = {"Retry-After": {"description": "seconds to wait", "schema": {"type": "integer"}}}
QUEUE_FULL_DOC = ("The queue is full (ARBITER_MAX_QUEUED jobs wait), and nothing was queued; or the data store "
                  "(Redis) is unavailable. Ask again after Retry-After")


class TimelinePendingSchema(ma.Schema):
    """A timeline that a worker has yet to compute."""

    id = ma.fields.String()
    status = ma.fields.String(metadata={"description": "queued | started"})
    workers = ma.fields.Integer(metadata={"description": "workers alive on the queue"})
    message = ma.fields.String(allow_none=True, metadata={"description": "set when no worker is running"})
    links = ma.fields.Dict(metadata={"description": "self: the URL to ask again"})


_STATUS = "finished (the result is stored) | queued | started (a worker replays the log) | failed (see error)"
_ERROR = ("why there is no result (status failed): kind `ceiling` (with `ceiling`: time or memory) when the "
          "replay passed the job's ceiling, `job-failed` when the job crashed; and a message")
_WORKERS = "workers alive on the queue (only while the replay is queued or started)"
_MESSAGE = "set when no worker is running (only while the replay is queued or started)"


class _ProgressFields(ma.Schema):
    """Where the replay of a stored log stands (shared by the POST and GET answers)."""

    status = ma.fields.String(metadata={"description": _STATUS})
    error = ma.fields.Dict(allow_none=True, metadata={"description": _ERROR})
    workers = ma.fields.Integer(metadata={"description": _WORKERS})
    message = ma.fields.String(allow_none=True, metadata={"description": _MESSAGE})


class ReplayAcceptedSchema(ReplayCreatedSchema, _ProgressFields):
    """A stored log and where its replay stands."""

    summary = ma.fields.Dict(allow_none=True, metadata={
        "description": "replay result without final_state; null while a worker replays a log too heavy "
                       "for the request (MAX_STEPS_IN_REQUEST) or when it could not"})


class ReplayStatusSchema(ReplaySchema, _ProgressFields):
    """The stored log, its replay result once computed, and where the replay stands."""

    replay = ma.fields.Dict(allow_none=True, metadata={
        "description": "replay result (spec section 4); null until a worker replayed a log too heavy for "
                       "the request, or when it could not"})


def malformed(faults: list[Fault]) -> ProblemError:
    """422 with one error per fault; the pointer is the fault's path in the log."""
    n = len(faults)
    t = request_text()  # the words in the request's language; pointers and the type never change
    return ProblemError(422, t.gettext("Malformed log"),
                        t.ngettext("The log has {n} fault.", "The log has {n} faults.", n),
                        errors=[{"pointer": f.path, "detail": f.text(t)} for f in faults])


def queue_full(what: str) -> ProblemError:
    """503: the queue holds ``ARBITER_MAX_QUEUED`` jobs; ``what`` says what was not queued."""
    return ProblemError(503, "Service Unavailable",
                        f"The queue is full ({get_settings().max_queued} jobs wait): {what} Try again "
                        "after Retry-After.",
                        headers={"Retry-After": str(RETRY_AFTER_QUEUE_FULL)})


def load_stored_log(replay_id: str) -> Any:
    log = store.get_log(get_redis(), replay_id)
    if log is None:
        raise ProblemError(404, "Not Found", f"No replay with ID {replay_id}.")
    return log


def links(replay_id: str) -> dict[str, str]:
    return {"self": url_for("replays.get_replay", replay_id=replay_id),
            "timeline": url_for("replays.get_timeline", replay_id=replay_id),
            "view": url_for("viewer_pages.replay_page", replay_id=replay_id)}


@dataclass(frozen=True)
class Progress:
    """Where the replay of a stored log stands."""

    status: str  # finished | queued | started | failed
    result: dict[str, Any] | None = None
    error: dict[str, Any] | None = None

    @property
    def pending(self) -> bool:
        return self.status in ("queued", "started")


JOB_FAILED = {"kind": "job-failed",
              "message": "The replay job failed; see the worker's log. It is queued again when asked for "
                         "after ARBITER_FAILURE_TTL."}



def _stored_progress(r: Any, replay_id: str) -> Progress | None:
    """The replay's stored result (finished) or stored error (failed), else None."""
    result = store.get_result(r, replay_id)
    if result is not None:
        return Progress("finished", result)
    error = store.get_replay_error(r, replay_id)
    if error is not None:
        return Progress("failed", error=error)
    return None

def replay_progress(replay_id: str, *, check_room: bool = True) -> Progress:
    """Where the replay of stored log ``replay_id`` stands; its job is queued when there is no
    result, no error and no job waiting or running (one per replay: a claim key against two API
    processes queuing it). With ``check_room``, a full queue is a 503 problem and nothing is queued."""
    r = get_redis()
    stored = _stored_progress(r, replay_id)
    if stored is not None:
        return stored
    queue = get_queue()
    job = fetch_job(queue.connection, replay_job_id(replay_id))
    status = public_status(job.get_status()) if job is not None else None
    if status == "finished":  # the job may have finished between the reads above
        stored = _stored_progress(r, replay_id)
        if stored is not None:
            return stored
    if status in ("queued", "started"):
        return Progress(status)
    if status == "failed":
        return Progress("failed", error=JOB_FAILED)
    # never queued, or its job is gone (expired, or finished while its error expired): queue it
    cfg = get_settings()
    if check_room and is_full(queue, cfg):
        raise queue_full(f"the log is stored as {replay_id}, but its replay was not queued. Post it again or "
                         f"GET {url_for('replays.get_replay', replay_id=replay_id)}.")
    if store.claim_replay_job(r, replay_id, cfg.job_timeout):
        enqueue_replay(queue, replay_id, cfg, request_id=getattr(g, "request_id", None))
    return Progress("queued")


def _waiting(body: dict[str, Any], what: str) -> dict[str, str]:
    """Adds ``workers`` and ``message`` to a pending answer; returns its ``Retry-After`` header."""
    workers = live_workers(get_queue())
    body["workers"] = workers
    body["message"] = None if workers else f"No worker is running: {what} is computed once one starts."
    return {"Retry-After": str(RETRY_AFTER_PENDING if workers else RETRY_AFTER_NO_WORKER)}


@blp.route("", methods=["POST"])
@blp.arguments(LogSchema)
@blp.response(201, ReplayAcceptedSchema)
@blp.alt_response(200, schema=ReplayAcceptedSchema, description="The same log was already stored")
@blp.alt_response(202, schema=ReplayAcceptedSchema, success=True,
                  description="Stored; the log is too heavy to replay in the request (MAX_STEPS_IN_REQUEST): "
                              "a worker replays it; its result is at Location after Retry-After",
                  headers={**RETRY_AFTER_HEADER,
                           "Location": {"description": "the replay", "schema": {"type": "string"}}})
@blp.alt_response(503, schema=ProblemSchema, content_type=PROBLEM_JSON,
                  description=QUEUE_FULL_DOC + " (the log was stored: post it again)", headers=RETRY_AFTER_HEADER)
def post_replay(log: dict[str, Any]) -> tuple[dict[str, Any], int, dict[str, str]]:
    """Validate a log and store it under its content address; replay it here or in a worker.

    A log whose replay work fits ``MAX_STEPS_IN_REQUEST`` (its steps, a step with ``expect``
    counting twice) is replayed in the request: 201 the first time, 200 (same ID, same summary)
    when the identical log is posted again. A heavier one is stored and its replay queued for a
    worker: 202 (``status`` queued or started, ``summary`` null, ``Retry-After``, ``Location``); its
    result is then at ``GET /v1/replays/{id}``. A malformed log gets a 422 problem with one error per
    fault and is not stored. With the queue full, a heavy log is stored but its replay not queued:
    a 503 problem; posting it again later queues it.
    """
    try:
        stored = store.put_log(get_redis(), log)
    except MalformedLog as exc:
        raise malformed(exc.faults) from exc
    replay_id = stored.replay_id
    headers = {"Location": links(replay_id)["self"]}
    progress = Progress("finished", stored.result) if stored.result is not None else replay_progress(replay_id)
    body: dict[str, Any] = {"id": replay_id, "created": stored.created, "status": progress.status,
                            "summary": None if progress.result is None else store.summary(progress.result),
                            "links": links(replay_id)}
    if progress.error is not None:
        body["error"] = progress.error
    if progress.pending:
        headers |= _waiting(body, "its replay")
        return body, 202, headers
    return body, 201 if stored.created else 200, headers


@blp.route("/<string:replay_id>")
@blp.response(200, ReplayStatusSchema)
@blp.alt_response(503, schema=ProblemSchema, content_type=PROBLEM_JSON,
                  description=QUEUE_FULL_DOC + " (the replay of a stored log had to be queued again)",
                  headers=RETRY_AFTER_HEADER)
def get_replay(replay_id: str) -> Any:
    """The stored log and its replay result.

    ``replay`` is null while a worker replays a log too heavy for the request that stored it:
    ``status`` is then queued or started, with ``workers`` (and a ``message`` when none is alive)
    and ``Retry-After``; ``failed`` with an ``error`` when the replay passed the job's time or memory
    ceiling, or its job failed. A stored log without a result and without a job (its replay could
    not be queued, or its error expired) has its replay queued by this request.
    """
    log = load_stored_log(replay_id)
    progress = replay_progress(replay_id)
    body: dict[str, Any] = {"id": replay_id, "log": log, "replay": progress.result, "status": progress.status,
                            "links": links(replay_id)}
    if progress.error is not None:
        body["error"] = progress.error
    if progress.pending:
        return body, 200, _waiting(body, "the replay")
    return body


def _timeline_error(error: dict[str, Any]) -> ProblemError:
    if error.get("kind") == "malformed":  # stored logs were validated; only an engine change gets here
        faults = [Fault(f.get("path", ""), f.get("message", "")) for f in error.get("faults", [])]
        return malformed(faults)
    if error.get("kind") == "ceiling":
        return ProblemError(422, "Log too heavy", str(error.get("message")))
    return ProblemError(500, "Internal Server Error", "The timeline could not be computed.")


def _pending(replay_id: str, self_url: str, status: str, what: str) -> Response:
    body: dict[str, Any] = {"id": replay_id, "status": status, "links": {"self": self_url}}
    headers = _waiting(body, what)
    resp = jsonify(TimelinePendingSchema().dump(body))
    resp.status_code = 202
    resp.headers["Location"] = self_url
    resp.headers.update(headers)
    return resp


def pending_or_record(replay_id: str, read: Callable[[Any, str], dict[str, Any] | None], what: str,
                      self_url: str) -> dict[str, Any] | Response:
    """A record the timeline job stores beside a stored log (``read(redis, id)``: the timeline's or
    the viewer's), or the 202 answer while the job is queued or running. The first request queues
    the job; a full queue is a 503 problem, a failed job a 500 problem."""
    r = get_redis()
    record = read(r, replay_id)
    if record is not None:
        return record
    queue = get_queue()
    job = fetch_job(queue.connection, timeline_job_id(replay_id))
    status = public_status(job.get_status()) if job is not None else None
    if status == "finished":  # the job may have finished between the two reads
        record = read(r, replay_id)
        if record is not None:
            return record
    if status in ("queued", "started"):
        return _pending(replay_id, self_url, status, what)
    if status == "failed":
        raise ProblemError(500, "Internal Server Error",
                           f"The job computing {what} failed; see the worker's log. It is tried again after "
                           "ARBITER_FAILURE_TTL.")
    # never queued, or its job is gone (expired, or it finished while its record expired): queue it
    cfg = get_settings()
    if is_full(queue, cfg):
        raise queue_full(f"{what} was not queued.")
    if store.claim_timeline_job(r, replay_id, cfg.job_timeout):
        enqueue_timeline(queue, replay_id, cfg, request_id=getattr(g, "request_id", None))
    return _pending(replay_id, self_url, "queued", what)


class TimelineQuerySchema(ma.Schema):
    at = ma.fields.Integer(load_default=None, validate=ma.validate.Range(min=0, max=limits.MAX_STEPS),
                           metadata={"description": "one step only (0: the setup), with the table's state there"})


@blp.route("/<string:replay_id>/timeline")
@blp.arguments(TimelineQuerySchema, location="query")
@blp.response(200, TimelineSchema)
@blp.alt_response(202, schema=TimelinePendingSchema, success=True,
                  description="Not computed yet: a worker computes it; ask again at Location after Retry-After",
                  headers={**RETRY_AFTER_HEADER,
                           "Location": {"description": "where to ask again", "schema": {"type": "string"}}})
@blp.alt_response(422, schema=ProblemSchema, content_type=PROBLEM_JSON,
                  description="The log is too heavy: computing its timeline passed the time or memory ceiling")
@blp.alt_response(503, schema=ProblemSchema, content_type=PROBLEM_JSON,
                  description=QUEUE_FULL_DOC + " (the timeline had to be queued)", headers=RETRY_AFTER_HEADER)
def get_timeline(args: dict[str, Any], replay_id: str) -> Any:
    """Per-step events, rule IDs, notes and state hashes, computed by a worker.

    The first request queues the computation: 202 (``status`` queued or started, ``workers``,
    ``Retry-After``, ``Location``) until it is stored, then 200. A log too heavy to compute within
    the job's time or memory ceiling gets a 422 problem saying which. With the queue full, the
    request that would queue it gets a 503 problem and nothing is queued.

    ``?at=N`` answers one step: ``timeline.steps`` holds step N only, and ``state`` is the table's
    state view after it (rebuilt from the viewer's keyframes and patches, docs/viewer.md); a step
    past the last is a 404 problem.
    """
    r = get_redis()
    if not store.has_log(r, replay_id):
        raise ProblemError(404, "Not Found", f"No replay with ID {replay_id}.")
    at = args["at"]
    self_url = url_for("replays.get_timeline", replay_id=replay_id, **({} if at is None else {"at": at}))
    record = pending_or_record(replay_id, store.get_timeline, "the timeline", self_url)
    if not isinstance(record, dict):
        return record
    if "error" in record:
        raise _timeline_error(record["error"])
    timeline = record.get("timeline") or {}
    if at is None:
        return {"id": replay_id, "timeline": timeline}
    steps = timeline.get("steps", [])
    if at >= len(steps):
        raise ProblemError(404, "Not Found", f"Replay {replay_id} has steps 0 to {len(steps) - 1}, not {at}.",
                           pointer="/query/at")
    viewer = pending_or_record(replay_id, store.get_viewer, "the timeline", self_url)
    if not isinstance(viewer, dict):
        return viewer
    if "error" in viewer:
        raise _timeline_error(viewer["error"])
    return {"id": replay_id, "at": at, "timeline": {**timeline, "steps": [steps[at]]},
            "state": state_at(viewer["viewer"], at)}


from api.replays import viewer as _viewer  # noqa: E402,F401  (its routes join this blueprint)
