"""Steps as typed actions (judge/games/destiny/steps.py, judge/games/inputs.py): every logged step
parses into a frozen action that writes itself back; a typo is a malformed log with the JSON
Pointer of the fault and what was expected, never a rule violation and never an exception; and no
random damage to a log's steps makes the replay layer raise."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from judge.games.destiny import steps as st_
from judge.games.inputs import INPUT_KEYS, parse_inputs
from replays.errors import MalformedLog
from replays.service import replay_json, ruling_json, timeline_json, validate
from tests.replays.samples import POOL, corpus, example, six_steps

CORPUS = corpus()
LEFT_OUT = ("roll", "random", "choices", "note", "dispute", "expect")  # not part of the action

# Steps written for the keys the corpus does not use (they need only parse, not be legal)
EXTRA: list[dict[str, Any]] = [
    {"do": "upkeep"},
    {"do": "upkeep", "discard": {"p1": ["05116", "05116"], "p2": []}},
    {"by": "p2", "do": "upkeep", "discard": {"p2": ["05058"]}},
    {"by": "p1", "do": "claim", "claim_ability": False},
    {"by": "p1", "do": "claim", "target": "p2.05013", "dice": [{"die": "p1.05031/1", "target": "p2"}]},
    {"by": "p1", "do": "play", "card": "05058", "on": "p1.05031", "replaces": "p1.05073#1"},
    {"by": "p1", "do": "play", "card": "05116", "target": "p2",
     "dice": [{"die": "p1.05031/2", "remove": "p2.05013/1"}]},
    {"by": "p1", "do": "use", "card": "p1.01164#1", "ability": 2, "target": "p1.05031"},
    {"by": "p1", "do": "use", "card": "p1.05031", "dice": [{"die": "p1.05031/2", "target": "p2.05013"}]},
    {"by": "p1", "do": "resolve", "dice": [
        {"die": "p1.05013/1", "split": {"p2.05019": 2, "p2.05013": 1}},
        {"die": "p1.01028/1", "turn": {"p1.05013/1": "2RD"}},
        {"die": "p1.05031/1", "target": "p2.05019", "die_value": "p2.05019/1"},
        {"die": "p1.05072#1/1", "modifies": "p1.05031/1"},
        {"die": "p1.01023#0/1", "target": "p2.05013"}]},
    {"by": "p1", "do": "reroll", "discard": "05116", "dice": ["p1.05031/1", "p1.05031/2"]},
    {"by": "p2", "do": "activate", "card": "p2.05013", "roll": ["1RD"], "random": [0, "05116"],
     "choices": [{"answer": True}, {"by": "p1", "kind": "order", "answer": ["p1.05031", "p2.05013"]}],
     "note": "a note", "dispute": "a question", "expect": {"hash": "sha256:" + "0" * 64, "state": {},
                                                          "error": {"kind": "illegal-action", "rule": "x"}}},
    {"by": "p1", "do": "pass"},
]


def all_steps() -> list[tuple[str, list[str], dict[str, Any]]]:
    """(where, the log's player IDs, step) for every step of the corpus, and the extra steps; a
    step as the log is read (cards named by name written as codes: replays.format)."""
    from replays.format import parse_log

    out = []
    for name, log in CORPUS:
        ids = [p["id"] for p in log["players"]]
        out += [(f"{name}/steps/{i}", ids, step) for i, step in enumerate(parse_log(log, POOL).steps)]
    out += [(f"extra/{i}", ["p1", "p2"], step) for i, step in enumerate(EXTRA)]
    return out


STEPS = all_steps()


def test_every_step_parses_into_a_typed_action_that_writes_itself_back() -> None:
    for where, ids, step in STEPS:
        action, faults = st_.parse_step(step, "/steps/0", ids, POOL)
        assert faults == [], (where, faults)
        assert isinstance(action, st_.CLASSES[step["do"]]) and action.by == step.get("by"), where
        written = action.to_json()
        assert written == {k: v for k, v in step.items() if k not in LEFT_OUT}, where
        again, faults = st_.parse_step(written, "/steps/0", ids, POOL)
        assert faults == [] and again == action, where
        assert again.to_json() == written, where


def test_the_quick_reader_reads_every_step_as_the_full_reader_does() -> None:
    """``steps._quick`` (the commonest steps, read at once) gives what the full reader gives, for
    every step it reads, with or without annotations and inputs, and each verb it knows is met."""
    read: set[str] = set()
    for where, ids, step in STEPS:
        quick = st_._quick(step, "/steps/0", ids, POOL)
        if quick is None:
            continue
        full, faults = st_._parse_full(step, "/steps/0", ids, POOL)
        assert not faults, where
        assert type(quick) is type(full) and quick == full, where
        read.add(quick.verb)
    assert read == {"pass", "activate", "resolve", "reroll", "play", "use", "claim"}
    ids = ["p1", "p2"]
    odd: list[dict[str, Any]] = [
        {"by": "p1", "do": "pass", "card": "05116"},
        {"by": "p1", "do": "claim", "card": "05116"},
        {"by": "p1", "do": "activate", "card": "p1.05031", "dice": []},
        {"by": "p1", "do": "activate", "card": "p1.05031", "note": 3},
        {"by": "p1", "do": "activate", "card": "p1.05031", "note": "fine", "dispute": "fine", "choices": []},
        {"by": "p1", "do": "activate", "card": "p1.05031", "extra": 1},
        {"by": "p1", "do": "resolve", "dice": [{"die": "p1.05031/1", "target": None}]},
        {"by": "p1", "do": "resolve", "dice": [{"die": "p1.05031/1", "modifies": None}]},
        {"by": "p1", "do": "resolve", "dice": [{"die": "p1.05031/1", "target": "p2", "remove": "p2.05013/1"}]},
        {"by": "p1", "do": "resolve", "dice": [{"die": "p1.05031/1", "splat": 1}]},
        {"by": "p1", "do": "resolve", "dice": [{"target": "p2"}]},
        {"by": "p1", "do": "reroll", "discard": "05116", "dice": ["p1.05031/1"], "card": "05116"},
        {"by": "p1", "do": "play", "card": "05116", "replaces": "p1.05073#1"},
        {"by": "p1", "do": "play", "card": "05116", "target": "p2"},
        {"by": "p1", "do": "play", "card": "05058", "on": "p1"},
        {"by": "p1", "do": "use", "card": "p1.05031", "ability": 1},
        {"by": "p1", "do": "upkeep"},
    ]
    for step in odd:
        quick = st_._quick(step, "/steps/0", ids, POOL)
        full, faults = st_._parse_full(step, "/steps/0", ids, POOL)
        assert quick is None or (not faults and type(quick) is type(full) and quick == full), step
    annotated = {"by": "p1", "do": "play", "card": "05116", "expect": {"hash": "sha256:x"}}  # not a hash
    assert st_._quick(annotated, "/steps/0", ["p1", "p2"], POOL) is None
    assert st_.parse_step(annotated, "/steps/0", ["p1", "p2"], POOL)[1][0][0] == "/steps/0/expect/hash"


def test_the_inputs_of_every_step_write_themselves_back() -> None:
    for where, ids, step in STEPS:
        faults: list[tuple[str, str]] = []
        inputs = parse_inputs(step, "/steps/0", ids, faults)
        assert faults == [], where
        assert inputs.to_json() == {k: step[k] for k in INPUT_KEYS if step.get(k)}, where


def test_the_round_trip_covers_every_verb_and_every_key() -> None:
    """So that the test above cannot pass by never meeting a verb or a key."""
    verbs = {step["do"] for _, _, step in STEPS}
    assert verbs == set(st_.VERBS)
    for verb, keys in st_.KEYS.items():
        used = {k for _, _, step in STEPS if step["do"] == verb for k in step}
        assert set(keys) <= used, (verb, set(keys) - used)
    entry_keys = {k for _, _, step in STEPS if isinstance(step.get("dice"), list)
                  for entry in step["dice"] if isinstance(entry, dict) for k in entry}
    assert set(st_.ENTRY_KEYS) <= entry_keys
    corpus_verbs = {step["do"] for where, _, step in STEPS if not where.startswith("extra/")}
    assert {"play", "activate", "resolve", "reroll", "use", "claim", "pass"} <= corpus_verbs


def test_actions_are_frozen_and_compare_by_value() -> None:
    action, _ = st_.parse_step(six_steps()["steps"][0], "/steps/0", ["p1", "p2"], POOL)
    assert isinstance(action, st_.Use) and action.dice is not None
    with pytest.raises(AttributeError):  # slots: nothing can be added to an action
        action.colour = "red"  # type: ignore[attr-defined]
    if st_.__file__.endswith(".so"):  # compiled, the Final attributes are read-only at run time too
        with pytest.raises(AttributeError):
            action.card = "p1.05046"  # type: ignore[misc]
    # (in pure Python the type checker holds them: `make lint` runs mypy, which refuses the assignment)
    same, _ = st_.parse_step(copy.deepcopy(six_steps()["steps"][0]), "/steps/0", ["p1", "p2"], POOL)
    assert same == action and same is not action
    other, _ = st_.parse_step({**six_steps()["steps"][0], "ability": None}, "/steps/0", ["p1", "p2"], POOL)
    assert other is None  # an ability of null is not a number either


# ---------------------------------------------------------------------- a typo is malformed
def rename(obj: dict[str, Any], old: str, new: str) -> None:
    obj[new] = obj.pop(old)


# (id, step, change, the faults' pointers, what the first fault's message must say). The base: the
# six steps of tests/replays/samples.py: use, activate, play, pass, resolve, claim.
TYPOS: list[tuple[str, int, Any, list[str], str]] = [
    ("unknown-key", 2, lambda s: rename(s, "target", "tagret"), ["/steps/2/tagret"], "did you mean 'target'?"),
    ("unknown-key-far", 3, lambda s: s.update(colour="red"), ["/steps/3/colour"], "the known keys are by,"),
    ("die-entry-key", 0, lambda s: rename(s["dice"][0], "target", "tagret"), ["/steps/0/dice/0/tagret"],
     "did you mean 'target'?"),
    ("verb", 1, lambda s: s.update(do="activte"), ["/steps/1/do"], "(did you mean 'activate'?)"),
    ("verb-missing", 1, lambda s: s.pop("do"), ["/steps/1/do"], "'do' must be one of play, activate"),
    ("unknown-card-in-ref", 4, lambda s: s["dice"][0].update(target="p1.99999"), ["/steps/4/dice/0/target"],
     "card 99999 in 'p1.99999' is not known"),
    ("unknown-card-in-hand", 2, lambda s: s.update(card="99999"), ["/steps/2/card"], "card 99999 is not known"),
    ("unknown-card-activated", 1, lambda s: s.update(card="p2.99999"), ["/steps/1/card"], "not known"),
    ("player-in-ref", 1, lambda s: s.update(card="p3.05013"), ["/steps/1/card"], "'p3' in 'p3.05013' is not a player"),
    ("player-by", 3, lambda s: s.update(by="p3"), ["/steps/3/by"], "'p3' is not a player of this log (p1, p2)"),
    ("player-in-die", 4, lambda s: s["dice"][0].update(die="p7.05013/1"), ["/steps/4/dice/0/die"], "'p7'"),
    ("die-number", 0, lambda s: s["dice"][0].update(die="p1.05031/7"), ["/steps/0/dice/0/die"],
     "die 7 of Luke Skywalker (p1.05031): a card has at most 2 dice"),
    ("die-without-number", 4, lambda s: s["dice"][0].update(die="p2.05013"), ["/steps/4/dice/0/die"],
     "must be a die reference"),
    ("card-as-number", 1, lambda s: s.update(card=5013), ["/steps/1/card"], "card reference such as p1.05031"),
    ("code-as-number", 2, lambda s: s.update(card=5102), ["/steps/2/card"], "card code such as 05058"),
    ("dice-as-object", 4, lambda s: s.update(dice=s["dice"][0]), ["/steps/4/dice"], "must be a non-empty list"),
    ("dice-empty", 4, lambda s: s.update(dice=[]), ["/steps/4/dice"], "must be a non-empty list"),
    ("die-entry-as-string", 4, lambda s: s.update(dice=["p2.05013/1"]), ["/steps/4/dice/0"],
     "an object with 'die'"),
    ("ability-as-string", 0, lambda s: s.update(ability="1"), ["/steps/0/ability"], "the number of the card's"),
    ("ability-zero", 0, lambda s: s.update(ability=0), ["/steps/0/ability"], "from 1"),
    ("claim-ability-as-string", 5, lambda s: s.update(claim_ability="false"), ["/steps/5/claim_ability"],
     "true or false"),
    ("declined-claim-with-target", 5, lambda s: s.update(claim_ability=False, target="p2.05013"),
     ["/steps/5/target"], "declines"),
    ("by-as-number", 3, lambda s: s.update(by=1), ["/steps/3/by"], "must name the player"),
    ("roll-as-string", 1, lambda s: s.update(roll="1RD"), ["/steps/1/roll"], "a list of die faces"),
    ("choices-as-object", 2, lambda s: s.update(choices={"by": "p1", "answer": "p1.05031"}), ["/steps/2/choices"],
     "'choices' must be a list"),
    ("choice-without-answer", 2, lambda s: s.update(choices=[{"by": "p1", "kind": "target"}]),
     ["/steps/2/choices/0"], "'answer'"),
    ("choice-key", 2, lambda s: s.update(choices=[{"by": "p1", "knid": "target", "answer": "p1.05031"}]),
     ["/steps/2/choices/0/knid"], "did you mean 'kind'?"),
    ("choice-by", 2, lambda s: s.update(choices=[{"by": "p9", "answer": "p1.05031"}]), ["/steps/2/choices/0/by"],
     "not a player of this log"),
    ("note-as-number", 3, lambda s: s.update(note=3), ["/steps/3/note"], "'note' must be a string"),
    ("expect-as-list", 3, lambda s: s.update(expect=[]), ["/steps/3/expect"], "'expect' must be an object"),
    ("expect-key", 3, lambda s: s.update(expect={"hahs": "sha256:" + "0" * 64}), ["/steps/3/expect/hahs"],
     "did you mean 'hash'?"),
    ("expect-state-key", 3, lambda s: s.update(expect={"stat": {"round": 1}}), ["/steps/3/expect/stat"],
     "did you mean 'state'?"),
    ("expect-hash-type", 3, lambda s: s.update(expect={"hash": 12}), ["/steps/3/expect/hash"], "'sha256:'"),
    ("expect-state-type", 3, lambda s: s.update(expect={"state": "round 1"}), ["/steps/3/expect/state"],
     "an object"),
    ("expect-error-key", 3, lambda s: s.update(expect={"error": {"kind": "illegal-action", "rul": "x"}}),
     ["/steps/3/expect/error/rul"], "did you mean 'rule'?"),
    ("expect-error-kind-type", 3, lambda s: s.update(expect={"error": {"kind": 3}}), ["/steps/3/expect/error/kind"],
     "'kind' must be a string"),
    ("expect-error-empty", 3, lambda s: s.update(expect={"error": {}}), ["/steps/3/expect/error"], "'kind'"),
    ("two-typos", 0, lambda s: (rename(s, "card", "crad"), rename(s["dice"][0], "die", "dei")),
     ["/steps/0/crad", "/steps/0/card", "/steps/0/dice/0/dei", "/steps/0/dice/0/die"], "did you mean 'card'?"),
]


def test_the_base_of_the_typos_is_legal() -> None:
    r = replay_json(six_steps())
    assert r["valid"] and r["error"] is None and r["faults"] == []


@pytest.mark.parametrize(("at", "change", "paths", "says"), [t[1:] for t in TYPOS], ids=[t[0] for t in TYPOS])
def test_a_typo_is_malformed_not_a_rule_violation(at: int, change: Any, paths: list[str], says: str) -> None:
    log = six_steps()
    change(log["steps"][at])
    r = replay_json(log)  # never raises
    assert r["valid"] is False and r["steps"] == 0 and r["final_state"] is None
    assert r["error"]["kind"] == "malformed", r["error"]
    assert [f["path"] for f in r["faults"]] == paths
    assert says in r["faults"][0]["message"], r["faults"][0]["message"]
    assert r["error"]["message"].startswith(f"{len(paths)} fault(s) in the log; the first: {paths[0]}: ")
    assert [f.to_json() for f in validate(log)] == r["faults"]
    with pytest.raises(MalformedLog) as exc:
        ruling_json(log, at + 1)
    assert [f.to_json() for f in exc.value.faults] == r["faults"]


def test_a_die_reference_is_no_card_reference() -> None:
    log = six_steps()
    log["steps"][1]["card"] = "p2.05013/1"
    r = replay_json(log)
    assert [(f["path"], "leave out '/1'" in f["message"]) for f in r["faults"]] == [("/steps/1/card", True)]


@pytest.mark.parametrize("bad", [5, None, ["p1.01022"], {"p1.01022": 1}])
def test_an_order_with_a_non_string_is_rejected_not_raised(bad: Any) -> None:
    log = example("simultaneous-after-abilities")
    log["steps"][0]["choices"][0]["answer"] = ["p2.01021", bad]
    r = replay_json(log)
    assert r["error"]["kind"] == "illegal-action"
    assert r["error"]["rule"] == "destiny.timing.simultaneous-battlefield-controller"


def test_a_die_is_no_target_for_damage() -> None:
    log = six_steps()
    log["steps"][0]["dice"][0]["target"] = "p2.05013/1"
    r = replay_json(log)
    assert r["error"] is not None and r["error"]["kind"] in ("malformed", "illegal-action")


# ---------------------------------------------------------------------- random damage never raises
ENGINE_KINDS = {"illegal-action", "pending-decision", "missing-outcome", "not-implemented", "checkpoint-mismatch"}
BASES = [(n, lg) for n, lg in CORPUS if not n.startswith("selfplay-")] + [("six-steps", six_steps())]
NEAR_KEYS = ["tagret", "target", "die", "dei", "card", "dice", "by", "do", "answer", "kind", "roll", "choices",
             "expect", "hash", "state", "error", "on", "ability", "claim_ability", "split", "turn", "x"]


def json_type(v: Any) -> str:
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "boolean"
    if isinstance(v, int | float):
        return "number"
    return {str: "string", list: "array", dict: "object"}[type(v)]


scalars = (st.none() | st.booleans() | st.integers(-3, 2**40) | st.floats(allow_nan=False, allow_infinity=False)
           | st.text(max_size=12)
           | st.sampled_from(["p1", "p2", "p3", "p1.05031", "p1.05031/1", "p2.05013/1", "05116", "99999", "2RD"]))
json_values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=3)
                           | st.dictionaries(st.text(max_size=8), inner, max_size=3), max_leaves=6)


def locations(obj: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path]
    if isinstance(obj, dict):
        for k, v in obj.items():
            out += locations(v, (*path, k))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            out += locations(v, (*path, i))
    return out


@st.composite
def damaged(draw: st.DrawFn) -> tuple[dict[str, Any], int, str]:
    """A log of the corpus with one step damaged: a value replaced by one of another JSON type, a key
    renamed, or a key (or list item) dropped."""
    name, base = draw(st.sampled_from(BASES))
    log = copy.deepcopy(base)
    at = draw(st.integers(0, len(log["steps"]) - 1))
    step = log["steps"][at]
    path = draw(st.sampled_from(locations(step)))
    op = draw(st.sampled_from(["replace", "rename", "drop"]))
    parent: Any = log["steps"] if not path else step
    key: Any = at if not path else path[-1]
    for p in path[:-1]:
        parent = parent[p]
    if op == "rename" and not isinstance(parent, dict):
        op = "replace"
    if op == "replace" or not path:
        old = parent[key]
        parent[key] = draw(json_values.filter(lambda v: json_type(v) != json_type(old)))
        op = "replace"
    elif op == "rename":
        new = draw(st.sampled_from(NEAR_KEYS) | st.text(min_size=1, max_size=10))
        if new not in parent:
            parent[new] = parent.pop(key)
        else:
            del parent[key]
    elif isinstance(parent, dict):
        del parent[key]
    else:
        parent.pop(key)
    return log, at, f"{name}: {op} /steps/{at}{''.join(f'/{p}' for p in path)}"


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(case=damaged())
def test_damaged_steps_never_raise(case: tuple[dict[str, Any], int, str]) -> None:
    log, at, what = case
    r = replay_json(log)
    faults = validate(log)
    kind = r["error"]["kind"] if r["error"] else None
    event(f"outcome: {kind or 'valid'}")
    if faults:
        assert kind == "malformed" and r["faults"] == [f.to_json() for f in faults], what
        assert all(f.path.startswith("/steps/") for f in faults), what
    else:
        assert kind in ENGINE_KINDS | {None}, (what, r["error"])
        assert r["valid"] is (kind is None), what
    try:
        ruling = ruling_json(log, at + 1)
        timeline = timeline_json(log)
    except MalformedLog as exc:
        assert faults and exc.faults == faults, what
    else:
        assert not faults, what
        assert ruling["at"] == at + 1 and ruling["legal"] in (True, False, None), what
        assert timeline["valid"] == r["valid"], what
