"""What the event pages show, as plain data computed from the event's state: the same rows make
the HTML page, its CSV and its JSON, so the three never disagree.

- pairings of a round by table (table 1 = best records) and by player name (alphabetical by
  ``names.collation_key``: accents and case aside, "Łukasz" among the L's; the list posted for
  players looking for their seat), with each player's points before the round;
- match result slips, one per table;
- standings with the tie-breakers, and after a cut the places by cut round reached
  [tournament.cut.placings].
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from typing import Any

import judge.tournament as T
from api.events.names import collation_key
from judge.tournament.placings import stage_name

STAGE = {"swiss": "Swiss", "cut": "Top cut"}
TIEBREAK_NAMES = {"sos": "SoS", "esos": "eSoS", "omw": "OMW%", "gw": "GW%", "ogw": "OGW%"}


def result_text(res: T.Result | None) -> str:
    if res is None:
        return ""
    return f"{res.p1_wins}-{res.p2_wins}" + (f"-{res.draws}" if res.draws else "")


def round_title(s: T.EventState, rnd: T.Round) -> str:
    if rnd.stage == "cut":
        return f"Round {rnd.number} (top cut: {stage_name(2 * len(rnd.pairings))})"
    return f"Round {rnd.number} of {s.planned_rounds()}"


def pairings(s: T.EventState, rnd: T.Round) -> dict[str, Any]:
    """Tables of ``rnd`` and the same seats in player-name order."""
    pts = {pid: r.points for pid, r in T.records(s, before_round=rnd.number).items()}
    name = {pid: p.name for pid, p in s.players.items()}
    seed = {pid: i + 1 for i, pid in enumerate(s.cut_seeds)}
    tables = []
    seats = []
    for p in rnd.pairings:
        res = s.results.get((rnd.number, p.table))
        row = {
            "table": p.table,
            "p1": p.p1, "p1_name": name[p.p1], "p1_points": pts[p.p1], "p1_dropped": p.p1 in s.dropped,
            "p2": p.p2, "p2_name": name[p.p2], "p2_points": pts[p.p2], "p2_dropped": p.p2 in s.dropped,
            "result": result_text(res),
        }
        if rnd.stage == "cut":
            row["p1_seed"], row["p2_seed"] = seed.get(p.p1), seed.get(p.p2)
        tables.append(row)
        for me, opp, seat in ((p.p1, p.p2, 1), (p.p2, p.p1, 2)):
            seats.append({"name": name[me], "player_id": me, "points": pts[me], "table": p.table,
                          "seat": seat, "opponent": opp, "opponent_name": name[opp], "dropped": me in s.dropped})
    bye = None
    if rnd.bye is not None:
        bye = {"player_id": rnd.bye, "name": name[rnd.bye], "points": pts[rnd.bye], "dropped": rnd.bye in s.dropped}
        seats.append({"name": name[rnd.bye], "player_id": rnd.bye, "points": pts[rnd.bye], "table": None,
                      "seat": None, "opponent": None, "opponent_name": None, "dropped": rnd.bye in s.dropped})
    seats.sort(key=lambda x: (collation_key(x["name"]), x["player_id"]))
    return {
        "event": s.config.name,
        "round": rnd.number,
        "stage": rnd.stage,
        "title": round_title(s, rnd),
        "complete": s.complete(rnd.number),
        "reported": s.reported(rnd.number),
        "tables": tables,
        "bye": bye,
        "by_name": seats,
    }


def slips(s: T.EventState, rnd: T.Round) -> list[dict[str, Any]]:
    """One result slip per table."""
    name = {pid: p.name for pid, p in s.players.items()}
    return [
        {"event": s.config.name, "round": rnd.number, "stage": rnd.stage, "title": round_title(s, rnd),
         "table": p.table, "best_of": s.config.best_of, "draws_allowed": rnd.stage == "swiss",
         "p1": p.p1, "p1_name": name[p.p1], "p2": p.p2, "p2_name": name[p.p2]}
        for p in rnd.pairings
    ]


def percent(value: Any) -> str:
    return f"{float(value) * 100:.2f}"


def standings(s: T.EventState) -> dict[str, Any]:
    """Swiss standings (tie-breakers as percentages) and, after a cut, the places. The table is the
    one after the last complete Swiss round, which its heading names: a round being reported counts
    once all its results are in (a table printed mid-round mixed that round's results, and late
    entries' missed rounds, under the heading of the round before)."""
    after_round = max((r.number for r in s.rounds if r.stage == "swiss" and s.complete(r.number)), default=0)
    table = T.standings(s, before_round=after_round + 1)
    rows = []
    for x in table:
        rows.append({
            "rank": x.rank, "player_id": x.player_id, "name": x.name, "points": x.points,
            "wins": x.wins, "losses": x.losses, "draws": x.draws, "byes": x.byes, "dropped": x.dropped,
            "tiebreaks": {k: percent(v) for k, v in x.tiebreaks},
        })
    names = [k for k, _ in table[0].tiebreaks] if table else []
    places = [
        {"place": p.place, "player_id": p.player_id, "name": p.name, "reached": p.reached,
         "swiss_rank": p.swiss_rank}
        for p in T.placings(s)
    ]
    cur = s.current()
    return {
        "event": s.config.name,
        "after_round": after_round,
        "current_round": cur.number if cur else None,
        "tiebreaks": [{"key": k, "label": TIEBREAK_NAMES.get(k, k)} for k in names],
        "standings": rows,
        "placings": places,
        "champion": s.champion(),
        "final": s.stage() == "finished",
    }


# ---------------------------------------------------------------- CSV


def to_csv(header: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\r\n")
    w.writerow(header)
    for row in rows:
        w.writerow(["" if v is None else str(v).lower() if isinstance(v, bool) else v for v in row])
    return out.getvalue()


def pairings_csv(view: dict[str, Any], order: str) -> str:
    if order == "name":
        return to_csv(
            ["round", "name", "player_id", "points", "table", "seat", "opponent_name", "opponent"],
            ([view["round"], x["name"], x["player_id"], x["points"], x["table"], x["seat"], x["opponent_name"],
              x["opponent"]] for x in view["by_name"]),
        )
    rows = [[view["round"], t["table"], t["p1"], t["p1_name"], t["p1_points"], t["p2"], t["p2_name"],
             t["p2_points"], t["result"]] for t in view["tables"]]
    if view["bye"]:
        b = view["bye"]
        rows.append([view["round"], "", b["player_id"], b["name"], b["points"], "", "BYE", "", ""])
    return to_csv(["round", "table", "p1", "p1_name", "p1_points", "p2", "p2_name", "p2_points", "result"], rows)


def slips_csv(view: list[dict[str, Any]]) -> str:
    return to_csv(["round", "table", "best_of", "p1", "p1_name", "p2", "p2_name"],
                  ([x["round"], x["table"], x["best_of"], x["p1"], x["p1_name"], x["p2"], x["p2_name"]]
                   for x in view))


def standings_csv(view: dict[str, Any]) -> str:
    keys = [t["key"] for t in view["tiebreaks"]]
    place = {p["player_id"]: p for p in view["placings"]}
    cut = bool(place)
    header = ["rank", "player_id", "name", "points", "wins", "losses", "draws", "byes", "dropped", *keys]
    if cut:
        header = ["place", "reached", *header]
    rows = []
    ordered = view["standings"]
    if cut:
        rank_of = {x["player_id"]: x for x in view["standings"]}
        ordered = [rank_of[p["player_id"]] for p in view["placings"]]
    for x in ordered:
        row = [x["rank"], x["player_id"], x["name"], x["points"], x["wins"], x["losses"], x["draws"], x["byes"],
               x["dropped"], *(x["tiebreaks"][k] for k in keys)]
        if cut:
            row = [place[x["player_id"]]["place"], place[x["player_id"]]["reached"], *row]
        rows.append(row)
    return to_csv(header, rows)
