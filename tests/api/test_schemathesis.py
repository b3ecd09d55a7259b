"""schemathesis against the app: every operation of /openapi.json, all checks, 0 failures.

schemathesis' engine (what ``schemathesis run`` drives) runs against the app served by werkzeug
in a thread of the test process (the in-process WSGI transport of schemathesis 4.32 fails on the
probes of ``ignored_auth``, so the requests go over HTTP), with all its phases: the documented
examples, the coverage cases (each boundary and pattern of the schema, just inside and just
outside), fuzzing in positive and negative modes, and stateful sequences
that follow responses (a created tournament, then its players, ...). ``ARBITER_SCHEMATHESIS_CASES``
sets how many cases in all (1,000 by default; the test fails if fewer were sent) and
``ARBITER_SCHEMATHESIS_SEED`` the seed (fixed by default, so a failure reproduces).

A tournament with players is created first; its organizer token is the ``organizerToken`` bearer
credential, and half of the generated tournament IDs are replaced by its ID, so the organizer's
writes are exercised (``ignored_auth`` then checks each one refuses a missing or wrong token). A
real worker runs on the queue, so ruling requests are answered as in service.

Configured rather than left at their defaults, each for a stated reason:

- ``positive_data_acceptance`` also accepts 422 where the answer depends on more than the
  request's shape (the engine's validation of a log: cards, references, rules; the tournament's
  rules against its state: which round is current, how many games a match may have), and 413: a
  body within every documented maximum can still be larger than ``MAX_BODY_BYTES`` (JSON Schema
  cannot bound a document's size in bytes);
- ``negative_data_rejection`` also accepts 413 (a body over the size limit is refused, as it
  should be, before its content is looked at);
- ``ensure_resource_availability`` is off for ``GET .../pairings`` only: a new tournament has no
  current round, so its current pairings are a 404 by design (docs/api.md).
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
import schemathesis
from flask import Flask
from schemathesis.engine import Status, events, from_schema

from api.openapi import PATH_PARAMETERS, SECURITY_SCHEME
from tests.browser import serve
from tests.helpers import ROOT, stop_process

CASES = int(os.environ.get("ARBITER_SCHEMATHESIS_CASES", "1000"))
SEED = int(os.environ.get("ARBITER_SCHEMATHESIS_SEED", "20260101"))

#: operations whose schema-valid requests may still be refused with 422 (see the module docstring)
SEMANTIC = [
    ("POST", "/v1/replays"),
    ("POST", "/v1/rulings"),
    ("POST", "/v1/tournaments"),
    ("POST", "/v1/tournaments/{tid}/players"),
    ("POST", "/v1/tournaments/{tid}/players/{pid}/drop"),
    ("POST", "/v1/tournaments/{tid}/rounds"),
    ("POST", "/v1/tournaments/{tid}/rounds/{number}/repair"),
    ("PUT", "/v1/tournaments/{tid}/rounds/{number}/pairings"),
    ("PUT", "/v1/tournaments/{tid}/rounds/{number}/matches/{table}"),
    ("POST", "/v1/tournaments/{tid}/cut"),
]
POSITIVE_ANSWERS = ["2xx", "3xx", 401, 403, 404, 409, 413, 422, 429, "5xx"]
NEGATIVE_ANSWERS = [400, 401, 403, 404, 405, 406, 409, 413, 415, 422, 428, 429, "5xx"]
TOURNAMENT_ID = PATH_PARAMETERS["tid"]


def config(token: str, operations: int) -> schemathesis.Config:
    per_operation = max(10, -(-CASES // operations))
    return schemathesis.Config.from_dict({
        "seed": SEED,
        "auth": {"openapi": {SECURITY_SCHEME: {"bearer": token}}},
        "generation": {"max-examples": per_operation},
        "checks": {"negative_data_rejection": {"expected-statuses": NEGATIVE_ANSWERS}},
        "operations": [
            *({"include-method": method, "include-path": path,
               "checks": {"positive_data_acceptance": {"expected-statuses": POSITIVE_ANSWERS}}}
              for method, path in SEMANTIC),
            {"include-method": "GET", "include-path": "/v1/tournaments/{tid}/pairings",
             "checks": {"ensure_resource_availability": {"enabled": False}}},
        ],
    })


@pytest.fixture()
def live_worker(redis_url: str) -> Iterator[None]:
    """A real ``arbiter worker`` on the session's Redis while the test runs."""
    from rq import Worker

    env = {**os.environ, "REDIS_URL": redis_url, "PYTHONUNBUFFERED": "1"}
    arbiter = Path(sys.executable).parent / "arbiter"
    proc = subprocess.Popen([str(arbiter), "worker"], cwd=ROOT, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    conn = redis.Redis.from_url(redis_url)
    try:
        deadline = time.monotonic() + 60
        while not Worker.all(connection=conn):
            assert proc.poll() is None, "the worker exited"
            assert time.monotonic() < deadline, "the worker never registered"
            time.sleep(0.1)
        yield
    finally:
        stop_process(proc)
        conn.close()


@pytest.fixture()
def served(app: Flask) -> Iterator[str]:
    """The app behind werkzeug's threaded server on a free port: its base URL."""
    with serve(app) as base:
        yield base


@pytest.fixture()
def tournament(app: Flask) -> dict[str, str]:
    """A best-of-3 tournament with six players: its ID and organizer token."""
    client = app.test_client()
    created = client.post("/v1/tournaments", json={"name": "Schemathesis Open", "seed": 7, "best_of": 3})
    assert created.status_code == 201, created.get_data(as_text=True)
    body = created.get_json()
    auth = {"Authorization": f"Bearer {body['token']}"}
    for i in range(6):
        added = client.post(f"/v1/tournaments/{body['id']}/players", json={"name": f"P{i}"}, headers=auth)
        assert added.status_code == 201, added.get_data(as_text=True)
    return {"id": body["id"], "token": body["token"]}


def test_schemathesis_finds_nothing(served: str, tournament: dict[str, str], live_worker: None) -> None:
    url = f"{served}/openapi.json"
    operations = sum(1 for _ in schemathesis.openapi.from_url(url).get_all_operations())
    schema = schemathesis.openapi.from_url(url, config=config(tournament["token"], operations))

    @schema.hook
    def map_path_parameters(context: Any, path_parameters: dict[str, Any] | None) -> dict[str, Any] | None:
        tid = (path_parameters or {}).get("tid")
        if isinstance(tid, str) and TOURNAMENT_ID.matches(tid) and int(tid[-1], 16) % 2:
            path_parameters["tid"] = tournament["id"]  # type: ignore[index]  # still of the documented form
        return path_parameters

    sent = 0
    answered: Counter[tuple[str, int]] = Counter()
    failures: list[str] = []
    for event in from_schema(schema).execute():
        if isinstance(event, events.ScenarioFinished):
            recorder = event.recorder
            sent += len(recorder.cases)
            for case_id, interaction in recorder.interactions.items():
                if interaction.response is not None:
                    case = recorder.cases[case_id].value
                    answered[(case.operation.label, interaction.response.status_code)] += 1
            for checks in recorder.checks.values():
                for check in checks:
                    if check.status == Status.FAILURE and check.failure_info is not None:
                        info = check.failure_info
                        failures.append(f"{recorder.label}: {check.name}: {info.failure.title}\n"
                                        f"{info.failure.message}\n{info.code_sample}")
        elif isinstance(event, events.NonFatalError | events.FatalError):
            failures.append(f"error: {event}")
    assert not failures, f"{len(failures)} failures:\n\n" + "\n\n".join(failures[:20])
    assert sent >= CASES, f"only {sent} cases were sent, fewer than {CASES}"
    # the organizer's token worked: writes were accepted, not only refused
    writes = {label for (label, status), n in answered.items()
              if 200 <= status < 300 and label.split()[0] in ("POST", "PUT") and "{tid}" in label}
    assert {"POST /v1/tournaments/{tid}/players", "POST /v1/tournaments/{tid}/rounds"} <= writes, sorted(writes)
