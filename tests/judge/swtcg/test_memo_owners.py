"""SW TCG keeps no memo of its own at module level (the project's brief: no global mutable state in
the core): each memo of the engine belongs to an object it is handed, the card pool's ``interned``
values (emptied when a card is added) or the game state (the quoted strings of ``canonical``). Two pools
share none; adding a card empties a pool's; a replay leaves every module's tables as it found them."""

from __future__ import annotations

from typing import Any

from judge.games.swtcg import actions, legal
from judge.games.swtcg import engine as en
from judge.games.swtcg import steps as st_
from judge.games.swtcg.cards import default_pool
from judge.games.swtcg.engine import Ctx
from judge.games.swtcg.model import CardPool
from judge.games.swtcg.state import Card, Chance, GameState
from replays.format import parse_log
from replays.replayer import replay
from replays.selfplay import play_game
from tests.judge.module_tables import module_tables

ABILITY = "p1.LS-JH:hidden-cost"


def _pool() -> CardPool:
    return CardPool(dict(default_pool().cards))


def _ctx(pool: CardPool) -> Ctx:
    return Ctx(GameState(), pool)


def _a_card() -> Any:
    return next(iter(default_pool()))


def test_parse_ability_answers_are_kept_per_pool_and_go_when_a_card_is_added() -> None:
    a, b = _pool(), _pool()
    parts = actions.parse_ability(_ctx(a), ABILITY)
    assert parts == ("p1.LS-JH", "hidden-cost", 1, None)
    assert a.interned.abilities == {ABILITY: parts}
    assert b.interned.abilities == {}
    assert actions.parse_ability(_ctx(b), ABILITY) == parts  # (another pool: its own memo)
    assert b.interned.abilities == {ABILITY: parts}
    a.add(_a_card())
    assert a.interned.abilities == {}
    assert actions.parse_ability(_ctx(a), "p2.DS-VK:evade") == ("p2.DS-VK", "evade", 1, None)
    assert a.interned.abilities == {"p2.DS-VK:evade": ("p2.DS-VK", "evade", 1, None)}


def test_effects_are_shared_within_a_pool_only() -> None:
    a, b = _pool(), _pool()
    raw: list[list[Any]] = [["damage", 2, "target"], ["draw", 1, "you"]]
    made = en.effects_from(_ctx(a), raw)
    assert en.effects_from(_ctx(a), [list(e) for e in raw]) is made
    theirs = en.effects_from(_ctx(b), raw)
    assert theirs == made and theirs is not made
    a.add(_a_card())
    again = en.effects_from(_ctx(a), raw)
    assert again == made and again is not made


def _end_record(pool: CardPool) -> Any:
    ctx = _ctx(pool)
    ctx.state.chance = Chance("general")
    en.close_chance(ctx)
    (record,) = ctx.records
    return record


def test_chance_records_are_shared_within_a_pool_only() -> None:
    a, b = _pool(), _pool()
    ended = _end_record(a)
    assert _end_record(a) is ended
    theirs = _end_record(b)
    assert theirs.to_json() == ended.to_json() and theirs is not ended
    assert a.interned.ended == {"general": ended} and b.interned.ended == {"general": theirs}
    a.add(_a_card())
    assert _end_record(a) is not ended


def test_simple_steps_and_reference_answers_are_kept_per_pool() -> None:
    a, b = _pool(), _pool()
    steps_a, steps_b = legal._steps_table(_ctx(a)), legal._steps_table(_ctx(b))
    assert steps_a is legal._steps_table(_ctx(a)) and steps_a is not steps_b
    deploy = legal._step(steps_a, "deploy", "p1", "DS-VK")
    assert legal._step(steps_a, "deploy", "p1", "DS-VK") is deploy
    assert legal._step(steps_b, "deploy", "p1", "DS-VK") is not deploy
    refs = a.interned.refs
    assert st_.is_ref("p1.DS-VK", refs) and not st_.is_ref("nope", refs)
    assert refs == {"p1.DS-VK": True, "nope": False}
    assert b.interned.refs == {}
    a.add(_a_card())
    assert legal._steps_table(_ctx(a)) == {} and a.interned.refs == {}


def test_quoted_strings_belong_to_a_state_and_its_copies() -> None:
    st = GameState(round=1, phase="command", step="build")
    st.cards = {"p1.A": Card("p1.A", "A", "p1", "p1", "build", counters=1)}
    before = st.canonical()
    assert set(st._quoted) == {"p1.A", "A"}  # (the reference and the code)
    copy = st.copy()
    assert copy._quoted is st._quoted and copy.canonical() == before
    fresh = GameState(round=1, phase="command", step="build")
    assert fresh._quoted == {} and fresh._quoted is not st._quoted


def test_a_replay_fills_no_module_level_table() -> None:
    pool = default_pool()
    first = play_game("memo-owners-1", "DARK-60", "LIGHT-60", game="swtcg", max_steps=200).log
    replay(parse_log(first, pool), pool)  # (every module imported, every table made at import)
    before = module_tables()
    second = play_game("memo-owners-2", "LIGHT-60", "DARK-60", game="swtcg", max_steps=200).log
    replay(parse_log(second, CardPool(dict(pool.cards))), CardPool(dict(pool.cards)))
    after = module_tables()
    grown = {k: (before.get(k), n) for k, n in after.items() if before.get(k) != n}
    assert grown == {}
