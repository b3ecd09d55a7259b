"""No body reaches a 500: random JSON, and the structure-aware mutations of every example log and
of positions (tests/replays/mutations.py, the in-process fuzz test's), posted to ``/v1/replays``
and ``/v1/rulings`` through the Flask test client on a real Redis.

The mutated logs: 2,000 cases by default, a fifth of ``ARBITER_FUZZ_CASES`` when it is set (the
in-process test runs all of them), derandomized so that CI runs the same cases every time.

A ruling on a sound log is answered 503 while no worker runs (nothing is queued then; the test
client runs none): that answer is the service's word that it cannot compute rulings now, with
``Retry-After``, not a crash, so it is the one 5xx allowed, and only in that shape.
"""

from __future__ import annotations

import copy
import json
import os
from typing import Any

from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.helpers import EXAMPLE_NAMES, PROBLEM, create_test_app, load_example
from tests.replays.mutations import Case, cases

HTTP_CASES = max(2_000, int(os.environ.get("ARBITER_FUZZ_CASES", "0")) // 5)

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


def _encode(body: Any) -> bytes:
    """The body as JSON text (lone surrogates escaped as ``\\ud800``, NaN and Infinity as Python
    writes them); a body nested beyond the encoder's recursion is written without recursion."""
    try:
        return json.dumps(body).encode("ascii")
    except RecursionError:
        return _deep(body).encode("ascii")


def _deep(value: Any) -> str:
    """JSON text of ``value`` written iteratively (a mutation nests thousands deep)."""
    out: list[str] = []
    todo: list[tuple[bool, Any]] = [(False, value)]  # (is raw text, text or value), last first
    while todo:
        raw, v = todo.pop()
        if raw:
            out.append(v)
        elif isinstance(v, dict | list):
            members = list(v.items()) if isinstance(v, dict) else [(None, item) for item in v]
            out.append("{" if isinstance(v, dict) else "[")
            todo.append((True, "}" if isinstance(v, dict) else "]"))
            for i, (k, item) in reversed(list(enumerate(members))):
                todo.append((False, item))
                todo.append((True, ("," if i else "") + ("" if k is None else json.dumps(k) + ":")))
        else:
            out.append(json.dumps(v))
    return "".join(out)


def _post(client: FlaskClient, path: str, data: bytes) -> tuple[int, Any]:
    resp = client.post(path, data=data, content_type="application/json")
    status = resp.status_code
    if status >= 500:
        sound_refusal = (status == 503 and path == "/v1/rulings" and resp.mimetype == PROBLEM
                         and "Retry-After" in resp.headers)
        assert sound_refusal, (path, status, resp.get_data(as_text=True)[:2000])
    elif status >= 400:
        assert resp.mimetype == PROBLEM, (path, status, resp.get_data(as_text=True)[:500])
    return status, resp


def test_random_bodies_never_500(redis_url: str) -> None:
    app = create_test_app(redis_url)
    client = app.test_client()
    seen: dict[int, int] = {}

    @settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
    @given(body=bodies, path=st.sampled_from(["/v1/replays", "/v1/rulings"]))
    def check(body: Any, path: str) -> None:
        status, _ = _post(client, path, json.dumps(body).encode())
        seen[status] = seen.get(status, 0) + 1

    check()
    assert any(code >= 400 for code in seen)


def test_mutated_logs_and_positions_never_500(redis_url: str) -> None:
    """The in-process fuzz test's cases over HTTP: every answer is a success, or a problem+json
    below 500 (a 422 naming the faults, with their pointers under the body's ``/log`` for a
    ruling), never a crash."""
    app = create_test_app(redis_url)
    client = app.test_client()
    seen: dict[int, int] = {}

    @settings(max_examples=HTTP_CASES, derandomize=True, database=None, deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(case=cases(), as_ruling=st.booleans())
    def check(case: Case, as_ruling: bool) -> None:
        body = {"log": case.log, "at": case.at} if as_ruling else case.log
        data = _encode(body)
        path = "/v1/rulings" if as_ruling else "/v1/replays"
        status, resp = _post(client, path, data)
        seen[status] = seen.get(status, 0) + 1
        if status == 422:
            errors = resp.get_json().get("errors") or []
            assert all(isinstance(e.get("pointer"), str) for e in errors), errors

    check()
    assert seen.get(422, 0) > HTTP_CASES // 4, seen  # the mutations are refused with their faults...
    assert seen.get(201, 0) + seen.get(200, 0) + seen.get(202, 0) + seen.get(503, 0) > 0, seen  # ...or pass
