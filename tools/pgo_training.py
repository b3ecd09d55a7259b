"""The training run of the profile-guided compiled build (``tools/build_compiled.py``): self-play games
of every game the registry carries, each then read and replayed a few times, on the instrumented
build (run with the compiled tree as the working directory and first on ``sys.path``).

Its games are its own: seeds ``pgo-<game>-<n>``, apart from every benchmark's seeds (``bench-*``,
``batch-*``, ``relic-bench-*``), so the build is not trained on the logs it is measured on. Every
pair of each game's self-play sides plays, each under each of the game's policies in turn.

    python /path/to/tools/pgo_training.py [--games N]    (N games a game; default 24)
"""

from __future__ import annotations

import argparse
import itertools
import os
import sys

sys.path.insert(0, os.getcwd())

from judge.games import registry  # noqa: E402
from replays import replayer  # noqa: E402
from replays.format import parse_log  # noqa: E402
from replays.replayer import replay  # noqa: E402
from replays.selfplay import play_game, policies  # noqa: E402

#: times each training game is read and replayed after it is played
REPLAYS = 3


def train(games: int) -> int:
    """Play and replay ``games`` games of each game; returns the steps replayed."""
    steps = 0
    for game in registry.written():
        rules = registry.get(game)
        sides = list(itertools.permutations(rules.selfplay_sides(), 2))
        names: list[str | None] = [None, *policies(game)]
        for n in range(games):
            hero, villain = sides[n % len(sides)]
            log = play_game(f"pgo-{game}-{n}", hero, villain, game=game, policy=names[n % len(names)]).log
            for _ in range(REPLAYS):
                result = replay(parse_log(log))
                if not result.valid:
                    raise SystemExit(f"training game pgo-{game}-{n} did not replay: {result.error}")
                steps += len(log["steps"])
    return steps


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=24, help="games played of each game")
    args = ap.parse_args()
    if not (replayer.__file__ or "").endswith(".so"):  # (the replayer, compiled with every game's engine)
        raise SystemExit(f"not the compiled build: {replayer.__file__}")
    print(f"profile training: {train(args.games):,} steps replayed")


if __name__ == "__main__":
    main()
