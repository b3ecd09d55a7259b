"""Luke Skywalker (N) gains control of a Dark Side Character; Obi-Wan's Spirit does not count for
arena control, prevents all damage to and from it, and makes your Jedi Characters' activated
abilities cost 1 less (the digest's example of swtcg.costs.x-uses-printed-cost names both)."""

from __future__ import annotations

import pytest

from judge.games.swtcg.cards import default_pool
from judge.games.swtcg.engine import Ctx, cost_delta, remove_from_play
from judge.games.swtcg.game import Swtcg
from judge.games.swtcg.model import card_from, card_json
from judge.games.swtcg.setup import from_position
from tests.judge.swtcg.table import Table, error, play, state

PLAYERS = [{"id": "p1"}, {"id": "p2"}]
POOL = default_pool()
TAKE = {"by": "p2", "do": "use", "ability": "p2.LS-LN:play", "target": "p1.DS-VK", "amount": 10}


def attack(attacker: str, target: str | None, roll: list[str], by: str | None = None) -> dict[str, object]:
    step: dict[str, object] = {"by": by or attacker.split(".")[0], "do": "attack", "card": attacker, "roll": roll}
    if target is not None:
        step["target"] = target
    return step


def skip(card: str) -> dict[str, object]:
    return {"by": card.split(".")[0], "do": "skip", "card": card}


def luke(spirit: bool = True, sidious: bool = False, **p2: object) -> Table:
    """The battle phase starts (a chance to play): Luke (N), untapped, faces Darth Vader (K, build
    cost 10) and a Stormtrooper Squad in the Character arena; Obi-Wan's Spirit beside Luke."""
    t = Table(arena=None).at(step="battle").unit("p1.DS-VK").unit("p1.DS-ST").unit("p2.LS-LN").set("p2", **p2)
    if spirit:
        t.unit("p2.LS-OWS")
    if sidious:
        t.unit("p1.DS-SID", tapped=True)
    return t


def test_both_cards_are_implemented_and_their_card_json_round_trips() -> None:
    for code in ("LS-LN", "LS-OWS"):
        card = POOL.cards[code]
        assert card.implemented and not card.unparsed
        assert card_from(card_json(card)) == card
    assert card_json(POOL.cards["LS-OWS"])["statics"][2]["of"] == "character:Jedi"


@pytest.mark.rules("swtcg.costs.x-uses-printed-cost", "swtcg.project.gain-control", "swtcg.control.controller",
                   "swtcg.costs.must-pay")
def test_with_obi_wan_s_spirit_taking_vader_costs_9_and_still_takes_the_cost_10_unit() -> None:
    result, seen = play(luke(force=9).log(TAKE))
    assert result.error is None, result.error
    st = result.state
    [use] = seen.all("use")
    assert use["cost"] == 9 and "swtcg.costs.x-uses-printed-cost" in use["rules"]
    assert st.players["p2"].force == 0 and st.cards["p2.LS-LN"].tapped
    [taken] = [e for e in seen.all("effect") if e["effect"] == "gain-control"]
    assert (taken["target"], taken["amount"]) == ("p1.DS-VK", 10)  # X is the printed 10, not the 9 paid
    assert st.cards["p1.DS-VK"].controller == "p2" and st.cards["p1.DS-VK"].owner == "p1"
    # without the Spirit, 9 Force is not enough
    assert error(luke(spirit=False, force=9).log(TAKE)) == ("illegal-action", "swtcg.costs.must-pay")
    assert play(luke(spirit=False, force=10).log(TAKE))[0].state.players["p2"].force == 0


@pytest.mark.rules("swtcg.costs.x-uses-printed-cost")
def test_with_darth_sidious_also_in_the_arena_it_costs_11() -> None:
    assert error(luke(sidious=True, force=10).log(TAKE)) == ("illegal-action", "swtcg.costs.must-pay")
    result, seen = play(luke(sidious=True, force=11).log(TAKE))
    assert result.error is None, result.error
    assert seen.all("use")[0]["cost"] == 11 and result.state.cards["p1.DS-VK"].controller == "p2"


@pytest.mark.rules("swtcg.costs.x-uses-printed-cost", "swtcg.project.gain-control")
def test_x_must_be_named_and_reach_the_target_s_build_cost() -> None:
    t = luke(force=20).unit("p1.DS-TIE").unit("p2.LS-JK")
    assert error(t.log({**TAKE, "amount": 9})) == ("illegal-action", "swtcg.costs.x-uses-printed-cost")
    no_x = {k: v for k, v in TAKE.items() if k != "amount"}
    assert error(t.log(no_x)) == ("illegal-action", "swtcg.costs.x-uses-printed-cost")
    # a Dark Side Character unit another player controls, in the Character arena
    assert error(t.log({**TAKE, "target": "p2.LS-JK"}))[1] == "swtcg.project.gain-control"
    assert error(t.log({**TAKE, "target": "p1.DS-TIE"}))[1] == "swtcg.cards.type-reference"
    # a cheaper unit: X is what the step names, and that is what is paid (less the Spirit's 1)
    result, seen = play(t.log({**TAKE, "target": "p1.DS-ST", "amount": 2}))
    assert result.error is None, result.error
    assert seen.all("use")[0]["cost"] == 1 and result.state.cards["p1.DS-ST"].controller == "p2"


@pytest.mark.rules("swtcg.project.gain-control", "swtcg.control.controller", "swtcg.control.owner")
def test_the_taken_unit_attacks_for_its_new_controller_and_goes_back_when_the_character_step_ends() -> None:
    steps = [TAKE, attack("p1.DS-VK", "p1.DS-ST", ["4"] * 6, by="p2"),  # Vader (speed 50) acts first, for p2
             skip("p2.LS-OWS"), skip("p1.DS-SEN")]
    st = state(luke(force=9).log(*steps))
    assert st.cards["p1.DS-VK"].controller == "p2" and st.cards["p1.DS-VK"].tapped
    assert "p1.DS-ST" not in st.cards and "DS-ST" in st.players["p1"].discard  # its owner's pile
    assert [m["stat"] for m in st.mods] == ["control:p1"]
    # p1 cannot act with it meanwhile
    assert error(luke(force=9).log(TAKE, attack("p1.DS-VK", "p2.LS-LN", [], by="p1")))[0] == "illegal-action"
    result, seen = play(luke(force=9).log(*steps, skip("p2.LS-SEN"), rng="control"))
    assert result.error is None, result.error
    st = result.state
    assert st.round == 3 and st.cards["p1.DS-VK"].controller == "p1" and st.mods == []
    [back] = [e for e in seen.all("effect") if e["effect"] == "control-ends"]
    assert back["target"] == "p1.DS-VK" and back["source"] == "p2.LS-LN:play"
    ends = [(r.at, e["event"]) for r in seen.records for e in r.events
            if e["event"] == "phase" and e.get("phase") == "ready" or e.get("effect") == "control-ends"]
    assert [what for _, what in ends] == ["effect", "phase"]  # before the turn ends, not after


def test_a_taken_unit_that_is_discarded_goes_to_its_owner_and_its_control_ends_with_it() -> None:
    t = luke(force=9).unit("p2.LS-JK")
    st = state(t.log(TAKE))
    assert remove_from_play(Ctx(st, POOL), "p1.DS-VK", "effect")
    assert "DS-VK" in st.players["p1"].discard and "DS-VK" not in st.players["p2"].discard and st.mods == []


def test_control_until_the_character_step_ends_round_trips_through_a_position() -> None:
    st = state(luke(force=9).log(TAKE))
    again, faults = from_position(st.position(), PLAYERS, POOL)
    assert faults == [] and again is not None
    assert again.mods == st.mods and again.cards["p1.DS-VK"].controller == "p2"
    assert again.state_hash() == st.state_hash()


@pytest.mark.rules("swtcg.project.gain-control")
def test_self_play_finds_the_step_that_takes_a_unit_with_x_its_build_cost() -> None:
    st = state(luke(force=9).log())
    game = Swtcg()
    steps = [a for a in game.legal_actions(st, POOL) if getattr(a, "ability", "") == "p2.LS-LN:play"]
    assert {(a.target, a.amount) for a in steps} >= {("p1.DS-VK", 10), ("p1.DS-ST", 2)}
    assert all(game.check(st, a, POOL) is None for a in steps)


# ---------------------------------------------------------------------- Obi-Wan's Spirit
def spirit_alone(other: str | None = None) -> Table:
    """The Character battle step, its last unit to act: the Light Side has an X-wing in the Space
    arena and, in the Character arena, Obi-Wan's Spirit (and ``other``); the Dark Side has a unit
    only in the Ground arena."""
    t = (Table(arena="character", sentries=False).unit("p2.LS-XW", tapped=True).unit("p1.DS-SPB", tapped=True)
         .unit("p2.LS-OWS").set("p1", hand=["DS-DRAIN"]))  # (a card to play: the chance waits for p1)
    if other:
        t.unit(other, tapped=True)
    return t


PASS = {"by": "p1", "do": "pass"}


@pytest.mark.rules("swtcg.base.win")
def test_obi_wan_s_spirit_alone_does_not_control_the_character_arena() -> None:
    # (no enemy in its arena: it has nothing to attack, and the turn ends; the ready phase rolls a die)
    result, seen = play(spirit_alone().log({**PASS, "roll": ["4"]}))
    assert result.error is None, result.error
    assert result.state.round == 3 and result.state.winner is None and not seen.all("victory")
    # another Light Side unit beside it does
    result, seen = play(spirit_alone("p2.LS-SEN").log(PASS))
    assert result.error is None, result.error
    assert result.state.winner == "p2" and seen.all("victory")[0]["arenas"]["character"] == "p2"


@pytest.mark.rules("swtcg.project.prevent-all", "swtcg.pop.damage", "swtcg.damage.excess-prevention-wasted")
def test_all_damage_to_obi_wan_s_spirit_is_prevented_before_anyone_plays() -> None:
    t = Table(arena="character").unit("p1.DS-ST", zone="character").unit("p2.LS-OWS", tapped=True).set("p2", force=3)
    t.unit("p2.LS-JK", tapped=True)
    result, seen = play(t.log(attack("p1.DS-ST", "p2.LS-OWS", ["4", "5", "6"])))
    assert result.error is None, result.error
    [prevent] = seen.all("prevent")
    assert (prevent["ability"], prevent["target"], prevent["prevented"], prevent["player"]) == \
        ("p2.LS-OWS:prevent-all", "p2.LS-OWS", 3, "p2")
    assert result.state.cards["p2.LS-OWS"].damage == 0 and not seen.all("damage") and not seen.all("stun")


@pytest.mark.rules("swtcg.project.prevent-all")
def test_all_damage_from_obi_wan_s_spirit_is_prevented_and_it_works_only_in_an_arena() -> None:
    # Evasive Maneuver gives it +2 power for its attack: the hits it rolls do nothing
    t = Table(arena="character").unit("p2.LS-OWS").unit("p1.DS-ST", tapped=True).set("p2", hand=["LS-EM"], force=2)
    em = {"by": "p2", "do": "play", "card": "LS-EM", "option": 0, "target": "p2.LS-OWS", "roll": ["6", "6"]}
    result, seen = play(t.log(attack("p2.LS-OWS", "p1.DS-ST", []), em))
    assert result.error is None, result.error
    [hits] = seen.all("hits")
    assert hits["damage"] == 2
    [prevent] = seen.all("prevent")
    assert (prevent["ability"], prevent["target"], prevent["prevented"]) == ("p2.LS-OWS:prevent-all", "p1.DS-ST", 2)
    assert result.state.cards.get("p1.DS-ST") is not None and result.state.cards["p1.DS-ST"].damage == 0
    # in the build zone it prevents nothing
    t = Table(arena="character").unit("p1.DS-ST", zone="character").unit("p2.LS-OWS", zone="build")
    result, seen = play(t.log(attack("p1.DS-ST", "p2.LS-SEN", ["4", "5", "1"])))
    assert result.error is None, result.error
    assert not seen.all("prevent") and result.state.cards["p2.LS-SEN"].damage == 2


@pytest.mark.rules("swtcg.cards.subtype-reference", "swtcg.control.you-your")
def test_the_spirit_makes_only_your_jedi_characters_abilities_cheaper() -> None:
    t = (Table(arena=None).at(step="battle").unit("p2.LS-OWS").unit("p2.LS-LN").unit("p2.LS-XW")
         .unit("p2.LS-SG").unit("p1.DS-SID"))
    st = state(t.log())
    ctx = Ctx(st, POOL)
    assert cost_delta(ctx, "p2", "ability", "p2.LS-LN") == -1 + 2  # Jedi Knight: -1, and Sidious's +2
    assert cost_delta(ctx, "p2", "ability", "p2.LS-XW") == 2  # a Starfighter
    assert cost_delta(ctx, "p2", "ability", "p2.LS-SG") == 2  # a Rebel Technician, a Character but no Jedi
    assert cost_delta(ctx, "p1", "ability", "p1.DS-SID") == 0  # the opponent's: "your" Jedi only
    assert cost_delta(ctx, "p2", "battle") == 0  # battle cards: no change
