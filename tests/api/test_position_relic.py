"""POST /position for Relic (``{"game": "relic", "text": ...}`` or the quick position as JSON): the
ruling in words, or a 422 problem+json listing every fault with its pointer (never a 500)."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from judge.games import registry
from tests.helpers import assert_problem

TABLE = "p1 Ana: Battle Sister\np2 Ben: Tech-Priest\n"


def test_the_relic_example_is_answered(client: FlaskClient) -> None:
    answer = client.post("/position", json={"game": "relic", "text": registry.get("relic").quick_example()})
    assert answer.status_code == 200, answer.get_data(as_text=True)
    body = answer.get_json()
    assert set(body) == {"log", "ruling", "words"} and body["log"]["game"] == "relic"
    assert body["ruling"]["legal"] is True and body["ruling"]["state"]["contest"]["player_score"] == 15
    assert any("relic.dice.exploding" in e["rules"] for e in body["ruling"]["events"])


def test_a_skill_test_resolved_from_json(client: FlaskClient) -> None:
    spec = {"game": "relic", "players": [{"id": "p1", "character": "Sanctioned Psyker"},
                                         {"id": "p2", "character": "Tech-Priest"}],
            "contest": {"test": "willpower", "target": 9, "dice": [{"id": "d1", "rolls": [4]}]}, "ask": "p1 resolve"}
    body = client.post("/position", json=spec).get_json()
    resolved = next(e for e in body["ruling"]["events"] if e["event"] == "contest-resolved")
    assert (resolved["score"], resolved["against"], resolved["outcome"]) == (9, 9, "pass")


@pytest.mark.parametrize(("body", "pointer"), [
    ({"game": "relic", "text": TABLE + "dice d1 x\nask p1 resolve"}, "/text/lines/3"),
    ({"game": "relic", "text": "round 1\n" * 300}, "/text/lines"),
    ({"game": "relic", "text": TABLE + "battle Ork Boy, Daemonette\nask p1 roll 1 1"}, "/text/lines/3"),
    ({"game": "relic", "text": TABLE + "p1 Ana: life 10000000000000000000000\nask p1 reach"}, "/text/lines/3"),
    ({"game": "relic", "text": TABLE + "p1 Ana: life 999999\nask p1 reach"}, "/text/lines/3"),
    ({"game": "relic", "text": TABLE + "ask p1 use Nothing"}, "/text/lines/3"),
    ({"game": "relic", "players": [{"id": "p1", "character": "Battle Sister", "assets": [{"card": 5}]},
                                   {"id": "p2", "character": "Tech-Priest"}], "ask": "p1 reach"},
     "/players/0/assets/0/card"),
    ({"game": "relic", "players": [{"id": "p1"}, {"id": "p2"}], "contest": [1], "ask": 5}, "/contest"),
    ({"game": "relic", "players": 3}, "/players"),
])
def test_relic_faults_are_422_with_pointers(client: FlaskClient, body: dict[str, Any], pointer: str) -> None:
    problem = assert_problem(client.post("/position", json=body), 422)
    assert pointer in [e["pointer"] for e in problem["errors"]], problem
