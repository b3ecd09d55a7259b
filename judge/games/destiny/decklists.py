"""SWDestinyDB decklists (JSON export or plain text) to a replay-log player entry.

The entry has the shape of the replay format (section 2)::

    {"id": "p1", "name": "Ana", "characters": [{"card": "05031", "dice": 2}],
     "battlefield": "05178", "plot": None, "deck": ["05072", "05072", ...]}

Pure: callers pass the text or parsed JSON, a CardPool and the set list (from the importer).
Where a card goes is decided by its type in the pool, not by the section it was listed under.
Extra battlefields and plots are kept in ``deck`` so that deck checking can report them.
Problems are collected (``DeckProblem`` with a line number or JSON path), never raised.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from judge.games.destiny.importer import SetInfo, card_number
from judge.games.destiny.model import CardDef, CardPool, CardType


@dataclass(frozen=True)
class DeckProblem:
    where: str  # "line 7" or "slots.05031"
    message: str

    def __str__(self) -> str:
        return f"{self.where}: {self.message}"


@dataclass
class DecklistResult:
    entry: dict[str, Any]
    deck_name: str = ""
    errors: list[DeckProblem] = field(default_factory=list)


class CardIndex:
    """Finds codes by (set name or code, number) or by title."""

    def __init__(self, pool: CardPool, sets: Iterable[SetInfo]) -> None:
        self.pool = pool
        self._set_positions: dict[str, int] = {}
        for s in sets:
            self._set_positions[_norm(s.name)] = s.position
            self._set_positions[_norm(s.code)] = s.position
        self._by_number: dict[tuple[int, int], list[str]] = {}
        self._by_title: dict[str, list[str]] = {}
        for code, card in pool.cards.items():
            num = card_number(code)
            if num is not None:
                self._by_number.setdefault(num, []).append(code)
            self._by_title.setdefault(_norm(card.name), []).append(code)
            if card.subtitle:
                self._by_title.setdefault(_norm(f"{card.name} - {card.subtitle}"), []).append(code)

    def by_number(self, set_ref: str, number: int) -> tuple[str | None, str]:
        position = self._set_positions.get(_norm(set_ref))
        if position is None:
            return None, f"unknown set {set_ref!r}"
        codes = sorted(self._by_number.get((position, number), []))
        if not codes:
            return None, f"no card {set_ref} {number} in the card pool"
        return codes[0], ""

    def by_title(self, title: str) -> tuple[str | None, str]:
        codes = sorted(set(self._by_title.get(_norm(title), [])))
        if len(codes) == 1:
            return codes[0], ""
        if not codes:
            return None, f"no card titled {title!r} in the card pool"
        return None, f"{title!r} is ambiguous ({', '.join(codes)}); give the set and number"


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text.replace("\u2013", "-").replace(",", " -")).strip().casefold()


def _entry(player_id: str, name: str) -> dict[str, Any]:
    return {"id": player_id, "name": name, "characters": [], "battlefield": None, "plot": None, "deck": []}


def _place(entry: dict[str, Any], card: CardDef | None, code: str, quantity: int, dice: int | None) -> None:
    """Put ``quantity`` copies of ``code`` where its type says."""
    ctype = card.type if card is not None else None
    if ctype is CardType.CHARACTER:
        if card is not None and card.unique:
            for _ in range(quantity):
                entry["characters"].append({"card": code, "dice": dice or 1})
        else:
            total = dice if dice else quantity
            base, extra = divmod(total, quantity) if quantity else (total, 0)
            for i in range(quantity):
                entry["characters"].append({"card": code, "dice": max(1, base + (1 if i < extra else 0))})
    elif ctype is CardType.BATTLEFIELD and entry["battlefield"] is None and quantity >= 1:
        entry["battlefield"] = code
        entry["deck"].extend([code] * (quantity - 1))
    elif ctype is CardType.PLOT and entry["plot"] is None and quantity >= 1:
        entry["plot"] = code
        entry["deck"].extend([code] * (quantity - 1))
    else:
        entry["deck"].extend([code] * quantity)


# --- JSON ------------------------------------------------------------------------------------


def _slot(raw: Any) -> tuple[int, int | None] | None:
    if isinstance(raw, int) and not isinstance(raw, bool):
        return raw, None
    if isinstance(raw, Mapping):
        q, d = raw.get("quantity", 1), raw.get("dice")
        if isinstance(q, int) and (d is None or isinstance(d, int)):
            return q, d
    return None


def parse_json(
    data: Mapping[str, Any], pool: CardPool, player_id: str = "p1", player_name: str | None = None
) -> DecklistResult:
    """An SWDestinyDB JSON decklist: ``slots`` {code: {quantity, dice}} holding every card, or
    ``characters`` + ``slots`` + ``battlefield_code``/``battlefield`` + ``plot_code``/``plot``."""
    deck_name = str(data.get("name") or "")
    result = DecklistResult(_entry(player_id, player_name or deck_name), deck_name)
    errors = result.errors

    def add(code: Any, raw: Any, where: str) -> None:
        slot = _slot(raw)
        if not isinstance(code, str) or slot is None:
            errors.append(DeckProblem(where, f"cannot read card entry {raw!r}"))
            return
        card = pool.get(code)
        if card is None:
            errors.append(DeckProblem(where, f"unknown card {code}"))
        _place(result.entry, card, code, slot[0], slot[1])

    chars = data.get("characters")
    if isinstance(chars, Mapping):
        for code, raw in chars.items():
            add(code, raw, f"characters.{code}")
    elif isinstance(chars, list):
        for i, raw in enumerate(chars):
            code = raw.get("card") or raw.get("code") if isinstance(raw, Mapping) else None
            add(code, raw, f"characters[{i}]")
    elif chars is not None:
        errors.append(DeckProblem("characters", "expected an object or a list"))
    for key in ("battlefield_code", "battlefield", "plot_code", "plot"):
        value = data.get(key)
        if isinstance(value, Mapping):
            value = value.get("code")
        if value:
            add(value, 1, key)
    slots = data.get("slots", {})
    if isinstance(slots, Mapping):
        for code, raw in slots.items():
            add(code, raw, f"slots.{code}")
    else:
        errors.append(DeckProblem("slots", "expected an object {code: {quantity, dice}}"))
    return result


# --- plain text ------------------------------------------------------------------------------

_SECTIONS = {
    "characters",
    "character",
    "battlefield",
    "battlefields",
    "plot",
    "plots",
    "upgrades",
    "upgrade",
    "downgrades",
    "downgrade",
    "supports",
    "support",
    "events",
    "event",
    "deck",
    "cards",
    "draw deck",
}
_SECTION = re.compile(r"^(?P<name>[A-Za-z ]+?)\s*(?:\(\d+\))?\s*:?\s*$")
_CARD = re.compile(
    r"""^(?:[-*\u2022]\s*)?
        (?:(?P<qty>\d+)\s*x\s+)?                      # 2x
        (?P<title>[^()]+?)\s*
        (?:\((?P<set>[^()]*?)\s*\#?\s*(?P<num>\d+)\))? # (Legacies 31)
        \s*(?:\(?\s*x?\s*(?P<dice>\d+)\s*x?\s*dic?e?\s*\)?)?   # x2 dice / 2 dice / (2 dice)
        \s*$""",
    re.X | re.I,
)
_META = re.compile(r"^[A-Za-z][\w ]*:\s*\S.*$")


def parse_text(
    text: str, pool: CardPool, sets: Iterable[SetInfo], player_id: str = "p1", player_name: str | None = None
) -> DecklistResult:
    """The plain-text export: a title line, section headers (``Characters:``, ``Upgrades (6):``),
    card lines like ``2x Hidden Blaster (Legacies 72)`` or
    ``Luke Skywalker - Unlikely Hero (Legacies 31) x2 dice``; other ``Key: value`` lines ignored."""
    index = CardIndex(pool, sets)
    result = DecklistResult(_entry(player_id, player_name or ""))
    section: str | None = None
    for lineno, raw_line in enumerate(text.splitlines(), start=1):
        line = raw_line.strip()
        if not line:
            continue
        where = f"line {lineno}"
        head = _SECTION.match(line)
        if head and head.group("name").strip().casefold() in _SECTIONS:
            section = head.group("name").strip().casefold()
            continue
        m = _CARD.match(line)
        if m and (m.group("set") is not None or m.group("qty") or section is not None):
            if _META.match(line) and m.group("set") is None:
                continue  # "Total points: 30" inside a section
            title = m.group("title").strip()
            if m.group("num") is not None:
                code, problem = index.by_number(m.group("set").strip(), int(m.group("num")))
                card = pool.get(code) if code else None
                if card is not None and not _title_matches(title, card):
                    problem, code = (
                        f"{m.group('set').strip()} {m.group('num')} is {card.name}, not {title!r}",
                        None,
                    )
            else:
                code, problem = index.by_title(title)
            if code is None:
                result.errors.append(DeckProblem(where, f"{problem}: {line!r}"))
                continue
            dice = int(m.group("dice")) if m.group("dice") else None
            _place(result.entry, pool.get(code), code, int(m.group("qty") or 1), dice)
            continue
        if section is None and not result.deck_name and not _META.match(line):
            result.deck_name = line
            if not player_name:
                result.entry["name"] = line
            continue
        if _META.match(line):
            continue
        result.errors.append(DeckProblem(where, f"cannot read line {line!r}"))
    return result


def _title_matches(title: str, card: CardDef) -> bool:
    wanted = _norm(title)
    return wanted in (_norm(card.name), _norm(f"{card.name} - {card.subtitle or ''}"))
