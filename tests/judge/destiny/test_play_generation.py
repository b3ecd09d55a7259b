"""The play generation (state.py): every change to what is in play must bump the state's own
counter, or the engine's index of live abilities would go stale; and it is the state's own, so
replays in other threads never touch it."""

from __future__ import annotations

import pickle

import pytest

from judge.games.destiny.state import (
    Character,
    GameState,
    Player,
    Support,
    TrackedDict,
    Upgrade,
    play_generation,
)


def _state() -> GameState:
    st = GameState()
    p = Player(id="p1")
    p.characters["p1.01001"] = Character(ref="p1.01001", code="01001", dice=1)
    st.players["p1"] = p
    return st


@pytest.mark.parametrize("change", [
    lambda st: st.players["p1"].upgrades.__setitem__("p1.01050#1", Upgrade("p1.01050#1", "01050", on="p1.01001")),
    lambda st: st.players["p1"].supports.__setitem__("p1.01060#1", Support("p1.01060#1", "01060")),
    lambda st: st.players["p1"].characters.pop("p1.01001"),
    lambda st: st.players["p1"].characters.clear(),
    lambda st: st.players["p1"].characters.update({}),
    lambda st: st.players["p1"].characters.__delitem__("p1.01001"),
    lambda st: setattr(st.players["p1"].characters["p1.01001"], "defeated", True),
    lambda st: setattr(st.players["p1"], "eliminated", True),
    lambda st: setattr(st, "battlefield", "01170"),
    lambda st: setattr(st, "controller", "p1"),
])
def test_every_change_to_what_is_in_play_bumps_the_generation(change) -> None:  # noqa: ANN001
    st = _state()
    other = _state()
    before, other_before = play_generation(st), play_generation(other)
    change(st)
    assert play_generation(st) > before
    assert play_generation(other) == other_before  # another state's counter never moves


def test_other_changes_and_unchanged_values_leave_it() -> None:
    st = _state()
    before = play_generation(st)
    ch = st.players["p1"].characters["p1.01001"]
    ch.damage, ch.shields, ch.exhausted = 3, 1, True
    st.players["p1"].resources = 5
    st.turn, st.phase = "p1", "upkeep"
    ch.defeated = False  # the same value as before
    st.controller = None
    assert play_generation(st) == before


def test_copies_keep_tracking_their_own_tables() -> None:
    st = _state()
    new = st.copy()
    for p in (new.players["p1"], st.players["p1"]):
        assert type(p.characters) is TrackedDict and type(p.upgrades) is TrackedDict
    assert new.players["p1"].characters is not st.players["p1"].characters
    before, new_before = play_generation(st), play_generation(new)
    new.players["p1"].characters["p1.01001"].defeated = True
    assert play_generation(new) > new_before
    assert play_generation(st) == before  # the copy counts on its own
    assert not st.players["p1"].characters["p1.01001"].defeated


def test_a_player_or_character_counts_on_the_state_whose_seat_it_takes() -> None:
    st = GameState()
    p = Player(id="p1")
    ch = Character(ref="p1.01001", code="01001", dice=1)
    p.characters["p1.01001"] = ch
    st.players["p1"] = p
    before = play_generation(st)
    ch.defeated = True
    p.supports["p1.01060#1"] = Support("p1.01060#1", "01060")
    assert play_generation(st) == before + 2


def test_plain_dicts_given_to_a_player_are_wrapped() -> None:
    p = Player(id="p1", characters={"p1.01001": Character(ref="p1.01001", code="01001", dice=1)})
    assert type(p.characters) is TrackedDict
    assert type(pickle.loads(pickle.dumps(p.characters))) is TrackedDict


def test_a_deck_is_drawn_from_the_top_and_viewed_as_a_list() -> None:
    from collections import deque

    p = Player(id="p1")
    assert type(p.deck) is deque
    p.deck = deque(["05001", "05002"])  # top first
    assert p.deck.popleft() == "05001"
    p.deck.appendleft("05001")
    st = GameState()
    st.players["p1"] = p
    assert st.view(hidden=True)["players"]["p1"]["deck"] == ["05001", "05002"]
    assert type(st.copy().players["p1"].deck) is deque
