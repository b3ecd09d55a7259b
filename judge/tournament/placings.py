"""Final places after a top cut [tournament.cut.placings].

The players of the cut are placed by the elimination round they reached: the champion 1st, the
finalist 2nd, the semi-finalists 3rd-4th, the quarter-finalists 5th-8th, ...; players who went out
in the same round are ordered by their Swiss rank (the cut's seeds). Players still in a round
that is not finished have no place yet (``place`` None, ``reached`` their round). Everybody else
follows in Swiss order, after the cut's players.
"""

from __future__ import annotations

from dataclasses import dataclass

from .standings import standings
from .state import EventState

STAGE_NAMES = {1: "champion", 2: "final", 4: "semi-final", 8: "quarter-final"}


def stage_name(players: int) -> str:
    """The name of the cut round with ``players`` players (1 = the champion)."""
    return STAGE_NAMES.get(players, f"top {players}")


@dataclass(frozen=True)
class Placing:
    place: int | None  # None: still playing in an unfinished cut round
    player_id: str
    name: str
    reached: str  # "champion", "final", "semi-final", "quarter-final", "top 16", ... or "swiss"
    swiss_rank: int


def placings(state: EventState) -> list[Placing]:
    """Places of every registered player (empty before a cut starts)."""
    if not state.cut_seeds:
        return []
    swiss = standings(state)
    rank = {s.player_id: s.rank for s in swiss}
    name = {pid: p.name for pid, p in state.players.items()}
    cut_rounds = [r for r in state.rounds if r.stage == "cut"]
    placed: list[Placing] = []
    alive: list[str] = []
    for rnd in cut_rounds:
        size = 2 * len(rnd.pairings)
        losers: list[str] = []
        alive = []
        for p in rnd.pairings:
            res = state.results.get((rnd.number, p.table))
            if res is None:
                alive += [p.p1, p.p2]
            else:
                win, lose = (p.p1, p.p2) if res.outcome() > 0 else (p.p2, p.p1)
                alive.append(win)
                losers.append(lose)
        # tournament.cut.placings: the losers of a round of `size` take places size/2+1 .. size
        first = size // 2 + 1
        for i, pid in enumerate(sorted(losers, key=rank.__getitem__)):
            placed.append(Placing(first + i, pid, name[pid], stage_name(size), rank[pid]))
    champion = state.champion()
    pending: list[Placing] = []
    if champion is not None:
        placed.append(Placing(1, champion, name[champion], stage_name(1), rank[champion]))
    else:
        last = cut_rounds[-1]
        size = 2 * len(last.pairings)
        won = {
            (p.p1 if res.outcome() > 0 else p.p2)
            for p in last.pairings
            if (res := state.results.get((last.number, p.table))) is not None
        }
        # a player who won their match of the last round has reached the next one
        pending = [
            Placing(None, pid, name[pid], stage_name(size // 2 if pid in won else size), rank[pid])
            for pid in sorted(alive, key=rank.__getitem__)
        ]
    placed.sort(key=lambda p: (p.place, p.swiss_rank))
    in_cut = {p.player_id for p in placed} | {p.player_id for p in pending}
    rest = [s for s in swiss if s.player_id not in in_cut]
    start = len(state.cut_seeds) + 1
    tail = [Placing(start + i, s.player_id, s.name, "swiss", s.rank) for i, s in enumerate(rest)]
    return pending + placed + tail
