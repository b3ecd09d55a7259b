"""Destiny's part of self-play: a new log between two starter decks, and the seeded policy that
answers every decision the rules give a player (replays.selfplay plays the games)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from judge.kernel.core import Decision
from judge.kernel.rng import ALGORITHM, Rng


class RandomPolicy:
    """Answers every decision with a uniformly drawn legal-looking option."""

    def __init__(self, rng: Rng):
        self.rng = rng

    def __call__(self, ctx: Any, d: Decision) -> Any:
        r = self.rng
        opts = list(d.options)
        if d.kind == "order":
            r.shuffle(opts)
            return opts
        if d.kind == "may":
            return r.below(2) == 0
        if d.kind in ("split", "shields"):
            n = d.count or 0
            out: dict[str, int] = {}
            for _ in range(n):
                k = r.choice(opts)
                out[k] = out.get(k, 0) + 1
            return out
        if d.kind == "turn":
            return {}
        return r.choice(opts) if opts else None


def new_log(seed: str, hero: str = "LEG-H", villain: str = "LEG-V", *more: str) -> dict[str, Any]:
    """A log from the beginning between starter decks (p1 the first side, p2 the second, ...)."""
    from judge.games.destiny.starters import STARTERS

    sides: Sequence[str] = (hero, villain, *more)
    names = ("Hero bot", "Villain bot", "Third bot", "Fourth bot")
    return {
        "format": "arbiter.replay/1",
        "game": "destiny",
        "meta": {"format": "starter", "title": f"self-play {' v '.join(sides)}, seed {seed}"},
        "rng": {"algorithm": ALGORITHM, "seed": seed},
        "players": [STARTERS[side].player(f"p{i + 1}", names[i]) for i, side in enumerate(sides)],
        "setup": {},
        "steps": [],
    }
