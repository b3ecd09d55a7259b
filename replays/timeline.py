"""The annotated timeline: per step, what happened, the rules applied, the notes and the state
hash — what a content creator lays over a video of the game."""

from __future__ import annotations

from typing import Any

from replays.format import Log
from replays.replayer import ReplayResult, StepRecord, replay


class TimelineBuilder:
    def __init__(self, cards: Any = None) -> None:
        self.cards = cards
        self.game: Any = None
        self.entries: list[dict[str, Any]] = []
        self.header: dict[str, Any] = {}
        self.result: ReplayResult | None = None

    def begin(self, log: Log, setup: StepRecord) -> None:
        self.game = log.rules
        self.header = {"game": log.game, "meta": log.meta,
                       "players": [{"id": p["id"], "name": p.get("name", "")} for p in log.players]}
        self.entries.append(self._entry(setup, label="setup"))

    def visit_step(self, record: StepRecord) -> None:
        self.entries.append(self._entry(record))

    def end(self, result: ReplayResult) -> None:
        self.result = result

    def _entry(self, rec: StepRecord, label: str | None = None) -> dict[str, Any]:
        rules: list[str] = []
        for e in rec.events + rec.decisions:
            for r in e.get("rules", []):
                if r not in rules:
                    rules.append(r)
        st = rec.state
        entry: dict[str, Any] = {
            "at": rec.at,
            "by": rec.step.get("by"),
            "do": label or rec.step.get("do"),
            "round": st.round,
            "phase": st.phase,
            "summary": self.game.summarize(rec.action, rec.events, self.cards),
            "events": rec.events,
            "decisions": [d for d in rec.decisions if "answer" in d],
            "rules": rules,
            "state_hash": st.state_hash(),
        }
        for key in ("note", "dispute"):
            if key in rec.step:
                entry[key] = rec.step[key]
        if rec.error:
            entry["error"] = rec.error.to_json()
            if rec.rejected_as_expected:
                entry["rejected_as_expected"] = True
        return entry


def timeline(log: Log, cards: Any = None) -> dict[str, Any]:
    builder = TimelineBuilder(cards)
    result = replay(log, cards, visitors=(builder,))
    return {**builder.header, "valid": result.valid, "outcome": result.outcome(),
            "error": result.error.to_json() if result.error else None, "steps": builder.entries}
