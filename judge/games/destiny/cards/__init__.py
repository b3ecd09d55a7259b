"""The project's own card definitions, one module per set or family.

``default_pool()`` gathers them; an imported card pool (SWDestinyDB data a user imports) may add
cards the project has not written, marked not implemented where they have text.
"""

from __future__ import annotations

from functools import lru_cache

from judge.games.destiny.cards import awakenings, legacies
from judge.games.destiny.model import CardDef, CardPool

MODULES = (legacies, awakenings)


def project_cards() -> list[CardDef]:
    out: list[CardDef] = []
    for mod in MODULES:
        out.extend(mod.CARDS)
    return out


@lru_cache(maxsize=1)
def default_pool() -> CardPool:
    pool = CardPool()
    for card in project_cards():
        pool.add(card)
    return pool
