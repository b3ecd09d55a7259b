"""The tournaments resource: Swiss events with byes, drops, tie-breakers and a top cut.

Reads of a public event need no token; a private event's reads need the organizer's token, and
without one a private event answers exactly as an unknown ID does (404), so its existence is not
told [tournament.event.visibility]; a read that sends a token has it checked as a change does.
Every change, and the audit log, needs the organizer's bearer token, checked before anything
else, the body and the tournament's existence included: 401 without a token, 403 with one that is
not this tournament's, the same answers whether or not the ID exists, so a client without the
token learns nothing of which IDs exist. Changes are actions appended atomically to the tournament's log in Redis (see
:mod:`api.tournaments.store`); the log is the audit log, readable by the organizer. The rules
live in :mod:`judge.tournament`; refusals are problem+json documents whose ``type`` is
``urn:arbiter:rule:<rule id>`` and whose ``errors`` name the field and the rule.
"""

from __future__ import annotations

import csv
import functools
import io
import secrets
from collections.abc import Callable
from typing import Any, TypeVar

from flask import current_app, request, url_for
from flask_smorest import Blueprint

import judge.tournament as T
from api.extensions import get_redis
from api.openapi import AUTH_FIRST, SECURITY_SCHEME, problems
from api.problems import ProblemError
from api.tournaments import schemas as S
from api.tournaments.store import Conflict, TournamentStore, token_matches

blp = Blueprint(
    "tournaments",
    __name__,
    url_prefix="/v1/tournaments",
    description="Swiss tournaments: players, pairings, results, standings, top cut",
)

# Rules whose violation means "not now" (409) rather than "bad input" (422).
CONFLICT_RULES = frozenset(
    {
        "tournament.round.results-missing",
        "tournament.swiss.rounds-complete",
        "tournament.round.repair-after-results",
        "tournament.result.conflict",
        "tournament.result.past-round",
        "tournament.cut.started",
        "tournament.cut.finished",
        "tournament.cut.swiss-unfinished",
        "tournament.player.after-swiss",
        "tournament.round.min-players",
        "tournament.player.name-unique",
        "tournament.player.undrop",
        "tournament.event.archived",
    }
)
_EXT = "arbiter.tournaments"
ORGANIZER = (
    "Needs the organizer token: `Authorization: Bearer <token>` (401 without it, "
    "403 with any other, whether or not the tournament exists), checked before the body."
)
View = TypeVar("View", bound=Callable[..., Any])


def store() -> TournamentStore:
    ext = current_app.extensions
    if _EXT not in ext:
        ext[_EXT] = TournamentStore()
    st: TournamentStore = ext[_EXT]
    return st


# an action's fields that a request carries in its path, not its body: the URL's parameter
_PATH_PARAMS = {"/player_id": "pid", "/round": "number", "/table": "table"}


def _pointer(field: str) -> str:
    """Where a violation's field (a pointer into the action) is in the request: a member of the
    JSON body; ``/path/<name>``, a parameter of its URL; else the whole request (""), as for a
    fault of the event's state (a round that is not the current one, asked for by no number)."""
    if field in ("", "/"):
        return ""
    name = _PATH_PARAMS.get(field)
    if name is not None and name in (request.view_args or {}):
        return f"/path/{name}"
    body = request.get_json(silent=True) if request.is_json else None
    return field if isinstance(body, dict) and field.lstrip("/").split("/")[0] in body else ""


def rejected(exc: T.Rejected) -> ProblemError:
    vs = exc.violations
    status = 409 if any(v.rule in CONFLICT_RULES for v in vs) else 422
    first = vs[0]
    return ProblemError(
        status,
        "Conflict" if status == 409 else "Unprocessable Content",
        f"{first.message} [{first.rule}]",
        type=f"urn:arbiter:rule:{first.rule}",
        errors=[
            {"pointer": _pointer(v.field), "detail": v.message, "rule": v.rule} for v in vs
        ],
    )


def not_found(tid: str) -> ProblemError:
    """The answer for an unknown ID, and for a private event read without its token."""
    return ProblemError(
        404, "Not Found", f"No tournament with ID {tid} (a private event needs its organizer token)."
    )


def must_exist(tid: str) -> None:
    if not store().exists(get_redis(), tid):
        raise not_found(tid)


def require_organizer(tid: str, token: str | None = None) -> None:
    """401 without a bearer token, 403 unless it is ``tid``'s organizer token, then 404 if ``tid``
    has no log (only the organizer of a vanished tournament can see that). ``token`` is one the
    caller found elsewhere (the event pages' cookie); by default the Authorization header's."""
    if token is not None:
        scheme = "bearer"
    else:
        scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ProblemError(
            401,
            "Unauthorized",
            "This needs the organizer's bearer token.",
            headers={"WWW-Authenticate": 'Bearer realm="arbiter"'},
        )
    if not token_matches(get_redis(), tid, token.strip()):
        raise ProblemError(403, "Forbidden", "The token is not this tournament's organizer token.")
    must_exist(tid)


def organizer(view: View) -> View:
    """The view needs the organizer's token, checked before anything else (its body included).

    Put it right under ``@blp.route``: it wraps flask-smorest's argument parsing, so a request
    without the token gets 401/403 however wrong its body is. Documented as ``security``.
    """

    @functools.wraps(view)
    def guarded(*args: Any, **kwargs: Any) -> Any:
        require_organizer(kwargs["tid"])
        return view(*args, **kwargs)

    documented: View = Blueprint.doc(security=[{SECURITY_SCHEME: []}])(guarded)
    setattr(documented, AUTH_FIRST, True)
    return documented


def read(tid: str, view: Callable[[T.EventState], Any], token: str | None = None) -> Any:
    """``view`` of the event, for whoever may read it [tournament.event.visibility]: anyone when it
    is public; with a token (``token``, else the Authorization header) only its organizer (the
    token is checked as for a change: 401/403); a private event read without one is a 404."""
    if token is not None or "Authorization" in request.headers:
        require_organizer(tid, token)
        return store().read(get_redis(), tid, view)
    must_exist(tid)

    def public_only(s: T.EventState) -> Any:
        if not s.config.public:
            raise not_found(tid)
        return view(s)

    return store().read(get_redis(), tid, public_only)


def change(
    tid: str,
    decide: Callable[[T.EventState], T.Action | None],
    after: Callable[[T.EventState, T.Action | None], Any],
) -> Any:
    """Apply the organizer's change (the view is guarded by :func:`organizer`)."""
    try:
        return store().change(get_redis(), tid, decide, after)
    except T.Rejected as exc:
        raise rejected(exc) from exc
    except Conflict as exc:
        raise ProblemError(503, "Service Unavailable", str(exc), headers={"Retry-After": "1"}) from exc


A = TypeVar("A", bound=T.Action)


def applied(action: T.Action | None, kind: type[A]) -> A:
    """The action a change applied, of the kind its view decided."""
    assert isinstance(action, kind), action
    return action


# ---------------------------------------------------------------- renderings


def event_format(s: T.EventState) -> str:
    """``swiss-5`` or ``swiss-5+top8``: planned Swiss rounds and the cut."""
    out = f"swiss-{s.planned_rounds()}"
    return out + (f"+top{s.config.cut}" if s.config.cut else "")


def status(s: T.EventState) -> str:
    return "archived" if s.archived else s.stage()


def tournament_json(tid: str, s: T.EventState) -> dict[str, Any]:
    c, cur = s.config, s.current()
    return {
        "id": tid,
        "name": c.name,
        "game": c.game,
        "format": event_format(s),
        "public": c.public,
        "status": status(s),
        "profile": c.profile,
        "rounds": s.planned_rounds(),
        "cut": c.cut,
        "best_of": c.best_of,
        "seed": c.seed,
        "stage": s.stage(),
        "current_round": cur.number if cur else None,
        "players": len(s.players),
        "active_players": len(s.active()),
        "champion": s.champion(),
        "version": s.version,
    }


def player_json(s: T.EventState, pid: str) -> dict[str, Any]:
    p = s.players[pid]
    return {
        "id": p.id,
        "name": p.name,
        "dropped": pid in s.dropped,
        "joined_after": p.joined_after,
        "missed_rounds": "loss" if p.missed_as_loss else "none",
    }


def _in_round(rnd: T.Round, pid: str) -> T.Pairing | None:
    return next((p for p in rnd.pairings if pid in (p.p1, p.p2)), None)


def player_note(s: T.EventState, pid: str, change: str) -> str | None:
    """What a drop, a re-entry or a late entry means for the round in progress, with its rule."""
    cur = s.current()
    in_progress = cur is not None and cur.stage == "swiss" and not s.complete(cur.number)
    nxt = len(s.rounds) + 1
    if change == "drop":
        table = _in_round(cur, pid) if cur is not None and in_progress else None
        if cur is not None and table is not None:
            return (
                f"Dropped during round {cur.number}: the match at table {table.table} stands and its result "
                f"counts; not paired from round {nxt} on. [tournament.player.drop-mid-round]"
            )
        return f"Dropped: not paired from round {nxt} on; the record stands. [tournament.player.dropped]"
    if change == "undrop":
        sat_out = cur is not None and in_progress and _in_round(cur, pid) is None
        missed = [e.round for e in T.records(s)[pid].entries
                  if e.kind == "missed" and not (sat_out and cur is not None and e.round == cur.number)]
        text = f"Back in: paired from round {nxt} on"
        if missed:
            text += f"; Swiss round(s) {', '.join(map(str, missed))} missed while out count as losses"
        if sat_out and cur is not None:
            text += (f"; round {cur.number}, paired without them, counts as a loss unless it is re-paired "
                     "before any result")
        return text + ". [tournament.player.undrop]"
    p = s.players[pid]
    if cur is None or p.joined_after == 0:
        return None
    counted = "count as losses" if p.missed_as_loss else "are not counted"
    if in_progress and cur.number == p.joined_after:
        return (
            f"Entered during round {cur.number}: sits it out unless it is re-paired before any result; "
            f"paired from round {nxt}. Swiss rounds 1-{p.joined_after} {counted}. "
            "[tournament.player.late-entry-round-in-progress]"
        )
    return f"Late entry: Swiss rounds 1-{p.joined_after} {counted}; paired from round {nxt}. " \
        "[tournament.player.late-entry]"


def noted(s: T.EventState, pid: str, change: str) -> dict[str, Any]:
    return {**player_json(s, pid), "note": player_note(s, pid, change)}


def player_view_json(s: T.EventState, pid: str) -> dict[str, Any]:
    """A player's own view: their pairing in the current round, their record and their rounds."""
    cur = s.current()
    name = {q: x.name for q, x in s.players.items()}
    pairing: dict[str, Any] | None = None
    if cur is not None:
        table = _in_round(cur, pid)
        if table is not None:
            opp = table.p2 if table.p1 == pid else table.p1
            res = s.results.get((cur.number, table.table))
            pairing = {
                "round": cur.number,
                "stage": cur.stage,
                "table": table.table,
                "seat": 1 if table.p1 == pid else 2,
                "opponent": opp,
                "opponent_name": name[opp],
                "reported": res is not None,
                "bye": False,
            }
        elif cur.bye == pid:
            pairing = {"round": cur.number, "stage": cur.stage, "table": None, "seat": None,
                       "opponent": None, "opponent_name": None, "reported": True, "bye": True}
    st = next(x for x in T.standings(s) if x.player_id == pid)
    rounds = []
    for e in T.records(s)[pid].entries:
        won, lost = e.games_won, e.games_lost
        rounds.append({
            "round": e.round,
            "kind": e.kind,
            "opponent": e.opponent,
            "opponent_name": name[e.opponent] if e.opponent else None,
            "outcome": "win" if e.outcome > 0 else "draw" if e.outcome == 0 else "loss",
            "games": f"{won}-{lost}-{e.games_drawn}" if e.kind == "match" else None,
        })
    place = next((pl for pl in T.placings(s) if pl.player_id == pid), None)
    return {
        **player_json(s, pid),
        "event": s.config.name,
        "pairing": pairing,
        "record": {"rank": st.rank, "points": st.points, "wins": st.wins, "losses": st.losses,
                   "draws": st.draws, "byes": st.byes},
        "place": None if place is None else {"place": place.place, "reached": place.reached},
        "rounds": rounds,
    }


def match_json(m: T.Match, s: T.EventState | None = None) -> dict[str, Any]:
    res = None
    if m.result is not None:
        o = m.result.outcome()
        res = {**m.result.to_json(), "winner": m.p1 if o > 0 else m.p2 if o < 0 else None}
    out: dict[str, Any] = {"table": m.table, "p1": m.p1, "p2": m.p2, "result": res}
    if s is not None:
        out["p1_name"], out["p2_name"] = s.players[m.p1].name, s.players[m.p2].name
    return out


def round_json(s: T.EventState, number: int, plan: T.SwissPlan | None = None) -> dict[str, Any]:
    rnd = s.round(number)
    assert rnd is not None
    objective = None
    if plan is not None:
        o = plan.objective
        objective = {
            "rematches": o.rematches,
            "bye_cost": o.bye_cost,
            "pair_down_sq": o.pair_down_sq,
            "spread_sq": o.spread_sq,
            "noise": o.noise,
            "pair_downs": o.pair_downs,
            "edges": plan.edges,
            "complete_graph": plan.complete_graph,
        }
    return {
        "number": number,
        "stage": rnd.stage,
        "complete": s.complete(number),
        "bye": rnd.bye,
        "bye_name": s.players[rnd.bye].name if rnd.bye else None,
        "matches": [match_json(m, s) for m in s.matches(number)],
        "objective": objective,
    }


def standings_json(s: T.EventState) -> list[dict[str, Any]]:
    return [
        {
            "rank": x.rank,
            "player_id": x.player_id,
            "name": x.name,
            "points": x.points,
            "wins": x.wins,
            "losses": x.losses,
            "draws": x.draws,
            "byes": x.byes,
            "dropped": x.dropped,
            "tiebreaks": {k: float(v) for k, v in x.tiebreaks},
        }
        for x in T.standings(s)
    ]


def standings_csv(s: T.EventState) -> str:
    table = T.standings(s)
    names = [k for k, _ in table[0].tiebreaks] if table else []
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\r\n")
    w.writerow(["rank", "player_id", "name", "points", "wins", "losses", "draws", "byes", "dropped", *names])
    for x in table:
        w.writerow(
            [
                x.rank,
                x.player_id,
                x.name,
                x.points,
                x.wins,
                x.losses,
                x.draws,
                x.byes,
                str(x.dropped).lower(),
                *(f"{float(v):.6f}" for _, v in x.tiebreaks),
            ]
        )
    return out.getvalue()


def _round_or_404(s: T.EventState, number: int) -> None:
    if s.round(number) is None:
        raise ProblemError(404, "Not Found", f"Round {number} has not been paired.")


# ---------------------------------------------------------------- views


@blp.route("", methods=["POST"])
@blp.arguments(S.CreateSchema)
@blp.response(201, S.CreatedSchema)
def create_tournament(args: dict[str, Any]) -> tuple[dict[str, Any], int, dict[str, str]]:
    """Create a tournament. The response carries the organizer token — only this once."""
    seed = args["seed"] if args["seed"] is not None else secrets.randbelow(2**31)
    action = T.CreateTournament(
        T.Config(args["name"], args["profile"], args["rounds"], args["cut"], args["best_of"], seed,
                 args["game"], args["public"])
    )
    bad = T.check(T.EventState(), action)
    if bad:
        raise rejected(T.Rejected(bad))
    try:
        tid, token, state = store().create(get_redis(), action)
    except Conflict as exc:
        raise ProblemError(503, "Service Unavailable", str(exc)) from exc
    body = {**tournament_json(tid, state), "token": token}
    return body, 201, {"Location": url_for("tournaments.get_tournament", tid=tid)}


@blp.route("")
@blp.arguments(S.ListQuerySchema, location="query")
@blp.response(200, S.EventListSchema)
def list_tournaments(args: dict[str, Any]) -> dict[str, Any]:
    """Public events, newest first, a page at a time (archived ones with `archived=true`)."""
    page, per_page = args["page"], args["per_page"]
    items, total = event_summaries(args["archived"], (page - 1) * per_page, per_page)
    return {"items": items, "page": page, "per_page": per_page, "total": total,
            "pages": -(-total // per_page)}


def event_summaries(archived: bool, start: int, count: int) -> tuple[list[dict[str, Any]], int]:
    """``count`` public events from the ``start``-th, newest first (archived ones or the others), each
    as the event list gives it, and how many there are (the list, and the front page's events)."""
    r, st = get_redis(), store()
    ids, total = st.page(r, archived, start, count)
    items = []

    def summary(tid: str, s: T.EventState) -> dict[str, Any] | None:
        if not s.config.public or s.archived != archived:
            st.relist(r, tid, s)  # a change raced the list's update: put it right
            return None
        cur = s.current()
        return {"id": tid, "name": s.config.name, "game": s.config.game, "format": event_format(s),
                "round": cur.number if cur else None, "status": status(s), "players": len(s.players),
                "url": url_for("tournaments.get_tournament", tid=tid)}

    for tid in ids:
        if st.exists(r, tid):
            item = st.read(r, tid, functools.partial(summary, tid))
            if item is not None:
                items.append(item)
    return items, total


@blp.route("/<string:tid>")
@blp.response(200, S.TournamentSchema)
def get_tournament(tid: str) -> dict[str, Any]:
    """The tournament's settings and progress."""
    return read(tid, lambda s: tournament_json(tid, s))


@blp.route("/<string:tid>", methods=["PATCH"])
@organizer
@problems(409, 422)
@blp.arguments(S.SettingsInSchema)
@blp.response(200, S.TournamentSchema)
@blp.doc(description=ORGANIZER + " Private: reads and pages need the token.")
def update_tournament(args: dict[str, Any], tid: str) -> dict[str, Any]:
    """Make the event public or private [tournament.event.visibility]."""
    return change(
        tid,
        lambda s: None if s.config.public == args["public"] and not s.archived else T.SetVisibility(args["public"]),
        lambda s, a: tournament_json(tid, s),
    )


@blp.route("/<string:tid>", methods=["DELETE"])
@organizer
@blp.response(204)
@blp.doc(description=ORGANIZER + " The log, the token and the list entry are removed for good.")
def delete_tournament(tid: str) -> None:
    """Delete the event and its audit log."""
    store().delete(get_redis(), tid)


@blp.route("/<string:tid>/archive", methods=["POST"])
@organizer
@problems(409, 422)
@blp.response(200, S.TournamentSchema)
@blp.doc(description=ORGANIZER + " 409 when already archived.")
def archive_tournament(tid: str) -> dict[str, Any]:
    """Archive the event: read-only from now on, listed only with `archived=true`."""
    return change(tid, lambda s: T.ArchiveEvent(), lambda s, a: tournament_json(tid, s))


@blp.route("/<string:tid>/players")
@blp.response(200, S.PlayerSchema(many=True))
def get_players(tid: str) -> list[dict[str, Any]]:
    """Every registered player, dropped ones included, in entry order."""
    return read(tid, lambda s: [player_json(s, pid) for pid in s.players])


@blp.route("/<string:tid>/players", methods=["POST"])
@organizer
@problems(409, 422)
@blp.arguments(S.PlayerInSchema)
@blp.response(201, S.PlayerSchema)
@blp.doc(description=ORGANIZER)
def add_player(args: dict[str, Any], tid: str) -> dict[str, Any]:
    """Register a player (a late entry once rounds are paired)."""
    return change(
        tid,
        lambda s: T.AddPlayer(s.next_player_id(), args["name"], args["missed_rounds"] == "loss"),
        lambda s, a: noted(s, applied(a, T.AddPlayer).player_id, "add"),
    )


def known_player(s: T.EventState, tid: str, pid: str) -> None:
    if pid not in s.players:
        raise ProblemError(
            404,
            "Not Found",
            f"No player {pid} in tournament {tid}. [tournament.player.unknown]",
            type="urn:arbiter:rule:tournament.player.unknown",
        )


@blp.route("/<string:tid>/players/<string:pid>")
@blp.response(200, S.PlayerViewSchema)
def get_player(tid: str, pid: str) -> dict[str, Any]:
    """A player's own view: their pairing and table this round, their record and rounds."""

    def view(s: T.EventState) -> dict[str, Any]:
        known_player(s, tid, pid)
        return player_view_json(s, pid)

    return read(tid, view)


@blp.route("/<string:tid>/players/<string:pid>", methods=["PUT"])
@organizer
@problems(409, 422)
@blp.arguments(S.RenameInSchema)
@blp.response(200, S.PlayerSchema)
@blp.doc(description=ORGANIZER + " 409 when another player has that name (in any case).")
def rename_player(args: dict[str, Any], tid: str, pid: str) -> dict[str, Any]:
    """Rename a player [tournament.player.rename]; id, record and pairings stay."""

    def decide(s: T.EventState) -> T.Action | None:
        known_player(s, tid, pid)
        return None if s.players[pid].name == args["name"] else T.RenamePlayer(pid, args["name"])

    return change(tid, decide, lambda s, a: player_json(s, pid))


@blp.route("/<string:tid>/players/<string:pid>/undrop", methods=["POST"])
@organizer
@problems(409, 422)
@blp.response(200, S.PlayerSchema)
@blp.doc(description=ORGANIZER + " 409 if the player has not dropped or the cut has started.")
def undrop_player(tid: str, pid: str) -> dict[str, Any]:
    """Re-enter a dropped player: paired from the next round; missed rounds are losses."""

    def decide(s: T.EventState) -> T.Action:
        known_player(s, tid, pid)
        return T.UndropPlayer(pid)

    return change(tid, decide, lambda s, a: noted(s, pid, "undrop"))


@blp.route("/<string:tid>/players/<string:pid>/drop", methods=["POST"])
@organizer
@problems(409, 422)
@blp.response(200, S.PlayerSchema)
@blp.doc(description=ORGANIZER)
def drop_player(tid: str, pid: str) -> dict[str, Any]:
    """Drop a player: not paired from the next round on, kept in the standings; a drop during a
    round keeps that round's match and result [tournament.player.drop-mid-round]. Twice is harmless."""

    def decide(s: T.EventState) -> T.Action | None:
        known_player(s, tid, pid)
        return None if pid in s.dropped else T.DropPlayer(pid)

    return change(tid, decide, lambda s, a: noted(s, pid, "drop"))


@blp.route("/<string:tid>/rounds")
@blp.response(200, S.RoundSchema(many=True))
def get_rounds(tid: str) -> list[dict[str, Any]]:
    """Every round with its pairings and results."""
    return read(tid, lambda s: [round_json(s, r.number) for r in s.rounds])


@blp.route("/<string:tid>/rounds", methods=["POST"])
@organizer
@problems(409, 422)
@blp.response(201, S.RoundSchema)
@blp.doc(description=ORGANIZER + " 409 while results of the current round are missing.")
def pair_round(tid: str) -> dict[str, Any]:
    """Pair the next round (Swiss, or the next elimination round once the cut has started)."""
    plans: list[T.Plan] = []

    def decide(s: T.EventState) -> T.Action:
        plans.append(T.plan_next_round(s))
        return plans[-1].action

    return change(
        tid,
        decide,
        lambda s, a: round_json(s, applied(a, T.PairRound).number, plans[-1].swiss),
    )


@blp.route("/<string:tid>/rounds/<int(min=1):number>")
@blp.response(200, S.RoundSchema)
def get_round(tid: str, number: int) -> dict[str, Any]:
    """One round with its pairings and results."""

    def view(s: T.EventState) -> dict[str, Any]:
        _round_or_404(s, number)
        return round_json(s, number)

    return read(tid, view)


@blp.route("/<string:tid>/pairings")
@blp.response(200, S.RoundSchema)
def get_pairings(tid: str) -> dict[str, Any]:
    """The current round's pairings (table 1 = best records)."""

    def view(s: T.EventState) -> dict[str, Any]:
        cur = s.current()
        if cur is None:
            raise ProblemError(404, "Not Found", "No round has been paired yet.")
        return round_json(s, cur.number)

    return read(tid, view)


@blp.route("/<string:tid>/rounds/<int(min=1):number>/repair", methods=["POST"])
@organizer
@problems(409, 422)
@blp.response(200, S.RoundSchema)
@blp.doc(description=ORGANIZER)
def repair_round(tid: str, number: int) -> dict[str, Any]:
    """Pair the current Swiss round again (after late entries or drops), before any result."""
    plans: list[T.Plan] = []

    def decide(s: T.EventState) -> T.Action:
        cur = s.current()
        if cur is None or cur.number != number:
            raise T.Rejected(
                [
                    T.Violation(
                        "tournament.round.not-current", "/round", f"round {number} is not the current round"
                    )
                ]
            )
        plans.append(T.plan_repair(s))
        return plans[-1].action

    return change(tid, decide, lambda s, a: round_json(s, number, plans[-1].swiss))


@blp.route("/<string:tid>/rounds/<int(min=1):number>/pairings", methods=["PUT"])
@organizer
@problems(409, 422)
@blp.arguments(S.OverrideInSchema)
@blp.response(200, S.RoundSchema)
@blp.doc(description=ORGANIZER)
def override_pairings(args: dict[str, Any], tid: str, number: int) -> dict[str, Any]:
    """Replace the current round's pairings with the organizer's own, before any result."""
    pairings = tuple(T.Pairing(i + 1, p["p1"], p["p2"]) for i, p in enumerate(args["pairings"]))
    return change(
        tid,
        lambda s: T.OverridePairings(number, pairings, args["bye"]),
        lambda s, a: round_json(s, number),
    )


@blp.route("/<string:tid>/rounds/<int(min=1):number>/matches/<int(min=1):table>", methods=["PUT"])
@organizer
@problems(409, 422)
@blp.arguments(S.ResultInSchema)
@blp.response(200, S.MatchSchema)
@blp.doc(
    description=ORGANIZER + " The same report again changes nothing; a different result for a "
    "reported match needs `correction: true` (409 otherwise). An earlier Swiss round's result can be "
    "corrected until the top cut starts (the pairings made since stand; 409 after)."
)
def report_result(args: dict[str, Any], tid: str, number: int, table: int) -> dict[str, Any]:
    """Report the result of one match of the current round, or correct one of an earlier Swiss round."""
    result = T.Result(args["p1_wins"], args["p2_wins"], args["draws"])

    def decide(s: T.EventState) -> T.Action | None:
        action = T.ReportResult(number, table, result, args["correction"])
        if s.results.get((number, table)) == result:
            return None  # identical repeat: harmless
        return action

    def after(s: T.EventState, a: T.Action | None) -> dict[str, Any]:
        m = next(m for m in s.matches(number) if m.table == table)
        return match_json(m, s)

    return change(tid, decide, after)


@blp.route("/<string:tid>/cut", methods=["POST"])
@organizer
@problems(409, 422)
@blp.arguments(S.CutInSchema)
@blp.response(201, S.RoundSchema)
@blp.doc(description=ORGANIZER)
def start_cut(args: dict[str, Any], tid: str) -> dict[str, Any]:
    """Start the top cut: single elimination of the best N, seeded 1 against N."""
    return change(
        tid,
        lambda s: T.plan_cut(s, args["size"]).action,
        lambda s, a: round_json(s, applied(a, T.StartCut).number),
    )


@blp.route("/<string:tid>/standings")
@blp.arguments(S.StandingsQuerySchema, location="query")
@blp.response(200, S.StandingSchema(many=True))
@blp.doc(
    responses={
        "200": {
            "content": {"text/csv": {"schema": {"type": "string"}}},
            "description": "JSON, or CSV with `Accept: text/csv` (or `?format=csv`)",
        }
    }
)
def get_standings(args: dict[str, Any], tid: str) -> Any:
    """Swiss standings under the tournament's tie-breaker profile (JSON, or CSV)."""
    fmt = args.get("format")
    if fmt is None:
        best = request.accept_mimetypes.best_match(["application/json", "text/csv"], "application/json")
        fmt = "csv" if best == "text/csv" else "json"
    if fmt == "csv":
        body = read(tid, standings_csv)
        return current_app.response_class(body, 200, mimetype="text/csv")
    return read(tid, standings_json)


@blp.route("/<string:tid>/audit")
@organizer
@blp.response(200, S.AuditEntrySchema(many=True))
@blp.doc(description=ORGANIZER)
def get_audit(tid: str) -> list[dict[str, Any]]:
    """Every change, in order: the tournament's append-only action log."""
    return store().audit(get_redis(), tid)
