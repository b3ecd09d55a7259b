"""Pilots (swtcg.pilots.*) and who controls what (swtcg.control.*)."""

from __future__ import annotations

from typing import Any

import pytest

from judge.games.swtcg.actions import check
from judge.games.swtcg.cards import default_pool
from judge.games.swtcg.engine import Ctx, keyword_instances, stat
from judge.games.swtcg.legal import candidates
from judge.games.swtcg.steps import Pilot
from tests.judge.swtcg.table import Table, error, play, ruled, state


def build_step(**cards: dict[str, Any]) -> Table:
    """p1's build step of turn 2, with build points and a card to build (so it waits)."""
    t = (Table(step="build", arena=None, sentries=False).at(active="p1")
         .set("p1", hand=["DS-SPB"], build=2).set("p2", hand=["LS-YW"], build=2))
    for ref, kw in cards.items():
        t.unit(ref.replace("_", "-"), **kw)
    return t


def pilot(card: str, onto: str) -> dict[str, Any]:
    return {"by": card.split(".")[0], "do": "pilot", "card": card, "onto": onto}


@pytest.mark.rules("swtcg.pilots.move-onto-units", "swtcg.pilots.bonuses-only-when-piloting",
                   "swtcg.pilots.speed-power-irrelevant", "swtcg.pilots.not-a-unit")
def test_a_pilot_moves_onto_a_unit_and_its_bonuses_work_only_there() -> None:
    t = build_step(**{"p1.DS_TP": {}, "p1.DS_TIE": {}})
    before = state(t.log())
    ctx = Ctx(before, default_pool())
    assert stat(ctx, "p1.DS-TIE", "speed") == 50 and stat(ctx, "p1.DS-TIE", "power") == 2
    st = state(t.log(pilot("p1.DS-TP", "p1.DS-TIE")))
    ctx = Ctx(st, default_pool())
    assert st.cards["p1.DS-TP"].zone == "pilot" and st.cards["p1.DS-TIE"].pilot == "p1.DS-TP"
    # +10 speed and +1 power from the Pilot text; the pilot's own speed 50 and power 1 do not count
    assert (stat(ctx, "p1.DS-TIE", "speed"), stat(ctx, "p1.DS-TIE", "power")) == (60, 3)
    assert "p1.DS-TP" not in [c.ref for c in st.units_in("character")]


@pytest.mark.rules("swtcg.pilots.type-match", "swtcg.pilots.no-droid-units", "swtcg.pilots.one-per-unit",
                   "swtcg.pilots.build-step-move")
def test_a_pilot_goes_only_on_its_type_of_unit_without_droids_or_another_pilot_once_a_build_step() -> None:
    t = build_step(**{"p1.DS_TP": {}, "p1.DS_TP.2": {"code": "DS-TP"}, "p1.DS_TIE": {}, "p1.DS_SPB": {},
                      "p1.DS_ISD": {}})
    t.pos["cards"]["p1.DS-TP.2"] = {"code": "DS-TP", "zone": "character"}
    assert error(t.log(pilot("p1.DS-TP", "p1.DS-SPB"))) == ("illegal-action", "swtcg.pilots.type-match")
    assert error(t.log(pilot("p1.DS-TP", "p1.DS-ISD"))) == ("illegal-action", "swtcg.pilots.type-match")
    assert error(t.log(pilot("p1.DS-TP", "p1.DS-TIE"), pilot("p1.DS-TP.2", "p1.DS-TIE"))) == \
        ("illegal-action", "swtcg.pilots.one-per-unit")
    assert error(t.log(pilot("p1.DS-TP", "p1.DS-TIE"), pilot("p1.DS-TP", "character"))) == \
        ("illegal-action", "swtcg.pilots.build-step-move")
    from dataclasses import replace

    from judge.games.swtcg.model import CardPool

    pool = CardPool(dict(default_pool().cards))
    pool.add(replace(pool.cards["DS-TIE"], subtypes=("Droid Starfighter",)))
    assert error(t.log(pilot("p1.DS-TP", "p1.DS-TIE")), pool) == ("illegal-action", "swtcg.pilots.no-droid-units")


@pytest.mark.rules("swtcg.pilots.build-step-move", "swtcg.abilities.partially-built-inactive")
def test_a_pilot_moves_onto_a_built_unit_in_the_build_zone_but_not_onto_a_partly_built_card() -> None:
    """The unit a pilot moves to "may be in any arena or in the build zone" (004): a card there is a unit
    once built; one with some of its counters is not yet (001), nor is it among the pilot's moves."""
    def table(**bomber: Any) -> Table:
        return build_step(**{"p1.DS_TP": {"zone": "pilot", "on": "p1.DS-TIE"}, "p1.DS_TIE": {},
                             "p1.DS_TIEB": {"zone": "build", **bomber}})

    assert error(table(built=False, counters=1).log(pilot("p1.DS-TP", "p1.DS-TIEB"))) == \
        ("illegal-action", "swtcg.pilots.build-step-move")
    st = state(table(built=True).log(pilot("p1.DS-TP", "p1.DS-TIEB")))
    assert st.cards["p1.DS-TIEB"].pilot == "p1.DS-TP" and st.cards["p1.DS-TIE"].pilot is None
    for bomber, allowed in (({"built": False, "counters": 1}, False), ({"built": True}, True)):
        ctx = Ctx(state(table(**bomber).log()), default_pool())
        moves = [a for a in candidates(ctx, "p1") if isinstance(a, Pilot) and a.onto == "p1.DS-TIEB"]
        assert (len(moves) == 1 and check(ctx, moves[0]) is None) is allowed, moves


@pytest.mark.rules("swtcg.pilots.build-step-move", "swtcg.base.turn.command", "swtcg.pilots.setup")
def test_a_step_asked_outside_its_step_cites_the_rule_of_its_step() -> None:
    """A pilot moved or a card built in the retreat step breaks the rule of the build step, not the retreat
    step's "only untapped units retreat"; a pilot in setup breaks swtcg.pilots.setup."""
    r = (Table(step="retreat", arena=None).at(active="p1").unit("p1.DS-TIE").unit("p1.DS-TP", zone="character")
         .set("p1", hand=["DS-TIEB"], build=3))
    assert error(r.log(pilot("p1.DS-TP", "p1.DS-TIE"))) == ("illegal-action", "swtcg.pilots.build-step-move")
    assert error(r.log({"by": "p1", "do": "build", "card": "DS-TIEB", "counters": 1})) == \
        ("illegal-action", "swtcg.base.turn.command")
    assert state(r.log({"by": "p1", "do": "retreat", "card": "p1.DS-TIE"})).cards["p1.DS-TIE"].zone == "build"
    s = Table(arena=None, sentries=False).at(phase="setup", step=None, wait="deploy", turn="p1")
    s.unit("p1.DS-TIE").unit("p1.DS-TP", zone="character").set("p1", hand=["DS-TIEB"])
    assert error(s.log(pilot("p1.DS-TP", "p1.DS-TIE"))) == ("illegal-action", "swtcg.pilots.setup")


@pytest.mark.rules("swtcg.pilots.moving-pilot", "swtcg.pilots.moving-unit", "swtcg.zones.owner-global-rule")
def test_the_unit_stays_when_its_pilot_moves_and_the_pilot_goes_with_its_unit() -> None:
    t = build_step(**{"p1.DS_TP": {"zone": "pilot", "on": "p1.DS-TIE"}, "p1.DS_TIE": {}})
    st = state(t.log(pilot("p1.DS-TP", "character")))
    assert st.cards["p1.DS-TIE"].zone == "space" and st.cards["p1.DS-TIE"].pilot is None
    assert st.cards["p1.DS-TP"].zone == "character"
    # the unit is discarded: its pilot goes too, each to its owner's discard pile
    a = (Table().unit("p2.LS-XW").unit("p1.DS-TIE", tapped=True, controller="p1")
         .unit("p1.DS-TP", zone="pilot", on="p1.DS-TIE").set("p2", force=0))
    st = state(a.log({"by": "p2", "do": "attack", "card": "p2.LS-XW", "target": "p1.DS-TIE",
                      "roll": ["6", "6", "6"]}))
    assert "p1.DS-TIE" not in st.cards and "p1.DS-TP" not in st.cards
    assert sorted(st.players["p1"].discard) == ["DS-TIE", "DS-TP"]


@pytest.mark.rules("swtcg.pilots.not-attackable", "swtcg.pilots.unit-effects-exclude", "swtcg.cards.type-reference")
def test_a_pilot_cannot_be_attacked_nor_targeted_as_a_unit_but_as_a_character() -> None:
    t = (Table().unit("p1.DS-TIE").unit("p2.LS-XW", tapped=True).unit("p2.LS-SP", zone="pilot", on="p2.LS-XW")
         .set("p1", hand=["DS-FL"]))
    assert error(t.log({"by": "p1", "do": "attack", "card": "p1.DS-TIE", "target": "p2.LS-SP"})) == \
        ("illegal-action", "swtcg.pilots.not-attackable")
    fl = t.log({"by": "p1", "do": "skip", "card": "p1.DS-TIE"},
               {"by": "p1", "do": "play", "card": "DS-FL", "target": "p2.LS-SP"})
    assert error(fl) == ("illegal-action", "swtcg.pilots.unit-effects-exclude")
    # "a Character" can be a pilot; "a Character unit" cannot (Darth Vader S)
    vs = (Table(arena="character").unit("p1.DS-VS").unit("p2.LS-XW", zone="space", tapped=True)
          .unit("p2.LS-SP", zone="pilot", on="p2.LS-XW").set("p2", force=0))
    assert error(vs.log({"by": "p1", "do": "use", "ability": "p1.DS-VS:play", "target": "p2.LS-SP"}))[1] == \
        "swtcg.pilots.unit-effects-exclude"
    fc = (Table(arena=None).at(step="battle").unit("p2.LS-XW", zone="space", tapped=True).unit("p1.DS-TIE")
          .unit("p2.LS-SP", zone="pilot", on="p2.LS-XW").set("p2", force=0).set("p1", hand=["DS-FC"]))
    result, _ = play(fc.log({"by": "p1", "do": "play", "card": "DS-FC", "target": "p2.LS-SP"}))
    assert result.error is None, result.error
    assert result.state.cards["p2.LS-SP"].damage == 2  # as many as its health: a pilot stays (more than: goes)
    assert result.state.cards["p2.LS-XW"].damage == 0


@pytest.mark.rules("swtcg.pilots.unit-effects-exclude", "swtcg.damage.prevent-when")
def test_prevent_keeps_damage_off_ones_units_never_off_a_pilot() -> None:
    from judge.games.swtcg.actions import check
    from judge.games.swtcg.state import Chance
    from judge.games.swtcg.steps import parse_step

    st = state(Table(arena="character").unit("p2.LS-SG").unit("p2.LS-XW", zone="space", tapped=True)
               .unit("p2.LS-SP", zone="pilot", on="p2.LS-XW").log())
    st.turn, st.wait, st.chance = "p2", "chance", Chance("prevent", 0, [])
    ctx = Ctx(st, default_pool())
    for target, rule in (("p2.LS-SP", "swtcg.pilots.unit-effects-exclude"), ("p2.LS-XW", None)):
        st.damage = [{"target": target, "amount": 2, "source": None, "prevented": 0}]
        action, faults = parse_step({"by": "p2", "do": "prevent", "ability": "p2.LS-SG:prevent", "target": target},
                                    "/steps/0", ["p1", "p2"], default_pool())
        assert faults == [] and action is not None
        problem = check(ctx, action)
        assert (problem[0] if problem else None) == rule, problem
    # a Force Choke on the pilot: its player has nothing to prevent it with, the damage lands on the pilot
    fc = (Table(arena=None).at(step="battle").unit("p1.DS-TIE").unit("p2.LS-SG", zone="character", tapped=True)
          .unit("p2.LS-XW", zone="space", tapped=True).unit("p2.LS-SP", zone="pilot", on="p2.LS-XW")
          .set("p1", hand=["DS-FC"]))
    result, _ = play(fc.log({"by": "p1", "do": "play", "card": "DS-FC", "target": "p2.LS-SP"}))
    assert result.error is None, result.error
    assert result.state.cards["p2.LS-SP"].damage == 2


@pytest.mark.rules("swtcg.pilots.health")
def test_a_pilot_has_its_own_health_and_goes_with_more_counters_than_it() -> None:
    fc = (Table(arena=None).at(step="battle").unit("p1.DS-TIE").unit("p2.LS-XW", zone="space", tapped=True)
          .unit("p2.LS-AJ", zone="pilot", on="p2.LS-XW").set("p2", force=0).set("p1", hand=["DS-FC"]))
    # Anakin has health 1: 2 counters are more than it; the X-wing keeps none of them
    result, _ = play(fc.log({"by": "p1", "do": "play", "card": "DS-FC", "target": "p2.LS-AJ"}))
    assert result.error is None, result.error
    assert "p2.LS-AJ" not in result.state.cards and result.state.cards["p2.LS-XW"].damage == 0
    from judge.games.swtcg.engine import place_damage

    st = state(Table(arena="character").unit("p2.LS-XW", zone="space", tapped=True)
               .unit("p2.LS-SP", zone="pilot", on="p2.LS-XW").log())
    st.damage = [{"target": "p2.LS-SP", "amount": 2, "source": None, "prevented": 0}]
    place_damage(Ctx(st, default_pool()))
    assert st.cards["p2.LS-SP"].damage == 2  # as many counters as its health 2: it stays


@pytest.mark.rules("swtcg.pilots.retreat")
def test_a_piloted_unit_retreats_only_with_an_untapped_pilot_and_both_tap() -> None:
    t = (Table(step="retreat", arena=None, sentries=False).at(active="p1").unit("p1.DS-TIE")
         .unit("p1.DS-TP", zone="pilot", on="p1.DS-TIE", tapped=True).unit("p1.DS-ST"))
    assert error(t.log({"by": "p1", "do": "retreat", "card": "p1.DS-TIE"})) == \
        ("illegal-action", "swtcg.pilots.retreat")
    t.pos["cards"]["p1.DS-TP"]["tapped"] = False
    st = state(t.log({"by": "p1", "do": "retreat", "card": "p1.DS-TIE"}))
    assert st.cards["p1.DS-TIE"].zone == "build" and st.cards["p1.DS-TIE"].tapped and st.cards["p1.DS-TP"].tapped
    assert st.cards["p1.DS-TP"].on == "p1.DS-TIE"


@pytest.mark.rules("swtcg.pilots.normal-abilities", "swtcg.control.pilot-vs-unit", "swtcg.control.you-your")
def test_a_pilot_keeps_its_own_abilities_and_the_units_controller_uses_what_the_pilot_gives() -> None:
    t = (Table(arena="ground").unit("p1.DS-SPB").unit("p2.LS-ANP", tapped=True)
         .unit("p2.LS-AJ", zone="pilot", on="p2.LS-ANP", controller="p1"))
    st = state(t.log())
    ctx = Ctx(st, default_pool())
    assert [i for i, k in keyword_instances(ctx, "p2.LS-AJ")] == ["p2.LS-AJ:evade"]  # printed before "Pilot"
    unit_ids = [i for i, _ in keyword_instances(ctx, "p2.LS-ANP")]
    assert "p2.LS-ANP:lucky@p2.LS-AJ" in unit_ids
    # p2 controls the Podracer and uses the Lucky Anakin gives it, though p1 controls Anakin
    log = t.log({"by": "p1", "do": "attack", "card": "p1.DS-SPB", "target": "p2.LS-ANP", "roll": ["5", "6"]},
                {"by": "p2", "do": "reroll", "ability": "p2.LS-ANP:lucky@p2.LS-AJ", "dice": [0], "roll": ["1"]})
    result, seen = play(log)
    assert result.error is None, result.error
    assert seen.events(2, "reroll")[0]["player"] == "p2"


@pytest.mark.rules("swtcg.pilots.type-match")
def test_a_pilot_of_two_kinds_goes_on_either() -> None:
    t = (Table(step="build", arena=None, sentries=False).at(active="p2", build_started=["p1", "p2"])
         .set("p2", hand=["LS-YW"], build=2).unit("p2.LS-AJ").unit("p2.LS-ANP").unit("p2.LS-XW").unit("p2.LS-MC"))
    t.pos["frames"] = [{"f": "turn-end"}, {"f": "battle-end"}, {"f": "arena", "a": "character"},
                       {"f": "arena", "a": "ground"}, {"f": "arena", "a": "space"}, {"f": "battle-start"},
                       {"f": "retreat", "p": "p2"}, {"f": "retreat", "p": "p1"}, {"f": "build", "p": "p2"}]
    for onto in ("p2.LS-ANP", "p2.LS-XW"):  # a Speeder, a Starfighter
        assert state(t.log(pilot("p2.LS-AJ", onto))).cards["p2.LS-AJ"].on == onto
    assert error(t.log(pilot("p2.LS-AJ", "p2.LS-MC"))) == ("illegal-action", "swtcg.pilots.type-match")


ANAKIN = ("round 3\nphase build\nactive p2\np1 Vera: dark, force 4\np1 ground Speeder Bike Scout\n"
          "p2 Luke: light, force 4, build 3\np2 ground Anakin's Podracer\n"
          "p2 pilot {first} on Anakin's Podracer\np2 build {second}: {counters} counters\nask p2 deploy {ask}\n")


@pytest.mark.rules("swtcg.stacking.normal-rules", "swtcg.pilots.unique-stacked", "swtcg.pilots.moving-pilot")
def test_a_unique_pilot_on_a_unit_is_the_card_of_its_name_a_new_copy_stacks_with() -> None:
    """Anakin Skywalker (J) piloting Anakin's Podracer is still the player's unique Anakin: another
    Anakin (J) may not be deployed (one copy of a version in a stack), another version stacks with
    the pilot; one that goes on top and cannot pilot the Podracer takes the stack off it, to the
    Character arena (swtcg.pilots.unique-stacked), the Podracer staying where it is."""
    text = ANAKIN.format(first="Anakin Skywalker", second="Anakin Skywalker", counters=3, ask="Anakin Skywalker.2")
    _, ruling = ruled(text)
    assert ruling["legal"] is False and ruling["violation"]["rule"] == "swtcg.stacking.normal-rules"
    st = ruling["state"]
    assert "p2.LS-AJ.2" in st["build_zone"]["p2"] and not st["arenas"]["character"]
    assert "deploy p2.LS-AJ.2" not in st["may"]
    # the same, the first Anakin in the Character arena
    _, beside = ruled(text.replace("p2 pilot Anakin Skywalker on Anakin's Podracer", "p2 character Anakin Skywalker"))
    assert beside["legal"] is False and beside["violation"]["rule"] == "swtcg.stacking.normal-rules"

    from dataclasses import replace

    from judge.games.swtcg.model import CardPool

    pool = CardPool(dict(default_pool().cards))
    aj = pool.cards["LS-AJ"]
    pool.add(replace(aj, code="LS-AK", version="K", cost=5, pilot=None, text="Pay 1 Force -> Evade 1"))
    pool.add(replace(aj, code="LS-AQ", version="Q", cost=2))
    # Anakin (Q), cost 2, goes under: Anakin (J) on top still pilots the Podracer
    _, under = ruled(ANAKIN.format(first="Anakin Skywalker (J)", second="Anakin Skywalker (Q)", counters=2,
                                  ask="Anakin Skywalker (Q)"), pool)
    assert under["legal"] is True, under["violation"]
    [deploy] = [e for e in under["events"] if e["event"] == "deploy"]
    assert deploy["stacked"] == "p2.LS-AJ" and "swtcg.pilots.unique-stacked" in deploy["rules"]
    assert deploy["arena"] == "ground"  # the stack is part of the Podracer
    st = under["state"]
    assert st["pilots"] == {"p2.LS-AJ": "p2.LS-ANP"} and not st["build_zone"]["p2"]
    # Anakin (K), cost 5, goes on top and pilots nothing: the stack leaves the Podracer
    _, top = ruled(ANAKIN.format(first="Anakin Skywalker (J)", second="Anakin Skywalker (K)", counters=5,
                                ask="Anakin Skywalker (K)"), pool)
    assert top["legal"] is True, top["violation"]
    [deploy] = [e for e in top["events"] if e["event"] == "deploy"]
    assert deploy["arena"] == "character" and "swtcg.pilots.moving-pilot" in deploy["rules"]
    st = top["state"]
    assert st["pilots"] == {} and st["arenas"]["character"]["p2.LS-AJ"]["code"] == "LS-AK"
    assert "p2.LS-ANP" in st["arenas"]["ground"]


PILOTED = ("phase build\nactive p1\np1 Vera: dark, force 4, build 3, hand 0, deck 20\np1 build TIE Fighter: tapped\n"
           "p1 space TIE Bomber\np1 pilot TIE Pilot on TIE Fighter\np2 Luke: light, force 5, build 3, hand 0, deck 20\n"
           "p2 space X-wing\n")


@pytest.mark.parametrize(("onto", "said", "rules"), [
    ("build", "Vera moves the pilot TIE Pilot off its unit to the build zone", "swtcg.pilots.moving-pilot"),
    ("character", "Vera moves the pilot TIE Pilot off its unit to the Character arena", "swtcg.pilots.moving-pilot"),
    ("TIE Bomber", "Vera moves the pilot TIE Pilot onto TIE Bomber", "swtcg.pilots.type-match"),
])
def test_a_pilots_move_is_worded_by_where_it_goes(onto: str, said: str, rules: str) -> None:
    """Off its unit, a pilot goes to a place (not "Vera pilots build with TIE Pilot"), and the ruling
    cites no rule of the unit it would go onto; the words are the request's language's."""
    from judge.games import registry
    from replays.service import ruling_words_json

    game = registry.get("swtcg")
    spec, faults = game.quick_text(PILOTED + f"ask p1 pilot TIE Pilot -> {onto}\n")
    log, faults = game.quick_log(spec, game.default_cards())
    assert faults == [] and log is not None
    words = ruling_words_json(log, 1, lang="en")["words"]
    assert said in words["events"] and words["step"] == "Vera: " + said.removeprefix("Vera ")
    ids = [r["id"] for r in words["rules"]]
    assert rules in ids and ("swtcg.pilots.type-match" in ids) is (onto == "TIE Bomber"), ids
    pl = ruling_words_json(log, 1, lang="pl")["words"]["events"][0]
    assert "pilota" in pl and "TIE Pilot" in pl and " moves " not in pl, pl
