"""No log can crash the engine: structure-aware mutations of every example log and of positions
(tests/replays/mutations.py) driven through the whole facade (replays/service.py). Whatever the
JSON, ``validate``, ``replay_json``, ``timeline_json``, ``ruling_json`` and ``log_id`` raise
nothing but ``MalformedLog`` and ``StepOutOfRange``, and every fault can be written back as JSON.

10,000 cases by default (``ARBITER_FUZZ_CASES`` for more or fewer), derandomized so that CI runs
the same cases every time; each distinct crash this found is a regression test in
tests/replays/test_bounds.py.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from typing import Any

from hypothesis import HealthCheck, given, settings

from judge.games.jsonbounds import scan_places, sound
from replays.format import structure_faults
from replays.service import MalformedLog, StepOutOfRange, log_id, replay_json, ruling_json, timeline_json, validate
from tests.replays.mutations import Case, cases

CASES = int(os.environ.get("ARBITER_FUZZ_CASES", "10000"))


def _writable(faults: list[dict[str, Any]]) -> None:
    """Faults are written back as JSON (UTF-8): pointers and messages are valid text."""
    for f in faults:
        assert isinstance(f["path"], str) and (f["path"] == "" or f["path"].startswith("/")), f
        assert isinstance(f["message"], str) and f["message"], f
    json.dumps(faults, ensure_ascii=False).encode("utf-8")


def drive(case: Case) -> dict[str, int]:
    """Every entry point of the facade on ``case``; what each answered."""
    seen: dict[str, int] = {}
    # the quick reading of the structure (no places kept) agrees with the full one
    assert sound(case.log) == (scan_places(case.log) == []), case
    faults = validate(case.log)
    _writable([f.to_json() for f in faults])
    # a log out of bounds anywhere, its steps included (read after the game's quick reading:
    # replays.format._deferred), is refused with the structure's faults alone
    structural = structure_faults(case.log)
    if structural:
        assert [f.to_json() for f in faults] == [f.to_json() for f in structural], case
    seen["faulty" if faults else "valid"] = 1
    result = replay_json(case.log)
    _writable(result["faults"])
    assert result["valid"] is False or not result["faults"]
    json.dumps(result, ensure_ascii=False, allow_nan=False).encode("utf-8")
    calls: tuple[tuple[str, Callable[[], Any]], ...] = (
        ("timeline", lambda: timeline_json(case.log)), ("ruling", lambda: ruling_json(case.log, case.at)),
        ("log_id", lambda: log_id(case.log)))
    for name, call in calls:
        try:
            out = call()
        except MalformedLog as exc:
            assert exc.faults, name
            _writable([f.to_json() for f in exc.faults])
            seen[f"{name}-malformed"] = 1
            continue
        except StepOutOfRange:
            assert name == "ruling"
            seen["ruling-out-of-range"] = 1
            continue
        json.dumps(out, ensure_ascii=False, allow_nan=False).encode("utf-8")
        seen[name] = 1
    return seen


def test_no_mutated_log_raises_anything_but_a_fault() -> None:
    totals: dict[str, int] = {}

    @settings(max_examples=CASES, derandomize=True, database=None, deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(case=cases())
    def check(case: Case) -> None:
        for key, n in drive(case).items():
            totals[key] = totals.get(key, 0) + n

    check()
    # the mutations reach every outcome: refused logs, logs that replay, rulings and timelines
    assert totals.get("faulty", 0) > CASES // 4, totals
    assert totals.get("valid", 0) > CASES // 50, totals
    assert totals.get("timeline", 0) and totals.get("ruling", 0) and totals.get("log_id", 0), totals
