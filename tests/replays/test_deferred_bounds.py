"""A log's steps have their bounds read after their game's quick reading (replays.format._deferred):
the game's word (``quick_nodes``, judge.games.base) that a step its ``quick_step`` reads is within
the bounds of judge.games.jsonbounds, and a log out of bounds anywhere refused with the structure's
faults alone, as when the whole log is read at once."""

from __future__ import annotations

import copy
import math
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from judge.games.destiny.refs import MEMO_TEXT
from judge.games.inputs import ANNOTATION_KEYS, INPUT_KEYS
from judge.games.jsonbounds import SMALL_ITEMS, small_within, sound, sound_within
from judge.games.registry import get
from judge.limits import MAX_DEPTH, MAX_FAULTS, MAX_IN_PLAY, MAX_INT, MAX_ITEMS, MAX_NODES, MAX_STRING
from replays.format import MalformedLog, _deferred, parse_log, structure_faults
from replays.selfplay import play_game

UNREAD = set(INPUT_KEYS) | set(ANNOTATION_KEYS)


def _log(game: str) -> dict[str, Any]:
    if game == "swtcg":
        return copy.deepcopy(play_game("deferred-sw", "DARK-60", "LIGHT-60", game="swtcg", max_steps=300).log)
    return copy.deepcopy(play_game("deferred-d", "LEG-H", "LEG-V").log)


LOGS = {game: _log(game) for game in ("destiny", "swtcg")}

# values a step may hold in place of one of its own: each out of bounds or of another type
ODD = ["p1." + "A" * (MAX_STRING + 1), "p1.\ud800", "\udfff", 2**60, -1, 10**30, math.nan, math.inf, 1.5, None, True,
       [], [[[[]]]], {}, {"x": 1}, ["p1." + "B" * 50], [2**70], list(range(MAX_ITEMS + 1)), "x" * 200, (), ("p1",)]


def _steps(game: str) -> list[dict[str, Any]]:
    return [s for s in LOGS[game]["steps"] if isinstance(s, dict)]


@pytest.mark.parametrize("game", ["destiny", "swtcg"])
@given(data=st.data())
@settings(max_examples=400, deadline=None, derandomize=True, database=None)
def test_a_step_the_game_reads_at_once_is_within_bounds(game: str, data: st.DataObject) -> None:
    """The game's word: a step ``quick_step`` reads, holding no input or annotation, is sound and
    holds at most ``quick_nodes`` values below it, whatever was put in it."""
    g = get(game)
    cards = g.default_cards()
    ids = [p["id"] for p in LOGS[game]["players"]]
    step = dict(data.draw(st.sampled_from(_steps(game))))
    for _ in range(data.draw(st.integers(0, 3))):
        key = data.draw(st.sampled_from(sorted(step) + ["card", "dice", "on", "amount", "pay", "discard"]))
        step[key] = data.draw(st.sampled_from(ODD + list(step.values())))
    action = g.quick_step(step, ids, cards)
    if action is not None and not UNREAD & set(step):
        assert 0 <= sound_within(step, 3, 0) <= g.quick_nodes, step
        assert sound(step)


def test_the_largest_step_destiny_reads_at_once_holds_quick_nodes_values() -> None:
    g = get("destiny")
    cards = g.default_cards()
    code = next(iter(cards.cards))
    entry = {"die": f"p1.{code}/1", "target": f"p2.{code}", "modifies": f"p1.{code}/2"}
    step = {"by": "p1", "do": "resolve", "dice": [dict(entry) for _ in range(MAX_IN_PLAY)]}
    assert g.quick_step(step, ["p1", "p2"], cards) is not None
    assert sound_within(step, 3, 0) <= g.quick_nodes
    step["dice"].append(dict(entry))  # one die more than a player has in play: not read at once
    assert g.quick_step(step, ["p1", "p2"], cards) is None


@pytest.mark.parametrize("game", ["destiny", "swtcg"])
def test_a_step_out_of_bounds_is_refused_with_the_structures_faults(game: str) -> None:
    for key, value in (("card", "p1." + "A" * (MAX_STRING + 1)), ("note", "a\ud800"), ("by", "\udfff"),
                       ("amount", 2**60), ("dispute", 10**30)):
        log = copy.deepcopy(LOGS[game])
        log["steps"][3][key] = value
        with pytest.raises(MalformedLog) as exc:
            parse_log(log)
        want = structure_faults(log)
        assert want and [f.to_json() for f in exc.value.faults] == [f.to_json() for f in want]
        assert any(f.path.startswith("/steps/3") for f in want), want


def test_too_many_values_counted_with_the_steps_read_at_once_is_the_structures_fault() -> None:
    log = copy.deepcopy(LOGS["destiny"])
    # steps each read at once (three values: by, do, card), none whose bounds are read on the way
    log["steps"] = plain = [s for s in log["steps"] if set(s) == {"by", "do", "card"}]
    assert plain
    # the log's values but its steps' and a little room: the steps read at once overflow it
    used = sound_within({k: v for k, v in log.items() if k != "steps"}, 1, 1) + 1 + len(log["steps"])
    room = MAX_NODES - used - 3 * len(log["steps"]) + 5
    log["meta"]["padding"] = [[0] * min(MAX_ITEMS - 1, room - i) for i in range(0, room, MAX_ITEMS)]
    want = structure_faults(log)
    assert want and "MAX_NODES" in str(want[0].message), want
    with pytest.raises(MalformedLog) as exc:
        parse_log(log)
    assert [f.to_json() for f in exc.value.faults] == [f.to_json() for f in want]


def test_steps_left_unread_after_max_faults_still_have_their_bounds_read() -> None:
    log = copy.deepcopy(LOGS["destiny"])
    bad = {"by": "p1", "do": "fly"}  # no such verb: a fault each
    log["steps"] = [dict(bad) for _ in range(MAX_FAULTS + 5)] + [{"by": "p1", "do": "pass", "note": "x" * (MAX_STRING
                                                                                                        + 1)}]
    want = structure_faults(log)
    assert want
    with pytest.raises(MalformedLog) as exc:
        parse_log(log)
    assert [f.to_json() for f in exc.value.faults] == [f.to_json() for f in want]


def test_a_card_pools_memo_keeps_no_long_string_of_a_log() -> None:
    g = get("destiny")
    cards = g.default_cards()
    log = copy.deepcopy(LOGS["destiny"])
    for i, s in enumerate(log["steps"]):
        if set(s) == {"by", "do", "card"}:
            s["card"] = "p1." + "C" * 5000 + str(i)
    with pytest.raises(MalformedLog):
        parse_log(log, cards)
    assert all(len(k) <= MEMO_TEXT for k in cards.refs) and all(len(k) <= MEMO_TEXT for k in cards.codes)


@pytest.mark.parametrize("game", ["destiny", "swtcg"])
def test_a_log_in_bounds_reads_as_when_read_at_once(game: str) -> None:
    """The same actions, whichever way the bounds were read (no quick reading: a log whose
    ``steps`` is not a list is read at once, so compare the actions with the steps parsed one by one)."""
    g = get(game)
    log = LOGS[game]
    assert _deferred(log) > 0  # (its steps' bounds are read after the quick reading)
    parsed = parse_log(copy.deepcopy(log))
    ids = [p["id"] for p in log["players"]]
    cards = g.default_cards()
    for i, (step, action) in enumerate(zip(log["steps"], parsed.actions, strict=True)):
        full, faults = g.parse_step(step, f"/steps/{i}", ids, cards)
        assert not faults and full is not None and full.to_json() == action.to_json()


# small JSON values and odd ones: out of bounds, of another type, too many items or levels for small_within
_SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-MAX_INT - 2, MAX_INT + 2), st.sampled_from(ODD),
                     st.text(max_size=6), st.sampled_from(sorted(UNREAD) + ["by", "p1.05031", "x" * (MAX_STRING + 1)]),
                     st.floats(allow_nan=True))
_VALUES = st.recursive(_SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=SMALL_ITEMS + 2),
    st.dictionaries(st.one_of(st.text(max_size=4), st.sampled_from(["by", "kind", "answer", "\ud800", "k" * (MAX_STRING
                                                                    + 1)])), inner, max_size=SMALL_ITEMS + 2)),
    max_leaves=40)


@given(doc=st.one_of(st.lists(_VALUES, max_size=SMALL_ITEMS + 1), st.dictionaries(st.text(max_size=3), _VALUES,
                                                                                 max_size=SMALL_ITEMS + 1)),
       depth=st.sampled_from([1, 3, MAX_DEPTH - 2, MAX_DEPTH]), nodes=st.sampled_from([0, 7, MAX_NODES - 20]))
@settings(max_examples=1500, deadline=None, derandomize=True, database=None)
@example(doc=[MAX_INT + 1], depth=3, nodes=0)
@example(doc={"by": [-MAX_INT - 1]}, depth=3, nodes=0)
@example(doc=[["x" * (MAX_STRING + 1)]], depth=3, nodes=0)
@example(doc={"k" * (MAX_STRING + 1): 1}, depth=3, nodes=0)
@example(doc=[{"\ud800": 1}], depth=3, nodes=0)
@example(doc=["\udfff"], depth=3, nodes=0)
@example(doc=[[[1]]], depth=MAX_DEPTH - 1, nodes=0)
@example(doc=[1, [2]], depth=3, nodes=MAX_NODES - 2)
@example(doc=[1.5, math.inf], depth=3, nodes=0)
def test_a_small_value_read_at_once_counts_as_sound_within(doc: Any, depth: int, nodes: int) -> None:
    """``small_within`` (parse_log's reading of a step with its choices or checkpoint) gives
    ``sound_within``'s count, or -2 (then ``sound_within`` reads it): never a count for a value out of
    bounds."""
    got = small_within(doc, depth, nodes)
    assert got == -2 or got == sound_within(doc, depth, nodes) >= 0, (got, doc)


def test_every_step_with_inputs_of_a_self_play_log_is_read_at_once() -> None:
    """The fast path is taken: each step of a self-play log holding choices or a checkpoint is read by
    ``small_within`` (with ``sound_within``'s count)."""
    steps = [s for s in _steps("destiny") + _steps("swtcg") if UNREAD & set(s)]
    assert len(steps) > 10
    for step in steps:
        assert small_within(step, 3, 5) == sound_within(step, 3, 5) >= 0, step
