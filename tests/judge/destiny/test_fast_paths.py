"""The engine's shortcuts must not change a ruling: an event no live ability answers is performed
without the kernel's pipeline, and the live-ability index is kept between steps. Replaying with
both shortcuts switched off must give the very same events, decisions and state hashes."""

from __future__ import annotations

from typing import Any

import pytest

from judge.games.destiny import engine
from judge.games.destiny.cards import default_pool
from replays.format import parse_log
from replays.replayer import StepRecord, Visitor, replay
from replays.selfplay import play_game


class Trace(Visitor):
    def __init__(self) -> None:
        self.steps: list[tuple[Any, ...]] = []

    def visit_step(self, rec: StepRecord) -> None:
        self.steps.append((rec.at, rec.events, rec.decisions, rec.state.state_hash()))


def trace(log: dict[str, Any]) -> list[tuple[Any, ...]]:
    pool = default_pool()
    visitor = Trace()
    result = replay(parse_log(log, pool), pool, visitors=(visitor,))
    assert result.valid, result.error
    return visitor.steps


@pytest.mark.parametrize(("seed", "decks"), [("fast-1", ("LEG-H", "LEG-V")), ("fast-2", ("AW-H", "AW-V")),
                                             ("fast-3", ("LEG-H", "AW-V")), ("fast-4", ("AW-H", "LEG-V"))])
def test_shortcuts_change_nothing(seed: str, decks: tuple[str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    log = play_game(seed, *decks).log
    fast = trace(log)

    class EverNew:
        """A play generation that is new at every look-up: every index is rebuilt when asked."""

        def __init__(self) -> None:
            self.n = 0

        def __getitem__(self, _i: int) -> int:
            self.n += 1
            return -self.n

    monkeypatch.setattr(engine, "_GEN", EverNew())
    monkeypatch.setattr(engine.Ctx, "emit", lambda self, event: self.kernel.emit(event))
    slow = trace(log)
    assert len(fast) == len(slow) > 20
    assert fast == slow
