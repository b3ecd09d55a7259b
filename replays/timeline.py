"""The annotated timeline: per step, what happened, the rules applied, the notes and the state
hash — what a content creator lays over a video of the game."""

from __future__ import annotations

from typing import Any

from judge.games.destiny.model import CardPool
from replays.format import Log
from replays.replayer import ReplayResult, StepRecord, replay


class TimelineBuilder:
    def __init__(self) -> None:
        self.entries: list[dict[str, Any]] = []
        self.header: dict[str, Any] = {}
        self.result: ReplayResult | None = None

    def begin(self, log: Log, setup: StepRecord) -> None:
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
            "summary": summarize(rec),
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


def summarize(rec: StepRecord) -> str:
    """One readable line for a step."""
    s = rec.step
    do = s.get("do")
    by = s.get("by", "")
    if not s:
        return "setup"
    if do == "activate":
        rolled = next((e.get("rolled") for e in rec.events if e.get("event") == "activate"), None)
        faces = " ".join(rolled.values()) if rolled else ""
        return f"{by} activates {s.get('card')}" + (f", rolling {faces}" if faces else "")
    if do == "resolve":
        return f"{by} resolves " + ", ".join(str(d.get("die")) + (f" at {d['target']}" if "target" in d else "")
                                             for d in s.get("dice", []))
    if do == "play":
        return f"{by} plays {s.get('card')}" + (f" on {s['on']}" if s.get("on") else "")
    if do == "reroll":
        return f"{by} discards {s.get('discard')} to reroll {', '.join(s.get('dice', []))}"
    if do == "use":
        return f"{by} uses {s.get('card')}"
    if do == "claim":
        return f"{by} claims the battlefield"
    if do == "pass":
        return f"{by} passes"
    if do == "upkeep":
        return "upkeep"
    return str(do)


def timeline(log: Log, cards: CardPool) -> dict[str, Any]:
    builder = TimelineBuilder()
    result = replay(log, cards, visitors=(builder,))
    return {**builder.header, "valid": result.valid, "outcome": result.outcome(),
            "error": result.error.to_json() if result.error else None, "steps": builder.entries}
