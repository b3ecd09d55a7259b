"""SW TCG's quick position (judge.games.swtcg.quick): a table by card names and one question, the
ordinary ruling on step 1; each fault with its pointer (a line of the text, or into the JSON)."""

from __future__ import annotations

from typing import Any

import pytest

from judge.games import registry
from judge.games.quick import MAX_LINES, MAX_TEXT
from judge.games.swtcg.quick import MAX_CARDS
from replays.service import ruling_json

GAME = registry.get("swtcg")
CARDS = GAME.default_cards()
SPACE = ("p1 Dark: force 5\np1 space TIE Fighter\np1 space TIE Fighter: tapped\n"
         "p2 Light: force 5\np2 space X-wing\n")


def ruled(text: str) -> tuple[dict[str, Any], dict[str, Any]]:
    spec, faults = GAME.quick_text(text)
    assert faults == []
    log, faults = GAME.quick_log(spec, CARDS)
    assert faults == [] and log is not None, faults
    return log, ruling_json(log, 1)


def faults_of(text: str) -> list[tuple[str, str]]:
    spec, faults = GAME.quick_text(text)
    assert faults == []
    log, faults = GAME.quick_log(spec, CARDS)
    assert log is None
    return [(p, str(m)) for p, m in faults]


def test_the_example_rules_accuracy_against_armor() -> None:
    log, ruling = ruled(GAME.quick_example())
    assert log["game"] == "swtcg" and log["steps"][0] == {
        "by": "p1", "do": "attack", "card": "p1.DS-TIEB", "target": "p2.LS-MC", "roll": ["4", "4", "5"],
        "dispute": "The Cruiser has Armor. Does the Bomber's Accuracy 1 make its 4s hit?"}
    position = log["setup"]["position"]
    assert position["phase"] == "battle" and position["arena"] == "space"
    assert position["cards"]["p1.DS-ISD"] == {"code": "DS-ISD", "zone": "build", "counters": 4, "built": False}
    assert position["cards"]["p1.DS-ST"] == {"code": "DS-ST", "zone": "character", "damage": 1, "tapped": True}
    assert position["players"]["p1"]["force"] == 4 and position["players"]["p2"]["side"] == "light"
    assert ruling["legal"] is True
    assert {"swtcg.keywords.accuracy", "swtcg.keywords.armor-threshold"} <= set(ruling["rules_cited"])
    assert ruling["state"]["arenas"]["space"]["p2.LS-MC"]["damage"] == 3  # 4 4 5 +1 each: three hits of 5+


def test_a_pilot_of_the_wrong_type_is_not_legal() -> None:
    _, ruling = ruled("phase build\nactive p1\np1 Dark: force 5, build 2\np1 character TIE Pilot\n"
                      "p1 space TIE Fighter\np1 ground Speeder Bike Scout\np2 Light:\np2 space X-wing\n"
                      "ask p1 pilot TIE Pilot -> Speeder Bike Scout\n")
    assert ruling["legal"] is False and ruling["violation"]["rule"] == "swtcg.pilots.type-match"


def test_a_tapped_copy_named_by_its_number_may_not_retreat() -> None:
    log, ruling = ruled("phase retreat\nactive p1\n" + SPACE + "p1 character Stormtrooper Squad\n"
                        "p1 equipped Blaster Rifle on Stormtrooper Squad\np2 pilot Starfighter Pilot on X-wing\n"
                        "ask p1 retreat TIE Fighter.2\n")
    cards = log["setup"]["position"]["cards"]
    assert cards["p1.DS-TIE.2"]["tapped"] is True and cards["p1.NS-BR"]["on"] == "p1.DS-ST"
    assert cards["p2.LS-SP"] == {"code": "LS-SP", "zone": "pilot", "on": "p2.LS-XW"}
    assert log["steps"][0]["card"] == "p1.DS-TIE.2"
    assert ruling["legal"] is False and ruling["violation"]["rule"] == "swtcg.retreat.untapped-only"
    _, untapped = ruled("phase retreat\nactive p1\n" + SPACE + "ask p1 retreat p1.TIE Fighter.1\n")
    assert untapped["legal"] is True and "p1.DS-TIE" in untapped["state"]["build_zone"]["p1"]


def test_a_battle_card_from_a_hand_of_names_with_its_dice() -> None:
    log, ruling = ruled("phase battle\np1 Dark: force 5, hand Force Lightning; TIE Fighter\n"
                        "p1 character Stormtrooper Squad\np2 Light: force 5, hand 2, discard X-wing\n"
                        "p2 character Rebel Commando\nask p1 play Force Lightning -> Rebel Commando rolling 5 2\n")
    players = log["setup"]["position"]["players"]
    assert players["p1"]["hand"] == ["DS-FL", "DS-TIE"] and players["p2"]["hand"] == {"unknown": 2}
    assert players["p2"]["discard"] == ["LS-XW"]
    assert log["steps"][0] == {"by": "p1", "do": "play", "card": "DS-FL", "target": "p2.LS-RC", "roll": ["5", "2"]}
    assert ruling["legal"] is True and "swtcg.battle.dice-of-damage-not-attack" in ruling["rules_cited"]
    assert ruling["state"]["arenas"]["character"]["p2.LS-RC"]["damage"] == 1
    assert ruling["state"]["players"]["p1"]["force"] == 3


def test_the_quick_position_as_json() -> None:
    spec = {"phase": "battle", "arena": "space",
            "players": [{"id": "d", "side": "dark", "force": 2, "cards": [{"card": "TIE Fighter", "zone": "space"}]},
                        {"id": "l", "side": "light", "cards": [{"card": "X-wing", "zone": "space"}]}],
            "ask": "d attack TIE Fighter -> X-wing rolling 6 6", "dispute": "Can it evade?"}
    log, faults = GAME.quick_log(spec, CARDS)
    assert faults == [] and log is not None
    assert log["players"] == [{"id": "d", "name": "d"}, {"id": "l", "name": "l"}]
    assert log["steps"][0]["target"] == "l.LS-XW" and log["meta"]["title"] == "Can it evade?"


@pytest.mark.parametrize(("text", "where", "words"), [
    (SPACE + "p1 space Darth Vader\nask p1 pass", "/players/0/cards/2/card", "names several cards"),
    (SPACE + "p1 space Nobody Here\nask p1 pass", "/players/0/cards/2/card", "no card is named"),
    (SPACE + "ask p1 attack TIE Fighter.1 -> Y-wing", "/ask", "not in play"),
    (SPACE + "ask p1 attack TIE Fighter -> X-wing", "/ask", "say which copy, e.g. 'TIE Fighter.2'"),
    (SPACE + "ask p3 pass", "/ask", "player who takes it"),
    (SPACE + "ask p1 fly TIE Fighter.1", "/ask", "the verb is one of"),
    (SPACE + "ask p1 use TIE Fighter.1", "/ask", "UNIT:KEYWORD"),
    (SPACE + "ask p1 attack TIE Fighter.1", "/ask", "after '->'"),
    (SPACE, "/ask", "the step to rule on"),
    (SPACE + "p1 ground TIE Fighter\nask p1 pass", "/players/0/cards/2/zone", "it goes to the space arena"),
    (SPACE + "p2 pilot Anakin Skywalker (J) on X-wing\np2 pilot Starfighter Pilot on X-wing\nask p1 pass",
     "/players/1/cards/2/on", "swtcg.pilots.one-per-unit"),
    (SPACE + "p2 pilot Starfighter Pilot on Y-wing\nask p1 pass", "/players/1/cards/1/on", "not in play for p2"),
    (SPACE + "p2 Light: dark\nask p1 pass", "/players", "one player is the Dark Side"),
    (SPACE + "phase build\narena space\nask p1 pass", "/arena", "swtcg.base.battle.order"),
    (SPACE + "phase command\nask p1 pass", "/phase", "build or retreat"),
    ("p1 space TIE Fighter\nask p1 pass", "/players", "two players"),
])
def test_faults_say_where_and_why(text: str, where: str, words: str) -> None:
    faults = faults_of(text)
    assert any(p == where and words in m for p, m in faults), faults


def test_faults_of_the_json_point_into_it() -> None:
    spec = {"players": [{"id": "p1", "force": -1, "hand": "x", "cards": [{"card": "TIE Fighter", "zone": "moon"},
                                                                         {"card": "TIE Fighter", "zone": "space",
                                                                          "damage": 100, "tapped": "yes"}]},
                        {"id": "p2"}], "round": 0, "ask": "p1 pass"}
    log, faults = GAME.quick_log(spec, CARDS)
    assert log is None and {p for p, _ in faults} >= {"/players/0/force", "/players/0/hand", "/players/0/cards/0/zone",
                                                      "/players/0/cards/1/damage", "/players/0/cards/1/tapped",
                                                      "/round"}
    assert GAME.quick_log([], CARDS)[1][0][0] == ""
    twice = {"players": [{"id": "p1"}, {"id": "p1"}], "ask": "p1 pass"}
    assert [p for p, _ in GAME.quick_log(twice, CARDS)[1]] == ["/players/1/id"]


def test_a_line_it_cannot_read_is_named_by_its_number() -> None:
    _, faults = GAME.quick_text("round two\np1 space TIE Fighter: 2 dmg\nwhatever\np1 pilot TIE Pilot\np1 hand\n")
    assert [p for p, _ in faults] == ["/lines/1", "/lines/2", "/lines/3", "/lines/4", "/lines/5"]


def test_the_bounds_are_checked_before_the_work() -> None:
    _, faults = GAME.quick_text("p1 space TIE Fighter\n" * (MAX_LINES + 1))
    assert [p for p, _ in faults] == ["/lines"]
    _, faults = GAME.quick_text("p1 space " + "x" * MAX_TEXT)
    assert [p for p, _ in faults] == ["/lines"]
    spec = GAME.quick_text(SPACE)[0]
    assert ("/ask", "at most 400 characters") in [(p, str(m)) for p, m in
                                                   GAME.quick_log({**spec, "ask": "p1 " + "x" * MAX_TEXT}, CARDS)[1]]
    spec["players"][0]["cards"] = [{"card": "TIE Fighter", "zone": "space"}] * (MAX_CARDS + 1)
    assert [p for p, _ in GAME.quick_log({**spec, "ask": "p1 pass"}, CARDS)[1]] == ["/players/0/cards"]
    spec["players"][0]["cards"] = []
    spec["players"][0]["hand"] = ["TIE Fighter"] * 31
    assert [p for p, _ in GAME.quick_log({**spec, "ask": "p1 pass"}, CARDS)[1]] == ["/players/0/hand"]


ATTACK = ("round 3\nphase battle\narena space\np1 Vera: dark, force 4, hand 0\np1 space TIE Interceptor\n"
          "p2 Luke: light, force 5, hand Second Wind; Evasive Maneuver\np2 space X-wing\np2 space Y-wing: tapped\n"
          "before p1 attack TIE Interceptor -> X-wing\n")


def test_a_step_before_the_asked_one_opens_the_attacks_chance_to_play() -> None:
    log, ruling = ruled(ATTACK + "ask p2 play Second Wind -> Y-wing\n"
                        "dispute May Luke untap his Y-wing while the Interceptor attacks?\n")
    position = log["setup"]["position"]
    assert position["wait"] == "chance" and position["chance"]["kind"] == "attack" and position["turn"] == "p2"
    assert position["attack"]["attacker"] == "p1.DS-TIEI" and position["attack"]["defender"] == "p2.LS-XW"
    assert log["meta"]["before"] == [{"by": "p1", "do": "attack", "card": "p1.DS-TIEI", "target": "p2.LS-XW"}]
    assert ruling["legal"] is False and ruling["violation"]["rule"] == "swtcg.timing.play-only-no-attack"
    _, power = ruled(ATTACK + "ask p2 play Evasive Maneuver -> X-wing option 0 rolling 2 2 2\n")
    assert power["legal"] is True and power["state"]["players"]["p2"]["force"] == 4
    _, prevent = ruled(ATTACK + "ask p2 play Evasive Maneuver -> X-wing option 1\n")
    assert prevent["legal"] is False and prevent["violation"]["rule"] == "swtcg.damage.prevent-when"


BUILD = ("phase build\nactive p1\np1 Vera: dark, force 4, build 3, hand TIE Fighter; TIE Fighter, deck 20\n"
         "p1 space TIE Fighter\np2 Luke: light, force 5, build 3, hand 0, deck 20\np2 space X-wing\n")


def test_a_card_a_step_before_builds_is_named_by_its_name_after() -> None:
    """``before p1 build 2 TIE Fighter`` puts a TIE Fighter from hand into the build zone (the one in
    space is no card to build); ``deploy TIE Fighter`` then names that card, not the hand's copy."""
    log, ruling = ruled(BUILD + "before p1 build 2 TIE Fighter\nask p1 deploy TIE Fighter\n")
    assert log["meta"]["before"][0]["card"] == "DS-TIE"  # from hand
    assert log["steps"][0]["card"] == "p1.DS-TIE.2"
    assert ruling["legal"] is True, ruling
    assert "p1.DS-TIE.2" in ruling["state"]["arenas"]["space"]
    # built a counter at a time: the second step adds to the card in the build zone; its number names it too
    for name in ("TIE Fighter", "TIE Fighter.2", "p1.TIE Fighter.2"):
        log, ruling = ruled(BUILD + f"before p1 build 1 TIE Fighter\nask p1 build 1 {name}\n")
        assert log["steps"][0]["card"] == "p1.DS-TIE.2" and ruling["legal"] is True, ruling
        assert ruling["state"]["build_zone"]["p1"]["p1.DS-TIE.2"]["counters"] == 2, ruling["state"]["build_zone"]


@pytest.mark.parametrize(("before", "where", "words"), [
    ("before p2 attack X-wing -> TIE Interceptor\n", "/before/1", "not legal there (swtcg.pop.dark-side-first)"),
    ("before p1 attack TIE Interceptor -> Y-wing rolling 6 6 6\n", "/before/1", "not legal there"),
    ("before p1 fly X-wing\n", "/before/1", "the verb is one of"),
    ("before p1 pass\n" * 4, "/before", "at most 4 steps"),
])
def test_a_step_before_that_cannot_be_taken_is_a_fault(before: str, where: str, words: str) -> None:
    faults = faults_of(ATTACK + before + "ask p2 pass\n")
    assert any(p == where and words in m for p, m in faults), faults
