"""The rulings resource: ask for a ruling (queued for a worker), then poll for it."""

from __future__ import annotations

from typing import Any

from flask import url_for
from flask_smorest import Blueprint

from api.extensions import get_queue, get_redis, get_settings
from api.problems import ProblemError
from api.replays import load_stored_log, malformed
from api.rulings.schemas import RulingAcceptedSchema, RulingRequestSchema, RulingSchema
from arbiter import store
from replays.service import MalformedLog
from worker.queue import enqueue_ruling, fetch_job, public_status

blp = Blueprint("rulings", __name__, description="Rulings on one step of a replay")


def _check_step(log: Any, at: int | None) -> None:
    steps = log.get("steps") if isinstance(log, dict) else None
    count = len(steps) if isinstance(steps, list) else 0
    if at is not None and at > count:
        raise ProblemError(422, "Step out of range",
                           f"Step {at} does not exist: the log has {count} steps (numbered from 1).",
                           pointer="/at")
    if at is None and count == 0:
        raise ProblemError(422, "Step out of range", "The log has no steps to rule on.", pointer="/at")


@blp.route("", methods=["POST"])
@blp.arguments(RulingRequestSchema)
@blp.response(202, RulingAcceptedSchema)
def post_ruling(req: dict[str, Any]) -> tuple[dict[str, Any], int, dict[str, str]]:
    """Queue a ruling on step ``at`` of a stored replay (``replay``) or of a new log (``log``).

    The step range is checked here (422 at ``/at``); the answer is at the ``Location`` URL.
    """
    at = req.get("at")
    if "log" in req:
        try:
            stored = store.put_log(get_redis(), req["log"])
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
    ruling_id = enqueue_ruling(get_queue(), replay_id, at, get_settings())
    location = url_for("rulings.get_ruling", ruling_id=ruling_id)
    body = {"id": ruling_id, "status": "queued", "replay": replay_id, "at": at,
            "links": {"self": location, "job": location}}
    return body, 202, {"Location": location}


def finished(ruling_id: str, record: dict[str, Any]) -> dict[str, Any]:
    return {"id": ruling_id, "status": "finished", "replay": record.get("replay"),
            "at": record.get("at"), "ruling": record.get("ruling"), "error": record.get("error")}


@blp.route("/<string:ruling_id>")
@blp.response(200, RulingSchema)
def get_ruling(ruling_id: str) -> dict[str, Any]:
    """The ruling's status and, once finished, the ruling (or why there is none)."""
    record = store.get_ruling(get_redis(), ruling_id)
    if record is not None:
        return finished(ruling_id, record)
    job = fetch_job(get_queue().connection, ruling_id)
    if job is None:
        raise ProblemError(404, "Not Found", f"No ruling with ID {ruling_id}.")
    status = public_status(job.get_status())
    if status == "finished":  # the job may have finished between the two reads above
        record = store.get_ruling(get_redis(), ruling_id)
        if record is not None:
            return finished(ruling_id, record)
    args = list(job.args or [])
    error = None
    if status == "failed":
        error = {"kind": "job-failed", "message": "The ruling job failed; see the worker's log."}
    elif status == "finished":  # finished but its record expired or was never written
        status, error = "failed", {"kind": "lost", "message": "The ruling is no longer stored."}
    return {"id": ruling_id, "status": status, "replay": args[1] if len(args) > 1 else None,
            "at": args[2] if len(args) > 2 else None, "ruling": None, "error": error}
