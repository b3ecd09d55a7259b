"""SW TCG's cheaper ways to a step agree with the ways they stand for, in self-play games: whether a
player could disrupt (``actions._can_disrupt``: the least cost of the disrupting cards in hand) with
asking each card (``_can_disrupt_each``); the step's kept Dark Side and seats (``Ctx.dark``,
``Ctx.opponent``, ``Ctx.seat``) with the state's; the dice rolled straight from the generator when no
logged die is left with those ``Ctx.die`` gives; and a game begun from a log holds the pool's own code
strings (``CardPool.same_code``), its cards their seat's own player strings, while nothing written
changes."""

from __future__ import annotations

import json
from typing import Any

import pytest

from judge.games.inputs import Inputs
from judge.games.swtcg import actions as ac
from judge.games.swtcg import engine as en
from judge.games.swtcg import records as rc
from judge.games.swtcg.cards import default_pool
from judge.games.swtcg.engine import Ctx
from judge.games.swtcg.state import UNKNOWN, GameState, Player
from judge.kernel.core import IllegalAction
from judge.kernel.rng import Rng
from replays.format import parse_log
from replays.replayer import replay
from replays.selfplay import play_game
from tests.helpers import StateCollector

POOL = default_pool()


def check_state(live: Any) -> int:
    """The fast answers of this module's helpers are the slow ones in state ``live``; the number of
    players who could disrupt there."""
    disrupting = 0
    ctx = Ctx(live, POOL)
    assert ctx.dark() == live.dark()
    for pid in live.players:
        assert ctx.opponent(pid) == live.opponent(pid)
        assert ctx.seat(pid) is next(k for k in live.players if k == pid)
        fast = ac._can_disrupt(Ctx(live, POOL), pid)
        assert fast == ac._can_disrupt_each(Ctx(live.copy(), POOL), pid), (live.round, pid)
        disrupting += fast
        for code in live.players[pid].hand:
            if code in POOL.cards:
                assert code is POOL.same_code(code)  # (dealt from a deck of the pool's strings)
    for c in live.cards.values():
        assert c.code is POOL.same_code(c.code)
        assert c.controller in live.players and c.owner in live.players
    return disrupting


@pytest.mark.parametrize("seed", ["cost-1", "cost-2", "cost-3"])
def test_the_cheaper_helpers_agree_with_the_slow_ones_at_every_step(seed: str) -> None:
    log = play_game(seed, "DARK-60", "LIGHT-60", game="swtcg", max_steps=1500).log
    # the log read back from JSON: its strings are not the pool's
    parsed = parse_log(json.loads(json.dumps(log)), POOL)
    states = StateCollector()
    result = replay(parsed, POOL, visitors=(states,))
    assert result.valid, result.error
    assert len(states.states) > 10
    for live in states.states:
        check_state(live)


def test_can_disrupt_reads_the_least_cost_of_the_disrupting_cards() -> None:
    costs = ac._disrupt_costs(POOL)
    assert costs, "the default pool has cards to disrupt with"
    code, cost = min(costs.items(), key=lambda kv: kv[1])
    other = next(c for c, d in POOL.cards.items() if c not in costs)
    st = GameState(phase="battle")
    st.players["p1"] = Player(id="p1", side="dark", hand=[other, UNKNOWN, code])
    st.players["p2"] = Player(id="p2", side="light", hand=[other])
    for force in range(0, cost + 2):
        st.players["p1"].force = force
        assert ac._can_disrupt(Ctx(st, POOL), "p1") == ac._can_disrupt_each(Ctx(st, POOL), "p1") == (force >= cost)
    assert not ac._can_disrupt(Ctx(st, POOL), "p2")
    # a code the pool does not know: as asking each card says (ctx.card refuses it)
    st.players["p2"].hand = ["NOT-A-CARD"]
    with pytest.raises(IllegalAction):
        ac._can_disrupt(Ctx(st, POOL), "p2")


@pytest.mark.parametrize("logged", [0, 2, 5])
def test_roll_dice_gives_what_ctx_die_gives(logged: int) -> None:
    faces = ["3", "6", "1", "5", "2"][:logged]
    st = GameState(phase="battle")
    st.players["p1"] = Player(id="p1", side="dark")

    def rolled(fast: bool) -> tuple[list[int], list[Any]]:
        ctx = Ctx(st, POOL, Inputs(roll=tuple(faces)), Rng("dice-seed"))
        if fast:
            return en.roll_dice(ctx, "p1", 4, "attack", None, None, "swtcg.base.attack"), \
                [r.to_json() for r in ctx.records]
        dice = [ctx.die("swtcg.base.attack") for _ in range(4)]
        return dice, [rc.RollRecord(("swtcg.base.attack",), player="p1", purpose="attack", dice=list(dice),
                                    source=None).to_json()]

    assert rolled(True) == rolled(False)


def test_same_code_is_the_pools_own_string() -> None:
    code = next(iter(POOL.cards))
    copied = "".join(list(code))
    assert copied == code and copied is not code
    assert POOL.same_code(copied) is code
    assert POOL.same_code("NOT-A-CARD") == "NOT-A-CARD"
    same = POOL.same_codes([copied, "NOT-A-CARD", 7])
    assert same == [code, "NOT-A-CARD", 7] and same[0] is code


def test_a_records_lists_are_its_json_own() -> None:
    """A chance's or a wait's record shares ``may`` and ``acting`` with the state (procedure.advance
    does not copy them): its JSON holds copies, so whoever edits what a record wrote changes no state."""
    may, acting = ["attack p1.u1"], ["p1.u1"]
    for record in (rc.ChanceRecord(("swtcg.pop.dark-side-first",), kind="general", player="p1", passes=0, may=may),
                   rc.AwaitRecord(("swtcg.base.battle.order",), player="p1", wait="act", acting=acting, may=may)):
        out = record.to_json()
        assert out["may"] == may and out["may"] is not may
        out["may"].append("retreat p1.u1")
        if "acting" in out:
            assert out["acting"] == acting and out["acting"] is not acting
            out["acting"].clear()
    assert may == ["attack p1.u1"] and acting == ["p1.u1"]
