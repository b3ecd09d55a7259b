"""Small helpers for the Destiny rules tests: replay a Table's log and read the result."""

from __future__ import annotations

from typing import Any

from judge.games.destiny.cards import default_pool
from judge.games.destiny.model import CardDef, CardPool
from judge.games.destiny.table import Table
from replays import format as fmt
from replays.replayer import replay
from replays.service import replay_json, ruling_json

__all__ = ["Table", "duel", "error", "final", "player", "pool_with", "position_of", "replay_json",
           "ruling_json", "run"]


def duel(p1: str = "05031", p2: str = "05013", p1_dice: int = 2, p2_dice: int = 1, **kw: Any) -> Table:
    """Two players with one character each (defaults: Luke Skywalker elite vs Veteran Stormtrooper)."""
    t = Table(**kw)
    t.character("p1", p1, dice=p1_dice)
    t.character("p2", p2, dice=p2_dice)
    return t


def run(log: dict[str, Any], cards: CardPool | None = None) -> dict[str, Any]:
    return replay_json(log, cards)


def error(log: dict[str, Any], cards: CardPool | None = None) -> dict[str, Any] | None:
    err: dict[str, Any] | None = replay_json(log, cards)["error"]
    return err


def final(log: dict[str, Any], cards: CardPool | None = None) -> dict[str, Any]:
    """The final state view of a log that must replay without error."""
    r = replay_json(log, cards)
    assert r["error"] is None, r["error"]
    state: dict[str, Any] = r["final_state"]
    return state


def player(state: dict[str, Any], pid: str) -> dict[str, Any]:
    out: dict[str, Any] = state["players"][pid]
    return out


def position_of(log: dict[str, Any], cards: CardPool | None = None) -> tuple[dict[str, Any], str]:
    """The final position (hidden information included) and state hash of a log."""
    pool = cards or default_pool()
    result = replay(fmt.parse_log(log, pool), pool)
    assert result.error is None, result.error
    assert result.state is not None
    return result.state.position(), result.state.state_hash()


def pool_with(*extra: CardDef) -> CardPool:
    """The project's cards plus test-only cards (codes 99xxx)."""
    pool = CardPool()
    for card in default_pool().cards.values():
        pool.add(card)
    for card in extra:
        pool.add(card, replace=True)
    return pool
