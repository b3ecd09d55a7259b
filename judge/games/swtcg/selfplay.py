"""SW TCG self-play: a new log seating the two project decks, and a seeded policy.

The policy ranks the legal steps (``order``): in setup and the build step it deploys before it
builds and builds before it passes; it never retreats; a unit whose turn it is attacks (a target
at random); in a chance to play it prevents damage to its own units when it can, plays something
else about half the time, and otherwise passes. Its answers to decisions: abilities in the order
offered, "may" yes, the first Upkeep option, Overkill's first unit.
"""

from __future__ import annotations

from typing import Any

from judge.kernel.core import Decision
from judge.kernel.rng import Rng

SIDES = ("DARK-60", "LIGHT-60")


def new_log(seed: str, dark: str = "DARK-60", light: str = "LIGHT-60") -> dict[str, Any]:
    from judge.games.swtcg.cards import default_pool

    pool = default_pool()
    for side in (dark, light):
        if side not in pool.decks:
            raise ValueError(f"unknown SW TCG deck {side!r}: the decks are {', '.join(pool.decks)}")
    return {"format": "arbiter.replay/1", "game": "swtcg", "meta": {"title": f"self-play {dark} v {light}"},
            "rng": {"algorithm": "sha256-ctr", "seed": seed},
            "players": [{"id": "p1", "name": dark, "deck": list(pool.decks[dark])},
                        {"id": "p2", "name": light, "deck": list(pool.decks[light])}],
            "setup": {}, "steps": []}


VERB_RANK = {"deploy": 0, "attack": 0, "pilot": 1, "build": 2, "prevent": 0, "reroll": 1, "play": 3, "use": 3,
             "skip": 5, "retreat": 9, "pass": 6}


class Policy:
    """Self-play's seeded answers and ranking of steps."""

    policies = ("ranked",)

    def __init__(self, rng: Rng):
        self.rng = rng

    def named(self, name: str) -> Policy:
        return self

    def __call__(self, ctx: Any, decision: Decision) -> Any:
        if decision.kind == "order":
            return list(decision.options)
        if decision.kind == "may":
            return True
        return decision.options[0]

    def order(self, rules: Any, state: Any, legal: list[Any], cards: Any, lookahead: Any) -> list[Any]:
        keyed = []
        own_damage = any(d["target"] in state.cards and state.cards[d["target"]].controller == state.turn
                         for d in state.damage)
        for a in legal:
            rank = VERB_RANK.get(a.verb, 5)
            if a.verb in ("use", "play"):
                ability = getattr(a, "ability", "") or ""
                if state.chance is not None and state.chance.kind == "prevent":
                    rank = 0 if own_damage else 8
                elif ":intercept" in ability or ":retaliate" in ability:
                    rank = 4
                else:
                    rank = 1 + 6 * self.rng.below(2)  # about half the time before passing
            keyed.append((rank, self.rng.below(1 << 30), a))
        keyed.sort(key=lambda t: (t[0], t[1]))
        return [a for _, _, a in keyed]
