"""Timing words through the kernel (relic.timing.*) and discarding (relic.discard.*)."""

from __future__ import annotations

import pytest

from tests.judge.relic.helpers import battle, error, events, final, last_events, log, run, step


def orders(*answer: str) -> list[dict[str, object]]:
    return [{"by": "p1", "kind": "order", "answer": list(answer)}]


@pytest.mark.rules("relic.timing.start", "relic.timing.active-player-orders")
def test_two_start_of_battle_effects_resolve_in_the_order_the_active_player_chooses() -> None:
    for answer in (["ork-boy", "ork-nob"], ["ork-nob", "ork-boy"]):
        data = log([{**step("battle", enemies=["ork-boy", "ork-nob"]), "choices": orders(*answer)}])
        evs = last_events(data)
        assert [e["event"] for e in evs][:1] == ["contest-begins"]
        decision = [d for d in run(data)[1].steps[-1].decisions]
        assert decision[0]["by"] == "p1" and decision[0]["rules"] == ["relic.timing.active-player-orders"]
        triggered = [e["ability"] for e in evs if e["event"] == "triggered"]
        assert triggered == answer
        effects = [e["card"] for e in evs if e["event"] == "effect"]
        assert effects == answer


@pytest.mark.rules("relic.timing.active-player-orders")
def test_without_the_order_the_ruling_is_pending_on_the_active_player() -> None:
    result, _ = run(log([step("battle", enemies=["ork-boy", "ork-nob"])]))
    assert result.error is not None and result.error.kind == "pending-decision"
    assert result.error.pending["by"] == "p1" and result.error.pending["kind"] == "order"
    assert result.error.pending["options"] == ["ork-boy", "ork-nob"]
    wrong = log([{**step("battle", enemies=["ork-boy", "ork-nob"]),
                  "choices": [{"by": "p2", "kind": "order", "answer": ["ork-boy", "ork-nob"]}]}])
    assert error(wrong).rule == "relic.timing.active-player-orders"


@pytest.mark.rules("relic.timing.start")
def test_start_effects_resolve_before_the_roll_and_change_the_battle() -> None:
    data = battle(["ork-nob"], step("roll", roll=["2", "3"]))
    view = final(data)
    # 2 (enemy die) + 4 (Nob) + 1 (its start effect)
    assert view["contest"]["against"] == 7 and view["contest"]["enemy_score"] == 1


@pytest.mark.rules("relic.timing.end")
def test_end_of_battle_effects_resolve_after_every_other_rule() -> None:
    data = battle(["daemonette"], step("roll", roll=["1", "6", "5"]), step("resolve"))
    evs = events(data)
    kinds = [e["event"] for e in evs]
    at = kinds.index("contest-resolved")
    assert kinds[at:] == ["contest-resolved", "trophy", "queued", "resolving", "effect"]
    assert evs[-1]["effect"] == "lose-life" and evs[-1]["now"] == 4
    assert evs[at + 2]["rules"] == ["relic.timing.end", "relic.timing.end"]


@pytest.mark.rules("relic.timing.during")
def test_during_effects_are_optional_and_only_in_their_window() -> None:
    # the Auspex may be used or not: a battle without it is whole
    assert error(battle(["ork-boy"], step("roll", roll=["1", "2"]), step("resolve"))) is None
    outside = log([step("end-phase"), step("use", card="p1.las-cell")], assets=("las-cell",), encounter=False)
    assert error(outside).rule == "relic.timing.during"
    start_by_hand = battle(["plain"], step("use", card="p1.starter"), cards={
        "plain": {"name": "Plain", "class": "Threat", "type": "Enemy", "battle": {"color": "red", "value": 1}},
        "starter": {"name": "Starter", "class": "Wargear", "type": "Equipment",
                    "effect": {"kind": "score", "value": 1, "timing": "start", "window": "battle"}}},
        assets=("starter",))
    assert error(start_by_hand).rule == "relic.timing.during"


@pytest.mark.rules("relic.cards.type-timing")
def test_a_weapon_is_used_only_in_a_battle() -> None:
    data = log([step("test", skill="strength", target=5), step("roll", roll=["3"]),
                step("use", card="p1.blessed-ammunition", die="d1")], assets=("blessed-ammunition",))
    assert error(data).rule == "relic.cards.type-timing"
    ok = battle(["ork-boy"], step("roll", roll=["1", "3"]), step("use", card="p1.blessed-ammunition", die="d1",
                                                                   roll=["5"]), assets=("blessed-ammunition",))
    assert error(ok) is None
    # a weapon's bonus is declared in a battle only, as its effect is used there only
    sighted = {"sighted-rifle": {"name": "Sighted Rifle", "class": "Wargear", "type": "Weapon",
                                 "bonuses": [{"kind": "skill", "color": "red", "value": 1}]}}
    in_test = log([step("test", skill="strength", target=8), step("declare", card="p1.sighted-rifle")], cards=sighted,
                  assets=("sighted-rifle",))
    assert error(in_test).rule == "relic.cards.type-timing"
    equipment = {"sight": {**sighted["sighted-rifle"], "name": "Sight", "type": "Equipment"}}
    assert error(log([step("test", skill="strength", target=8), step("declare", card="p1.sight")], cards=equipment,
                     assets=("sight",))) is None


@pytest.mark.rules("relic.discard.player-chooses", "relic.discard.pile")
def test_the_player_chooses_which_card_to_discard() -> None:
    data = log([{**step("battle", enemies=["genestealer"]),
                 "choices": [{"by": "p1", "kind": "discard", "answer": ["p1.divination"]}]}],
               power=("emperors-grace", "divination"))
    gone = events(data, "discarded")
    assert [(e["card"], e["why"]) for e in gone] == [("p1.divination", "effect")]
    assert final(data)["players"]["p1"]["discard"] == ["divination"]
    result, _ = run(log([step("battle", enemies=["genestealer"])], power=("emperors-grace", "divination")))
    assert result.error is not None and result.error.pending["kind"] == "discard"
    assert result.error.pending["by"] == "p1" and result.error.pending["count"] == 1
    bad = log([{**step("battle", enemies=["genestealer"]),
                "choices": [{"by": "p1", "kind": "discard", "answer": ["p1.needle-rifle"]}]}],
              power=("emperors-grace", "divination"))
    assert error(bad).rule == "relic.discard.player-chooses"


@pytest.mark.rules("relic.discard.insufficient")
def test_fewer_cards_than_required_discards_what_there_is() -> None:
    one = log([step("battle", enemies=["genestealer"])], power=("divination",))
    assert [e["card"] for e in events(one, "discarded")] == ["p1.divination"]
    none = log([step("battle", enemies=["genestealer"])])
    short = events(none, "discard-short")
    assert short == [{"event": "discard-short", "player": "p1", "type": "Power", "required": 1, "discarded": 0,
                      "rules": ["relic.discard.insufficient"]}]
    assert events(none, "discarded") == []


@pytest.mark.rules("relic.discard.pile")
def test_tokens_are_removed_from_a_discarded_card() -> None:
    data = log([step("end-phase"), step("discard", cards=["p1.needle-rifle"])])
    gone = events(data, "discarded")
    assert gone[0]["tokens"] == 2 and gone[0]["why"] == "experience"
    view = final(data)
    assert view["players"]["p1"]["assets"] == [] and view["players"]["p1"]["discard"] == ["needle-rifle"]


@pytest.mark.rules("relic.discard.experience-phase-only")
def test_discarding_by_choice_only_in_ones_own_experience_phase() -> None:
    early = log([step("discard", cards=["p1.needle-rifle"])])
    assert error(early).rule == "relic.discard.experience-phase-only"
    # Ben in Ana's Experience phase
    others = log([step("end-phase"), {"by": "p2", "do": "discard", "cards": ["p2.x"]}])
    assert error(others).rule == "relic.discard.experience-phase-only"
    assert error(log([step("end-phase"), {"by": "p2", "do": "roll"}])).rule == "relic.base.turn"
    # an effect may require it outside: the Genestealer's start-of-battle discard in the Encounter phase
    assert events(log([step("battle", enemies=["genestealer"])], power=("divination",)), "discarded")


@pytest.mark.rules("relic.base.battle", "relic.base.life")
def test_losing_a_battle_costs_a_life_and_the_enemys_penalty() -> None:
    data = battle(["plague-zombie"], step("roll", roll=["6", "5", "1"]), step("resolve"),
                  assets=("needle-rifle", "auspex"))
    data["steps"][-1]["choices"] = [{"by": "p1", "kind": "discard", "answer": ["p1.auspex"]}]
    evs = events(data)
    resolved = next(e for e in evs if e["event"] == "contest-resolved")
    assert resolved["outcome"] == "lose"
    assert [e["now"] for e in evs if e["event"] == "effect"] == [4]
    assert final(data)["players"]["p1"]["discard"] == ["auspex"]
