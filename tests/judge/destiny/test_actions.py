"""The actions: activate, reroll, play (upgrades, supports, uniqueness, replacing, the limit of 3),
power actions, and the keywords Ambush, Guardian and Redeploy."""

from __future__ import annotations

import pytest

from judge.games.destiny.model import CardDef, CardType, faces
from tests.judge.destiny.tablehelp import Table, duel, error, final, player, pool_with, ruling_json, run


def activate(pid: str, ref: str, *faces_: str, **extra: object) -> dict:
    step: dict = {"by": pid, "do": "activate", "card": ref, **extra}
    if faces_:
        step["roll"] = list(faces_)
    return step


def play(pid: str, code: str, on: str | None = None, **extra: object) -> dict:
    step: dict = {"by": pid, "do": "play", "card": code, **extra}
    if on:
        step["on"] = on
    return step


# ---------------------------------------------------------------------- activate
@pytest.mark.rules("destiny.actions.activate", "destiny.cards.exhausted")
def test_activating_exhausts_and_rolls_into_the_pool() -> None:
    state = final(duel().log([activate("p1", "p1.05031", "1RD", "1Sh")]))
    p1 = player(state, "p1")
    assert p1["characters"]["p1.05031"]["exhausted"] is True
    assert p1["pool"] == {"p1.05031/1": "1RD", "p1.05031/2": "1Sh"}


@pytest.mark.rules("destiny.actions.activate-ready-only", "destiny.cards.exhausted")
def test_an_exhausted_character_cannot_be_activated() -> None:
    t = duel()
    t.player("p1")["characters"]["p1.05031"]["exhausted"] = True
    err = error(t.log([activate("p1", "p1.05031", "1RD", "1Sh")]))
    assert err is not None and err["kind"] == "illegal-action"
    assert err["rule"] == "destiny.actions.activate-ready-only"


@pytest.mark.rules("destiny.defeat.no-further-use")
def test_a_defeated_character_cannot_be_activated() -> None:
    t = duel()
    t.character("p1", "05046", dice=2, defeated=True)
    err = error(t.log([activate("p1", "p1.05046", "2RD", "1R")]))
    assert err is not None and err["rule"] == "destiny.defeat.no-further-use"


@pytest.mark.rules("destiny.terms.controller", "destiny.actions.activate")
def test_a_player_cannot_activate_an_opponents_character() -> None:
    err = error(duel().log([activate("p1", "p2.05013", "1R")]))
    assert err is not None and err["rule"] == "destiny.terms.controller"


@pytest.mark.rules("destiny.actions.activate-all-dice", "destiny.upgrades.dice",
                   "destiny.upgrades.die-ignores-upgrade-state")
def test_activation_rolls_character_dice_then_upgrade_dice_in_attach_order() -> None:
    t = Table()
    # Hunting Rifle (05073) attached before Heirloom Lightsaber (05058); the rifle is exhausted
    t.character("p1", "05031", dice=2, upgrades=["05073", "05058"])
    t.player("p1")["upgrades"] = {"p1.05073#1": {"exhausted": True}}
    t.character("p2", "05013")
    state = final(t.log([activate("p1", "p1.05031", "1RD", "2RD", "2RD1", "3MD")]))
    assert player(state, "p1")["pool"] == {"p1.05031/1": "1RD", "p1.05031/2": "2RD",
                                           "p1.05073#1/1": "2RD1", "p1.05058#1/1": "3MD"}
    assert player(state, "p1")["upgrades"]["p1.05073#1"]["exhausted"] is True
    # the lightsaber's face written third belongs to no die rolled third
    err = error(t.log([activate("p1", "p1.05031", "1RD", "2RD", "3MD", "2RD1")]))
    assert err is not None and err["rule"] == "destiny.cards.die-faces"


@pytest.mark.rules("destiny.cards.die-faces")
def test_a_logged_face_the_die_does_not_have_is_illegal() -> None:
    err = error(duel().log([activate("p1", "p1.05031", "1RD", "3ID")]))
    assert err is not None and (err["kind"], err["rule"]) == ("illegal-action", "destiny.cards.die-faces")
    assert "p1.05031/2" in err["message"]


@pytest.mark.rules("destiny.actions.activate")
def test_a_missing_roll_without_rng_is_a_missing_outcome() -> None:
    err = error(duel().log([activate("p1", "p1.05031", "1RD")]))
    assert err is not None and (err["kind"], err["at"]) == ("missing-outcome", 1)
    assert "p1.05031/2" in err["message"]


@pytest.mark.rules("destiny.actions.activate")
def test_a_missing_roll_comes_from_the_rng_when_there_is_one() -> None:
    log = duel().with_rng("abc").log([activate("p1", "p1.05031")])
    pool = player(final(log), "p1")["pool"]
    luke = {"1RD", "2RD", "1MD", "1Sh", "1R", "-"}
    assert set(pool) == {"p1.05031/1", "p1.05031/2"} and set(pool.values()) <= luke
    assert final(log) == final(log)


# ---------------------------------------------------------------------- reroll
def reroll(discard: str, die: str, face: str) -> dict:
    return {"by": "p1", "do": "reroll", "discard": discard, "dice": [die], "roll": [face]}

@pytest.mark.rules("destiny.actions.reroll-by-discard")
def test_reroll_discards_a_card_and_rerolls_the_named_dice() -> None:
    t = duel()
    t.set("p1", hand=["05116"])
    t.pool("p1", {"p1.05031/1": "-", "p1.05031/2": "1R"})
    step = {"by": "p1", "do": "reroll", "discard": "05116", "dice": ["p1.05031/1"], "roll": ["2RD"]}
    p1 = player(final(t.log([step])), "p1")
    assert p1["discard"] == ["05116"] and p1["hand"] == 0
    assert p1["pool"] == {"p1.05031/1": "2RD", "p1.05031/2": "1R"}


@pytest.mark.rules("destiny.actions.reroll-needs-dice")
def test_reroll_needs_dice_in_the_pool() -> None:
    t = duel()
    t.set("p1", hand=["05116"])
    err = error(t.log([reroll("05116", "p1.05031/1", "1R")]))
    assert err is not None and err["rule"] == "destiny.actions.reroll-needs-dice"


@pytest.mark.rules("destiny.actions.reroll-by-discard")
def test_reroll_needs_the_discarded_card_in_hand() -> None:
    t = duel()
    t.set("p1", hand=["05073"])
    t.pool("p1", {"p1.05031/1": "-"})
    err = error(t.log([reroll("05116", "p1.05031/1", "1R")]))
    assert err is not None and err["rule"] == "destiny.actions.reroll-by-discard"


@pytest.mark.rules("destiny.dice.pool-only", "destiny.actions.reroll-by-discard")
def test_reroll_only_dice_in_your_own_pool() -> None:
    t = duel()
    t.set("p1", hand=["05116"])
    t.pool("p1", {"p1.05031/1": "-"})
    t.pool("p2", {"p2.05013/1": "-"})
    err = error(t.log([reroll("05116", "p2.05013/1", "1R")]))
    assert err is not None and err["rule"] == "destiny.dice.pool-only"


# ---------------------------------------------------------------------- playing cards
@pytest.mark.rules("destiny.actions.play-card-sequence", "destiny.cards.cost", "destiny.cards.enter-ready",
                   "destiny.upgrades.attach")
def test_playing_an_upgrade_pays_its_cost_and_attaches_it_ready() -> None:
    t = duel()
    t.set("p1", hand=["05058"], resources=4)
    p1 = player(final(t.log([play("p1", "05058", "p1.05031")])), "p1")
    assert p1["resources"] == 1 and p1["hand"] == 0
    assert p1["characters"]["p1.05031"]["upgrades"] == ["p1.05058#1"]
    assert p1["upgrades"]["p1.05058#1"] == {"on": "p1.05031", "exhausted": False}


@pytest.mark.rules("destiny.actions.play-card-sequence", "destiny.cards.cost")
def test_an_unaffordable_card_cannot_be_played_and_stays_in_hand() -> None:
    t = duel()
    t.set("p1", hand=["05058"], resources=2)
    r = run(t.log([play("p1", "05058", "p1.05031")]))
    assert r["error"]["rule"] == "destiny.cards.cost"
    p1 = r["final_state"]["players"]["p1"]
    assert (p1["hand"], p1["resources"], p1["characters"]["p1.05031"]["upgrades"]) == (1, 2, [])


@pytest.mark.rules("destiny.uniqueness.one-copy-in-play")
def test_a_second_copy_of_a_unique_card_cannot_be_played() -> None:
    t = duel()
    t.set("p1", hand=["05122", "05122"])  # Maz's Vault: a unique support costing 0
    err = error(t.log([play("p1", "05122"), {"by": "p2", "do": "pass"}, play("p1", "05122")]))
    assert err is not None and (err["at"], err["rule"]) == (3, "destiny.uniqueness.one-copy-in-play")


@pytest.mark.rules("destiny.uniqueness.per-player", "destiny.supports.play")
def test_each_player_may_have_their_own_copy_of_a_unique_card() -> None:
    t = duel()
    t.set("p1", hand=["05122"])
    t.support("p2", "05122")
    state = final(t.log([play("p1", "05122")]))
    assert "p1.05122#1" in player(state, "p1")["supports"] and "p2.05122#1" in player(state, "p2")["supports"]


@pytest.mark.rules("destiny.upgrades.duplicate-non-unique", "destiny.uniqueness.symbol")
def test_copies_of_a_non_unique_upgrade_may_share_a_character() -> None:
    t = duel()
    t.character("p1", "05031", dice=2, upgrades=["05073"])
    t.set("p1", hand=["05073"])
    p1 = player(final(t.log([play("p1", "05073", "p1.05031")])), "p1")
    assert p1["characters"]["p1.05031"]["upgrades"] == ["p1.05073#1", "p1.05073#2"]


@pytest.mark.rules("destiny.upgrades.replace", "destiny.terms.reduce")
def test_replacing_an_upgrade_pays_the_difference_and_discards_the_old_one() -> None:
    t = duel()
    t.character("p1", "05031", dice=2, upgrades=["05073"])
    t.set("p1", hand=["05058"], resources=2)
    p1 = player(final(t.log([play("p1", "05058", "p1.05031", replaces="p1.05073#1")])), "p1")
    assert p1["resources"] == 0
    assert p1["characters"]["p1.05031"]["upgrades"] == ["p1.05058#1"]
    assert p1["discard"] == ["05073"]


@pytest.mark.rules("destiny.upgrades.replace")
def test_replacing_with_a_cheaper_upgrade_is_free() -> None:
    t = duel()
    t.character("p1", "05031", dice=2, upgrades=["05058"])
    t.set("p1", hand=["05073"], resources=0)
    p1 = player(final(t.log([play("p1", "05073", "p1.05031", replaces="p1.05058")])), "p1")
    assert p1["resources"] == 0 and p1["characters"]["p1.05031"]["upgrades"] == ["p1.05073#1"]


@pytest.mark.rules("destiny.upgrades.replace")
def test_only_an_upgrade_on_that_character_can_be_replaced() -> None:
    t = duel()
    t.character("p1", "05046", dice=2, upgrades=["05073"])
    t.set("p1", hand=["05058"], resources=2)
    err = error(t.log([play("p1", "05058", "p1.05031", replaces="p1.05073#1")]))
    assert err is not None and err["rule"] == "destiny.upgrades.replace"


def four_upgrades(choices: list | None = None) -> dict:
    t = duel()
    t.character("p1", "05031", dice=2, upgrades=["p1.05073#1", "p1.05073#2", "p1.05058#1"])
    t.set("p1", hand=["05073"], resources=2)
    step = play("p1", "05073", "p1.05031")
    if choices is not None:
        step["choices"] = choices
    return t.log([step])


@pytest.mark.rules("destiny.upgrades.max-three")
def test_a_fourth_upgrade_makes_the_controller_discard_one() -> None:
    log = four_upgrades([{"by": "p1", "kind": "discard-upgrade", "answer": "p1.05058#1"}])
    p1 = player(final(log), "p1")
    assert p1["characters"]["p1.05031"]["upgrades"] == ["p1.05073#1", "p1.05073#2", "p1.05073#3"]
    assert p1["discard"] == ["05058"]


@pytest.mark.rules("destiny.upgrades.max-three")
def test_without_the_choice_the_controller_must_decide() -> None:
    err = error(four_upgrades())
    assert err is not None and err["kind"] == "pending-decision"
    assert err["pending"]["by"] == "p1" and err["pending"]["kind"] == "discard-upgrade"
    assert err["pending"]["rules"] == ["destiny.upgrades.max-three"]
    assert set(err["pending"]["options"]) == {"p1.05073#1", "p1.05073#2", "p1.05058#1", "p1.05073#3"}


@pytest.mark.rules("destiny.upgrades.max-three")
def test_the_opponent_cannot_choose_the_discarded_upgrade() -> None:
    err = error(four_upgrades([{"by": "p2", "kind": "discard-upgrade", "answer": "p1.05058#1"}]))
    assert err is not None and err["kind"] == "illegal-action"


# ---------------------------------------------------------------------- power actions
def luke_power(die: str = "p1.05031/1") -> dict:
    return {"by": "p1", "do": "use", "card": "p1.05031", "dice": [{"die": die, "target": "p2.05013"}]}


@pytest.mark.rules("destiny.actions.power-action", "destiny.dice.resolve-via-card")
def test_a_power_action_is_used_once_per_round() -> None:
    t = duel()
    t.set("p1", resources=5)
    t.pool("p1", {"p1.05031/1": "1RD", "p1.05031/2": "2RD"})
    state = final(t.log([luke_power()]))
    assert player(state, "p2")["characters"]["p2.05013"]["damage"] == 3  # 1 ranged raised by 2
    assert player(state, "p1")["resources"] == 3
    err = error(t.log([luke_power(), {"by": "p2", "do": "pass"}, luke_power("p1.05031/2")]))
    assert err is not None and (err["at"], err["rule"]) == (3, "destiny.actions.power-action")


@pytest.mark.rules("destiny.actions.power-action", "destiny.round.upkeep")
def test_a_power_action_is_available_again_next_round() -> None:
    t = duel()
    t.set("p1", resources=5)
    t.pool("p1", {"p1.05031/1": "1RD"})
    steps = [luke_power(), {"by": "p2", "do": "pass"}, {"by": "p1", "do": "pass"},
             activate("p1", "p1.05031", "2RD", "-"), {"by": "p2", "do": "pass"}, luke_power()]
    state = final(t.log(steps))
    assert state["round"] == 2
    assert player(state, "p2")["characters"]["p2.05013"]["damage"] == 3 + 4


# ---------------------------------------------------------------------- Ambush
def ambush_table() -> Table:
    t = duel()
    t.set("p1", hand=["05072"], resources=2)  # Hidden Blaster: Ambush
    return t


DECLINE_SHIELD = [{"by": "p1", "kind": "may", "answer": False}]


@pytest.mark.rules("destiny.keywords.ambush", "destiny.actions.extra-actions-immediate")
def test_ambush_gives_an_extra_action_that_comes_next() -> None:
    log = ambush_table().log([play("p1", "05072", "p1.05031", choices=DECLINE_SHIELD)])
    state = final(log)
    assert state["turn"] == "p1" and state.get("extra_action") == "p1"
    state = final(ambush_table().log([play("p1", "05072", "p1.05031", choices=DECLINE_SHIELD),
                                      activate("p1", "p1.05031", "1RD", "-", "+2RD")]))
    assert state["turn"] == "p2" and "extra_action" not in state
    assert player(state, "p1")["pool"]["p1.05072#1/1"] == "+2RD"


@pytest.mark.rules("destiny.keywords.ambush", "destiny.actions.extra-actions-immediate")
def test_the_opponent_cannot_act_before_the_extra_action() -> None:
    err = error(ambush_table().log([play("p1", "05072", "p1.05031", choices=DECLINE_SHIELD),
                                    activate("p2", "p2.05013", "1R")]))
    assert err is not None and (err["at"], err["rule"]) == (2, "destiny.actions.extra-actions-immediate")


@pytest.mark.rules("destiny.keywords.ambush", "destiny.round.pass")
def test_a_pass_declines_the_extra_action_without_counting_as_a_pass() -> None:
    state = final(ambush_table().log([play("p1", "05072", "p1.05031", choices=DECLINE_SHIELD),
                                      {"by": "p1", "do": "pass"}, {"by": "p2", "do": "pass"}]))
    # p1's declined extra action is not a pass: p2's pass alone does not end the round
    assert state["round"] == 1 and state["turn"] == "p1"
    assert player(state, "p1")["passed"] is False


@pytest.mark.rules("destiny.actions.claim-battlefield", "destiny.actions.extra-actions-immediate")
def test_a_claim_as_the_action_before_an_extra_action_passes_the_extra_action_too() -> None:
    """The FAQ's Rey and a claimed battlefield: "You must pass all future actions once you claim the
    battlefield, including the additional action"."""
    t = duel()
    t.position.update(extra_action="p1", extra_more=1)  # two extra actions wait (Rey's and an Ambush)
    claim = {"by": "p1", "do": "claim", "claim_ability": False}
    log = t.log([claim])
    state = final(log)
    assert state["turn"] == "p2" and "extra_action" not in state and state["claimed_by"] == "p1"
    ruling = ruling_json(log, 1)
    assert ruling["legal"] is True
    passed = [e for e in ruling["events"] if e["event"] == "decline-extra-action"]
    assert passed == [{"event": "decline-extra-action", "player": "p1", "automatic": True,
                       "rules": ["destiny.actions.claim-battlefield", "destiny.actions.extra-actions-immediate"]}]
    err = error(t.log([claim, activate("p1", "p1.05031", "1RD", "-")]))
    assert err is not None and err["at"] == 2 and err["rule"] == "destiny.round.action-phase"
    # without a claim, the second extra action is still theirs
    assert final(t.log([activate("p1", "p1.05031", "1RD", "-")]))["turn"] == "p1"


# ---------------------------------------------------------------------- Guardian
GUARD = CardDef("99001", "Test Guardian", CardType.CHARACTER, "villain", "red", points=(9,), health=9,
                faces=faces("1RD", "2RD", "1MD", "1R", "-", "-"), keywords=frozenset({"guardian"}))


def guardian_log(choices: list) -> dict:
    t = Table(turn="p2")
    t.character("p1", "05031", dice=2)
    t.character("p2", "99001")
    t.character("p2", "05013")
    t.pool("p1", {"p1.05031/1": "2RD", "p1.05031/2": "1R"})
    return t.log([activate("p2", "p2.99001", "1R", choices=choices)])


@pytest.mark.rules("destiny.keywords.guardian", "destiny.timing.before")
def test_guardian_takes_an_opponents_damage_die_before_activating() -> None:
    state = final(guardian_log([{"by": "p2", "kind": "may", "answer": True}]), pool_with(GUARD))
    guard = player(state, "p2")["characters"]["p2.99001"]
    assert guard["damage"] == 2 and guard["exhausted"] is True
    assert player(state, "p1")["pool"] == {"p1.05031/2": "1R"}
    assert player(state, "p2")["pool"] == {"p2.99001/1": "1R"}


@pytest.mark.rules("destiny.keywords.guardian", "destiny.abilities.resolve-fully")
def test_guardian_is_optional() -> None:
    state = final(guardian_log([{"by": "p2", "kind": "may", "answer": False}]), pool_with(GUARD))
    assert player(state, "p2")["characters"]["p2.99001"]["damage"] == 0
    assert player(state, "p1")["pool"] == {"p1.05031/1": "2RD", "p1.05031/2": "1R"}


# ---------------------------------------------------------------------- Redeploy
def redeploy_log(first: str, second: str, choices: list | None = None) -> dict:
    t = Table(turn="p2")
    t.character("p1", first, dice=2, damage=9, upgrades=["05058"])
    t.character("p1", second, dice=2)
    t.character("p2", "05019", dice=2)
    t.pool("p2", {"p2.05019/1": "2RD"})
    step: dict = {"by": "p2", "do": "resolve", "dice": [{"die": "p2.05019/1", "target": f"p1.{first}"}]}
    if choices is not None:
        step["choices"] = choices
    return t.log([step])


@pytest.mark.rules("destiny.keywords.redeploy", "destiny.timing.after")
def test_heirloom_lightsaber_redeploys_from_a_defeated_blue_character() -> None:
    # Luke (blue) falls with Heirloom Lightsaber; it may move to Han Solo
    log = redeploy_log("05031", "05046", [{"by": "p1", "kind": "may", "answer": True}])
    p1 = player(final(log), "p1")
    assert p1["characters"]["p1.05031"]["defeated"] is True
    assert p1["characters"]["p1.05046"]["upgrades"] == ["p1.05058#1"]
    assert p1["discard"] == []
    events = [e["event"] for e in ruling_json(log)["events"]]
    assert events.index("defeat") < events.index("redeploy")


@pytest.mark.rules("destiny.keywords.redeploy")
def test_a_redeployed_upgrade_keeps_its_reference() -> None:
    """The upgrade that moves is the same card: a later step names it #1 as before the move (a new
    copy would have been #2, and a step naming #1 would have been refused)."""
    t = Table(turn="p2")
    t.character("p1", "05031", dice=2, damage=9, upgrades=["05058"])
    t.character("p1", "05046", dice=2)
    t.character("p2", "05019", dice=2)
    t.pool("p2", {"p2.05019/1": "2RD"})
    t.with_rng("redeploy-identity")
    log = t.log([
        {"by": "p2", "do": "resolve", "dice": [{"die": "p2.05019/1", "target": "p1.05031"}],
         "choices": [{"by": "p1", "kind": "may", "answer": True}]},
        {"by": "p1", "do": "activate", "card": "p1.05046", "choices": [{"by": "p1", "kind": "may", "answer": False}]},
        {"by": "p2", "do": "pass"},
        {"by": "p1", "do": "reroll", "discard": "05116", "dice": ["p1.05058#1/1"]},
    ])
    log["setup"]["position"]["players"]["p1"]["hand"] = ["05116"]
    p1 = player(final(log), "p1")
    assert p1["characters"]["p1.05046"]["upgrades"] == ["p1.05058#1"]
    assert "p1.05058#1/1" in p1["pool"] and p1["discard"] == ["05116"]


@pytest.mark.rules("destiny.keywords.redeploy")
def test_redeploy_may_be_declined() -> None:
    log = redeploy_log("05031", "05046", [{"by": "p1", "kind": "may", "answer": False}])
    p1 = player(final(log), "p1")
    assert p1["characters"]["p1.05046"]["upgrades"] == [] and p1["discard"] == ["05058"]


@pytest.mark.rules("destiny.keywords.redeploy", "destiny.defeat.cleanup")
def test_heirloom_lightsaber_on_a_non_blue_character_has_no_redeploy() -> None:
    log = redeploy_log("05046", "05031")  # Han Solo is yellow: no decision is asked
    p1 = player(final(log), "p1")
    assert p1["characters"]["p1.05031"]["upgrades"] == [] and p1["discard"] == ["05058"]


@pytest.mark.rules("destiny.actions.activate-ready-only")
def test_a_support_without_dice_cannot_be_activated() -> None:
    t = duel()
    t.support("p1", "05122")  # Maz's Vault has no die
    err = error(t.log([activate("p1", "p1.05122#1", "1R")]))
    assert err is not None and err["rule"] == "destiny.actions.activate-ready-only"


@pytest.mark.rules("destiny.actions.activate-all-dice")
def test_a_roll_with_more_faces_than_dice_is_rejected() -> None:
    err = error(duel().log([activate("p1", "p1.05031", "1RD", "2RD", "1MD")]))
    assert err is not None and err["kind"] == "illegal-action"
    assert err["rule"] == "destiny.actions.activate-all-dice"


@pytest.mark.rules("destiny.terms.choose-option")
def test_a_choice_the_rules_never_asked_for_is_rejected() -> None:
    step = activate("p1", "p1.05031", "1RD", "2RD")
    step["choices"] = [{"by": "p1", "kind": "may", "answer": True}]
    err = error(duel().log([step]))
    assert err is not None and err["rule"] == "destiny.terms.choose-option" and "did not ask" in err["message"]


@pytest.mark.rules("destiny.defeat.cleanup")
def test_a_position_giving_a_defeated_character_dice_or_upgrades_is_refused_where_it_says_so() -> None:
    """The defeat removes the character's dice from the game and discards its upgrades
    (destiny.defeat.cleanup): a position typed with either on a defeated character is no table the
    game can reach, and is refused at the fault's place (it was ruled on as if they were there)."""
    t = duel()
    t.character("p1", "05046", dice=2, defeated=True)
    t.pool("p1", {"p1.05046/1": "2RD"})
    err = error(t.log([{"by": "p1", "do": "pass"}]))
    assert err is not None and err["kind"] == "malformed"
    assert "/setup/position/players/p1/pool/p1.05046~11: " in err["message"]
    assert "p1.05046 is defeated: its dice were removed from the game (destiny.defeat.cleanup)" in err["message"]
    t = duel()
    t.character("p1", "01046", defeated=True, upgrades=["01164"])
    err = error(t.log([{"by": "p1", "do": "pass"}]))
    assert err is not None and "/setup/position/players/p1/characters/p1.01046/upgrades: " in err["message"]
    assert "is defeated: its upgrades were discarded with it (destiny.defeat.cleanup)" in err["message"]
    t = duel()
    t.character("p1", "05046", dice=2, defeated=True)  # (defeated, nothing left on it: a table the game reaches)
    assert error(t.log([{"by": "p1", "do": "pass"}])) is None
