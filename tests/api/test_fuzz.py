"""Random bodies never reach a 500: every answer is a success or a problem below 500."""

from __future__ import annotations

import copy
import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.helpers import EXAMPLE_NAMES, create_test_app, load_example

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20),
    lambda children: st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=10), children,
                                                                      max_size=5),
    max_leaves=25,
)

LOG_KEYS = ["format", "game", "rules", "meta", "rng", "players", "setup", "steps"]
STEP_KEYS = ["by", "do", "card", "dice", "roll", "on", "choices", "expect", "dispute", "at"]


@st.composite
def mutated_logs(draw: st.DrawFn) -> Any:
    """An example log with a few keys replaced by random JSON (or removed)."""
    log = copy.deepcopy(load_example(draw(st.sampled_from(EXAMPLE_NAMES))))
    for _ in range(draw(st.integers(1, 3))):
        target: Any = log
        if log.get("steps") and draw(st.booleans()):
            steps = log["steps"]
            target = steps[draw(st.integers(0, len(steps) - 1))] if isinstance(steps, list) else log
            keys = STEP_KEYS
        else:
            keys = LOG_KEYS
        if not isinstance(target, dict):
            continue
        key = draw(st.sampled_from(keys))
        if draw(st.booleans()):
            target.pop(key, None)
        else:
            target[key] = draw(json_values)
    return log


bodies = st.one_of(json_values, mutated_logs(),
                   st.builds(lambda log, at: {"log": log, "at": at}, mutated_logs(),
                             st.none() | st.integers(-3, 40) | json_values),
                   st.builds(lambda rid, at: {"replay": rid, "at": at},
                             st.text(alphabet="0123456789abcdef", min_size=60, max_size=66),
                             st.integers(-2, 50)))


def test_random_bodies_never_500(redis_url: str) -> None:
    app = create_test_app(redis_url)
    client = app.test_client()
    seen: dict[int, int] = {}

    @settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
    @given(body=bodies, path=st.sampled_from(["/v1/replays", "/v1/rulings"]))
    def check(body: Any, path: str) -> None:
        resp = client.post(path, data=json.dumps(body), content_type="application/json")
        seen[resp.status_code] = seen.get(resp.status_code, 0) + 1
        assert resp.status_code < 500, (path, body, resp.get_data(as_text=True))

    check()
    assert any(code >= 400 for code in seen)
