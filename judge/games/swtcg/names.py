"""Where a SW TCG log names a card, names resolved to codes (judge.games.cardnames; docs/replay-format.md
section 3, "Card names"). A reference written with a name is ``p1.Darth Vader`` or, for a second
copy, ``p1.Darth Vader.2`` (the copy number after a dot, as in ``p1.DS-DV.2``).

- a step: ``card`` (a code from hand or a reference), ``target``, ``to``, ``onto`` (beside
  ``character`` and ``build``) and the card of an ``ability`` (``p1.Yoda:evade``);
- the players' entries: each ``deck``;
- the setup: ``decks`` and, in a ``position``, each player's ``hand``, ``deck`` and ``discard``, the
  keys of ``cards`` and each card's ``code``, ``under`` and ``on``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from judge.games.carddata import Titles
from judge.games.cardnames import CardNames, Rewrite, named_ref, names_of, put
from judge.games.inputs import Faults, escape
from judge.games.swtcg.state import UNKNOWN
from judge.games.swtcg.steps import ABILITY, KEYS, REF

NAMED = named_ref(r"(?:\.[0-9]{1,3})?")
REF_KINDS = ("ref", "onto")


def _titles(cards: Any) -> list[Titles]:
    return [Titles(c.code, (c.display, c.name) if c.version else (c.name,)) for c in cards.cards.values()]


def card_names(cards: Any) -> CardNames:
    """The names of a SW TCG pool's cards (built once per pool)."""
    return names_of(cards, _titles, cards.names)


warm_names = card_names  # index a pool's names now (a worker does so before it forks: base.names_reader)


class _Names(Rewrite):
    def __init__(self, cards: Any, players: Sequence[str]) -> None:
        super().__init__(lambda: card_names(cards))
        self.cards = cards
        self.players = players

    def is_code(self, text: str) -> bool:
        return text in self.cards.cards or text == UNKNOWN

    def is_ref(self, text: Any) -> bool:
        return isinstance(text, str) and REF.match(text) is not None and text.split(".")[1] in self.cards.cards

    def c(self, value: Any, at: str) -> Any:
        return self.code(value, at, self.is_code)

    def r(self, value: Any, at: str) -> Any:
        if not isinstance(value, str) or value in ("character", "build") or self.is_ref(value):
            return value
        if REF.match(value) and not self.known(value.split(".")[1]):
            return value  # a reference to no card of the pool, no name either: the replay says it is not in play
        return self.ref(value, at, self.players, self.is_ref, self.is_code, NAMED)

    def known(self, word: str) -> bool:
        """Whether ``word`` names a card, or several (a fault to report), by name."""
        match = self.names.index.match(word)
        return match.code is not None or match.ambiguous

    def card(self, value: Any, at: str) -> Any:
        """A code from hand or a reference."""
        if isinstance(value, str) and NAMED.match(value) and value.split(".", 1)[0] in self.players:
            return self.r(value, at)
        return self.c(value, at)

    def cs(self, value: Any, at: str) -> Any:
        table = self.cards.cards
        if not isinstance(value, list) or all(type(v) is str and (v in table or v == UNKNOWN) for v in value):
            return value  # no string, or codes only (a deck: no call per card)
        out = [self.c(v, f"{at}/{i}") for i, v in enumerate(value)]
        return out if any(a is not b for a, b in zip(out, value, strict=True)) else value

    def ability(self, value: Any, at: str) -> Any:
        if not isinstance(value, str) or ABILITY.match(value) and self.is_ref(value.split(":", 1)[0]):
            return value
        ref, sep, rest = value.partition(":")
        if not sep:
            return value
        new = self.r(ref, at)
        return value if new is ref else f"{new}:{rest}"


def answer_codes(step: Any, players: Sequence[str], cards: Any) -> Any:
    """``step`` with the cards its ``choices`` answers and its checkpoint's expected ``state`` name by
    name as codes (``Rewrite.answers``)."""
    if cards is None:
        return step
    n = _Names(cards, players)
    return n.answers(step, players, n.is_ref, n.is_code, NAMED)


def step_codes(step: Any, path: str, players: Sequence[str], cards: Any) -> tuple[Any, Faults]:
    """``step`` with the cards it names by name written as codes (the same object when it names
    none), and the faults of the names that name no one card."""

    do = step.get("do") if isinstance(step, dict) else None
    if not isinstance(do, str) or cards is None or do not in KEYS:
        return step, []
    n = _Names(cards, players)
    out = step
    for name, kind, _ in KEYS[do]:
        if name not in step:
            continue
        at = f"{path}/{name}"
        if kind == "card":
            out = put(out, name, n.card(step[name], at))
        elif kind in REF_KINDS:
            out = put(out, name, n.r(step[name], at))
        elif kind == "ability":
            out = put(out, name, n.ability(step[name], at))
    return out, n.faults


def setup_codes(players: Sequence[Any], setup: Any, cards: Any) -> tuple[Any, Any, Faults]:
    """The players' entries and the setup with the cards they name by name written as codes (the
    same objects where nothing is named by name), and the faults of the names that name no one card."""
    if cards is None:
        return players, setup, []
    ids = [p["id"] for p in players if isinstance(p, dict) and isinstance(p.get("id"), str)]
    n = _Names(cards, ids)
    new_players: Sequence[Any] = [put(p, "deck", n.cs(p["deck"], f"/players/{i}/deck"))
                                  if isinstance(p, dict) and "deck" in p else p for i, p in enumerate(players)]
    if all(a is b for a, b in zip(new_players, players, strict=True)):
        new_players = players
    out = setup
    if isinstance(setup, dict):
        decks = setup.get("decks")
        if isinstance(decks, dict):
            new = {pid: n.cs(v, f"/setup/decks/{escape(pid)}") for pid, v in decks.items()}
            if any(new[k] is not decks[k] for k in decks):
                out = put(out, "decks", new)
        pos = setup.get("position")
        if isinstance(pos, dict):
            out = put(out, "position", _position(n, pos, "/setup/position"))
    return new_players, out, n.faults


def _position(n: _Names, pos: dict[str, Any], at: str) -> dict[str, Any]:
    table = n.cards.cards
    raw_cards = pos.get("cards")
    if not isinstance(raw_cards, dict) or all(
            type(c) is dict and type(c.get("code")) is str and c["code"] in table and n.is_ref(ref)
            and not c.get("under") and (c.get("on") is None or n.is_ref(c["on"])) for ref, c in raw_cards.items()):
        pos_cards = None  # every card in play written with codes (the common case: no look-up)
    else:
        pos_cards = pos.get("cards")
    out = pos
    seats = pos.get("players")
    if isinstance(seats, dict):
        new_seats = {}
        for pid, s in seats.items():
            if isinstance(s, dict):
                for key in ("hand", "deck", "discard"):
                    if key in s:
                        s = put(s, key, n.cs(s[key], f"{at}/players/{escape(pid)}/{key}"))
            new_seats[pid] = s
        if any(new_seats[k] is not seats[k] for k in seats):
            out = put(out, "players", new_seats)
    if isinstance(pos_cards, dict):
        new: dict[Any, Any] = {}
        for ref, c in pos_cards.items():
            where = f"{at}/cards/{escape(ref)}" if isinstance(ref, str) else at
            key = n.r(ref, where)
            if key in new or (key != ref and key in pos_cards):
                key = ref
            if isinstance(c, dict):
                if "code" in c:
                    c = put(c, "code", n.c(c["code"], f"{where}/code"))
                if "under" in c:
                    c = put(c, "under", n.cs(c["under"], f"{where}/under"))
                if "on" in c:
                    c = put(c, "on", n.r(c["on"], f"{where}/on"))
            new[key] = c
        if list(new) != list(pos_cards) or any(new[k2] is not pos_cards[k1]
                                               for k1, k2 in zip(pos_cards, new, strict=True)):
            out = put(out, "cards", new)
    return out
