"""Legacies events of the LEG-H and LEG-V starter sets."""

from __future__ import annotations

from typing import Any

import pytest

from judge.games.destiny.table import Table
from replays.service import ruling_json
from tests.judge.destiny.cards.helpers import char, choice, player, quick, run


def table(hand: list[str], pid: str = "p1", resources: int = 5) -> Table:
    """p1: Luke (blue, 2 dice) and Han (yellow); p2: Boba (yellow, 2 dice) and a Veteran Stormtrooper."""
    t = Table(turn=pid)
    t.character("p1", "05031", dice=2)
    t.character("p1", "05046")
    t.character("p2", "05019", dice=2)
    t.character("p2", "05013")
    t.set(pid, hand=hand, resources=resources)
    return t


def play(code: str, pid: str = "p1", *choices: dict[str, Any], **kw: Any) -> dict[str, Any]:
    step: dict[str, Any] = {"by": pid, "do": "play", "card": code, **kw}
    if choices:
        step["choices"] = list(choices)
    return step



# ---------------------------------------------------------------------- Battle Fatigue / Crackdown
@pytest.mark.rules("destiny.terms.play-restrictions")
@pytest.mark.parametrize("code", ["05084", "05136"])
def test_damaged_team_restriction(code: str) -> None:
    t = table([code])
    t.player("p2")["characters"]["p2.05019"]["damage"] = 1
    r = run(t, play(code))
    assert r["error"]["rule"] == "destiny.terms.play-restrictions"
    assert player(r, "p1")["hand"] == 1


@pytest.mark.rules("destiny.terms.remove-die", "destiny.terms.play-restrictions")
def test_battle_fatigue_removes_an_opponents_die() -> None:
    t = table(["05084"]).pool("p2", {"p2.05019/1": "2RD", "p2.05013/1": "3ID"})
    for ref in ("p2.05019", "p2.05013"):
        t.player("p2")["characters"][ref]["damage"] = 1
    r = run(t, play("05084", "p1", choice("p1", "die", "p2.05013/1")))
    assert r["error"] is None
    assert player(r, "p2")["pool"] == {"p2.05019/1": "2RD"}
    assert player(r, "p1")["discard"] == ["05084"]
    assert player(r, "p1")["resources"] == 4


@pytest.mark.rules("destiny.resources.currency", "destiny.terms.play-restrictions")
def test_crackdown_gains_a_resource() -> None:
    t = table(["05136"])
    for ref in ("p2.05019", "p2.05013"):
        t.player("p2")["characters"][ref]["damage"] = 2
    r = run(t, play("05136"))
    assert r["error"] is None
    assert player(r, "p1")["resources"] == 6


# ---------------------------------------------------------------------- Imperial Might / Impulsive
@pytest.mark.rules("destiny.dice.resolve-via-card", "destiny.terms.increase")
def test_imperial_might_resolves_a_die_two_higher() -> None:
    t = table(["05086"]).pool("p1", {"p1.05031/1": "2RD"})
    r = run(t, play("05086", dice=[{"die": "p1.05031/1", "target": "p2.05019"}]))
    assert r["error"] is None
    assert char(r, "p2.05019")["damage"] == 4
    assert player(r, "p1")["resources"] == 3
    assert player(r, "p1")["pool"] == {}


@pytest.mark.rules("destiny.dice.resolve-via-card")
def test_imperial_might_resolves_only_one_die() -> None:
    t = table(["05086"]).pool("p1", {"p1.05031/1": "2RD", "p1.05031/2": "1RD"})
    dice = [{"die": "p1.05031/1", "target": "p2.05019"}, {"die": "p1.05031/2", "target": "p2.05019"}]
    assert run(t, play("05086", dice=dice))["error"]["rule"] == "destiny.dice.resolve-via-card"


@pytest.mark.rules("destiny.dice.resolve-via-card", "destiny.keywords.ambush")
def test_impulsive_resolves_a_die_and_grants_an_extra_action() -> None:
    t = table(["05119"]).pool("p1", {"p1.05046/1": "1R"})
    r = run(t, play("05119", dice=[{"die": "p1.05046/1"}]))
    assert r["error"] is None
    assert player(r, "p1")["resources"] == 6
    assert r["final_state"]["extra_action"] == "p1"


NO_DIE_TO_RESOLVE = [
    # a blank; a modifier, which never resolves alone; a face whose cost cannot be paid
    "p1 character Veteran Stormtrooper: 1 die, exhausted\np1 die Veteran Stormtrooper/1: -",
    "p1 character Veteran Stormtrooper: 1 die, exhausted\np1 upgrade Hidden Blaster on Veteran Stormtrooper\n"
    "p1 die Hidden Blaster/1: +2RD",
    "p1 character First Order Stormtrooper: 1 die, exhausted\np1 die First Order Stormtrooper/1: 2RD1",
]


@pytest.mark.rules("destiny.events.no-effect-allowed", "destiny.terms.choose-target")
@pytest.mark.parametrize(("event", "resources"), [("Impulsive", 0), ("Imperial Might", 2)])
@pytest.mark.parametrize("pool", NO_DIE_TO_RESOLVE, ids=["blank", "modifier", "unpayable"])
def test_resolving_one_of_your_dice_with_none_resolvable_is_legal_and_does_nothing(
    event: str, resources: int, pool: str
) -> None:
    # the event's die is a target, not a resolve-dice action: destiny.actions.resolve-at-least-one
    # does not refuse it; with no die it could resolve, it does nothing
    log = quick(f"turn p1\np1 Ana: resources {resources}, hand {event}, deck 10\n{pool}\n"
                f"p2 Ben: hand 3, deck 12\np2 character Luke Skywalker: 2 dice\nask p1 play {event}")
    before = log["setup"]["position"]["players"]["p1"]["pool"]
    ruling = ruling_json(log, 1)
    assert ruling["legal"] is True and ruling["violation"] is None and ruling["pending"] is None
    assert {"event": "no-effect", "source": f"p1.{'05119' if event == 'Impulsive' else '05086'}",
            "why": "none of your dice can be resolved",
            "rules": ["destiny.events.no-effect-allowed", "destiny.terms.choose-target"]} in ruling["events"]
    assert "destiny.events.no-effect-allowed" in ruling["rules_cited"]
    assert "destiny.actions.resolve-at-least-one" not in ruling["rules_cited"]
    p1 = ruling["state"]["players"]["p1"]
    assert p1["pool"] == before and p1["resources"] == 0 and p1["hand"] == 0
    assert p1["discard"] == ["05119" if event == "Impulsive" else "05086"]
    assert ruling["state"]["players"]["p2"]["characters"]["p2.05031"]["damage"] == 0


@pytest.mark.rules("destiny.events.no-effect-allowed")
@pytest.mark.parametrize(("event", "resources"), [("Impulsive", 0), ("Imperial Might", 2)])
def test_resolving_one_of_your_dice_with_an_empty_pool_says_it_does_nothing(event: str, resources: int) -> None:
    log = quick(f"turn p1\np1 Ana: resources {resources}, hand {event}, deck 10\n"
                f"p1 character First Order Stormtrooper: 1 die\n"
                f"p2 Ben: hand 3, deck 12\np2 character Luke Skywalker: 2 dice\nask p1 play {event}")
    ruling = ruling_json(log, 1)
    assert ruling["legal"] is True and not ruling["state"]["players"]["p1"]["pool"]
    assert [e["why"] for e in ruling["events"] if e["event"] == "no-effect"] == ["you have no dice in your pool"]


@pytest.mark.rules("destiny.dice.resolve-via-card", "destiny.dice.face-cost")
def test_resolving_one_of_your_dice_still_needs_the_die_named_when_one_can_be_resolved() -> None:
    text = ("turn p1\np1 Ana: resources {r}, hand Impulsive, deck 10\n"
            "p1 character First Order Stormtrooper: 1 die, exhausted\np1 die First Order Stormtrooper/1: 2RD1\n"
            "p2 Ben: hand 3, deck 12\np2 character Luke Skywalker: 2 dice\nask p1 play Impulsive")
    # the cost can be paid: the die can be resolved, and the log must name it
    ruling = ruling_json(quick(text.format(r=1)), 1)
    assert ruling["legal"] is False and ruling["violation"]["rule"] == "destiny.actions.resolve-at-least-one"
    log = quick(text.format(r=1))
    log["steps"][0]["dice"] = [{"die": "p1.01002/1", "target": "p2.05031"}]
    ruling = ruling_json(log, 1)
    assert ruling["legal"] is True and ruling["pending"] is None
    assert ruling["state"]["players"]["p2"]["characters"]["p2.05031"]["damage"] == 2
    assert ruling["state"]["players"]["p1"]["resources"] == 0
    # it cannot be paid: a die named is refused for its cost
    log = quick(text.format(r=0))
    log["steps"][0]["dice"] = [{"die": "p1.01002/1", "target": "p2.05031"}]
    assert ruling_json(log, 1)["violation"]["rule"] == "destiny.dice.face-cost"


# ---------------------------------------------------------------------- Rumors
@pytest.mark.rules("destiny.zones.opponent-hand", "destiny.terms.look-at")
def test_rumors_opponent_keeps_one_you_discard_another() -> None:
    t = table(["05096"]).set("p2", hand=["05116", "05119", "05121"])
    ruling = ruling_json(t.log([play("05096")]))
    assert ruling["pending"]["by"] == "p2"
    assert ruling["pending"]["kind"] == "card"
    r = run(t, play("05096", "p1", choice("p2", "card", "05116"), choice("p1", "card", "05121")))
    assert r["error"] is None
    assert player(r, "p2")["discard"] == ["05121"]
    assert player(r, "p2")["hand"] == 2


@pytest.mark.rules("destiny.zones.opponent-hand")
def test_rumors_cannot_discard_the_kept_card() -> None:
    t = table(["05096"]).set("p2", hand=["05116", "05119", "05121"])
    r = run(t, play("05096", "p1", choice("p2", "card", "05116"), choice("p1", "card", "05116")))
    assert r["error"]["kind"] == "illegal-action"
    assert player(r, "p2")["discard"] == []


RUMORS = ("turn p1\np1 Ana: resources 2, hand Rumors, deck 10\np1 character Boba Fett: 2 dice\n"
          "p2 Ben: resources 2, hand {hand}, deck 12\np2 character Luke Skywalker: 2 dice\nask p1 play Rumors")


@pytest.mark.rules("destiny.terms.look-at", "destiny.zones.opponent-hand")
@pytest.mark.parametrize("hand", ["3", "2"])
def test_rumors_on_a_hand_the_position_does_not_name_gives_no_ruling(hand: str) -> None:
    # the card kept and the card discarded depend on the cards there: no unnamed card is discarded
    ruling = ruling_json(quick(RUMORS.format(hand=hand)), 1)
    assert ruling["legal"] is None and ruling["pending"] is None
    assert ruling["error"]["kind"] == "missing-outcome"
    assert ruling["error"]["rule"] == "destiny.terms.look-at"
    assert ruling["error"]["message"] == ("p2's hand holds a card the position does not name, and what Rumors "
                                          "does depends on it: list the cards in the position")
    assert not [e for e in ruling["events"] if e["event"] == "discard"]
    assert ruling["state"]["players"]["p2"]["discard"] == []


@pytest.mark.rules("destiny.zones.opponent-hand")
def test_rumors_on_a_single_unnamed_card_keeps_it_and_discards_nothing() -> None:
    ruling = ruling_json(quick(RUMORS.format(hand="1")), 1)
    assert ruling["legal"] is True
    p2 = ruling["state"]["players"]["p2"]
    assert p2["hand"] == 1 and p2["discard"] == []


@pytest.mark.rules("destiny.zones.opponent-hand", "destiny.terms.look-at")
def test_rumors_on_a_listed_hand_asks_the_opponent_then_discards() -> None:
    log = quick(RUMORS.format(hand="Alter; Bravado; Alter"))
    ruling = ruling_json(log, 1)
    assert "error" not in ruling
    assert (ruling["pending"]["by"], ruling["pending"]["options"]) == ("p2", ["05125", "05116"])  # Alter, Bravado
    log["steps"][0]["choices"] = [choice("p2", "card", "05125"), choice("p1", "card", "05116")]
    ruling = ruling_json(log, 1)
    assert ruling["legal"] is True
    assert ruling["state"]["players"]["p2"]["discard"] == ["05116"]


# ---------------------------------------------------------------------- Subdue
@pytest.mark.rules("destiny.terms.remove-die")
def test_subdue_removes_a_die_of_a_badly_hurt_character() -> None:
    t = table(["05097"]).pool("p2", {"p2.05019/1": "2RD", "p2.05019/2": "Sp", "p2.05013/1": "3ID"})
    t.player("p2")["characters"]["p2.05019"]["damage"] = 3
    t.player("p2")["characters"]["p2.05013"]["damage"] = 2
    r = run(t, play("05097", "p1", choice("p1", "die", "p2.05019/2")))
    assert r["error"] is None
    assert player(r, "p2")["pool"] == {"p2.05019/1": "2RD", "p2.05013/1": "3ID"}


@pytest.mark.rules("destiny.events.no-effect-allowed")
def test_subdue_without_a_hurt_character_does_nothing() -> None:
    t = table(["05097"]).pool("p2", {"p2.05019/1": "2RD"})
    r = run(t, play("05097"))
    assert r["error"] is None
    assert player(r, "p2")["pool"] == {"p2.05019/1": "2RD"}
    assert player(r, "p1")["discard"] == ["05097"]


# ---------------------------------------------------------------------- Take Flight
@pytest.mark.rules("destiny.keywords.ambush", "destiny.cards.colors")
def test_take_flight_rerolls_yellow_dice_only() -> None:
    t = table(["05098"]).pool("p1", {"p1.05046/1": "-", "p1.05031/1": "-"})
    r = run(t, play("05098", "p1", choice("p1", "dice", ["p1.05046/1"]), roll=["2RD1"]))
    assert r["error"] is None
    assert player(r, "p1")["pool"] == {"p1.05046/1": "2RD1", "p1.05031/1": "-"}
    assert r["final_state"]["extra_action"] == "p1"
    bad = run(t, play("05098", "p1", choice("p1", "dice", ["p1.05031/1"]), roll=["2RD"]))
    assert bad["error"]["kind"] == "illegal-action"


# ---------------------------------------------------------------------- Heightened Awareness
@pytest.mark.rules("destiny.symbols.shield", "destiny.shields.max-three", "destiny.keywords.ambush")
def test_heightened_awareness_gives_three_shields() -> None:
    t = table(["05102"])
    t.player("p1")["characters"]["p1.05031"]["shields"] = 1
    r = run(t, play("05102", target="p1.05031"))
    assert r["error"] is None
    assert char(r, "p1.05031")["shields"] == 3
    assert r["final_state"]["extra_action"] == "p1"
    ruling = ruling_json(t.log([play("05102")]))
    assert ruling["pending"]["by"] == "p1"
    assert ruling["pending"]["kind"] == "target"


# ---------------------------------------------------------------------- Bravado
@pytest.mark.rules("destiny.terms.spot", "destiny.terms.remove-die", "destiny.then.requires-full-resolution")
def test_bravado_removes_a_die_then_deals_two() -> None:
    t = table(["05116"]).pool("p2", {"p2.05019/1": "2RD", "p2.05013/1": "3ID"})
    r = run(t, play("05116", "p1", choice("p1", "die", "p2.05013/1"), choice("p1", "target", "p2.05019")))
    assert r["error"] is None
    assert player(r, "p2")["pool"] == {"p2.05019/1": "2RD"}
    assert char(r, "p2.05019")["damage"] == 2
    assert player(r, "p1")["resources"] == 2


@pytest.mark.rules("destiny.terms.spot-own-only", "destiny.events.no-effect-allowed")
def test_bravado_without_a_yellow_character_does_nothing() -> None:
    t = Table()
    t.character("p1", "05031", dice=2)
    t.character("p2", "05019", dice=2)
    t.set("p1", hand=["05116"], resources=3).pool("p2", {"p2.05019/1": "2RD"})
    r = run(t, play("05116"))
    assert r["error"] is None
    assert player(r, "p2")["pool"] == {"p2.05019/1": "2RD"}
    assert char(r, "p2.05019")["damage"] == 0
    assert player(r, "p1")["resources"] == 0


@pytest.mark.rules("destiny.then.requires-full-resolution")
def test_bravado_deals_nothing_when_no_die_was_removed() -> None:
    r = run(table(["05116"]), play("05116"))
    assert r["error"] is None
    assert char(r, "p2.05019")["damage"] == 0


# ---------------------------------------------------------------------- Smuggler's Run
@pytest.mark.rules("destiny.actions.activate", "destiny.symbols.resource")
@pytest.mark.parametrize(("face", "resources"), [("1R", 6), ("+1R", 6), ("2RD", 5)])
def test_smugglers_run_activates_and_pays_for_a_resource_roll(face: str, resources: int) -> None:
    t = table(["05121"])
    r = run(t, play("05121", "p1", choice("p1", "may", False), target="p1.05046", roll=[face]))
    assert r["error"] is None
    assert char(r, "p1.05046")["exhausted"] is True
    assert player(r, "p1")["pool"] == {"p1.05046/1": face}
    assert player(r, "p1")["resources"] == resources


@pytest.mark.rules("destiny.actions.activate")
def test_smugglers_run_needs_a_yellow_character() -> None:
    t = table(["05121"])
    r = run(t, play("05121", target="p1.05031", roll=["1R", "1R"]))
    assert r["error"]["kind"] == "illegal-action"


# ---------------------------------------------------------------------- Alter
@pytest.mark.rules("destiny.terms.turn-die")
def test_alter_turns_two_dice_of_any_player() -> None:
    t = table(["05125"]).pool("p1", {"p1.05031/1": "1R"}).pool("p2", {"p2.05019/1": "2RD"})
    turn = {"p2.05019/1": "-", "p1.05031/1": "2RD"}
    r = run(t, play("05125", "p1", choice("p1", "turn", turn)))
    assert r["error"] is None
    assert player(r, "p1")["pool"] == {"p1.05031/1": "2RD"}
    assert player(r, "p2")["pool"] == {"p2.05019/1": "-"}


@pytest.mark.rules("destiny.terms.turn-die")
def test_alter_turns_at_most_two() -> None:
    t = (
        table(["05125"])
        .pool("p1", {"p1.05031/1": "1R", "p1.05031/2": "1R"})
        .pool("p2", {"p2.05019/1": "2RD"})
    )
    turn = {"p2.05019/1": "-", "p1.05031/1": "2RD", "p1.05031/2": "2RD"}
    assert (
        run(t, play("05125", "p1", choice("p1", "turn", turn)))["error"]["rule"] == "destiny.terms.turn-die"
    )


# ---------------------------------------------------------------------- Invigorate
@pytest.mark.rules("destiny.terms.spot", "destiny.terms.heal")
def test_invigorate_heals_each_of_your_characters() -> None:
    t = table(["05128"])
    t.player("p1")["characters"]["p1.05031"]["damage"] = 2
    t.player("p1")["characters"]["p1.05046"]["damage"] = 1
    t.player("p2")["characters"]["p2.05019"]["damage"] = 2
    r = run(t, play("05128"))
    assert r["error"] is None
    assert (char(r, "p1.05031")["damage"], char(r, "p1.05046")["damage"]) == (1, 0)
    assert char(r, "p2.05019")["damage"] == 2


@pytest.mark.rules("destiny.terms.spot-own-only")
def test_invigorate_needs_your_own_blue_character() -> None:
    t = table(["05128"], pid="p2")
    t.player("p2")["characters"]["p2.05019"]["damage"] = 2
    r = run(t, play("05128", "p2"))
    assert r["error"] is None
    assert char(r, "p2.05019")["damage"] == 2


# ---------------------------------------------------------------------- Mislead / The Force Is With Me
@pytest.mark.rules("destiny.terms.remove-die", "destiny.terms.character-die", "destiny.dice.value")
def test_mislead_removes_a_low_character_die() -> None:
    t = table(["05130"]).pool("p2", {"p2.05019/1": "2RD", "p2.05013/1": "3ID"})
    r = run(t, play("05130", target="p2.05019/1"))
    assert r["error"] is None
    assert player(r, "p2")["pool"] == {"p2.05013/1": "3ID"}
    bad = run(t, play("05130", target="p2.05013/1"))
    assert bad["error"]["rule"] == "destiny.terms.remove-die"


@pytest.mark.rules("destiny.terms.character-die")
def test_mislead_ignores_upgrade_dice() -> None:
    t = table(["05130"]).pool("p2", {"p2.05073#1/1": "1RD"})
    t.player("p2")["characters"]["p2.05019"]["upgrades"] = ["p2.05073#1"]
    bad = run(t, play("05130", target="p2.05073#1/1"))
    assert bad["error"]["rule"] == "destiny.terms.remove-die"


@pytest.mark.rules("destiny.terms.remove-die", "destiny.terms.showing-modifier-faces")
def test_force_is_with_me_removes_ranged_or_indirect() -> None:
    t = table(["05133"]).pool("p2", {"p2.05019/1": "2MD", "p2.05013/1": "3ID"})
    r = run(t, play("05133"))
    assert r["error"] is None
    assert player(r, "p2")["pool"] == {"p2.05019/1": "2MD"}


# ---------------------------------------------------------------------- Crash Landing
@pytest.mark.rules("destiny.terms.remove-die", "destiny.symbols.indirect")
def test_crash_landing_removes_damage_and_hurts_yourself() -> None:
    t = table(["05137"]).pool("p2", {"p2.05019/1": "2RD"})
    r = run(t, play("05137", "p1", choice("p1", "split", {"p1.05046": 2})))
    assert r["error"] is None
    assert player(r, "p2")["pool"] == {}
    assert char(r, "p1.05046")["damage"] == 2
    ruling = ruling_json(t.log([play("05137")]))
    assert ruling["pending"]["by"] == "p1"
    assert ruling["pending"]["kind"] == "split"


# ---------------------------------------------------------------------- Locked and Loaded
@pytest.mark.rules("destiny.terms.spot", "destiny.terms.turn-die")
def test_locked_and_loaded_turns_dice_to_indirect() -> None:
    t = table(["05139"], pid="p2").pool("p2", {"p2.05013/1": "1RD", "p2.05019/1": "-"})
    r = run(t, play("05139", "p2", choice("p2", "turn", {"p2.05013/1": "3ID"})))
    assert r["error"] is None
    assert player(r, "p2")["pool"] == {"p2.05013/1": "3ID", "p2.05019/1": "-"}
    bad = run(t, play("05139", "p2", choice("p2", "turn", {"p2.05019/1": "2RD"})))
    assert bad["error"]["rule"] == "destiny.terms.turn-die"


@pytest.mark.rules("destiny.terms.spot-own-only")
def test_locked_and_loaded_without_red_does_nothing() -> None:
    t = table(["05139"]).pool("p1", {"p1.05031/1": "1R"})
    r = run(t, play("05139"))
    assert r["error"] is None
    assert player(r, "p1")["pool"] == {"p1.05031/1": "1R"}


# ---------------------------------------------------------------------- Superior Position
@pytest.mark.rules("destiny.terms.play-restrictions", "destiny.battlefields.single-controller")
def test_superior_position_only_while_controlling_the_battlefield() -> None:
    t = table(["05143"], pid="p2").pool("p1", {"p1.05031/1": "2RD"})
    assert run(t, play("05143", "p2"))["error"]["rule"] == "destiny.terms.play-restrictions"
    t = table(["05143"]).pool("p2", {"p2.05019/1": "2RD"})
    r = run(t, play("05143"))
    assert r["error"] is None
    assert player(r, "p2")["pool"] == {}


# ---------------------------------------------------------------------- Bamboozle
@pytest.mark.rules("destiny.symbols.blank", "destiny.resources.never-negative")
@pytest.mark.parametrize(("face", "mine", "theirs"), [("-", 6, 1), ("1R", 5, 2)])
def test_bamboozle_takes_a_resource_on_a_blank(face: str, mine: int, theirs: int) -> None:
    t = table(["05147"]).pool("p2", {"p2.05019/1": "2RD"})
    r = run(t, play("05147", roll=[face]))
    assert r["error"] is None
    assert player(r, "p2")["pool"] == {"p2.05019/1": face}
    assert (player(r, "p1")["resources"], player(r, "p2")["resources"]) == (mine, theirs)


@pytest.mark.rules("destiny.resources.never-negative")
def test_bamboozle_takes_nothing_from_an_empty_pool_of_resources() -> None:
    t = table(["05147"]).pool("p2", {"p2.05019/1": "2RD"}).set("p2", resources=0)
    r = run(t, play("05147", roll=["-"]))
    assert (player(r, "p1")["resources"], player(r, "p2")["resources"]) == (5, 0)


# ---------------------------------------------------------------------- Dangerous Maneuver
@pytest.mark.rules("destiny.terms.heal", "destiny.symbols.indirect")
def test_dangerous_maneuver_heals_two_then_takes_two_indirect() -> None:
    t = table(["05150"])
    t.player("p1")["characters"]["p1.05031"]["damage"] = 3
    r = run(t, play("05150", "p1", choice("p1", "split", {"p1.05046": 2}), target="p1.05031"))
    assert r["error"] is None
    assert char(r, "p1.05031")["damage"] == 1
    assert char(r, "p1.05046")["damage"] == 2


@pytest.mark.rules("destiny.terms.choose-target")
def test_dangerous_maneuver_heals_only_your_characters() -> None:
    t = table(["05150"])
    assert run(t, play("05150", target="p2.05019"))["error"]["rule"] == "destiny.terms.choose-target"


# ---------------------------------------------------------------------- Entangle
@pytest.mark.rules("destiny.terms.spot", "destiny.terms.total-value", "destiny.terms.remove-die")
def test_entangle_removes_dice_worth_three_or_less() -> None:
    t = table(["05151"]).pool("p2", {"p2.05019/1": "2RD", "p2.05013/1": "1RD", "p2.05019/2": "2MD"})
    r = run(t, play("05151", "p1", choice("p1", "dice", ["p2.05019/1", "p2.05013/1"])))
    assert r["error"] is None
    assert player(r, "p2")["pool"] == {"p2.05019/2": "2MD"}
    bad = run(t, play("05151", "p1", choice("p1", "dice", ["p2.05019/1", "p2.05019/2"])))
    assert bad["error"]["rule"] == "destiny.terms.total-value"


# ---------------------------------------------------------------------- Face-Off
@pytest.mark.rules("destiny.terms.character-die", "destiny.dice.value")
@pytest.mark.parametrize(
    ("roll", "luke", "boba"), [(["2RD", "1R"], 0, 2), (["1R", "1R"], 2, 2), (["-", "Sp"], 2, 2)]
)
def test_face_off_hurts_the_lowest_roll(roll: list[str], luke: int, boba: int) -> None:
    t = table(["05152"]).pool("p1", {"p1.05031/1": "1R"}).pool("p2", {"p2.05019/1": "2RD"})
    r = run(t, play("05152", roll=roll))
    assert r["error"] is None
    assert player(r, "p1")["pool"] == {"p1.05031/1": roll[0]}
    assert (char(r, "p1.05031")["damage"], char(r, "p2.05019")["damage"]) == (luke, boba)


@pytest.mark.rules("destiny.terms.character-die")
def test_face_off_asks_which_of_your_character_dice() -> None:
    t = (
        table(["05152"])
        .pool("p1", {"p1.05031/1": "1R", "p1.05046/1": "1R"})
        .pool("p2", {"p2.05019/1": "2RD"})
    )
    ruling = ruling_json(t.log([play("05152", roll=["1R", "1R"])]))
    assert ruling["pending"]["by"] == "p1"
    assert ruling["pending"]["options"] == ["p1.05031/1", "p1.05046/1"]


# ---------------------------------------------------------------------- Hasty Exit
@pytest.mark.rules("destiny.battlefields.single-controller", "destiny.terms.remove-die")
def test_hasty_exit_hands_over_the_battlefield_to_remove_damage() -> None:
    t = table(["05153"]).pool("p2", {"p2.05019/1": "2RD", "p2.05013/1": "1R"})
    r = run(t, play("05153"))
    assert r["error"] is None
    assert r["final_state"]["battlefield"]["controller"] == "p2"
    assert player(r, "p2")["pool"] == {"p2.05013/1": "1R"}


@pytest.mark.rules("destiny.battlefields.single-controller", "destiny.events.no-effect-allowed")
def test_hasty_exit_without_the_battlefield_does_nothing() -> None:
    t = table(["05153"], pid="p2").pool("p1", {"p1.05031/1": "2RD"})
    r = run(t, play("05153", "p2"))
    assert r["error"] is None
    assert r["final_state"]["battlefield"]["controller"] == "p1"
    assert player(r, "p1")["pool"] == {"p1.05031/1": "2RD"}


# ---------------------------------------------------------------------- Quick Draw
@pytest.mark.rules(
    "destiny.actions.play-card-sequence", "destiny.upgrades.attach", "destiny.actions.activate"
)
def test_quick_draw_plays_a_weapon_and_activates_its_character() -> None:
    t = table(["05155", "05073", "05102"])
    step = play(
        "05155",
        "p1",
        choice("p1", "target", "p1.05046"),
        choice("p1", "may", True),
        choice("p1", "may", False),
        roll=["1R", "1RD"],
    )
    r = run(t, step)
    assert r["error"] is None
    p1 = player(r, "p1")
    assert p1["characters"]["p1.05046"]["upgrades"] == ["p1.05073#1"]
    assert p1["characters"]["p1.05046"]["exhausted"] is True
    assert p1["pool"] == {"p1.05046/1": "1R", "p1.05073#1/1": "1RD"}
    assert p1["resources"] == 4
    assert p1["hand"] == 1


@pytest.mark.rules("destiny.terms.play-restrictions")
def test_quick_draw_keeps_the_weapons_restriction() -> None:
    t = table(["05155", "05027"])
    r = run(t, play("05155", "p1", choice("p1", "target", "p1.05031")))
    assert r["error"]["rule"] == "destiny.terms.play-restrictions"


@pytest.mark.rules("destiny.keywords.ambush")
def test_quick_draw_with_an_ambush_weapon_gives_the_extra_action() -> None:
    t = table(["05155", "05072"])
    r = run(
        t,
        play(
            "05155",
            "p1",
            choice("p1", "target", "p1.05046"),
            choice("p1", "may", False),
            choice("p1", "may", False),
        ),
    )
    assert r["error"] is None
    assert r["final_state"]["extra_action"] == "p1"
    assert player(r, "p1")["characters"]["p1.05046"]["upgrades"] == ["p1.05072#1"]


QUICK_DRAW = ("turn p1\np1 Ana: resources {r}, hand Quick Draw; {weapons}, deck 10\n"
              "p1 character Luke Skywalker: 2 dice\n"
              "p2 Ben: resources 2, hand 3, deck 12\np2 character Boba Fett: 2 dice\nask p1 play Quick Draw")


@pytest.mark.rules("destiny.events.no-effect-allowed", "destiny.terms.choose-target", "destiny.cards.cost",
                   "destiny.terms.play-restrictions")
@pytest.mark.parametrize(("r", "weapon", "code"), [(0, "Lightsaber", "01059"), (2, "Lightsaber", "01059"),
                                                   (5, "Wrist Rockets", "05027")])
def test_quick_draw_with_no_weapon_it_can_play_is_legal_and_does_nothing(r: int, weapon: str, code: str) -> None:
    # Lightsaber costs 3 (not payable); Wrist Rockets goes only on a yellow character (Luke is blue)
    ruling = ruling_json(quick(QUICK_DRAW.format(r=r, weapons=weapon)), 1)
    assert ruling["legal"] is True and ruling["violation"] is None and ruling["pending"] is None
    assert {"event": "no-effect", "source": "p1.05155", "why": "no weapon in hand can be played",
            "rules": ["destiny.events.no-effect-allowed", "destiny.terms.choose-target"]} in ruling["events"]
    assert "destiny.events.no-effect-allowed" in ruling["rules_cited"]
    p1 = ruling["state"]["players"]["p1"]
    assert p1["hand"] == 1 and p1["discard"] == ["05155"] and p1["resources"] == r
    assert p1["upgrades"] == {} and p1["characters"]["p1.05031"]["exhausted"] is False
    assert code not in p1["discard"]


@pytest.mark.rules("destiny.terms.choose-target", "destiny.actions.play-card-sequence")
def test_quick_draw_offers_only_the_weapons_it_can_play() -> None:
    # with 3 resources: Lightsaber (3) and Hunting Rifle (1), not Wrist Rockets (yellow characters only)
    text = QUICK_DRAW.format(r=3, weapons="Lightsaber; Wrist Rockets; Hunting Rifle")
    ruling = ruling_json(quick(text), 1)
    assert "error" not in ruling
    assert (ruling["pending"]["kind"], ruling["pending"]["options"]) == ("card", ["01059", "05073"])
    refused = ruling_json(quick(text, choice("p1", "card", "05027")), 1)
    assert refused["legal"] is False
    assert refused["violation"]["rule"] == "destiny.actions.play-card-sequence"
    played = ruling_json(quick(text, choice("p1", "card", "05073"), choice("p1", "may", False)), 1)
    assert played["legal"] is True and played["pending"] is None
    p1 = played["state"]["players"]["p1"]
    assert p1["characters"]["p1.05031"]["upgrades"] == ["p1.05073#1"] and p1["resources"] == 2
    # with 1 resource only Hunting Rifle can be played: it is taken without asking
    played = ruling_json(quick(QUICK_DRAW.format(r=1, weapons="Lightsaber; Hunting Rifle"),
                               choice("p1", "may", False)), 1)
    assert played["legal"] is True and played["pending"] is None
    assert played["state"]["players"]["p1"]["characters"]["p1.05031"]["upgrades"] == ["p1.05073#1"]


@pytest.mark.rules("destiny.actions.play-card-sequence")
def test_quick_draw_from_a_hand_the_position_does_not_name_gives_no_ruling() -> None:
    text = ("turn p1\np1 Ana: resources 3, hand 3, deck 10\np1 character Luke Skywalker: 2 dice\n"
            "p2 Ben: hand 3, deck 12\np2 character Boba Fett: 2 dice\nask p1 play Quick Draw")
    ruling = ruling_json(quick(text), 1)
    assert ruling["legal"] is None
    assert (ruling["error"]["kind"], ruling["error"]["rule"]) == ("missing-outcome",
                                                                  "destiny.actions.play-card-sequence")
    assert ruling["error"]["message"].endswith("list the cards in the position")
    assert not [e for e in ruling["events"] if e["event"] == "no-effect"]


# ---------------------------------------------------------------------- Ice Storm
@pytest.mark.rules("destiny.symbols.shield")
def test_ice_storm_removes_a_shield_from_everyone() -> None:
    t = table(["05160"])
    t.player("p1")["characters"]["p1.05031"]["shields"] = 2
    t.player("p2")["characters"]["p2.05019"]["shields"] = 1
    r = run(t, play("05160"))
    assert r["error"] is None
    assert (char(r, "p1.05031")["shields"], char(r, "p1.05046")["shields"]) == (1, 0)
    assert char(r, "p2.05019")["shields"] == 0
