"""SW TCG's fast paths of the procedure agree with the slow ones they stand for in self-play games:
a player ``legal.nothing_in_chance`` passes at once (swtcg.project.forced-pass) is one
``legal._groups`` finds no step for, and the other way round; the cards with something for a
chance, kept while the cards stay where they are (``legal._chance_cards``, ``legal._chance_base``:
GameState.index's facts), are those a state with nothing kept finds (a stale entry would differ).
Asked at every chance the procedure asks about (pure Python: the compiled procedure calls its
own functions, not the module's), and after every step for each player and kind of chance."""

from __future__ import annotations

from typing import Any

import pytest

from judge.games.swtcg import legal
from judge.games.swtcg import procedure as pr
from judge.games.swtcg.cards import default_pool
from judge.games.swtcg.engine import Ctx
from replays.format import parse_log
from replays.replayer import replay
from replays.selfplay import play_game

POOL = default_pool()


KINDS = ("general", "attack", "reroll", "prevent", "disrupt")


@pytest.mark.parametrize("seed", ["fast-1", "fast-2", "fast-3"])
def test_nothing_in_chance_and_the_kept_chance_cards_agree_with_the_slow_paths(
        seed: str, monkeypatch: pytest.MonkeyPatch) -> None:
    if not pr.__file__.endswith(".py"):
        pytest.skip("the compiled procedure calls its own nothing_in_chance")
    log = play_game(seed, "DARK-60", "LIGHT-60", game="swtcg", max_steps=1500).log
    seen: dict[str, int] = {"nothing": 0, "something": 0, "kept": 0}

    def checked(ctx: Ctx, pid: str) -> bool:
        st = ctx.state
        kind = st.chance["kind"] if st.chance else ""
        kept = legal._chance_cards(ctx, pid, kind)
        # a copy has no index and no facts: everything found again
        fresh = Ctx(st.copy(), ctx.cards)
        assert legal._chance_cards(fresh, pid, kind) == kept
        seen["kept"] += bool(kept)
        nothing = legal.nothing_in_chance(ctx, pid)
        groups: list[Any] = list(legal._groups(fresh, pid, ordered=False))
        assert nothing == (not groups), (st.round, pid, kind, [name for name, _ in groups])
        if nothing:
            assert legal.options(fresh, pid) == []
        seen["nothing" if nothing else "something"] += 1
        return nothing

    monkeypatch.setattr(pr, "nothing_in_chance", checked)
    result = replay(parse_log(log, POOL), POOL)
    assert result.valid, result.error
    assert seen["nothing"] and seen["something"] and seen["kept"], seen


class Checked:
    """After each step: the chance cards kept in the state's index agree with those found afresh, and
    ``nothing_in_chance`` with ``_groups``, in a chance of each kind opened for each player there."""

    def __init__(self) -> None:
        self.seen = {"nothing": 0, "something": 0, "kept": 0}

    def begin(self, log: Any, setup: Any) -> None:
        pass

    def end(self, result: Any) -> None:
        pass

    def visit_step(self, record: Any) -> None:
        live = record.state
        if live.phase == "over":
            return
        for pid in live.players:
            for kind in KINDS:
                kept = legal._chance_cards(Ctx(live, POOL), pid, kind)  # (the index the procedure kept)
                assert legal._chance_cards(Ctx(live.copy(), POOL), pid, kind) == kept
                self.seen["kept"] += bool(kept)
                st = live.copy()
                st.turn, st.wait = pid, "chance"
                st.chance = {"kind": kind, "passes": 0, "used": []}
                ctx = Ctx(st, POOL)
                nothing = legal.nothing_in_chance(ctx, pid)
                groups: list[Any] = list(legal._groups(Ctx(st.copy(), POOL), pid, ordered=False))
                assert nothing == (not groups), (st.round, pid, kind, [name for name, _ in groups])
                if nothing:
                    assert legal.options(ctx, pid) == []
                self.seen["nothing" if nothing else "something"] += 1


@pytest.mark.parametrize("seed", ["fast-4", "fast-5"])
def test_after_every_step_nothing_in_chance_and_the_kept_chance_cards_agree_with_the_slow_paths(seed: str) -> None:
    log = play_game(seed, "DARK-60", "LIGHT-60", game="swtcg", max_steps=1500).log
    checked = Checked()
    result = replay(parse_log(log, POOL), POOL, visitors=(checked,))
    assert result.valid, result.error
    assert all(checked.seen.values()), checked.seen
