"""No log can crash the viewer: the fuzz tests' structure-aware mutations (tests/replays/mutations.py)
through ``viewer_json`` and ``page``: a malformed log is a ``MalformedLog`` with faults, anything
else gives JSON-ready data whose page embeds it intact."""

from __future__ import annotations

import json
import os
import re

from hypothesis import HealthCheck, given, settings

from replays.service import MalformedLog
from replays.viewer import page, state_at, viewer_json
from tests.replays.mutations import Case, cases

CASES = int(os.environ.get("ARBITER_VIEWER_FUZZ_CASES", "1000"))


def test_no_mutated_log_breaks_the_viewer() -> None:
    totals = {"malformed": 0, "drawn": 0}

    @settings(max_examples=CASES, derandomize=True, database=None, deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(case=cases())
    def check(case: Case) -> None:
        try:
            data = viewer_json(case.log)
        except MalformedLog as exc:
            assert exc.faults
            totals["malformed"] += 1
            return
        text = json.dumps(data, ensure_ascii=False, allow_nan=False)
        last = len(data["steps"]) - 1
        assert state_at(data, last) is not None
        m = re.search(r'id="arbiter-viewer-data">(.*?)</script>', page(data), re.S)
        assert m is not None and json.loads(m.group(1)) == json.loads(text)
        totals["drawn"] += 1

    check()
    assert totals["malformed"] > CASES // 4 and totals["drawn"] > CASES // 50, totals
