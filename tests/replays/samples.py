"""Logs shared by the replay-layer tests: the corpus (every example log and the golden self-play
games), a short legal game from a position that uses six different verbs, and small helpers to
replay a log with visitors."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from judge.games.destiny.cards import default_pool
from judge.games.destiny.table import Table
from replays.format import parse_log
from replays.replayer import ReplayResult, StepRecord, replay

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "replays" / "examples"
GOLDEN_LOGS = ROOT / "tests" / "replays" / "golden" / "logs"

POOL = default_pool()


def corpus() -> list[tuple[str, dict[str, Any]]]:
    """(name, log) for every example log and every golden self-play log."""
    paths = sorted(EXAMPLES.glob("*.json")) + sorted(GOLDEN_LOGS.glob("*.json"))
    return [(p.stem, json.loads(p.read_text(encoding="utf-8"))) for p in paths]


def example(name: str) -> dict[str, Any]:
    out: dict[str, Any] = json.loads((EXAMPLES / f"{name}.json").read_text(encoding="utf-8"))
    return out


def golden(n: int) -> dict[str, Any]:
    out: dict[str, Any] = json.loads((GOLDEN_LOGS / f"selfplay-golden-{n}.json").read_text(encoding="utf-8"))
    return out


def duel() -> Table:
    """Luke Skywalker (elite, ready) against a Veteran Stormtrooper, at Ana's Outer Rim Outpost;
    2 resources each, nothing in hand, 10 unknown cards in each deck; Ana's turn."""
    t = Table()
    t.character("p1", "05031", dice=2)
    t.character("p2", "05013")
    return t


def table() -> Table:
    """Luke Skywalker, activated earlier this round (exhausted; a 2 ranged and a 1 ranged die in
    the pool), with 5 resources and Heightened Awareness and Heirloom Lightsaber in hand, against a
    ready Veteran Stormtrooper, at Ana's Outer Rim Outpost; Ana's turn."""
    t = Table()
    t.character("p1", "05031", dice=2, exhausted=True)
    t.character("p2", "05013")
    t.set("p1", resources=5, hand=["05102", "05058"])
    t.pool("p1", {"p1.05031/1": "2RD", "p1.05031/2": "1RD"})
    return t


# A legal game of six steps (each verb's effect is asserted where a test relies on it):
# 1. Luke's power action (pay 2) resolves his 2 ranged die, raised by 2: 4 damage to the trooper;
# 2. the trooper is activated and rolls 1 ranged;
# 3. Heightened Awareness (cost 2) gives Luke 3 shields, and Ana an extra action;
# 4. Ana passes (declining the extra action);
# 5. the trooper's 1 ranged hits Luke: a shield blocks it;
# 6. Ana claims the Outer Rim Outpost (gain 1 resource, draw 1 card).
STEPS: list[dict[str, Any]] = [
    {"by": "p1", "do": "use", "card": "p1.05031", "ability": 1,
     "dice": [{"die": "p1.05031/1", "target": "p2.05013"}]},
    {"by": "p2", "do": "activate", "card": "p2.05013", "roll": ["1RD"]},
    {"by": "p1", "do": "play", "card": "05102", "target": "p1.05031"},
    {"by": "p1", "do": "pass"},
    {"by": "p2", "do": "resolve", "dice": [{"die": "p2.05013/1", "target": "p1.05031"}]},
    {"by": "p1", "do": "claim", "claim_ability": True},
]


def six_steps(steps: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """The six-step game (or other steps from the same table)."""
    return table().log(copy.deepcopy(STEPS if steps is None else steps))


def cut(log: dict[str, Any], n: int) -> dict[str, Any]:
    """The log with only its first ``n`` steps."""
    out = copy.deepcopy(log)
    out["steps"] = out["steps"][:n]
    return out


class Recorder:
    """A visitor that writes down every call, with the state hash at the time of the call (the
    engine changes states in place, so a hash read later could describe a later state)."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, int, str | None]] = []
        self.records: list[StepRecord] = []
        self.setup: StepRecord | None = None
        self.result: ReplayResult | None = None

    def begin(self, log: Any, setup: StepRecord) -> None:
        self.setup = setup
        self.calls.append(("begin", setup.at, setup.state.state_hash()))

    def visit_step(self, record: StepRecord) -> None:
        self.records.append(record)
        self.calls.append(("step", record.at, record.state.state_hash()))

    def end(self, result: ReplayResult) -> None:
        self.result = result
        self.calls.append(("end", result.steps, result.state.state_hash() if result.state else None))


def run(log: dict[str, Any], *visitors: Any, stop_after: int | None = None) -> ReplayResult:
    return replay(parse_log(log, POOL), POOL, visitors=visitors, stop_after=stop_after)


def final_hash(log: dict[str, Any]) -> str:
    """The hash of the state a log ends in (the state before a failing step, if one fails)."""
    result = run(log)
    assert result.state is not None
    return result.state.state_hash()
