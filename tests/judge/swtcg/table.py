"""Building SW TCG positions and logs in tests: ``Table`` holds a position (the Dark Side is p1,
the Light Side p2), ``log`` wraps it with steps, ``play`` replays it and returns the result and
the records of every step; ``ruled`` reads a quick position's text (judge.games.swtcg.quick) into
its log and the ruling on its question."""

from __future__ import annotations

import copy
from typing import Any

from judge.games.swtcg.cards import default_pool
from replays.format import parse_log
from replays.replayer import ReplayResult, StepRecord, replay
from replays.service import ruling_json

POOL = default_pool()


class Table:
    def __init__(self, step: str = "battle", arena: str | None = "space", round: int = 2, sentries: bool = True,
                 ) -> None:
        self.pos: dict[str, Any] = {
            "round": round, "phase": "battle" if step == "battle" else "command", "step": step,
            "players": {"p1": {"side": "dark", "force": 5, "build": 0, "hand": [], "deck": {"unknown": 10},
                               "discard": []},
                        "p2": {"side": "light", "force": 5, "build": 0, "hand": [], "deck": {"unknown": 10},
                               "discard": []}},
            "cards": {},
        }
        if arena is not None:
            self.pos["arena"] = arena
        if sentries:  # slow units in the Character arena: the turn stops there, before its end
            self.unit("p1.DS-SEN").unit("p2.LS-SEN")

    def unit(self, ref: str, **kw: Any) -> Table:
        code = ref.split(".")[1]
        zone = kw.pop("zone") if "zone" in kw else POOL.cards[code].type
        self.pos["cards"][ref] = {"code": code, "zone": zone, **kw}
        return self

    def set(self, pid: str, **kw: Any) -> Table:
        self.pos["players"][pid].update(kw)
        return self

    def at(self, **kw: Any) -> Table:
        self.pos.update(kw)
        return self

    def log(self, *steps: dict[str, Any], rng: str | None = None) -> dict[str, Any]:
        out: dict[str, Any] = {"format": "arbiter.replay/1", "game": "swtcg",
                               "players": [{"id": "p1", "name": "Dark"}, {"id": "p2", "name": "Light"}],
                               "setup": {"position": copy.deepcopy(self.pos)}, "steps": list(steps)}
        if rng is not None:
            out["rng"] = {"algorithm": "sha256-ctr", "seed": rng}
        return out


class Steps:
    def __init__(self) -> None:
        self.records: list[StepRecord] = []

    def begin(self, log: Any, setup: StepRecord) -> None:
        self.records.append(setup)

    def visit_step(self, record: StepRecord) -> None:
        self.records.append(record)

    def end(self, result: Any) -> None:
        pass

    def events(self, at: int, kind: str | None = None) -> list[dict[str, Any]]:
        rec = next(r for r in self.records if r.at == at)
        return [e for e in rec.events if kind is None or e["event"] == kind]

    def all(self, kind: str) -> list[dict[str, Any]]:
        return [e for r in self.records for e in r.events if e["event"] == kind]


def play(log: dict[str, Any], pool: Any = POOL) -> tuple[ReplayResult, Steps]:
    seen = Steps()
    result = replay(parse_log(log, pool), pool, visitors=(seen,))
    return result, seen


def state(log: dict[str, Any], pool: Any = POOL) -> Any:
    result, _ = play(log, pool)
    assert result.error is None, result.error
    return result.state


def error(log: dict[str, Any], pool: Any = POOL) -> tuple[str, str | None]:
    result, _ = play(log, pool)
    assert result.error is not None, "the log replays without error"
    return result.error.kind, result.error.rule


def ruled(text: str, pool: Any = POOL) -> tuple[dict[str, Any], dict[str, Any]]:
    """A quick position's text: its log, and the ruling on its question (step 1)."""
    from judge.games import registry

    game = registry.get("swtcg")
    spec, faults = game.quick_text(text)
    assert faults == [], faults
    log, faults = game.quick_log(spec, pool)
    assert faults == [] and log is not None, faults
    return log, ruling_json(log, 1, pool)
