"""Skill and battle bonuses (relic.bonuses.*) and charges (relic.charges.*)."""

from __future__ import annotations

import pytest

from replays.errors import MalformedLog
from replays.format import parse_log
from tests.judge.relic.helpers import battle, error, events, final, log, run, step
from tests.judge.relic.test_positions import position_log

RED = {"brute": {"name": "Brute", "class": "Threat", "type": "Enemy", "battle": {"color": "red", "value": 3}}}
BLUE = {"wraith": {"name": "Wraith", "class": "Threat", "type": "Enemy", "battle": {"color": "blue", "value": 3}}}


@pytest.mark.rules("relic.bonuses.battle", "relic.bonuses.battle-declare", "relic.bonuses.battle-colors")
def test_a_declared_gray_battle_bonus_adds_to_the_battle_score() -> None:
    data = battle(["brute"], step("declare", card="p1.carapace-armour"), step("roll", roll=["2", "3"]),
                  cards=RED, assets=("carapace-armour",))
    assert events(data, "declared")[0]["bonus"] == {"kind": "battle", "color": "gray", "value": 1}
    assert final(data)["contest"]["player_score"] == 4 + 1 + 3


@pytest.mark.rules("relic.bonuses.battle-colors")
def test_a_battle_bonus_of_another_colour_does_not_fit() -> None:
    red_pistol_blue_battle = battle(["wraith"], step("declare", card="p1.bolt-pistol"), cards=BLUE,
                                    assets=("bolt-pistol",))
    assert error(red_pistol_blue_battle).rule == "relic.bonuses.battle-colors"
    fits = battle(["brute"], step("declare", card="p1.bolt-pistol"), cards=RED, assets=("bolt-pistol",))
    assert error(fits) is None


@pytest.mark.rules("relic.bonuses.battle-declare", "relic.bonuses.skill-declare")
def test_bonuses_are_declared_before_the_roll() -> None:
    late = battle(["brute"], step("roll", roll=["2", "3"]), step("declare", card="p1.carapace-armour"), cards=RED,
                  assets=("carapace-armour",))
    assert error(late).rule == "relic.bonuses.battle-declare"
    late_skill = log([step("test", skill="willpower", target=7), step("roll", roll=["2"]),
                      step("declare", card="p1.purity-seal")], assets=("purity-seal",))
    assert error(late_skill).rule == "relic.bonuses.skill-declare"


@pytest.mark.rules("relic.bonuses.skill", "relic.bonuses.skill-colors", "relic.bonuses.skill-declare")
def test_a_skill_bonus_adds_to_its_characteristic_test_only() -> None:
    passing = log([step("test", skill="willpower", target=7), step("declare", card="p1.purity-seal"),
                   step("roll", roll=["2"]), step("resolve")], assets=("purity-seal",))
    resolved = events(passing, "contest-resolved")[0]
    assert (resolved["score"], resolved["against"], resolved["outcome"]) == (4 + 1 + 2, 7, "pass")
    wrong_colour = log([step("test", skill="strength", target=7), step("declare", card="p1.purity-seal")],
                       assets=("purity-seal",))
    assert error(wrong_colour).rule == "relic.bonuses.skill-colors"
    in_battle = battle(["wraith"], step("declare", card="p1.purity-seal"), cards=BLUE, assets=("purity-seal",))
    assert error(in_battle).rule == "relic.bonuses.skill"


@pytest.mark.rules("relic.bonuses.battle")
def test_a_battle_bonus_never_adds_to_a_skill_test() -> None:
    data = log([step("test", skill="strength", target=7), step("declare", card="p1.bolt-pistol")],
               assets=("bolt-pistol",))
    assert error(data).rule == "relic.bonuses.battle"


@pytest.mark.rules("relic.bonuses.skill-colors", "relic.cards.anatomy")
def test_a_gray_skill_bonus_is_a_fault_of_the_card() -> None:
    cards = {"odd": {"name": "Odd", "class": "Wargear", "type": "Equipment",
                     "bonuses": [{"kind": "skill", "color": "gray", "value": 1}]}}
    with pytest.raises(MalformedLog) as exc:
        parse_log(log([], cards=cards, assets=("odd",)))
    assert [f.path for f in exc.value.faults] == ["/setup/cards/odd/bonuses/0/color"]


@pytest.mark.rules("relic.base.battle")
def test_one_weapon_per_battle() -> None:
    data = battle(["brute"], step("declare", card="p1.bolt-pistol"), step("declare", card="p1.needle-rifle"),
                  cards=RED, assets=("bolt-pistol", "needle-rifle"))
    assert error(data).rule == "relic.base.battle"


@pytest.mark.rules("relic.charges.initial", "relic.charges.spend", "relic.charges.one-per-card-per-turn")
def test_the_needle_rifle_example_one_token_per_turn() -> None:
    data = log([step("battle", enemies=["brute"]), step("declare", card="p1.needle-rifle")], cards=RED)
    _, seen = run(data)
    assert seen.setup is not None
    assert [e for e in seen.setup.events if e["event"] == "charges-placed"] == [
        {"event": "charges-placed", "player": "p1", "card": "p1.needle-rifle", "charges": 2,
         "rules": ["relic.charges.initial"]}]
    spent = events(data, "charge-spent")
    assert spent == [{"event": "charge-spent", "player": "p1", "card": "p1.needle-rifle", "left": 1,
                      "rules": ["relic.charges.spend", "relic.charges.one-per-card-per-turn"]}]
    second = log([step("battle", enemies=["brute"]), step("declare", card="p1.needle-rifle"),
                  step("roll", roll=["1", "4"]), step("resolve"),
                  step("battle", enemies=["brute"]), step("declare", card="p1.needle-rifle")], cards=RED)
    err = error(second)
    assert err.rule == "relic.charges.one-per-card-per-turn" and err.at == len(second["steps"])


@pytest.mark.rules("relic.charges.one-per-card-per-turn")
def test_a_copy_bought_after_the_first_went_is_another_card_with_its_own_charge() -> None:
    cards = {**RED, "one-shot": {"name": "One-shot", "class": "Wargear", "type": "Weapon", "charges": 1, "influence": 1,
                                 "bonuses": [{"kind": "battle", "color": "gray", "value": 2, "charge": True}]}}
    data = log([step("battle", enemies=["brute"]), step("declare", card="p1.one-shot"), step("roll", roll=["1", "5"]),
                step("resolve"), step("buy", card="one-shot"), step("battle", enemies=["brute"]),
                step("declare", card="p1.one-shot#2")], cards=cards, assets=("one-shot",))
    assert error(data) is None
    assert [e["card"] for e in events(data, "charge-spent")] == ["p1.one-shot", "p1.one-shot#2"]
    # the first copy is gone: its reference names no card in play
    gone = log([*data["steps"][2:-1], step("declare", card="p1.one-shot")], cards=cards, assets=("one-shot",))
    assert error(gone) is not None


@pytest.mark.rules("relic.charges.one-per-card-per-turn", "relic.project.charge-turn")
def test_the_count_starts_again_on_the_players_next_turn() -> None:
    turn = [step("end-phase"), step("end-phase")] + [{"by": "p2", "do": "end-phase"}] * 4 + [
        step("end-phase"), step("end-phase")]
    data = log([step("battle", enemies=["brute"]), step("declare", card="p1.needle-rifle"),
                step("roll", roll=["1", "4"]), step("resolve"), *turn,
                step("battle", enemies=["brute"]), step("declare", card="p1.needle-rifle")], cards=RED)
    view = final(data)
    assert view["round"] == 2 and view["turn"] == "p1"
    # the second token went: the rifle is discarded, its tokens gone
    assert view["players"]["p1"]["assets"] == [] and view["players"]["p1"]["discard"] == ["needle-rifle"]


@pytest.mark.rules("relic.charges.last-token-discard", "relic.discard.pile", "relic.project.bonus-outlives-card")
def test_spending_the_last_token_discards_the_card_at_once_and_its_bonus_counts() -> None:
    cards = {**RED, "one-shot": {"name": "One-shot", "class": "Wargear", "type": "Weapon", "charges": 1,
                                 "bonuses": [{"kind": "battle", "color": "gray", "value": 3, "charge": True}]}}
    data = battle(["brute"], step("declare", card="p1.one-shot"), step("roll", roll=["1", "2"]), cards=cards,
                  assets=("one-shot",))
    evs = events(data)
    kinds = [e["event"] for e in evs if e["event"] in ("charge-spent", "discarded", "declared")]
    assert kinds == ["charge-spent", "discarded", "declared"]
    gone = next(e for e in evs if e["event"] == "discarded")
    assert gone["why"] == "last-charge" and gone["tokens"] == 0
    view = final(data)
    assert view["players"]["p1"]["discard"] == ["one-shot"]
    assert view["contest"]["player_score"] == 4 + 3 + 2


@pytest.mark.rules("relic.charges.spend")
def test_no_token_no_spending() -> None:
    empty = position_log(phase="encounter", assets=[{"ref": "p1.needle-rifle", "code": "needle-rifle",
                                                     "charges": 0}],
                         steps=[step("battle", enemies=["ork-boy"]), step("declare", card="p1.needle-rifle")])
    assert error(empty).rule == "relic.charges.spend"


@pytest.mark.rules("relic.charges.add-beyond-value")
def test_added_tokens_may_exceed_the_charge_value() -> None:
    data = log([step("end-phase"), step("use", card="p1.las-cell"), step("use", card="p1.las-cell")],
               assets=("needle-rifle", "las-cell"))
    data["steps"][-2]["choices"] = [{"by": "p1", "kind": "card", "answer": "p1.needle-rifle"}]
    data["steps"][-1]["choices"] = [{"by": "p1", "kind": "card", "answer": "p1.needle-rifle"}]
    added = events(data, "charges-added")
    assert [(e["added"], e["charges"]) for e in added] == [(1, 3), (1, 4)]
    rifle = final(data)["players"]["p1"]["assets"][0]
    assert rifle["charges"] == 4 > rifle["charge_value"] == 2
    result, _ = run(log([step("end-phase"), step("use", card="p1.las-cell")], assets=("needle-rifle", "las-cell")))
    assert result.error is not None and result.error.kind == "pending-decision"
    assert result.error.pending["by"] == "p1" and result.error.pending["options"] == ["p1.needle-rifle", "p1.las-cell"]
