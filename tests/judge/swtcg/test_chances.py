"""Chances to play, held triggers, costs and the timing phrases (swtcg.pop.*, swtcg.triggers.*,
swtcg.costs.*, swtcg.timing.*, swtcg.effects.*)."""

from __future__ import annotations

import pytest

from judge.games.swtcg.cards import default_pool
from judge.games.swtcg.engine import Ctx, keyword_instances, stat
from tests.judge.swtcg.table import Table, error, play, state


def battle_start(**hands: list[str]) -> Table:
    """The battle phase is about to start: a chance to play comes first."""
    t = Table(arena=None).at(step="battle").unit("p1.DS-TIE").unit("p2.LS-XW")
    for pid, hand in hands.items():
        t.set(pid, hand=hand)
    return t


@pytest.mark.rules("swtcg.pop.dark-side-first", "swtcg.pop.two-passes-end", "swtcg.project.forced-pass")
def test_the_dark_side_acts_first_and_players_alternate_until_two_passes() -> None:
    t = battle_start(p1=["DS-DRAIN"], p2=["LS-SEC"])
    assert error(t.log({"by": "p2", "do": "play", "card": "LS-SEC", "target": "p2.LS-XW"})) == \
        ("illegal-action", "swtcg.pop.dark-side-first")
    log = t.log({"by": "p1", "do": "pass"},
                {"by": "p2", "do": "play", "card": "LS-SEC", "target": "p2.LS-XW"},
                {"by": "p1", "do": "pass"})
    result, seen = play(log)
    assert result.error is None, result.error
    assert [e["player"] for e in seen.events(2, "chance")] == ["p1"]  # a play: the other acts, count again
    assert seen.events(3, "chance-end")  # p1 passed, then p2 (nothing left to play) passed: two in a row
    assert [e["auto"] for e in seen.events(3, "pass")][:2] == [False, True]  # the engine passed for p2


@pytest.mark.rules("swtcg.triggers.pending-commit", "swtcg.triggers.held-during-chance", "swtcg.triggers.release",
                   "swtcg.pop.triggers-first", "swtcg.zones.leave-play-you", "swtcg.zones.owner-global-rule",
                   "swtcg.control.owner", "swtcg.control.controller")
def test_a_trigger_waits_for_the_next_chance_and_you_is_its_controller_while_the_card_goes_to_its_owner() -> None:
    t = (Table(arena="character").unit("p2.DS-VK").unit("p2.LS-YK", controller="p1", damage=6, tapped=True)
         .set("p1", force=0).set("p2", force=0))
    # Vader (p2's) attacks Yoda, whom p1 controls but p2 owns
    t.pos["cards"]["p2.DS-VK"]["controller"] = "p2"
    t.pos["players"]["p1"]["side"], t.pos["players"]["p2"]["side"] = "light", "dark"
    log = t.log({"by": "p2", "do": "attack", "card": "p2.DS-VK", "target": "p2.LS-YK",
                 "roll": ["6", "1", "1", "1", "1", "1"]})
    result, seen = play(log)
    assert result.error is None, result.error
    events = seen.events(1)
    kinds = [e["event"] for e in events]
    # held when Yoda is discarded; it resolves only when the next chance to play opens
    held = kinds.index("held")
    assert "resolve" not in kinds[:held]
    nxt = kinds.index("chance", held)
    assert events[nxt]["kind"] == "general" and kinds[nxt + 1] == "resolve"
    st = result.state
    assert st.players["p1"].force == 4  # "you": Yoda's controller when he left play
    assert "LS-YK" in st.players["p2"].hand and "LS-YK" not in st.players["p2"].discard  # back to his owner


@pytest.mark.rules("swtcg.triggers.prevent-window", "swtcg.triggers.conditions")
def test_a_triggered_prevention_resolves_at_the_start_of_the_prevention_chance() -> None:
    t = Table(arena="character").unit("p1.DS-ST").unit("p2.LS-MED", tapped=True).set("p2", force=0)
    result, seen = play(t.log({"by": "p1", "do": "attack", "card": "p1.DS-ST", "target": "p2.LS-MED",
                               "roll": ["5", "5", "1"]}))
    assert result.error is None, result.error
    kinds = [e["event"] for e in seen.events(1)]
    i = kinds.index("pending")
    assert kinds[i:i + 4] == ["pending", "held", "chance", "resolve"]
    assert result.state.cards["p2.LS-MED"].damage == 1  # 2 less the 1 prevented


@pytest.mark.rules("swtcg.timing.reroll-once-per-roll", "swtcg.pop.dice-roll", "swtcg.triggers.reroll-window")
def test_a_reroll_card_is_played_once_per_roll() -> None:
    t = Table().unit("p1.DS-TIE").unit("p2.LS-MF", tapped=True).set("p2", hand=["LS-LS", "LS-LS"])
    base = [{"by": "p1", "do": "attack", "card": "p1.DS-TIE", "target": "p2.LS-MF", "roll": ["5", "6"]},
            {"by": "p2", "do": "play", "card": "LS-LS", "dice": [0, 1], "roll": ["1", "2"]}]
    result, seen = play(t.log(*base))
    assert result.error is None, result.error
    assert seen.events(2, "reroll")[0]["dice"] == [1, 2]
    again = t.log(*base, {"by": "p2", "do": "play", "card": "LS-LS", "dice": [0]})
    assert error(again) == ("illegal-action", "swtcg.timing.reroll-once-per-roll")


@pytest.mark.rules("swtcg.timing.for-this-attack")
def test_one_of_your_units_gets_power_for_this_attack_only() -> None:
    # the X-wing (power 3) attacks with Evasive Maneuver's +2: five dice, then three once the attack is over
    t = Table().unit("p1.DS-TIE", tapped=True).unit("p2.LS-XW").set("p2", hand=["LS-EM"], force=1)
    t.pos["turn"] = "p2"
    t.pos["acting"] = ["p2.LS-XW"]
    attack = {"by": "p2", "do": "attack", "card": "p2.LS-XW", "target": "p1.DS-TIE"}
    boosted = {"by": "p2", "do": "play", "card": "LS-EM", "option": 0, "target": "p2.LS-XW",
               "roll": ["1", "1", "1", "1", "1"]}
    result, _ = play(t.log(attack, boosted))
    assert result.error is None, result.error
    st = result.state
    assert st.attack is None and not [m for m in st.mods if m["target"] == "p2.LS-XW"]
    assert stat(Ctx(st, default_pool()), "p2.LS-XW", "power") == 3


@pytest.mark.rules("swtcg.effects.choose-one", "swtcg.damage.prevent-when", "swtcg.abilities.battle-cards")
def test_choose_one_names_its_option_and_each_option_its_moment() -> None:
    t = Table().unit("p1.DS-TIE").unit("p2.LS-XW", tapped=True).set("p2", hand=["LS-EM"], force=0)
    attack = {"by": "p1", "do": "attack", "card": "p1.DS-TIE", "target": "p2.LS-XW"}
    t.set("p2", force=2)
    no_option = t.log(attack, {"by": "p2", "do": "play", "card": "LS-EM", "target": "p2.LS-XW"})
    assert error(no_option) == ("illegal-action", "swtcg.effects.choose-one")
    wrong_time = t.log(attack, {"by": "p2", "do": "play", "card": "LS-EM", "option": 1, "target": "p2.LS-XW"})
    assert error(wrong_time) == ("illegal-action", "swtcg.damage.prevent-when")
    ok = t.log(attack, {"by": "p2", "do": "pass", "roll": ["5", "5"]},
               {"by": "p2", "do": "play", "card": "LS-EM", "option": 1, "target": "p2.LS-XW"})
    result, _ = play(ok)
    assert result.error is None and result.state.cards["p2.LS-XW"].damage == 0
    build = Table(step="build", arena=None, sentries=False).at(active="p1").set("p1", hand=["DS-FL", "DS-TIE"],
                                                                                 build=3)
    assert error(build.log({"by": "p1", "do": "play", "card": "DS-FL", "target": "p2.LS-XW"})) == \
        ("illegal-action", "swtcg.abilities.battle-cards")


@pytest.mark.rules("swtcg.costs.must-pay", "swtcg.effects.force-floor-zero", "swtcg.abilities.multi-part-order")
def test_a_cost_must_be_paid_and_force_never_goes_below_zero() -> None:
    t = battle_start(p1=["DS-DRAIN", "DS-DRAIN", "DS-FL"]).set("p2", force=1)
    t.set("p1", force=1)
    assert error(t.log({"by": "p1", "do": "play", "card": "DS-FL", "target": "p2.LS-XW"})) == \
        ("illegal-action", "swtcg.costs.must-pay")
    t.set("p1", force=2)
    result, seen = play(t.log({"by": "p1", "do": "play", "card": "DS-DRAIN", "option": 0},
                              {"by": "p1", "do": "play", "card": "DS-DRAIN", "option": 1}))
    assert result.error is None, result.error
    assert result.state.players["p2"].force == 0  # lost 3 of 1
    # the second: gain 1 Force, then draw, in the order written
    assert [e["event"] for e in seen.events(2) if e["event"] in ("force", "draw")] == ["force", "draw"]


@pytest.mark.rules("swtcg.abilities.multi-part-interrupts", "swtcg.abilities.multi-part-triggers-wait")
def test_damage_in_the_middle_of_a_card_gets_its_chance_before_the_rest() -> None:
    t = battle_start(p1=["DS-SAB"]).set("p2", force=0)
    result, seen = play(t.log({"by": "p1", "do": "play", "card": "DS-SAB", "target": "p2.LS-XW"}))
    assert result.error is None, result.error
    kinds = [e["event"] for e in seen.events(1)]
    assert kinds.index("pending") < kinds.index("damage") < kinds.index("force", kinds.index("use") + 1)
    assert result.state.cards["p2.LS-XW"].damage == 1 and result.state.players["p1"].force == 5


@pytest.mark.rules("swtcg.costs.any-amount-reduced", "swtcg.costs.x-uses-printed-cost",
                   "swtcg.abilities.cumulative-modifiers", "swtcg.timing.for-this-attack")
def test_any_amount_gets_the_reduction_and_power_bonuses_add_up() -> None:
    t = (Table(arena="character").unit("p1.DS-VK").unit("p1.DS-LO", tapped=True).unit("p2.LS-JK", tapped=True)
         .set("p1", hand=["DS-VV"], force=6).set("p2", force=0))
    outside = t.log({"by": "p1", "do": "pass"})
    assert error(outside) == ("illegal-action", "swtcg.base.battle.order")
    log = t.log({"by": "p1", "do": "attack", "card": "p1.DS-VK", "target": "p2.LS-JK"},
                {"by": "p1", "do": "play", "card": "DS-VV", "target": "p1.DS-VK", "pay": 2},
                {"by": "p1", "do": "use", "ability": "p1.DS-VK:play", "roll": ["1"] * 11})
    result, seen = play(log)
    assert result.error is None, result.error
    assert [e["amount"] for e in seen.events(2, "effect")] == [3]  # 2 paid + the reduction of 1
    assert len(seen.events(3, "roll")[0]["dice"]) == 6 + 3 + 2
    assert result.state.players["p1"].force == 6 - 2 - 2


@pytest.mark.rules("swtcg.costs.x-uses-printed-cost")
def test_an_x_cost_is_the_amount_asked_and_a_cost_increase_adds_to_it() -> None:
    t = (Table(arena="character").unit("p2.LS-JK").unit("p1.DS-VK", tapped=True).unit("p1.DS-SID", tapped=True)
         .set("p1", force=2))
    log = t.log({"by": "p2", "do": "attack", "card": "p2.LS-JK", "target": "p1.DS-VK"},
                {"by": "p1", "do": "pass", "roll": ["6", "6", "6", "1"]},
                {"by": "p1", "do": "prevent", "ability": "p1.DS-VK:evade", "amount": 2})
    result, seen = play(log)
    assert result.error is None, result.error
    assert seen.events(3, "use")[0]["cost"] == 2 and result.state.cards["p1.DS-VK"].damage == 1
    # Sidious (here on the Light Side's side) makes his opponent's abilities cost 2 more: Evade X with X = 2
    # costs 4 and still prevents 2, the X of the printed cost
    t.set("p1", force=4)
    t.pos["cards"]["p1.DS-SID"]["controller"] = "p2"
    result, seen = play(t.log(*log["steps"]))
    assert result.error is None, result.error
    assert seen.events(3, "use")[0]["cost"] == 4 and seen.events(3, "prevent")[0]["prevented"] == 2
    assert result.state.players["p1"].force == 0


@pytest.mark.rules("swtcg.timing.this-turn", "swtcg.timing.play-only-no-attack", "swtcg.battle.untap-attack-again",
                   "swtcg.timing.until-end-of-battle")
def test_once_per_turn_plays_and_no_attack_plays() -> None:
    t = battle_start(p2=["LS-SEC", "LS-SEC", "LS-RS"]).set("p1", hand=["DS-DRAIN"])
    log = t.log({"by": "p1", "do": "pass"}, {"by": "p2", "do": "play", "card": "LS-SEC", "target": "p2.LS-XW"},
                {"by": "p1", "do": "play", "card": "DS-DRAIN", "option": 1},
                {"by": "p2", "do": "play", "card": "LS-SEC", "target": "p2.LS-XW"})
    assert error(log) == ("illegal-action", "swtcg.timing.this-turn")
    during = (Table().unit("p1.DS-TIE").unit("p2.LS-XW", tapped=True).set("p2", hand=["LS-SEC", "LS-EM"])
              .log({"by": "p1", "do": "attack", "card": "p1.DS-TIE", "target": "p2.LS-XW"},
                   {"by": "p2", "do": "play", "card": "LS-SEC", "target": "p2.LS-XW"}))
    assert error(during) == ("illegal-action", "swtcg.timing.play-only-no-attack")


@pytest.mark.rules("swtcg.triggers.release", "swtcg.triggers.held-during-effect")
def test_a_trigger_held_in_the_attack_chance_resolves_when_that_chance_ends_before_the_roll() -> None:
    # Force Choke, played in the attack's chance, discards Yoda (K): "gain 4 Force" waits for the chance
    # to end (seed 001, "usually until the end of the current chance"), then resolves before the roll:
    # Luke then has the Force to Evade the attack's damage
    t = (Table(arena="character").unit("p1.DS-ST").unit("p2.LS-YK", damage=5, tapped=True)
         .unit("p2.LS-LF", tapped=True).set("p1", force=4, hand=["DS-FC"]).set("p2", force=0))
    result, seen = play(t.log({"by": "p1", "do": "attack", "card": "p1.DS-ST", "target": "p2.LS-LF"},
                              {"by": "p1", "do": "play", "card": "DS-FC", "target": "p2.LS-YK",
                               "roll": ["4", "5", "6"]}))
    assert result.error is None, result.error
    events = seen.events(2)
    at = [(e["event"], e.get("kind") or e.get("ability")) for e in events]
    assert at.index(("chance-end", "attack")) < at.index(("resolve", "p2.LS-YK:trigger")) < \
        at.index(("roll", None))
    st = result.state
    assert st.players["p2"].force == 4 and "LS-YK" in st.players["p2"].hand
    assert st.chance is not None and st.chance.kind == "prevent" and st.turn == "p2"  # his to Evade now


@pytest.mark.rules("swtcg.triggers.held-during-effect", "swtcg.abilities.multi-part-interrupts")
def test_a_held_trigger_waits_while_another_triggers_damage_is_dealt() -> None:
    # Yoda (K) and the Droid Control Ship both wait; the Dark Side's resolves first, and its damage (with
    # its chance to prevent it) is part of its effect: Yoda's waits until that is done ("even another
    # triggered ability's")
    t = (Table(arena="space").unit("p1.DS-DCS", damage=8, tapped=True).unit("p1.DS-DT", zone="ground", tapped=True)
         .unit("p2.LS-YK", damage=5, tapped=True).set("p1", force=2, hand=["DS-FC"])
         .set("p2", force=3, hand=["LS-RS"]))
    log = t.log({"by": "p1", "do": "play", "card": "DS-FC", "target": "p2.LS-YK"}, {"by": "p2", "do": "pass"},
                {"by": "p2", "do": "play", "card": "LS-RS", "target": "p1.DS-DCS", "roll": ["4", "1", "1"]},
                rng="held")
    result, seen = play(log)
    assert result.error is None, result.error
    events = seen.events(3)
    resolved = [i for i, e in enumerate(events) if e["event"] == "resolve"]
    assert [events[i]["ability"] for i in resolved] == ["p1.DS-DCS:trigger", "p2.LS-YK:trigger"]
    dealt = next(i for i, e in enumerate(events) if e["event"] == "damage" and e.get("target") == "p1.DS-DT")
    assert resolved[0] < dealt < resolved[1]
    assert result.state.cards["p1.DS-DT"].damage == 1 and result.state.players["p2"].force >= 4


@pytest.mark.rules("swtcg.keywords.disrupt-dark-side-first", "swtcg.keywords.disrupt-targets",
                   "swtcg.keywords.disrupt-own")
def test_a_battle_card_can_be_disrupted_the_dark_side_first_even_by_its_own_player() -> None:
    t = battle_start(p1=["DS-FL"], p2=["LS-NSF"]).set("p2", force=2)
    result, seen = play(t.log({"by": "p1", "do": "play", "card": "DS-FL", "target": "p2.LS-XW"},
                              {"by": "p2", "do": "play", "card": "LS-NSF"}))
    assert result.error is None, result.error
    chances = [e for e in seen.events(1, "chance") if e["kind"] == "disrupt"]
    assert chances[0]["player"] == "p1"
    assert seen.events(2, "disrupted")[0]["ability"] == "DS-FL"
    assert not seen.all("roll")  # Force Lightning never rolled
    own = battle_start(p1=["DS-FL", "DS-DC"])
    result, seen = play(own.log({"by": "p1", "do": "play", "card": "DS-FL", "target": "p2.LS-XW"},
                                {"by": "p1", "do": "play", "card": "DS-DC"}))
    assert result.error is None and seen.events(2, "disrupted")


@pytest.mark.rules("swtcg.keywords.disrupt-targets")
def test_disrupt_a_battle_card_never_disrupts_a_units_ability() -> None:
    from judge.games.swtcg.actions import check
    from judge.games.swtcg.state import Chance
    from judge.games.swtcg.steps import parse_step

    t = Table(arena="character").unit("p1.DS-VS").unit("p2.LS-JK", tapped=True).set("p2", force=2, hand=["LS-NSF"])
    # Vader's ability used: Luke's Not So Fast ("Disrupt a battle card") has nothing to disrupt, his chance to
    # disrupt passes at once and the ability resolves
    used = {"by": "p1", "do": "use", "ability": "p1.DS-VS:play", "target": "p2.LS-JK"}
    result, seen = play(t.log(used))
    assert result.error is None, result.error
    assert not seen.all("disrupted") and [d["target"] for d in result.state.damage] == ["p2.LS-JK"]  # (his to prevent)
    assert error(t.log(used, {"by": "p2", "do": "play", "card": "LS-NSF"})) is not None
    # asked in the chance itself: what was played decides
    st = state(t.log())
    st.turn, st.wait, st.chance = "p2", "chance", Chance("disrupt", 0, [])
    action, faults = parse_step({"by": "p2", "do": "play", "card": "LS-NSF"}, "/steps/0", ["p1", "p2"],
                                default_pool())
    assert faults == [] and action is not None
    for source_id, source, rule in (("p1.DS-VS:play", "p1.DS-VS", "swtcg.keywords.disrupt-targets"),
                                    ("DS-FL", None, None)):
        st.frames = [{"f": "resolve-play", "source_id": source_id, "source": source, "player": "p1", "effects": [],
                      "target": "p2.LS-JK", "x": 0, "dice": None, "to": None}]
        problem = check(Ctx(st, default_pool()), action)
        assert (problem[0] if problem else None) == rule, problem
    st.frames = []  # nothing played at all: said in words a reader's language has (not a param in English)
    problem = check(Ctx(st, default_pool()), action)
    assert problem is not None and problem[0] == "swtcg.keywords.disrupt-targets"
    assert "no battle card is being played" in problem[1] and problem[1].params == {"ability_id": "LS-NSF"}


@pytest.mark.rules("swtcg.damage.prevent-from-build-zone", "swtcg.damage.prevent-when")
def test_prevention_works_from_the_build_zone() -> None:
    t = (Table().unit("p1.DS-TIE").unit("p2.LS-AW", tapped=True).unit("p2.LS-SG", zone="build", tapped=True)
         .set("p2", force=1))
    log = t.log({"by": "p1", "do": "attack", "card": "p1.DS-TIE", "target": "p2.LS-AW", "roll": ["5", "1"]},
                {"by": "p2", "do": "prevent", "ability": "p2.LS-SG:prevent", "target": "p2.LS-AW"})
    result, _ = play(log)
    assert result.error is None, result.error
    assert result.state.cards["p2.LS-AW"].damage == 0
    st = result.state
    assert st.cards["p2.LS-SG"].zone == "build"


@pytest.mark.rules("swtcg.abilities.granted-instances", "swtcg.abilities.grant-per-source")
def test_each_granting_card_grants_its_own_instance() -> None:
    t = (Table(arena="character").unit("p2.LS-JH").unit("p2.LS-JH.2", code="LS-JH").unit("p1.DS-ST"))
    t.pos["cards"]["p2.LS-JH.2"] = {"code": "LS-JH", "zone": "character"}
    st = play(t.log())[0].state
    ids = sorted(i for i, k in keyword_instances(Ctx(st, default_pool()), "p2.LS-SEN") if k.name == "intercept")
    assert ids == ["p2.LS-SEN:intercept@p2.LS-JH", "p2.LS-SEN:intercept@p2.LS-JH.2"]
    own = [i for i, k in keyword_instances(Ctx(st, default_pool()), "p2.LS-JH") if k.name == "intercept"]
    assert own == ["p2.LS-JH:intercept@p2.LS-JH.2"]  # "other units": not from itself


@pytest.mark.rules("swtcg.timing.play-only-would-attack", "swtcg.abilities.would-attack-not-attack",
                   "swtcg.damage.sourceless-counters")
def test_an_ability_used_instead_of_attacking_is_no_attack() -> None:
    t = Table(arena="character").unit("p1.DS-VS").unit("p2.LS-JK", tapped=True).set("p2", force=0)
    log = t.log({"by": "p1", "do": "use", "ability": "p1.DS-VS:play", "target": "p2.LS-JK"})
    result, seen = play(log)
    assert result.error is None, result.error
    assert seen.events(1, "attack")[0].get("skip") is True and result.state.attack is None
    assert seen.events(1, "damage")[0]["source"] is None
    assert result.state.cards["p1.DS-VS"].tapped and result.state.cards["p2.LS-JK"].damage == 3


@pytest.mark.rules("swtcg.abilities.activated-when", "swtcg.abilities.partially-built-inactive")
def test_activated_abilities_only_in_their_chance_and_not_while_partially_built() -> None:
    t = Table().unit("p1.DS-TIE").unit("p2.LS-XW", tapped=True).unit("p2.LS-SG", zone="build", built=False,
                                                                         counters=1)
    t.set("p2", force=3)
    log = t.log({"by": "p1", "do": "attack", "card": "p1.DS-TIE", "target": "p2.LS-XW", "roll": ["5", "5"]},
                {"by": "p2", "do": "prevent", "ability": "p2.LS-SG:prevent", "target": "p2.LS-XW"})
    assert error(log) == ("illegal-action", "swtcg.abilities.partially-built-inactive")
