"""Bounds before work (issue 11): every log and position that crashed or exhausted the engine, now a
fault with its JSON Pointer that names the limit (judge/limits.py), found before anything big is
built. The cases of the issue's probe come first, then each distinct crash the fuzz test
(test_fuzz_logs.py) found in the code before the bounds, then the structural pre-scan
(judge.games.jsonbounds) itself and each per-field bound at and beyond its limit."""

from __future__ import annotations

import copy
import json
import tracemalloc
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from judge.games.jsonbounds import scan
from judge.limits import (
    LIMITS,
    MAX_COUNTER,
    MAX_DEPTH,
    MAX_FAULTS,
    MAX_IN_PLAY,
    MAX_INPUTS,
    MAX_INT,
    MAX_ITEMS,
    MAX_NODES,
    MAX_RNG_DRAWN,
    MAX_ROUND,
    MAX_SEED_CHARS,
    MAX_SEED_INT,
    MAX_STEPS,
    MAX_STRING,
    MAX_ZONE_CARDS,
)
from replays.service import MalformedLog, StepOutOfRange, log_id, replay_json, ruling_json, timeline_json, validate
from tests.helpers import ROOT, load_example

POS = "/setup/position"
P1 = f"{POS}/players/p1"
MB = 1024 * 1024


def shields_cap() -> dict[str, Any]:
    return copy.deepcopy(load_example("shields-cap.json"))


def mutated(change: Callable[[dict[str, Any]], Any]) -> dict[str, Any]:
    log = shields_cap()
    change(log)
    return log


def pos(log: dict[str, Any]) -> dict[str, Any]:
    position: dict[str, Any] = log["setup"]["position"]
    return position


def p1(log: dict[str, Any]) -> dict[str, Any]:
    player: dict[str, Any] = pos(log)["players"]["p1"]
    return player


def faults_of(log: Any) -> dict[str, str]:
    return {f.path: f.message for f in validate(log)}


def refused_everywhere(log: Any) -> None:
    """Every entry point answers the log's faults (nothing else is raised, nothing is replayed)."""
    result = replay_json(log)
    assert result["valid"] is False and result["faults"] and result["error"]["kind"] == "malformed"
    for call in (timeline_json, ruling_json):
        with pytest.raises(MalformedLog):
            call(log)


# ---------------------------------------------------------------- the probe (/tmp/probe/p1.py)
PROBE: list[tuple[str, Callable[[dict[str, Any]], Any], str, str]] = [
    ("deck_huge", lambda g: p1(g).__setitem__("deck", {"unknown": 100_000_000}), f"{P1}/deck/unknown",
     "(limit MAX_ZONE_CARDS)"),
    ("deck_1e12", lambda g: p1(g).__setitem__("deck", {"unknown": 10**12}), f"{P1}/deck/unknown",
     "(limit MAX_ZONE_CARDS)"),
    ("res_inf", lambda g: p1(g).__setitem__("resources", 1e400), f"{P1}/resources", "infinite"),
    ("res_float", lambda g: p1(g).__setitem__("resources", 2.5), f"{P1}/resources", "(limit MAX_COUNTER)"),
    ("res_str", lambda g: p1(g).__setitem__("resources", "x"), f"{P1}/resources", "whole number"),
    ("turn_dict", lambda g: pos(g).__setitem__("turn", {}), f"{POS}/turn", "player whose turn"),
    ("bf_ctrl_list", lambda g: pos(g)["battlefield"].__setitem__("controller", []), f"{POS}/battlefield/controller",
     "player ID"),
    ("claimed_dict", lambda g: pos(g).__setitem__("claimed_by", {}), f"{POS}/claimed_by", "player ID"),
    ("pool_die_dict", lambda g: p1(g)["pool"].__setitem__("p1.05031/1", {}), f"{P1}/pool/p1.05031~11",
     "a die face is a string"),
    ("surrogate", lambda g: g["meta"].__setitem__("title", "a\ud800b"), "/meta/title", "lone surrogate"),
    ("big_int", lambda g: pos(g).__setitem__("round", 2**63), f"{POS}/round", "(limit MAX_INT)"),
    ("round_huge", lambda g: pos(g).__setitem__("round", 10**30), f"{POS}/round", "(limit MAX_INT)"),
    ("dmg_huge", lambda g: p1(g)["characters"]["p1.05031"].__setitem__("damage", 2**63),
     f"{P1}/characters/p1.05031/damage", "(limit MAX_INT)"),
    ("dice_huge", lambda g: p1(g)["characters"]["p1.05031"].__setitem__("dice", 10**9),
     f"{P1}/characters/p1.05031/dice", "1 or 2"),
    ("unknown_card", lambda g: p1(g).__setitem__("hand", ["99999"]), f"{P1}/hand/0", "not known"),
    ("choice_list", lambda g: g["steps"][0].__setitem__("choices", [[{"a": 1}]]), "/steps/0/choices/0",
     "a choice is an object"),
    ("rng_float", lambda g: g.__setitem__("rng", {"algorithm": "sha256-ctr", "seed": 1.5}), "/rng/seed",
     "a float is not a seed"),
]


@pytest.mark.parametrize(("name", "change", "path", "says"), PROBE, ids=[c[0] for c in PROBE])
def test_each_case_of_the_probe_is_a_fault_at_its_pointer(name: str, change: Callable[[dict[str, Any]], Any],
                                                          path: str, says: str) -> None:
    log = mutated(change)
    faults = faults_of(log)
    assert path in faults, faults
    assert says in faults[path]
    refused_everywhere(log)


@pytest.mark.parametrize("n", [100_000_000, 10**12, MAX_INT])
def test_a_huge_unknown_deck_is_refused_before_anything_is_built_for_it(n: int) -> None:
    """Before the bounds, 10**8 placeholders took 52 s and 2.7 GB, 10**12 raised MemoryError."""
    log = mutated(lambda g: p1(g).__setitem__("deck", {"unknown": n}))
    tracemalloc.start()
    try:
        faults = faults_of(log)
        replay_json(log)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert "MAX_ZONE_CARDS" in faults[f"{P1}/deck/unknown"]
    assert peak < 50 * MB, peak


def test_a_log_with_a_lone_surrogate_has_no_id() -> None:
    """The log id (SHA-256 of the UTF-8 encoding) of such a log cannot be computed: log_id refuses it
    with the fault (before: UnicodeEncodeError), as validate does."""
    log = mutated(lambda g: g["meta"].__setitem__("title", "a\ud800b"))
    with pytest.raises(MalformedLog) as exc:
        log_id(log)
    assert [f.path for f in exc.value.faults] == ["/meta/title"]
    assert log_id(shields_cap()) == log_id(shields_cap())  # a sound log keeps its id


# ---------------------------------------------------------------- crashes the fuzz test found
def test_a_lone_surrogate_in_a_key_is_reported_at_that_key() -> None:
    log = mutated(lambda g: g["steps"][0].__setitem__("x\ud800", 1))
    faults = faults_of(log)
    assert list(faults) == ["/steps/0/x\ufffd"], faults  # the pointer shows it as U+FFFD
    assert "lone surrogate" in faults["/steps/0/x\ufffd"]
    json.dumps(list(faults)).encode("utf-8")


@pytest.mark.parametrize(("parent", "key", "at"), [
    (lambda g: g["steps"][0], "card", "/steps/0/card"),
    (p1, "deck", f"{P1}/deck"),
    (lambda g: g["meta"], "title", "/meta/title"),
])
def test_a_log_nested_thousands_deep_is_refused_without_recursion(parent: Callable[[dict[str, Any]], Any], key: str,
                                                                   at: str) -> None:
    """Before: RecursionError in the step parser, in comparing a deck's cards, in log_id's encoder."""
    deep: Any = "p1"
    for _ in range(5_000):
        deep = [deep]
    log = mutated(lambda g: parent(g).__setitem__(key, deep))
    faults = faults_of(log)
    (path,) = faults
    depth_of_value = at.count("/") + 1  # the value's own depth: the root is 1
    assert path == at + "/0" * (MAX_DEPTH - depth_of_value + 1) and "MAX_DEPTH" in faults[path]
    with pytest.raises(MalformedLog):
        log_id(log)
    refused_everywhere(log)


@pytest.mark.parametrize("at", [2.0, [1], "1", True])
def test_a_ruling_on_a_step_that_is_no_whole_number_is_out_of_range(at: Any) -> None:
    """Before: TypeError comparing a list with 0, or range() over a float."""
    with pytest.raises(StepOutOfRange, match="whole number"):
        ruling_json(shields_cap(), at)


@pytest.mark.parametrize(("change", "path"), [
    (lambda g: pos(g)["players"].__setitem__("p1", [{"a": 1}]), "/players/p1"),
    (lambda g: pos(g).__setitem__("round", {"a": {}}), "/round"),
    (lambda g: pos(g).__setitem__("extra_action", ["p1"]), "/extra_action"),
    (lambda g: pos(g)["battlefield"].__setitem__("owner", {"p1": 1}), "/battlefield/owner"),
    (lambda g: p1(g)["pool"].__setitem__("p1.05031/1", [[]]), "/players/p1/pool/p1.05031~11"),
    (lambda g: p1(g).__setitem__("hand", {"unknown": 2**63}), "/players/p1/hand/unknown"),
    (lambda g: p1(g).__setitem__("hand", {"unknown": True}), "/players/p1/hand"),
    (lambda g: p1(g).__setitem__("hand", {"unknown": 2.0}), "/players/p1/hand"),
    (lambda g: p1(g)["characters"]["p1.05031"].__setitem__("dice", 2.0), "/players/p1/characters/p1.05031/dice"),
    (lambda g: pos(g).__setitem__("delayed", [{"when": "round-end", "kind": "defeat", "target": "p1.05031",
                                               "source": ["x"], "round": 1}]), "/delayed/0"),
], ids=["player-as-list", "round-object", "extra-action-list", "owner-object", "pool-face-list",
        "unknown-2-63", "unknown-true", "unknown-float", "dice-float", "delayed-source-list"])
def test_unhashable_or_wrongly_typed_position_values_are_faults(change: Callable[[dict[str, Any]], Any],
                                                                 path: str) -> None:
    """Each raised TypeError, OverflowError or MemoryError before the bounds (or was read as a number)."""
    log = mutated(change)
    faults = faults_of(log)
    assert POS + path in faults, faults
    refused_everywhere(log)


# ---------------------------------------------------------------- a game from the beginning
def beginning() -> dict[str, Any]:
    log: dict[str, Any] = json.loads((ROOT / "tests/replays/golden/logs/selfplay-golden-1.json").read_text())
    log["steps"] = log["steps"][:3]
    return log


@pytest.mark.parametrize(("key", "value", "path"), [
    ("decks", [], "/setup/decks"),
    ("decks", {"p1": [["05035"]]}, "/setup/decks/p1"),
    ("decks", {"p9": []}, "/setup/decks/p9"),
    ("mulligan", {"p1": "05035"}, "/setup/mulligan/p1"),
    ("mulligan_decks", {"p1": ["05035"] * (MAX_ZONE_CARDS + 1)}, "/setup/mulligan_decks/p1"),
    ("battlefield_roll", {"p1": []}, "/setup/battlefield_roll"),
    ("battlefield_roll", [{"p1": [{}], "p2": ["1RD"]}], "/setup/battlefield_roll/0/p1"),
    ("battlefield_roll", [[]] * (MAX_INPUTS + 1), "/setup/battlefield_roll"),
    ("battlefield", ["p1"], "/setup/battlefield"),
    ("shields", {"p1": {"p1.05031": 2.0}}, "/setup/shields/p1"),
    ("shields", {"p1": []}, "/setup/shields/p1"),
])
def test_the_shape_of_the_outcomes_of_setup_is_checked_before_setup(key: str, value: Any, path: str) -> None:
    """Before: AttributeError (a list where a map was expected), TypeError (sorting or looking up
    unhashable values)."""
    log = beginning()
    log["setup"][key] = value
    faults = faults_of(log)
    assert path in faults, faults
    refused_everywhere(log)


@pytest.mark.parametrize("key", ["decks", "mulligan", "mulligan_decks", "battlefield_roll", "shields"])
def test_a_null_outcome_of_setup_is_one_not_given(key: str) -> None:
    """Before: AttributeError on ``None.get``."""
    log = beginning()
    log["setup"][key] = None
    assert validate(log) == []
    assert replay_json(log)["valid"], replay_json(log)["error"]


@pytest.mark.rules("destiny.cards.die-faces")
def test_a_battlefield_roll_face_that_is_no_face_breaks_the_die_faces_rule() -> None:
    """Before: FaceError escaped the setup (it is not an error a game stops with)."""
    log = beginning()
    log["setup"]["battlefield_roll"] = [{"p1": ["9ZZ", "1RD", "1RD"], "p2": ["1RD", "1RD", "1RD"]}]
    error = replay_json(log)["error"]
    assert error["kind"] == "illegal-action" and error["rule"] == "destiny.cards.die-faces", error


# ---------------------------------------------------------------- the structural pre-scan
def nest(depth: int) -> Any:
    doc: Any = 0
    for _ in range(depth):
        doc = [doc]
    return doc


def test_the_scan_allows_max_depth_and_refuses_one_more() -> None:
    assert scan(nest(MAX_DEPTH)) == []
    faults = scan(nest(MAX_DEPTH + 1))
    assert faults == [("/0" * MAX_DEPTH, faults[0][1])] and "(limit MAX_DEPTH)" in faults[0][1]
    assert scan(nest(200_000))[0][0] == "/0" * MAX_DEPTH  # iterative: no RecursionError


def test_the_scan_bounds_sizes_strings_and_numbers() -> None:
    doc = {"list": [0] * (MAX_ITEMS + 1), "ok": [0] * MAX_ITEMS, "s": "x" * (MAX_STRING + 1),
           "fine": "é" * MAX_STRING, "big": MAX_INT + 1, "small": -MAX_INT - 1, "edge": MAX_INT,
           "nan": float("nan"), "inf": float("-inf"), "half": 0.5, "t": (1,), "k": {"x" * (MAX_STRING + 1): 1}}
    got = dict(scan(doc))
    assert "(limit MAX_ITEMS)" in got.pop("/list")
    assert "(limit MAX_STRING)" in got.pop("/s")
    assert "(limit MAX_INT)" in got.pop("/big") and "(limit MAX_INT)" in got.pop("/small")
    assert "NaN" in got.pop("/nan") and "infinite" in got.pop("/inf")
    assert "not a JSON value" in got.pop("/t")
    assert "(limit MAX_STRING)" in got.pop("/k")  # a key too long is reported at its object
    assert got == {}


def test_the_scan_stops_at_max_nodes_and_lists_at_most_max_faults() -> None:
    many = [[0] * 1_000 for _ in range(MAX_NODES // 1_000 + 1)]
    faults = scan(many)
    assert len(faults) == 1 and "(limit MAX_NODES)" in faults[0][1]
    faults = scan(["\ud800"] * 1_000)
    assert len(faults) == MAX_FAULTS + 1 and "(limit MAX_FAULTS)" in faults[-1][1]


def test_the_scan_reads_object_keys_as_strings_only() -> None:
    faults = scan({"a": {1: "x"}, "b": {"ok": 1}})
    assert faults == [("/a", "object keys are strings, not a int")]


@pytest.mark.parametrize(("seed", "ok"), [
    ("golden", True), ("s" * MAX_SEED_CHARS, True), ("s" * (MAX_SEED_CHARS + 1), False), (0, True),
    (2**63, True), (MAX_SEED_INT, True), (MAX_SEED_INT + 1, False), (-1, False), (1.0, False), (True, False),
    (None, False), (["x"], False),
])
def test_a_seed_is_a_bounded_string_or_integer(seed: Any, ok: bool) -> None:
    """An integer seed may exceed MAX_INT (up to MAX_SEED_INT); a float is refused, not truncated."""
    log = beginning()
    log["rng"]["seed"] = seed
    faults = faults_of(log)
    assert (faults == {}) is ok, faults
    if not ok:
        assert list(faults) == ["/rng/seed"]


def test_an_integer_seed_is_read_as_its_decimal_string() -> None:
    as_int, as_str = beginning(), beginning()
    as_int["rng"]["seed"] = 2**63
    as_str["rng"]["seed"] = str(2**63)
    assert replay_json(as_int)["final_state_hash"] == replay_json(as_str)["final_state_hash"]


# ---------------------------------------------------------------- each per-field bound, at and beyond it
def _zone(n: int) -> Callable[[dict[str, Any]], Any]:
    return lambda g: p1(g).__setitem__("deck", {"unknown": n})


def _pool_dice(n: int) -> Callable[[dict[str, Any]], Any]:
    return lambda g: p1(g).__setitem__("pool", {f"p1.05031/{i}": "1RD" for i in range(1, n + 1)})


def _steps(n: int) -> Callable[[dict[str, Any]], Any]:
    return lambda g: g.__setitem__("steps", [{"by": "p1", "do": "pass"}] * n)


BOUNDS: list[tuple[str, Callable[[int], Callable[[dict[str, Any]], Any]], int, str]] = [
    ("MAX_ZONE_CARDS", _zone, MAX_ZONE_CARDS, f"{P1}/deck/unknown"),
    ("MAX_ZONE_CARDS", lambda n: lambda g: p1(g).__setitem__("discard", ["05035"] * n), MAX_ZONE_CARDS,
     f"{P1}/discard"),
    ("MAX_COUNTER", lambda n: lambda g: p1(g).__setitem__("resources", n), MAX_COUNTER, f"{P1}/resources"),
    ("MAX_COUNTER", lambda n: lambda g: pos(g).__setitem__("passes", n), MAX_COUNTER, f"{POS}/passes"),
    ("MAX_ROUND", lambda n: lambda g: pos(g).__setitem__("round", n), MAX_ROUND, f"{POS}/round"),
    ("MAX_IN_PLAY", _pool_dice, MAX_IN_PLAY, f"{P1}/pool"),
    ("MAX_INPUTS", lambda n: lambda g: g["steps"][0].__setitem__("roll", ["1RD"] * n), MAX_INPUTS, "/steps/0/roll"),
    ("MAX_INPUTS", lambda n: lambda g: g["steps"][0].__setitem__("random", [0] * n), MAX_INPUTS, "/steps/0/random"),
    ("MAX_INPUTS", lambda n: lambda g: g["steps"][0].__setitem__("choices", [{"answer": 1}] * n), MAX_INPUTS,
     "/steps/0/choices"),
    ("MAX_IN_PLAY", lambda n: lambda g: g["steps"][0].__setitem__("dice", [{"die": "p1.05031/1"}] * n),
     MAX_IN_PLAY, "/steps/0/dice"),
    ("MAX_RNG_DRAWN", lambda n: lambda g: g.__setitem__("rng", {"algorithm": "sha256-ctr", "seed": "s", "drawn": n}),
     MAX_RNG_DRAWN, "/rng/drawn"),
    ("MAX_STEPS", _steps, MAX_STEPS, "/steps"),
]


@pytest.mark.parametrize(("name", "make", "limit", "path"), BOUNDS, ids=[f"{b[0]}:{b[3]}" for b in BOUNDS])
def test_a_bound_allows_its_limit_and_refuses_one_more(name: str, make: Callable[[int], Callable[[dict[str, Any]],
                                                                                                  Any]],
                                                       limit: int, path: str) -> None:
    """At the limit the value passes the bound (it may still break a rule: that is another fault
    or a ruling); one more is a fault at the value's pointer that names the limit."""
    at_limit = faults_of(mutated(make(limit)))
    assert name not in at_limit.get(path, ""), at_limit
    beyond = faults_of(mutated(make(limit + 1)))
    assert path in beyond, beyond
    assert f"(limit {name})" in beyond[path] or "(limit MAX_ITEMS)" in beyond[path], beyond[path]
    assert str(LIMITS[name][0]) in beyond[path] or "(limit MAX_ITEMS)" in beyond[path]


def test_a_deck_at_its_limit_replays() -> None:
    log = mutated(_zone(MAX_ZONE_CARDS))
    assert replay_json(log)["valid"]


def test_a_float_where_a_count_is_expected_is_refused_not_truncated() -> None:
    for change, path in ((lambda g: p1(g).__setitem__("resources", 2.0), f"{P1}/resources"),
                         (lambda g: pos(g).__setitem__("round", 1.0), f"{POS}/round"),
                         (lambda g: p1(g).__setitem__("deck", {"unknown": 3.0}), f"{P1}/deck"),
                         (lambda g: g.__setitem__("rng", {"algorithm": "sha256-ctr", "seed": "s", "drawn": 1.0}),
                          "/rng/drawn")):
        assert path in faults_of(mutated(change)), path


# ---------------------------------------------------------------- the documented limits
FORMAT_DOC = ROOT / "docs" / "replay-format.md"


@pytest.mark.skipif(not FORMAT_DOC.exists(), reason="the compiled copy (var/compiled/tree) holds no docs/: the "
                    "plain pass of the suite reads them")
def test_the_limits_table_of_the_format_matches_judge_limits() -> None:
    """docs/replay-format.md, "Limits": a row for each limit the log reader checks, each with its
    value in judge/limits.py (the limits of a request alone are docs/api.md's)."""
    text = FORMAT_DOC.read_text(encoding="utf-8")
    section = text.split("### Limits", 1)[1].split("\n## ", 1)[0]
    rows = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 3 and cells[0].startswith("`MAX_"):
            rows[cells[0].strip("`")] = int(cells[1])
    assert READER_LIMITS <= rows.keys(), READER_LIMITS - rows.keys()
    assert rows == {name: LIMITS[name][0] for name in rows}


# the limits the log reader checks (judge.games.jsonbounds, replays.format, the game's reader)
READER_LIMITS = {"MAX_DEPTH", "MAX_NODES", "MAX_STRING", "MAX_ITEMS", "MAX_INT", "MAX_FAULTS", "MAX_STEPS",
                 "MAX_INPUTS", "MAX_SEED_CHARS", "MAX_SEED_INT", "MAX_RNG_DRAWN", "MAX_ZONE_CARDS", "MAX_IN_PLAY",
                 "MAX_COUNTER", "MAX_ROUND"}


_JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-2**64, max_value=2**64) | st.floats()
    | st.text(max_size=3) | st.sampled_from(["x" * 5000, "\ud800", "é", "by", "do"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.text(max_size=3) | st.sampled_from(["by", "do", "steps", "k" * 5000, "\udfff"]), inner, max_size=4),
    max_leaves=30)


@given(_JSONISH)
@settings(max_examples=300, deadline=None)
def test_the_quick_reading_agrees_with_the_pointed_one(doc: Any) -> None:
    """``sound`` (each container's members read in a loop of its own type) finds a document sound
    exactly when ``scan_places`` finds no fault in it."""
    from judge.games.jsonbounds import scan_places, sound

    assert sound(doc) == (scan_places(doc) == [])
    assert sound({"a": [doc, {"b": doc}]}) == (scan_places({"a": [doc, {"b": doc}]}) == [])


def test_lone_surrogates_points_at_each_string_and_key_in_document_order_at_any_depth() -> None:
    from judge.games.jsonbounds import lone_surrogates

    bad = chr(0xD800)
    deep: Any = f"x{bad}"
    for _ in range(3000):  # (deeper than the recursion limit: the walk is iterative)
        deep = [deep]
    doc = {"a": ["ok é", {"b/c": bad}], f"k{bad}~": {"never": bad}, "z": deep, "é": "fine"}
    found = lone_surrogates(doc)
    assert [at for at, _ in found] == ["/a/1/b~1c", "/k\ufffd~0", "/z" + "/0" * 3000]
    assert "key" in found[1][1] and "key" not in found[0][1]
    assert lone_surrogates(bad) == [("", found[0][1])]
    assert lone_surrogates({"a": ["fine", 1, None, {"b": "ü"}]}) == []
    assert len(lone_surrogates([bad] * 50, limit=3)) == 3
