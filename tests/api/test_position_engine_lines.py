"""POST /position: what the engine refuses when it replays the log built of a quick position is a
422 whose pointers are the compact text's lines (``/text/lines/<n>``), or the body's places for a
quick position sent as JSON, for every game; not the built log's (``/log/setup/position/...``),
which the judge never wrote (judge.games.quick.log_faults)."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from judge.games import registry
from tests.helpers import assert_problem

# (game, the example's line changed, into, the engine's words at that line)
REFUSED = [
    ("destiny", "p1 character Luke Skywalker: 2 dice, 2 shields, exhausted",
     "p1 character Luke Skywalker: 2 dice, 7 shields, exhausted",
     "a character never has more than 3 shields (destiny.shields.max-three)"),
    ("swtcg", "ask p1 attack TIE Bomber -> Mon Calamari Cruiser rolling 4 4 5",
     "ask p1 attack TIE Bomber -> Mon Calamari Cruiser amount 2", "unknown key 'amount'"),
    ("relic", "ask p1 use Auspex on d1 rolling 6 3", "ask p1 use Auspex#12345 on d1 rolling 6 3",
     "'card' is a card reference"),
]


def _errors(client: FlaskClient, body: dict[str, Any]) -> list[tuple[str, str]]:
    problem = assert_problem(client.post("/position", json=body), 422)
    return [(e["pointer"], e["detail"]) for e in problem["errors"]]


def _line(text: str, line: str) -> str:
    return f"/text/lines/{text.splitlines().index(line) + 1}"


@pytest.mark.parametrize(("game", "old", "new", "words"), REFUSED)
def test_the_engines_fault_is_at_the_line_of_the_text(client: FlaskClient, game: str, old: str, new: str,
                                                      words: str) -> None:
    text = registry.get(game).quick_example().replace(old, new)
    [(pointer, detail)] = _errors(client, {"game": game, "text": text})
    assert pointer == _line(text, new) and detail.startswith(words)


def test_a_character_with_nine_dice_and_its_second_die_are_each_at_its_line(client: FlaskClient) -> None:
    text = registry.get("destiny").quick_example().replace("2 dice, 2 shields", "9 dice, 2 shields")
    assert _errors(client, {"text": text}) == [
        (_line(text, "p1 character Luke Skywalker: 9 dice, 2 shields, exhausted"),
         "a character has 1 or 2 dice (destiny.characters.point-value)"),
        (_line(text, "p1 die Luke Skywalker/2: 1Sh"), "p1.05031 has 1 dice")]


def test_a_quick_position_as_json_is_answered_at_its_own_places(client: FlaskClient) -> None:
    """Without a text, the body's pointer: the web form's field."""
    destiny = {"players": [{"id": "p1", "characters": [{"card": "Luke Skywalker", "dice": 9}]},
                           {"id": "p2", "characters": [{"card": "Boba Fett"}]}], "ask": "p1 pass"}
    assert [p for p, _ in _errors(client, destiny)] == ["/players/0/characters/0/dice"]
    relic = {"game": "relic", "players": [{"id": "p1", "character": "Battle Sister", "assets": ["Auspex"]},
                                          {"id": "p2", "character": "Tech-Priest"}],
             "ask": "p1 use Auspex#12345"}
    assert [p for p, _ in _errors(client, relic)] == ["/ask"]
    named = {**destiny, "players": [{**destiny["players"][0], "name": "An\ud800a"}, destiny["players"][1]]}
    named["players"][0]["characters"] = [{"card": "Luke Skywalker"}]
    assert [p for p, _ in _errors(client, named)] == ["/players/0/name"]


@pytest.mark.parametrize("game", ["destiny", "swtcg", "relic"])
def test_a_lone_surrogate_in_a_name_is_at_its_line(client: FlaskClient, game: str) -> None:
    """JSON may carry a lone surrogate; the built log cannot hold one: the player's line says so."""
    example = registry.get(game).quick_example()
    first = next(line for line in example.splitlines() if line.startswith("p1 ") and ":" in line)
    named = first.replace(":", "\ud800:", 1)
    text = example.replace(first, named)
    errors = _errors(client, {"game": game, "text": text})
    assert {p for p, _ in errors} == {_line(text, named)} and "lone surrogate" in errors[0][1]
