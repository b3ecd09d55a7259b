"""Where a Destiny log names a card, names resolved to codes (judge.games.cardnames; docs/replay-format.md
section 3, "Card names").

- a step: ``card`` of play and ``discard`` of reroll (codes of cards in hand), every reference
  (``card`` of activate and use, ``on``, ``replaces``, ``target``, each die entry's ``die``,
  ``target``, ``modifies``, ``die_value``, ``remove``, the keys of ``turn`` and ``split``, reroll's
  ``dice``) and the upkeep's discards;
- the players' entries: each character's ``card``, the ``battlefield``, the ``deck``;
- the setup: ``decks``, ``mulligan``, ``mulligan_decks``, the keys of ``shields`` and, in a
  ``position``, the battlefield's ``card``, each player's ``hand``, ``deck`` and ``discard``, the keys
  of ``characters``, ``upgrades``, ``supports``, ``pool`` and ``serials``, each character's
  ``upgrades``, ``power_used`` and each delayed effect's ``target`` and ``source``.

A value that is already a code or a reference is kept as it is without a look-up; so is anything
not a string, and a string that is no reference written with a name (the step's reader words its
fault).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from i18n import N_, Msg
from judge.games.cardnames import CardNames, Rewrite, names_of, put
from judge.games.destiny.cardtools import _titles, pool_of
from judge.games.destiny.refs import CODE, parse_ref
from judge.games.destiny.state import UNKNOWN
from judge.games.destiny.steps import plain_answers
from judge.games.inputs import Faults, escape

REF_KEYS = ("on", "replaces", "target")
ENTRY_REFS = ("die", "target", "modifies", "die_value", "remove")


def _is_code(text: str) -> bool:
    return CODE.match(text) is not None


def _is_ref(text: str) -> bool:
    """Whether ``text`` is a reference (read afresh: ``_ref_test`` reads with a pool's memo)."""
    return parse_ref(text) is not None


def _ref_test(cards: Any) -> Callable[[str], bool]:
    """Whether a string is a reference, read with the memo of ``cards``' pool (``CardPool.refs``)."""
    refs = pool_of(cards).refs

    def is_ref(text: str) -> bool:
        return parse_ref(text, refs) is not None

    return is_ref


def card_names(cards: Any) -> CardNames:
    """The names of a Destiny pool's cards (built once per pool)."""
    pool = pool_of(cards)
    return names_of(pool, _titles, pool.names)


warm_names = card_names  # index a pool's names now (a worker does so before it forks: base.names_reader)


class _Names(Rewrite):
    def __init__(self, cards: Any, players: Sequence[str]) -> None:
        super().__init__(lambda: card_names(cards))
        self.players = players
        self.table = pool_of(cards).cards
        self.is_ref = _ref_test(cards)

    def c(self, value: Any, at: str) -> Any:
        return value if value == UNKNOWN else self.code(value, at, _is_code)

    def r(self, value: Any, at: str) -> Any:
        return self.ref(value, at, self.players, self.is_ref, _is_code)

    def cs(self, value: Any, at: str) -> Any:
        if not isinstance(value, list):
            return value
        try:
            if self.table.keys() >= set(value) - {UNKNOWN}:
                return value  # codes of the pool only (a deck): no call per card
        except TypeError:  # an unhashable value: each is looked at below
            pass
        out = [self.c(v, f"{at}/{i}") for i, v in enumerate(value)]
        return out if any(a is not b for a, b in zip(out, value, strict=True)) else value

    def rs(self, value: Any, at: str) -> Any:
        if not isinstance(value, list):
            return value
        out = [self.r(v, f"{at}/{i}") for i, v in enumerate(value)]
        return out if any(a is not b for a, b in zip(out, value, strict=True)) else value

    def ref_keys(self, value: Any, at: str) -> Any:
        return self.keys(value, at, self.r)

    def code_keys(self, value: Any, at: str) -> Any:
        return self.keys(value, at, self.c)


def step_codes(step: Any, path: str, players: Sequence[str], cards: Any) -> tuple[Any, Faults]:
    """``step`` with the cards it names by name written as codes (the same object when it names
    none), and the faults of the names that name no one card (JSON Pointers under ``path``)."""
    if not isinstance(step, dict) or cards is None:
        return step, []
    n = _Names(cards, players)
    do = step.get("do")
    out = step
    if do == "play":
        out = put(out, "card", n.c(step.get("card"), f"{path}/card"))
    elif do in ("activate", "use"):
        out = put(out, "card", n.r(step.get("card"), f"{path}/card"))
    elif do == "reroll":
        out = put(out, "discard", n.c(step.get("discard"), f"{path}/discard"))
    for key in REF_KEYS:
        if key in step:
            out = put(out, key, n.r(step[key], f"{path}/{key}"))
    dice = step.get("dice")
    if isinstance(dice, list):
        if do == "reroll":
            out = put(out, "dice", n.rs(dice, f"{path}/dice"))
        else:
            entries = [_entry(n, e, f"{path}/dice/{i}") for i, e in enumerate(dice)]
            if any(a is not b for a, b in zip(entries, dice, strict=True)):
                out = put(out, "dice", entries)
    if do == "upkeep" and isinstance(step.get("discard"), dict):
        disc = step["discard"]
        new = {pid: n.cs(v, f"{path}/discard/{escape(pid)}") for pid, v in disc.items()}
        if any(new[k] is not disc[k] for k in disc):
            out = put(out, "discard", new)
    return out, n.faults


def answer_codes(step: Any, players: Sequence[str], cards: Any) -> Any:
    """``step`` with the cards its ``choices`` answers and its checkpoint's expected ``state`` name by
    name as codes (``Rewrite.answers``)."""
    if cards is None:
        return step
    if plain_answers(step, players, pool_of(cards)):  # (compiled: most logged answers name no card by name)
        return step
    return _Names(cards, players).answers(step, players, _ref_test(cards), _is_code)


def _entry(n: _Names, entry: Any, at: str) -> Any:
    if not isinstance(entry, dict):
        return entry
    out = entry
    for key in ENTRY_REFS:
        if key in entry:
            out = put(out, key, n.r(entry[key], f"{at}/{key}"))
    for key in ("turn", "split"):
        if key in entry:
            out = put(out, key, n.ref_keys(entry[key], f"{at}/{key}"))
    return out


def setup_codes(players: Sequence[Any], setup: Any, cards: Any) -> tuple[Any, Any, Faults]:
    """The players' entries and the setup with the cards they name by name written as codes (the
    same objects where nothing is named by name), and the faults of the names that name no one card."""
    if cards is None:
        return players, setup, []
    ids = [p["id"] for p in players if isinstance(p, dict) and isinstance(p.get("id"), str)]
    n = _Names(cards, ids)
    new_players = [_player_entry(n, p, f"/players/{i}") for i, p in enumerate(players)]
    if all(a is b for a, b in zip(new_players, players, strict=True)):
        new_players = list(players) if not isinstance(players, list) else players
    out = setup
    if isinstance(setup, dict):
        for key in ("decks", "mulligan", "mulligan_decks"):
            if isinstance(setup.get(key), dict):
                out = put(out, key, _per_player(setup[key], f"/setup/{key}", n.cs))
        if isinstance(setup.get("shields"), dict):
            out = put(out, "shields", _per_player(setup["shields"], "/setup/shields", n.ref_keys))
        if isinstance(setup.get("position"), dict):
            out = put(out, "position", _position(n, setup["position"], "/setup/position"))
    return new_players, out, n.faults


def _per_player(value: dict[str, Any], at: str, each: Any) -> dict[str, Any]:
    new = {pid: each(v, f"{at}/{escape(pid)}") for pid, v in value.items()}
    return new if any(new[k] is not value[k] for k in value) else value


def _player_entry(n: _Names, p: Any, at: str) -> Any:
    if not isinstance(p, dict):
        return p
    out = p
    table = n.table
    chars = p.get("characters")
    if isinstance(chars, list) and not all(type(c) is dict and type(c.get("card")) is str and c["card"] in table
                                           for c in chars):
        new = [put(c, "card", n.c(c.get("card"), f"{at}/characters/{k}/card")) if isinstance(c, dict) else c
               for k, c in enumerate(chars)]
        if any(a is not b for a, b in zip(new, chars, strict=True)):
            out = put(out, "characters", new)
    bf = p.get("battlefield")
    if bf is not None and not (type(bf) is str and bf in table):
        out = put(out, "battlefield", n.c(p["battlefield"], f"{at}/battlefield"))
    if "deck" in p:
        out = put(out, "deck", n.cs(p["deck"], f"{at}/deck"))
    return out


def _position(n: _Names, pos: dict[str, Any], at: str) -> dict[str, Any]:
    out = pos
    bf = pos.get("battlefield")
    if isinstance(bf, dict) and "card" in bf:
        out = put(out, "battlefield", put(bf, "card", n.c(bf["card"], f"{at}/battlefield/card")))
    delayed = pos.get("delayed")
    if isinstance(delayed, list):
        new = [_delayed(n, d, f"{at}/delayed/{i}") for i, d in enumerate(delayed)]
        if any(a is not b for a, b in zip(new, delayed, strict=True)):
            out = put(out, "delayed", new)
    seats = pos.get("players")
    if isinstance(seats, dict):
        new_seats = {pid: _seat(n, s, f"{at}/players/{escape(pid)}") for pid, s in seats.items()}
        if any(new_seats[k] is not seats[k] for k in seats):
            out = put(out, "players", new_seats)
    return out


def _delayed(n: _Names, d: Any, at: str) -> Any:
    if not isinstance(d, dict):
        return d
    out = d
    for key in ("target", "source"):
        if key in d:
            out = put(out, key, n.r(d[key], f"{at}/{key}"))
    return out


def _seat(n: _Names, s: Any, at: str) -> Any:
    if not isinstance(s, dict):
        return s
    out = s
    for key in ("hand", "deck", "discard"):
        if key in s:
            out = put(out, key, n.cs(s[key], f"{at}/{key}"))
    for key in ("upgrades", "supports", "pool"):
        if key in s:
            out = put(out, key, n.ref_keys(s[key], f"{at}/{key}"))
    if "serials" in s:
        out = put(out, "serials", n.code_keys(s["serials"], f"{at}/serials"))
    if "power_used" in s:
        out = put(out, "power_used", n.rs(s["power_used"], f"{at}/power_used"))
    chars = s.get("characters")
    if isinstance(chars, dict):
        new: dict[Any, Any] = {}
        for ref, c in chars.items():
            where = f"{at}/characters/{escape(ref)}" if isinstance(ref, str) else at
            key = n.r(ref, where)
            if key != ref and (key in chars or key in new):
                n.faults.append((where, Msg(N_("{key} names the same card as the key {other}"), key=repr(ref),
                                            other=repr(key))))
                key = ref
            if isinstance(c, dict) and "upgrades" in c:
                c = put(c, "upgrades", n.rs(c["upgrades"], f"{where}/upgrades"))
            new[key] = c
        if list(new) != list(chars) or any(new[k2] is not chars[k1] for k1, k2 in zip(chars, new, strict=True)):
            out = put(out, "characters", new)
    return out
