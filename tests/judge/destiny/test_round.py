"""Round structure: alternating turns, passing, the end of the action phase, upkeep, claiming."""

from __future__ import annotations

from typing import Any

import pytest

from tests.judge.destiny.tablehelp import duel, error, final, player

PASS1 = {"by": "p1", "do": "pass"}
PASS2 = {"by": "p2", "do": "pass"}


def act(pid: str, char: str, *faces: str) -> dict:
    return {"by": pid, "do": "activate", "card": f"{pid}.{char}", "roll": list(faces)}


@pytest.mark.rules("destiny.round.action-phase")
def test_turns_alternate_after_an_action() -> None:
    t = duel()
    state = final(t.log([act("p1", "05031", "1RD", "2RD")]))
    assert state["turn"] == "p2"
    state = final(t.log([act("p1", "05031", "1RD", "2RD"), act("p2", "05013", "1R")]))
    assert state["turn"] == "p1"


@pytest.mark.rules("destiny.round.action-phase")
def test_acting_out_of_turn_is_rejected() -> None:
    t = duel()
    err = error(t.log([act("p2", "05013", "1R")]))
    assert err is not None
    assert (err["at"], err["kind"], err["rule"]) == (1, "illegal-action", "destiny.round.action-phase")
    err = error(t.log([act("p1", "05031", "1RD", "2RD"), {"by": "p1", "do": "pass"}]))
    assert err is not None and err["rule"] == "destiny.round.action-phase" and err["at"] == 2


@pytest.mark.rules("destiny.round.pass")
def test_a_pass_keeps_the_right_to_act_later() -> None:
    t = duel()
    state = final(t.log([PASS1, act("p2", "05013", "1R")]))
    assert state["round"] == 1 and state["phase"] == "action"
    assert state["turn"] == "p1"
    # and p1 may still act on that turn
    state = final(t.log([PASS1, act("p2", "05013", "1R"), act("p1", "05031", "1RD", "-")]))
    assert player(state, "p1")["pool"] == {"p1.05031/1": "1RD", "p1.05031/2": "-"}


@pytest.mark.rules("destiny.round.end-on-consecutive-passes", "destiny.round.pass")
def test_passes_separated_by_an_action_do_not_end_the_round() -> None:
    t = duel()
    state = final(t.log([PASS1, act("p2", "05013", "1R"), PASS1]))
    assert state["round"] == 1 and state["turn"] == "p2"


@pytest.mark.rules("destiny.round.end-on-consecutive-passes", "destiny.round.phases")
def test_two_consecutive_passes_end_the_action_phase() -> None:
    t = duel()
    state = final(t.log([PASS1, PASS2]))
    assert state["round"] == 2 and state["phase"] == "action"
    assert state["turn"] == "p1"


@pytest.mark.rules("destiny.round.upkeep", "destiny.cards.ready")
def test_upkeep_readies_returns_dice_and_gives_two_resources() -> None:
    t = duel()
    t.set("p1", resources=0)
    t.set("p2", resources=5)
    state = final(t.log([act("p1", "05031", "1RD", "2RD"), act("p2", "05013", "1R"), PASS1, PASS2]))
    p1, p2 = player(state, "p1"), player(state, "p2")
    assert p1["characters"]["p1.05031"]["exhausted"] is False
    assert p2["characters"]["p2.05013"]["exhausted"] is False
    assert p1["pool"] == {} and p2["pool"] == {}
    assert (p1["resources"], p2["resources"]) == (2, 7)


@pytest.mark.rules("destiny.round.upkeep", "destiny.zones.hand-limit", "destiny.draw.top-card")
def test_upkeep_draws_up_to_the_hand_limit_from_the_top() -> None:
    t = duel()
    t.set("p1", hand=["05116", "05116"], deck=["05073", "05058", "05072", "05073", "05058"])
    log = t.log([PASS1, PASS2])
    state = final(log)
    assert player(state, "p1")["hand"] == 5 and player(state, "p1")["deck"] == 2
    from tests.judge.destiny.tablehelp import position_of

    pos, _ = position_of(log)
    assert pos["players"]["p1"]["hand"] == ["05116", "05116", "05073", "05058", "05072"]
    assert pos["players"]["p1"]["deck"] == ["05073", "05058"]


@pytest.mark.rules("destiny.round.upkeep-draw-limits", "destiny.zones.hand-limit")
def test_a_hand_over_the_limit_draws_nothing_and_keeps_its_cards() -> None:
    t = duel()
    t.set("p1", hand=["05116"] * 7, deck=["05073"] * 3)
    state = final(t.log([PASS1, PASS2]))
    assert player(state, "p1")["hand"] == 7 and player(state, "p1")["deck"] == 3


@pytest.mark.rules("destiny.round.upkeep-draw-limits", "destiny.draw.insufficient")
def test_a_short_deck_draws_what_it_has() -> None:
    t = duel()
    t.set("p1", hand=["05116"], deck=["05073", "05058"])
    state = final(t.log([PASS1, PASS2]))
    assert player(state, "p1")["hand"] == 3 and player(state, "p1")["deck"] == 0


@pytest.mark.rules("destiny.round.upkeep")
def test_the_upkeep_step_discards_before_drawing() -> None:
    t = duel()
    t.set("p1", hand=["05116"] * 5, deck=["05073", "05058"])
    state = final(t.log([PASS1, PASS2, {"do": "upkeep", "discard": {"p1": ["05116", "05116"], "p2": []}}]))
    p1 = player(state, "p1")
    assert p1["discard"] == ["05116", "05116"]
    assert p1["hand"] == 5 and p1["deck"] == 0


@pytest.mark.rules("destiny.round.upkeep")
def test_without_an_upkeep_step_nobody_discards() -> None:
    t = duel()
    t.set("p1", hand=["05116"] * 5, deck=["05073"])
    state = final(t.log([PASS1, PASS2]))
    assert player(state, "p1")["discard"] == [] and player(state, "p1")["deck"] == 1


@pytest.mark.rules("destiny.round.upkeep")
def test_an_upkeep_discard_not_in_hand_is_rejected() -> None:
    t = duel()
    t.set("p1", hand=["05116"], deck=["05073"])
    err = error(t.log([PASS1, PASS2, {"do": "upkeep", "discard": {"p1": ["05058"]}}]))
    assert err is not None and (err["at"], err["rule"]) == (3, "destiny.round.upkeep")


@pytest.mark.rules("destiny.round.end-on-consecutive-passes")
def test_an_upkeep_step_during_the_action_phase_is_rejected() -> None:
    t = duel()
    err = error(t.log([PASS1, {"do": "upkeep", "discard": {}}]))
    assert err is not None and (err["at"], err["rule"]) == (2, "destiny.round.end-on-consecutive-passes")


@pytest.mark.rules("destiny.actions.claim-battlefield", "destiny.round.pass")
def test_the_claimer_passes_automatically_for_the_rest_of_the_round() -> None:
    t = duel()
    claim = {"by": "p1", "do": "claim", "claim_ability": False}
    state = final(t.log([claim, act("p2", "05013", "1R")]))
    assert state["round"] == 1 and state["turn"] == "p2"
    assert player(state, "p1")["passed"] is True
    # p2's pass now ends the round: p1's automatic pass and p2's are consecutive
    state = final(t.log([claim, act("p2", "05013", "1R"), PASS2]))
    assert state["round"] == 2


@pytest.mark.rules("destiny.actions.claim-battlefield")
def test_after_a_claim_a_written_pass_by_the_claimer_is_out_of_turn() -> None:
    t = duel()
    err = error(t.log([{"by": "p1", "do": "claim", "claim_ability": False}, act("p2", "05013", "1R"), PASS1]))
    assert err is not None and err["at"] == 3 and err["rule"] == "destiny.round.action-phase"


@pytest.mark.rules("destiny.actions.claim-once-per-round")
def test_only_one_player_claims_each_round() -> None:
    t = duel(turn="p2")
    t.set("p1", hand=[], deck=["05073"] * 5)
    err = error(t.log([{"by": "p2", "do": "claim", "claim_ability": False},
                       {"by": "p1", "do": "claim", "claim_ability": False}]))
    assert err is not None and (err["at"], err["rule"]) == (2, "destiny.actions.claim-once-per-round")


@pytest.mark.rules("destiny.actions.claim-once-per-round", "destiny.round.phases")
def test_the_claim_is_open_again_next_round() -> None:
    t = duel()
    steps = [{"by": "p1", "do": "claim", "claim_ability": False}, PASS2,
             {"by": "p1", "do": "pass"}, {"by": "p2", "do": "claim", "claim_ability": False}]
    state = final(t.log(steps))
    assert state["round"] == 2 and state["claimed_by"] == "p2"
    assert state["battlefield"]["controller"] == "p2"


@pytest.mark.rules("destiny.battlefields.first-action", "destiny.battlefields.single-controller",
                   "destiny.actions.claim-battlefield")
def test_the_battlefield_controller_takes_the_first_turn_next_round() -> None:
    t = duel()  # p1 controls the battlefield
    claim = {"by": "p2", "do": "claim", "claim_ability": False}
    # p2's claim is an action, so p1 acts again; p1's pass and p2's automatic pass end the round
    assert final(t.log([PASS1, claim]))["turn"] == "p1"
    state = final(t.log([PASS1, claim, PASS1]))
    assert state["round"] == 2
    assert state["battlefield"]["controller"] == "p2" and state["turn"] == "p2"
    assert state["claimed_by"] is None


@pytest.mark.rules("destiny.actions.claim-while-controlling", "destiny.abilities.claim")
def test_the_controller_may_claim_to_use_the_claim_ability() -> None:
    t = duel()  # Outer Rim Outpost (05178): claim to gain 1 resource and draw 1 card
    t.set("p1", hand=[], deck=["05073", "05058"], resources=2)
    state = final(t.log([{"by": "p1", "do": "claim"}]))
    p1 = player(state, "p1")
    assert state["battlefield"]["controller"] == "p1" and state["claimed_by"] == "p1"
    assert (p1["resources"], p1["hand"], p1["deck"]) == (3, 1, 1)


@pytest.mark.rules("destiny.abilities.claim")
def test_the_claim_ability_is_optional() -> None:
    t = duel()
    t.set("p1", hand=[], deck=["05073", "05058"], resources=2)
    state = final(t.log([{"by": "p1", "do": "claim", "claim_ability": False}]))
    assert (player(state, "p1")["resources"], player(state, "p1")["hand"]) == (2, 0)


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_advance_gives_the_turn_to_next_seat(seats: int) -> None:
    """``advance`` finds the players in the game and the next seat in one pass: the turn goes where
    ``next_seat`` says, whoever is eliminated."""
    import itertools

    from judge.games.destiny.cards import default_pool
    from judge.games.destiny.engine import Ctx
    from judge.games.destiny.rounds import advance, next_seat
    from judge.games.destiny.state import GameState, Player

    ids = [f"p{i + 1}" for i in range(seats)]
    for out in itertools.product((False, True), repeat=seats):
        if all(out):
            continue
        for after in ids:
            st = GameState()
            for pid, gone in zip(ids, out, strict=True):
                st.players[pid] = Player(pid, _eliminated=gone)
            want = next_seat(st, after)
            advance(Ctx(st, default_pool()), after, False)
            assert st.turn == want, (out, after)
    st = GameState()
    st.players["p1"] = Player("p1")
    st.players["p2"] = Player("p2")
    with pytest.raises(ValueError):
        advance(Ctx(st, default_pool()), "p9", False)


def _advance_by_next_seat(st: Any, after: str) -> None:
    """``advance`` as the rules say it, each seat asked of ``next_seat`` (its auto-passes included)."""
    from judge.games.destiny.rounds import next_seat

    active = sum(1 for p in st.players.values() if not p.eliminated)
    if st.passes >= active:
        st.phase = "upkeep"
        return
    st.turn = next_seat(st, after)
    while st.turn == st.claimed_by and st.phase == "action":
        st.players[st.turn].passed = True
        st.passes += 1
        if st.passes >= active:
            st.phase = "upkeep"
            return
        st.turn = next_seat(st, st.turn)


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_advance_passes_for_the_claimer_as_next_seat_says(seats: int) -> None:
    """The claimer passes automatically, and the turn goes on where ``next_seat`` says (``advance``
    gives it to ``after`` itself when two players are left), whoever is eliminated or has passed."""
    import itertools

    from judge.games.destiny.cards import default_pool
    from judge.games.destiny.engine import Ctx
    from judge.games.destiny.rounds import advance
    from judge.games.destiny.state import GameState, Player

    ids = [f"p{i + 1}" for i in range(seats)]
    checked = 0
    for out in itertools.product((False, True), repeat=seats):
        if all(out):
            continue
        for after, claimer, passes in itertools.product(ids, ids, range(seats)):
            states = []
            for _ in range(2):
                st = GameState(phase="action", claimed_by=claimer, passes=passes)
                for pid, gone in zip(ids, out, strict=True):
                    st.players[pid] = Player(pid, _eliminated=gone)
                states.append(st)
            got, want = states
            advance(Ctx(got, default_pool()), after, True)  # (upkeep_next: the upkeep is the log's next step)
            _advance_by_next_seat(want, after)
            assert (got.phase, got.turn if got.phase == "action" else None, got.passes) == \
                   (want.phase, want.turn if want.phase == "action" else None, want.passes), (out, after, claimer)
            assert [p.passed for p in got.players.values()] == [p.passed for p in want.players.values()]
            checked += 1
    assert checked > 0
