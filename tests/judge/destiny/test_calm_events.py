"""An event that only after-abilities may answer (no live ``instead`` or ``before`` ability could:
``LiveIndex.calm``) is performed, and its after-abilities queued, without the kernel's pipeline
(``Ctx.emit``); replaying with the shortcuts switched off gives the same rulings
(test_fast_paths.py). Here: ``calm`` says exactly that, and self-play meets such events."""

from __future__ import annotations

from typing import Any

from judge.games.destiny import events as ev
from judge.games.destiny.cards import default_pool
from judge.kernel.core import Event
from replays.format import parse_log
from replays.replayer import StepRecord, replay
from replays.selfplay import play_game

KINDS = [v for v in vars(ev).values() if isinstance(v, type) and issubclass(v, Event) and v is not Event]


class Indexes:  # a Visitor (structurally: the compiled build cannot subclass the protocol)
    def __init__(self) -> None:
        self.seen: list[Any] = []

    def begin(self, log: Any, setup: StepRecord) -> None:
        pass

    def end(self, result: Any) -> None:
        pass

    def visit_step(self, rec: StepRecord) -> None:
        if rec.state.live_index is not None:
            self.seen.append(rec.state.live_index)


def test_calm_is_no_instead_and_no_before_ability() -> None:
    pool = default_pool()
    calm_not_quiet = 0
    for seed, decks in (("calm-1", ("LEG-H", "LEG-V")), ("calm-2", ("AW-H", "AW-V"))):
        visitor = Indexes()
        result = replay(parse_log(play_game(seed, *decks).log, pool), pool, visitors=(visitor,))
        assert result.valid and visitor.seen
        for index in visitor.seen:
            for kind in KINDS:
                want = not index.candidates("instead", kind) and not index.candidates("before", kind)
                assert index.calm(kind) is want, kind
                assert index.calm(kind) or not index.quiet(kind)  # quiet: calm too
                if want and not index.quiet(kind):
                    calm_not_quiet += 1
    assert calm_not_quiet > 0  # events only after-abilities answer: the shortcut is taken
