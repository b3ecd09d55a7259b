"""The project's cards whose text goes past the keywords: Jabba the Hutt (C), Yoda (C), Droid Control
Ship, Vader's TIE Fighter (A), Rebel Surrender, Stormtrooper Elite Squad (swtcg.project.*, the digest's
examples that name them)."""

from __future__ import annotations

import pytest

from judge.games.swtcg.cards import default_pool
from judge.games.swtcg.engine import Ctx, keyword_instances, remove_from_play
from judge.games.swtcg.setup import from_position
from tests.judge.swtcg.table import Table, error, play, state

PLAYERS = [{"id": "p1"}, {"id": "p2"}]

POOL = default_pool()


def attack(attacker: str, target: str, roll: list[str], **kw: object) -> dict[str, object]:
    return {"by": attacker.split(".")[0], "do": "attack", "card": attacker, "target": target, "roll": roll, **kw}


@pytest.mark.rules("swtcg.base.hidden-cost", "swtcg.abilities.partially-built-inactive",
                   "swtcg.abilities.grant-per-source", "swtcg.keywords.intercept")
def test_jabba_completes_by_hidden_cost_then_grants_his_other_characters_intercept_for_0_force() -> None:
    jabba = POOL.cards["LS-JH"]
    assert jabba.implemented and not jabba.unparsed and [k.name for k in jabba.keywords] == ["hidden-cost"]
    t = (Table(arena=None).at(step="battle").unit("p1.DS-ST").unit("p2.LS-JK", tapped=True)
         .set("p2", force=2))
    t.pos["cards"]["p2.LS-JH"] = {"code": "LS-JH", "zone": "build", "built": False, "counters": 3}
    # partially built: only Hidden Cost works, and Jabba grants nothing yet
    st = play(t.log())[0].state
    assert [i for i, k in keyword_instances(Ctx(st, POOL), "p2.LS-SEN") if k.name == "intercept"] == []
    assert [i for i, _ in keyword_instances(Ctx(st, POOL), "p2.LS-JH")] == ["p2.LS-JH:hidden-cost"]
    log = t.log({"by": "p2", "do": "use", "ability": "p2.LS-JH:hidden-cost"},
                attack("p1.DS-ST", "p2.LS-JK", []),
                {"by": "p2", "do": "use", "ability": "p2.LS-SEN:intercept@p2.LS-JH"},
                {"by": "p2", "do": "pass", "roll": ["4", "4", "1"]})  # Jedi Knight could intercept too
    result, seen = play(log)
    assert result.error is None, result.error
    st = result.state
    assert st.cards["p2.LS-JH"].zone == "character" and st.cards["p2.LS-JH"].built
    assert seen.events(1, "use")[0]["cost"] == 2 and st.players["p2"].force == 0  # 2 missing counters
    [use] = [e for e in seen.all("use") if e["ability"] == "p2.LS-SEN:intercept@p2.LS-JH"]
    assert use["cost"] == 0  # "Pay 0 Force -> Intercept"
    assert seen.all("intercept")[0]["defender"] == "p2.LS-SEN"
    assert st.cards["p2.LS-SEN"].damage == 2 and st.cards["p2.LS-JK"].damage == 0


def yoda_zaps(**p1: object) -> Table:
    """The battle phase starts (a chance to play): Light Side's Yoda C faces Vader K ("Pay X Force -> Evade X")."""
    return (Table(arena=None).at(step="battle").unit("p1.DS-VK").unit("p2.LS-YC").unit("p1.DS-ST")
            .set("p1", **p1).set("p2", force=3))


ZAP = {"by": "p2", "do": "use", "ability": "p2.LS-YC:play", "target": "p1.DS-VK"}


@pytest.mark.rules("swtcg.project.unevadable-damage", "swtcg.abilities.would-attack-not-attack",
                   "swtcg.pop.damage", "swtcg.costs.must-pay")
def test_yoda_c_taps_and_pays_2_to_do_4_damage_to_an_enemy_character_unit_with_no_roll() -> None:
    assert POOL.cards["LS-YC"].implemented and not POOL.cards["LS-YC"].unparsed
    result, seen = play(yoda_zaps().log(ZAP))
    assert result.error is None, result.error
    st = result.state
    assert st.cards["p2.LS-YC"].tapped and st.players["p2"].force == 1
    assert not seen.all("roll") and not seen.all("attack") and st.attack is None  # no dice, no attack
    [pending] = seen.all("pending")
    assert (pending["target"], pending["amount"], pending["source"]) == ("p1.DS-VK", 4, "p2.LS-YC")
    [damage] = seen.all("damage")
    assert damage["source"] == "p2.LS-YC" and st.cards["p1.DS-VK"].damage == 4
    # only an enemy unit in the Character arena
    t = yoda_zaps().unit("p1.DS-TIE")
    assert error(t.log({**ZAP, "target": "p1.DS-TIE"}))[1] == "swtcg.cards.type-reference"
    assert error(t.log({**ZAP, "target": "p2.LS-SEN"}))[1] == "swtcg.control.you-your"


@pytest.mark.rules("swtcg.project.unevadable-damage", "swtcg.abilities.granted-instances",
                   "swtcg.damage.prevent-when")
def test_evade_cannot_prevent_yoda_c_s_damage_but_other_prevention_can() -> None:
    evade = {"by": "p1", "do": "prevent", "ability": "p1.DS-VK:evade", "amount": 2}
    # (a Deflector Screen in hand keeps the prevention chance open for the Dark Side)
    assert error(yoda_zaps(hand=["DS-DEF"]).log(ZAP, evade)) == ("illegal-action", "swtcg.project.unevadable-damage")
    screen = {"by": "p1", "do": "play", "card": "DS-DEF", "target": "p1.DS-VK"}
    result, seen = play(yoda_zaps(hand=["DS-DEF"]).log(ZAP, screen))
    assert result.error is None, result.error
    assert seen.all("prevent")[0]["prevented"] == 2 and result.state.cards["p1.DS-VK"].damage == 2


def test_damage_evade_cannot_prevent_round_trips_through_a_position() -> None:
    st = state(yoda_zaps(hand=["DS-DEF"]).log(ZAP))  # the prevention chance is open
    assert st.damage[0]["unevadable"] is True
    again, faults = from_position(st.position(), PLAYERS, POOL)
    assert faults == [] and again is not None
    assert again.damage == st.damage and again.state_hash() == st.state_hash()
    evaded = st.position()
    del evaded["damage"][0]["unevadable"]
    other, _ = from_position(evaded, PLAYERS, POOL)
    assert other is not None and other.state_hash() != st.state_hash()


def droid_ship(**kw: object) -> Table:
    """The Space arena: the Light Side's X-wing (speed 50) attacks first; the Dark Side's Droid Control
    Ship has 8 damage (health 9); Droids in the Ground arena, one of them the Light Side's."""
    return (Table(arena="space").unit("p2.LS-XW").unit("p1.DS-DCS", damage=8, tapped=True, **kw)
            .unit("p1.DS-DT").unit("p1.DS-JHD", damage=3).unit("p2.DS-DT", zone="ground"))


@pytest.mark.rules("swtcg.project.each-of-your", "swtcg.cards.subtype-reference", "swtcg.triggers.conditions",
                   "swtcg.triggers.held-during-effect", "swtcg.triggers.release", "swtcg.zones.leave-play-you",
                   "swtcg.abilities.multi-part-interrupts")
def test_droid_control_ship_discarded_from_space_does_1_damage_to_each_of_your_droids() -> None:
    assert POOL.cards["DS-DCS"].implemented and not POOL.cards["DS-DCS"].unparsed
    assert not POOL.cards["DS-DCS"].droid  # "Droid" only in its name (swtcg.cards.subtype-reference)
    result, seen = play(droid_ship().log(attack("p2.LS-XW", "p1.DS-DCS", ["4", "1", "1"])))
    assert result.error is None, result.error
    st = result.state
    assert "p1.DS-DCS" not in st.cards and "DS-DCS" in st.players["p1"].discard
    kinds = [e["event"] for e in seen.all("held") + seen.all("resolve")]
    assert kinds == ["held", "resolve"]  # held while the attack resolves, released at the next chance
    pending = seen.all("pending")[1:]
    assert [(p["target"], p["amount"], p["source"]) for p in pending] == [
        ("p1.DS-DT", 1, "p1.DS-DCS"), ("p1.DS-JHD", 1, "p1.DS-DCS")]  # its controller's Droids, one chance
    assert st.cards["p1.DS-DT"].damage == 1 and "p1.DS-JHD" not in st.cards  # 4 counters on health 4
    assert st.cards["p2.DS-DT"].damage == 0  # not "your" Droid
    # its damage, with its chance to prevent it, comes before the players' chance it resolved in
    # (swtcg.abilities.multi-part-interrupts)
    events = seen.events(1)
    resolved = next(i for i, e in enumerate(events) if e["event"] == "resolve")
    after = [(e["event"], e.get("kind")) for e in events[resolved:]]
    assert after.index(("chance-end", "prevent")) < after.index(("chance-end", "general"))


@pytest.mark.rules("swtcg.triggers.conditions")
def test_droid_control_ship_discarded_from_the_build_zone_does_nothing() -> None:
    t = Table(arena="space").unit("p1.DS-DT").unit("p1.DS-DCS", zone="build", tapped=True)  # retreated
    ctx = Ctx(state(t.log()), POOL)
    remove_from_play(ctx, "p1.DS-DCS", "damage")
    assert "DS-DCS" in ctx.state.players["p1"].discard and ctx.state.held == []
    ctx = Ctx(state(droid_ship().log()), POOL)
    remove_from_play(ctx, "p1.DS-DCS", "damage")
    assert [h["id"] for h in ctx.state.held] == ["p1.DS-DCS:trigger"]


def vader_tie(controller: str = "p1") -> Table:
    """The Space arena: Vader's TIE Fighter (health 2), piloted by a TIE Pilot, with a TIE Fighter
    stacked under it, faces an X-wing; p1 owns the TIE, ``controller`` controls it."""
    t = Table(arena="space").set("p1", force=4).set("p2", force=4)
    if controller == "p1":
        t.unit("p2.LS-XW").unit("p1.DS-VTF", tapped=True, under=["DS-TIE"], pilot="p1.DS-TP")
    else:  # the Light Side controls it; the Dark Side's TIE Fighter attacks it
        t.unit("p1.DS-TIE").unit("p1.DS-VTF", tapped=True, under=["DS-TIE"], pilot="p1.DS-TP", controller="p2")
    t.unit("p1.DS-TP", zone="pilot", on="p1.DS-VTF", tapped=True, **({"controller": "p2"} if controller != "p1"
                                                                     else {}))
    return t


@pytest.mark.rules("swtcg.zones.leave-play-you", "swtcg.pilots.moving-unit", "swtcg.triggers.conditions",
                   "swtcg.triggers.release", "swtcg.costs.must-pay")
def test_vader_s_tie_fighter_may_pay_2_to_return_with_its_stack_and_pilot_to_hand() -> None:
    assert POOL.cards["DS-VTF"].implemented and not POOL.cards["DS-VTF"].unparsed
    may = {"by": "p1", "kind": "may", "answer": True}
    log = vader_tie().log(attack("p2.LS-XW", "p1.DS-VTF", ["4", "4", "1"]),
                          {"by": "p1", "do": "pass", "choices": [may]})  # no Evade: the damage is dealt
    result, seen = play(log)
    assert result.error is None, result.error
    st = result.state
    assert "p1.DS-VTF" not in st.cards and "p1.DS-TP" not in st.cards
    assert sorted(st.players["p1"].hand) == ["DS-TIE", "DS-TP", "DS-VTF"] and st.players["p1"].discard == []
    assert st.players["p1"].force == 2
    [back] = [e for e in seen.all("effect") if e["effect"] == "return-with-stack"]
    assert (back["amount"], back["target"]) == (3, "p1")
    # declined: it stays in the discard pile, and the Force too
    no = vader_tie().log(attack("p2.LS-XW", "p1.DS-VTF", ["4", "4", "1"]),
                         {"by": "p1", "do": "pass", "choices": [{**may, "answer": False}]})
    st = state(no)
    assert st.players["p1"].force == 4 and sorted(st.players["p1"].discard) == ["DS-TIE", "DS-TP", "DS-VTF"]
    # without 2 Force (nor Evade's 2): nobody is asked
    st = state(vader_tie().set("p1", force=1).log(attack("p2.LS-XW", "p1.DS-VTF", ["4", "4", "1"])))
    assert st.players["p1"].force == 1 and "DS-VTF" in st.players["p1"].discard and st.held == []


@pytest.mark.rules("swtcg.zones.leave-play-you", "swtcg.zones.owner-global-rule", "swtcg.control.owner")
def test_vader_s_tie_fighter_the_light_side_controls_goes_to_its_owner_s_pile_and_nobody_gets_it_back() -> None:
    log = vader_tie("p2").log(attack("p1.DS-TIE", "p1.DS-VTF", ["4", "4"]),
                              {"by": "p2", "do": "pass", "choices": [{"by": "p2", "kind": "may", "answer": True}]})
    result, seen = play(log)
    assert result.error is None, result.error
    st = result.state
    assert st.players["p2"].force == 2  # "you": the Light Side pays
    assert sorted(st.players["p1"].discard) == ["DS-TIE", "DS-TP", "DS-VTF"] and st.players["p2"].hand == []
    [back] = [e for e in seen.all("effect") if e["effect"] == "return-with-stack"]
    assert back["amount"] == 0


def test_a_held_return_keeps_what_left_play_through_a_position() -> None:
    ctx = Ctx(state(vader_tie().log()), POOL)
    remove_from_play(ctx, "p1.DS-VTF", "damage")
    [held] = ctx.state.held
    assert held["left"] == ["p1.DS-VTF", "p1.DS-TIE", "p1.DS-TP"]
    again, faults = from_position(ctx.state.position(), PLAYERS, POOL)
    assert faults == [] and again is not None and again.held == ctx.state.held
    assert again.state_hash() == ctx.state.state_hash()


def surrender(**kw: object) -> Table:
    """The Ground arena: the Snowspeeder attacks the AT-AT (Armor: 5+ hits); the Dark Side holds Rebel
    Surrender."""
    return (Table(arena="ground").unit("p2.LS-SS").unit("p1.DS-ATAT", tapped=True).unit("p2.LS-RT", tapped=True)
            .set("p1", **{"hand": ["DS-RSUR"], "force": 5, **kw}))


def surrender_on(target: str) -> dict[str, object]:
    return {"by": "p1", "do": "play", "card": "DS-RSUR", "target": target}


@pytest.mark.rules("swtcg.project.last-attack", "swtcg.costs.must-pay", "swtcg.abilities.battle-cards")
def test_rebel_surrender_discards_an_enemy_unit_whose_last_attack_rolled_no_hits() -> None:
    assert POOL.cards["DS-RSUR"].implemented and not POOL.cards["DS-RSUR"].unparsed
    missed = [attack("p2.LS-SS", "p1.DS-ATAT", []), {"by": "p1", "do": "pass", "roll": ["4", "4", "3"]}]
    st = state(surrender().log(*missed))
    assert st.last_hits == {"p2.LS-SS": 0}
    result, seen = play(surrender().log(*missed, surrender_on("p2.LS-SS")))
    assert result.error is None, result.error
    st = result.state
    assert "p2.LS-SS" not in st.cards and "LS-SS" in st.players["p2"].discard and st.players["p1"].force == 1
    assert st.last_hits == {}  # it left play: nothing to remember
    [e] = [e for e in seen.all("effect") if e["effect"] == "discard-if-missed"]
    assert (e["target"], e["amount"]) == ("p2.LS-SS", 1)
    # an attack that hit once, and a unit that never attacked: both stay
    hit = [attack("p2.LS-SS", "p1.DS-ATAT", []), {"by": "p1", "do": "pass", "roll": ["5", "4", "3"]}]
    assert "p2.LS-SS" in state(surrender().log(*hit, surrender_on("p2.LS-SS"))).cards
    result, seen = play(surrender().log(*missed, surrender_on("p2.LS-RT")))
    assert result.error is None, result.error
    assert "p2.LS-RT" in result.state.cards and seen.all("effect")[-1]["amount"] == 0


@pytest.mark.rules("swtcg.project.last-attack", "swtcg.project.target", "swtcg.control.you-your")
def test_rebel_surrender_chooses_an_enemy_unit_in_the_ground_or_character_arena() -> None:
    t = Table(arena=None).at(step="battle").unit("p1.DS-ST").unit("p2.LS-XW").set("p1", hand=["DS-RSUR"])
    assert error(t.log(surrender_on("p2.LS-XW")))[1] == "swtcg.cards.type-reference"
    assert error(t.log(surrender_on("p1.DS-ST")))[1] == "swtcg.control.you-your"
    assert state(t.log(surrender_on("p2.LS-SEN"))).players["p1"].force == 1  # a Character: fine, it never attacked


@pytest.mark.rules("swtcg.abilities.would-attack-not-attack", "swtcg.project.last-attack")
def test_yoda_c_s_zap_is_no_attack_so_rebel_surrender_cannot_discard_him() -> None:
    t = yoda_zaps(hand=["DS-RSUR"], force=5)
    result, seen = play(t.log({"by": "p1", "do": "pass"}, ZAP, surrender_on("p2.LS-YC")))
    assert result.error is None, result.error
    assert "p2.LS-YC" in result.state.cards and result.state.last_hits == {}
    assert seen.all("effect")[-1]["amount"] == 0


def test_the_last_attacks_round_trip_and_a_game_without_such_a_card_keeps_none() -> None:
    st = state(surrender().log(attack("p2.LS-SS", "p1.DS-ATAT", []), {"by": "p1", "do": "pass",
                                                                         "roll": ["4", "4", "3"]}))
    again, faults = from_position(st.position(), PLAYERS, POOL)
    assert faults == [] and again is not None and again.last_hits == {"p2.LS-SS": 0}
    assert again.state_hash() == st.state_hash()
    plain = state(surrender(hand=[]).log(attack("p2.LS-SS", "p1.DS-ATAT", ["4", "4", "3"])))
    assert plain.last_hits is None and "last_hits" not in plain.position() and "last_hits" not in plain.view()
    bad = st.position()
    bad["last_hits"] = {"p2.NOPE": 0}
    assert from_position(bad, PLAYERS, POOL)[0] is None


def elite_squad(vader: str | None = "p1") -> Table:
    """The Character arena: the Jedi Knight (untapped) attacks; the Elite Squad (health 4) and, when
    ``vader`` names a controller, Darth Vader (K) are tapped."""
    t = Table(arena="character").unit("p2.LS-JK").unit("p1.DS-SES", tapped=True, damage=1).set("p1", force=0)
    if vader is not None:
        t.unit("p1.DS-VK", tapped=True, **({"controller": vader} if vader != "p1" else {}))
    return t


@pytest.mark.rules("swtcg.project.retreat-instead", "swtcg.retreat.by-effect")
def test_the_elite_squad_retreats_instead_of_being_discarded_while_vader_is_in_your_character_arena() -> None:
    assert POOL.cards["DS-SES"].implemented and not POOL.cards["DS-SES"].unparsed
    result, seen = play(elite_squad().log(attack("p2.LS-JK", "p1.DS-SES", ["4", "4", "4", "1"])))
    assert result.error is None, result.error
    st = result.state
    ses = st.cards["p1.DS-SES"]
    assert ses.zone == "build" and ses.tapped and ses.damage == 4  # retreated as it was (tapped), counters kept
    assert not seen.all("discard") and "DS-SES" not in st.players["p1"].discard
    [r] = seen.all("retreat")
    assert (r["card"], r["tapped"]) == ("p1.DS-SES", False) and "swtcg.project.retreat-instead" in r["rules"]


@pytest.mark.rules("swtcg.project.retreat-instead", "swtcg.control.you-your")
def test_the_elite_squad_is_discarded_without_vader_in_its_controller_s_character_arena() -> None:
    for vader in (None, "p2"):  # no Vader; Vader the Light Side controls
        st = state(elite_squad(vader).log(attack("p2.LS-JK", "p1.DS-SES", ["4", "4", "4", "1"])))
        assert "p1.DS-SES" not in st.cards and "DS-SES" in st.players["p1"].discard


@pytest.mark.rules("swtcg.project.retreat-instead")
def test_the_elite_squad_in_the_build_zone_has_nowhere_to_retreat_and_is_discarded() -> None:
    ctx = Ctx(state(elite_squad().log()), POOL)
    assert not remove_from_play(ctx, "p1.DS-SES", "effect")  # from the arena: retreats instead
    assert ctx.state.cards["p1.DS-SES"].zone == "build"
    assert remove_from_play(ctx, "p1.DS-SES", "effect") and "p1.DS-SES" not in ctx.state.cards
