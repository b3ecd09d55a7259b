"""The engine's state view and hands after every step, read apart from the viewer (what the viewer's
tests compare its drawn and rebuilt tables with)."""

from __future__ import annotations

from typing import Any

from replays.format import parse_log
from replays.replayer import ReplayResult, StepRecord, replay


class Views:
    """A replay visitor keeping the state view and each player's hand after every step."""

    def __init__(self) -> None:
        self.views: list[dict[str, Any]] = []
        self.hands: list[dict[str, list[str]]] = []

    def begin(self, log: Any, setup: StepRecord) -> None:
        self.visit_step(setup)

    def visit_step(self, record: StepRecord) -> None:
        self.views.append(record.state.view())
        self.hands.append({pid: p["hand"] for pid, p in record.state.position()["players"].items()})

    def end(self, result: ReplayResult) -> None:
        pass


def views_of(log: dict[str, Any]) -> Views:
    views = Views()
    replay(parse_log(log), visitors=(views,))
    return views
