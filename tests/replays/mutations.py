"""Structure-aware mutations of logs and positions, as hypothesis strategies (the fuzz tests:
tests/replays/test_fuzz_logs.py in-process, tests/api/test_fuzz.py over HTTP).

A case starts from a well-formed log (every example log, and the first steps of two self-play
games from the beginning, so that setup's outcomes are read too) and applies one to four
mutations, each at a place drawn among the log's members (within ``setup.position`` half of the
time when the log has one):

- replace a value with another JSON type, an unhashable value, a huge, negative, float or
  2**63 number, NaN or infinity, a lone surrogate, a very long string, deep nesting, a big
  ``{"unknown": n}``, a long list, or another string of the log (swapped references);
- remove a member or item, duplicate one (under another key, or twice in a list), rename a key
  (to a surrogate, a long key, another key), add a key of the format's vocabulary.

``cases()`` draws a ``Case``: the mutated log, the step asked for a ruling, and the recipe
(what was done where), which is what hypothesis prints for a failing case (the log itself may be
nested thousands deep).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from hypothesis import strategies as st

from judge.limits import (
    MAX_DEPTH,
    MAX_IN_PLAY,
    MAX_INPUTS,
    MAX_INT,
    MAX_ITEMS,
    MAX_SEED_INT,
    MAX_STRING,
    MAX_ZONE_CARDS,
)
from tests.helpers import EXAMPLE_NAMES, ROOT, load_example

SELFPLAY = ROOT / "tests" / "replays" / "golden" / "logs"
SELFPLAY_STEPS = 12  # the first steps of a self-play game: setup from the beginning, then a few steps


def _bases() -> list[tuple[str, str]]:
    out = [(name, json.dumps(load_example(name))) for name in EXAMPLE_NAMES]
    for name in ("selfplay-golden-1.json", "selfplay-golden-4.json"):
        log = json.loads((SELFPLAY / name).read_text(encoding="utf-8"))
        log["steps"] = log["steps"][:SELFPLAY_STEPS]
        out.append((name, json.dumps(log)))
    return out


BASES = _bases()  # (name, JSON text): each case decodes a fresh copy (cheaper than deepcopy)

BIG_NUMBERS: list[Any] = [2**63, -(2**63), 2**64, 2**64 - 1, 2**53, MAX_INT, MAX_INT + 1, -MAX_INT - 1, 10**12,
                          10**30, -1, -(10**9), 0, 1, 2, 3, 61, 201, 10_001, 0.5, 2.0, 1.0, -0.0, 1e308,
                          float("inf"), float("-inf"), float("nan"), MAX_SEED_INT + 1]
OTHER_TYPES: list[Any] = [None, True, False, 0, -1, 1.5, 2.0, "", "x", "p1", "p9", "?", "05031", "p1.05031",
                          "p1.05031/1", "p2.05013/2", "2RD", [], {}, [{}], [[]], {"a": 1}, [{"a": 1}], [1, "a"],
                          {"": None}, {"unknown": 3}]
UNHASHABLE: list[Any] = [{}, [], [{"a": 1}], {"a": [1]}, [[]], {"p1": {}}]
SURROGATES = ["a\ud800b", "\udfff", "p1\ud800", "\ud83d"]  # lone surrogates (a pair half alone)
LONG_STRINGS = [MAX_STRING + 1, 100_000]
DEPTHS = [MAX_DEPTH - 3, MAX_DEPTH + 1, 100, 5_000]
UNKNOWN_COUNTS: list[Any] = [0, MAX_ZONE_CARDS, MAX_ZONE_CARDS + 1, 10**8, 10**12, 2**63, -1, 2.0, True, "5",
                             None]
LIST_SIZES = [MAX_IN_PLAY + 1, MAX_INPUTS + 1, MAX_ZONE_CARDS + 1, MAX_ITEMS + 1]

# keys of the format's vocabulary (docs/replay-format.md), to add where they may or may not belong
VOCABULARY = ["format", "game", "rules", "meta", "rng", "players", "setup", "steps", "by", "do", "card", "dice",
              "roll", "random", "choices", "on", "replaces", "target", "ability", "claim_ability", "discard", "note",
              "dispute", "expect", "round", "phase", "turn", "claimed_by", "battlefield", "passes", "delayed",
              "extra_action", "winner", "resources", "hand", "deck", "passed", "eliminated", "characters",
              "supports", "upgrades", "pool", "power_used", "serials", "decks", "mulligan", "mulligan_decks",
              "battlefield_roll", "shields", "position", "die", "modifies", "split", "die_value", "remove", "kind",
              "answer", "hash", "state", "error", "damage", "defeated", "exhausted", "seed", "drawn", "algorithm",
              "unknown", "owner", "controller", "source", "when", "id", "name", "p1", "p2", "p1.05031", "p1.05031/1",
              "05031"]
ZONES = ("deck", "hand", "discard")

AT_VALUES: list[Any] = [None] * 8 + [0, 1, 1, 2, 3, -1, 10**6, 2.0, "1", True, [1]]
SOFT: list[Any] = [0, 1, 2, 3, 5, True, False, None, "p1", "p2", "action", "upkeep"]  # plausible values

Path = tuple[Any, ...]


@dataclass
class Case:
    """A mutated log, the step a ruling is asked for, and the recipe that made it."""

    base: str
    log: Any
    at: Any = None
    recipe: list[str] = field(default_factory=list)

    def __repr__(self) -> str:
        return f"Case({self.base}: {'; '.join(self.recipe) or 'unchanged'}; at={self.at!r})"


def _pointer(path: Path) -> str:
    return "".join(f"/{k}" for k in path)


def _places(doc: Any, under: Path = ()) -> tuple[list[Path], list[str]]:
    """Every member's or item's path under ``under`` (iteratively, at most MAX_DEPTH + 2 deep and
    20,000 places), and the short strings of the document (to swap references with)."""
    root = _get(doc, under)
    paths: list[Path] = []
    strings: list[str] = []
    stack: list[tuple[Any, Path]] = [(root, under)]
    while stack and len(paths) < 20_000:
        value, path = stack.pop()
        if len(path) > MAX_DEPTH + 2:
            continue
        members = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
        for k, v in members:
            if isinstance(value, list) and k > 50:
                break  # a long list: its first items stand for the rest
            paths.append((*path, k))
            if isinstance(v, dict | list):
                stack.append((v, (*path, k)))
            elif isinstance(v, str) and len(v) < 40:
                strings.append(v)
    return paths, strings


_MISSING: Any = object()


def _get(doc: Any, path: Path) -> Any:
    for k in path:
        if isinstance(doc, dict) and isinstance(k, str) and k in doc:
            doc = doc[k]
        elif isinstance(doc, list) and isinstance(k, int) and 0 <= k < len(doc):
            doc = doc[k]
        else:
            return _MISSING
    return doc


def _nest(value: Any, depth: int) -> Any:
    for i in range(depth):
        value = [value] if i % 2 else {"x": value}
    return value


@st.composite
def _value(draw: st.DrawFn, strings: list[str]) -> tuple[str, Any]:
    """A replacement value and its description."""
    kind = draw(st.sampled_from(["type", "type", "number", "number", "unhashable", "surrogate", "long", "deep",
                                 "swap", "swap", "swap", "swap", "soft", "soft", "list", "unknown", "json"]))
    if kind == "soft":
        v = draw(st.sampled_from(SOFT))
        return f"{v!r}", v
    if kind == "type":
        v = draw(st.sampled_from(OTHER_TYPES))
        return f"{v!r}", json.loads(json.dumps(v))
    if kind == "number":
        v = draw(st.sampled_from(BIG_NUMBERS))
        return f"{v!r}", v
    if kind == "unhashable":
        v = draw(st.sampled_from(UNHASHABLE))
        return f"{v!r}", json.loads(json.dumps(v))
    if kind == "surrogate":
        s = draw(st.sampled_from(SURROGATES))
        return f"{s!r}", s
    if kind == "long":
        n = draw(st.sampled_from(LONG_STRINGS))
        return f"'x' * {n}", "x" * n
    if kind == "deep":
        d = draw(st.sampled_from(DEPTHS))
        return f"nested {d} deep", _nest("p1", d)
    if kind == "swap" and strings:
        s = draw(st.sampled_from(strings))
        return f"{s!r} (from the log)", s
    if kind == "list":
        n = draw(st.sampled_from(LIST_SIZES))
        item = draw(st.sampled_from(["p1.05031/1", "05031", 1, {"die": "p1.05031/1"}, {"by": "p1", "do": "pass"}]))
        return f"[{item!r}] * {n}", [json.loads(json.dumps(item)) for _ in range(n)]
    if kind == "unknown":
        n = draw(st.sampled_from(UNKNOWN_COUNTS))
        return f"{{'unknown': {n!r}}}", {"unknown": n}
    v = draw(_json)
    return f"{v!r}", v


_json = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**64), 2**64) | st.floats() | st.text(max_size=12),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=12,
)


@st.composite
def _mutate(draw: st.DrawFn, case: Case) -> None:
    """One mutation of ``case.log`` in place, its description appended to the recipe."""
    log = case.log
    position = ("setup", "position")
    in_position = isinstance(_get(log, position), dict) and draw(st.booleans())
    if in_position and draw(st.integers(0, 5)) == 0:  # a zone of a player: a big {"unknown": n}, or a list
        players = _get(log, (*position, "players"))
        if isinstance(players, dict) and players:
            pid = draw(st.sampled_from(sorted(players, key=str)))
            zone = draw(st.sampled_from(ZONES))
            n = draw(st.sampled_from(UNKNOWN_COUNTS))
            if isinstance(players[pid], dict):
                as_list = draw(st.booleans())
                size = min(n, MAX_ITEMS + 1) if type(n) is int and n >= 0 else 3
                players[pid][zone] = ["?"] * size if as_list else {"unknown": n}
                case.recipe.append(f"{_pointer((*position, 'players', pid, zone))} <- "
                                   + (f"['?'] * {size}" if as_list else f"{{'unknown': {n!r}}}"))
                return
    paths, strings = _places(log, position if in_position else ())
    if not paths:
        case.log = draw(_json)
        case.recipe.append("the whole log <- random JSON")
        return
    path = paths[draw(st.integers(0, len(paths) - 1))]
    parent = _get(log, path[:-1])
    key = path[-1]
    if parent is _MISSING or _get(log, path) is _MISSING:
        return
    op = draw(st.sampled_from(["replace"] * 6 + ["remove", "remove", "duplicate", "duplicate", "rename", "add"]))
    where = _pointer(path)
    if op == "replace":
        what, value = draw(_value(strings))
        parent[key] = value
        case.recipe.append(f"{where} <- {what}")
    elif op == "remove":
        del parent[key]
        case.recipe.append(f"{where} removed")
    elif op == "duplicate":
        copy = json.loads(json.dumps(parent[key])) if _depth_ok(parent[key]) else parent[key]
        if isinstance(parent, list):
            parent.insert(key, copy)
            case.recipe.append(f"{where} duplicated")
        else:
            other = draw(st.sampled_from(sorted(parent, key=str) + [f"{key}#2", "p1.05031#2", "p2"]))
            parent[other] = copy
            case.recipe.append(f"{where} copied to {other!r}")
    elif op == "rename" and isinstance(parent, dict):
        new = draw(st.sampled_from([*SURROGATES, "x" * (MAX_STRING + 1), *VOCABULARY, f"{key}x", ""]))
        parent[new] = parent.pop(key)
        case.recipe.append(f"{where} renamed {new[:20]!r}{'...' if len(new) > 20 else ''}")
    else:  # add a key of the vocabulary to the member's object (or to its parent)
        target = parent[key] if isinstance(parent[key], dict) else parent
        if isinstance(target, dict):
            new = draw(st.sampled_from(VOCABULARY))
            what, value = draw(_value(strings))
            target[new] = value
            case.recipe.append(f"{where}: added {new!r} <- {what}")


def _depth_ok(value: Any) -> bool:
    """``value`` can be copied through JSON (not nested thousands deep)."""
    try:
        json.dumps(value)
    except (RecursionError, ValueError):
        return False
    return True


@st.composite
def cases(draw: st.DrawFn, most: int = 4) -> Case:
    """A mutated log (see the module's docstring)."""
    name, text = draw(st.sampled_from(BASES))
    case = Case(base=name, log=json.loads(text), at=draw(st.sampled_from(AT_VALUES)))
    for _ in range(draw(st.sampled_from([1, 1, 1, 2, 3, most]))):  # mostly one: the log often stays readable
        draw(_mutate(case))
    return case
