"""Missions, Locations and Equipment in play (swtcg.base.mission, swtcg.base.location, swtcg.base.equip)
and the project's assumptions where the sources stop (swtcg.project.mission-discarded,
swtcg.project.location-per-arena, swtcg.project.equipment)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from judge.games.swtcg.cards import default_pool
from judge.games.swtcg.engine import Ctx, keyword_instances, kw_value, stat
from judge.games.swtcg.importer import import_card
from judge.games.swtcg.model import CardPool, Static, card_from, card_json
from judge.games.swtcg.setup import from_position
from judge.games.swtcg.steps import parse_step
from tests.judge.swtcg.table import Table, error, play, state

POOL = default_pool()
PLAYERS = [{"id": "p1"}, {"id": "p2"}]


def step(by: str, do: str, **kw: Any) -> dict[str, Any]:
    return {"by": by, "do": do, **kw}


def build_step(hand: list[str], build: int = 6, force: int = 5) -> Table:
    """p1's build step of turn 2 (the Dark Side builds first), a Stormtrooper Squad and Troopers of each side."""
    return (Table(step="build", arena=None).at(active="p1")
            .set("p1", hand=hand, build=build, force=force).set("p2", build=0)
            .unit("p1.DS-ST").unit("p1.DS-AMB").unit("p2.LS-RT").unit("p2.LS-RC"))


def pool_with(*cards: Any) -> CardPool:
    pool = CardPool(dict(POOL.cards))
    for c in cards:
        pool.add(c)
    return pool


# ---------------------------------------------------------------------------------- Missions
@pytest.mark.rules("swtcg.base.mission", "swtcg.project.mission-discarded", "swtcg.build.no-draw-for-building")
def test_a_complete_mission_is_completed_in_the_build_step_then_discarded() -> None:
    t = build_step(["NS-HE"])
    started = [step("p1", "build", card="NS-HE", counters=1)]
    # one of its two build counters: not complete yet
    assert error(t.log(*started, step("p1", "complete", card="p1.NS-HE", target="p1.DS-ST"))) == \
        ("illegal-action", "swtcg.build.partial-build")
    result, seen = play(t.log(step("p1", "build", card="NS-HE", counters=2),
                              step("p1", "complete", card="p1.NS-HE", target="p1.DS-ST")))
    assert result.error is None
    st = result.state
    assert "p1.NS-HE" not in st.cards and st.players["p1"].discard == ["NS-HE"]
    assert len(st.players["p1"].hand) == 0  # no card drawn for completing it
    kinds = [e["event"] for e in seen.events(2)]
    assert kinds.index("complete") < kinds.index("effect") < kinds.index("discard")
    assert seen.events(2, "discard")[0]["why"] == "completed"
    # the completion is the player's to make: it waits while they may build on
    waiting = state(t.log(step("p1", "build", card="NS-HE", counters=2)))
    assert "p1.NS-HE" in waiting.cards and "complete p1.NS-HE" in waiting.may


@pytest.mark.rules("swtcg.zones.discard-default-hand", "swtcg.zones.owner-global-rule", "swtcg.base.mission")
def test_destruction_of_hope_the_opponent_chooses_two_cards_of_their_hand_to_discard() -> None:
    t = build_step(["DS-DOH"], force=0).set("p2", hand=["LS-XW", "LS-AW", "LS-XW"])
    built = [step("p1", "build", card="DS-DOH", counters=2)]
    # the opponent chooses: without their answers the ruling names them and the cards they hold
    result, _ = play(t.log(*built, step("p1", "complete", card="p1.DS-DOH")))
    assert result.error is not None and result.error.kind == "pending-decision"
    assert (result.error.pending["by"], result.error.pending["kind"]) == ("p2", "discard")
    assert result.error.pending["options"] == ["LS-AW", "LS-XW"]
    answers = [{"by": "p2", "kind": "discard", "answer": "LS-XW"}, {"by": "p2", "kind": "discard", "answer": "LS-AW"}]
    result, seen = play(t.log(*built, step("p1", "complete", card="p1.DS-DOH", choices=answers)))
    assert result.error is None, result.error
    st = result.state
    # (p1, with nothing left to do, ends the build step: p2 has drawn a card, unknown, since)
    assert st.players["p2"].hand == ["LS-XW", "?"] and st.players["p2"].discard == ["LS-XW", "LS-AW"]
    assert st.players["p1"].force == 1  # then "You gain +1 Force"
    hand = [e for e in seen.events(2, "discard") if e["why"] == "hand"]
    assert [(e["player"], e["card"], e["owner"]) for e in hand] == [("p2", "LS-XW", "p2"), ("p2", "LS-AW", "p2")]
    # a card they do not hold is refused
    wrong = [{"by": "p2", "kind": "discard", "answer": "LS-RT"}, *answers[1:]]
    assert error(t.log(*built, step("p1", "complete", card="p1.DS-DOH", choices=wrong))) == \
        ("illegal-action", "swtcg.zones.discard-default-hand")


@pytest.mark.rules("swtcg.zones.discard-default-hand")
def test_a_discard_that_names_no_zone_comes_from_the_hand_and_takes_what_there_is() -> None:
    # "Discard a card." names no zone: it is a card of the hand, never one in play or in the deck
    mission = import_card({"card-id": "0123456789ab", "set-code": "ANH", "number": 9, "name": "Test Mission",
                           "type": "Mission", "side": "D", "cost": 1, "text": "Draw 1 card. Discard a card."})
    assert mission.implemented
    pool = pool_with(replace(mission, code="T-DIS"))
    t = build_step(["T-DIS"]).set("p1", deck=["DS-TIE"])
    result, seen = play(t.log(step("p1", "build", card="T-DIS", counters=1), step("p1", "complete", card="p1.T-DIS")),
                        pool)
    # one card in hand after the draw (the TIE): no choice to make, it is discarded; units in play stay
    assert result.error is None, result.error
    st = result.state
    assert st.players["p1"].hand == [] and st.players["p1"].discard == ["DS-TIE", "T-DIS"]
    assert {"p1.DS-ST", "p1.DS-AMB"} <= set(st.cards)
    # with an empty hand (and deck) there is nothing to discard: the rest of the effect is carried out
    empty = build_step(["T-DIS"]).set("p1", deck=[])
    st = state(empty.log(step("p1", "build", card="T-DIS", counters=1), step("p1", "complete", card="p1.T-DIS")),
               pool)
    assert st.players["p1"].hand == [] and st.players["p1"].discard == ["T-DIS"]


@pytest.mark.rules("swtcg.base.golden", "swtcg.timing.this-turn", "swtcg.battle.empty-arena")
def test_han_enchained_the_unit_chosen_cannot_attack_or_be_attacked_this_turn() -> None:
    t = (Table(step="battle", arena="character").unit("p1.DS-ST").unit("p2.LS-RC").unit("p2.LS-LF")
         .set("p1", force=0).set("p2", force=0))
    t.pos["mods"] = [{"target": "p2.LS-RC", "stat": "no-combat", "amount": 1, "until": "turn", "source": "p2.NS-HE"}]
    assert state(t.log()).acting == ["p2.LS-LF"]  # speed 50: Luke acts first
    # then the enchained LS-RC (speed 40) goes through its turn without attacking, and the
    # Stormtroopers may attack Luke, not LS-RC
    result, seen = play(t.log(step("p2", "skip", card="p2.LS-LF")))
    st = result.state
    assert st.acting == ["p1.DS-ST"] and st.cards["p2.LS-RC"].tapped
    assert any(e.get("attacker") == "p2.LS-RC" and e.get("skip") for e in seen.events(1, "attack"))
    assert error(t.log(step("p2", "skip", card="p2.LS-LF"), step("p1", "attack", card="p1.DS-ST",
                                                                  target="p2.LS-RC"))) == \
        ("illegal-action", "swtcg.base.golden")
    assert state(t.log(step("p2", "skip", card="p2.LS-LF"), step("p1", "attack", card="p1.DS-ST", target="p2.LS-LF",
                            roll=["1", "1", "1"]))).cards["p2.LS-LF"].damage == 0
    # an enchained unit cannot be attacked either
    t.pos["mods"][0]["target"] = "p1.DS-ST"
    assert error(t.log(step("p2", "attack", card="p2.LS-LF", target="p1.DS-ST"))) == \
        ("illegal-action", "swtcg.base.golden")
    # it lasts this turn only: at the end of the turn the effect is gone
    done = (Table(step="battle", arena="character", sentries=False).unit("p1.DS-ST", tapped=True)
            .unit("p1.DS-SEN", tapped=True).unit("p2.LS-RC"))
    done.pos["mods"] = list(t.pos["mods"])
    assert state(done.log()).mods != []
    st = state(done.log(step("p2", "skip", card="p2.LS-RC"), rng="end"))
    assert st.round == 3 and st.mods == []


@pytest.mark.rules("swtcg.control.you-your", "swtcg.project.target")
def test_han_enchained_targets_one_of_your_units_in_an_arena() -> None:
    t = build_step(["NS-HE"])
    built = step("p1", "build", card="NS-HE", counters=2)
    assert error(t.log(built, step("p1", "complete", card="p1.NS-HE", target="p2.LS-RT"))) == \
        ("illegal-action", "swtcg.control.you-your")
    assert error(t.log(built, step("p1", "complete", card="p1.NS-HE"))) == ("illegal-action", "swtcg.project.target")
    st = state(t.log(built, step("p1", "complete", card="p1.NS-HE", target="p1.DS-AMB")))
    assert [m["target"] for m in st.mods if m["stat"] == "no-combat"] == ["p1.DS-AMB"]


@pytest.mark.rules("swtcg.project.not-implemented")
def test_a_mission_whose_text_the_engine_cannot_read_stops_the_replay_when_complete() -> None:
    raw = {"set-code": "T", "number": 1, "name": "Plan for the Future", "type": "Mission", "side": "N", "cost": 3,
           "text": "You get +4 build points this turn."}
    mission = import_card(raw)
    assert not mission.implemented
    pool = pool_with(mission)
    t = build_step(["T001"])
    assert state(t.log(step("p1", "build", card="T001", counters=2)), pool).cards["p1.T001"].counters == 2
    assert error(t.log(step("p1", "build", card="T001", counters=3)), pool)[0] == "not-implemented"


# ---------------------------------------------------------------------------------- Locations
@pytest.mark.rules("swtcg.base.location", "swtcg.costs.must-pay", "swtcg.effects.force-floor-zero")
def test_cloud_city_battleground_goes_to_the_ground_arena_and_makes_battle_cards_cost_2_less() -> None:
    t = build_step(["NS-CCB"])
    st = state(t.log(step("p1", "build", card="NS-CCB", counters=1), step("p1", "deploy", card="p1.NS-CCB")))
    ccb = st.cards["p1.NS-CCB"]
    assert (ccb.zone, ccb.at) == ("location", "ground")
    assert st.view()["locations"] == {"ground": {"p1.NS-CCB": {"code": "NS-CCB", "tapped": False, "damage": 0,
                                                                "deployed_at": 1}}}
    assert "p1.NS-CCB" not in [c.ref for c in st.units_in("ground")]  # a Location is no unit
    # in battle: Force Lightning (2 Force) costs 0; Force Choke too; Force stays at 0
    b = (Table(step="battle", arena="space").unit("p1.DS-TIE").unit("p2.LS-XW", tapped=True)
         .unit("p1.NS-CCB", zone="location", at="ground").set("p1", force=0, hand=["DS-FL"]).set("p2", force=0))
    skip = step("p1", "skip", card="p1.DS-TIE")
    before = state(b.log(skip))
    assert before.wait == "chance" and "play DS-FL" in before.may
    st = state(b.log(skip, step("p1", "play", card="DS-FL", target="p2.LS-XW", roll=["1", "1"])))
    assert st.players["p1"].force == 0 and st.players["p1"].discard == ["DS-FL"]
    # without the Location, 1 Force is not enough (Tactical Withdrawal, free, keeps the chance open)
    b.pos["cards"].pop("p1.NS-CCB")
    b.set("p1", force=1, hand=["DS-FL", "DS-TW"])
    assert "play DS-FL" not in state(b.log(skip)).may
    assert error(b.log(skip, step("p1", "play", card="DS-FL", target="p2.LS-XW"))) == \
        ("illegal-action", "swtcg.costs.must-pay")


@pytest.mark.rules("swtcg.project.location-per-arena")
def test_a_second_location_in_an_arena_discards_the_first_and_a_location_of_several_arenas_asks() -> None:
    plains = replace(POOL.cards["DS-HBP"], code="T-PL", statics=(), implemented=True, unparsed="")
    anywhere = replace(POOL.cards["NS-CCB"], code="T-ANY", subtypes=("Space/Ground/Character", "Rebel Coruscant"))
    pool = pool_with(plains, anywhere)
    t = build_step(["T-PL", "T-ANY"]).unit("p2.NS-CCB", zone="location", at="ground")
    result, seen = play(t.log(step("p1", "build", card="T-PL", counters=1), step("p1", "deploy", card="p1.T-PL")),
                        pool)
    st = result.state
    assert "p2.NS-CCB" not in st.cards and st.players["p2"].discard == ["NS-CCB"]
    assert st.cards["p1.T-PL"].at == "ground"
    assert seen.events(2, "discard")[0]["why"] == "location"
    # a Location for several arenas: its controller chooses one (a decision of the step)
    result, _ = play(t.log(step("p1", "build", card="T-ANY", counters=1), step("p1", "deploy", card="p1.T-ANY")),
                     pool)
    assert result.error is not None and result.error.kind == "pending-decision"
    st = state(t.log(step("p1", "build", card="T-ANY", counters=1),
                     step("p1", "deploy", card="p1.T-ANY", choices=[{"kind": "arena", "answer": "space"}])), pool)
    assert st.cards["p1.T-ANY"].at == "space" and "p2.NS-CCB" in st.cards


@pytest.mark.rules("swtcg.project.not-implemented")
def test_a_location_whose_text_is_not_implemented_stops_a_replay_once_in_play() -> None:
    unread = replace(POOL.cards["NS-CCB"], code="T-UNR", statics=(), implemented=False, unparsed="its text",
                     text="Something the engine does not read.")
    pool = pool_with(unread)
    t = build_step(["T-UNR", "DS-TIE"])
    assert error(t.log(step("p1", "build", card="T-UNR", counters=1)), pool)[0] == "not-implemented"
    in_play = build_step(["DS-TIE"]).unit("p1.T-UNR", zone="location", at="ground")
    assert state(in_play.log(), pool).cards["p1.T-UNR"].at == "ground"
    assert error(in_play.log(step("p1", "build", card="DS-TIE", counters=1)), pool)[0] == "not-implemented"


# ---------------------------------------------------------------------------------- Equipment
def equip(card: str, onto: str) -> dict[str, Any]:
    return step(card.split(".")[0], "equip", card=card, onto=onto)


@pytest.mark.rules("swtcg.base.equip", "swtcg.project.equipment")
def test_equipment_gives_its_unit_power_and_keywords_only_while_attached() -> None:
    t = build_step(["NS-BR"], build=4)
    built = step("p1", "build", card="NS-BR", counters=1)
    waiting = state(t.log(built))
    # complete, it waits in the build zone until equipped (swtcg.project.equipment)
    assert waiting.cards["p1.NS-BR"].zone == "build" and "equip p1.NS-BR" in waiting.may
    st = state(t.log(built, equip("p1.NS-BR", "p1.DS-ST")))
    ctx = Ctx(st, POOL)
    assert st.players["p1"].build == 4 - 1 - 1  # a counter, then the Equip cost of 1 build point
    assert stat(ctx, "p1.DS-ST", "power") == 4 and kw_value(ctx, "p1.DS-ST", "critical-hit") == 1
    assert ("p1.DS-ST:critical-hit@p1.NS-BR" in dict(keyword_instances(ctx, "p1.DS-ST")))
    assert stat(ctx, "p1.DS-AMB", "power") == 3 and kw_value(ctx, "p1.DS-AMB", "critical-hit") == 0
    assert st.view()["equipment"] == {"p1.NS-BR": "p1.DS-ST"}
    # moved next turn: the old unit loses what it gave (a position of turn 3 with it on DS-ST)
    t3 = (build_step([], build=2).unit("p1.NS-BR", zone="equipped", on="p1.DS-ST"))
    moved = state(t3.log(equip("p1.NS-BR", "p1.DS-AMB")))
    ctx = Ctx(moved, POOL)
    assert stat(ctx, "p1.DS-ST", "power") == 3 and kw_value(ctx, "p1.DS-ST", "critical-hit") == 0
    assert stat(ctx, "p1.DS-AMB", "power") == 4 and kw_value(ctx, "p1.DS-AMB", "critical-hit") == 1


@pytest.mark.rules("swtcg.base.equip", "swtcg.costs.must-pay", "swtcg.cards.type-reference")
def test_equip_is_paid_once_per_turn_in_ones_build_step_onto_a_unit_of_its_type() -> None:
    t = build_step(["NS-BR", "DS-TIE"], build=4).unit("p1.DS-TIE")  # a TIE in hand: the build step stays open
    built = step("p1", "build", card="NS-BR", counters=1)
    on = equip("p1.NS-BR", "p1.DS-ST")
    assert state(t.log(built, on)).cards["p1.NS-BR"].on == "p1.DS-ST"
    assert error(t.log(built, on, equip("p1.NS-BR", "p1.DS-AMB"))) == ("illegal-action", "swtcg.base.equip")
    assert error(t.log(built, equip("p1.NS-BR", "p1.DS-TIE"))) == ("illegal-action", "swtcg.cards.type-reference")
    assert error(t.log(built, equip("p1.NS-BR", "p2.LS-RT"))) == ("illegal-action", "swtcg.base.equip")
    dear = replace(POOL.cards["NS-BR"], code="T-BR", keywords=(replace(POOL.cards["NS-BR"].keywords[0],
                                                                        options=(("build", 1), ("force", 3))),))
    poor = build_step(["T-BR", "DS-TIE"], build=4, force=2)
    assert error(poor.log(step("p1", "build", card="T-BR", counters=1), equip("p1.T-BR", "p1.DS-ST")),
                 pool_with(dear)) == ("illegal-action", "swtcg.costs.must-pay")
    # not in the retreat step, nor in battle: equip's own rule says when (in one's build step)
    r = Table(step="retreat", arena=None).at(active="p1").unit("p1.DS-ST").unit("p1.NS-BR", zone="build", built=False,
                                                                                 counters=1).set("p1", build=3)
    assert error(r.log(on))[1] == "swtcg.base.equip"


@pytest.mark.rules("swtcg.project.equipment", "swtcg.zones.owner-global-rule")
def test_equipment_stays_on_a_retreating_unit_and_is_discarded_when_its_unit_leaves_play() -> None:
    t = Table().unit("p2.LS-XW").unit("p1.DS-TIE", tapped=True).set("p2", force=0).set("p1", force=0)
    t.pos["cards"]["p1.T-EU"] = {"code": "T-EU", "zone": "equipped", "on": "p1.DS-TIE"}
    upgrade = import_card({"set-code": "T", "number": 2, "name": "Engine Upgrade", "type": "Equipment", "side": "N",
                           "cost": 2, "subtype": "Space",
                           "text": "Pay 2 build points -> Equip. | Equipped Space unit gets +20 speed."})
    pool = pool_with(replace(upgrade, code="T-EU"))
    assert stat(Ctx(state(t.log(), pool), pool), "p1.DS-TIE", "speed") == 70
    result, seen = play(t.log(step("p2", "attack", card="p2.LS-XW", target="p1.DS-TIE", roll=["6", "6", "6"])), pool)
    st = result.state
    assert "p1.DS-TIE" not in st.cards and "p1.T-EU" not in st.cards
    assert sorted(st.players["p1"].discard) == ["DS-TIE", "T-EU"]
    assert [e["why"] for e in seen.events(1, "discard")] == ["equipment", "damage"]
    r = (Table(step="retreat", arena=None).at(active="p1").unit("p1.DS-ST").unit("p1.NS-BR", zone="equipped",
                                                                                  on="p1.DS-ST"))
    st = state(r.log(step("p1", "retreat", card="p1.DS-ST")))
    assert st.cards["p1.DS-ST"].zone == "build" and st.cards["p1.NS-BR"].on == "p1.DS-ST"


# ---------------------------------------------------------------------------------- logs and positions
def test_a_position_with_a_location_and_equipment_round_trips() -> None:
    t = build_step(["NS-HE"]).unit("p1.NS-BR", zone="equipped", on="p1.DS-ST").unit("p1.NS-CCB", zone="location",
                                                                                    at="ground")
    st = state(t.log())
    again, faults = from_position(st.position(), PLAYERS, POOL)
    assert faults == [] and again is not None
    assert again.state_hash() == st.state_hash()
    assert again.cards["p1.NS-CCB"].at == "ground" and again.cards["p1.NS-BR"].on == "p1.DS-ST"
    assert stat(Ctx(again, POOL), "p1.DS-ST", "power") == 4 == stat(Ctx(st, POOL), "p1.DS-ST", "power")


@pytest.mark.parametrize(("card", "fault"), [
    ({"code": "NS-CCB", "zone": "location", "at": "space"}, "/at"),
    ({"code": "NS-CCB", "zone": "ground"}, "/zone"),
    ({"code": "NS-BR", "zone": "equipped", "on": "p2.LS-RT"}, "/on"),
    ({"code": "NS-BR", "zone": "location", "at": "ground"}, "/zone"),
])
def test_a_position_with_a_misplaced_location_or_equipment_is_a_fault(card: dict[str, Any], fault: str) -> None:
    pos = build_step([]).pos
    ref = "p1." + card["code"]
    pos["cards"][ref] = card
    st, faults = from_position(pos, PLAYERS, POOL)
    assert st is None and f"/setup/position/cards/{ref}{fault}" in [p for p, _ in faults]


@pytest.mark.parametrize(("raw", "path"), [
    ({"by": "p1", "do": "equip", "card": "p1.NS-BR"}, "/steps/3/onto"),
    ({"by": "p1", "do": "complete", "card": "NS-HE"}, "/steps/3/card"),
    ({"by": "p1", "do": "complete", "card": "p1.NS-HE", "option": "x"}, "/steps/3/option"),
])
def test_the_new_steps_name_their_faults(raw: dict[str, Any], path: str) -> None:
    action, faults = parse_step(raw, "/steps/3", ["p1", "p2"], POOL)
    assert action is None and path in [p for p, _ in faults]


@pytest.mark.parametrize("raw", [{"by": "p1", "do": "equip", "card": "p1.NS-BR", "onto": "p1.DS-ST"},
                                 {"by": "p1", "do": "complete", "card": "p1.NS-HE", "target": "p1.DS-ST"}])
def test_the_new_steps_write_themselves_back(raw: dict[str, Any]) -> None:
    action, faults = parse_step(raw, "/steps/0", ["p1", "p2"], POOL)
    assert faults == [] and action is not None and action.to_json() == raw


# ---------------------------------------------------------------------------------- the importer
def test_the_importer_reads_equipment_location_and_mission_texts_it_knows() -> None:
    rifle = import_card({"set-code": "T", "number": 3, "name": "Blaster Rifle", "type": "Equipment", "side": "N",
                         "cost": 1, "subtype": "Character",
                         "text": "Pay 1 build point -> Equip. | Equipped Character unit gets +1 power and "
                                 "Critical Hit 1."})
    assert rifle.implemented and [k.name for k in rifle.keywords] == ["equip"]
    assert rifle.keywords[0].options == (("build", 1),)
    assert Static(kind="equip", amount=1, scope="Character", stat="power") in rifle.statics
    saber = import_card({"set-code": "T", "number": 4, "name": "Sith Lightsaber", "type": "Equipment", "side": "D",
                         "cost": 2, "subtype": "Character",
                         "text": "Pay 1 Force, 1 build point -> Equip. | Equipped Jedi Character or Sith Character "
                                 "unit gets +2 power and Critical Hit 2."})
    assert not saber.implemented and "Jedi" in saber.unparsed
    ccb = import_card({"set-code": "T", "number": 5, "name": "Cloud City Battleground", "type": "Location",
                       "side": "N", "cost": 1, "subtype": "Ground",
                       "text": "Each of your Battle cards costs 2 less Force to play."})
    assert ccb.implemented and ccb.statics == POOL.cards["NS-CCB"].statics
    he = import_card({"set-code": "T", "number": 6, "name": "Han Enchained", "type": "Mission", "side": "N",
                      "cost": 2, "text": "One of your units can't attack or be attacked this turn."})
    assert he.implemented and he.plays == POOL.cards["NS-HE"].plays
    for card in (rifle, ccb, he):  # through the card JSON and back
        assert card_from(card_json(card)) == card


@pytest.mark.rules("swtcg.base.attack", "swtcg.pilots.health")
def test_a_position_with_a_unit_at_its_health_is_a_fault_its_health_now_deciding() -> None:
    pos = build_step([]).pos
    unit = pos["cards"]["p1.DS-ST"]  # Stormtrooper Squad, health 2
    assert POOL.cards["DS-ST"].health == 2
    unit["damage"] = 1
    st, faults = from_position(pos, PLAYERS, POOL)
    assert faults == [] and st is not None
    unit["damage"] = 2  # discarded at its health: no table has it in play
    st, faults = from_position(pos, PLAYERS, POOL)
    assert st is None and [p for p, _ in faults] == ["/setup/position/cards/p1.DS-ST/damage"]
    assert "Stormtrooper Squad has 2 health" in str(faults[0][1])
    # its health now, not the printed one: a lasting +1 keeps it in play
    pos["mods"] = [{"target": "p1.DS-ST", "stat": "health", "amount": 1, "until": "battle", "source": ""}]
    st, faults = from_position(pos, PLAYERS, POOL)
    assert faults == [] and st is not None
    # a pilot keeps its own health and goes with more counters than it, not as many
    pos["cards"]["p2.LS-XW"] = {"code": "LS-XW", "zone": "space"}
    pos["cards"]["p2.LS-SP"] = {"code": "LS-SP", "zone": "pilot", "on": "p2.LS-XW", "damage": 2}
    st, faults = from_position(pos, PLAYERS, POOL)
    assert faults == [] and st is not None
    pos["cards"]["p2.LS-SP"]["damage"] = 3
    st, faults = from_position(pos, PLAYERS, POOL)
    assert st is None and [p for p, _ in faults] == ["/setup/position/cards/p2.LS-SP/damage"]
