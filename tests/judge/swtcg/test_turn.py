"""Setup, the ready phase, build and retreat steps, the battle order and victory (swtcg.setup.*,
swtcg.build.*, swtcg.retreat.*, swtcg.base.*, swtcg.keywords.upkeep-*, Bounty)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from judge.games.inputs import Choice, Inputs
from judge.games.swtcg.cards import default_pool
from judge.games.swtcg.engine import Ctx, build_start, keyword_instances
from judge.games.swtcg.model import CardPool, Effect, Play
from tests.judge.swtcg.table import Table, error, play, state

DARK = ["DS-ISD", "DS-FL", "DS-TP", "DS-ATAT", "DS-ST", "DS-TIE", "DS-BH", "DS-TIEB", "DS-SPB", "DS-SES",
        "DS-DT", "DS-TIE", "DS-ST"]
LIGHT = ["LS-MC", "LS-ECB", "LS-JK", "LS-RS", "LS-XW", "LS-RT", "LS-SS", "LS-AW", "LS-YW", "LS-RC", "LS-SP",
         "LS-XW", "LS-RT"]


def beginning(*steps: dict[str, Any]) -> dict[str, Any]:
    return {"format": "arbiter.replay/1", "game": "swtcg",
            "players": [{"id": "p1", "deck": sorted(DARK)}, {"id": "p2", "deck": sorted(LIGHT)}],
            "setup": {"decks": {"p1": DARK, "p2": LIGHT}}, "steps": list(steps)}


def d(pid: str, card: str, **kw: Any) -> dict[str, Any]:
    return {"by": pid, "do": "deploy", "card": card, **kw}


@pytest.mark.rules("swtcg.base.setup", "swtcg.setup.draw-per-deploy", "swtcg.setup.units-only", "swtcg.pilots.setup",
                   "swtcg.project.opening-hand")
def test_setup_deploys_units_from_hand_drawing_a_card_for_each() -> None:
    assert error(beginning(d("p1", "DS-FL"))) == ("illegal-action", "swtcg.setup.units-only")
    assert error(beginning(d("p2", "LS-MC"))) == ("illegal-action", "swtcg.setup.out-of-units")
    result, seen = play(beginning(d("p1", "DS-ISD"), d("p2", "LS-MC"), d("p2", "LS-JK"), d("p1", "DS-TP")))
    assert result.error is None, result.error
    st = result.state
    assert len(st.players["p1"].hand) == 7 and seen.events(1, "draw")[0]["count"] == 1
    assert st.cards["p1.DS-TP"].zone == "character"  # a pilot goes to the Character arena in setup
    assert st.players["p1"].deployed == 9 and st.players["p2"].deployed == 12
    assert st.turn == "p1"  # p2 went on while not ahead (7 = 7), then p1 catches up


@pytest.mark.rules("swtcg.setup.out-of-units", "swtcg.setup.no-abilities", "swtcg.build.completed-not-forced")
def test_a_player_who_stops_deploying_stops_and_setup_ends_with_one_partial_build_each() -> None:
    steps = [d("p1", "DS-ISD"), d("p2", "LS-MC"), d("p2", "LS-ECB"), {"by": "p1", "do": "pass"}, d("p2", "LS-JK")]
    st = state(beginning(*steps))
    assert st.turn == "p2" and st.players["p1"].done  # p1 deploys no more; p2 goes on though ahead
    ctx = Ctx(st, default_pool())
    assert keyword_instances(ctx, "p1.DS-ISD") == []  # no abilities during setup
    more = [*steps, {"by": "p2", "do": "pass"},
            {"by": "p1", "do": "build", "card": "DS-ATAT", "counters": 9},  # overbuilt: 9 on a cost-6 unit
            {"by": "p2", "do": "build", "card": "LS-XW", "counters": 2, "roll": ["3"]}]
    result, seen = play(beginning(*more))
    assert result.error is None, result.error
    st = result.state
    assert st.cards["p1.DS-ATAT"].zone == "build" and not st.cards["p1.DS-ATAT"].built  # not forced into play
    assert st.round == 1 and st.phase == "command" and st.active == "p1"
    assert seen.events(8, "ready")[0]["roll"] == 3


def retreat_step(**p1: Any) -> Table:
    """The Light Side's retreat step of turn 2: both have a unit in every arena, all tapped."""
    t = (Table(step="retreat", arena=None, sentries=False).at(active="p2")
         .unit("p1.DS-TIE", tapped=True).unit("p1.DS-ATAT", tapped=True).unit("p1.DS-ST", tapped=True)
         .unit("p2.LS-XW", tapped=True).unit("p2.LS-RT", tapped=True).unit("p2.LS-JK", tapped=True)
         .unit("p2.LS-SP", zone="pilot", on="p2.LS-XW")  # untapped: it could retreat alone
         .set("p1", **{"hand": ["DS-TIEB"], "deck": ["DS-SPB", "DS-TIE"], **p1}).set("p2", hand=["LS-YW"]))
    return t


@pytest.mark.rules("swtcg.base.turn.ready", "swtcg.base.turn.command", "swtcg.build.start-triggers",
                   "swtcg.pilots.ready-phase", "swtcg.project.build-points-reset")
def test_the_ready_phase_untaps_gives_force_and_build_points_then_the_dark_side_draws() -> None:
    t = retreat_step().unit("p1.DS-TP", zone="pilot", on="p1.DS-TIE", tapped=True)  # a Starfighter pilot
    result, seen = play(t.log({"by": "p2", "do": "pass", "roll": ["4"]}))
    assert result.error is None, result.error
    st = result.state
    assert st.round == 3 and (st.step, st.active, st.wait) == ("build", "p1", "build")
    assert not any(c.tapped for c in st.cards.values())  # the pilot too
    assert (st.players["p1"].force, st.players["p2"].force) == (9, 9)
    assert (st.players["p1"].build, st.players["p2"].build) == (5, 5)  # 4, +1 with a unit in every arena
    assert st.players["p1"].hand == ["DS-TIEB", "DS-SPB"]


@pytest.mark.rules("swtcg.build.partial-build", "swtcg.build.no-draw-for-building", "swtcg.build.through-build-zone",
                   "swtcg.base.build", "swtcg.build.empty-deck")
def test_building_puts_counters_and_a_complete_unit_is_deployed() -> None:
    t = retreat_step(deck=[])
    base = [{"by": "p2", "do": "pass", "roll": ["2"]}]
    assert error(t.log(*base, d("p1", "DS-TIEB"))) == ("illegal-action", "swtcg.build.through-build-zone")
    assert error(t.log(*base, {"by": "p1", "do": "build", "card": "DS-TIEB", "counters": 4})) == \
        ("illegal-action", "swtcg.build.partial-build")
    early = t.log(*base, {"by": "p1", "do": "build", "card": "DS-TIEB", "counters": 2}, d("p1", "p1.DS-TIEB"))
    assert error(early) == ("illegal-action", "swtcg.build.partial-build")
    result, seen = play(t.log(*base, {"by": "p1", "do": "build", "card": "DS-TIEB", "counters": 3},
                              d("p1", "p1.DS-TIEB")))
    assert result.error is None, result.error
    st = result.state
    assert st.cards["p1.DS-TIEB"].zone == "space" and st.players["p1"].build == 0
    assert st.players["p1"].hand == [] and not seen.events(2, "draw")  # empty deck: nothing drawn, no harm


@pytest.mark.rules("swtcg.build.retreated-can-deploy", "swtcg.retreat.untapped-only")
def test_a_retreated_unit_is_deployed_again_and_only_untapped_units_retreat() -> None:
    t = retreat_step().unit("p1.DS-SPB", zone="build", tapped=True)
    result, _ = play(t.log({"by": "p2", "do": "pass", "roll": ["1"]}, d("p1", "p1.DS-SPB")))
    assert result.error is None, result.error
    assert result.state.cards["p1.DS-SPB"].zone == "ground"
    assert error(t.log({"by": "p2", "do": "retreat", "card": "p2.LS-XW"})) == \
        ("illegal-action", "swtcg.retreat.untapped-only")
    st = state(t.log({"by": "p2", "do": "retreat", "card": "p2.LS-SP", "roll": ["1"]}))
    assert st.cards["p2.LS-SP"].zone == "build" and st.cards["p2.LS-XW"].zone == "space"


@pytest.mark.rules("swtcg.build.start-triggers", "swtcg.keywords.upkeep-order", "swtcg.keywords.upkeep-mandatory",
                   "swtcg.keywords.upkeep-still-due")
def test_the_start_of_the_build_step_resolves_in_the_order_the_player_chooses() -> None:
    t = retreat_step().unit("p1.DS-BH", zone="build", tapped=True)  # retreated: its Upkeep is still due
    t.set("p1", bounties=[["p1.DS-BH:bounty", [["force", 1]]]])
    order = ["p1.DS-BH:bounty#1", "p1.DS-BH:upkeep", "p1:draw"]
    log = t.log({"by": "p2", "do": "pass", "roll": ["3"],
                 "choices": [{"by": "p1", "kind": "order", "answer": order},
                             {"by": "p1", "kind": "upkeep", "answer": "build:1"}]})
    result, seen = play(log)
    assert result.error is None, result.error
    kinds = [e["event"] for e in seen.events(1) if e["event"] in ("bounty", "upkeep", "draw")]
    assert kinds == ["bounty", "upkeep", "draw"]
    st = result.state
    assert st.players["p1"].force == 9 + 1 and st.players["p1"].build == 4 - 1
    assert not st.cards["p1.DS-BH"].tapped  # it paid with a build point (untapped in the ready phase)


@pytest.mark.rules("swtcg.project.upkeep-unpayable", "swtcg.build.start-trigger-once-per-turn")
def test_an_unpayable_upkeep_is_ignored_and_the_start_comes_once_a_turn() -> None:
    t = retreat_step().unit("p1.DS-BH")
    st = state(t.log())
    st.players["p1"].build = 0
    st.cards["p1.DS-BH"].tapped = True
    st.build_started = []
    ctx = Ctx(st, default_pool(), Inputs(choices=(Choice(["p1:draw", "p1.DS-BH:upkeep"]),)))
    build_start(ctx, "p1")
    upkeep = [r.to_json() for r in ctx.records if r.kind == "upkeep"]
    assert upkeep[0]["paid"] is None
    hand = len(st.players["p1"].hand)
    build_start(Ctx(st, default_pool()), "p1")  # a second build step this turn: nothing triggers again
    assert len(st.players["p1"].hand) == hand


@pytest.mark.rules("swtcg.base.battle.order", "swtcg.base.battle", "swtcg.battle.empty-arena")
def test_units_act_in_speed_order_and_go_through_an_arena_without_enemies() -> None:
    t = Table().unit("p1.DS-TIE").unit("p2.LS-AW").unit("p2.LS-XW")  # A-wing 70 before the TIE and X-wing 50
    assert error(t.log({"by": "p1", "do": "attack", "card": "p1.DS-TIE", "target": "p2.LS-XW"})) == \
        ("illegal-action", "swtcg.base.battle.order")
    st = state(t.log({"by": "p2", "do": "skip", "card": "p2.LS-AW"}))
    assert (st.turn, st.acting) == ("p1", ["p1.DS-TIE"])  # tie at 50: the Dark Side's first
    t2 = Table().unit("p1.DS-TIE")  # no Light Side unit in Space: the TIE goes through its turn
    st2 = state(t2.log())
    assert st2.cards["p1.DS-TIE"].tapped and st2.arena == "character"


@pytest.mark.rules("swtcg.base.win", "swtcg.turn.battle-phase-ends-triggers")
def test_a_player_controlling_two_arenas_at_the_end_of_the_turn_wins() -> None:
    t = (Table(arena="character", sentries=False).unit("p1.DS-TIE", tapped=True).unit("p1.DS-ATAT", tapped=True)
         .unit("p1.DS-ST").unit("p2.LS-JK", tapped=True).set("p2", force=0))
    result, seen = play(t.log({"by": "p1", "do": "skip", "card": "p1.DS-ST"}))
    assert result.error is None, result.error
    assert result.state.winner == "p1" and result.state.phase == "over"
    assert seen.events(1, "victory")[0]["arenas"] == {"space": "p1", "ground": "p1", "character": None}
    assert result.outcome() == {"winner": "p1", "reason": "arenas", "rules": ["swtcg.base.win"]}


@pytest.mark.rules("swtcg.build.no-chances", "swtcg.abilities.activated-definition")
def test_the_build_step_has_no_chance_to_play() -> None:
    t = retreat_step()
    st = state(t.log({"by": "p2", "do": "pass", "roll": ["2"]}))
    assert st.wait == "build" and st.chance is None
    assert error(t.log({"by": "p2", "do": "pass", "roll": ["2"]}, {"by": "p1", "do": "use",
                                                                   "ability": "p1.DS-ST:stun"})) == \
        ("illegal-action", "swtcg.abilities.activated-definition")


@pytest.mark.rules("swtcg.build.start-triggers")
def test_a_bounty_is_earned_when_its_unit_discards_another_and_collected_at_the_next_build_step() -> None:
    t = (Table(arena="character").unit("p1.DS-BH").unit("p2.LS-SEN", damage=2, tapped=True).unit("p2.LS-MED")
         .set("p2", force=0))
    st = state(t.log({"by": "p1", "do": "attack", "card": "p1.DS-BH", "target": "p2.LS-SEN",
                      "roll": ["5", "1", "1"]}))
    assert "p2.LS-SEN" not in st.cards
    assert st.players["p1"].bounties == [["p1.DS-BH:bounty", [["force", 1]]]]


def test_the_viewer_gets_the_cards_of_a_state() -> None:
    from judge.games.swtcg.game import GAME

    out = GAME.viewer_cards(["p1.DS-TIE", "p2.LS-XW:evade", "DS-FL", "nothing"], default_pool())
    assert out["refs"]["p2.LS-XW:evade"] == {"code": "LS-XW", "player": "p2"}
    assert out["cards"]["DS-TIE"]["speed"] == 50 and out["cards"]["DS-FL"]["type"] == "battle"
    assert "nothing" not in out["refs"]


@pytest.mark.rules("swtcg.pop.dice-roll", "swtcg.base.turn.ready", "swtcg.abilities.battle-cards")
def test_the_build_point_roll_is_followed_by_a_chance_to_reroll_it() -> None:
    # any roll is followed by a chance to reroll (swtcg.pop.dice-roll), the build-point die too: a
    # unit's activated "Reroll 1 die" may reroll it (not a battle card: the ready phase is no battle
    # phase), and the build points come from the result
    pool = CardPool(dict(default_pool().cards))
    pool.add(replace(pool.cards["LS-XW"], code="T-RR", name="Test Rerolling Wing", keywords=(),
                     plays=(Play(cost=1, options=((Effect("reroll", 1),),), windows=("reroll",)),)))
    t = retreat_step().unit("p2.T-RR", zone="space", tapped=True).set("p2", hand=["LS-LS"])
    rolled = [{"by": "p2", "do": "pass", "roll": ["2"]}]
    result, seen = play(t.log(*rolled), pool)
    assert result.error is None, result.error
    st = result.state
    assert st.phase == "ready" and st.chance is not None and st.chance.kind == "reroll" and st.turn == "p2"
    assert st.may == ["use p2.T-RR:play"] and st.roll is not None and st.roll.dice == [2] and st.roll.purpose == "build"
    assert not seen.events(1, "ready")  # no build points until the chance ends
    result, seen = play(t.log(*rolled, {"by": "p2", "do": "use", "ability": "p2.T-RR:play", "dice": [0],
                                        "roll": ["6"]}), pool)
    assert result.error is None, result.error
    [ready] = seen.events(2, "ready")
    assert ready["roll"] == 6 and ready["build"] == {"p1": 7, "p2": 7}  # +1 each: a unit in every arena
    assert result.state.players["p2"].force == 9 - 1 and result.state.active == "p1"
    # passing keeps the roll; Lucky Shot alone (a battle card) gives nothing to do: nobody is asked
    st = state(t.log(*rolled, {"by": "p2", "do": "pass"}), pool)
    assert st.players["p1"].build == 3 and st.step == "build"
    result, seen = play(retreat_step().set("p2", hand=["LS-LS"]).log(*rolled))
    assert result.state.players["p1"].build == 3 and result.state.step == "build"
    assert [e["auto"] for e in seen.events(1, "pass") if e["what"] == "chance"][-2:] == [True, True]
