"""Helpers to build events in the pure core (no I/O)."""

from __future__ import annotations

from collections.abc import Sequence

import judge.tournament as T
from judge.tournament.pairing import SwissInput, _Frame
from judge.tournament.prng import draw

RESULTS = (T.Result(2, 0), T.Result(0, 2), T.Result(2, 1), T.Result(1, 2), T.Result(1, 1, 1))


def new_event(
    n: int, seed: int = 7, profile: str = "destiny", rounds: int = 0, cut: int = 0, best_of: int = 3
) -> T.EventState:
    s = T.EventState()
    do(s, T.CreateTournament(T.Config("Test", profile, rounds, cut, best_of, seed)))
    for i in range(n):
        do(s, T.AddPlayer(s.next_player_id(), f"Player {i + 1}"))
    return s


def do(s: T.EventState, action: T.Action) -> None:
    bad = T.check(s, action)
    assert not bad, bad
    T.apply(s, action)


def report_all(s: T.EventState, salt: int = 0, draws: bool = True) -> None:
    cur = s.current()
    assert cur is not None
    for p in cur.pairings:
        k = draw(salt, "result", cur.number, p.table) % (
            len(RESULTS) if draws and cur.stage == "swiss" else 4
        )
        do(s, T.ReportResult(cur.number, p.table, RESULTS[k]))


def play_rounds(s: T.EventState, rounds: int, salt: int = 0, draws: bool = True) -> None:
    for _ in range(rounds):
        do(s, T.plan_next_round(s).action)
        report_all(s, salt, draws)


def brute_force_best(inp: SwissInput, bye_to: frozenset[str] | None = None) -> tuple[int, ...] | None:
    """The lexicographically least cost over every perfect pairing (small n only), optionally
    only among pairings that give the bye to one of ``bye_to``."""
    fr = _Frame(inp)
    n = fr.n
    verts = list(range(n)) + ([n] if fr.odd else [])

    def cost(i: int, j: int) -> tuple[int, ...]:
        if j == n:
            if bye_to is not None and fr.order[i] not in bye_to:
                return (10**9, 0, 0, 0, 0)
            return fr.bye_cost(i)
        return fr.pair_cost(i, j)

    best: list[tuple[int, ...] | None] = [None]

    def rec(rest: Sequence[int], acc: tuple[int, ...]) -> None:
        if best[0] is not None and acc[:4] > best[0][:4]:
            return
        if not rest:
            if best[0] is None or acc < best[0]:
                best[0] = acc
            return
        a = rest[0]
        for k in range(1, len(rest)):
            b = rest[k]
            c = cost(a, b)
            rec(rest[1:k] + rest[k + 1 :], tuple(x + y for x, y in zip(acc, c, strict=True)))

    rec(verts, (0, 0, 0, 0, 0))
    assert best[0] is not None
    return None if best[0][0] >= 10**9 else best[0]
