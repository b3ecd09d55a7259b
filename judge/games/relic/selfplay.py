"""Relic self-play: seeded encounters between two characters of the project's pool, played by a
random-but-legal policy (replays.selfplay drives it; dice come from the log's rng)."""

from __future__ import annotations

from typing import Any

from judge.games.relic.cards import default_pool
from judge.kernel.core import Decision
from judge.kernel.rng import Rng

STARTING = (["needle-rifle", "auspex"], ["bolt-pistol", "servo-skull", "targeting-cogitator"],
            ["force-staff", "data-slate", "las-cell"], ["carapace-armour", "purity-seal", "blessed-ammunition"])


def new_log(seed: str, *sides: str) -> dict[str, Any]:
    pool = default_pool()
    sides = sides or tuple(pool.characters)[:2]
    players = []
    for i, side in enumerate(sides):
        if side not in pool.characters:
            raise ValueError(f"{side!r} is not a character of the project's pool ({', '.join(pool.characters)})")
        players.append({"id": f"p{i + 1}", "name": pool.characters[side].name, "character": side,
                        "assets": STARTING[i % len(STARTING)], "power": ["emperors-grace", "divination"]})
    return {"format": "arbiter.replay/1", "game": "relic", "rng": {"algorithm": "sha256-ctr", "seed": seed},
            "players": players, "setup": {"scenario": "the-mystery-beyond"}, "steps": []}


class RandomPolicy:
    """Answers every decision at random from its own stream."""

    def __init__(self, rng: Rng) -> None:
        self.rng = rng

    def __call__(self, ctx: Any, decision: Decision) -> Any:
        options = list(decision.options)
        if decision.kind == "order":
            self.rng.shuffle(options)
            return options
        if decision.multiple:
            self.rng.shuffle(options)
            return options[:decision.count or 0]
        return self.rng.choice(options)
