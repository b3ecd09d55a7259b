"""What the replay viewer reads, and creators' annotations (routes of the replays blueprint).

- ``GET /v1/replays``: the stored replays, the last stored first, a page at a time, with titles
  and players.
- ``GET /v1/replays/{id}/viewer``: the viewer's data (docs/viewer.md: keyframes every
  ``keyframe_every`` steps plus patches; ``replays.viewer.state_at`` rebuilds any step), computed
  by the timeline's worker job and stored beside the log: 200 once stored, 202 (``Retry-After``,
  ``Location``) until then, as the timeline. ``?notes=SET`` merges an annotation set.
- ``POST /v1/replays/{id}/annotations``: a creator's new annotation set and its creator token
  (returned once). ``GET``/``PUT``/``DELETE /v1/replays/{id}/annotations/{set}`` and
  ``PUT``/``DELETE .../steps/{at}`` read and edit it; every change needs
  ``Authorization: Bearer <creator token>``, checked before anything else. A set lives beside the
  log: the log, and so its content address, never changes.

Every GET here (and in the rest of ``/v1``) answers cross-origin requests (CORS, see
:func:`api.cors`), so a viewer on another site can read replays; changes do not.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import marshmallow as ma
from flask import request, url_for
from flask_smorest import Blueprint

import i18n
from api import fields
from api.extensions import get_redis
from api.i18n import request_lang
from api.openapi import AUTH_FIRST, CREATOR_SCHEME, problems
from api.problems import ProblemError
from api.replays import blp, load_stored_log, pending_or_record
from arbiter import store
from judge.limits import MAX_ANNOTATION_SETS, MAX_ITEMS, MAX_PAGE_SIZE, MAX_STEPS, MAX_STRING
from replays.viewer import check_annotations

View = Callable[..., Any]
TITLE_CHARS = 200


# ------------------------------------------------------------------ the list
class ListQuerySchema(ma.Schema):
    page = ma.fields.Integer(load_default=1, validate=ma.validate.Range(min=1, max=1_000_000),
                             metadata={"description": "page number, from 1"})
    page_size = ma.fields.Integer(load_default=20, validate=ma.validate.Range(min=1, max=MAX_PAGE_SIZE),
                                  metadata={"description": f"replays per page, 1 to {MAX_PAGE_SIZE} (MAX_PAGE_SIZE)"})


class ListedPlayerSchema(ma.Schema):
    id = ma.fields.String()
    name = ma.fields.String()


class ListedReplaySchema(ma.Schema):
    id = ma.fields.String()
    title = ma.fields.String(metadata={"description": "the log's meta.title (empty when it has none)"})
    game = ma.fields.String(allow_none=True)
    players = ma.fields.List(ma.fields.Nested(ListedPlayerSchema))
    steps = ma.fields.Integer()
    stored = ma.fields.String(metadata={"description": "when it was first stored (UTC, ISO 8601)"})
    links = ma.fields.Dict(metadata={"description": "self (the log), view (the viewer page)"})


class ReplayListSchema(ma.Schema):
    items = ma.fields.List(ma.fields.Nested(ListedReplaySchema))
    total = ma.fields.Integer()
    page = ma.fields.Integer()
    page_size = ma.fields.Integer()
    links = ma.fields.Dict(metadata={"description": "next and prev pages, when there are"})


def view_url(replay_id: str, notes: str | None = None) -> str:
    return url_for("viewer_pages.replay_page", replay_id=replay_id, **({"notes": notes} if notes else {}))


@blp.route("", methods=["GET"])
@blp.arguments(ListQuerySchema, location="query")
@blp.response(200, ReplayListSchema)
def list_replays(args: dict[str, Any]) -> dict[str, Any]:
    """The stored replays, the last stored first: title, game, players, steps and links."""
    page, size = args["page"], args["page_size"]
    total, items = store.list_replays(get_redis(), (page - 1) * size, size)
    for item in items:
        item["links"] = {"self": url_for("replays.get_replay", replay_id=item["id"]),
                         "view": view_url(item["id"])}
    links: dict[str, str] = {}
    if page * size < total:
        links["next"] = url_for("replays.list_replays", page=page + 1, page_size=size)
    if page > 1:
        links["prev"] = url_for("replays.list_replays", page=page - 1, page_size=size)
    return {"items": items, "total": total, "page": page, "page_size": size, "links": links}


# ------------------------------------------------------------------ the viewer's data
class ViewerQuerySchema(ma.Schema):
    notes = ma.fields.String(load_default=None, validate=ma.validate.Regexp(r"^[0-9a-f]{16}$"),
                             metadata={"description": "an annotation set of this replay to show"})
    lang = ma.fields.String(load_default=None, validate=ma.validate.OneOf(i18n.LANGS), metadata={
        "description": "language of the text (events, changes, outcome, the page's words: `ui`): en, pl, "
                       "ru; default: the arbiter_lang cookie, else the Accept-Language header, else English"})


def notes_of(replay_id: str, set_id: str) -> dict[str, Any]:
    notes = store.get_notes(get_redis(), replay_id, set_id)
    if notes is None:
        raise ProblemError(404, "Not Found", f"Replay {replay_id} has no annotation set {set_id}.")
    return notes


def viewer_data(replay_id: str, set_id: str | None, lang: str = i18n.DEFAULT, explicit: bool = False) -> Any:
    """The stored viewer data in ``lang`` with the annotation set merged (``notes``: its ID and
    title, or ``missing`` when the replay has no such set: the data then has no annotations), or the
    202 answer while a worker computes it (its ``Location`` names the language when the request
    did: ``explicit``)."""
    if not store.has_log(get_redis(), replay_id):
        raise ProblemError(404, "Not Found", f"No replay with ID {replay_id}.")
    # a set that is not there (deleted, a wrong link): the game without notes, and the page says so
    # (the set's own endpoint answers 404: notes_of)
    notes = store.get_notes(get_redis(), replay_id, set_id) if set_id else None
    query = {**({"notes": set_id} if set_id else {}), **({"lang": lang} if explicit else {})}
    record = pending_or_record(replay_id, functools.partial(store.get_viewer, lang=lang), "the replay viewer's data",
                               url_for("replays.get_viewer", replay_id=replay_id, **query))
    if not isinstance(record, dict):
        return record  # the 202 answer
    if "error" in record:
        raise ProblemError(422, "Log too heavy", str(record["error"].get("message")))
    data: dict[str, Any] = record["viewer"]
    data["id"] = replay_id
    if notes is not None:
        data["annotations"] = notes["annotations"]
        data["notes"] = {"id": set_id, "title": notes["title"]}
    elif set_id:
        data["notes"] = {"id": set_id, "missing": True}
    return data


@blp.route("/<string:replay_id>/viewer")
@blp.arguments(ViewerQuerySchema, location="query")
@blp.response(200, description=(
    "The viewer's data (docs/viewer.md): header, cards, rules, and per step its events in words, "
    "changes, rules and the state as a keyframe (`state`, every `keyframe_every` steps) or a patch "
    "from the step before (`patch`: [[path, value], ...], a null value deletes)"))
@blp.alt_response(202, description="Not computed yet: a worker computes it; ask again at Location after "
                                   "Retry-After", success=True)
@problems(422)
def get_viewer(args: dict[str, Any], replay_id: str) -> Any:
    """What the replay viewer draws of a stored replay, with an annotation set (``?notes=``), its
    text in the language asked for (``?lang=``, else the ``arbiter_lang`` cookie or
    ``Accept-Language``)."""
    data = viewer_data(replay_id, args["notes"], request_lang(), explicit=args["lang"] is not None)
    if not isinstance(data, dict):
        return data
    return data, {"Vary": "Accept-Language, Cookie"}


# ------------------------------------------------------------------ annotations
class AnnotationSchema(ma.Schema):
    class Meta:
        unknown = ma.RAISE

    at = ma.fields.Integer(required=True, strict=True, validate=ma.validate.Range(min=0, max=MAX_STEPS),
                           metadata={"description": "the step (0: the setup)"})
    note = ma.fields.String(required=True, validate=ma.validate.Length(max=MAX_STRING))
    highlight = ma.fields.Raw(metadata={"description": "true, false or a colour name (a-z, at most 20 letters)"})


class NotesInSchema(ma.Schema):
    class Meta:
        unknown = ma.RAISE

    title = ma.fields.String(load_default="", validate=ma.validate.Length(max=TITLE_CHARS))
    annotations = fields.List(ma.fields.Dict(), load_default=list,
                                 validate=ma.validate.Length(max=MAX_ITEMS),
                                 metadata={"description": "[{at, note, highlight?}]: see Annotation"})


class NotesReplacedSchema(NotesInSchema):
    """PUT replaces the whole set: both keys, so that a body naming one (a new title) cannot wipe the
    other (the notes) by its default. PATCH changes one."""

    title = ma.fields.String(required=True, validate=ma.validate.Length(max=TITLE_CHARS))
    annotations = fields.List(ma.fields.Dict(), required=True, validate=ma.validate.Length(max=MAX_ITEMS),
                                 metadata={"description": "[{at, note, highlight?}]: see Annotation"})


class NotesChangedSchema(ma.Schema):
    """PATCH: the keys sent are changed, the others kept."""

    class Meta:
        unknown = ma.RAISE

    title = ma.fields.String(validate=ma.validate.Length(max=TITLE_CHARS))
    annotations = fields.List(ma.fields.Dict(), validate=ma.validate.Length(max=MAX_ITEMS),
                                 metadata={"description": "[{at, note, highlight?}]: see Annotation"})


class StepNoteInSchema(ma.Schema):
    class Meta:
        unknown = ma.RAISE

    note = ma.fields.String(required=True, validate=ma.validate.Length(max=MAX_STRING))
    highlight = ma.fields.Raw(metadata={"description": "true, false or a colour name"})


class NotesSchema(ma.Schema):
    id = ma.fields.String(metadata={"description": "the annotation set's ID (16 hex digits)"})
    replay = ma.fields.String()
    title = ma.fields.String()
    annotations = ma.fields.List(ma.fields.Nested(AnnotationSchema))
    created = ma.fields.String()
    updated = ma.fields.String()
    links = ma.fields.Dict(metadata={"description": "self, and view: the viewer page showing the notes"})


class NotesCreatedSchema(NotesSchema):
    token = ma.fields.String(metadata={"description": "the creator token: send it as `Authorization: "
                                                      "Bearer <token>` to edit the set; shown only here"})


def viewer_steps(replay_id: str) -> int:
    """The last step the stored replay's viewer shows (404 for a replay not stored): the log's last,
    or the illegal step that ended the replay when its result says so (a note past it would never
    show: the viewer stops there)."""
    log = load_stored_log(replay_id)
    steps = len(log.get("steps", [])) if isinstance(log, dict) else 0
    result = store.get_result(get_redis(), replay_id)
    if isinstance(result, dict) and result.get("valid") is False and type(result.get("steps")) is int:
        steps = min(steps, result["steps"])
    return steps


def checked(annotations: Any, replay_id: str, base: str) -> list[dict[str, Any]]:
    """Annotations checked against the steps the stored replay's viewer shows (422 with the fault's
    pointer)."""
    steps = viewer_steps(replay_id)
    try:
        return check_annotations(annotations, steps)
    except ValueError as exc:
        where, _, detail = str(exc).partition(": ")
        pointer = base + ("" if where == "/" else where)
        raise ProblemError(422, "Unprocessable Content", detail, pointer=pointer) from exc


def notes_json(replay_id: str, set_id: str, record: dict[str, Any]) -> dict[str, Any]:
    return {"id": set_id, "replay": replay_id, **record,
            "links": {"self": url_for("replays.get_notes", replay_id=replay_id, set_id=set_id),
                      "view": view_url(replay_id, set_id)}}


def require_creator(replay_id: str, set_id: str) -> None:
    """401 without a bearer token, 403 unless it is the set's creator token (the same answer
    whether or not the set exists: a client without the token learns nothing of which do)."""
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ProblemError(401, "Unauthorized", "This needs the annotation set's creator token.",
                           headers={"WWW-Authenticate": 'Bearer realm="arbiter"'})
    if not store.notes_token_matches(get_redis(), replay_id, set_id, token.strip()):
        raise ProblemError(403, "Forbidden", "The token is not this annotation set's creator token.")


def creator(view: View) -> View:
    """The view needs the set's creator token, checked before anything else (its body included)."""

    @functools.wraps(view)
    def guarded(*args: Any, **kwargs: Any) -> Any:
        require_creator(kwargs["replay_id"], kwargs["set_id"])
        return view(*args, **kwargs)

    documented: View = Blueprint.doc(security=[{CREATOR_SCHEME: []}])(guarded)
    setattr(documented, AUTH_FIRST, True)
    return documented


@blp.route("/<string:replay_id>/annotations", methods=["POST"])
@problems(409)
@blp.arguments(NotesInSchema, required=False)
@blp.response(201, NotesCreatedSchema)
def create_notes(args: dict[str, Any], replay_id: str) -> tuple[dict[str, Any], int, dict[str, str]]:
    """A creator's new annotation set for a stored replay, with its creator token (shown only here).

    The set is stored beside the log, which does not change (nor does its ID). Share the set's
    ``links.view``: the viewer page with these notes. At most ``MAX_ANNOTATION_SETS`` sets are made
    for one replay (409 beyond).
    """
    args = args or {}
    annotations = checked(args.get("annotations", []), replay_id, "/annotations")
    try:
        set_id, token, record = store.create_notes(get_redis(), replay_id, args.get("title", ""), annotations,
                                                   MAX_ANNOTATION_SETS)
    except store.TooManySets as exc:
        raise ProblemError(409, "Conflict", f"Replay {replay_id} has {MAX_ANNOTATION_SETS:,} annotation sets "
                           "already (MAX_ANNOTATION_SETS).") from exc
    body = {**notes_json(replay_id, set_id, record), "token": token}
    return body, 201, {"Location": body["links"]["self"]}


@blp.route("/<string:replay_id>/annotations/<string:set_id>")
@blp.response(200, NotesSchema)
def get_notes(replay_id: str, set_id: str) -> dict[str, Any]:
    """An annotation set (no token needed to read it)."""
    return notes_json(replay_id, set_id, notes_of(replay_id, set_id))


def _changed(replay_id: str, set_id: str, change: Callable[[dict[str, Any]], dict[str, Any]]) -> dict[str, Any]:
    record = store.update_notes(get_redis(), replay_id, set_id, change)
    if record is None:  # deleted after the token was checked
        raise ProblemError(404, "Not Found", f"Replay {replay_id} has no annotation set {set_id}.")
    return notes_json(replay_id, set_id, record)


@blp.route("/<string:replay_id>/annotations/<string:set_id>", methods=["PUT"])
@creator
@blp.arguments(NotesReplacedSchema)
@blp.response(200, NotesSchema)
def put_notes(args: dict[str, Any], replay_id: str, set_id: str) -> dict[str, Any]:
    """Replace an annotation set's title and notes (creator token): both are sent (422 naming the one
    missing); PATCH changes one and keeps the other."""
    annotations = checked(args["annotations"], replay_id, "/annotations")
    return _changed(replay_id, set_id, lambda rec: {**rec, "title": args["title"], "annotations": annotations})


@blp.route("/<string:replay_id>/annotations/<string:set_id>", methods=["PATCH"])
@creator
@blp.arguments(NotesChangedSchema)
@blp.response(200, NotesSchema)
def patch_notes(args: dict[str, Any], replay_id: str, set_id: str) -> dict[str, Any]:
    """Change an annotation set's title, or its notes, or both (creator token): what is not sent is
    kept (a new title keeps the notes). A body with neither is a 422."""
    if not args:
        raise ProblemError(422, "Unprocessable Content",
                           "Nothing to change: send 'title', 'annotations' or both.", pointer="")
    change = dict(args)
    if "annotations" in change:
        change["annotations"] = checked(change["annotations"], replay_id, "/annotations")
    return _changed(replay_id, set_id, lambda rec: {**rec, **change})


@blp.route("/<string:replay_id>/annotations/<string:set_id>", methods=["DELETE"])
@creator
@blp.response(204)
def delete_notes(replay_id: str, set_id: str) -> None:
    """Delete an annotation set (creator token); the replay is untouched."""
    store.delete_notes(get_redis(), replay_id, set_id)


@blp.route("/<string:replay_id>/annotations/<string:set_id>/steps/<int:at>", methods=["PUT"])
@creator
@blp.arguments(StepNoteInSchema)
@blp.response(200, NotesSchema)
def put_step_note(args: dict[str, Any], replay_id: str, set_id: str, at: int) -> dict[str, Any]:
    """Set the note (and highlight) of one step, replacing the step's notes (creator token)."""
    try:
        [one] = check_annotations([{"at": at, **args}], viewer_steps(replay_id))
    except ValueError as exc:
        where, _, detail = str(exc).partition(": ")
        if where.startswith("/0/at"):
            raise ProblemError(404, "Not Found", f"Replay {replay_id} has no step {at}: {detail}.") from exc
        raise ProblemError(422, "Unprocessable Content", detail, pointer=where.removeprefix("/0")) from exc

    def change(rec: dict[str, Any]) -> dict[str, Any]:
        rest = [a for a in rec["annotations"] if a["at"] != at]
        if len(rest) >= MAX_ITEMS:
            raise ProblemError(409, "Conflict", f"The set holds {MAX_ITEMS:,} notes already (MAX_ITEMS).")
        return {**rec, "annotations": sorted([*rest, one], key=lambda a: a["at"])}

    return _changed(replay_id, set_id, change)


@blp.route("/<string:replay_id>/annotations/<string:set_id>/steps/<int:at>", methods=["DELETE"])
@creator
@blp.response(200, NotesSchema)
def delete_step_notes(replay_id: str, set_id: str, at: int) -> dict[str, Any]:
    """Remove the notes of one step (creator token); 404 past the last step, as for PUT."""
    steps = viewer_steps(replay_id)
    if at > steps:
        raise ProblemError(404, "Not Found",
                           f"Replay {replay_id} has no step {at}: a step number from 0 to {steps}.")
    return _changed(replay_id, set_id,
                    lambda rec: {**rec, "annotations": [a for a in rec["annotations"] if a["at"] != at]})
