"""Cards named by name in a log (docs/replay-format.md section 3, "Card names"), for every game.

A log may name a card by its name wherever it names it by code: ``p1.Luke Skywalker#2/1`` for
``p1.05031#2/1``, ``"Force Throw"`` for ``"05116"``. Each name is resolved to its code once, when
the log is read, against the card pool the log is read with; after that the typed actions, the
setup and the state hold codes only, so a log written with names replays exactly as the same log
written with codes.

The matching is the card lookup's (``judge.games.carddata.TitleIndex``: case, accents and
punctuation do not matter; a card answers to its full title and, when it has a subtitle, to its
plain name). A name several cards answer to is a fault listing them (code and title), unless the
game's data marks them as one card and its reprints (``Titles.same_as``): then it names the card
reprinted. A name no card answers to is a fault listing the nearest names.

This module holds what every game shares: the index of a pool (built once per pool, which keeps it:
``NameIndexes``),
``CardNames.code`` (a code or a name, to a code or a fault) and ``with_codes`` (a copy of a JSON
value with some of its strings replaced, copied only where something changed). Each game says
where its logs name cards (``judge.games.<game>.names``); ``replays.format`` calls it.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Sequence
from typing import Any

from i18n import N_, Msg
from judge.games.carddata import TitleIndex, Titles, fold
from judge.games.inputs import Faults, escape

__all__ = ["NAMED_REF", "CardNames", "NameIndexes", "Rewrite", "named_ref", "names_of", "put", "split_ref"]

def named_ref(suffix: str) -> re.Pattern[str]:
    """The pattern of a reference written with a card's name: the player, a dot, the name, then the
    game's ``suffix`` (a regular expression: which copy, which die) at the end. The name is what lies
    between the first dot (a player ID has none) and the suffix; it holds no ``#`` or ``/``."""
    return re.compile(r"^(?P<pid>[A-Za-z][A-Za-z0-9_-]{0,31})\.(?P<name>[^#/]+?)(?P<suffix>" + suffix + ")$")


# Destiny's: ``p1.Luke Skywalker``, ``p1.Luke Skywalker#2``, ``p1.Luke Skywalker#2/1``
NAMED_REF = named_ref(r"(?:#[0-9]{1,3})?(?:/[0-9]{1,2})?")
MAX_LISTED = 8  # candidates listed in a fault
ABILITY_TAIL = re.compile(r"^[a-z0-9-]{1,32}$")  # what follows a card in an ability's ID (``p1.05031:guardian``)


def split_ref(text: str, pattern: re.Pattern[str] = NAMED_REF) -> tuple[str, str, str] | None:
    """``(player, name, suffix)`` of a reference written with a name, else None."""
    m = pattern.match(text)
    if m is None:
        return None
    return m.group("pid"), m.group("name"), m.group("suffix")


class CardNames:
    """The names of one pool's cards, to look names up in a log (see the module's docstring)."""

    def __init__(self, titles: Sequence[Titles]) -> None:
        self.index = TitleIndex(titles)
        self._titles = {t.code: t.names[0] if t.names else t.code for t in titles}

    def title(self, code: str) -> str:
        return self._titles.get(code, code)

    def listed(self, code: str) -> str:
        """A card as a fault lists it: its code and title (``05031 Luke Skywalker``), the title alone
        where the code is the title written small (Relic's ``auspex``)."""
        title = self.title(code)
        return title if fold(code) == fold(title) else f"{code} {title}"

    def code(self, text: str) -> tuple[str | None, Msg | None]:
        """The code ``text`` names (a code of the pool, or a card's name), or None and the fault."""
        match = self.index.match(text)
        if match.code is not None:
            return match.code, None
        listed = "; ".join(self.listed(c) for c in match.candidates[:MAX_LISTED])
        if match.ambiguous:
            return None, Msg(N_("{name} names several cards: {cards}; write the card's code or its full title"),
                             name=repr(text), cards=listed)
        if not listed:
            key = fold(text)
            near = difflib.get_close_matches(key, list(self.index.by_name), n=3, cutoff=0.6)
            listed = "; ".join(dict.fromkeys(self.listed(c) for k in near for c in self.index.by_name[k][:2]))
        if listed:
            return None, Msg(N_("no card is named {name} (nearest: {cards})"), name=repr(text), cards=listed)
        return None, Msg(N_("no card is named {name}"), name=repr(text))


NameIndexes = dict[str, tuple[int, "CardNames"]]
"""The name indexes of one card pool, by the table they index (``"cards"``, Relic's
``"characters"``...), each with the size of the table it was built from: the pool keeps this memo
(a field of each game's pool), so no module holds one. Two threads reading logs at once (the API)
may both build an index; either one is kept, as both are the same."""


def names_of(pool: Any, titles: Callable[[Any], Sequence[Titles]], memo: NameIndexes | None = None,
             key: str = "cards") -> CardNames:
    """The names of ``pool``'s cards (``titles(pool)`` lists them): built once per pool and kept in
    ``memo``, the pool's own ``NameIndexes``, under ``key``; built afresh when the table has grown
    since, or when there is no memo (a log's own cards merged with a pool's are indexed per log)."""
    size = len(pool)
    if memo is not None:
        hit = memo.get(key)
        if hit is not None and hit[0] == size:
            return hit[1]
    names = CardNames(titles(pool))
    if memo is not None:
        memo[key] = (size, names)
    return names


class Rewrite:
    """Names replaced by codes in one JSON value (a step, a setup), copied where something changed;
    ``faults`` (JSON Pointer, message) for the names that name no one card."""

    def __init__(self, names: Callable[[], CardNames]) -> None:
        self._names = names
        self._cache: CardNames | None = None
        self.faults: Faults = []
        self.changed = False

    @property
    def names(self) -> CardNames:
        if self._cache is None:
            self._cache = self._names()
        return self._cache

    def code(self, value: Any, at: str, is_code: Callable[[str], bool]) -> Any:
        """``value`` when it is no string or already a code (``is_code``); else the code its name
        names, or ``value`` and a fault at ``at``."""
        if not isinstance(value, str) or is_code(value) or not value.strip():
            return value
        code, fault = self.names.code(value)
        if code is None:
            self.faults.append((at, fault or ""))
            return value
        self.changed = True
        return code

    def ref(self, value: Any, at: str, players: Sequence[str], is_ref: Callable[[str], bool],
            is_code: Callable[[str], bool], pattern: re.Pattern[str] = NAMED_REF) -> Any:
        """``value`` when it is no string, a player or already a reference; else the reference with
        its card's name replaced by the code (``p1.Luke Skywalker#2/1`` -> ``p1.05031#2/1``)."""
        if not isinstance(value, str) or value in players or is_ref(value):
            return value
        parts = split_ref(value, pattern)
        if parts is None or parts[0] not in players or is_code(parts[1]):
            return value  # not a named reference: the step's own reader words the fault
        code = self.code(parts[1], at, is_code)
        return value if code is parts[1] else f"{parts[0]}.{code}{parts[2]}"

    def answer(self, value: Any, players: Sequence[str], is_ref: Callable[[str], bool],
               is_code: Callable[[str], bool], pattern: re.Pattern[str] = NAMED_REF, bare: bool = True) -> Any:
        """A decision's logged answer (a ``choices`` entry's ``answer``) with the cards it names by
        name as codes: each string, in lists and in objects' keys and values, that is a reference
        written with a name (``p1.Luke Skywalker/1``) or exactly one card's name. Anything else (a
        player, a code, a reference, the decision's own words such as ``yes``) is kept as it is, and
        nothing is a fault here: an answer the decision cannot take is the replay's to say.
        ``bare=False``: only references written with a name, not a card's name alone (a checkpoint's
        state, whose views may hold a card's name as a value)."""
        if isinstance(value, str):
            if value in players or is_ref(value) or is_code(value) or not value.strip():
                return value
            parts = split_ref(value, pattern)
            if parts is not None and parts[0] in players:
                if is_code(parts[1]):
                    return value
                code = self.names.index.code_of(parts[1])
                if code is not None:
                    return f"{parts[0]}.{code}{parts[2]}"
            code = self.names.index.code_of(value) if bare else None
            if code is not None:
                return code
            head, colon, tail = value.rpartition(":")  # an ability's ID: its card, then ':keyword' or ':k'
            if colon and ABILITY_TAIL.match(tail):
                new = self.answer(head, players, is_ref, is_code, pattern, bare=False)
                if new is not head:
                    return f"{new}:{tail}"
            return value
        if isinstance(value, list):
            out = [self.answer(v, players, is_ref, is_code, pattern, bare) for v in value]
            return out if any(a is not b for a, b in zip(out, value, strict=True)) else value
        if isinstance(value, dict):
            pairs = [(self.answer(k, players, is_ref, is_code, pattern, bare),
                      self.answer(v, players, is_ref, is_code, pattern, bare)) for k, v in value.items()]
            if all(k2 is k and v2 is v for (k2, v2), (k, v) in zip(pairs, value.items(), strict=True)):
                return value
            keys = [k for k, _ in pairs]
            return dict(pairs) if len(set(keys)) == len(keys) else value  # two keys naming one card: as given
        return value

    def answers(self, step: Any, players: Sequence[str], is_ref: Callable[[str], bool],
                is_code: Callable[[str], bool], pattern: re.Pattern[str] = NAMED_REF) -> Any:
        """``step`` with its ``choices`` answered with codes and the references of its checkpoint's
        expected ``state`` written with codes (``answer``, for each string and key); the same object
        when neither names a card by name."""
        if not isinstance(step, dict):
            return step
        out = step
        choices = step.get("choices")
        if isinstance(choices, list):
            new = [put(ch, "answer", self.answer(ch["answer"], players, is_ref, is_code, pattern))
                   if isinstance(ch, dict) and "answer" in ch else ch for ch in choices]
            if any(a is not b for a, b in zip(new, choices, strict=True)):
                out = put(out, "choices", new)
        expect = step.get("expect")
        if isinstance(expect, dict) and "state" in expect:
            out = put(out, "expect", put(expect, "state", self.answer(expect["state"], players, is_ref, is_code,
                                                                      pattern, bare=False)))
        return out

    def codes(self, value: Any, at: str, is_code: Callable[[str], bool]) -> Any:
        """A list of codes or names (anything else as it is)."""
        if not isinstance(value, list):
            return value
        out = [self.code(v, f"{at}/{i}", is_code) for i, v in enumerate(value)]
        return out if any(a is not b for a, b in zip(out, value, strict=True)) else value

    def keys(self, value: Any, at: str, rename: Callable[[str, str], Any]) -> Any:
        """An object whose keys are references or codes (``rename(key, pointer)``)."""
        if not isinstance(value, dict):
            return value
        out = {}
        for k, v in value.items():
            new = rename(k, f"{at}/{escape(k)}") if isinstance(k, str) else k
            if new != k and (new in value or new in out):
                self.faults.append((f"{at}/{escape(k)}", Msg(N_("{key} names the same card as the key {other}"),
                                                             key=repr(k), other=repr(new))))
                new = k
            out[new] = v
        return out if list(out) != list(value) else value


def put(obj: dict[str, Any], key: str, new: Any) -> dict[str, Any]:
    """``obj`` with ``key`` set to ``new``: a copy when ``new`` is another value, else ``obj``."""
    if key not in obj or obj[key] is new:
        return obj
    out = dict(obj)
    out[key] = new
    return out
