"""What a game offers the command line for its card data, shared by every game: importing a user's
card-data folder into the project's card JSON, reading that JSON back, describing one card, and
checking a decklist. The members are listed in ``CardTools`` (``MEMBERS``); a game has them on its
``Game`` object or, until it does, as functions of the same names in its package's ``cardtools``
module (``arbiter cards`` looks there).

Pure, like the rest of ``judge/``: the caller reads the folder's files (the game names them in
``card_data_files``) and the decklist, and writes what the import gives.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

MEMBERS = ("card_data_files", "import_cards", "load_cards", "describe_card", "check_decklist")


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
