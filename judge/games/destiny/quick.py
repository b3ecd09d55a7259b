"""A judge's quick position: a Destiny table set up by card names, and one question about it.

Two ways in, one shape: the web form sends a *quick position* as JSON, and the command line reads
the same thing written compactly (``parse_quick``, one fact a line). ``quick_log`` turns a quick
position into a replay log that starts from that position (``setup.position``, docs/replay-format.md
section 2) and has the asked step as its one step, so the ruling is the ordinary ruling on step 1.
Pure: text and JSON in, JSON and faults out; cards are named through the card lookup
(``cardtools.card_code``), so a name two cards share is a fault that lists them.

The quick position (JSON)::

    {"round": 5, "turn": "p1",
     "battlefield": {"card": "Outer Rim Outpost", "controller": "p1"},
     "players": [{"id": "p1", "name": "Ana", "resources": 2, "hand": 0, "deck": 10,
                  "characters": [{"card": "Luke Skywalker", "dice": 2, "damage": 0, "shields": 2,
                                  "exhausted": true,
                                  "upgrades": ["Heirloom Lightsaber", {"card": "Hunker Down", "exhausted": true}]}],
                  "supports": [{"card": "Underworld Connections", "exhausted": false}],
                  "dice": [{"card": "Luke Skywalker", "die": 1, "face": "1Sh"},
                           {"card": "Heirloom Lightsaber", "die": 1, "face": "3MD"}]},
                 {"id": "p2", ...}],
     "ask": "p1 resolve Luke Skywalker/1 -> Luke Skywalker",
     "dispute": "Does the third shield stay?"}

``hand`` is a count (cards whose identity does not matter) or a list of card names; ``deck`` a
count. A character's ``upgrades`` (at most 3, destiny.upgrades.max-three) and a player's ``supports``
(at most ``MAX_SUPPORTS``) are each a card name, or ``{"card": name, "exhausted": true}`` when
exhausted. A die in the pool is of a character, an upgrade or a support (named by its card, ``"die":
1`` for an upgrade's or a support's one die).

The asked step (``ask``), in words: ``P resolve DIE [-> TARGET], DIE [-> TARGET]``,
``P activate CHARACTER|SUPPORT [rolling FACE FACE ...]``, ``P play CARD [on CHARACTER]``, ``P use CARD``,
``P claim``, ``P pass``. A card in play (a character, an upgrade, a support) or a die is named by
its card's name (``Boba Fett``, ``Boba Fett/2``, ``Slave I/1``), with its player first when both
have one (``p2:Boba Fett``), and with ``#N`` when one player has several copies: the copies of a
card are numbered in the order they are listed, from 1 (``Hidden Blaster#2``, ``Boba Fett#2/1``).

The compact text (``parse_quick``)::

    round 5
    turn p1
    battlefield p1 Outer Rim Outpost
    p1 Ana: resources 2, hand 0, deck 10
    p1 character Luke Skywalker: 2 dice, 2 shields, exhausted
    p1 upgrade Heirloom Lightsaber on Luke Skywalker
    p1 upgrade Hunker Down on Luke Skywalker: exhausted
    p1 support Underworld Connections: exhausted
    p1 die Luke Skywalker/1: 1Sh
    p1 die Heirloom Lightsaber/1: 3MD
    p2 Ben: resources 2, deck 12
    p2 character Boba Fett: 2 dice
    ask p1 resolve Heirloom Lightsaber/1 -> Boba Fett
    dispute Does the lightsaber deal 3?

An ``upgrade`` line puts the upgrade on a character of that player's ``character`` lines, named as
there (its name alone, without the subtitle, will do; ``Boba Fett#2`` for the second line of that
name); the lines may come in any order. ``: exhausted`` ends an upgrade or support line whose card
is exhausted.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from i18n import N_, Msg
from judge.games.base import PLAYER, Faults
from judge.games.carddata import fold
from judge.games.destiny.cardtools import card_code, pool_of, title
from judge.games.destiny.model import CardPool, CardType
from judge.games.destiny.names import card_names
from judge.games.destiny.refs import parse_ref
from judge.games.inputs import escape
from judge.games.quick import (
    ask_words,
    asked_step,
    player_facts,
    quick_players,
    quick_replay,
    slip_of,
    split_names,
    text_lines,
)

MAX_PLAYERS = 4
#: a quick position is a table a judge types: characters, upgrades, supports and dice of one player,
#: cards named in a hand (each name is looked up, so these bound the work of a request)
MAX_CHARACTERS = 10
MAX_UPGRADES = 3  # on one character (destiny.upgrades.max-three)
MAX_SUPPORTS = 10
MAX_DICE = 20
MAX_HAND = 30
_COUNT = re.compile(r"^(\d{1,3}) (dice|die|damage|shields?)$")


EXAMPLE = """round 5
turn p1
battlefield p1 Outer Rim Outpost
p1 Ana: resources 2, hand 0, deck 10
p1 character Luke Skywalker: 2 dice, 2 shields, exhausted
p1 die Luke Skywalker/1: 1Sh
p1 die Luke Skywalker/2: 1Sh
p2 Ben: resources 2, hand 3, deck 12
p2 character Boba Fett: 2 dice
ask p1 resolve Luke Skywalker/1 -> Luke Skywalker, Luke Skywalker/2 -> Luke Skywalker
dispute Luke has 2 shields. Does the second die give him a fourth?
"""


# ------------------------------------------------------------------------ the compact text
#: the words a line of the compact text starts with, but for a player ID
_LINE_WORDS: tuple[str, ...] = ("round", "turn", "battlefield", "ask", "dispute")


def parse_quick(text: str) -> tuple[dict[str, Any], Faults]:
    """The compact text as a quick position (JSON), and each line it cannot read (pointer
    ``/lines/<n>``, from 1)."""
    spec: dict[str, Any] = {"players": []}
    players: dict[str, dict[str, Any]] = {}
    upgrades: list[_Upgrade] = []  # put on their characters once every line is read

    def player(pid: str) -> dict[str, Any]:
        if pid not in players:
            players[pid] = {"id": pid}
            spec["players"].append(players[pid])
        return players[pid]

    lines, faults = text_lines(text)
    for where, line in lines:
        head, _, rest = line.partition(" ")
        rest = rest.strip()
        if head in ("round",):
            if not rest.isdigit():
                faults.append((where, Msg(N_("'round N': a whole number"))))
            else:
                spec["round"] = int(rest)
        elif head == "turn":
            spec["turn"] = rest
        elif head == "ask":
            spec["ask"] = rest
        elif head == "dispute":
            spec["dispute"] = rest
        elif head == "battlefield":
            pid, _, name = rest.partition(" ")
            if not PLAYER.match(pid) or not name.strip():
                faults.append((where,
                               Msg(N_("'battlefield PLAYER CARD': the controller, then the battlefield's name"))))
            else:
                spec["battlefield"] = {"card": name.strip(), "controller": pid}
        elif (slip := slip_of(line, head, rest, _LINE_WORDS)) is not None:
            faults.append((where, slip))
        elif PLAYER.match(head):
            _player_line(player(head), rest, where, faults, upgrades)
        else:
            faults.append((where, Msg(N_("cannot read {line}: a line starts with round, turn, battlefield, ask, "
                                         "dispute or a player ID (p1 ...)"), line=repr(line))))
    for up in upgrades:
        _put_on(players[up.pid], up, faults)
    return spec, faults


@dataclass(frozen=True)
class _Upgrade:
    """An ``upgrade`` line read: the upgrade (as the JSON writes it) and the character it goes on,
    as written."""

    pid: str
    entry: Any
    on: str
    where: str


def _put_on(p: dict[str, Any], up: _Upgrade, faults: Faults) -> None:
    """Put ``up`` on the character line of ``p`` it names: the name as written there, or its name
    without the subtitle; ``NAME#N``: the N-th such line."""
    on, sep, nth = up.on.rpartition("#")
    if not (sep and nth.isdigit()):
        on, nth = up.on, ""
    chars = [ch for ch in p.get("characters", [])
             if fold(on) in (fold(ch["card"]), fold(ch["card"].split(" - ")[0]))]
    if nth:
        chars = chars[int(nth) - 1:int(nth)] if int(nth) >= 1 else []
    if len(chars) == 1:
        chars[0].setdefault("upgrades", []).append(up.entry)
    elif not chars:
        faults.append((up.where, Msg(N_("{pid} has no character line {name}: an upgrade goes on a character of "
                                        "its player's 'character' lines"), pid=p["id"], name=repr(up.on))))
    else:
        faults.append((up.where, Msg(N_("{pid} has several character lines {name}: say which, e.g. '{plain}#2'"),
                                     pid=p["id"], name=repr(up.on), plain=on.strip())))


def _exhausted(facts: str, where: str, faults: Faults) -> bool:
    """The facts after an upgrade's or a support's ``:``: nothing, or ``exhausted``."""
    fact = facts.strip()
    if fact and fact != "exhausted":
        faults.append((where, Msg(N_("cannot read {fact}: an upgrade or a support line ends with ': exhausted' "
                                     "or nothing"), fact=repr(fact))))
    return fact == "exhausted"


def _player_line(p: dict[str, Any], rest: str, where: str, faults: Faults, upgrades: list[_Upgrade]) -> None:
    if not rest:
        faults.append((where, Msg(N_("cannot read {line} alone: 'PLAYER NAME: resources N, hand N, deck N', "
                                     "'PLAYER character CARD: ...', 'PLAYER upgrade CARD on CHARACTER', "
                                     "'PLAYER support CARD' or 'PLAYER die CARD/N: FACE'"),
                                  line=repr(p["id"]))))
        return
    kind, _, body = rest.partition(" ")
    if kind in ("upgrade", "support"):
        name, _, facts = body.partition(":")
        exhausted = _exhausted(facts, where, faults)
        if kind == "support":
            if not name.strip():
                faults.append((where, Msg(N_("'PLAYER support CARD', e.g. 'p1 support Slave I: exhausted'"))))
            else:
                p.setdefault("supports", []).append({"card": name.strip(), "exhausted": exhausted})
            return
        card, _, on = name.partition(" on ")
        if not card.strip() or not on.strip():
            faults.append((where, Msg(N_("'PLAYER upgrade CARD on CHARACTER', e.g. 'p1 upgrade Hidden Blaster on "
                                         "Luke Skywalker'"))))
        else:
            entry: Any = {"card": card.strip(), "exhausted": True} if exhausted else card.strip()
            upgrades.append(_Upgrade(p["id"], entry, on.strip(), where))
        return
    if kind == "character":
        name, _, facts = body.partition(":")
        ch: dict[str, Any] = {"card": name.strip()}
        for fact in (f.strip() for f in facts.split(",") if f.strip()):
            m = _COUNT.match(fact)
            if fact == "exhausted":
                ch["exhausted"] = True
            elif m:
                key = {"die": "dice", "shield": "shields"}.get(m.group(2), m.group(2))
                ch[key] = int(m.group(1))
            else:
                faults.append((where, Msg(N_("cannot read {fact}: '2 dice', '3 damage', '1 shield' or 'exhausted'"),
                                          fact=repr(fact))))
        p.setdefault("characters", []).append(ch)
    elif kind == "die":
        ref, _, face = body.rpartition(":")
        name, _, number = ref.strip().rpartition("/")
        if not name or not number.strip().isdigit() or not face.strip():
            faults.append((where, Msg(N_("'PLAYER die CHARACTER/N: FACE', e.g. 'p1 die Luke Skywalker/1: 2RD'"))))
        else:
            p.setdefault("dice", []).append({"card": name.strip(), "die": int(number), "face": face.strip()})
    else:
        for fact, key, value in player_facts(p, rest):
            if key in ("resources", "deck") and value.isdigit():
                p[key] = int(value)
            elif key == "hand":
                p["hand"] = int(value) if value.isdigit() else split_names(value)
            else:
                faults.append((where, Msg(N_("cannot read {fact}: 'resources N', 'hand N' (or card names split "
                                             "by ';'), 'deck N'"), fact=repr(fact))))


# ------------------------------------------------------------------------ the log
def quick_log(spec: Any, cards: Any, places: dict[str, str] | None = None) -> tuple[dict[str, Any] | None, Faults]:
    """The replay log of a quick position: its players, ``setup.position`` and the asked step (the
    log's step 1, with ``dispute``). Faults carry JSON Pointers into ``spec``. ``places``, when
    given, gets the log's places and the pointers into ``spec`` they come from
    (judge.games.quick.log_faults): a character, an upgrade, a support and a die of the pool at the
    entry that put it there."""
    faults: Faults = []
    if not isinstance(spec, dict):
        return None, [("", Msg(N_("a quick position is an object (judge.games.destiny.quick)")))]
    pool = pool_of(cards)
    raw_players = spec.get("players")
    if not isinstance(raw_players, list) or not 2 <= len(raw_players) <= MAX_PLAYERS:
        return None, [("/players", Msg(N_("2 to {n} players"), n=MAX_PLAYERS))]
    seats: list[dict[str, Any]] = []
    position: dict[str, Any] = {"round": 1, "phase": "action", "players": {}}
    table = _Table()
    for _, where, raw, seat in quick_players(raw_players, faults):
        seats.append(seat)
        position["players"][seat["id"]] = _seat(seat["id"], raw, where, pool, table, faults)
    rnd = spec.get("round", 1)
    if type(rnd) is not int or rnd < 1:
        faults.append(("/round", Msg(N_("a round number, from 1"))))
    else:
        position["round"] = rnd
    ids = [s["id"] for s in seats]
    turn = spec.get("turn") or (ids[0] if ids else None)
    if turn not in ids:
        faults.append(("/turn", Msg(N_("the player whose turn it is: one of {players}"), players=", ".join(ids))))
    position["turn"] = turn
    position["claimed_by"] = None
    bf = spec.get("battlefield")
    if isinstance(bf, dict) and bf.get("card"):
        code = _card(pool, bf.get("card"), "/battlefield/card", faults, CardType.BATTLEFIELD)
        controller = bf.get("controller") or turn
        if controller not in ids:
            faults.append(("/battlefield/controller", Msg(N_("one of {players}"), players=", ".join(ids))))
        if code:
            position["battlefield"] = {"card": code, "controller": controller}
    elif bf is not None:
        faults.append(("/battlefield", Msg(N_("{\"card\": name, \"controller\": player}"))))
    asking = asked_step(spec, faults, lambda ask: _ask(ask, ids, pool, table, faults),
                        "p1 resolve Luke Skywalker/1 -> Boba Fett")
    if faults or asking is None:
        return None, faults
    ask, step = asking
    if places is not None:
        places.update(table.places)
    return quick_replay("destiny", spec, ask, seats, position, step, places), []


class _Table:
    """The cards in play of a quick position, to name them in the asked step: card refs by player
    and by folded name, and how many dice each card has."""

    def __init__(self) -> None:
        self.refs: list[tuple[str, str, str]] = []  # (player, code, ref)
        self.dice: dict[str, int] = {}  # ref -> its dice, for an upgrade or a support
        self.places: dict[str, str] = {}  # the position's pointer of a card or a die -> the spec's

    def add(self, pid: str, code: str, copies: dict[str, int], serial_one: bool) -> str:
        """The ref of the next copy of ``code`` that ``pid`` puts in play (upgrades and supports
        are written with ``#1``, a character's first copy without it)."""
        copies[code] = copies.get(code, 0) + 1
        n = copies[code]
        ref = f"{pid}.{code}" + (f"#{n}" if n > 1 or serial_one else "")
        self.refs.append((pid, code, ref))
        return ref

    def find(self, pool: CardPool, text: str, faults: Faults, where: str, prefer: str | None = None) -> str | None:
        """The ref of the card in play ``[player:]NAME[#N]``, or a fault; a name in play for several
        players is ``prefer``'s card (the asker's own dice and cards), if ``prefer`` has one; ``#N``
        is the N-th copy of one player's."""
        pid, sep, name = text.partition(":")
        if not sep or not PLAYER.match(pid.strip()):
            pid, name = "", text
        base, hashed, copy = name.rpartition("#")
        if hashed and copy.strip().isdigit():
            name = base
        else:
            copy = ""
        match = card_code(pool, name.strip())
        codes = {match.code} if match.code else set(match.candidates) if match.ambiguous else set()
        if not codes:
            faults.append((where, _no_card(pool, name.strip())))
            return None
        found = [ref for p, code, ref in self.refs if code in codes and (not pid or p == pid.strip())
                 and (not copy or _copy(ref) == int(copy))]
        own = [ref for ref in found if prefer and ref.startswith(f"{prefer}.")]
        if len(found) > 1 and len(own) == 1:
            return own[0]
        if len(found) == 1:
            return found[0]
        if not found:
            faults.append((where, Msg(N_("{name} is not in play for {pid}"), name=repr(name.strip()), pid=pid.strip())
                           if pid else Msg(N_("{name} is not in play"), name=repr(name.strip()))))
        elif len({ref.split(".")[0] for ref in found}) == 1:
            faults.append((where, Msg(N_("{pid} has {name} in play more than once: say which copy, e.g. "
                                         "'{plain}#2' (the copies are numbered as they are listed)"),
                                      pid=found[0].split(".")[0], name=repr(name.strip()), plain=name.strip())))
        else:
            faults.append((where, Msg(N_("{name} is in play more than once: say whose, e.g. '{owner}:{plain}'"),
                                      name=repr(name.strip()), owner=found[0].split(".")[0], plain=name.strip())))
        return None


def _no_card(pool: CardPool, name: str) -> Msg:
    """The fault of a name no card has, worded in the reader's language, with the nearest names
    (judge.games.cardnames.CardNames.code, as the other games word it)."""
    _, why = card_names(pool).code(name)
    return why if why is not None else Msg(N_("no card is named {name}"), name=repr(name))


def _code(ref: str) -> str:
    r = parse_ref(ref)
    return r.code if r else ""


def _copy(ref: str) -> int:
    """Which copy of its card ``ref`` is, from 1."""
    r = parse_ref(ref)
    return (r.serial or 1) if r else 1


def _card(pool: CardPool, name: Any, where: str, faults: Faults, kind: CardType | None = None) -> str | None:
    if not isinstance(name, str) or not name.strip():
        faults.append((where, Msg(N_("a card's name or code"))))
        return None
    match = card_code(pool, name)
    if match.code is None:
        if match.ambiguous:
            near = "; ".join(f"{c} {title(pool.cards[c])}" for c in match.candidates[:8])
            faults.append((where, Msg(N_("{name} names several cards: {cards}; write the card's code or its full "
                                         "title"), name=repr(name), cards=near)))
        else:
            faults.append((where, _no_card(pool, name)))
        return None
    card = pool.cards[match.code]
    if kind is not None and card.type != kind:
        faults.append((where, Msg(_NOT_A[kind], card=title(card))))
        return None
    return match.code


# a card named where a card of another type is wanted (the types ``_card`` is asked for)
_NOT_A: dict[CardType, str] = {
    CardType.CHARACTER: N_("{card} is not a character"), CardType.UPGRADE: N_("{card} is not an upgrade"),
    CardType.SUPPORT: N_("{card} is not a support"), CardType.BATTLEFIELD: N_("{card} is not a battlefield")}


def _count(raw: dict[str, Any], key: str, where: str, faults: Faults, default: int = 0) -> int:
    value = raw.get(key, default)
    if type(value) is not int or not 0 <= value <= 99:
        faults.append((f"{where}/{key}", Msg(N_("'{key}': a whole number from 0 to 99"), key=key)))
        return default
    return value


def _seat(pid: str, raw: dict[str, Any], where: str, pool: CardPool, table: _Table, faults: Faults,
          ) -> dict[str, Any]:
    at = f"/setup/position/players/{escape(pid)}"  # (the seat's place in the log)
    seat: dict[str, Any] = {"resources": _count(raw, "resources", where, faults), "discard": [], "passed": False,
                            "characters": {}, "upgrades": {}, "supports": {}, "pool": {}}
    hand = raw.get("hand", 0)
    if isinstance(hand, list) and len(hand) > MAX_HAND:
        faults.append((f"{where}/hand", Msg(N_("at most {n} cards named in a hand (or a count)"), n=MAX_HAND)))
    elif isinstance(hand, list):
        codes = [_card(pool, h, f"{where}/hand/{i}", faults) for i, h in enumerate(hand)]
        seat["hand"] = [c for c in codes if c]
    else:
        seat["hand"] = {"unknown": _count(raw, "hand", where, faults)}
    seat["deck"] = {"unknown": _count(raw, "deck", where, faults, 10)}
    chars = raw.get("characters")
    if not isinstance(chars, list) or not 1 <= len(chars) <= MAX_CHARACTERS:
        faults.append((f"{where}/characters",
                       Msg(N_("1 to {n} characters, each {{\"card\": name, \"dice\": 1 or 2, ...}}"),
                           n=MAX_CHARACTERS)))
        chars = []
    copies: dict[str, int] = {}
    for i, ch in enumerate(chars):
        sub = f"{where}/characters/{i}"
        if not isinstance(ch, dict):
            faults.append((sub,
                           Msg(N_("a character is {\"card\": name, \"dice\", \"damage\", \"shields\", "
                                  "\"exhausted\"}"))))
            continue
        code = _card(pool, ch.get("card"), f"{sub}/card", faults, CardType.CHARACTER)
        if code is None:
            continue
        ref = table.add(pid, code, copies, serial_one=False)
        table.places[f"{at}/characters/{escape(ref)}"] = sub
        seat["characters"][ref] = {"dice": _count(ch, "dice", sub, faults, 1),
                                   "damage": _count(ch, "damage", sub, faults),
                                   "shields": _count(ch, "shields", sub, faults), "defeated": False,
                                   "exhausted": _flag(ch, sub, faults), "upgrades": []}
        ups = ch.get("upgrades", [])
        if not isinstance(ups, list) or len(ups) > MAX_UPGRADES:
            faults.append((f"{sub}/upgrades",
                           Msg(N_("at most {n} upgrades on a character (destiny.upgrades.max-three), each a name or "
                                  "{{\"card\": name, \"exhausted\": true}}"), n=MAX_UPGRADES)))
            ups = []
        for k, up in enumerate(ups):
            uref = _in_play(pid, up, f"{sub}/upgrades/{k}", CardType.UPGRADE, pool, table, copies, faults)
            if uref is not None:
                table.places[f"{at}/upgrades/{escape(uref)}"] = f"{sub}/upgrades/{k}"
                seat["characters"][ref]["upgrades"].append(uref)
                seat["upgrades"][uref] = {"on": ref, "exhausted": _flag(up, f"{sub}/upgrades/{k}", faults)}
    sups = raw.get("supports", [])
    if not isinstance(sups, list) or len(sups) > MAX_SUPPORTS:
        faults.append((f"{where}/supports", Msg(N_("at most {n} supports, each a name or {{\"card\": name, "
                                                   "\"exhausted\": true}}"), n=MAX_SUPPORTS)))
        sups = []
    for k, su in enumerate(sups):
        sref = _in_play(pid, su, f"{where}/supports/{k}", CardType.SUPPORT, pool, table, copies, faults)
        if sref is not None:
            table.places[f"{at}/supports/{escape(sref)}"] = f"{where}/supports/{k}"
            seat["supports"][sref] = {"exhausted": _flag(su, f"{where}/supports/{k}", faults)}
    dice = raw.get("dice", [])
    if not isinstance(dice, list) or len(dice) > MAX_DICE:
        faults.append((f"{where}/dice",
                       Msg(N_("at most {n} dice, each {{\"card\": name, \"die\": 1 or 2, \"face\": \"2RD\"}}"),
                           n=MAX_DICE)))
        dice = []
    for i, die in enumerate(dice):
        sub = f"{where}/dice/{i}"
        if not isinstance(die, dict) or not isinstance(die.get("face"), str):
            faults.append((sub, Msg(N_("a die in the pool is {\"card\": name, \"die\": 1 or 2, \"face\": \"2RD\"}"))))
            continue
        die_of = table.find(pool, f"{pid}:{die.get('card')}", faults, f"{sub}/card")
        number = die.get("die", 1)
        if type(number) is not int or not 1 <= number <= 2:
            faults.append((f"{sub}/die", Msg(N_("the die's number on its card: 1 or 2"))))
            continue
        if die_of is not None and die_of in table.dice and number > table.dice[die_of]:
            card = pool.cards[_code(die_of)]
            faults.append((f"{sub}/die", Msg(N_("{card} has one die: its number is 1"), card=title(card))
                           if table.dice[die_of]
                           else Msg(N_("{card} has no die"), card=title(card))))
            continue
        if die_of is not None:
            if f"{die_of}/{number}" in seat["pool"]:  # (the last face would win, the first lost unsaid)
                faults.append((sub, Msg(N_("this die is listed twice in the pool"))))
                continue
            table.places[f"{at}/pool/{escape(f'{die_of}/{number}')}"] = sub
            seat["pool"][f"{die_of}/{number}"] = die["face"].strip()
    return seat


def _flag(raw: Any, where: str, faults: Faults) -> bool:
    """``raw``'s ``exhausted`` (false when missing, or when ``raw`` is a card's name alone)."""
    exhausted = raw.get("exhausted", False) if isinstance(raw, dict) else False
    if not isinstance(exhausted, bool):
        faults.append((f"{where}/exhausted", Msg(N_("true or false"))))
        return False
    return exhausted


def _in_play(pid: str, raw: Any, where: str, kind: CardType, pool: CardPool, table: _Table, copies: dict[str, int],
             faults: Faults) -> str | None:
    """The ref of an upgrade or a support of ``pid`` put in play (a name, or ``{"card": name,
    "exhausted": bool}``), numbered after the copies already in play; None with a fault."""
    name = raw.get("card") if isinstance(raw, dict) else raw
    at = f"{where}/card" if isinstance(raw, dict) else where
    if not isinstance(name, str):
        faults.append((where, Msg(N_("a card's name, or {\"card\": name, \"exhausted\": true}"))))
        return None
    code = _card(pool, name, at, faults, kind)
    if code is None:
        return None
    ref = table.add(pid, code, copies, serial_one=True)
    table.dice[ref] = 1 if pool.cards[code].faces else 0
    return ref


def _ref(text: str, pool: CardPool, table: _Table, faults: Faults, prefer: str | None = None) -> str | None:
    """``[player:]NAME[/N]`` as a card or die reference (``prefer``: whose card a shared name is)."""
    name, sep, number = text.strip().rpartition("/")
    if sep and number.isdigit():
        card = table.find(pool, name, faults, "/ask", prefer)
        return f"{card}/{number}" if card else None
    return table.find(pool, text.strip(), faults, "/ask", prefer)


def _ask(ask: str, ids: list[str], pool: CardPool, table: _Table, faults: Faults) -> dict[str, Any] | None:
    words = ask_words(ask, ids, faults)
    if words is None:
        return None
    by, verb, rest = words
    step: dict[str, Any] = {"by": by, "do": verb}
    if verb in ("pass", "claim"):
        return step
    if verb == "resolve":
        entries = []
        for part in (p.strip() for p in rest.split(",") if p.strip()):
            die, arrow, target = part.partition("->")
            entry: dict[str, Any] = {"die": _ref(die, pool, table, faults, by)}
            if arrow:
                entry["target"] = _ref(target, pool, table, faults)
            entries.append(entry)
        if not entries:
            faults.append(("/ask", Msg(N_("'P resolve DIE -> TARGET, DIE -> TARGET'"))))
        step["dice"] = entries
    elif verb == "activate":
        name, _, roll = rest.partition(" rolling ")
        step["card"] = _ref(name, pool, table, faults, by)
        if roll.strip():
            step["roll"] = roll.split()
    elif verb in ("play", "use"):
        name, _, on = rest.partition(" on ")
        if verb == "play":
            step["card"] = _card(pool, name, "/ask", faults)
            if on.strip():
                step["on"] = _ref(on, pool, table, faults)
        else:
            step["card"] = _ref(name, pool, table, faults, by)
    else:
        faults.append(("/ask", Msg(N_("the verb is one of resolve, activate, play, use, claim, pass (got {verb})"),
                                  verb=repr(verb))))
        return None
    return None if any(p == "/ask" for p, _ in faults) else step

