"""Records and standings under a tie-breaker profile.

One comparator per profile (see ``sort_key``); all figures are exact ``Fraction`` values,
so the order never depends on floating point.

Profiles (rule IDs in brackets):

* ``destiny``: match points [tournament.tiebreak.points], strength of schedule = mean of
  opponents' win ratios [tournament.tiebreak.destiny.sos], extended strength of schedule = mean
  of opponents' SoS [tournament.tiebreak.destiny.esos], a seeded random draw
  [tournament.tiebreak.destiny.draw]. A win ratio is (wins + draws/2) / matches.
* ``mtg``: match points, opponents' match-win % with each opponent floored at 1/3
  [tournament.tiebreak.mtg.omw], game-win % [tournament.tiebreak.mtg.gw], opponents'
  game-win % floored at 1/3 [tournament.tiebreak.mtg.ogw], then the seeded draw.

Byes never count in an opponent's figures [tournament.tiebreak.no-bye-figures]: a player's
win ratio / match-win % / game-win % *as seen by their opponents* leaves their byes out. A
player's own points count the bye as a win [tournament.bye.counts-as-win]; their own game-win %
counts it as the game wins a best-of needs (1 of 1, 2 of 2). A missed round of a late entry
counts as a lost match without games (or not at all, as the organizer chose at entry)
[tournament.player.late-entry]; so does a round missed while dropped, once the player re-enters
[tournament.player.undrop]. A missed round is never a bye.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction

from .prng import draw
from .state import EventState

WIN_POINTS, DRAW_POINTS = 3, 1
THIRD = Fraction(1, 3)
ZERO = Fraction(0)


@dataclass(frozen=True)
class Entry:
    """One Swiss round of one player."""

    round: int
    kind: str  # "match" | "bye" | "missed"
    opponent: str | None
    outcome: int  # +1 win, 0 draw, -1 loss
    games_won: int = 0
    games_lost: int = 0
    games_drawn: int = 0

    @property
    def points(self) -> int:
        return WIN_POINTS if self.outcome > 0 else DRAW_POINTS if self.outcome == 0 else 0


@dataclass(frozen=True)
class Record:
    player_id: str
    entries: tuple[Entry, ...]

    @property
    def points(self) -> int:
        return sum(e.points for e in self.entries)

    def count(self, outcome: int) -> int:
        return sum(1 for e in self.entries if e.outcome == outcome)

    @property
    def byes(self) -> int:
        return sum(1 for e in self.entries if e.kind == "bye")

    def opponents(self) -> list[str]:
        return [e.opponent for e in self.entries if e.opponent is not None]

    def _figures(self, include_byes: bool) -> list[Entry]:
        return [e for e in self.entries if include_byes or e.kind != "bye"]

    def win_ratio(self, include_byes: bool = False) -> Fraction:
        es = self._figures(include_byes)
        if not es:
            return ZERO
        return Fraction(
            2 * sum(1 for e in es if e.outcome > 0) + sum(1 for e in es if e.outcome == 0), 2 * len(es)
        )

    def match_win_pct(self, include_byes: bool = False) -> Fraction:
        es = self._figures(include_byes)
        if not es:
            return ZERO
        return Fraction(sum(e.points for e in es), WIN_POINTS * len(es))

    def game_win_pct(self, include_byes: bool, bye_games: int) -> Fraction:
        won = drawn = played = 0
        for e in self._figures(include_byes):
            if e.kind == "bye":
                won += bye_games
                played += bye_games
            else:
                won += e.games_won
                drawn += e.games_drawn
                played += e.games_won + e.games_lost + e.games_drawn
        if played == 0:
            return ZERO
        return Fraction(WIN_POINTS * won + DRAW_POINTS * drawn, WIN_POINTS * played)


@dataclass(frozen=True)
class Standing:
    rank: int
    player_id: str
    name: str
    points: int
    wins: int
    losses: int
    draws: int
    byes: int
    tiebreaks: tuple[tuple[str, Fraction], ...]
    dropped: bool


def records(state: EventState, before_round: int | None = None) -> dict[str, Record]:
    """Swiss records of every registered player, from rounds numbered below ``before_round``
    (all Swiss rounds when None). Unreported matches do not count yet."""
    entries: dict[str, list[Entry]] = {pid: [] for pid in state.players}
    for rnd in state.rounds:
        if rnd.stage != "swiss" or (before_round is not None and rnd.number >= before_round):
            continue
        seen: set[str] = set()
        for p in rnd.pairings:
            seen.update((p.p1, p.p2))
            res = state.results.get((rnd.number, p.table))
            if res is None:
                continue
            o = res.outcome()
            entries[p.p1].append(Entry(rnd.number, "match", p.p2, o, res.p1_wins, res.p2_wins, res.draws))
            entries[p.p2].append(Entry(rnd.number, "match", p.p1, -o, res.p2_wins, res.p1_wins, res.draws))
        if rnd.bye is not None:
            seen.add(rnd.bye)
            entries[rnd.bye].append(Entry(rnd.number, "bye", None, 1))
        for pid, player in state.players.items():
            # tournament.player.late-entry: a round paired before the player entered, which they
            # did not play, is a loss if the organizer chose so.
            if pid in seen:
                continue
            if rnd.number <= player.joined_after:
                if player.missed_as_loss:
                    entries[pid].append(Entry(rnd.number, "missed", None, -1))
            elif pid not in state.dropped or rnd.number <= state.back_after.get(pid, 0):
                # tournament.player.undrop: a round paired while the player was out, which they
                # did not play, is a loss once they are back (a dropped player's record stands),
                # and stays one if they drop again (only the rounds of that drop are not counted)
                entries[pid].append(Entry(rnd.number, "missed", None, -1))
    return {pid: Record(pid, tuple(es)) for pid, es in entries.items()}


def _mean(values: Iterable[Fraction]) -> Fraction:
    vs = list(values)
    return sum(vs, ZERO) / len(vs) if vs else ZERO


def tiebreaks(
    profile: str, recs: Mapping[str, Record], best_of: int
) -> dict[str, tuple[tuple[str, Fraction], ...]]:
    """Named tie-break figures (after match points) for every player, in profile order."""
    out: dict[str, tuple[tuple[str, Fraction], ...]] = {}
    if profile == "destiny":
        wr = {pid: r.win_ratio(include_byes=False) for pid, r in recs.items()}
        sos = {pid: _mean(wr[o] for o in r.opponents()) for pid, r in recs.items()}
        for pid, r in recs.items():
            esos = _mean(sos[o] for o in r.opponents())
            out[pid] = (("sos", sos[pid]), ("esos", esos))
        return out
    if profile == "mtg":
        bye_games = (best_of + 1) // 2
        mw = {pid: max(THIRD, r.match_win_pct(include_byes=False)) for pid, r in recs.items()}
        gw_opp = {pid: max(THIRD, r.game_win_pct(False, bye_games)) for pid, r in recs.items()}
        for pid, r in recs.items():
            opps = r.opponents()
            out[pid] = (
                ("omw", _mean(mw[o] for o in opps)),
                ("gw", r.game_win_pct(True, bye_games)),
                ("ogw", _mean(gw_opp[o] for o in opps)),
            )
        return out
    raise ValueError(f"unknown profile {profile!r}")


def sort_key(points: int, figures: tuple[tuple[str, Fraction], ...], draw_key: int) -> tuple:
    """The one ordering comparator: higher points, then higher figures in profile order, then
    the lower seeded draw [tournament.tiebreak.destiny.draw / tournament.tiebreak.mtg.draw]."""
    return (-points, *(-v for _, v in figures), draw_key)


def standings(
    state: EventState, before_round: int | None = None, only: Iterable[str] | None = None
) -> list[Standing]:
    """Swiss standings of all registered players (or of ``only``), best first."""
    recs = records(state, before_round)
    figs = tiebreaks(state.config.profile, recs, state.config.best_of)
    ids = list(recs) if only is None else list(only)
    seed = state.config.seed
    ids.sort(key=lambda pid: sort_key(recs[pid].points, figs[pid], draw(seed, "standing", pid)))
    out = []
    for i, pid in enumerate(ids):
        r = recs[pid]
        out.append(
            Standing(
                rank=i + 1,
                player_id=pid,
                name=state.players[pid].name,
                points=r.points,
                wins=r.count(1),
                losses=r.count(-1),
                draws=r.count(0),
                byes=r.byes,
                tiebreaks=figs[pid],
                dropped=pid in state.dropped,
            )
        )
    return out
