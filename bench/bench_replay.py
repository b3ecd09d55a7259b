"""Replay benchmarks (issues 2 and 3). Prints figures and ratios measured in the same run.

1. Replay speed over a self-play corpus, steps per second, beside python-chess reading PGN games
   of the same total number of moves and replaying them on a board (moves per second): the pure
   Python engine, and the same source compiled with mypyc (``make compiled``, var/compiled/tree)
   run in a subprocess on the same corpus; the three timed in turn, seven rounds, each side's best
   kept (bench/compiled.py ``rounds``).
2. Cost growth: a log ten times longer should cost at most eleven times more.
3. Peak memory of a worker process replaying the corpus, beside the same process doing nothing.

Run: ``python bench/bench_replay.py [--games N]`` (``make bench`` runs it).
"""

from __future__ import annotations

import argparse
import io
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from judge.games.destiny.cards import default_pool  # noqa: E402
from judge.games.destiny.table import Table  # noqa: E402
from judge.limits import MAX_ZONE_CARDS  # noqa: E402
from replays.format import parse_log  # noqa: E402
from replays.replayer import replay  # noqa: E402
from replays.selfplay import play, play_game  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compiled import rounds, rounds_with_compiled, timed  # noqa: E402


def best_of(fn, repeat: int = 3) -> float:  # noqa: ANN001
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def growth_times(short: Callable[[], object], longer: Callable[[], object], repeat: int = 7) -> tuple[float, float]:
    """The best seconds of the short log's replay and of the longer one's, timed in turn (``rounds``):
    a slow spell of the machine falls on both, not on one. (Timed one after the other, a spell over
    the longer log's runs once made SW TCG's growth 14.6x where two reruns gave 10.5x and 9.6x.)"""
    best = rounds({"short": timed(short), "longer": timed(longer)}, repeat)
    t_short, t_long = best["short"], best["longer"]
    assert t_short is not None and t_long is not None
    return t_short, t_long


def corpus(n: int) -> list[dict]:
    pairs = [("LEG-H", "LEG-V"), ("AW-H", "AW-V"), ("LEG-H", "AW-V"), ("AW-H", "LEG-V")]
    return [play_game(f"bench-{i}", *pairs[i % len(pairs)]).log for i in range(n)]


def replay_all(logs: list[dict]) -> None:
    pool = default_pool()
    for log in logs:
        result = replay(parse_log(log, pool), pool)
        assert result.valid, result.error


def pgn_corpus(total_moves: int, seed: int = 7) -> str:
    import chess
    import chess.pgn

    rnd = random.Random(seed)  # benchmark-only data; never used by the engine
    out = io.StringIO()
    made = 0
    while made < total_moves:
        board = chess.Board()
        game = chess.pgn.Game()
        node = game
        while not board.is_game_over() and board.ply() < 160 and made < total_moves:
            move = rnd.choice(list(board.legal_moves))
            node = node.add_variation(move)
            board.push(move)
            made += 1
        print(game, file=out, end="\n\n")
    return out.getvalue()


def replay_pgn(text: str) -> int:
    import chess.pgn

    moves = 0
    handle = io.StringIO(text)
    while True:
        game = chess.pgn.read_game(handle)
        if game is None:
            return moves
        board = game.board()
        for move in game.mainline_moves():
            board.push(move)
            moves += 1


def long_log(steps: int) -> dict:
    """A game that runs for ``steps`` steps: big decks of unknown cards, no damage dealt."""
    t = Table().with_rng(f"long-{steps}")
    t.character("p1", "05031", dice=2)
    t.character("p1", "05046", dice=1)
    t.character("p2", "05019", dice=2)
    t.character("p2", "05013", dice=1)
    deck = {"unknown": min(5 * steps, MAX_ZONE_CARDS)}  # hands stay full: the decks never run out
    t.set("p1", deck=deck, hand=["?"] * 5)
    t.set("p2", deck=deck, hand=["?"] * 5)
    calm = {"RD", "MD", "ID", "Sp", "Dc"}

    def allow(step: dict, state) -> bool:  # noqa: ANN001
        if step["do"] in ("play", "use", "reroll"):
            return False
        if step["do"] == "resolve":
            p = state.players[step["by"]]
            return p.pool[step["dice"][0]["die"]].symbol not in calm
        return True

    return play(t.log(), max_steps=steps, allow=allow, checkpoint_every=0).log


PEAK_RSS = """
import json, resource, sys
sys.path.insert(0, {root!r})
from replays.service import replay_json
logs = json.load(open({path!r})) if {run} else []
for log in logs:
    assert replay_json(log)["valid"]
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def peak_rss_kib(path: str, run: bool) -> int:
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    code = PEAK_RSS.format(root=root, path=path, run=run)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return int(out.stdout.strip())


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=60)
    ap.add_argument("--long", type=int, default=1000, help="steps of the shorter long log")
    args = ap.parse_args()

    logs = corpus(args.games)
    steps = sum(len(log["steps"]) for log in logs)
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as fh:
        json.dump(logs, fh)
        path = fh.name
    try:
        pgn = pgn_corpus(steps)
        moves = replay_pgn(pgn)
        best = rounds_with_compiled({"pure": timed(lambda: replay_all(logs)), "chess": timed(lambda: replay_pgn(pgn))},
                                    logs, "judge.games.destiny.engine", "bench_replay", "replay_all")
        t_arbiter, t_compiled, t_chess = best["pure"], best["compiled"], best["chess"]
        assert t_arbiter is not None and t_chess is not None
        a_rate, c_rate = steps / t_arbiter, moves / t_chess
        print(f"replay speed: {args.games} self-play games, {steps} steps")
        print(f"python-chess: {moves} PGN moves read and replayed in {t_chess:.3f} s = {c_rate:,.0f} moves/s")
        print(f"arbiter, pure Python: {t_arbiter:.3f} s = {a_rate:,.0f} steps/s; "
              f"ratio to python-chess {a_rate / c_rate:.2f} (goal >= 1.00)")
        if t_compiled is None:
            print("arbiter, compiled: not built, or built from older sources (make compiled)")
        else:
            m_rate = steps / t_compiled
            print(f"arbiter, compiled (mypyc): {t_compiled:.3f} s = {m_rate:,.0f} steps/s; "
                  f"ratio to python-chess {m_rate / c_rate:.2f} (goal >= 2.00)")

        short = long_log(args.long)
        longer = long_log(10 * args.long)
        t_short, t_long = growth_times(lambda: replay_all([short]), lambda: replay_all([longer]))
        n_short, n_long = len(short["steps"]), len(longer["steps"])
        print(f"cost growth: {n_short} steps {t_short:.3f} s, {n_long} steps {t_long:.3f} s: "
              f"{n_long / n_short:.1f}x the steps cost {t_long / t_short:.2f}x the time (goal <= 11x)")

        base, peak = peak_rss_kib(path, False), peak_rss_kib(path, True)
        print(f"worker peak memory replaying the corpus: {peak / 1024:.1f} MiB (idle process {base / 1024:.1f} MiB, "
              f"+{(peak - base) / 1024:.1f} MiB for {args.games} games)")
    finally:
        os.unlink(path)


if __name__ == "__main__":
    main()
