"""``Destiny.apply_unrecorded`` (a replay with no visitor and no policy: replays.replayer.replay) leaves the
commonest records out and does what ``apply`` does: the same state, decisions, written choices and error
after every step of every log, and the records it keeps are ``apply``'s, in order."""

from __future__ import annotations

from typing import Any

from judge.games.destiny.cards import default_pool
from judge.games.destiny.table import Table
from judge.kernel.rng import Rng
from replays.format import parse_log
from replays.replayer import replay, start
from tests.helpers import StateCollector
from tests.judge.destiny.test_canonical import destiny_logs
from tests.replays.ledger import unwrapped_replay


def _kept_in_order(some: list[dict[str, Any]], every: list[dict[str, Any]]) -> bool:
    it = iter(every)
    return all(any(one == other for other in it) for one in some)


def _compare(logs: list[dict[str, Any]]) -> tuple[int, int, int]:
    """Each log's steps applied with ``apply`` and with ``apply_unrecorded`` side by side, compared after
    every step; the steps, and the records each kept."""
    pool = default_pool()
    recorded = unrecorded = steps = 0
    for raw in logs:
        log = parse_log(raw, pool)
        game = log.rules
        rngs = [Rng(log.rng_seed, log.rng_drawn) if log.rng_seed is not None else None for _ in range(2)]
        kept, left = (start(log, pool, rng).state for rng in rngs)
        for i, action in enumerate(log.actions):
            nxt = log.actions[i + 1] if i + 1 < len(log.actions) else None
            full = game.apply(kept, action, log.inputs[i], pool, rngs[0], None, nxt)
            quick = game.apply_unrecorded(left, action, log.inputs[i], pool, rngs[1], None, nxt)
            if rngs[0] is not None and rngs[1] is not None:
                kept.rng_drawn, left.rng_drawn = rngs[0].drawn, rngs[1].drawn
            assert repr(quick.error) == repr(full.error), (raw.get("id"), i)
            assert quick.decisions == full.decisions, (raw.get("id"), i)
            assert quick.written_choices == full.written_choices, (raw.get("id"), i)
            assert left.canonical() == kept.canonical(), (raw.get("id"), i)
            every = [r.to_json() for r in full.records]
            some = [r.to_json() for r in quick.records]
            assert _kept_in_order(some, every), (raw.get("id"), i)
            recorded += len(every)
            unrecorded += len(some)
            steps += 1
            if full.error is not None:  # a rejected step: the replay stops there (or rebuilds the state)
                break
    return steps, unrecorded, recorded


def test_a_step_applied_unrecorded_does_what_apply_does() -> None:
    steps, unrecorded, recorded = _compare(destiny_logs())
    assert steps > 500 and unrecorded < recorded / 4, (steps, unrecorded, recorded)


def test_a_record_a_card_reads_is_made_unrecorded_too() -> None:
    """Hunker Down (01164) reads its host's damage record (did it take the melee damage?): applied
    unrecorded, the upgrade is discarded, or stays, as ``apply`` has it."""
    logs = []
    for shields, face in ((0, "1MD"), (2, "1MD"), (0, "2RD")):
        t = Table(turn="p2")
        t.character("p1", "01046", upgrades=["01164"])
        for code in ("01002", "01021"):
            t.character("p2", code)
        t.pool("p2", {"p2.01021/1": face})
        t.player("p1")["characters"]["p1.01046"]["shields"] = shields
        logs.append(t.log([{"by": "p2", "do": "resolve", "dice": [{"die": "p2.01021/1", "target": "p1.01046"}]},
                           {"by": "p1", "do": "pass"}]))
    pool = default_pool()
    ends = [replay(parse_log(raw, pool), pool).state for raw in logs]
    # taken: discarded; blocked, or ranged: kept
    assert [st.players["p1"].characters["p1.01046"].upgrades for st in ends if st is not None] == \
        [[], ["p1.01164#1"], ["p1.01164#1"]]
    assert _compare(logs)[0] == 6


def test_a_replay_without_visitors_ends_where_one_with_a_visitor_does() -> None:
    pool = default_pool()
    for raw in destiny_logs():
        seen = StateCollector()  # (a visitor: a replay with one keeps every record, apply)
        plain = unwrapped_replay()(parse_log(raw, pool), pool)  # (the suite's replay has the ledger's visitor)
        visited = replay(parse_log(raw, pool), pool, visitors=(seen,))
        assert (plain.valid, plain.steps, plain.passed, plain.failed) == \
               (visited.valid, visited.steps, visited.passed, visited.failed), raw.get("id")
        assert repr(plain.error) == repr(visited.error), raw.get("id")
        assert plain.state is not None and visited.state is not None
        assert plain.state.state_hash() == visited.state.state_hash(), raw.get("id")
