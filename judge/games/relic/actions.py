"""Relic's steps as typed actions (STYLE.md section 3): each step of a log is parsed once into an
immutable value that writes itself back (``to_json``; ``parse_step(a.to_json())`` gives ``a``).

``parse_step`` finds every structural fault of a step (a malformed log, never a rule violation),
each with its JSON Pointer. Whether a step is allowed now is ``legal.check``'s question.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, ClassVar, Final

from i18n import N_, Msg
from judge.games.inputs import COMMON_KEYS, Faults, JsonValue, check_annotations, escape, nearest, unknown_key
from judge.games.relic.cards import CODE, SKILLS

REF = re.compile(r"^[A-Za-z][A-Za-z0-9_-]{0,31}\.[a-z0-9][a-z0-9-]{0,47}(#[0-9]{1,4})?$")
DIE = re.compile(r"^[de][0-9]{1,3}$")
MAX_LIST = 20


class RelicAction(JsonValue):
    """Base of Relic's actions: who takes it (``by``) and the verb. Each action is an immutable value
    (``Final`` attributes): plain classes rather than frozen dataclasses, for the compiled engine
    (see ``judge.kernel.core.Record`` for why); they compare, hash and print as the JSON they write."""

    __slots__ = ("by",)
    verb: ClassVar[str] = ""

    def __init__(self, by: str | None) -> None:
        self.by: Final = by

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"by": self.by, "do": self.verb}
        for key in KEYS[self.verb]:
            value = getattr(self, key)
            if value is None:
                continue
            out[key] = list(value) if isinstance(value, tuple) else value
        return out


class Reach(RelicAction):
    """The active player's character reaches the scenario space (the board is not modelled)."""

    __slots__ = ()
    verb: ClassVar[str] = "reach"


class EndPhase(RelicAction):
    """The active player ends the current phase (the last one ends the turn)."""

    __slots__ = ()
    verb: ClassVar[str] = "end-phase"


class Battle(RelicAction):
    """Battle the enemies on the space (one battle: they share one colour)."""

    __slots__ = ("enemies",)
    verb: ClassVar[str] = "battle"

    def __init__(self, by: str | None, enemies: tuple[str, ...] = ()) -> None:
        super().__init__(by)
        self.enemies: Final = enemies


class Confront(RelicAction):
    """Carry out the scenario's Confrontation."""

    __slots__ = ()
    verb: ClassVar[str] = "confront"


class Test(RelicAction):
    """Take a skill test: ``skill`` against ``target``."""

    __slots__ = ("skill", "target")
    verb: ClassVar[str] = "test"

    def __init__(self, by: str | None, skill: str = "strength", target: int = 0) -> None:
        super().__init__(by)
        self.skill: Final = skill
        self.target: Final = target


class Declare(RelicAction):
    """Declare a card's bonus (``bonus``: its index on the card, from 0) before the roll."""

    __slots__ = ("card", "bonus")
    verb: ClassVar[str] = "declare"

    def __init__(self, by: str | None, card: str = "", bonus: int = 0) -> None:
        super().__init__(by)
        self.card: Final = card
        self.bonus: Final = bonus


class Use(RelicAction):
    """Use a card's effect (``die``: the die it changes, for a reroll or a modifier)."""

    __slots__ = ("card", "die")
    verb: ClassVar[str] = "use"

    def __init__(self, by: str | None, card: str = "", die: str | None = None) -> None:
        super().__init__(by)
        self.card: Final = card
        self.die: Final = die


class Power(RelicAction):
    """Play a Power card for its number: the result of the player's coming die."""

    __slots__ = ("card",)
    verb: ClassVar[str] = "power"

    def __init__(self, by: str | None, card: str = "") -> None:
        super().__init__(by)
        self.card: Final = card


class Roll(RelicAction):
    """Roll: the enemy's die, then the player's dice together, then every 6's explosions."""

    __slots__ = ()
    verb: ClassVar[str] = "roll"


class Resolve(RelicAction):
    """Settle the battle or the test."""

    __slots__ = ()
    verb: ClassVar[str] = "resolve"


class Discard(RelicAction):
    """Discard one's own cards (assets or Power cards) by reference."""

    __slots__ = ("cards",)
    verb: ClassVar[str] = "discard"

    def __init__(self, by: str | None, cards: tuple[str, ...] = ()) -> None:
        super().__init__(by)
        self.cards: Final = cards


class Buy(RelicAction):
    """Buy a card for its Influence cost."""

    __slots__ = ("card",)
    verb: ClassVar[str] = "buy"

    def __init__(self, by: str | None, card: str = "") -> None:
        super().__init__(by)
        self.card: Final = card


ACTIONS: dict[str, type[RelicAction]] = {cls.verb: cls for cls in (
    Reach, EndPhase, Battle, Confront, Test, Declare, Use, Power, Roll, Resolve, Discard, Buy)}
VERBS = tuple(ACTIONS)
# each verb's keys beside the ones every step may carry (judge.games.inputs.COMMON_KEYS), in the
# order its action writes them
KEYS: dict[str, tuple[str, ...]] = {
    "reach": (), "end-phase": (), "battle": ("enemies",), "confront": (), "test": ("skill", "target"),
    "declare": ("card", "bonus"), "use": ("card", "die"), "power": ("card",), "roll": (), "resolve": (),
    "discard": ("cards",), "buy": ("card",),
}
KNOWN: dict[str, frozenset[str]] = {verb: frozenset((*COMMON_KEYS, *keys)) for verb, keys in KEYS.items()}


def parse_step(step: Any, path: str, players: Sequence[str], cards: Any) -> tuple[RelicAction | None, Faults]:
    """One step as a typed action, or its faults."""
    faults: Faults = []
    if not isinstance(step, dict):
        return None, [(path, Msg(N_("a step is an object with 'by' and 'do'")))]
    if "note" in step or "dispute" in step or "expect" in step:
        check_annotations(step, path, faults)
    verb = step.get("do")
    if not isinstance(verb, str) or verb not in ACTIONS:
        faults.append((f"{path}/do", Msg(N_("'do' must be one of {known}{near}"), known=", ".join(VERBS),
                                         near=nearest(verb, VERBS))))
        return None, faults
    by = step.get("by")
    if not isinstance(by, str) or by not in players:
        faults.append((f"{path}/by", Msg(N_("'by' names a player of this log ({players})"),
                                         players=", ".join(players))))
    known = KNOWN[verb]
    for key in step:
        if key not in known:
            faults.append((f"{path}/{escape(key)}", unknown_key(key, known, Msg(N_("a '{verb}' step"), verb=verb))))
    kw: dict[str, Any] = {}
    for key in KEYS[verb]:
        if key not in step:
            continue
        value, at = step[key], f"{path}/{key}"
        if key == "enemies":
            if (not isinstance(value, list) or not 1 <= len(value) <= MAX_LIST
                    or not all(isinstance(c, str) and CODE.match(c) for c in value)):
                faults.append((at, Msg(N_("'enemies' lists the enemies' card codes (1 or more)"))))
                continue
            value = tuple(value)
        elif key == "cards":
            if (not isinstance(value, list) or len(value) > MAX_LIST
                    or not all(isinstance(c, str) and REF.match(c) for c in value)):
                faults.append((at, Msg(N_("'cards' lists card references such as \"p1.needle-rifle\""))))
                continue
            value = tuple(value)
        elif key == "card" and verb == "buy":
            if not isinstance(value, str) or not CODE.match(value):
                faults.append((at, Msg(N_("'card' is a card code such as \"needle-rifle\""))))
                continue
        elif key == "card":
            if not isinstance(value, str) or not REF.match(value):
                faults.append((at, Msg(N_("'card' is a card reference: <player>.<code>, e.g. \"p1.needle-rifle\""))))
                continue
        elif key == "die":
            if not isinstance(value, str) or not DIE.match(value):
                faults.append((at, Msg(N_("'die' is a die's ID: d1, d2... (the player's) or e1... (the enemy's)"))))
                continue
        elif key == "skill":
            if value not in SKILLS:
                faults.append((at, Msg(N_("'skill' is one of {known}{near}"), known=", ".join(SKILLS),
                                           near=nearest(value, SKILLS))))
                continue
        elif key in ("target", "bonus"):
            if type(value) is not int or not 0 <= value <= 99:
                faults.append((at, Msg(N_("'{key}' is a whole number from 0 to 99"), key=key)))
                continue
        kw[key] = value
    if verb in ("declare", "use", "power", "buy") and "card" not in step:
        faults.append((path, Msg(N_("a '{verb}' step names its 'card'"), verb=verb)))
    if verb == "battle" and "enemies" not in step:
        faults.append((path, Msg(N_("a 'battle' step lists its 'enemies'"))))
    if verb == "test" and ("skill" not in step or "target" not in step):
        faults.append((path, Msg(N_("a 'test' step names its 'skill' and 'target'"))))
    if verb == "discard" and "cards" not in step:
        faults.append((path, Msg(N_("a 'discard' step lists its 'cards'"))))
    if faults:
        return None, faults
    return _action(verb, str(by), kw), faults  # no fault: ``by`` is a player ID


def _action(verb: str, by: str, kw: dict[str, Any]) -> RelicAction:
    """The action of a well-formed step (``kw``: its checked keys)."""
    if verb == "end-phase":
        return EndPhase(by)
    if verb == "roll":
        return Roll(by)
    if verb == "resolve":
        return Resolve(by)
    if verb == "use":
        return Use(by, kw["card"], kw.get("die"))
    if verb == "test":
        return Test(by, kw["skill"], kw["target"])
    if verb == "battle":
        return Battle(by, kw["enemies"])
    if verb == "declare":
        return Declare(by, kw["card"], kw.get("bonus", 0))
    if verb == "power":
        return Power(by, kw["card"])
    if verb == "buy":
        return Buy(by, kw["card"])
    if verb == "discard":
        return Discard(by, kw["cards"])
    if verb == "reach":
        return Reach(by)
    return Confront(by)
