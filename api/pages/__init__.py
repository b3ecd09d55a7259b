"""Web pages for judges at the table (plain HTML/CSS/JS shipped in the package, no CDN):

- ``/``: the front page: where a judge, an organizer or a content creator starts (a quick ruling on
  a position, the rules, the stored replays, the public events, the API).
- ``/rules`` and ``/rules/<game>``: every rule of a game, one anchor per rule (``#<rule id>``), with
  its summary, section, source and status; a ruling, the viewer and ``GET /v1/rules`` link here.
- ``/rulings/<ruling_id>``: a stored ruling of ``/v1/rulings`` as a judge reads it aloud (what was
  asked, the answer, who decides now, the rules with their summaries, what changed on the table).
- ``/position``: the quick position form (a table by card names, one question) and ``POST
  /position``, which answers the form: the log, the position and the ruling, computed in the
  request (a position and one step).

Not in the OpenAPI document (pages, not the API); errors are the API's problems all the same.
Nothing here names a game: games come from the registry, through their ``Game`` members.
"""

from __future__ import annotations

from itertools import groupby
from typing import Any

from flask import Blueprint, render_template, request, url_for

from api.extensions import get_queue, get_redis
from api.i18n import request_lang, request_text
from api.jsonio import request_json
from api.problems import ProblemError
from arbiter import store
from i18n import N_
from judge.games import quick, registry
from judge.limits import MAX_STEPS_IN_REQUEST
from judge.rules import index
from replays.errors import Fault
from replays.service import MalformedLog, StepOutOfRange, ruling_words_json
from worker.queue import fetch_job, public_status

bp = Blueprint("pages", __name__, template_folder="templates", static_folder="static",
               static_url_path="/pages/static")

RULE_GAMES = (*index.GAMES, "tournament")
#: seconds before a ruling page that waits for its worker loads again
REFRESH_SECONDS = 2


def rule_url(rule_id: str) -> str:
    """The rules page's anchor of one rule: ``/rules/<game>#<rule id>``."""
    return f"/rules/{index.game_of(rule_id)}#{rule_id}"


def game_name(game_id: str) -> str:
    try:
        return str(registry.get(game_id).name)
    except registry.UnknownGame:
        return {"tournament": "Tournaments"}.get(game_id, game_id)


#: the public events the front page lists (the newest; the API lists them all)
HOME_EVENTS = 20


@bp.route("/")
def home() -> str:
    from api.tournaments import event_summaries  # (the events' blueprint: imported when asked for)

    events, total_events = event_summaries(False, 0, HOME_EVENTS)
    for e in events:
        e["game_name"] = game_name(e["game"])
    replays, _ = store.list_replays(get_redis(), 0, 0)  # (how many are stored)
    games = [str(registry.get(g).name) for g in registry.written()]
    return render_template("pages/home.html", games=games, events=events, total_events=total_events,
                           replays=replays)


@bp.route("/rules")
def rules_index() -> str:
    games = [{"id": g, "name": game_name(g), "count": len(index.ids(g))} for g in RULE_GAMES]
    return render_template("pages/rules_index.html", games=games)


@bp.route("/rules/<string:game>")
def rules_page(game: str) -> str:
    if game not in RULE_GAMES:
        raise ProblemError(404, "Not Found", f"No rules of {game!r}; games: {', '.join(RULE_GAMES)}.")
    rules = index.rules(game)
    sections = [(section, list(items)) for section, items in groupby(rules, key=lambda r: r.section)]
    return render_template("pages/rules.html", game=game, name=game_name(game), sections=sections, total=len(rules))


@bp.route("/rulings/<string:ruling_id>")
def ruling_page(ruling_id: str) -> Any:
    record = store.get_ruling(get_redis(), ruling_id)
    if record is None:
        job = fetch_job(get_queue().connection, ruling_id)
        if job is None:
            raise ProblemError(404, "Not Found", f"No ruling with ID {ruling_id}.")
        status = public_status(job.get_status())
        body = render_template("pages/ruling_wait.html", ruling_id=ruling_id, status=status, refresh=REFRESH_SECONDS,
                               api=url_for("rulings.get_ruling", ruling_id=ruling_id))
        return body, 200, {"Refresh": str(REFRESH_SECONDS)} if status in ("queued", "started") else {}
    ruling = record.get("ruling")
    words: dict[str, Any] | None = None
    note: dict[str, int] | None = None
    replay_id, at = record.get("replay"), (ruling or {}).get("at")
    if isinstance(ruling, dict) and isinstance(at, int) and at <= MAX_STEPS_IN_REQUEST:
        log = store.get_log(get_redis(), replay_id) if isinstance(replay_id, str) else None
        if log is not None:
            try:
                words = ruling_words_json(log, at, lang=request_lang())["words"]
            except (MalformedLog, StepOutOfRange):
                words = None
    elif isinstance(ruling, dict):
        note = {"step": at, "max": MAX_STEPS_IN_REQUEST}  # the template words it
    return render_template("pages/ruling.html", ruling_id=ruling_id, record=record, ruling=ruling, words=words,
                           note=note, rule_url=rule_url, summary=_summary,
                           api=url_for("rulings.get_ruling", ruling_id=ruling_id))


def _summary(rule_id: str) -> str:
    return index.summary(rule_id, request_lang()) if index.is_known(rule_id) else ""


def quick_games() -> list[str]:
    return [g for g in registry.written() if all(hasattr(registry.get(g), m) for m in quick.MEMBERS)]


@bp.route("/position")
def position_form() -> str:
    game_id = request.args.get("game") or (quick_games() or [""])[0]
    if game_id not in quick_games():
        raise ProblemError(404, "Not Found", f"No quick position for {game_id!r}; games: {', '.join(quick_games())}.")
    game = registry.get(game_id)
    form = bool(getattr(game, "quick_form", False))
    pool = game.default_cards()  # (the cards' titles: the fields' suggestions)
    titles = sorted({game.card_info(pool, c)["title"] for c in game.find_cards(pool, "")}) if form else []
    # a game with fields for its quick position (``quick_form``) gets the form; any other, its compact
    # text with the asked step's forms and notes (``quick_help``, judge.games.quick.OPTIONAL)
    forms, notes = game.quick_help() if hasattr(game, "quick_help") else ((), ())
    t = request_text()
    return render_template("pages/position.html", game=game_id, name=game.name, titles=titles,
                           example=game.quick_example(), form=form,
                           games=[(g, registry.get(g).name) for g in quick_games()], forms=forms,
                           notes=[t.words(n) for n in notes], lang_arg=request.args.get("lang"))


#: the answer to a compact text with nothing in it but blank lines and ``#`` comments (the page says it
#: in its own language before asking: the template's words; the API, in the request's language)
NOTHING_TO_RULE_ON = N_("Nothing to rule on: write a position, or load the example")


@bp.route("/position", methods=["POST"])
def position_ruling() -> dict[str, Any]:
    """The form's answer: ``{"log", "ruling", "words"}`` for a quick position (JSON) or its compact
    text (``{"text": ...}``); a 422 problem listing every fault with its pointer otherwise."""
    body = request_json(request)
    t = request_text()  # (the faults in the request's language, as _faults words the game's)
    title = t.gettext("Unprocessable Entity")
    if not isinstance(body, dict):
        raise ProblemError(422, title, t.gettext("A quick position is a JSON object."), pointer="")
    game_id = body.get("game") or (quick_games() or [""])[0]
    if not isinstance(game_id, str) or game_id not in quick_games():
        raise ProblemError(422, title, t.gettext("'game' is one of {games}: the game of the quick position.",
                                                 games=", ".join(quick_games())), pointer="/game")
    game = registry.get(game_id)
    spec: Any = body
    if not set(body) - {"game"}:  # ({} or the game alone: nothing asked, nothing set up)
        raise ProblemError(422, title, t.gettext(NOTHING_TO_RULE_ON), pointer="")
    if "text" in body:
        if not isinstance(body["text"], str):
            raise ProblemError(422, title, t.gettext("'text' is the compact text of a position."), pointer="/text")
        lines, bounds = quick.text_lines(body["text"])
        if not lines and not bounds:  # (blank, or only # comments: one fault, not the empty position's)
            raise ProblemError(422, title, t.gettext(NOTHING_TO_RULE_ON), pointer="/text")
        spec, faults = game.quick_text(body["text"])
        if faults:
            raise _faults(faults, "/text")
    cards = game.default_cards()
    log, faults = game.quick_log(spec, cards)
    if faults or log is None:
        if "text" in body:  # each fault at the line it comes from, where one can be told
            faults = quick.text_faults(game.quick_text, body["text"], faults)
            raise _faults([(f"/text{p}" if p.startswith("/lines/") else p, m) for p, m in faults], "")
        raise _faults(faults, "")
    try:
        result = ruling_words_json(log, 1, lang=request_lang())
    except MalformedLog as exc:  # (what the engine refuses in the log: at the text's line, or the body's place)
        faults = quick.log_faults(game, spec, cards, [(f.path, f.message) for f in exc.faults], body.get("text"))
        raise _faults([(f"/text{p}" if p.startswith("/lines/") else p, m) for p, m in faults], "") from exc
    return {"log": log, "ruling": result["ruling"], "words": result["words"]}


def _faults(faults: list[tuple[str, str]], base: str) -> ProblemError:
    t = request_text()  # a game's fault is an i18n.Msg: worded in the request's language
    errors = [{"pointer": base + path, "detail": Fault(path, message).text(t)} for path, message in faults]
    if not errors:
        return ProblemError(422, t.gettext("Unprocessable Entity"), t.gettext("The position cannot be set up."))
    return ProblemError(422, t.gettext("Unprocessable Entity"),
                        t.ngettext("{n} fault; the first: {first}", "{n} faults; the first: {first}", len(errors),
                                   first=errors[0]["detail"]), errors=errors)
