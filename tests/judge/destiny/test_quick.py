"""Destiny's quick position (judge.games.destiny.quick) with upgrades and supports: in the JSON and
in the compact text, written into ``setup.position`` as the engine reads it, named in the asked
step and by the dice in the pool; each fault with its JSON Pointer."""

from __future__ import annotations

from typing import Any

import pytest

from judge.games import registry
from replays.service import ruling_json

GAME = registry.get("destiny")
CARDS = GAME.default_cards()


def spec_of(p1: dict[str, Any], ask: str) -> dict[str, Any]:
    """A quick position (JSON): ``p1`` as given, p2 with Luke Skywalker."""
    return {"players": [{"id": "p1", **p1}, {"id": "p2", "characters": [{"card": "Luke Skywalker"}]}], "ask": ask}


def logged(spec: dict[str, Any]) -> dict[str, Any]:
    log, faults = GAME.quick_log(spec, CARDS)
    assert faults == [] and log is not None
    return log


def from_text(text: str) -> dict[str, Any]:
    spec, faults = GAME.quick_text(text)
    assert faults == []
    return logged(spec)


def test_upgrades_and_supports_are_written_into_the_position_as_the_engine_reads_them() -> None:
    log = logged(spec_of({"characters": [{"card": "Boba Fett", "dice": 2, "upgrades": [
        "Hidden Blaster", {"card": "Hunker Down", "exhausted": True}]}],
        "supports": [{"card": "First Order TIE Fighter"}, {"card": "Underworld Connections", "exhausted": True},
                     "First Order TIE Fighter"],
        "dice": [{"card": "Hidden Blaster", "die": 1, "face": "+2RD"}, {"card": "First Order TIE Fighter#2",
                                                                         "face": "2RD"}]},
        "p1 pass"))
    p1 = log["setup"]["position"]["players"]["p1"]
    assert p1["characters"]["p1.05019"]["upgrades"] == ["p1.05072#1", "p1.01164#1"]
    assert p1["upgrades"] == {"p1.05072#1": {"on": "p1.05019", "exhausted": False},
                              "p1.01164#1": {"on": "p1.05019", "exhausted": True}}
    assert p1["supports"] == {"p1.01006#1": {"exhausted": False}, "p1.01101#1": {"exhausted": True},
                              "p1.01006#2": {"exhausted": False}}
    assert p1["pool"] == {"p1.05072#1/1": "+2RD", "p1.01006#2/1": "2RD"}
    ruling = ruling_json(log, 1)
    assert ruling["legal"] is True
    state = ruling["state"]["players"]["p1"]
    assert state["upgrades"]["p1.01164#1"]["exhausted"] is True and state["supports"]["p1.01101#1"]["exhausted"]


def test_an_upgrades_die_is_resolved() -> None:
    log = from_text("p1 character Boba Fett: 2 dice\np1 upgrade Hidden Blaster on Boba Fett\n"
                    "p1 die Hidden Blaster/1: 1RD\np2 character Luke Skywalker\n"
                    "ask p1 resolve Hidden Blaster/1 -> Luke Skywalker")
    assert log["steps"][0]["dice"] == [{"die": "p1.05072#1/1", "target": "p2.05031"}]
    ruling = ruling_json(log, 1)
    assert ruling["legal"] is True
    assert ruling["state"]["players"]["p2"]["characters"]["p2.05031"]["damage"] == 1
    assert "p1.05072#1/1" not in ruling["state"]["players"]["p1"]["pool"]


def test_a_support_used_is_exhausted_and_an_exhausted_one_cannot_be_used() -> None:
    text = "p1 character Boba Fett\np1 support Underworld Connections{ex}\np2 character Luke Skywalker\n" \
           "ask p1 use Underworld Connections"
    ruling = ruling_json(from_text(text.format(ex="")), 1)
    assert ruling["legal"] is True and ruling["state"]["players"]["p1"]["resources"] == 1
    assert ruling["state"]["players"]["p1"]["supports"] == {"p1.01101#1": {"exhausted": True}}
    refused = ruling_json(from_text(text.format(ex=": exhausted")), 1)
    assert refused["legal"] is False and refused["violation"]["rule"] == "destiny.actions.card-action"


def test_a_support_activated_and_a_copy_named_by_its_number() -> None:
    text = ("p1 character Boba Fett\np1 support First Order TIE Fighter\n"
            "p1 support First Order TIE Fighter: exhausted\np2 character Luke Skywalker\n"
            "ask p1 activate First Order TIE Fighter#{n} rolling 2RD")
    ready = ruling_json(from_text(text.format(n=1)), 1)
    assert ready["legal"] is True and ready["state"]["players"]["p1"]["pool"] == {"p1.01006#1/1": "2RD"}
    exhausted = ruling_json(from_text(text.format(n=2)), 1)
    assert exhausted["legal"] is False and exhausted["violation"]["rule"] == "destiny.actions.activate-ready-only"


def test_an_upgrade_line_names_its_character_as_its_character_line_does() -> None:
    text = ("p1 upgrade Hidden Blaster on tusken raider#1: exhausted\np1 upgrade Hunting Rifle on Tusken Raider#2\n"
            "p1 character Tusken Raider\np1 character Tusken Raider\n"
            "p2 character Luke Skywalker\nask p1 pass")
    spec, faults = GAME.quick_text(text)
    assert faults == []
    chars = spec["players"][0]["characters"]
    assert chars[0]["upgrades"] == [{"card": "Hidden Blaster", "exhausted": True}]
    assert chars[1]["upgrades"] == ["Hunting Rifle"]
    p1 = logged(spec)["setup"]["position"]["players"]["p1"]
    assert p1["characters"]["p1.01022#2"]["upgrades"] == ["p1.05073#1"]


@pytest.mark.parametrize(("text", "where", "words"), [
    ("p1 character Boba Fett\np1 upgrade Hidden Blaster on Luke Skywalker", "/lines/2", "p1 has no character line"),
    ("p1 character Boba Fett\np1 character Boba Fett\np1 upgrade Hidden Blaster on Boba Fett", "/lines/3",
     "say which, e.g. 'Boba Fett#2'"),
    ("p1 upgrade Hidden Blaster", "/lines/1", "'PLAYER upgrade CARD on CHARACTER'"),
    ("p1 support Slave I: ready", "/lines/1", "': exhausted' or nothing"),
    ("p1 support", "/lines/1", "'PLAYER support CARD'"),
])
def test_compact_lines_it_cannot_read(text: str, where: str, words: str) -> None:
    _, faults = GAME.quick_text(text)
    assert any(p == where and words in m for p, m in faults), faults


UPGRADED = {"card": "Boba Fett", "dice": 2}


@pytest.mark.parametrize(("p1", "ask", "where", "words"), [
    ({"characters": [{**UPGRADED, "upgrades": ["Slave I"]}]}, "p1 pass", "/players/0/characters/0/upgrades/0",
     "Slave I is not an upgrade"),
    ({"characters": [{**UPGRADED, "upgrades": [{"card": "Nobody Special"}]}]}, "p1 pass",
     "/players/0/characters/0/upgrades/0/card", "no card is named"),
    ({"characters": [{**UPGRADED, "upgrades": [{"card": "Hidden Blaster", "exhausted": "yes"}]}]}, "p1 pass",
     "/players/0/characters/0/upgrades/0/exhausted", "true or false"),
    ({"characters": [{**UPGRADED, "upgrades": ["Hidden Blaster"] * 4}]}, "p1 pass",
     "/players/0/characters/0/upgrades", "at most 3 upgrades"),
    ({"characters": [{**UPGRADED, "upgrades": [7]}]}, "p1 pass", "/players/0/characters/0/upgrades/0",
     "a card's name"),
    ({"characters": [UPGRADED], "supports": [{"card": "Hidden Blaster"}]}, "p1 pass", "/players/0/supports/0/card",
     "Hidden Blaster is not a support"),
    ({"characters": [UPGRADED], "supports": ["Slave I"] * 11}, "p1 pass", "/players/0/supports",
     "at most 10 supports"),
    ({"characters": [UPGRADED], "supports": {"card": "Slave I"}}, "p1 pass", "/players/0/supports",
     "at most 10 supports"),
    ({"characters": [{**UPGRADED, "upgrades": ["Hidden Blaster"]}], "dice": [{"card": "Hidden Blaster", "die": 2,
                                                                              "face": "1RD"}]},
     "p1 pass", "/players/0/dice/0/die", "Hidden Blaster has one die"),
    ({"characters": [UPGRADED], "supports": ["Maz's Vault"], "dice": [{"card": "Maz's Vault", "face": "1RD"}]},
     "p1 pass", "/players/0/dice/0/die", "Maz's Vault has no die"),
    ({"characters": [UPGRADED], "dice": [{"card": "Slave I", "face": "2RD"}]}, "p1 pass", "/players/0/dice/0/card",
     "'Slave I' is not in play for p1"),
    ({"characters": [UPGRADED], "supports": ["First Order TIE Fighter"] * 2}, "p1 activate First Order TIE Fighter",
     "/ask", "say which copy, e.g. 'First Order TIE Fighter#2'"),
    ({"characters": [UPGRADED], "supports": ["Slave I"]}, "p1 activate Slave I#2", "/ask", "not in play"),
    ({"characters": [UPGRADED], "dice": [{"card": "Boba Fett", "die": 1, "face": "2RD"},
                                         {"card": "Boba Fett", "die": 1, "face": "1RD"}]},
     "p1 pass", "/players/0/dice/1", "this die is listed twice in the pool"),
])
def test_faults_of_upgrades_and_supports_say_where_and_why(p1: dict[str, Any], ask: str, where: str,
                                                           words: str) -> None:
    log, faults = GAME.quick_log(spec_of(p1, ask), CARDS)
    assert log is None and any(p == where and words in m for p, m in faults), faults
