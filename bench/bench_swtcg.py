"""SW TCG replay benchmark (issue 13). Prints figures measured in the same run:

1. Replay speed over a self-play corpus of SW TCG games (steps per second), beside the Destiny
   engine replaying a Destiny self-play corpus and python-chess reading PGN games and replaying
   them on a board, both of about the same number of steps (moves): the pure Python engine, and
   the same source compiled with mypyc (``make compiled``, var/compiled/tree) run in a subprocess
   on the same corpus (bench/compiled.py). Goals (issue 17): pure Python at least python-chess's
   rate, compiled at least twice it.
2. Cost growth: a SW TCG log ten times longer than another (games where nobody attacks, so they
   run as long as asked) should cost at most eleven times more: the time ratio is printed.

Run: ``python bench/bench_swtcg.py [--games N]`` (``make bench`` runs it with bench/run.py).
"""

from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench_replay import growth_times, pgn_corpus, replay_pgn  # noqa: E402
from compiled import rounds_with_compiled, timed  # noqa: E402

from judge.games.swtcg.cards import default_pool as swtcg_pool  # noqa: E402
from replays.format import parse_log  # noqa: E402
from replays.replayer import replay  # noqa: E402
from replays.selfplay import new_log, play, play_game  # noqa: E402


def swtcg_corpus(n: int) -> list[dict]:
    return [play_game(f"bench-sw-{i}", "DARK-60", "LIGHT-60", game="swtcg", max_steps=2000).log for i in range(n)]


def destiny_corpus(steps: int) -> list[dict]:
    pairs = [("LEG-H", "LEG-V"), ("AW-H", "AW-V"), ("LEG-H", "AW-V"), ("AW-H", "LEG-V")]
    logs: list[dict] = []
    total = 0
    while total < steps:
        log = play_game(f"bench-d-{len(logs)}", *pairs[len(logs) % len(pairs)]).log
        logs.append(log)
        total += len(log["steps"])
    return logs


def replay_all(logs: list[dict], pool: object = None) -> None:
    for log in logs:
        parsed = parse_log(log, pool)
        result = replay(parsed, pool)
        assert result.valid, result.error


def replay_corpus(logs: list[dict]) -> None:
    """``replay_all`` with the default card pool (what the compiled run calls)."""
    replay_all(logs, swtcg_pool())


def calm(step: dict, state: object) -> bool:
    """No attacks and no battle cards: nobody ever controls two arenas, the game runs on."""
    return step["do"] not in ("attack", "play", "use", "prevent", "reroll")


def long_log(steps: int) -> dict:
    return play(new_log(f"long-{steps}", "DARK-60", "LIGHT-60", game="swtcg"), max_steps=steps, allow=calm,
                checkpoint_every=0).log


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    # (60 games, about 5,000 steps, as bench_replay.py's Destiny corpus: with 20 the compiled engine
    # replayed the corpus in 20 ms, and its ratio moved by a third from run to run)
    ap.add_argument("--games", type=int, default=60)
    ap.add_argument("--long", type=int, default=300, help="steps of the shorter log of the cost-growth pair")
    args = ap.parse_args()

    sw = swtcg_corpus(args.games)
    sw_steps = sum(len(log["steps"]) for log in sw)
    pool = swtcg_pool()
    d = destiny_corpus(sw_steps)
    d_steps = sum(len(log["steps"]) for log in d)
    pgn = pgn_corpus(sw_steps)
    best = rounds_with_compiled({"pure": timed(lambda: replay_all(sw, pool)), "destiny": timed(lambda: replay_all(d)),
                                 "chess": timed(lambda: replay_pgn(pgn))},
                                sw, "judge.games.swtcg.engine", "bench_swtcg", "replay_corpus")
    t_sw, t_compiled, t_d, t_chess = best["pure"], best["compiled"], best["destiny"], best["chess"]
    assert t_sw is not None and t_d is not None and t_chess is not None
    sw_rate, chess_rate = sw_steps / t_sw, sw_steps / t_chess
    print(f"SW TCG replay: {sw_steps} steps in {args.games} self-play games")
    print(f"python-chess (same run): {sw_steps} moves read from PGN and pushed, {chess_rate:,.0f} moves/s")
    print(f"SW TCG, pure Python: {t_sw:.3f} s = {sw_rate:,.0f} steps/s; ratio to python-chess "
          f"{sw_rate / chess_rate:.2f} (goal >= 1.00)")
    if t_compiled is None:
        print("SW TCG, compiled: not built, or built from older sources (make compiled)")
    else:
        c_rate = sw_steps / t_compiled
        print(f"SW TCG, compiled (mypyc): {t_compiled:.3f} s = {c_rate:,.0f} steps/s; ratio to python-chess "
              f"{c_rate / chess_rate:.2f} (goal >= 2.00); compiled/pure {c_rate / sw_rate:.2f}")
    print(f"Destiny replay, pure Python (same run): {d_steps} steps, {d_steps / t_d:,.0f} steps/s; "
          f"SW TCG / Destiny: {sw_rate / (d_steps / t_d):.2f}x")

    short, longer = long_log(args.long), long_log(10 * args.long)
    n1, n2 = len(short["steps"]), len(longer["steps"])
    assert n2 >= 9 * n1, "the longer log ran as long as asked"
    t1, t2 = growth_times(lambda: replay_all([short], pool), lambda: replay_all([longer], pool))
    print(f"cost growth: {n1} steps in {t1 * 1000:.1f} ms, {n2} steps in {t2 * 1000:.1f} ms: "
          f"{n2 / n1:.1f}x the steps cost {t2 / t1:.1f}x the time (goal <= 11x)")


if __name__ == "__main__":
    main()
