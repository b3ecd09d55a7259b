"""Destiny keeps no memo of its own at module level (the project's brief: no global mutable state in
the core): what references and codes read as (``refs.parse_ref``, ``refs.is_code``) is kept by the
card pool the steps and the engine are handed (``CardPool.refs``, ``CardPool.codes``), emptied when a
card is added; two pools share none; a replay leaves every module's tables as it found them."""

from __future__ import annotations

from judge.games.destiny import refs as refs_
from judge.games.destiny.cards import default_pool
from judge.games.destiny.model import CardPool
from judge.games.destiny.steps import parse_step, quick_step
from replays.format import parse_log
from replays.replayer import replay
from replays.selfplay import play_game
from tests.judge.module_tables import module_tables


def _pool() -> CardPool:
    return CardPool(dict(default_pool().cards))


def test_parse_ref_keeps_its_answers_in_the_memo_it_is_given_only() -> None:
    memo: dict[str, refs_.Ref | None] = {}
    r = refs_.parse_ref("p1.01002#2/1", memo)
    assert r == refs_.Ref("p1", "01002", 2, 1) and memo == {"p1.01002#2/1": r}
    assert refs_.parse_ref("p1.01002#2/1", memo) is r
    assert refs_.parse_ref("nope", memo) is None and memo["nope"] is None
    fresh = refs_.parse_ref("p1.01002#2/1")
    assert fresh == r and fresh is not r  # (no memo: read afresh, kept nowhere)
    codes: dict[str, bool] = {}
    assert refs_.is_code("01002", codes) and not refs_.is_code("p1.01002", codes)
    assert codes == {"01002": True, "p1.01002": False}
    assert refs_.is_code("05116A") and not refs_.is_code("x")
    assert not hasattr(refs_, "_MEMO") and not hasattr(refs_, "_CODES")


def test_steps_read_with_a_pool_fill_that_pools_memos_only() -> None:
    a, b = _pool(), _pool()
    code = next(iter(a.cards))
    step = {"by": "p1", "do": "play", "card": code}
    assert quick_step(step, ["p1", "p2"], a) is not None
    assert a.codes == {code: True} and b.codes == {}
    die = f"p1.{code}/1"
    action, faults = parse_step({"by": "p1", "do": "resolve", "dice": [{"die": die}], "note": 3}, "/steps/0",
                                ["p1", "p2"], a)
    assert action is None and faults  # (a note must be a string: the full reader read the step)
    assert die in a.refs and b.refs == {}
    a.add(next(iter(default_pool().cards.values())), replace=True)
    assert a.refs == {} and a.codes == {}


def test_a_replay_fills_no_module_level_table() -> None:
    pool = default_pool()
    replay(parse_log(play_game("memo-owners-1", "LEG-H", "LEG-V").log, pool), pool)  # (every table made)
    before = module_tables()
    other = _pool()
    replay(parse_log(play_game("memo-owners-2", "AW-H", "AW-V").log, other), other)
    grown = {k: (before.get(k), n) for k, n in module_tables().items() if before.get(k) != n}
    assert grown == {}
    assert other.refs  # (the replay's references were read with its pool's memo)
