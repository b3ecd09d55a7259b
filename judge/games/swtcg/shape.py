"""The shape of a position's bookkeeping (what ``GameState.position`` writes besides the cards and
players): the open chance, the attack, the roll, damage waiting, held abilities, lasting effects and
the turn's remaining procedure. A position from a log is user input: every value the engine will
read is checked here, so that a malformed position is a fault, never a crash."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from judge.games.swtcg.model import CardPool

Check = Callable[[Any], bool]
CHANCE_KINDS = ("general", "attack", "reroll", "prevent", "disrupt")
WAITS = ("deploy", "partial", "build", "retreat", "act", "chance")
UNTIL = ("attack", "battle", "turn", "character-step")


def is_int(v: Any, lo: int = 0, hi: int = 999) -> bool:
    return type(v) is int and lo <= v <= hi


def is_str(v: Any) -> bool:
    return isinstance(v, str) and 0 < len(v) <= 120


def opt_str(v: Any) -> bool:
    return v is None or is_str(v)


def str_list(v: Any) -> bool:
    return isinstance(v, list) and len(v) <= 200 and all(is_str(x) for x in v)


def record(spec: dict[str, Check], optional: dict[str, Check] | None = None) -> Check:
    optional = optional or {}

    def check(v: Any) -> bool:
        if not isinstance(v, dict) or not set(spec) <= set(v) or not set(v) <= set(spec) | set(optional):
            return False
        return all(c(v[k]) for k, c in spec.items()) and all(c(v[k]) for k, c in optional.items() if k in v)

    return check


def list_of(item: Check, most: int = 200) -> Check:
    return lambda v: isinstance(v, list) and len(v) <= most and all(item(x) for x in v)


def one_of(*values: Any) -> Check:
    return lambda v: isinstance(v, str) and v in values


def shapes(players: Sequence[str], cards: CardPool) -> dict[str, Check]:
    pid = one_of(*players)
    code = lambda v: isinstance(v, str) and v in cards.cards  # noqa: E731
    arena = one_of("space", "ground", "character")
    effect = lambda v: (isinstance(v, list) and len(v) == 3 and is_str(v[0])  # noqa: E731
                        and is_int(v[1], -1) and isinstance(v[2], str))
    pending = record({"target": is_str, "amount": is_int, "source": opt_str, "prevented": is_int},
                     {"stun": is_int, "unevadable": lambda v: v is True})
    chance = record({"kind": one_of(*CHANCE_KINDS), "passes": is_int, "used": str_list})
    frames: dict[str, Check] = {
        "ready": record({"f": is_str}), "build-points": record({"f": is_str, "untapped": str_list}),
        "build-start": record({"f": is_str, "p": pid}), "build": record({"f": is_str, "p": pid}),
        "retreat": record({"f": is_str, "p": pid}), "battle-start": record({"f": is_str}),
        "arena": record({"f": is_str, "a": arena}), "arena-loop": record({"f": is_str, "a": arena}),
        "chance": record({"f": is_str, "kind": one_of(*CHANCE_KINDS)}),
        "resume": record({"f": is_str, "chance": record({"kind": one_of(*CHANCE_KINDS), "passes": is_int,
                                                          "used": str_list, "to": pid}),
                          "wait": lambda v: v is None or v in WAITS}),
        "attack-roll": record({"f": is_str}), "attack-hits": record({"f": is_str}),
        "attack-end": record({"f": is_str}), "attack-clear": record({"f": is_str}),
        "dice-damage": record({"f": is_str, "source": opt_str, "target": is_str, "n": is_int, "player": pid}),
        "dice-hits": record({"f": is_str}),
        "effect-damage": record({"f": is_str, "source": opt_str, "target": is_str, "amount": is_int},
                                {"unevadable": lambda v: v is True}),
        "damage-each": record({"f": is_str, "source": opt_str, "targets": str_list, "amount": is_int}),
        "effects": record({"f": is_str, "source_id": is_str, "source": opt_str, "player": pid,
                           "effects": list_of(effect, 20), "target": opt_str, "x": is_int, "start": is_int}),
        "resolve-play": record({"f": is_str, "source_id": is_str, "source": opt_str, "player": pid,
                                "effects": list_of(effect, 20), "target": opt_str, "x": is_int,
                                "dice": lambda v: v is None or list_of(is_int, 12)(v), "to": opt_str},
                               {"disrupted": is_str}),
        "battle-end": record({"f": is_str}), "turn-end": record({"f": is_str}),
        "release": record({"f": is_str, "w": one_of("chance", "reroll", "prevent")}),
    }

    def frame(v: Any) -> bool:
        return isinstance(v, dict) and v.get("f") in frames and frames[v["f"]](v)

    def held(v: Any) -> bool:
        ok = record({"id": is_str, "source": is_str, "code": code, "player": pid, "index": lambda x: is_int(x, -1),
                     "window": one_of("chance", "reroll", "prevent")},
                    {"boost": list_of(is_int, 2), "left": list_of(is_str, 8), "ordered": lambda x: x is True})(v)
        if not ok:
            return False
        if "boost" in v:
            return len(v["boost"]) == 2
        return 0 <= v["index"] < len(cards.cards[v["code"]].triggers)

    return {
        "chance": lambda v: v is None or chance(v),
        "attack": lambda v: v is None or record(
            {"attacker": is_str, "defender": is_str, "arena": arena, "used": str_list, "lucky": str_list,
             "retaliations": list_of(record({"unit": is_str, "player": pid, "dice": is_int})),
             "boosts": list_of(is_int)}, {"rolled": is_int})(v),
        "roll": lambda v: v is None or record(
            {"purpose": one_of("attack", "dice", "build"), "dice": list_of(lambda d: is_int(d, 1, 6), 99),
             "player": pid, "source": opt_str, "target": opt_str, "used": str_list})(v),
        "damage": list_of(pending), "later": list_of(pending), "held": list_of(held),
        "mods": list_of(record({"target": is_str, "stat": is_str, "amount": lambda x: is_int(x, -99, 99),
                                "until": one_of(*UNTIL), "source": lambda x: isinstance(x, str)})),
        "frames": list_of(frame, 400), "build_started": list_of(pid, 2), "acting": str_list, "may": str_list,
        "bounties": list_of(lambda b: isinstance(b, list) and len(b) == 2 and is_str(b[0]) and list_of(
            lambda o: isinstance(o, list) and len(o) == 2 and one_of("force", "build")(o[0]) and is_int(o[1]))(b[1])),
        "once": str_list, "under": list_of(code, 3),
    }
