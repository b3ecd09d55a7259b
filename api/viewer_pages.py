"""The replay viewer's web pages (plain Flask routes, not part of the JSON API's OpenAPI document).

- ``/replays``: the stored replays, a page at a time, each linking to its viewer.
- ``/replays/{id}``: the viewer page for a stored replay; it fetches ``/v1/replays/{id}/viewer``
  (``?notes=SET`` shows a creator's annotation set) and takes the viewer's URL options
  (``#step-17``, ``?embed=1&controls=0&start=30&autoplay=1``: docs/viewer.md).
- ``/replays/{id}/export.html``: the same page as one standalone file (assets and data inline,
  opens offline), as ``arbiter export-html`` writes it; 202 while a worker computes the data.
- ``/viewer-assets/{name}``: the page's CSS and JavaScript, from the installed package.

The viewer pages are in the request's language (``?lang=``, the ``arbiter_lang`` cookie, the
``Accept-Language`` header: :func:`api.i18n.request_lang`): the replay page fetches the data in
that language and shows a language switch; the export carries that language's data.

Errors are problem+json like the API's (a 404 for a replay that is not stored).
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from flask import Blueprint, Response, render_template, request, url_for

import i18n
from api.extensions import get_redis
from api.i18n import request_lang, request_text, switch_url
from api.problems import ProblemError
from api.replays.viewer import viewer_data
from arbiter import store
from judge.limits import MAX_PAGE_SIZE
from replays import viewer, viewer_words

bp = Blueprint("viewer_pages", __name__, template_folder="templates")

HTML = "text/html; charset=utf-8"
SET_ID_CHARS = frozenset("0123456789abcdef")
PAGE_SIZE = 50
ASSET_TYPES = {"viewer.css": "text/css; charset=utf-8",
               **{name: "text/javascript; charset=utf-8" for name in ("viewer.js", *viewer.RENDERERS)}}


def _notes_arg() -> str | None:
    notes = request.args.get("notes")
    if notes is None or notes == "":
        return None
    if len(notes) != 16 or not set(notes) <= SET_ID_CHARS:
        raise ProblemError(422, "Unprocessable Content", "notes: an annotation set ID (16 hex digits).",
                           pointer="/query/notes")
    return notes


def _page_arg() -> int:
    raw = request.args.get("page", "1")
    if not (raw.isascii() and raw.isdigit()) or len(raw) > 7 or not 1 <= int(raw) <= 1_000_000:
        raise ProblemError(422, "Unprocessable Content", "page: a whole number from 1.", pointer="/query/page")
    return int(raw)


def _title(replay_id: str) -> str:
    raw = get_redis().get(store.meta_key(replay_id))
    if raw is None:
        return ""
    meta = json.loads(raw)
    return str(meta.get("title") or "")


@bp.route("/replays/<string:replay_id>")
def replay_page(replay_id: str) -> Response:
    if not store.has_log(get_redis(), replay_id):
        raise ProblemError(404, "Not Found", f"No replay with ID {replay_id}.")
    notes = _notes_arg()
    lang = request_lang()
    src = url_for("replays.get_viewer", replay_id=replay_id, **({"notes": notes} if notes else {}), lang=lang)
    title = _title(replay_id) or viewer_words.ui_words(lang)["replay"] + f" {replay_id[:12]}"
    text = viewer.page(data_src=src, asset_url=url_for("viewer_pages.asset", name="viewer.css").rsplit("/", 1)[0] + "/",
                       title=title, lang=lang, switch={code: switch_url(code) for code in i18n.LANGS})
    return Response(text, mimetype="text/html", headers={"Content-Type": HTML, "Vary": "Accept-Language, Cookie"})


@bp.route("/replays/<string:replay_id>/export.html")
def export_page(replay_id: str) -> Any:
    data = viewer_data(replay_id, _notes_arg(), request_lang(), explicit="lang" in request.args)
    if not isinstance(data, dict):
        return data  # 202 while a worker computes it
    name = f"replay-{replay_id[:12]}.html"
    return Response(viewer.page(data), headers={"Content-Type": HTML, "Vary": "Accept-Language, Cookie",
                                                "Content-Disposition": f'attachment; filename="{name}"'})


@bp.route("/viewer-assets/<string:name>")
def asset(name: str) -> Response:
    if name not in ASSET_TYPES:
        raise ProblemError(404, "Not Found", f"No viewer asset {name}.")
    return Response(viewer.asset(name), headers={"Content-Type": ASSET_TYPES[name],
                                                 "Cache-Control": "public, max-age=300"})


@bp.route("/replays")
def replay_list() -> Response:
    page = _page_arg()
    total, items = store.list_replays(get_redis(), (page - 1) * PAGE_SIZE, min(PAGE_SIZE, MAX_PAGE_SIZE))
    t = request_text()
    rows = []
    for item in items:
        stored = item.get("stored")
        try:
            when = t.datetime(datetime.strptime(str(stored), "%Y-%m-%dT%H:%M:%SZ"), "short")
        except ValueError:
            when = str(stored or "")
        rows.append({"href": url_for("viewer_pages.replay_page", replay_id=item["id"]), "title": item.get("title"),
                     "short": item["id"][:12], "players": [str(p.get("name") or p.get("id"))
                                                           for p in item.get("players", [])],
                     "game": str(item.get("game") or ""), "steps": t.number(int(item.get("steps") or 0)),
                     "stored": when})
    text = render_template("replays/list.html", rows=rows, total=total, total_text=t.number(total), page=page,
                           more=page * PAGE_SIZE < total)
    return Response(text, headers={"Content-Type": HTML, "Vary": "Accept-Language, Cookie"})
