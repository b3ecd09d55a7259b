"""The index of a pool's card names (judge.games.cardnames.names_of) is kept by the pool it indexes,
for every game: reading a log written with names fills that pool's ``names`` and no module-level
table, another pool gets an index of its own, and a pool that grows is indexed again."""

from __future__ import annotations

from typing import Any

import pytest

from judge.games.destiny.model import CardPool as DestinyPool
from judge.games.destiny.names import card_names as destiny_names
from judge.games.relic.cards import Pool as RelicPool
from judge.games.relic.names import card_names as relic_names
from judge.games.relic.names import warm_names as relic_warm
from judge.games.swtcg.model import CardPool as SwtcgPool
from judge.games.swtcg.names import card_names as swtcg_names
from tests.judge.module_tables import module_tables


def _destiny() -> tuple[Any, Any]:
    from judge.games.destiny.cards import default_pool

    return DestinyPool(dict(default_pool().cards)), destiny_names


def _swtcg() -> tuple[Any, Any]:
    from judge.games.swtcg.cards import default_pool

    return SwtcgPool(dict(default_pool().cards)), swtcg_names


def _relic() -> tuple[Any, Any]:
    from judge.games.relic.cards import default_pool

    base = default_pool()
    pool = RelicPool(dict(base.cards), base.characters, base.scenarios)
    return pool, lambda p: relic_names(p.cards, p.names)


@pytest.mark.parametrize("make", [_destiny, _swtcg, _relic], ids=["destiny", "swtcg", "relic"])
def test_a_pools_name_index_is_kept_by_that_pool(make: Any) -> None:
    make()[1](make()[0])  # (every module imported, every table made at import)
    before = module_tables()
    pool, names = make()
    assert pool.names == {}
    first = names(pool)
    assert set(pool.names) == {"cards"} and names(pool) is first  # built once, kept by the pool
    other, _ = make()
    assert names(other) is not first and other.names["cards"][1] is not first  # each pool its own
    card = next(iter(pool.cards.values()))
    title = first.title(card.code)
    assert first.code(title)[0] == card.code
    assert module_tables() == before  # no module-level memo grew


def test_a_grown_pool_is_indexed_again() -> None:
    pool, names = _swtcg()
    first = names(pool)
    card = next(iter(pool.cards.values()))
    pool.cards = {k: v for k, v in pool.cards.items() if k != card.code}  # (a smaller table: same memo)
    pool.add(card)
    assert names(pool) is not first


def test_relic_warms_each_table_of_its_pool() -> None:
    pool, _ = _relic()
    relic_warm(pool)
    assert set(pool.names) == {"cards", "characters", "scenarios"}
    assert relic_names(pool.characters, pool.names, "characters") is pool.names["characters"][1]
