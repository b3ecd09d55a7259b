"""Awakenings upgrades: F-11D Rifle, Immobilize, Infantry Grenades, Crime Lord, Jedi Robes, One With The
Force, Rey's Staff, Force Throw, Lightsaber, Mind Probe, Comlink, Personal Escort, Second Chance, Hunker
Down."""

from __future__ import annotations

from typing import Any

import pytest

from judge.games.destiny.table import Table
from replays.service import ruling_json
from tests.judge.destiny.cards.helpers import char, may, ok, run


def resolve(pid: str, *entries: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"by": pid, "do": "resolve", "dice": list(entries), **extra}


def table(p1: dict[str, list[str]], p2: tuple[str, ...] = ("01045", "01046"), **kw: Any) -> Table:
    """p1's characters with the upgrades on them; p2's characters bare."""
    t = Table(**kw)
    for code, ups in p1.items():
        t.character("p1", code, upgrades=ups)
    for code in p2:
        t.character("p2", code)
    return t


PASS1 = {"by": "p1", "do": "pass"}
PASS2 = {"by": "p2", "do": "pass"}


# ---------------------------------------------------------------------- F-11D Rifle
@pytest.mark.rules("destiny.symbols.special", "destiny.symbols.indirect")
def test_f11d_special_makes_the_opponent_split_two_damage() -> None:
    t = table({"01002": ["01008"]}).pool("p1", {"p1.01008#1/1": "Sp"})
    state = ok(t, resolve("p1", {"die": "p1.01008#1/1", "split": {"p2.01045": 1, "p2.01046": 1}}))
    assert char(state, "p2.01045")["damage"] == 1 and char(state, "p2.01046")["damage"] == 1
    pending = ruling_json(t.log([resolve("p1", {"die": "p1.01008#1/1"})]))["pending"]
    assert pending["by"] == "p2" and pending["kind"] == "split"


@pytest.mark.rules("destiny.keywords.redeploy")
def test_f11d_has_redeploy() -> None:
    t = table({"01002": ["01008"], "01011": []}, turn="p2").pool("p2", {"p2.01045/1": "2RD"})
    t.player("p1")["characters"]["p1.01002"]["damage"] = 6
    state = ok(t, resolve("p2", {"die": "p2.01045/1", "target": "p1.01002"}, choices=[may("p1")]))
    assert char(state, "p1.01002")["defeated"] is True
    assert char(state, "p1.01011")["upgrades"] == ["p1.01008#1"]


# ---------------------------------------------------------------------- Immobilize
@pytest.mark.rules("destiny.actions.card-action", "destiny.terms.turn-die", "destiny.terms.remove-die")
def test_immobilize_removes_its_die_to_blank_another_die() -> None:
    t = table({"01011": ["01014"]}).pool("p1", {"p1.01014#1/1": "1Sh"}).pool("p2", {"p2.01045/1": "2RD"})
    state = ok(t, {"by": "p1", "do": "use", "card": "p1.01014#1", "target": "p2.01045/1"})
    assert state["players"]["p2"]["pool"] == {"p2.01045/1": "-"}
    assert state["players"]["p1"]["pool"] == {}


@pytest.mark.rules("destiny.terms.play-restrictions")
def test_immobilize_goes_only_on_a_blue_character() -> None:
    t = table({"01002": [], "01011": []}).set("p1", hand=["01014"])
    err = run(t, {"by": "p1", "do": "play", "card": "01014", "on": "p1.01002"})["error"]
    assert err["rule"] == "destiny.terms.play-restrictions"
    state = ok(t, {"by": "p1", "do": "play", "card": "01014", "on": "p1.01011"})
    assert char(state, "p1.01011")["upgrades"] == ["p1.01014#1"]


# ---------------------------------------------------------------------- Infantry Grenades
@pytest.mark.rules("destiny.symbols.special", "destiny.abilities.resolve-fully")
def test_grenades_hit_each_opposing_character_then_discard_themselves() -> None:
    t = table({"01002": ["01017"]}).pool("p1", {"p1.01017#1/1": "Sp"})
    state = ok(t, resolve("p1", {"die": "p1.01017#1/1"}))
    assert char(state, "p2.01045")["damage"] == 2 and char(state, "p2.01046")["damage"] == 2
    assert char(state, "p1.01002")["upgrades"] == []
    assert state["players"]["p1"]["discard"] == ["01017"]


# ---------------------------------------------------------------------- Crime Lord
@pytest.mark.rules("destiny.delayed.definition", "destiny.symbols.special")
def test_crime_lord_defeats_its_target_after_the_round_ends() -> None:
    t = table({"01021": ["01023"]}).pool("p1", {"p1.01023#1/1": "Sp"}).set("p1", resources=5)
    step = resolve("p1", {"die": "p1.01023#1/1", "target": "p2.01045"})
    state = ok(t, step)
    assert state["players"]["p1"]["resources"] == 0
    assert char(state, "p2.01045")["defeated"] is False
    assert state["delayed"][0]["target"] == "p2.01045"
    state = ok(t, step, PASS2, PASS1)
    assert char(state, "p2.01045")["defeated"] is True
    assert state["round"] == 2 and "delayed" not in state


@pytest.mark.rules("destiny.resources.never-negative")
def test_crime_lord_without_five_resources_does_nothing() -> None:
    t = table({"01021": ["01023"]}).pool("p1", {"p1.01023#1/1": "Sp"}).set("p1", resources=4)
    state = ok(t, resolve("p1", {"die": "p1.01023#1/1", "target": "p2.01045"}))
    assert state["players"]["p1"]["resources"] == 4 and "delayed" not in state


# ---------------------------------------------------------------------- Jedi Robes
@pytest.mark.rules("destiny.timing.after")
@pytest.mark.parametrize(("rnd", "shields"), [(1, 2), (2, 1)])
def test_jedi_robes_shield_the_wearer_twice_in_round_one(rnd: int, shields: int) -> None:
    t = table({"01011": []}, round=rnd).set("p1", hand=["01040"])
    state = ok(t, {"by": "p1", "do": "play", "card": "01040", "on": "p1.01011"})
    assert char(state, "p1.01011")["shields"] == shields


# ---------------------------------------------------------------------- One With The Force
@pytest.mark.rules("destiny.timing.before")
def test_one_with_the_force_becomes_a_support_before_its_character_is_defeated() -> None:
    t = table({"01037": ["01042"], "01038": []}, turn="p2").pool("p2", {"p2.01045/1": "2RD"})
    t.player("p1")["characters"]["p1.01037"]["damage"] = 10
    state = ok(t, resolve("p2", {"die": "p2.01045/1", "target": "p1.01037"}))
    assert char(state, "p1.01037")["defeated"] is True
    assert state["players"]["p1"]["supports"] == {"p1.01042#1": {"exhausted": False}}
    assert state["players"]["p1"]["discard"] == []


# ---------------------------------------------------------------------- Rey's Staff
@pytest.mark.rules("destiny.symbols.special", "destiny.terms.remove-die")
def test_reys_staff_removes_a_die_showing_damage() -> None:
    t = table({"01038": ["01044"]}).pool("p1", {"p1.01044#1/1": "Sp"}).pool("p2", {"p2.01045/1": "2RD"})
    state = ok(t, resolve("p1", {"die": "p1.01044#1/1", "target": "p2.01045/1"}))
    assert state["players"]["p2"]["pool"] == {}
    t.pool("p2", {"p2.01046/1": "1R"})
    err = run(t, resolve("p1", {"die": "p1.01044#1/1", "target": "p2.01046/1"}))["error"]
    assert err["kind"] == "illegal-action" and err["rule"] == "destiny.terms.choose-target"


# ---------------------------------------------------------------------- Force Throw
@pytest.mark.rules("destiny.symbols.special", "destiny.terms.remove-die")
def test_force_throw_removes_a_die_and_deals_its_value() -> None:
    t = table({"01038": ["01057"]}).pool("p1", {"p1.01057#1/1": "Sp"}).pool("p2", {"p2.01046/1": "3RD1"})
    state = ok(t, resolve("p1", {"die": "p1.01057#1/1", "remove": "p2.01046/1", "target": "p2.01045"}))
    assert char(state, "p2.01045")["damage"] == 3
    assert state["players"]["p2"]["pool"] == {}


# ---------------------------------------------------------------------- Lightsaber
@pytest.mark.rules("destiny.damage.unblockable", "destiny.symbols.special")
def test_lightsaber_special_is_unblockable() -> None:
    t = table({"01038": ["01059"]}).pool("p1", {"p1.01059#1/1": "Sp"})
    t.player("p2")["characters"]["p2.01045"]["shields"] = 2
    state = ok(t, resolve("p1", {"die": "p1.01059#1/1", "target": "p2.01045"}))
    assert char(state, "p2.01045")["damage"] == 2 and char(state, "p2.01045")["shields"] == 2


# ---------------------------------------------------------------------- Mind Probe
@pytest.mark.rules("destiny.symbols.special")
def test_mind_probe_deals_one_per_card_in_the_opponents_hand() -> None:
    t = (
        table({"01011": ["01060"]})
        .pool("p1", {"p1.01060#1/1": "Sp"})
        .set("p2", hand=["01155", "01153", "01157"])
    )
    state = ok(t, resolve("p1", {"die": "p1.01060#1/1", "target": "p2.01046"}))
    assert char(state, "p2.01046")["damage"] == 3


# ---------------------------------------------------------------------- Comlink
@pytest.mark.rules("destiny.timing.after")
def test_comlink_rerolls_one_players_dice_after_it_is_played() -> None:
    t = table({"01002": []}).set("p1", hand=["01061"]).pool("p2", {"p2.01045/1": "2RD", "p2.01046/1": "3RD1"})
    step = {
        "by": "p1",
        "do": "play",
        "card": "01061",
        "on": "p1.01002",
        "roll": ["-", "1R"],
        "choices": [may("p1"), {"by": "p1", "kind": "dice", "answer": ["p2.01045/1", "p2.01046/1"]}],
    }
    state = ok(t, step)
    assert state["players"]["p2"]["pool"] == {"p2.01045/1": "-", "p2.01046/1": "1R"}
    # the play resolves completely (cost paid) before the after-ability
    assert state["players"]["p1"]["resources"] == 0


@pytest.mark.rules("destiny.terms.choose-target")
def test_comlink_cannot_mix_two_players_dice() -> None:
    t = table({"01002": []}).set("p1", hand=["01061"]).pool("p2", {"p2.01045/1": "2RD"})
    t.pool("p1", {"p1.01002/1": "1R"})
    step = {
        "by": "p1",
        "do": "play",
        "card": "01061",
        "on": "p1.01002",
        "choices": [may("p1"), {"by": "p1", "kind": "dice", "answer": ["p2.01045/1", "p1.01002/1"]}],
    }
    assert run(t, step)["error"]["kind"] == "illegal-action"


# ---------------------------------------------------------------------- Personal Escort
@pytest.mark.rules("destiny.abilities.constant", "destiny.keywords.guardian")
def test_personal_escort_gives_guardian() -> None:
    t = table({"01002": ["01078"]}).pool("p2", {"p2.01046/1": "3RD1"})
    step = {"by": "p1", "do": "activate", "card": "p1.01002", "roll": ["1R"], "choices": [may("p1")]}
    state = ok(t, step)
    assert char(state, "p1.01002")["damage"] == 3
    assert state["players"]["p2"]["pool"] == {}
    bare = table({"01002": []}).pool("p2", {"p2.01046/1": "3RD1"})
    state = ok(bare, {"by": "p1", "do": "activate", "card": "p1.01002", "roll": ["1R"]})
    assert state["players"]["p2"]["pool"] == {"p2.01046/1": "3RD1"}


# ---------------------------------------------------------------------- Second Chance
@pytest.mark.rules("destiny.replacement.instead", "destiny.replacement.no-triggers-from-replaced")
def test_second_chance_replaces_the_defeat() -> None:
    t = table({"01046": ["01137"], "01045": []}, p2=("01002",), turn="p2").pool("p2", {"p2.01002/1": "2RD"})
    t.player("p1")["characters"]["p1.01046"]["damage"] = 9
    log = t.log([resolve("p2", {"die": "p2.01002/1", "target": "p1.01046"})])
    ruling = ruling_json(log)
    kinds = [e["event"] for e in ruling["events"]]
    assert "replaced" in kinds and "defeat" not in kinds
    han = ruling["state"]["players"]["p1"]["characters"]["p1.01046"]
    assert han["defeated"] is False and han["damage"] == 5 and han["upgrades"] == []
    assert ruling["state"]["players"]["p1"]["discard"] == ["01137"]


# ---------------------------------------------------------------------- Hunker Down
def _hunker(shields: int, face: str) -> Table:
    t = table({"01046": ["01164"]}, p2=("01002", "01021"), turn="p2").pool("p2", {"p2.01021/1": face})
    t.player("p1")["characters"]["p1.01046"]["shields"] = shields
    return t


@pytest.mark.rules("destiny.damage.dealt-vs-taken")
def test_hunker_down_stays_when_shields_block_all_the_melee_damage() -> None:
    state = ok(_hunker(2, "1MD"), resolve("p2", {"die": "p2.01021/1", "target": "p1.01046"}))
    assert char(state, "p1.01046")["upgrades"] == ["p1.01164#1"]
    assert char(state, "p1.01046")["shields"] == 1


@pytest.mark.rules("destiny.damage.dealt-vs-taken", "destiny.symbols.melee")
def test_hunker_down_is_discarded_when_melee_damage_is_taken() -> None:
    state = ok(_hunker(0, "1MD"), resolve("p2", {"die": "p2.01021/1", "target": "p1.01046"}))
    assert char(state, "p1.01046")["upgrades"] == []
    assert state["players"]["p1"]["discard"] == ["01164"]
    state = ok(_hunker(0, "2RD"), resolve("p2", {"die": "p2.01021/1", "target": "p1.01046"}))
    assert char(state, "p1.01046")["upgrades"] == ["p1.01164#1"]


@pytest.mark.rules("destiny.actions.card-action", "destiny.cards.exhausted")
def test_hunker_down_action_exhausts_it_for_a_shield() -> None:
    t = table({"01046": ["01164"]})
    use = {"by": "p1", "do": "use", "card": "p1.01164#1"}
    state = ok(t, use)
    assert char(state, "p1.01046")["shields"] == 1
    assert state["players"]["p1"]["upgrades"]["p1.01164#1"]["exhausted"] is True
    err = run(t, use, {"by": "p2", "do": "pass"}, use)["error"]
    assert err["at"] == 3 and err["kind"] == "illegal-action"
