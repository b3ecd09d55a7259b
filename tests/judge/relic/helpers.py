"""Relic logs for the tests: a two-player table (Ana plays a Battle Sister, Ben a Tech-Priest)
brought to Ana's Encounter phase, and a replay that keeps every step's events and state."""

from __future__ import annotations

import copy
from typing import Any

from replays.format import parse_log
from replays.replayer import ReplayResult, StepRecord, replay

TO_ENCOUNTER = [{"by": "p1", "do": "end-phase"}, {"by": "p1", "do": "end-phase"}]


def log(steps: list[dict[str, Any]], assets: tuple[str, ...] = ("needle-rifle",), power: tuple[str, ...] = (),
        cards: dict[str, Any] | None = None, scenario: Any = None, character: Any = "battle-sister",
        encounter: bool = True, rng: str | None = None) -> dict[str, Any]:
    setup: dict[str, Any] = {}
    if cards:
        setup["cards"] = cards
    if scenario is not None:
        setup["scenario"] = scenario
    out: dict[str, Any] = {
        "format": "arbiter.replay/1", "game": "relic",
        "players": [{"id": "p1", "name": "Ana", "character": character, "assets": list(assets), "power": list(power)},
                    {"id": "p2", "name": "Ben", "character": "tech-priest"}],
        "setup": setup, "steps": (copy.deepcopy(TO_ENCOUNTER) if encounter else []) + steps}
    if rng is not None:
        out["rng"] = {"algorithm": "sha256-ctr", "seed": rng}
    return out


class Steps:
    def __init__(self) -> None:
        self.setup: StepRecord | None = None
        self.steps: list[StepRecord] = []

    def begin(self, log: Any, setup: StepRecord) -> None:
        self.setup = setup

    def visit_step(self, record: StepRecord) -> None:
        self.steps.append(record)

    def end(self, result: ReplayResult) -> None:
        pass


def run(data: dict[str, Any]) -> tuple[ReplayResult, Steps]:
    parsed = parse_log(data)
    seen = Steps()
    result = replay(parsed, parsed.rules.default_cards(), visitors=(seen,))
    return result, seen


def events(data: dict[str, Any], kind: str | None = None) -> list[dict[str, Any]]:
    """Every event of the log's steps (of one kind)."""
    _, seen = run(data)
    out = [e for rec in seen.steps for e in rec.events]
    return [e for e in out if kind is None or e["event"] == kind]


def last_events(data: dict[str, Any]) -> list[dict[str, Any]]:
    _, seen = run(data)
    return seen.steps[-1].events


def error(data: dict[str, Any]) -> Any:
    result, _ = run(data)
    return result.error


def final(data: dict[str, Any]) -> dict[str, Any]:
    result, _ = run(data)
    assert result.error is None, result.error
    assert result.state is not None
    view: dict[str, Any] = result.state.view()
    return view


def battle(enemies: list[str], *steps: dict[str, Any], **kw: Any) -> dict[str, Any]:
    return log([{"by": "p1", "do": "battle", "enemies": enemies}, *steps], **kw)


def step(do: str, **kw: Any) -> dict[str, Any]:
    return {"by": "p1", "do": do, **kw}
