"""The rulings resource: ask for a ruling (queued for a worker), then poll for it.

With no worker alive on the queue (:func:`worker.liveness.live_workers`), a request that is
otherwise valid is answered 503 (problem+json, ``Retry-After``) and nothing is queued; a ruling
already waiting says in ``workers`` and ``message`` that no worker runs, instead of staying
``queued`` without a word. With ``ARBITER_MAX_QUEUED`` jobs waiting (:func:`worker.queue.is_full`)
it is a 503 too, and nothing is queued.

An inline log is validated and stored but not replayed in the request (the ruling job replays it
anyway); the replay job that stores its result (``GET /v1/replays/{id}``) is queued after the ruling.
"""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from flask import Response, current_app, g, url_for
from flask_smorest import Blueprint

from api.extensions import get_queue, get_redis, get_settings
from api.problems import PROBLEM_JSON, ProblemError, ProblemSchema
from api.replays import QUEUE_FULL_DOC, load_stored_log, malformed, queue_full, replay_progress
from api.rulings.answers import FinishedAnswers
from api.rulings.schemas import RulingAcceptedSchema, RulingRequestSchema, RulingSchema
from arbiter import store
from replays.service import MalformedLog
from worker.liveness import live_workers
from worker.queue import enqueue_ruling, fetch_job, is_full, public_status

blp = Blueprint("rulings", __name__, description="Rulings on one step of a replay")

#: seconds a client is asked to wait before asking again (503 without a worker, or still waiting)
RETRY_AFTER_NO_WORKER = 10
RETRY_AFTER_PENDING = 1


class RulingStatusSchema(RulingSchema):
    """A ruling, with word of the workers while it waits or runs."""

    workers = ma.fields.Integer(allow_none=True, metadata={
        "description": "workers alive on the queue (only while the ruling is queued or started)"})
    message = ma.fields.String(allow_none=True, metadata={
        "description": "why a queued or started ruling may not move (no worker is running)"})


def _check_step(log: Any, at: int | None) -> None:
    steps = log.get("steps") if isinstance(log, dict) else None
    count = len(steps) if isinstance(steps, list) else 0
    if at is not None and at > count:
        raise ProblemError(422, "Step out of range",
                           f"Step {at} does not exist: the log has {count} steps (numbered from 1).",
                           pointer="/at")
    if at is None and count == 0:
        raise ProblemError(422, "Step out of range", "The log has no steps to rule on.", pointer="/at")


def no_worker() -> ProblemError:
    return ProblemError(503, "Service Unavailable",
                        "No worker is running, so the ruling cannot be computed now; nothing was queued. "
                        "Try again once a worker runs (`arbiter worker`).",
                        headers={"Retry-After": str(RETRY_AFTER_NO_WORKER)})


@blp.route("", methods=["POST"])
@blp.arguments(RulingRequestSchema)
@blp.response(202, RulingAcceptedSchema)
@blp.alt_response(503, schema=ProblemSchema, content_type=PROBLEM_JSON,
                  description="No worker is running: nothing was queued. " + QUEUE_FULL_DOC,
                  headers={"Retry-After": {"description": "seconds to wait", "schema": {"type": "integer"}}})
def post_ruling(req: dict[str, Any]) -> tuple[dict[str, Any], int, dict[str, str]]:
    """Queue a ruling on step ``at`` of a stored replay (``replay``) or of a new log (``log``).

    The request is checked first (422 with pointers; an inline log is validated and stored, not
    replayed: its replay job is queued after the ruling), then the queue: with no worker alive, or
    with the queue full (``ARBITER_MAX_QUEUED`` jobs wait), 503 and nothing is queued.
    The answer is at the ``Location`` URL.
    """
    at = req.get("at")
    inline = "log" in req
    if inline:
        try:
            stored = store.put_log(get_redis(), req["log"], replay=False)
        except MalformedLog as exc:
            problem = malformed(exc.faults)
            for err in problem.errors:
                err["pointer"] = "/log" + err["pointer"]
            raise problem from exc
        replay_id = stored.replay_id
        log = req["log"]
    else:
        replay_id = req["replay"]
        log = load_stored_log(replay_id)
    _check_step(log, at)
    queue = get_queue()
    if live_workers(queue) == 0:
        raise no_worker()
    cfg = get_settings()
    if is_full(queue, cfg):
        raise queue_full("the ruling was not queued." + (" The log was stored." if inline else ""))
    ruling_id = enqueue_ruling(queue, replay_id, at, cfg, request_id=getattr(g, "request_id", None))
    if inline:
        replay_progress(replay_id, check_room=False)  # queues its replay unless stored, waiting or running
    location = url_for("rulings.get_ruling", ruling_id=ruling_id)
    body = {"id": ruling_id, "status": "queued", "replay": replay_id, "at": at,
            "links": {"self": location, "job": location}}
    return body, 202, {"Location": location}


def finished(ruling_id: str, record: dict[str, Any]) -> dict[str, Any]:
    return {"id": ruling_id, "status": "finished", "replay": record.get("replay"),
            "at": record.get("at"), "ruling": record.get("ruling"), "error": record.get("error")}


def waiting_word(status: str, workers: int) -> str | None:
    """What a client should know about a ruling that waits (``queued``) or runs (``started``)."""
    if workers > 0:
        return None
    if status == "started":
        return ("No worker is running: the worker that took this ruling stopped. The ruling is queued "
                "again (within about a minute) and computed once a worker runs.")
    return "No worker is running: the ruling waits in the queue until one starts."


_STATUS = RulingStatusSchema()
_ANSWERS = "arbiter.rulings.answers"


@blp.route("/<string:ruling_id>")
@blp.response(200, RulingStatusSchema)
def get_ruling(ruling_id: str) -> Any:
    """The ruling's status and, once finished, the ruling (or why there is none).

    While it is ``queued`` or ``started``, ``workers`` counts the workers alive on the queue and,
    when there are none, ``message`` says so; the answer then carries ``Retry-After``.
    """
    extensions = current_app.extensions
    answers: FinishedAnswers | None = extensions.get(_ANSWERS)
    if answers is None:
        answers = extensions.setdefault(_ANSWERS, FinishedAnswers())
    body = answers.get(ruling_id)
    if body is not None:  # finished rulings never change: served as answered before (api.rulings.answers)
        return Response(body, 200, mimetype="application/json")
    record, ttl_ms = store.get_ruling_ttl(get_redis(), ruling_id)
    if record is not None:
        response = current_app.json.response(_STATUS.dump(finished(ruling_id, record)))
        answers.put(ruling_id, response.get_data(), ttl_ms)
        return response
    queue = get_queue()
    job = fetch_job(queue.connection, ruling_id)
    if job is None:
        raise ProblemError(404, "Not Found", f"No ruling with ID {ruling_id}.")
    status = public_status(job.get_status())
    if status == "finished":  # the job may have finished between the two reads above
        record = store.get_ruling(get_redis(), ruling_id)
        if record is not None:
            return finished(ruling_id, record)
    args = list(job.args or [])
    body: dict[str, Any] = {"id": ruling_id, "status": status, "replay": args[1] if len(args) > 1 else None,
                            "at": args[2] if len(args) > 2 else None, "ruling": None, "error": None}
    if status == "failed":
        body["error"] = {"kind": "job-failed", "message": "The ruling job failed; see the worker's log."}
    elif status == "finished":  # finished but its record expired or was never written
        body["status"] = "failed"
        body["error"] = {"kind": "lost", "message": "The ruling is no longer stored."}
    else:
        workers = live_workers(queue)
        body["workers"] = workers
        body["message"] = waiting_word(status, workers)
        retry = RETRY_AFTER_PENDING if workers else RETRY_AFTER_NO_WORKER
        return body, 200, {"Retry-After": str(retry)}
    return body
