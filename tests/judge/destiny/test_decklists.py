"""SWDestinyDB decklists (JSON and text) to replay-log player entries."""

from __future__ import annotations

from pathlib import Path

import pytest

from judge.games.destiny import importer
from judge.games.destiny.decklists import parse_json, parse_text
from tests.judge.destiny.swdb import import_directory

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "swdestinydb"


@pytest.fixture(scope="module")
def data() -> importer.ImportResult:
    return import_directory(FIXTURES)


TEXT = """Luke and friends

Total points: 30
Characters:
Luke Skywalker - Unlikely Hero (Legacies 31) x2 dice
2x Jedi Temple Guard (Legacies #30)

Battlefield:
Outer Rim Outpost (LEG 178)
Plot:
1x Force Flow (Convergence 113)
Upgrades (2):
2x Hidden Blaster (Legacies 72)
Events (3):
2x Ice Storm
1x Nothing Card (Legacies 999)
1x Boba Fett (Legacies 31)
what is this line
"""


@pytest.mark.rules("destiny.deckbuilding.plot", "destiny.deckbuilding.battlefield")
def test_text_export(data: importer.ImportResult) -> None:
    result = parse_text(TEXT, data.pool(), data.sets, player_id="p2", player_name="Ana")
    assert result.deck_name == "Luke and friends"
    assert result.entry == {
        "id": "p2",
        "name": "Ana",
        "characters": [
            {"card": "05031", "dice": 2},
            {"card": "05030", "dice": 1},
            {"card": "05030", "dice": 1},
        ],
        "battlefield": "05178",
        "plot": "09113",
        "deck": ["05072", "05072", "05160", "05160"],
    }
    assert [(e.where, e.message.split(":")[0]) for e in result.errors] == [
        ("line 16", "no card Legacies 999 in the card pool"),
        ("line 17", "Legacies 31 is Luke Skywalker, not 'Boba Fett'"),
        ("line 18", "no card titled 'what is this line' in the card pool"),
    ]


def test_text_variants(data: importer.ImportResult) -> None:
    text = (
        "Characters:\nLuke Skywalker, Unlikely Hero (LEG 31) (2 dice)\n"
        "Battlefield\nOuter Rim Outpost - Nal Hutta\n"
    )
    result = parse_text(text, data.pool(), data.sets)
    assert not result.errors
    assert result.entry["characters"] == [{"card": "05031", "dice": 2}]
    assert result.entry["battlefield"] == "05178"
    assert result.entry["name"] == ""


def test_text_unknown_set(data: importer.ImportResult) -> None:
    result = parse_text("Deck:\n2x Ice Storm (Nowhere 5)\n", data.pool(), data.sets)
    assert [str(e) for e in result.errors] == ["line 2: unknown set 'Nowhere': '2x Ice Storm (Nowhere 5)'"]


def test_json_slots_only(data: importer.ImportResult) -> None:
    deck = {
        "name": "Starter-like",
        "slots": {
            "05031": {"quantity": 1, "dice": 2},
            "05030": {"quantity": 2, "dice": 2},
            "05178": {"quantity": 1, "dice": 0},
            "05072": {"quantity": 2, "dice": 2},
            "05160": 2,
        },
    }
    result = parse_json(deck, data.pool())
    assert not result.errors
    assert result.entry == {
        "id": "p1",
        "name": "Starter-like",
        "characters": [
            {"card": "05031", "dice": 2},
            {"card": "05030", "dice": 1},
            {"card": "05030", "dice": 1},
        ],
        "battlefield": "05178",
        "plot": None,
        "deck": ["05072", "05072", "05160", "05160"],
    }


def test_json_with_character_and_battlefield_keys(data: importer.ImportResult) -> None:
    deck = {
        "name": "Split",
        "characters": {"05031": {"quantity": 1, "dice": 1}, "05038": {"quantity": 1, "dice": 1}},
        "battlefield_code": "05178",
        "plot": {"code": "09113"},
        "slots": {"05072": {"quantity": 2}, "01999": {"quantity": 1}, "05160": "two"},
    }
    result = parse_json(deck, data.pool(), player_name="Ben")
    assert result.entry["name"] == "Ben"
    assert result.entry["characters"] == [{"card": "05031", "dice": 1}, {"card": "05038", "dice": 1}]
    assert result.entry["battlefield"] == "05178" and result.entry["plot"] == "09113"
    assert result.entry["deck"] == ["05072", "05072", "01999"]  # unknown kept for deck checking
    assert [str(e) for e in result.errors] == [
        "slots.01999: unknown card 01999",
        "slots.05160: cannot read card entry 'two'",
    ]
