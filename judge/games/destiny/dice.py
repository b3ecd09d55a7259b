"""Die faces in SWDestinyDB notation (destiny.cards.die-faces, destiny.dice.*).

A face is written: an optional ``+`` (a modifier, destiny.dice.modifier-needs-base), a value (a
number or ``X``), a symbol, and an optional resource cost (destiny.dice.face-cost)::

    2RD  3MD1  +2RD  1Sh  1R  1Dr  1Dc  1F  3ID  Sp  Sp1  +1*  -

Symbols: ``MD`` melee, ``RD`` ranged, ``ID`` indirect, ``Sh`` shield, ``R`` resource, ``Dr``
disrupt, ``Dc`` discard, ``F`` focus, ``Sp`` special, ``*`` any symbol, ``-`` blank.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from i18n import NP_

#: the symbols' words, marked for translation (the viewer and rulings word them by ``pgettext``)
SYMBOLS: dict[str, str] = {
    "MD": NP_("die symbol", "melee"),
    "RD": NP_("die symbol", "ranged"),
    "ID": NP_("die symbol", "indirect"),
    "Sh": NP_("die symbol", "shield"),
    "R": NP_("die symbol", "resource"),
    "Dr": NP_("die symbol", "disrupt"),
    "Dc": NP_("die symbol", "discard"),
    "F": NP_("die symbol", "focus"),
    "Sp": NP_("die symbol", "special"),
    "*": NP_("die symbol", "any"),
    "-": NP_("die symbol", "blank"),
}
DAMAGE_SYMBOLS = frozenset({"MD", "RD", "ID"})

_FACE = re.compile(r"^(?P<mod>\+)?(?P<value>\d+|X)?(?P<symbol>MD|RD|ID|Sh|Sp|Dr|Dc|R|F|\*|-)(?P<cost>\d+)?$")


class FaceError(ValueError):
    """A die face that is not valid SWDestinyDB notation."""


@dataclass(frozen=True)
class Face:
    """One face of a die. ``value`` is None for ``X``; blank and special faces count 0."""

    symbol: str
    value: int | None = 0
    modifier: bool = False
    cost: int = 0

    @property
    def numeric(self) -> int:
        """The printed value (destiny.dice.value): blank and special count as 0. An ``X`` has
        no default (destiny.terms.x): its card defines it, so ask ``Ctx.die_value`` instead."""
        if self.value is None:
            raise ValueError(f"{self.notation()}: X has no default value; its card defines it (destiny.terms.x)")
        return self.value

    @property
    def is_blank(self) -> bool:
        return self.symbol == "-"

    @property
    def is_damage(self) -> bool:
        return self.symbol in DAMAGE_SYMBOLS

    def notation(self) -> str:
        if self.symbol == "-":
            return "-"
        value = "" if self.symbol == "Sp" and not self.value else ("X" if self.value is None else str(self.value))
        return f"{'+' if self.modifier else ''}{value}{self.symbol}{self.cost or ''}"

    def __str__(self) -> str:
        return self.notation()


def parse_face(text: object) -> Face:
    """Parse one face; raises FaceError with a readable message (for any value read from a log:
    one that is not a string, an unhashable list or object included, is refused before the cache)."""
    if not isinstance(text, str):
        raise FaceError(f"a die face is a string such as '2RD', not {type(text).__name__}")
    return _parse_face(text)


@lru_cache(maxsize=4096)
def _parse_face(text: str) -> Face:
    m = _FACE.match(text.strip())
    if not m:
        raise FaceError(f"'{text}' is not a die face (expected e.g. 2RD, +2RD, 3MD1, 1Sh, Sp, -)")
    symbol = m.group("symbol")
    raw = m.group("value")
    if symbol in ("-",) and (raw or m.group("mod") or m.group("cost")):
        raise FaceError(f"'{text}': a blank face has no value, modifier or cost")
    value: int | None
    if raw is None:
        if symbol not in ("Sp", "-"):
            raise FaceError(f"'{text}': the {SYMBOLS[symbol]} symbol needs a value")
        value = 0
    elif raw == "X":
        value = None
    else:
        value = int(raw)
    return Face(symbol=symbol, value=value, modifier=bool(m.group("mod")), cost=int(m.group("cost") or 0))


def same_face(a: Face, b: Face) -> bool:
    """Same symbol and value (destiny.terms.turn-die: such faces count as identical)."""
    return a.symbol == b.symbol and a.value == b.value and a.modifier == b.modifier and a.cost == b.cost
