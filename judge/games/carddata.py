"""What a game offers the command line for its card data, shared by every game: importing a user's
card-data folder into the project's card JSON, reading that JSON back, describing one card, and
checking a decklist. The members are listed in ``CardTools`` (``MEMBERS``); a game has them on its
``Game`` object or, until it does, as functions of the same names in its package's ``cardtools``
module (``arbiter cards`` looks there).

Looking cards up (``CardLookup``, ``LOOKUP_MEMBERS``): one card as JSON, a search by words, and a
card named by its code or its name (``Luke Skywalker``, ``Han Solo - Savvy Smuggler``) when that
name is unambiguous. A game gives each card's titles and searchable text; the matching is written
once here (``match_title``, ``search_titles``).

Pure, like the rest of ``judge/``: the caller reads the folder's files (the game names them in
``card_data_files``) and the decklist, and writes what the import gives.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Protocol

MEMBERS = ("card_data_files", "import_cards", "load_cards", "describe_card", "check_decklist")
LOOKUP_MEMBERS = ("card_info", "find_cards", "card_code")


@dataclass(frozen=True)
class CardImport:
    """What importing a card-data folder gave."""

    data: dict[str, Any]  # the project's card JSON, to be written as it is
    cards: int  # cards imported
    sets: int  # sets imported
    applied: int  # cards whose every rule the engine applies
    problems: tuple[str, ...] = ()  # one line per problem found in the data ("where: message")


@dataclass(frozen=True)
class DeckCheck:
    """A decklist read and checked against one deck format."""

    entry: dict[str, Any]  # the player entry of a replay log
    deck_format: str  # the format it was checked against
    problems: tuple[str, ...] = ()  # what could not be read in the decklist ("line 7: ...")
    violations: tuple[dict[str, Any], ...] = ()  # deck-building rules broken: {"rule", "message", "card"?}

    @property
    def legal(self) -> bool:
        return not self.problems and not self.violations


class CardTools(Protocol):
    """The card-data members of a game (see the module's docstring)."""

    card_data_files: tuple[str, ...]  # glob patterns, relative to a card-data folder, that import_cards reads

    def import_cards(self, files: Mapping[str, bytes]) -> CardImport:
        """Import a card-data folder already read: ``{relative POSIX path: content}``."""
        ...

    def load_cards(self, data: Mapping[str, Any]) -> Any:
        """The cards of the project's card JSON (what ``import_cards`` gave); raises ValueError or
        KeyError when ``data`` is not such a file."""
        ...

    def describe_card(self, cards: Any, code: str) -> str | None:
        """A few lines describing card ``code`` of ``cards``, or None when there is no such card."""
        ...

    def check_decklist(self, text: str, cards: Any, deck_format: str | None = None) -> DeckCheck:
        """Read a decklist (any export the game knows) and check it against ``deck_format`` (one of
        the game's ``deck_formats``; None: the game's usual format for a deck)."""
        ...


@dataclass(frozen=True)
class CardMatch:
    """What a card's code or name names: ``code`` when exactly one card, else the ``candidates``
    (several cards share the name; none: nothing matches, ``candidates`` are near names)."""

    code: str | None
    candidates: tuple[str, ...] = ()
    ambiguous: bool = False  # the candidates all have the name asked for

    def why(self, text: str) -> str:
        """Why ``text`` names no one card, in words (the caller lists the candidates after it)."""
        if self.ambiguous:
            return f"{text!r} names several cards"
        if self.candidates:
            return f"no card is named {text!r}; names holding it"
        return f"no card is named {text!r}"


@dataclass(frozen=True)
class Titles:
    """One card as a lookup sees it: its code, the names it answers to (the full title first), and
    the rest of its words for a search (type, subtitle, text). ``same_as``: the code of the card
    this one reprints, when the game's data says so (the same card under another code); a name
    shared only by a card and its reprints names the card itself (``same_as``'s code)."""

    code: str
    names: tuple[str, ...]
    text: str = ""
    same_as: str = ""


def fold(text: str) -> str:
    """A name as compared: case, accents, punctuation and repeated spaces do not matter."""
    decomposed = unicodedata.normalize("NFKD", text)
    plain = "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()
    return " ".join(re.sub(r"[^\w]+", " ", plain).split())


MAX_CODE_OF: Final = 4096


class TitleIndex:
    """The cards of a pool by code and by folded name, built once: ``match`` is ``match_title``
    without a pass over every card for an exact name (a log that names its cards looks each name
    up once; see judge.games.cardnames)."""

    def __init__(self, cards: Sequence[Titles]) -> None:
        self.cards = tuple(cards)
        self.codes = {c.code: c for c in self.cards}
        self.folded = [(c.code, tuple(dict.fromkeys(fold(n) for n in c.names))) for c in self.cards]
        self.by_name: dict[str, list[str]] = {}
        for code, keys in self.folded:
            for key in keys:
                self.by_name.setdefault(key, []).append(code)
        # ``code_of``'s answers, by text (the index never changes once built: the same words come back
        # in every logged answer, ``p1:draw``, ``build:1``); emptied when it holds MAX_CODE_OF
        self._code_of: dict[str, str | None] = {}

    def code_of(self, text: str) -> str | None:
        """``match(text).code`` without the near names a miss lists (no pass over every card: a
        decision's own word, such as ``damage``, is looked up in a logged answer); each text's answer
        found once (``_code_of``)."""
        memo = self._code_of
        if text in memo:
            return memo[text]
        wanted = text.strip()
        if wanted in self.codes:
            found: str | None = wanted
        else:
            key = fold(wanted)
            found = self.match(text).code if key and key in self.by_name else None
        if len(memo) >= MAX_CODE_OF:
            memo.clear()
        memo[text] = found
        return found

    def match(self, text: str) -> CardMatch:
        """The card ``text`` names: its code, or one of its names (compared with ``fold``) when only
        one card has that name (or the name's cards are one card and its reprints: the card's code).
        Several cards with the name: ``candidates`` are their codes; none: ``candidates`` are the
        codes of cards whose name starts with, or contains, the words."""
        wanted = text.strip()
        if wanted in self.codes:
            return CardMatch(wanted)
        key = fold(wanted)
        if not key:
            return CardMatch(None)
        exact = self.by_name.get(key, [])
        if len(exact) == 1:
            return CardMatch(exact[0])
        if exact:
            originals = {self.codes[c].same_as or c for c in exact}
            if len(originals) == 1 and next(iter(originals)) in self.codes:
                return CardMatch(next(iter(originals)))
            return CardMatch(None, tuple(exact), ambiguous=True)
        return CardMatch(None, tuple(code for code, keys in self.folded if any(key in k for k in keys)))


def match_title(cards: Sequence[Titles], text: str) -> CardMatch:
    """The card ``text`` names (``TitleIndex.match``, for a lookup made once)."""
    return TitleIndex(cards).match(text)


def search_titles(cards: Iterable[Titles], text: str) -> list[str]:
    """Codes of the cards whose code, names or text hold every word of ``text``: exact names first,
    then names holding the words, then the rest; by code within each group."""
    words = fold(text).split()
    ranked: list[tuple[int, str]] = []
    for card in cards:
        names = [fold(n) for n in card.names]
        hay = " ".join([card.code.casefold(), *names, fold(card.text)])
        if not all(w in hay for w in words):
            continue
        joined = " ".join(words)
        rank = 0 if joined in names else 1 if all(any(w in n for n in names) for w in words) else 2
        ranked.append((rank, card.code))
    return [code for _, code in sorted(ranked)]


class CardLookup(Protocol):
    """Looking a game's cards up (see the module's docstring). ``cards`` is the game's own pool
    (``Game.default_cards``) or what ``load_cards`` gave."""

    def card_info(self, cards: Any, code: str) -> dict[str, Any] | None:
        """Card ``code`` as JSON: ``code``, ``name``, ``title``, ``type`` and, where the card has
        them, ``subtitle``, ``cost``, ``health``, ``faces``, ``text`` (a list of lines), ... and
        ``status``: ``implemented`` or ``not-implemented`` (then ``not_applied``: the text the engine
        does not apply). None when there is no such card. No key is null."""
        ...

    def find_cards(self, cards: Any, text: str) -> list[str]:
        """Codes of the cards matching ``text`` (``search_titles``); every card for an empty text."""
        ...

    def card_code(self, cards: Any, text: str) -> CardMatch:
        """The card a code or a name names (``match_title``)."""
        ...
