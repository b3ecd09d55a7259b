"""Deck legality for a replay-log player entry (``{"id", "deck": [codes]}``).

``check_deck(entry, pool, fmt)`` returns every violation at once, each naming its rule ID, in a
fixed order (unknown cards, side, size, copies, unit types); checking never raises for a bad deck.

Formats:
- ``standard``: the official rule, one side (Dark or Light) plus any neutral cards
  (swtcg.base.deck-side), and the limits of a fan deck validator, not of an official source:
  exactly 60 cards, at most 4 copies of a card (by its code), at least 12 each of Space, Ground
  and Character cards (swtcg.project.fan-deck-limits).
- ``sandbox``: no checks.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from judge.games.swtcg.model import CardDef, CardPool

FORMATS = ("standard", "sandbox")
DECK_SIZE = 60  # swtcg.project.fan-deck-limits
COPY_LIMIT = 4  # swtcg.project.fan-deck-limits
UNIT_MINIMUM = 12  # of each of Space, Ground and Character (swtcg.project.fan-deck-limits)
SIDE_NAMES = {"dark": "Dark Side", "light": "Light Side"}
FAN = " (a fan deck validator's limit, not an official rule)"


def violation(rule: str, message: str, card: str | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"rule": rule, "message": message}
    if card is not None:
        out["card"] = card
    return out


def _label(card: CardDef) -> str:
    return f"{card.display} ({card.code})"


def _copies(n: int) -> str:
    return f"{n} cop{'y' if n == 1 else 'ies'}"


def check_deck(entry: Mapping[str, Any], pool: CardPool, fmt: str = "standard") -> list[dict[str, Any]]:
    """Every deck-building violation of ``entry``'s deck in ``fmt`` (ValueError: an unknown format)."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}; expected one of {', '.join(FORMATS)}")
    if fmt == "sandbox":
        return []
    deck = [str(code) for code in entry.get("deck") or ()]
    counts = Counter(deck)
    out: list[dict[str, Any]] = []
    known: dict[str, CardDef] = {}
    for code in counts:
        card = pool.get(code)
        if card is None:
            out.append(violation("swtcg.project.card-pool",
                                 f"the deck lists {code!r}, a card the card pool does not know", code))
        else:
            known[code] = card
    out += _side(counts, known)
    if len(deck) != DECK_SIZE:
        out.append(violation("swtcg.project.fan-deck-limits",
                             f"the deck has {len(deck)} cards; the standard format asks for exactly {DECK_SIZE}"
                             f"{FAN}"))
    for code, n in counts.items():
        if n > COPY_LIMIT and code in known:
            out.append(violation("swtcg.project.fan-deck-limits",
                                 f"{_label(known[code])}: {_copies(n)}; the standard format allows at most "
                                 f"{COPY_LIMIT} of a card{FAN}", code))
    for ctype in ("space", "ground", "character"):
        n = sum(counts[code] for code, card in known.items() if card.type == ctype)
        if n < UNIT_MINIMUM:
            out.append(violation("swtcg.project.fan-deck-limits",
                                 f"the deck has {n} {ctype.capitalize()} card{'' if n == 1 else 's'}; the standard "
                                 f"format asks for at least {UNIT_MINIMUM} each of Space, Ground and Character "
                                 f"cards{FAN}"))
    return out


def _side(counts: Counter[str], known: Mapping[str, CardDef]) -> list[dict[str, Any]]:
    """A deck is one side plus neutral cards (swtcg.base.deck-side): the cards of the side with fewer
    copies are each a violation; a deck of neutral cards only has no side."""
    by_side = {side: sum(n for code, n in counts.items() if code in known and known[code].side == side)
               for side in SIDE_NAMES}
    if not any(by_side.values()):
        if not known:
            return []
        return [violation("swtcg.base.deck-side", "the deck has no Dark Side or Light Side card: a deck is one side, "
                                                  "Dark or Light, plus any neutral cards")]
    if not all(by_side.values()):
        return []
    dark, light = by_side["dark"], by_side["light"]
    if dark == light:
        return [violation("swtcg.base.deck-side",
                          f"the deck mixes sides, {dark} Dark Side and {light} Light Side cards: a deck is one "
                          f"side, Dark or Light, plus any neutral cards")]
    side = "dark" if dark > light else "light"
    return [violation("swtcg.base.deck-side",
                      f"{_label(card)} ({_copies(counts[code])}) is a {SIDE_NAMES[card.side]} card in a "
                      f"{SIDE_NAMES[side]} deck: a deck is one side, Dark or Light, plus any neutral cards", code)
            for code, card in known.items() if card.side not in (side, "neutral")]
