"""Event pages: what an organizer posts, prints and hands out, served from the event's state.

Under ``/events/<tid>`` (a shareable link), each page in HTML and, where it is a list, as CSV and
JSON (``.csv`` / ``.json`` after the page's name):

- ``/pairings`` the round's tables, then the same seats by player name (``?round=N``, default the
  current round; CSV ``?order=table|name``), printable: each list starts a page, large table numbers;
- ``/slips`` one match result slip per table, three to a printed page;
- ``/standings`` standings with tie-breakers and, after a cut, places by cut round reached;
- ``/players/<pid>`` a player's own view: pairing, table, record, rounds;
- ``/results`` the organizer's page to enter results by table (it calls the API with the token).

Any page takes ``?refresh=N`` (10 to 3600 seconds) to reload itself, for a screen at the venue.

Who may read [tournament.event.visibility]: anyone when the event is public; otherwise its
organizer, by the ``Authorization: Bearer`` header (API clients) or the page cookie set by
``POST /events/<tid>/session`` with that header (the sign-in form of every page does it). A
private event without the token answers as an unknown ID: 404. The cookie is HttpOnly,
SameSite=Strict and scoped to ``/events/<tid>``; it opens the pages only, never a change, which
needs the header.

Templates and assets are package data (``api/events/templates``, ``api/events/static``); no CDN.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Blueprint, Response, current_app, render_template, request

import judge.tournament as T
from api.events import views as V
from api.events.names import KEEP, LETTERS, collation_key, fold
from api.extensions import get_redis
from api.problems import ProblemError
from api.tournaments import player_view_json, read, require_organizer, tournament_json
from api.tournaments.store import token_matches

bp = Blueprint("events", __name__, url_prefix="/events", template_folder="templates",
               static_folder="static", static_url_path="/static")

COOKIE = "arbiter_event"
COOKIE_MAX_AGE = 7 * 24 * 3600
FORMATS = ("html", "csv", "json")


@bp.app_template_filter("fold")
def fold_filter(name: str) -> str:
    """A name as the find box compares it (``names.fold``)."""
    return fold(name)


@bp.context_processor
def folding() -> dict[str, Any]:
    """The find box's script folds what is typed by the same table as ``names.fold``."""
    return {"fold_letters": {"letters": LETTERS, "keep": KEEP}}


@bp.before_request
def check_refresh() -> None:
    """``?refresh=N`` is checked on every page and format alike (a 422 outside 10-3600)."""
    query_int("refresh", 10, 3600)


def cookie_token(tid: str) -> str | None:
    """The page cookie's token when it is this event's organizer token (a stale one is ignored)."""
    token = request.cookies.get(COOKIE)
    if token and token_matches(get_redis(), tid, token):
        return token
    return None


def event_read(tid: str, view: Callable[[T.EventState], Any]) -> Any:
    return read(tid, view, cookie_token(tid))


def query_int(name: str, minimum: int = 1, maximum: int = 999_999) -> int | None:
    raw = request.args.get(name)
    if raw is None:
        return None
    if not (raw.isascii() and raw.isdigit()) or len(raw) > 6 or not minimum <= int(raw) <= maximum:
        raise ProblemError(422, "Unprocessable Content",
                           f"{name} must be a whole number from {minimum} to {maximum}.", pointer=f"/query/{name}")
    return int(raw)


def query_choice(name: str, choices: tuple[str, ...], default: str) -> str:
    raw = request.args.get(name, default)
    if raw not in choices:
        raise ProblemError(422, "Unprocessable Content", f"{name} must be one of {', '.join(choices)}.",
                           pointer=f"/query/{name}")
    return raw


def the_round(s: T.EventState, number: int | None) -> T.Round | None:
    if number is None:
        return s.current()
    rnd = s.round(number)
    if rnd is None:
        raise ProblemError(404, "Not Found", f"Round {number} has not been paired.")
    return rnd


def csv_response(body: str, filename: str) -> Response:
    resp = current_app.response_class(body, 200, mimetype="text/csv")
    resp.headers["Content-Disposition"] = f'inline; filename="{filename}"'
    return resp


def page(tid: str, template: str, build: Callable[[T.EventState], dict[str, Any]]) -> Any:
    """Render ``template`` with what ``build`` returns; a hidden or unknown event (or a round not
    paired) is an HTML page with the same status the API gives."""
    try:
        ctx = event_read(tid, lambda s: {"t": tournament_json(tid, s), **build(s)})
    except ProblemError as exc:
        if exc.status not in (401, 403, 404):
            raise
        html = render_template("events/hidden.html", tid=tid, status=exc.status, detail=exc.detail, t=None)
        resp = current_app.response_class(html, exc.status, mimetype="text/html")
        for k, v in exc.headers.items():
            resp.headers[k] = v
        return resp
    # ?refresh=N: the page reloads itself every N seconds (pairings or standings on a screen)
    return render_template(template, tid=tid, refresh=query_int("refresh", 10, 3600), **ctx)


# ---------------------------------------------------------------- pages


@bp.get("/<string:tid>")
def index(tid: str) -> Any:
    def build(s: T.EventState) -> dict[str, Any]:
        cur = s.current()
        return {"players": [{"id": p.id, "name": p.name, "dropped": p.id in s.dropped}
                            for p in sorted(s.players.values(), key=lambda p: (collation_key(p.name), p.id))],
                # the template words the round's title in the page's language
                "round": {"number": cur.number, "stage": cur.stage, "tables": len(cur.pairings)} if cur else None}

    return page(tid, "events/index.html", build)


@bp.get("/<string:tid>/pairings")
@bp.get("/<string:tid>/pairings.<fmt>")
def pairings(tid: str, fmt: str = "html") -> Any:
    """The round's pairings by table and by name (HTML, CSV or JSON)."""
    fmt = format_of(fmt)
    number = query_int("round")
    order = query_choice("order", ("table", "name"), "table")

    def build(s: T.EventState) -> dict[str, Any]:
        rnd = the_round(s, number)
        return {"view": None if rnd is None else V.pairings(s, rnd)}

    if fmt == "html":
        return page(tid, "events/pairings.html", build)
    view = event_read(tid, build)["view"]
    if view is None:
        raise ProblemError(404, "Not Found", "No round has been paired yet.")
    if fmt == "csv":
        return csv_response(V.pairings_csv(view, order), f"pairings-round-{view['round']}.csv")
    return view


@bp.get("/<string:tid>/slips")
@bp.get("/<string:tid>/slips.<fmt>")
def slips(tid: str, fmt: str = "html") -> Any:
    """Match result slips of the round, one per table."""
    fmt = format_of(fmt)
    number = query_int("round")

    def build(s: T.EventState) -> dict[str, Any]:
        rnd = the_round(s, number)
        return {"slips": None if rnd is None else V.slips(s, rnd), "round": None if rnd is None else rnd.number}

    if fmt == "html":
        return page(tid, "events/slips.html", build)
    got = event_read(tid, build)
    if got["slips"] is None:
        raise ProblemError(404, "Not Found", "No round has been paired yet.")
    if fmt == "csv":
        return csv_response(V.slips_csv(got["slips"]), f"slips-round-{got['round']}.csv")
    return got["slips"]


@bp.get("/<string:tid>/standings")
@bp.get("/<string:tid>/standings.<fmt>")
def standings(tid: str, fmt: str = "html") -> Any:
    """Standings with tie-breakers; after a cut, places by the cut round reached."""
    fmt = format_of(fmt)

    def build(s: T.EventState) -> dict[str, Any]:
        return {"view": V.standings(s)}

    if fmt == "html":
        return page(tid, "events/standings.html", build)
    view = event_read(tid, build)["view"]
    if fmt == "csv":
        return csv_response(V.standings_csv(view), "standings.csv")
    return view


@bp.get("/<string:tid>/players/<string:pid>")
@bp.get("/<string:tid>/players/<string:pid>.<fmt>")
def player(tid: str, pid: str, fmt: str = "html") -> Any:
    """A player's own view: this round's table and opponent, record, rounds."""
    fmt = query_format(fmt, ("html", "json"))

    def build(s: T.EventState) -> dict[str, Any]:
        if pid not in s.players:
            raise ProblemError(404, "Not Found", f"No player {pid} in this event. [tournament.player.unknown]",
                               type="urn:arbiter:rule:tournament.player.unknown")
        return {"me": player_view_json(s, pid)}

    if fmt == "html":
        return page(tid, "events/player.html", build)
    return event_read(tid, build)["me"]


@bp.get("/<string:tid>/results")
def results(tid: str) -> Any:
    """The organizer's result entry for the current round (the writes go to the API, with the token);
    ``?round=N``: an earlier Swiss round's results, to correct one (tournament.result.past-round:
    until the top cut starts; the pairings made since stand)."""
    number = query_int("round")

    def build(s: T.EventState) -> dict[str, Any]:
        cur = s.current()
        rnd = the_round(s, number)
        past = rnd is not None and rnd is not cur
        round_done = cur is None or s.complete(cur.number)
        swiss_done = not s.cut_seeds and s.swiss_over()
        # the earlier rounds whose results may still be corrected
        earlier = [] if s.cut_seeds or s.archived else [r.number for r in s.rounds if r is not cur]
        return {"view": None if rnd is None else V.pairings(s, rnd),
                "past": past, "earlier": earlier, "current": None if cur is None else cur.number,
                "closed": past and (rnd is None or rnd.stage == "cut" or bool(s.cut_seeds) or s.archived),
                "can_pair": not past and round_done and not swiss_done and not s.archived and s.champion() is None,
                "swiss_done": not past and swiss_done and not s.archived,
                # the last planned Swiss round is the current one: no round is paired after it
                # (tournament.swiss.rounds-complete); the top cut, or the end of the event, comes next
                "last_swiss": not past and cur is not None and cur.stage == "swiss" and not s.cut_seeds
                and s.swiss_paired() >= s.planned_rounds() and not s.archived,
                "choices": result_choices(s, rnd)}

    return page(tid, "events/results.html", build)


def result_choices(s: T.EventState, cur: T.Round | None) -> list[dict[str, Any]]:
    """The one-click results of a match of the round shown (others through the free form)."""
    draws = cur is None or cur.stage == "swiss"
    if s.config.best_of == 1:
        out = [(1, 0, 0), (0, 1, 0)] + ([(0, 0, 1)] if draws else [])
    else:
        out = [(2, 0, 0), (2, 1, 0), (1, 2, 0), (0, 2, 0)] + ([(1, 1, 1), (1, 1, 0)] if draws else [])
    return [{"p1": a, "p2": b, "d": d, "label": f"{a}-{b}" + (f"-{d}" if d else "")} for a, b, d in out]


# ---------------------------------------------------------------- organizer cookie


@bp.post("/<string:tid>/session")
def sign_in(tid: str) -> Response:
    """Set the page cookie from the organizer's bearer token (401/403/404 as the API)."""
    require_organizer(tid)
    token = request.headers["Authorization"].partition(" ")[2].strip()
    resp = current_app.response_class(status=204)
    resp.set_cookie(COOKIE, token, max_age=COOKIE_MAX_AGE, path=f"/events/{tid}", httponly=True,
                    samesite="Strict", secure=request.is_secure)
    return resp


@bp.delete("/<string:tid>/session")
def sign_out(tid: str) -> Response:
    resp = current_app.response_class(status=204)
    resp.delete_cookie(COOKIE, path=f"/events/{tid}", httponly=True, samesite="Strict")
    return resp


def format_of(fmt: str) -> str:
    return query_format(fmt, FORMATS)


def query_format(fmt: str, allowed: tuple[str, ...]) -> str:
    if fmt not in allowed:
        raise ProblemError(404, "Not Found", f"Nothing at {request.path}: the formats are {', '.join(allowed)}.")
    return fmt
