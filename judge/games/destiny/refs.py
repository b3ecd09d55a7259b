"""References to things on the table (spec section 3).

- a player: ``p1``
- a character: ``p1.05031``; a second copy of a non-unique character ``p1.01002#2``
- an upgrade or support in play: ``p1.05058#1`` (``#1`` may be left out while only one copy is
  in play)
- a die: ``<card ref>/<n>``, n from 1 (an elite character's second die is ``/2``)
- a card in hand, deck or discard: its code, ``05116``
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Final

from judge.games.base import PLAYER

__all__ = ["CODE", "PLAYER", "Ref", "card_of_die", "die_ref", "is_code", "parse_ref"]

_REF = re.compile(r"^(?P<pid>[A-Za-z][A-Za-z0-9_-]{0,31})\.(?P<code>[0-9]{5}[A-Z]?)(?:#(?P<serial>[0-9]{1,3}))?"
                  r"(?:/(?P<die>[0-9]{1,2}))?$")
CODE = re.compile(r"^[0-9]{5}[A-Z]?$")


@dataclass(frozen=True)
class Ref:
    player: str
    code: str
    serial: int | None = None
    die: int | None = None

    @property
    def card(self) -> str:
        """The card part (without the die), as written."""
        return f"{self.player}.{self.code}" + (f"#{self.serial}" if self.serial is not None else "")


MEMO_SIZE: Final = 8192
# the longest string a memo keeps (a reference is at most 46 characters, a code 6): a longer one is read
# afresh, so that a memo never keeps a log's long strings alive (a step's bounds may be read after its
# game's quick reading: replays.format._deferred)
MEMO_TEXT: Final = 64
_MISSING: Final[Any] = object()


def parse_ref(text: object, memo: dict[str, Ref | None] | None = None) -> Ref | None:
    """What ``text`` reads as, or None. ``memo``: the references read so far, each with what it reads
    as (a Ref, immutable, or None), a bounded memo emptied when full, kept by its owner (a card pool's
    ``CardPool.refs``: this module keeps none); None reads ``text`` afresh. (A dict asked inline: the
    compiled engine looks a string up in it natively, where an lru_cache wrapper is a Python call,
    every time, that costs several times the lookup.)"""
    if not isinstance(text, str):
        return None
    if memo is None or len(text) > MEMO_TEXT:
        return _read_ref(text)
    got = memo.get(text, _MISSING)
    if got is _MISSING:
        got = _read_ref(text)
        if len(memo) >= MEMO_SIZE:
            memo.clear()
        memo[text] = got
    out: Ref | None = got
    return out


def is_code(text: str, memo: dict[str, bool] | None = None) -> bool:
    """``text`` is written as a card code (``CODE``). ``memo``: the strings asked so far, a bounded
    memo as ``parse_ref``'s (a card pool's ``CardPool.codes``), or None."""
    if memo is None or len(text) > MEMO_TEXT:
        return CODE.match(text) is not None
    got = memo.get(text)
    if got is None:
        got = CODE.match(text) is not None
        if len(memo) >= MEMO_SIZE:
            memo.clear()
        memo[text] = got
    return got


def _read_ref(text: str) -> Ref | None:
    m = _REF.match(text)
    if not m:
        return None
    serial = m.group("serial")
    die = m.group("die")
    return Ref(m.group("pid"), m.group("code"), int(serial) if serial else None, int(die) if die else None)


def die_ref(card_ref: str, n: int) -> str:
    return f"{card_ref}/{n}"


def card_of_die(die: str) -> str:
    return die.rsplit("/", 1)[0]
