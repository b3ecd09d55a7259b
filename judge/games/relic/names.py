"""Where a Relic log names a card, names resolved to codes (judge.games.cardnames; docs/replay-format.md
section 3, "Card names"). A reference written with a name is ``p1.Needle Rifle`` or ``p1.Needle
Rifle#2`` (as ``p1.needle-rifle#2``).

- a step: ``card`` (a reference; a code for ``buy``), each of ``cards`` (references) and each of
  ``enemies`` (codes);
- the players' entries: the ``character`` (a character sheet's code), each of ``assets`` and
  ``power``; and the setup's ``scenario``.

Names are looked up among the project's cards and the log's own ``setup.cards`` (a position's
own ``cards``), in the players' entries, the steps and the answers alike. In a
position: each held card's ``code`` and ``ref``, the discards, trophies and spent cards, and the
contest's enemies (its character sheets and scenario are written out in full).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from judge.games.carddata import Titles
from judge.games.cardnames import CardNames, NameIndexes, Rewrite, named_ref, names_of, put
from judge.games.inputs import Faults, escape
from judge.games.relic.actions import REF

NAMED = named_ref(r"(?:#[0-9]{1,4})?")


def _titles(table: Mapping[str, Any]) -> list[Titles]:
    return [Titles(code, (c.name,)) for code, c in table.items() if isinstance(getattr(c, "name", None), str)]


def card_names(table: Mapping[str, Any], memo: NameIndexes | None = None, key: str = "cards") -> CardNames:
    """The names of the cards (or character sheets, or scenarios) of one table of a pool, kept in
    the pool's ``memo`` under ``key`` (the table's name) when there is one."""
    return names_of(table, _titles, memo, key)


def warm_names(cards: Any) -> None:
    """Index the names of ``cards``' cards, character sheets and scenarios now (a worker does so
    before it forks: judge.games.base.names_reader)."""
    for key in ("cards", "characters", "scenarios"):
        card_names(getattr(cards, key), cards.names, key)


class _Names(Rewrite):
    def __init__(self, table: Mapping[str, Any], players: Sequence[str], memo: NameIndexes | None = None,
                 key: str = "cards") -> None:
        super().__init__(lambda: card_names(table, memo, key))
        self.table = table
        self.players = players

    def is_code(self, text: str) -> bool:
        return text in self.table

    def is_ref(self, text: Any) -> bool:
        return isinstance(text, str) and REF.match(text) is not None and \
            text.split(".", 1)[1].split("#")[0] in self.table

    def c(self, value: Any, at: str) -> Any:
        return self.code(value, at, self.is_code)

    def r(self, value: Any, at: str) -> Any:
        return self.ref(value, at, self.players, self.is_ref, self.is_code, NAMED)

    def each(self, value: Any, at: str, one: Any) -> Any:
        if not isinstance(value, list):
            return value
        out = [one(v, f"{at}/{i}") for i, v in enumerate(value)]
        return out if any(a is not b for a, b in zip(out, value, strict=True)) else value


def answer_codes(step: Any, players: Sequence[str], cards: Any) -> Any:
    """``step`` with the cards its ``choices`` answers and its checkpoint's expected ``state`` name by
    name as codes (``Rewrite.answers``)."""
    if cards is None:
        return step
    n = _Names(cards.cards, players, cards.names)
    return n.answers(step, players, n.is_ref, n.is_code, NAMED)


def step_codes(step: Any, path: str, players: Sequence[str], cards: Any) -> tuple[Any, Faults]:
    """``step`` with the cards it names by name written as codes (the same object when it names
    none), and the faults of the names that name no one card."""
    if not isinstance(step, dict) or cards is None:
        return step, []
    n = _Names(cards.cards, players, cards.names)
    out = step
    if "card" in step:
        out = put(out, "card", (n.c if step.get("do") == "buy" else n.r)(step["card"], f"{path}/card"))
    if "cards" in step:
        out = put(out, "cards", n.each(step["cards"], f"{path}/cards", n.r))
    if "enemies" in step:
        out = put(out, "enemies", n.each(step["enemies"], f"{path}/enemies", n.c))
    return out, n.faults


def setup_codes(players: Sequence[Any], setup: Any, cards: Any) -> tuple[Any, Any, Faults]:
    """The players' entries and the setup with the cards they name by name written as codes (the
    same objects where nothing is named by name), and the faults of the names that name no one card."""
    if cards is None or not isinstance(setup, dict):
        return players, setup, []
    from judge.games.relic.cards import read_cards

    if isinstance(setup.get("position"), dict):
        return players, *_position_codes(setup, cards, players)

    own = read_cards(setup.get("cards", {}), "/setup/cards", []) if isinstance(setup.get("cards"), dict) else {}
    table = {**cards.cards, **own} if own else cards.cards
    ids = [p["id"] for p in players if isinstance(p, dict) and isinstance(p.get("id"), str)]
    n = _Names(table, ids, None if own else cards.names)
    sheets = _Names(cards.characters, ids, cards.names, "characters")
    faults: Faults = []
    new_players = []
    for i, p in enumerate(players):
        if isinstance(p, dict):
            for key in ("assets", "power"):
                if key in p:
                    p = put(p, key, n.each(p[key], f"/players/{i}/{key}", n.c))
            if isinstance(p.get("character"), str):
                p = put(p, "character", sheets.c(p["character"], f"/players/{i}/character"))
        new_players.append(p)
    out = setup
    if isinstance(setup.get("scenario"), str):
        scenarios = _Names(cards.scenarios, ids, cards.names, "scenarios")
        out = put(out, "scenario", scenarios.c(setup["scenario"], "/setup/scenario"))
        faults += scenarios.faults
    same = all(a is b for a, b in zip(new_players, players, strict=True))
    return (players if same else new_players), out, [*n.faults, *sheets.faults, *faults]


class _Own:
    """A pool with the cards a log defines itself (``setup.cards``, a position's ``cards``) beside
    the project's: where its steps' names are looked up (``names_pool``)."""

    def __init__(self, pool: Any, cards: Mapping[str, Any]) -> None:
        self.cards = cards
        self.characters = pool.characters
        self.scenarios = pool.scenarios
        self.names: NameIndexes = {}  # the index of this log's cards (its own beside the pool's)


def names_pool(setup: Any, cards: Any) -> Any:
    """``cards`` with the cards the setup defines itself (a log's ``setup.cards``, a position's
    ``cards``), or ``cards`` itself when it defines none (judge.games.base.Game.names_pool)."""
    if cards is None or not isinstance(setup, dict):
        return cards
    from judge.games.relic.cards import read_cards

    pos = setup.get("position")
    raw = pos.get("cards") if isinstance(pos, dict) else setup.get("cards")
    own = read_cards(raw, "/setup/cards", []) if isinstance(raw, dict) and raw else {}
    return _Own(cards, {**cards.cards, **own}) if own else cards


def _position_codes(setup: dict[str, Any], cards: Any, players: Sequence[Any]) -> tuple[Any, Faults]:
    """A position's cards named by name, as codes: each held card's ``code`` and ``ref`` (assets,
    hand), the ``discard`` and ``trophies`` (codes), ``spent`` (references) and the contest's ``enemies``; names
    are looked up among the project's cards and the position's own ``cards``. (Its character sheets
    and scenario are written out in full, not named.)"""
    from judge.games.relic.cards import read_cards

    pos = setup["position"]
    own = read_cards(pos.get("cards", {}), "/setup/position/cards", []) if isinstance(pos.get("cards"), dict) else {}
    table = {**cards.cards, **own} if own else cards.cards
    ids = [p["id"] for p in players if isinstance(p, dict) and isinstance(p.get("id"), str)]
    n = _Names(table, ids, None if own else cards.names)
    at = "/setup/position"

    def held(value: Any, where: str) -> Any:
        if not isinstance(value, dict):
            return value
        out = value
        if "code" in value:
            out = put(out, "code", n.c(value["code"], f"{where}/code"))
        if "ref" in value:
            out = put(out, "ref", n.r(value["ref"], f"{where}/ref"))
        return out

    new_pos = pos
    seats = pos.get("players")
    if isinstance(seats, dict):
        new_seats = {}
        for pid, seat in seats.items():
            where = f"{at}/players/{escape(pid)}"
            if isinstance(seat, dict):
                for key in ("assets", "hand"):
                    if key in seat:
                        seat = put(seat, key, n.each(seat[key], f"{where}/{key}", held))
                for key in ("discard", "trophies"):
                    if key in seat:
                        seat = put(seat, key, n.each(seat[key], f"{where}/{key}", n.c))
                if "spent" in seat:  # references: the cards used this turn
                    seat = put(seat, "spent", n.each(seat["spent"], f"{where}/spent", n.r))
            new_seats[pid] = seat
        if any(new_seats[k] is not seats[k] for k in seats):
            new_pos = put(new_pos, "players", new_seats)
    contest = pos.get("contest")
    if isinstance(contest, dict) and "enemies" in contest:
        new_pos = put(new_pos, "contest", put(contest, "enemies", n.each(contest["enemies"], f"{at}/contest/enemies",
                                                                         n.c)))
    return put(setup, "position", new_pos), n.faults
