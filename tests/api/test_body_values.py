"""A body of very many tiny values is refused before ``json.loads`` builds them (MAX_NODES)."""

from __future__ import annotations

import json
import subprocess
import sys
import tracemalloc
from pathlib import Path
from typing import Any

from flask.testing import FlaskClient
from hypothesis import given, settings
from hypothesis import strategies as st

from api.jsonio import count_values
from judge.limits import MAX_BODY_BYTES, MAX_NODES
from tests.helpers import assert_problem, load_example

MB = 1024 * 1024


def _values(v: Any) -> int:
    if isinstance(v, dict):
        return 1 + sum(_values(x) for x in v.values())
    if isinstance(v, list):
        return 1 + sum(_values(x) for x in v)
    return 1


tricky = st.text(alphabet='a",\\[]{}: \n\t')  # the characters the counter looks at, inside strings
values = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | tricky,
                      lambda c: st.lists(c, max_size=4) | st.dictionaries(tricky, c, max_size=4), max_leaves=30)


@settings(max_examples=500, deadline=None)
@given(value=values, indent=st.sampled_from([None, 0, 2]), ascii_only=st.booleans())
def test_count_values_counts_what_json_loads_would_build(value: Any, indent: int | None, ascii_only: bool) -> None:
    data = json.dumps(value, indent=indent, ensure_ascii=ascii_only).encode()
    assert count_values(data) == _values(value)


def test_a_body_of_a_million_empty_objects_is_422_without_building_them(client: FlaskClient) -> None:
    body = b"[" + b"{}," * (MAX_BODY_BYTES // 3 - 2) + b"{}]"
    assert len(body) <= MAX_BODY_BYTES
    tracemalloc.start()
    try:
        resp = client.post("/v1/replays", data=body, content_type="application/json")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    problem = assert_problem(resp, 422)
    assert problem["errors"][0]["pointer"] == ""
    assert "MAX_NODES" in problem["detail"]
    assert peak < 20 * MB, f"peak {peak / MB:.1f} MB"  # json.loads of it: about 60 MB


def test_a_log_within_the_count_is_read_as_before(client: FlaskClient) -> None:
    log = load_example("shields-cap.json")
    assert count_values(json.dumps(log).encode()) < MAX_NODES
    assert client.post("/v1/replays", json=log).status_code == 201


def test_counting_a_body_that_is_one_long_string_costs_no_memory() -> None:
    body = b'{"meta": {"pad": "' + b"x\\n" * (MAX_BODY_BYTES // 3) + b'"}}'
    tracemalloc.start()
    try:
        assert count_values(body) == 3
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 3 * len(body), f"peak {peak / MB:.1f} MB for a body of {len(body) / MB:.1f} MB"


def test_a_blueprint_imported_before_the_app_still_parses_strictly() -> None:
    """A blueprint's views take their body parser when their module is imported: one imported ahead
    of ``create_app`` (by a test, a tool) must get the strict one too, not webargs' own (a 500 on
    deep JSON). Run in a fresh interpreter, where nothing has built an app yet."""
    code = (
        "import api.rulings.answers\n"  # a blueprint's package first
        "from api import create_app\n"
        "app = create_app({'TESTING': True, 'REDIS_URL': 'redis://127.0.0.1:1/0'})\n"
        "resp = app.test_client().post('/v1/replays', data=b'[' * 50000, content_type='application/json')\n"
        "print(resp.status_code)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                         cwd=Path(__file__).resolve().parents[2])
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip().splitlines()[-1] == "400"
