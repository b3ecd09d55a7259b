"""Destiny's card-data tools for the command line (the members of ``judge.games.carddata.CardTools``):
import a SWDestinyDB data folder already read, read the project's card JSON back, describe a card,
read and check a decklist. Each function here backs the ``Game`` member of the same name; until
the Destiny ``Game`` has them, ``arbiter cards`` calls this module.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from judge.games.carddata import CardImport, CardMatch, DeckCheck, Titles, match_title, search_titles
from judge.games.destiny import importer
from judge.games.destiny.deckcheck import check_deck
from judge.games.destiny.decklists import parse_json, parse_text
from judge.games.destiny.dice import SYMBOLS
from judge.games.destiny.model import CardDef, CardPool

# the files of a SWDestinyDB data folder the importer reads (glob patterns, relative to the folder)
card_data_files: tuple[str, ...] = importer.FILES
# the format a decklist is checked against when none is asked for
DEFAULT_DECK_FORMAT = "standard"


@dataclass(frozen=True)
class CardLibrary:
    """The cards of an imported card file, with its sets (a text decklist names a card by its set
    and number, ``Luke Skywalker (Legacies 31)``)."""

    pool: CardPool
    sets: tuple[importer.SetInfo, ...] = ()


def import_cards(files: Mapping[str, bytes]) -> CardImport:
    """A SWDestinyDB data folder already read (``{"sets.json": ..., "set/LEG.json": ...}``) as the
    project's card JSON, with every problem found in the data."""
    result = importer.import_files(files)
    return CardImport(
        data=importer.dump(result.cards, result.sets),
        cards=len(result.cards),
        sets=len(result.sets),
        applied=sum(1 for c in result.cards if c.implemented),
        problems=tuple(str(p) for p in result.errors),
    )


def load_cards(data: Mapping[str, Any]) -> CardLibrary:
    """The cards of the project's card JSON; raises ValueError or KeyError on anything else."""
    pool, sets = importer.load(data)
    return CardLibrary(pool, tuple(sets))


def format_card(card: CardDef) -> str:
    title = f"{card.name} - {card.subtitle}" if card.subtitle else card.name
    lines = [f"{card.code}  {'* ' if card.unique else ''}{title}"]
    lines.append(
        f"  {card.affiliation} {card.color} {card.type.value}"
        + (f" ({', '.join(card.subtypes)})" if card.subtypes else "")
    )
    if card.points:
        lines.append(f"  points: {'/'.join(str(p) for p in card.points)}   health: {card.health}")
    if card.cost is not None:
        lines.append(f"  cost: {card.cost}")
    if card.faces:
        lines.append(f"  die: {' '.join(f.notation() for f in card.faces)}")
    if card.keywords:
        lines.append(f"  keywords: {', '.join(sorted(card.keywords))}")
    if not card.implemented:
        lines.append("  not applied by the engine: " + card.unimplemented.replace("\n", "\n    "))
    return "\n".join(lines)


def describe_card(cards: CardLibrary, code: str) -> str | None:
    """Card ``code``'s stats, die, keywords and the text the engine does not apply; None when the
    library has no such card."""
    card = cards.pool.get(code)
    return format_card(card) if card is not None else None


def check_decklist(text: str, cards: CardLibrary, deck_format: str | None = None) -> DeckCheck:
    """A SWDestinyDB decklist (the JSON export, or the plain-text export) as a player entry, checked
    against ``deck_format`` (``standard`` when None; ValueError for a format Destiny does not have)."""
    fmt = deck_format or DEFAULT_DECK_FORMAT
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        data = None
    result = parse_json(data, cards.pool) if isinstance(data, dict) else parse_text(text, cards.pool, cards.sets)
    violations = check_deck(result.entry, cards.pool, fmt)
    return DeckCheck(
        entry=result.entry,
        deck_format=fmt,
        problems=tuple(str(p) for p in result.errors),
        violations=tuple(v.to_json() for v in violations),
    )


# -- looking cards up (judge.games.carddata.CardLookup) ----------------------------------------------
def pool_of(cards: CardPool | CardLibrary) -> CardPool:
    """The engine's pool of the game's own cards or of an imported library."""
    return cards.pool if isinstance(cards, CardLibrary) else cards


def title(card: CardDef) -> str:
    return f"{card.name} - {card.subtitle}" if card.subtitle else card.name


def _titles(pool: CardPool) -> list[Titles]:
    out = []
    for card in pool.cards.values():
        names = (title(card), card.name) if card.subtitle else (card.name,)
        text = " ".join([str(card.type), card.affiliation, card.color, *card.subtypes, *sorted(card.keywords),
                         *(a.text for a in card.abilities), card.unimplemented])
        out.append(Titles(card.code, names, text))
    return out


def card_info(cards: CardPool | CardLibrary, code: str) -> dict[str, Any] | None:
    """Card ``code`` as JSON (judge.games.carddata.CardLookup.card_info); None when unknown."""
    card = pool_of(cards).get(code)
    if card is None:
        return None
    out: dict[str, Any] = {"code": card.code, "name": card.name, "title": title(card), "type": str(card.type),
                           "affiliation": card.affiliation, "color": card.color, "unique": card.unique}
    if card.subtitle:
        out["subtitle"] = card.subtitle
    if card.set_code:
        out["set"] = card.set_code
    if card.subtypes:
        out["subtypes"] = list(card.subtypes)
    if card.cost is not None:
        out["cost"] = card.cost
    if card.points:
        out["points"] = list(card.points)
    if card.health is not None:
        out["health"] = card.health
    if card.faces:
        out["faces"] = [f.notation() for f in card.faces]
        out["face_words"] = [_face_words(f.notation()) for f in card.faces]
    if card.keywords:
        out["keywords"] = sorted(card.keywords)
    text = [a.text for a in card.abilities if a.text]
    if text:
        out["text"] = text
    out["status"] = "implemented" if card.implemented else "not-implemented"
    if not card.implemented:
        out["not_applied"] = card.unimplemented
    return out


def _face_words(notation: str) -> str:
    """A die face in words: ``2RD`` "2 ranged damage", ``+1MD`` "+1 melee damage", ``1R1`` "1
    resource (costs 1)", ``-`` "blank"."""
    from judge.games.destiny.dice import parse_face

    face = parse_face(notation)
    name = SYMBOLS.get(face.symbol, face.symbol)
    if face.symbol in ("-", "Sp"):
        return name
    value = "X" if face.value is None else str(face.value)
    noun = f"{name} damage" if face.symbol in ("MD", "RD", "ID") else name
    return f"{'+' if face.modifier else ''}{value} {noun}" + (f" (costs {face.cost})" if face.cost else "")


def find_cards(cards: CardPool | CardLibrary, text: str) -> list[str]:
    """Codes of the cards matching ``text`` (judge.games.carddata.search_titles)."""
    return search_titles(_titles(pool_of(cards)), text)


def card_code(cards: CardPool | CardLibrary, text: str) -> CardMatch:
    """The card a code or an unambiguous name names (judge.games.carddata.match_title)."""
    return match_title(_titles(pool_of(cards)), text)
