"""Relic replay benchmark (issue 14). Prints figures measured in the same run:

1. Replay speed over a Relic self-play corpus, steps per second, beside python-chess reading PGN
   games of the same total number of moves and replaying them on a board (moves per second), and
   beside the Destiny engine's self-play corpus: the pure Python engine, and the same source
   compiled with mypyc (``make compiled``, var/compiled/tree) run in a subprocess on the same
   corpus (bench/compiled.py). Goals (issue 17): pure Python at least python-chess's rate,
   compiled at least twice it.
2. Cost growth: a Relic log ten times longer should cost at most eleven times more.

Run: ``python bench/bench_relic.py [--games N] [--long STEPS]`` (``make bench`` runs it).
"""

from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench.bench_replay import best_of, growth_times, pgn_corpus, replay_pgn  # noqa: E402
from bench.bench_replay import corpus as destiny_corpus  # noqa: E402
from bench.bench_replay import replay_all as destiny_replay_all  # noqa: E402
from bench.compiled import rounds_with_compiled, timed  # noqa: E402
from judge.games.relic.cards import default_pool  # noqa: E402
from judge.games.relic.selfplay import new_log  # noqa: E402
from replays.format import parse_log  # noqa: E402
from replays.replayer import replay  # noqa: E402
from replays.selfplay import play, play_game  # noqa: E402

SIDES = (("battle-sister", "tech-priest"), ("sanctioned-psyker", "imperial-guardsman"),
         ("tech-priest", "sanctioned-psyker"), ("imperial-guardsman", "battle-sister"))


def corpus(n: int) -> list[dict]:
    return [play_game(f"relic-bench-{i}", *SIDES[i % len(SIDES)], game="relic").log for i in range(n)]


def replay_all(logs: list[dict]) -> None:
    pool = default_pool()
    for log in logs:
        result = replay(parse_log(log, pool), pool)
        assert result.valid, result.error


def long_log(steps: int) -> dict:
    """An encounter-after-encounter game that runs for ``steps`` steps: nobody reaches the scenario."""

    def allow(step: dict, state) -> bool:  # noqa: ANN001
        return step["do"] not in ("reach", "confront")

    return play(new_log(f"relic-long-{steps}", "battle-sister", "tech-priest"), max_steps=steps, allow=allow,
                checkpoint_every=0).log


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--long", type=int, default=500, help="steps of the shorter long log")
    args = ap.parse_args()

    logs = corpus(args.games)
    steps = sum(len(log["steps"]) for log in logs)
    pgn = pgn_corpus(steps)
    moves = replay_pgn(pgn)
    best = rounds_with_compiled({"pure": timed(lambda: replay_all(logs)), "chess": timed(lambda: replay_pgn(pgn))},
                                logs, "judge.games.relic.engine", "bench_relic", "replay_all")
    t_relic, t_compiled, t_chess = best["pure"], best["compiled"], best["chess"]
    assert t_relic is not None and t_chess is not None
    r_rate, c_rate = steps / t_relic, moves / t_chess
    print(f"relic replay speed: {args.games} self-play games, {steps} steps")
    print(f"python-chess: {moves} PGN moves read and replayed in {t_chess:.3f} s = {c_rate:,.0f} moves/s")
    print(f"arbiter relic, pure Python: {t_relic:.3f} s = {r_rate:,.0f} steps/s; ratio to python-chess "
          f"{r_rate / c_rate:.2f} (goal >= 1.00)")
    if t_compiled is None:
        print("arbiter relic, compiled: not built, or built from older sources (make compiled)")
    else:
        m_rate = steps / t_compiled
        print(f"arbiter relic, compiled (mypyc): {t_compiled:.3f} s = {m_rate:,.0f} steps/s; ratio to python-chess "
              f"{m_rate / c_rate:.2f} (goal >= 2.00); compiled/pure {m_rate / r_rate:.2f}")
    destiny = destiny_corpus(40)
    d_steps = sum(len(log["steps"]) for log in destiny)
    d_rate = d_steps / best_of(lambda: destiny_replay_all(destiny), repeat=5)
    print(f"arbiter destiny, pure Python, same run: {d_rate:,.0f} steps/s ({d_steps} steps); ratio to python-chess "
          f"{d_rate / c_rate:.2f}; relic/destiny {r_rate / d_rate:.2f}")

    short = long_log(args.long)
    longer = long_log(10 * args.long)
    t_short, t_long = growth_times(lambda: replay_all([short]), lambda: replay_all([longer]))
    n_short, n_long = len(short["steps"]), len(longer["steps"])
    print(f"relic cost growth: {n_short} steps {t_short:.3f} s, {n_long} steps {t_long:.3f} s: "
          f"{n_long / n_short:.1f}x the steps cost {t_long / t_short:.2f}x the time (goal <= 11x)")


if __name__ == "__main__":
    main()
