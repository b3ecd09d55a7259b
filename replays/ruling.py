"""Rulings (docs/replay-format.md section 6): what the rules say about one step of a log."""

from __future__ import annotations

from typing import Any

from replays.errors import StepOutOfRange
from replays.format import Log
from replays.replayer import ReplayResult, StepRecord, replay


class _Collector:
    def __init__(self, at: int):
        self.at = at
        self.record: StepRecord | None = None
        self.setup: StepRecord | None = None

    def begin(self, log: Log, setup: StepRecord) -> None:
        self.setup = setup

    def visit_step(self, record: StepRecord) -> None:
        if record.at == self.at:
            self.record = record

    def end(self, result: ReplayResult) -> None:
        pass


def rule(log: Log, cards: Any, at: int | None = None) -> dict[str, Any]:
    """The ruling on step ``at`` (1-based; default: the step marked ``dispute``, else the last;
    0 is the setup)."""
    if at is None:
        at = log.dispute_step() or len(log.steps)
    if at < 0 or at > len(log.steps) or (at == 0 and log.from_position):
        raise StepOutOfRange(at, len(log.steps))
    collector = _Collector(at)
    result = replay(log, cards, visitors=(collector,), stop_after=at)
    rec = collector.setup if at == 0 else collector.record
    out: dict[str, Any] = {
        "at": at,
        "step": log.steps[at - 1] if at else {"do": "setup"},
        "legal": None,
        "violation": None,
        "events": [],
        "decisions": [],
        "pending": None,
        "outcome": None,
        "state": None,
        "state_hash": None,
    }
    if at and log.steps[at - 1].get("dispute"):
        out["question"] = log.steps[at - 1]["dispute"]
    if rec is None:
        err = result.error
        out["error"] = err.to_json() if err else None
        where = f"step {err.at}" if err and err.at else "the setup"
        out["message"] = (f"the log cannot be replayed to step {at}: {where} fails first"
                          + (f" ({err.kind}: {err.message})" if err else ""))
        if result.state is not None:
            out["state"] = result.state.view()
            out["state_hash"] = result.state.state_hash()
        return out
    out["events"] = rec.events
    out["decisions"] = [d for d in rec.decisions if "answer" in d]
    err = rec.error
    if err is None:
        out["legal"] = True
    elif err.kind == "illegal-action":
        out["legal"] = False
        out["violation"] = {"rule": err.rule, "message": err.message}
    elif err.kind == "pending-decision":
        out["legal"] = True
        out["pending"] = err.pending
        out["message"] = err.message
    else:
        out["error"] = err.to_json()
    if rec.rejected_as_expected:
        out["note"] = "the log expects this step to be rejected; the state is the state before it"
    if at and "note" in log.steps[at - 1]:
        out["annotation"] = log.steps[at - 1]["note"]
    state = rec.state
    out["outcome"] = log.rules.outcome(state)
    out["state"] = state.view()
    out["state_hash"] = state.state_hash()
    out["rules_cited"] = _rules_cited(out)
    return out


def _rules_cited(ruling: dict[str, Any]) -> list[str]:
    seen: list[str] = []
    for item in list(ruling["events"]) + list(ruling["decisions"]):
        for r in item.get("rules", []):
            if r not in seen:
                seen.append(r)
    for extra in (ruling.get("violation") or {}, ruling.get("pending") or {}):
        for r in ([extra.get("rule")] if extra.get("rule") else []) + list(extra.get("rules", [])):
            if isinstance(r, str) and r not in seen:
                seen.append(r)
    return seen
