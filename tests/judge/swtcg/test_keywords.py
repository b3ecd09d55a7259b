"""The keywords of the reference's glossary beyond the seeds: Reserves (an ability working only in
the build zone), Parry (a project assumption), Stealth (a project assumption), and the keywords of
unclear origin the importer leaves out (Ion Cannon, Switch, Stack)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from judge.games.swtcg import importer
from judge.games.swtcg.cards import default_pool
from judge.games.swtcg.engine import Ctx, keyword_instances
from judge.games.swtcg.model import CardPool, Effect, Keyword, Play
from tests.judge.swtcg.table import Table, error, play, state


def entry(**kw: Any) -> dict[str, Any]:
    base = {"card-id": "0123456789ab", "set-code": "JG", "number": 7, "name": "Test Unit", "type": "Character",
            "side": "L", "cost": 3, "speed": 40, "power": 3, "health": 3, "subtype": "Jedi", "text": ""}
    return {**base, **kw}


def pool_with(*cards: dict[str, Any]) -> CardPool:
    pool = CardPool(dict(default_pool().cards))
    for raw in cards:
        pool.add(importer.import_card(raw))
    return pool


def attack(attacker: str, target: str, roll: list[str]) -> dict[str, Any]:
    return {"by": attacker.split(".")[0], "do": "attack", "card": attacker, "target": target, "roll": roll}


# ---------------------------------------------------------------------- Reserves
@pytest.mark.parametrize(("text", "play"), [
    ("Reserves: Tap -> Draw a card. Play only during your build step.",
     Play(options=((Effect("draw", 1),),), windows=("build",), once=True, tap=True, reserves=True)),
    ("Reserves: Tap, Pay 1 Force -> You gain 2 Force.",
     Play(cost=1, options=((Effect("gain-force", 2),),), windows=("any",), tap=True, reserves=True)),
    ("Reserves: Tap -> Prevent up to 2 damage to one of your units.",
     Play(options=((Effect("prevent", 2, "your-unit"),),), windows=("prevent",), tap=True, reserves=True)),
    ("Reserves: Tap -> Up to 2 damage to one of your units prevent.",  # Yoda's word order, as printed
     Play(options=((Effect("prevent", 2, "your-unit"),),), windows=("prevent",), tap=True, reserves=True)),
])
@pytest.mark.rules("swtcg.base.reserves")
def test_reserves_text_becomes_an_ability_of_the_build_zone(text: str, play: Play) -> None:
    card = importer.import_card(entry(text=f"Pay 1 Force -> Evade 1 (Prevent up to 1 damage to this unit). {text}"))
    assert card.implemented, card.unparsed
    assert card.keywords == (Keyword("evade", 1, cost=1),) and card.plays == (play,)
    again = importer.load_cards(importer.import_files({"c.json": json.dumps({"cards": [entry(text=text)]}).encode()})
                                .data)
    assert again.cards["JG007"].plays == (play,)  # the card JSON keeps "reserves"


@pytest.mark.rules("swtcg.base.reserves", "swtcg.project.not-implemented")
def test_reserves_text_the_engine_cannot_read_leaves_the_card_not_implemented() -> None:
    for text in ("Reserves: Tap, Pay 1 build point -> You gain 2 Force. Play only during your build step.",
                 "Reserves: One of your Characters gets Accuracy 1 for this attack.",
                 "Reserves: Tap -> Prevent 1 damage to one your Space or Ground units."):
        card = importer.import_card(entry(text=text))
        assert not card.implemented and card.unparsed == text and not card.plays


@pytest.mark.rules("swtcg.base.reserves", "swtcg.damage.prevent-from-build-zone", "swtcg.build.completed-not-forced")
def test_yodas_reserves_prevents_damage_from_the_build_zone_and_only_there() -> None:
    t = (Table().unit("p1.DS-TIE").unit("p2.LS-AW", tapped=True).unit("p2.LS-YE", zone="build")
         .set("p2", force=0))
    use = {"by": "p2", "do": "use", "ability": "p2.LS-YE:play", "target": "p2.LS-AW"}
    result, seen = play(t.log(attack("p1.DS-TIE", "p2.LS-AW", ["5", "5"]), use))
    assert result.error is None, result.error
    st = result.state
    assert st.cards["p2.LS-AW"].damage == 0 and st.cards["p2.LS-YE"].tapped  # tapping was its cost
    [used] = seen.events(2, "use")
    assert "swtcg.base.reserves" in used["rules"]
    # tapped, it cannot pay its cost again (Shield Generator Crew keeps the prevention chance open for p2)
    t.unit("p2.LS-SG", tapped=True).set("p2", force=1)
    t.pos["cards"]["p2.LS-YE"]["tapped"] = True
    assert error(t.log(attack("p1.DS-TIE", "p2.LS-AW", ["5", "5"]), use)) == \
        ("illegal-action", "swtcg.abilities.activated-definition")
    # in its arena the Reserves ability does not work
    t.pos["cards"]["p2.LS-YE"] = {"code": "LS-YE", "zone": "character"}
    assert error(t.log(attack("p1.DS-TIE", "p2.LS-AW", ["5", "5"]), use)) == ("illegal-action", "swtcg.base.reserves")
    # partially built in the build zone, nothing works but Hidden Cost
    t.pos["cards"]["p2.LS-YE"] = {"code": "LS-YE", "zone": "build", "built": False, "counters": 5}
    assert error(t.log(attack("p1.DS-TIE", "p2.LS-AW", ["5", "5"]), use)) == \
        ("illegal-action", "swtcg.abilities.partially-built-inactive")


@pytest.mark.rules("swtcg.base.reserves", "swtcg.timing.play-only-build-step")
def test_a_catalog_reserves_ability_is_played_from_the_build_zone_in_the_build_step() -> None:
    bus = entry(number=51, name="Coruscant Air Bus", type="Ground", subtype="Republic Transport",
                text="Reserves: Tap -> Draw a card. Play only during your build step.")
    pool = pool_with(bus)
    t = (Table(step="build", arena=None, sentries=False).at(active="p2")
         .set("p2", hand=[], deck=["LS-XW", "LS-YW"]))
    t.pos["cards"]["p2.JG051"] = {"code": "JG051", "zone": "build"}
    use = {"by": "p2", "do": "use", "ability": "p2.JG051:play"}
    st = state(t.log(use), pool)
    assert st.players["p2"].hand == ["LS-XW"] and st.cards["p2.JG051"].tapped
    t.pos["cards"]["p2.JG051"]["zone"] = "ground"
    t.set("p2", hand=["LS-AW"], build=1)  # something else to do: the build step waits for p2
    assert error(t.log(use), pool) == ("illegal-action", "swtcg.base.reserves")


@pytest.mark.rules("swtcg.base.reserves")
def test_a_reserves_keyword_works_only_in_the_build_zone() -> None:
    pool = pool_with(entry(text="Armor | Reserves: Pay 1 Force -> Evade 1"))
    t = Table().unit("p2.LS-AW", tapped=True)
    t.pos["cards"]["p2.JG007"] = {"code": "JG007", "zone": "character"}
    in_arena = Ctx(state(t.log(), pool), pool)
    assert [k.name for _, k in keyword_instances(in_arena, "p2.JG007")] == ["armor"]
    t.pos["cards"]["p2.JG007"]["zone"] = "build"
    in_build = Ctx(state(t.log(), pool), pool)
    assert keyword_instances(in_build, "p2.JG007") == [("p2.JG007:evade", Keyword("evade", 1, cost=1,
                                                                                       reserves=True))]


# ---------------------------------------------------------------------- Parry
@pytest.mark.rules("swtcg.project.parry")
def test_parry_prevents_its_value_when_the_attack_rolled_a_natural_one() -> None:
    pool = pool_with(entry(type="Space", subtype="Rebel Transport", name="Parrying Shuttle", health=5,
                           text="Parry 2"))
    assert pool.cards["JG007"].keywords == (Keyword("parry", 2),) and pool.cards["JG007"].implemented
    t = Table().unit("p1.DS-ISD")
    t.pos["cards"]["p2.JG007"] = {"code": "JG007", "zone": "space", "tapped": True}
    result, seen = play(t.log(attack("p1.DS-ISD", "p2.JG007", ["5", "5", "5", "1", "2", "3"])), pool)
    assert result.error is None, result.error
    assert result.state.cards["p2.JG007"].damage == 1  # 3 hits, 2 parried
    [prevented] = seen.events(1, "prevent")
    assert (prevented["ability"], prevented["prevented"]) == ("p2.JG007:parry", 2)
    assert "swtcg.project.parry" in prevented["rules"]
    no_one = state(t.log(attack("p1.DS-ISD", "p2.JG007", ["5", "5", "5", "2", "2", "3"])), pool)
    assert no_one.cards["p2.JG007"].damage == 3  # no natural 1: nothing parried
    # Accuracy does not make a 1 stop being natural (a TIE Bomber: Accuracy 1, power 3)
    t.pos["cards"]["p1.DS-TIEB"] = {"code": "DS-TIEB", "zone": "space"}
    del t.pos["cards"]["p1.DS-ISD"]
    bomber = state(t.log(attack("p1.DS-TIEB", "p2.JG007", ["1", "4", "5"])), pool)
    assert bomber.cards["p2.JG007"].damage == 0  # 1+1 misses, 4+1 and 5+1 hit, the natural 1 parries both


@pytest.mark.rules("swtcg.project.parry", "swtcg.battle.dice-of-damage-not-attack")
def test_parry_takes_attack_dice_only() -> None:
    pool = pool_with(entry(type="Space", subtype="Rebel Transport", name="Parrying Shuttle", health=5,
                           text="Parry 2"))
    t = Table(arena="space").unit("p1.DS-TIE", tapped=True).set("p1", hand=["DS-FL"], force=5)
    t.pos["cards"]["p2.JG007"] = {"code": "JG007", "zone": "space", "tapped": True}
    log = t.log({"by": "p1", "do": "play", "card": "DS-FL", "target": "p2.JG007", "roll": ["1", "5"]})
    assert state(log, pool).cards["p2.JG007"].damage == 1  # dice of damage: a 1 parries nothing


# ---------------------------------------------------------------------- keywords of unclear origin
@pytest.mark.rules("swtcg.project.unclear-keywords", "swtcg.project.not-implemented")
@pytest.mark.parametrize("text", ["Ion Cannon 4", "Switch", "Stack 2", "Critical Hit 2 | Ion Cannon 2"])
def test_keywords_of_unclear_origin_leave_the_card_not_implemented(text: str) -> None:
    card = importer.import_card(entry(type="Ground", text=text))
    assert not card.implemented and "a keyword of unclear origin, not implemented" in card.unparsed
    assert not any(k.name in ("ion-cannon", "switch", "stack") for k in card.keywords)


# ---------------------------------------------------------------------- Stealth
@pytest.mark.rules("swtcg.project.stealth")
def test_a_stealth_unit_is_attacked_only_once_tapped_or_damaged() -> None:
    pool = pool_with(entry(type="Space", subtype="Rebel Starfighter", name="Hidden Fighter", speed=10,
                           text="Stealth"))
    assert pool.cards["JG007"].keywords == (Keyword("stealth"),) and pool.cards["JG007"].implemented
    t = Table().unit("p1.DS-ISD").unit("p2.LS-AW", tapped=True)
    t.pos["cards"]["p2.JG007"] = {"code": "JG007", "zone": "space"}  # untapped, slower than the Star Destroyer
    hit = attack("p1.DS-ISD", "p2.JG007", ["5", "1", "1", "1", "1", "1"])
    assert error(t.log(hit), pool) == ("illegal-action", "swtcg.project.stealth")
    assert state(t.log(attack("p1.DS-ISD", "p2.LS-AW", ["1"] * 6)), pool)  # another unit: fine
    t.pos["cards"]["p2.JG007"]["damage"] = 1
    assert state(t.log(hit), pool).cards["p2.JG007"].damage == 2  # damaged: no more hidden
    t.pos["cards"]["p2.JG007"] = {"code": "JG007", "zone": "space", "tapped": True}
    assert state(t.log(hit), pool).cards["p2.JG007"].damage == 1  # tapped: no more hidden
