"""Swiss pairing bench: time to pair round 5 of events of 64, 1,000 and 10,000 players (one
core), and the pairing objective beside an exact maximum-weight matching by networkx on the
complete graph for events up to 200 players. Exits 1 if an objective differs or a goal is missed."""

from __future__ import annotations

import os

os.environ.setdefault("RAYON_NUM_THREADS", "1")  # one core for rustworkx

import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import networkx as nx  # noqa: E402

import judge.tournament as T  # noqa: E402
from judge.tournament import pairing as P  # noqa: E402
from judge.tournament.prng import draw  # noqa: E402

GOALS = {1000: 1.0, 10000: 30.0}
RESULTS = (T.Result(2, 0), T.Result(0, 2), T.Result(2, 1), T.Result(1, 2))


def event_before_round_5(n: int, seed: int = 2024) -> T.EventState:
    s = T.EventState()
    T.apply(s, T.CreateTournament(T.Config("bench", "destiny", 0, 0, 3, seed)))
    for i in range(n):
        T.apply(s, T.AddPlayer(s.next_player_id(), f"P{i}"))
    for _ in range(4):
        T.apply(s, T.plan_next_round(s).action)
        cur = s.current()
        assert cur is not None
        for p in cur.pairings:
            res = RESULTS[draw(seed, "bench-result", cur.number, p.table) % 4]
            T.apply(s, T.ReportResult(cur.number, p.table, res))
    return s


def main() -> int:
    ok = True
    print("Time to pair round 5 (standings + graph + rustworkx blossom), one core")
    print(f"{'players':>8} {'edges':>9} {'complete would be':>18} {'seconds':>9} {'goal':>7}  objective")
    for n in (64, 1000, 10000):
        s = event_before_round_5(n)
        t0 = time.perf_counter()
        plan = T.plan_next_round(s)
        dt = time.perf_counter() - t0
        sw = plan.swiss
        assert sw is not None
        goal = GOALS.get(n)
        met = goal is None or dt < goal
        ok &= met
        full = (n + n % 2) * (n + n % 2 - 1) // 2
        print(
            f"{n:>8} {sw.edges:>9} {full:>18} {dt:>9.3f} {('<' + str(goal)) if goal else '-':>7}  "
            f"{sw.objective.key()} pair-downs={sw.objective.pair_downs}{'' if met else '  GOAL MISSED'}"
        )

    print("\nObjective vs exact networkx max_weight_matching on the complete graph (round 5)")
    print(
        f"{'players':>8} {'ours (window graph, rustworkx)':>42} {'networkx (complete)':>42} {'equal':>6} "
        f"{'ours s':>8} {'nx s':>8} {'nx/ours':>8}"
    )
    for n in (16, 51, 100, 151, 200):
        s = event_before_round_5(n, seed=n)
        inp = P.swiss_input(s, 5)
        t0 = time.perf_counter()
        plan = P.pair_swiss(inp)
        ours_s = time.perf_counter() - t0
        t0 = time.perf_counter()
        verts, edges = P.graph(inp, complete=True)
        g = nx.Graph()
        g.add_nodes_from(range(len(verts)))
        g.add_weighted_edges_from(edges)
        pairs, bye = P.pairs_from_matching(verts, nx.max_weight_matching(g, maxcardinality=True))
        nx_s = time.perf_counter() - t0
        exact = P.objective(inp, pairs, bye)
        equal = exact.key() == plan.objective.key()
        ok &= equal
        print(
            f"{n:>8} {str(plan.objective.key()):>42} {str(exact.key()):>42} {str(equal):>6} "
            f"{ours_s:>8.3f} {nx_s:>8.2f} {nx_s / ours_s:>7.0f}x"
        )
    print("\nall objectives equal and goals met" if ok else "\nFAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
