"""Relic's quick position (judge.games.relic.quick): a table typed compactly (or sent as JSON) and
one disputed step, written into ``setup.position`` as ``from_position`` reads it and ruled on as
step 1; each fault with its pointer (``/lines/<n>`` in the text, into the JSON otherwise), and the
bounds faults, not crashes."""

from __future__ import annotations

from typing import Any

import pytest

from judge.games import registry
from replays.service import ruling_json, ruling_words_json

GAME = registry.get("relic")
CARDS = GAME.default_cards()
TABLE = "p1 Ana: Battle Sister\np2 Ben: Tech-Priest\n"


def logged(text: str) -> dict[str, Any]:
    spec, faults = GAME.quick_text(text)
    assert faults == []
    log, faults = GAME.quick_log(spec, CARDS)
    assert faults == [] and log is not None
    return log


def ruled(text: str) -> dict[str, Any]:
    ruling: dict[str, Any] = ruling_json(logged(text), 1)
    return ruling


def faults_of(text: str) -> list[tuple[str, str]]:
    spec, faults = GAME.quick_text(text)
    if faults:
        return faults
    log, faults = GAME.quick_log(spec, CARDS)
    assert log is None and faults
    return faults


@pytest.mark.rules("relic.dice.reroll", "relic.dice.exploding")
def test_the_example_rules_the_rerolled_six_explodes() -> None:
    log = logged(GAME.quick_example())
    position = log["setup"]["position"]
    p1 = position["players"]["p1"]
    assert p1["life"] == 4 and p1["influence"] == 2 and p1["strength"] == 4
    assert p1["assets"] == [{"ref": "p1.needle-rifle", "code": "needle-rifle", "charges": 1},
                            {"ref": "p1.auspex", "code": "auspex", "charges": 2}]  # relic.charges.initial
    assert p1["hand"] == [{"ref": "p1.divination", "code": "divination", "charges": 0}]
    assert p1["spent"] == ["p1.needle-rifle"]
    contest = position["contest"]
    assert contest["stage"] == "rolled" and contest["enemies"] == ["ork-nob"]
    assert contest["enemy_score"] == 1  # the Ork Nob's start-of-battle +1 (relic.timing.start)
    assert log["steps"] == [{"by": "p1", "do": "use", "card": "p1.auspex", "die": "d1", "roll": ["6", "3"],
                             "dispute": "Ana rerolls her 2 with the Auspex and gets a 6. Does it explode, and is "
                                        "she ahead?"}]
    result = ruling_words_json(log, 1)
    ruling = result["ruling"]
    assert ruling["legal"] is True
    rerolled, exploded = (e for e in ruling["events"] if e["event"] in ("die-rerolled", "die-exploded"))
    assert rerolled["was"] == 2 and rerolled["result"] == 6 and "relic.dice.reroll" in rerolled["rules"]
    assert exploded["parent"] == "d1" and exploded["result"] == 3 and "relic.dice.exploding" in exploded["rules"]
    view = ruling["state"]["contest"]
    assert view["player_score"] == 4 + 2 + 6 + 3 and view["against"] == 4 + 4 + 1 + 1  # the scenario's +1


@pytest.mark.rules("relic.base.battle", "relic.dice.exploding")
def test_a_battle_won_with_an_exploding_chain_makes_a_trophy() -> None:
    ruling = ruled(TABLE + "battle Ork Boy\ndice e1 3, d1 6, d2 6 from d1, d3 2 from d2\nask p1 resolve")
    resolved = next(e for e in ruling["events"] if e["event"] == "contest-resolved")
    assert (resolved["score"], resolved["against"], resolved["outcome"]) == (4 + 14, 3 + 3, "win")
    assert ruling["state"]["players"]["p1"]["trophies"] == ["ork-boy"]


@pytest.mark.rules("relic.base.skill")
def test_a_skill_test_of_all_ones_fails_even_at_the_target() -> None:
    ruling = ruled(TABLE + "test cunning 3\ndice d1 1\nask p1 resolve")
    resolved = next(e for e in ruling["events"] if e["event"] == "contest-resolved")
    assert (resolved["score"], resolved["against"], resolved["outcome"]) == (3, 3, "fail")
    assert resolved["rules"] == ["relic.base.skill"]


@pytest.mark.rules("relic.bonuses.skill-declare", "relic.bonuses.skill-colors")
def test_a_skill_bonus_declared_before_the_roll_and_after_it() -> None:
    text = TABLE + "p1 asset Purity Seal\ntest willpower 7\n{dice}ask p1 declare Purity Seal"
    before = ruled(text.format(dice=""))
    assert before["legal"] is True and before["state"]["contest"]["declared"][0]["value"] == 1
    after = ruled(text.format(dice="dice d1 3\n"))
    assert after["legal"] is False and after["violation"]["rule"] == "relic.bonuses.skill-declare"


@pytest.mark.rules("relic.charges.one-per-card-per-turn")
def test_the_seeds_needle_rifle_a_second_charge_in_one_turn() -> None:
    ruling = ruled(TABLE + "p1 asset Needle Rifle: 1 charge, spent\nbattle Ork Boy\nask p1 declare Needle Rifle")
    assert ruling["legal"] is False and ruling["violation"]["rule"] == "relic.charges.one-per-card-per-turn"


@pytest.mark.rules("relic.project.bonus-outlives-card")
def test_a_bonus_whose_last_charge_discarded_its_card_still_counts() -> None:
    log = logged(TABLE + "p1 discard pile: Needle Rifle\nbattle Ork Boy\ndeclared Needle Rifle\n"
                 "dice e1 2, d1 1\nask p1 resolve")
    assert log["setup"]["position"]["contest"]["declared"][0]["card"] == "p1.needle-rifle"
    resolved = next(e for e in ruling_json(log, 1)["events"] if e["event"] == "contest-resolved")
    assert (resolved["score"], resolved["against"], resolved["outcome"]) == (4 + 2 + 1, 3 + 2, "win")


@pytest.mark.rules("relic.base.battle", "relic.project.effect-uses-card")
def test_a_weapon_whose_effect_is_used_is_the_battles_one_weapon() -> None:
    arms = TABLE + ("p1 asset Needle Rifle\np1 asset Blessed Ammunition\np1 asset Carapace Armour\n"
                    "battle Plague Zombie\n")
    # a second weapon's effect after a weapon's bonus was declared
    second = ruled(arms + "declared Needle Rifle\ndice e1 5, d1 1\nask p1 use Blessed Ammunition on d1 rolling 4")
    assert second["legal"] is False and second["violation"]["rule"] == "relic.project.effect-uses-card"
    assert "Needle Rifle" in second["violation"]["message"]
    # a weapon's bonus declared after another weapon's effect was used in the battle
    after = ruled(arms + "used Blessed Ammunition\nask p1 declare Needle Rifle")
    assert after["legal"] is False and after["violation"]["rule"] == "relic.project.effect-uses-card"
    # armour is not a weapon; the same weapon's bonus and effect are one weapon
    assert ruled(arms + "used Blessed Ammunition\nask p1 declare Carapace Armour")["legal"] is True
    alone = ruled(arms + "dice e1 5, d1 1\nask p1 use Blessed Ammunition on d1 rolling 4")
    assert alone["legal"] is True and alone["state"]["contest"]["used"] == ["p1.blessed-ammunition"]
    # two weapons' bonuses: the base rule
    both = ruled(arms + "p1 asset Bolt Pistol\ndeclared Needle Rifle\nask p1 declare Bolt Pistol")
    assert both["legal"] is False and both["violation"]["rule"] == "relic.base.battle"


@pytest.mark.parametrize(("line", "words"), [
    ("used Carapace Armour", "has no asset"),
    ("used Auspex", "'used' lists the weapons and armour"),
])
def test_used_names_a_weapon_or_armour_held(line: str, words: str) -> None:
    faults = faults_of(TABLE + f"p1 asset Auspex\nbattle Ork Boy\n{line}\nask p1 roll 1 1")
    assert any(p == "/contest/used/0" and words in m for p, m in faults), faults


@pytest.mark.rules("relic.discard.experience-phase-only")
def test_a_discard_by_choice_in_the_experience_phase_only() -> None:
    text = TABLE + "phase {phase}\np1 asset Auspex\np1 asset Auspex: 1 charge\nask p1 discard Auspex#2"
    ok = ruled(text.format(phase="experience"))
    assert ok["legal"] is True and ok["state"]["players"]["p1"]["discard"] == ["auspex"]
    assert [a["ref"] for a in ok["state"]["players"]["p1"]["assets"]] == ["p1.auspex"]
    refused = ruled(text.format(phase="encounter"))
    assert refused["legal"] is False and refused["violation"]["rule"] == "relic.discard.experience-phase-only"


@pytest.mark.rules("relic.timing.active-player-orders", "relic.timing.start")
def test_two_start_of_battle_effects_in_the_order_chosen() -> None:
    text = TABLE + "ask p1 battle Ork Nob, Ork Boy\n"
    pending = ruled(text)
    assert pending["pending"]["kind"] == "order" and pending["pending"]["by"] == "p1"
    ordered = ruled(text + "choice order: Ork Boy, Ork Nob")
    assert ordered["legal"] is True and ordered["pending"] is None
    assert [e["card"] for e in ordered["events"] if e["event"] == "effect"] == ["ork-boy", "ork-nob"]
    assert ordered["state"]["players"]["p1"]["influence"] == 2 and ordered["state"]["contest"]["enemy_score"] == 1


@pytest.mark.rules("relic.discard.player-chooses")
def test_the_player_chooses_which_power_card_a_genestealer_discards() -> None:
    ruling = ruled(TABLE + "p1 hand: Divination, The Emperor's Grace\nask p1 battle Genestealer\n"
                   "choice discard: Divination")
    assert ruling["legal"] is True
    assert ruling["state"]["players"]["p1"]["discard"] == ["divination"]


@pytest.mark.rules("relic.scenario.confrontation")
def test_the_confrontation_from_the_scenario_space() -> None:
    text = "scenario The Warp Storm\np1 Ana: Battle Sister{at}\np2 Ben: Tech-Priest\nask p1 confront"
    ruling = ruled(text.format(at=", at scenario"))
    assert ruling["legal"] is True and ruling["state"]["contest"]["value"] == 12
    assert ruled(text.format(at=""))["violation"]["rule"] == "relic.scenario.confrontation"


def test_a_position_given_as_json_with_a_copy_and_a_sheet_written_out() -> None:
    spec = {"round": 2, "turn": "p2", "order": ["p2", "p1"],
            "players": [{"id": "p1", "character": "Battle Sister"},
                        {"id": "p2", "name": "Ben", "character": {"name": "Scout", "strength": 3, "willpower": 2,
                                                                  "cunning": 5, "life": 4},
                         "assets": ["Auspex", {"card": "auspex", "charges": 5}], "trophies": ["Ork Boy"]}],
            "contest": {"test": "cunning", "target": 9, "dice": [{"id": "d1", "rolls": [2, 4], "modifiers": [1]}]},
            "ask": "p2 use Auspex#2 on d1 rolling 6 6 1"}
    log, faults = GAME.quick_log(spec, CARDS)
    assert faults == [] and log is not None
    p2 = log["setup"]["position"]["players"]["p2"]
    assert [a["ref"] for a in p2["assets"]] == ["p2.auspex", "p2.auspex#2"] and p2["assets"][1]["charges"] == 5
    ruling = ruling_json(log, 1)
    assert ruling["legal"] is True and ruling["state"]["players"]["p2"]["assets"][1]["charges"] == 4
    assert ruling["state"]["contest"]["player_score"] == 5 + 6 + 1 + 6 + 1


@pytest.mark.parametrize(("text", "where", "words"), [
    ("round two", "/lines/1", "'round N': a whole number"),
    ("* whatever", "/lines/1", "a line starts with round"),
    ("whatever", "/lines/1", "cannot read 'whatever'"),
    ("p1 asset Auspex: ready", "/lines/1", "': N charges'"),
    ("p1 Ana: Battle Sister, luck 3", "/lines/1", "'strength N'"),
    ("p1 Ana", "/lines/1", "'PLAYER NAME: SHEET"),
    ("dice d1 7", "/lines/1", "cannot read the die 'd1 7'"),
    ("dice d1 6 from", "/lines/1", "cannot read the die"),
    ("test willpower", "/lines/1", "'test SKILL TARGET'"),
    ("confronted yes", "/lines/1", "'confronted' stands alone on its line"),
    ("confrontation now", "/lines/1", "'confrontation' stands alone on its line"),
    ("choice order", "/lines/1", "'choice KIND: ANSWER"),
    ("enemy score 99999999999999999999", "/lines/1", "a whole number"),
    ("p1 Ana: Battle Sisters\np2: Tech-Priest\nask p1 resolve", "/players/0/character", "no card is named"),
    (TABLE + "p1 asset Divination\nask p1 reach", "/players/0/assets/0", "is a Power card"),
    (TABLE + "p1 hand: Auspex\nask p1 reach", "/players/0/hand/0", "is not a Power card"),
    (TABLE + "p1 asset Ork Boy\nask p1 reach", "/players/0/assets/0", "is an enemy"),
    (TABLE + "p1 trophies: Auspex\nask p1 reach", "/players/0/trophies/0", "is not an enemy"),
    (TABLE + "p1 Ana: life 13\nask p1 reach", "/players/0/life", "relic.base.levels"),
    (TABLE + "p1 Ana: strength 0\nask p1 reach", "/players/0/strength", "from 1 to 12"),
    (TABLE + "p1 asset Auspex: 999 charges\nask p1 reach", "/players/0/assets/0/charges", "from 0 to 99"),
    (TABLE + "battle Ork Boy, Daemonette\nask p1 roll 1 1", "/contest/battle", "relic.base.threats"),
    (TABLE + "battle Auspex\nask p1 roll 1 1", "/contest/battle/0", "Auspex is not an enemy"),
    (TABLE + "battle Ork Boy\ntest strength 5\nask p1 roll 1 1", "/contest", "a contest is one of"),
    (TABLE + "phase movement\nbattle Ork Boy\nask p1 roll 1 1", "/phase", "Encounter phase"),
    (TABLE + "confrontation\nask p1 roll 1", "/contest/confrontation", "name the 'scenario'"),
    (TABLE + "battle Ork Boy\ndice d1 4\nask p1 resolve", "/contest/dice", "one enemy die, e1"),
    (TABLE + "test strength 5\ndice d1 4, e1 2\nask p1 resolve", "/contest/dice", "no enemy die"),
    (TABLE + "battle Ork Boy\ndice e1 3, d2 4\nask p1 resolve", "/contest/dice", "d1, d2..."),
    (TABLE + "battle Ork Boy\ndice e1 3, d1 6\nask p1 resolve", "/contest/dice/1", "relic.dice.exploding"),
    (TABLE + "battle Ork Boy\ndice e1 3, d1 4, d2 3 from d1\nask p1 resolve", "/contest/dice/2/parent",
     "does not show 6"),
    (TABLE + "battle Ork Boy\ndice e1 3, d1 4, d2 3 void\nask p1 resolve", "/contest/dice/2/void",
     "relic.project.reroll-voids-explosions"),
    (TABLE + "battle Ork Boy\nextra 1\ndice e1 3, d1 4\nask p1 resolve", "/contest/dice",
     "relic.dice.additional-simultaneous"),
    (TABLE + "battle Ork Boy\ndeclared Auspex\nask p1 roll 1 1", "/contest/declared/0", "no asset Auspex"),
    (TABLE + "p1 asset Purity Seal\nbattle Ork Boy\ndeclared Purity Seal\nask p1 roll 1 1", "/contest/declared/0",
     "does not count in a battle"),
    (TABLE + "p1 asset Needle Rifle\nbattle Ork Boy\ndeclared Needle Rifle bonus 1\nask p1 roll 1 1",
     "/contest/declared/0", "there is no bonus 1"),
    (TABLE + "ask p3 reach", "/ask", "the player who takes it"),
    (TABLE + "ask p1 fly", "/ask", "'do' must be one of"),
    (TABLE + "ask p1 use Nothing At All", "/ask", "no card is named"),
    (TABLE + "p1 asset Auspex\np1 asset Auspex\nask p1 use Auspex on d1", "/ask", "say which copy"),
    (TABLE + "ask p1 use Auspex on die one", "/ask", "'die' is a die's ID"),
    (TABLE + "ask p1 roll 7", "/ask", "faces 1 to 6"),
    (TABLE + "ask p1 test luck 5", "/ask", "'P test SKILL TARGET'"),
    (TABLE + "ask p1 resolve now", "/ask", "names nothing more"),
    (TABLE + "ask p1 battle", "/ask", "'P battle CARD, CARD'"),
    (TABLE, "/ask", "the step to rule on"),
    (TABLE + "ask p1 reach\nchoice order: Nobody", "/choices/0/answer/0", "no card is named"),
    ("p1 Ana: Battle Sister\nask p1 reach", "/players", "2 to 4 players"),
    (TABLE + "order p1 p3\nask p1 reach", "/order", "turn order"),
    (TABLE + "turn p9\nask p1 reach", "/turn", "one of p1, p2"),
    (TABLE + "phase lunch\nask p1 reach", "/phase", "'phase' is one of"),
    (TABLE + "scenario Nowhere\nask p1 reach", "/scenario", "no card is named"),
    (TABLE + "round 0\nask p1 reach", "/round", "from 1 to 10000"),
])
def test_faults_say_where_and_why(text: str, where: str, words: str) -> None:
    faults = faults_of(text)
    assert any(p == where and words in m for p, m in faults), faults


@pytest.mark.parametrize(("spec", "where"), [
    ([], ""),
    ({"players": "p1"}, "/players"),
    ({"players": [{"id": "p1", "character": "Battle Sister"}, {"id": "p1", "character": "Tech-Priest"}],
      "ask": "p1 reach"}, "/players/1/id"),
    ({"players": [{"id": 7}, {"id": "p2", "character": "Tech-Priest"}], "ask": "p2 reach"}, "/players/0/id"),
    ({"players": [{"id": "p1", "character": 3}, {"id": "p2", "character": "Tech-Priest"}], "ask": "p1 reach"},
     "/players/0/character"),
    ({"players": [{"id": "p1", "character": {"name": "X", "strength": 40}}, {"id": "p2", "character": "Tech-Priest"}],
      "ask": "p1 reach"}, "/players/0/character/strength"),
    ({"players": [{"id": "p1", "character": "Battle Sister", "assets": ["Auspex"] * 21},
                  {"id": "p2", "character": "Tech-Priest"}], "ask": "p1 reach"}, "/players/0/assets"),
    ({"players": [{"id": "p1", "character": "Battle Sister", "assets": [{"card": "Auspex", "spent": "yes"}]},
                  {"id": "p2", "character": "Tech-Priest"}], "ask": "p1 reach"}, "/players/0/assets/0/spent"),
    ({"players": [{"id": "p1", "character": "Battle Sister", "influence": 2 ** 70},
                  {"id": "p2", "character": "Tech-Priest"}], "ask": "p1 reach"}, "/players/0/influence"),
    ({"players": [{"id": "p1", "character": "Battle Sister"}, {"id": "p2", "character": "Tech-Priest"}],
      "contest": {"battle": ["Ork Boy"], "dice": [{"id": "d1", "rolls": [9]}]}, "ask": "p1 reach"},
     "/contest/dice/0"),
    ({"players": [{"id": "p1", "character": "Battle Sister"}, {"id": "p2", "character": "Tech-Priest"}],
      "contest": {"battle": ["Ork Boy"], "dice": [{"id": "d1", "rolls": [1] * 11}]}, "ask": "p1 reach"},
     "/contest/dice/0"),
    ({"players": [{"id": "p1", "character": "Battle Sister"}, {"id": "p2", "character": "Tech-Priest"}],
      "contest": {"battle": ["Ork Boy"], "dice": [{"id": "e1", "rolls": [2]}] * 61}, "ask": "p1 reach"},
     "/contest/dice"),
    ({"players": [{"id": "p1", "character": "Battle Sister"}, {"id": "p2", "character": "Tech-Priest"}],
      "contest": {"test": "luck", "target": 5}, "ask": "p1 reach"}, "/contest/test"),
    ({"players": [{"id": "p1", "character": "Battle Sister"}, {"id": "p2", "character": "Tech-Priest"}],
      "contest": {"test": "strength", "target": 5, "power": 7}, "ask": "p1 reach"}, "/contest/power"),
    ({"players": [{"id": "p1", "character": "Battle Sister"}, {"id": "p2", "character": "Tech-Priest"}],
      "ask": "p1 reach", "choices": [{"kind": "order", "answer": [3]}]}, "/choices/0"),
    ({"players": [{"id": "p1", "character": "Battle Sister"}, {"id": "p2", "character": "Tech-Priest"}],
      "ask": "p1 reach " + "x" * 400}, "/ask"),
])
def test_json_faults_point_into_the_spec(spec: Any, where: str) -> None:
    log, faults = GAME.quick_log(spec, CARDS)
    assert log is None and where in [p for p, _ in faults], faults


def test_bounds_are_faults_before_any_work() -> None:
    _, faults = GAME.quick_text("round 1\n" * 201)
    assert [p for p, _ in faults] == ["/lines"] and "at most 200 lines" in faults[0][1]
    _, faults = GAME.quick_text("dispute " + "x" * 401)
    assert [p for p, _ in faults] == ["/lines"]
    huge = TABLE + "p1 Ana: influence 999999\nbattle Ork Boy\nscore 999999\nask p1 reach"
    assert {p for p, _ in faults_of(huge)} == {"/players/0/influence", "/contest/score"}
    many = TABLE + "battle " + ", ".join(["Ork Boy"] * 21) + "\nask p1 reach"
    assert "/contest/battle" in [p for p, _ in faults_of(many)]


@pytest.mark.rules("relic.dice.modify", "relic.scenario.special-rules")
def test_the_docstrings_text_is_a_confrontation_that_rules() -> None:
    import textwrap

    from judge.games.relic import quick

    doc = quick.__doc__ or ""
    start = doc.index("::", doc.index("The compact text")) + 2
    log = logged(textwrap.dedent(doc[start:doc.index("A player's first fact")]))
    contest = log["setup"]["position"]["contest"]
    assert contest["confrontation"] is True and contest["kind"] == "test" and contest["value"] == 12
    ruling = ruling_json(log, 1)
    assert ruling["legal"] is True and ruling["state"]["contest"]["against"] == 12 + 1  # the Warp Storm's +1
    assert ruling["state"]["contest"]["player_score"] == 6 + 1 + 6 + 1 + 1


def test_a_step_is_summed_up_in_plain_words() -> None:
    from judge.games.relic import actions as ac
    from judge.games.relic.summary import summarize

    events = [{"event": "die-rerolled", "die": "d1", "was": 2, "result": 6, "score": 12},
              {"event": "die-exploded", "die": "d2", "parent": "d1", "result": 3, "side": "player", "score": 15}]
    assert summarize(ac.Use("p1", card="p1.auspex", die="d1"), events) == \
        "p1 uses p1.auspex on die d1: d1 rerolled 2 \u2192 6 (total 12), d2 explodes from d1: 3 (player total 15)"
    assert summarize(ac.Test("p1", skill="cunning", target=7), []) == "p1 takes a test of cunning, target 7"
    assert summarize(ac.Battle("p1", enemies=("ork-boy", "ork-nob")), []) == "p1 battles ork-boy and ork-nob"
    assert summarize(ac.Resolve("p1"), [{"event": "contest-resolved", "outcome": "win", "score": 9,
                                         "against": 7}]) == "p1 settles the battle or test: win, 9 against 7"
