"""The remaining rules: type lines, units and abilities, retreat by effect, build-step plays,
stacking, held triggers during an effect, and the project's own assumptions."""

from __future__ import annotations

import pytest

from judge.games.swtcg import importer
from judge.games.swtcg.cards import default_pool
from judge.games.swtcg.engine import Ctx, stat
from judge.games.swtcg.model import CardPool
from judge.kernel.core import IllegalAction
from tests.judge.swtcg.table import Table, error, play, ruled, state

POOL = default_pool()


@pytest.mark.rules("swtcg.cards.subtype-reference")
def test_an_effect_on_droids_reads_the_type_line_not_the_name() -> None:
    t = Table().unit("p1.DS-DCS", tapped=True).unit("p1.DS-DT", zone="ground", tapped=True)
    t.pos["cards"]["p1.DS-DCS.2"] = {"code": "DS-DCS", "zone": "space", "tapped": True}
    st = state(t.log())
    ctx = Ctx(st, POOL)
    assert stat(ctx, "p1.DS-DT", "speed") == 30 + 10 + 10  # a Droid: +10 from each Droid Control Ship
    assert stat(ctx, "p1.DS-DCS.2", "speed") == 10  # "Droid" only in its name: no bonus


@pytest.mark.rules("swtcg.cards.units")
def test_only_units_have_activated_abilities() -> None:
    pool = CardPool(dict(POOL.cards))
    pool.add(importer.import_card({"set-code": "ANH", "number": 90, "name": "Some Mission", "type": "Mission",
                                   "side": "D", "cost": 2, "text": ""}))
    t = (Table().unit("p1.DS-TIE").unit("p2.LS-XW", tapped=True).set("p1", hand=["DS-DRAIN"]))
    t.pos["cards"]["p1.ANH090"] = {"code": "ANH090", "zone": "build", "built": False, "counters": 1}
    assert error(t.log({"by": "p1", "do": "skip", "card": "p1.DS-TIE"},
                       {"by": "p1", "do": "use", "ability": "p1.ANH090:play"}), pool)[1] in (
        "swtcg.abilities.partially-built-inactive", "swtcg.cards.units")
    t.pos["cards"]["p1.ANH090"] = {"code": "ANH090", "zone": "build"}
    assert error(t.log({"by": "p1", "do": "skip", "card": "p1.DS-TIE"},
                       {"by": "p1", "do": "use", "ability": "p1.ANH090:play"}), pool) == \
        ("illegal-action", "swtcg.cards.units")


@pytest.mark.rules("swtcg.retreat.by-effect")
def test_a_unit_retreated_by_an_effect_keeps_its_tapped_state() -> None:
    t = (Table(arena=None).at(step="battle").unit("p1.DS-TIE", tapped=True).unit("p1.DS-ATAT")
         .unit("p2.LS-XW").set("p1", hand=["DS-TW", "DS-TW"]))
    result, seen = play(t.log({"by": "p1", "do": "play", "card": "DS-TW", "target": "p1.DS-TIE"},
                              {"by": "p1", "do": "play", "card": "DS-TW", "target": "p1.DS-ATAT"}))
    assert result.error is None, result.error
    st = result.state
    assert st.cards["p1.DS-TIE"].zone == "build" and st.cards["p1.DS-TIE"].tapped
    assert st.cards["p1.DS-ATAT"].zone == "build" and not st.cards["p1.DS-ATAT"].tapped
    assert [e["tapped"] for e in seen.all("retreat")] == [False, False]


@pytest.mark.rules("swtcg.timing.play-only-build-step")
def test_a_build_step_ability_is_played_in_its_controllers_build_step_once_a_turn() -> None:
    t = (Table(step="build", arena=None, sentries=False).at(active="p1").unit("p1.DS-ENG")
         .set("p1", hand=["DS-TIE"], deck=["DS-ST", "DS-ST"], build=2))
    use = {"by": "p1", "do": "use", "ability": "p1.DS-ENG:play"}
    st = state(t.log(use))
    assert st.players["p1"].hand == ["DS-TIE", "DS-ST"] and st.players["p1"].force == 4
    assert error(t.log(use, use)) == ("illegal-action", "swtcg.timing.this-turn")
    chance = (Table(arena=None).at(step="battle").unit("p1.DS-ENG").unit("p2.LS-XW").set("p1", hand=["DS-DRAIN"]))
    assert error(chance.log(use)) == ("illegal-action", "swtcg.timing.play-only-build-step")


@pytest.mark.rules("swtcg.stacking.normal-rules")
def test_a_unique_unit_of_the_same_name_stacks_one_copy_of_each_version() -> None:
    t = (Table(step="build", arena=None, sentries=False).at(active="p1").unit("p1.DS-VK")
         .set("p1", hand=["DS-TIE"], build=2))
    t.pos["cards"]["p1.DS-VS"] = {"code": "DS-VS", "zone": "build", "built": False, "counters": 11}
    t.pos["cards"]["p1.DS-VK.2"] = {"code": "DS-VK", "zone": "build", "built": False, "counters": 10}
    st = state(t.log({"by": "p1", "do": "deploy", "card": "p1.DS-VS"}))
    vader = st.cards["p1.DS-VK"]
    assert (vader.code, vader.under) == ("DS-VS", ["DS-VK"]) and "p1.DS-VS" not in st.cards  # cost 11 on top
    assert error(t.log({"by": "p1", "do": "deploy", "card": "p1.DS-VK.2"})) == \
        ("illegal-action", "swtcg.stacking.normal-rules")


@pytest.mark.rules("swtcg.triggers.held-during-effect", "swtcg.abilities.multi-part-triggers-wait")
def test_a_trigger_during_a_cards_effect_waits_until_the_effect_is_done() -> None:
    t = (Table(arena=None).at(step="battle").unit("p1.DS-TIE").unit("p2.LS-YK", damage=6)
         .set("p1", hand=["DS-SAB"]).set("p2", force=0))
    result, seen = play(t.log({"by": "p1", "do": "play", "card": "DS-SAB", "target": "p2.LS-YK"}))
    assert result.error is None, result.error
    kinds = [(e["event"], e.get("player")) for e in seen.events(1)]
    held = kinds.index(("held", "p2"))
    gained = kinds.index(("force", "p1"), held)  # Sabotage's last instruction
    assert ("resolve", "p2") not in kinds[:gained]
    assert result.state.players["p2"].force == 4  # resolved later, at the next chance


@pytest.mark.rules("swtcg.project.trigger-order")
def test_waiting_abilities_of_both_players_resolve_the_dark_sides_first() -> None:
    t = (Table(step="retreat", arena=None).at(active="p2").unit("p1.DS-TIE", tapped=True)
         .unit("p2.LS-XW", tapped=True).unit("p2.LS-SP", zone="pilot", on="p2.LS-XW"))
    t.at(held=[{"id": "p2.LS-YK:trigger", "source": "p2.LS-YK", "code": "LS-YK", "player": "p2", "index": 0,
                "window": "chance"},
               {"id": "p1.LS-YK:trigger", "source": "p1.LS-YK", "code": "LS-YK", "player": "p1", "index": 0,
                "window": "chance"}])
    result, seen = play(t.log({"by": "p2", "do": "pass"}))
    assert result.error is None, result.error
    assert [e["player"] for e in seen.events(1, "resolve")] == ["p1", "p2"]


@pytest.mark.rules("swtcg.project.attack-same-arena", "swtcg.project.attack-only", "swtcg.project.target",
                   "swtcg.project.inputs", "swtcg.project.card-pool")
def test_the_projects_own_rules() -> None:
    t = Table().unit("p1.DS-TIE").unit("p2.LS-XW", tapped=True).unit("p2.LS-SS", zone="ground", tapped=True)
    assert error(t.log({"by": "p1", "do": "attack", "card": "p1.DS-TIE", "target": "p2.LS-SS"})) == \
        ("illegal-action", "swtcg.project.attack-same-arena")
    hunter = Table(arena="ground").unit("p1.DS-JHD").unit("p2.LS-SS", tapped=True).unit("p2.LS-TG", tapped=True)
    assert error(hunter.log({"by": "p1", "do": "attack", "card": "p1.DS-JHD", "target": "p2.LS-SS"})) == \
        ("illegal-action", "swtcg.project.attack-only")
    fl = (Table(arena=None).at(step="battle").unit("p1.DS-TIE").unit("p2.LS-XW").set("p1", hand=["DS-FL"]))
    assert error(fl.log({"by": "p1", "do": "play", "card": "DS-FL", "target": "p2.LS-NOPE"})) == \
        ("illegal-action", "swtcg.project.target")
    assert error(t.log({"by": "p1", "do": "attack", "card": "p1.DS-TIE", "target": "p2.LS-XW",
                        "roll": ["4", "4", "4"]})) == ("illegal-action", "swtcg.project.inputs")
    with pytest.raises(IllegalAction) as err:
        Ctx(state(t.log()), POOL).card("NOPE")
    assert err.value.rule == "swtcg.project.card-pool"


@pytest.mark.rules("swtcg.base.hidden-cost", "swtcg.abilities.partially-built-inactive")
def test_hidden_cost_completes_a_partially_built_unit_for_force_in_a_chance_to_play() -> None:
    t = (Table(arena=None).at(step="battle").unit("p1.DS-TIE").unit("p2.LS-XW").set("p1", force=2))
    t.pos["cards"]["p1.DS-AMB"] = {"code": "DS-AMB", "zone": "build", "built": False, "counters": 2}
    result, seen = play(t.log({"by": "p1", "do": "use", "ability": "p1.DS-AMB:hidden-cost"}))
    assert result.error is None, result.error
    st = result.state
    assert st.cards["p1.DS-AMB"].zone == "character" and st.cards["p1.DS-AMB"].built
    assert seen.events(1, "use")[0]["cost"] == 2 and st.players["p1"].force == 0  # 2 counters missing of 4
    t.pos["cards"]["p1.DS-AMB"]["counters"] = 1
    t.set("p1", hand=["DS-DRAIN"])
    assert error(t.log({"by": "p1", "do": "use", "ability": "p1.DS-AMB:hidden-cost"})) == \
        ("illegal-action", "swtcg.base.hidden-cost")


@pytest.mark.rules("swtcg.stacking.normal-rules", "swtcg.base.hidden-cost")
def test_hidden_cost_follows_the_stacking_rules_no_second_copy_of_a_version() -> None:
    """Hidden Cost puts the unit into its arena as a deploy does: a second Jabba the Hutt (C) would
    stack under the first, and a stack holds one copy of a version."""
    text = ("round 3\nphase battle\narena space\np1 Vera: dark, force 0\np1 space TIE Fighter\n"
            "p2 Luke: light, force 5, hand Rebel Strike\np2 space A-wing: tapped\n"
            "p2 character Jabba the Hutt\np2 build Jabba the Hutt: 2 counters\n"
            "before p1 skip TIE Fighter\nask p2 use Jabba the Hutt.2:hidden-cost\n")
    log, ruling = ruled(text)
    assert ruling["legal"] is False and ruling["violation"]["rule"] == "swtcg.stacking.normal-rules"
    st = ruling["state"]
    assert st["players"]["p2"]["force"] == 5 and "p2.LS-JH.2" in st["build_zone"]["p2"]
    assert not any("hidden-cost" in may for may in st["may"])  # not offered either
    # with no Jabba in play it completes him, into the Character arena
    del log["setup"]["position"]["cards"]["p2.LS-JH"]
    log["steps"][0]["roll"] = ["3"]  # (the turn then runs on to the next ready phase's roll)
    result, seen = play(log)
    assert result.error is None, result.error
    [use] = seen.events(1, "use")
    assert use["cost"] == 3 and "swtcg.base.hidden-cost" in use["rules"]
    assert [d["card"] for d in seen.events(1, "deploy")] == ["p2.LS-JH.2"]
    assert result.state.cards["p2.LS-JH.2"].zone == "character"

