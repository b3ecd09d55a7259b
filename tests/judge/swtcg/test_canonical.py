"""The state writes its canonical bytes itself (GameState.canonical): they are exactly what
``canon.canonical`` gives for the position with ``rng_drawn``, after every step of self-play games,
and for states with every optional part written (the hash ledger, tests/replays/ledger.py, holds
every hash the suite's SW TCG logs reach)."""

from __future__ import annotations

from typing import Any

import pytest

from judge.games import canon
from judge.games.swtcg.cards import default_pool
from judge.games.swtcg.state import AttackState, Card, Chance, GameState, Player, RollState
from replays.format import parse_log
from replays.replayer import replay
from replays.selfplay import play_game
from tests.helpers import StateCollector

POOL = default_pool()


def reference(st: GameState) -> bytes:
    return canon.canonical({"position": st.position(), "rng_drawn": st.rng_drawn})


@pytest.mark.parametrize("seed", ["canon-1", "canon-2"])
def test_canonical_bytes_are_the_positions_after_every_self_play_step(seed: str) -> None:
    log = play_game(seed, "DARK-60", "LIGHT-60", game="swtcg", max_steps=1500).log
    seen = StateCollector()
    replay(parse_log(log, POOL), POOL, visitors=(seen,))
    assert len(seen.states) > 50
    for st in seen.states:
        assert st.canonical() == reference(st)


def test_canonical_bytes_with_every_optional_part() -> None:
    st = GameState(round=3, phase="battle", step="battle", arena="space", active=None, turn="p1", wait="chance",
                   acting=["p1.A"], may=["use p1.A:evade"], winner="p1", reason="arenas", rng_drawn=7,
                   last_hits={"p2.B": 2, "p1.A": 1}, deploys=4, build_started=["p1"],
                   chance=Chance("prevent", 1, ["x", "q\"\u00e9"]),
                   attack=AttackState("p1.A", "p2.B", "space", ["u#0"], ["p1.A"],
                                      [{"unit": "p2.B", "player": "p2", "dice": 2}], [1], rolled=3),
                   roll=RollState("attack", [1, 6], "p1", "p1.A", None, ["x#0"]),
                   damage=[{"target": "p1.A", "amount": 2}], later=[{"a": None}],
                   held=[{"id": "h"}], frames=[{"f": "chance", "kind": "general"}], mods=[{"t": 1}])
    st.players = {"p2": Player("p2", name="Bee \u00e9", side="light", force=2, build=1, hand=["?", "X"],
                               deck=["Y"], discard=['q"uote'], deployed=3, done=True, bounties=[["p1.A", 2]],
                               once=["p2.B:play"]),
                  "p1": Player("p1")}
    st.cards = {"p2.B": Card("p2.B", "B", "p2", "p1", "space", tapped=True, damage=1, counters=2, built=False,
                             pilot="p1.P", on="p1.X", under=["B2"], moved=True, deployed_at=5, at="ground"),
                "p1.A": Card("p1.A", "A", "p1", "p1", "build", counters=1)}
    assert st.canonical() == reference(st)
    st.rng_drawn = None
    st.last_hits = None
    st.winner = st.reason = None
    assert st.attack is not None
    st.attack.rolled = None
    assert st.canonical() == reference(st)


@pytest.mark.parametrize("make", [
    lambda: Chance("prevent", 1, ["x"]),
    lambda: AttackState("p1.A", "p2.B", "space", ["u#0"], [], [], [], 3),
    lambda: RollState("attack", [1, 6], "p1", "p1.A", None, ["x#0"]),
])
def test_state_pieces_compare_copy_and_show_as_they_write(make: Any) -> None:
    """The chance, attack and roll objects are equal when written alike (their copies too), unequal
    once one changes or to the dict they write, unhashable (they change), and shown as what they write."""
    a, b = make(), make()
    assert a == b and a.copy() == a and a.copy() is not a
    assert a != a.to_json() and a.to_json() == b.to_json()
    b.used.append("changed#1")
    assert a != b
    with pytest.raises(TypeError):
        hash(a)
    assert repr(a) == f"{type(a).__name__}({a.to_json()!r})"
