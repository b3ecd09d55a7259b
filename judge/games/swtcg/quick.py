"""A judge's quick position: a Star Wars TCG table set up by card names, and one question about it
(judge.games.quick: the members every game with a quick position has).

Two ways in, one shape: the web form sends a *quick position* as JSON, and the command line reads
the same thing written compactly (``parse_quick``, one fact a line). ``quick_log`` turns it into a
replay log that starts from that position (``setup.position``, docs/replay-format.md "SW TCG logs")
and has the asked step, in the game's ordinary step format, as its one step: the ruling is the
ordinary ruling on step 1. The position is read back by ``setup.from_position`` before the log is
given out, and its faults are told with pointers into the quick position. Cards are named as a
log names them (``names.card_names``: a name two cards share is a fault that lists them).

The quick position (JSON)::

    {"round": 3, "phase": "battle", "arena": "space",
     "players": [{"id": "p1", "name": "Vera", "side": "dark", "force": 4, "build": 0, "hand": 2, "deck": 20,
                  "discard": ["TIE Fighter"],
                  "cards": [{"card": "TIE Bomber", "zone": "space"},
                            {"card": "Stormtrooper Squad", "zone": "character", "damage": 1, "tapped": true},
                            {"card": "Imperial Star Destroyer", "zone": "build", "counters": 4},
                            {"card": "Blaster Rifle", "zone": "equipped", "on": "Stormtrooper Squad"}]},
                 {"id": "p2", "side": "light", ...,
                  "cards": [{"card": "X-wing", "zone": "space"},
                            {"card": "Starfighter Pilot", "zone": "pilot", "on": "X-wing"}]}],
     "ask": "p1 attack TIE Bomber -> X-wing rolling 4 4 6",
     "dispute": "Does Accuracy turn the 4s into hits?"}

``before`` (optional) lists steps in words taken first, from the position written, by the engine
(at most ``MAX_BEFORE``): an attack declared, a battle card played; the log's ``setup.position`` is
the position after them (``GameState.position``: a chance to play or an attack in progress), and
its ``meta.before`` lists them.

``phase`` is ``build`` or ``retreat`` (the command phase's step, with ``active``: whose; default
the Dark Side's) or ``battle`` (with ``arena``: the battle step under way, its units acting next;
without: the battle phase about to start) (swtcg.base.turn.command, swtcg.base.battle). ``side``
is ``dark`` or ``light`` (default: the first player dark, the second light; swtcg.base.deck-side);
``force`` and ``build`` the player's Force and build points; ``hand`` a count (cards whose identity
does not matter) or a list of card names; ``deck`` a count; ``discard`` card names. A card of
``cards`` is in ``zone``: an arena (``space``, ``ground``, ``character``: the unit's own), ``build``
(with ``counters``: being built, swtcg.base.build; without: a built or retreated unit), ``pilot``
(``on``: the unit it pilots, swtcg.pilots.one-per-unit), ``equipped`` (``on``: its unit,
swtcg.base.equip) or ``location`` (``at``: its arena, swtcg.project.location-per-arena); it may be
``tapped`` and have ``damage`` and ``counters``. ``on`` names a card of the same player's ``cards``
as the ask does.

The asked step (``ask``), in words, the player first: ``P attack UNIT -> TARGET``, ``P skip UNIT``,
``P deploy CARD``, ``P build N CARD``, ``P pilot PILOT -> UNIT`` (or ``-> character``, ``-> build``),
``P retreat UNIT``, ``P equip CARD -> UNIT``, ``P complete CARD``, ``P play CARD [-> TARGET]``,
``P use UNIT:ABILITY [-> TARGET]``, ``P prevent UNIT:evade amount N`` (Deflect: ``P prevent
UNIT:deflect -> UNIT``), ``P reroll UNIT:lucky dice 0 1``, ``P pass``; then, as needed, ``option N``,
``pay N``, ``amount N`` and ``rolling 4 5 6`` (the dice the step rolls, in order). A card in play
is named by its name (``X-wing``), with its player when both have one (``p2.X-wing``) and with
``.N`` when one player has several copies: the copies of a card are numbered in the order they are
listed, from 1 (``TIE Fighter.2``, ``p1.TIE Fighter.2``), as a log's references by name are
(``names.NAMED``). ``play``, ``deploy`` and ``build`` name a card of the hand by its name alone.

The compact text (``parse_quick``; ``EXAMPLE`` is a battle step's attack), here a build step::

    phase build
    active p1
    p1 Vera: dark, force 4, build 3, hand TIE Fighter; Force Lightning, deck 20, discard Sabotage
    p1 ground Speeder Bike Scout
    p1 character TIE Pilot
    p1 equipped Blaster Rifle on TIE Pilot
    p2 Luke: light, force 5
    p2 space X-wing: 1 damage
    p2 pilot Starfighter Pilot on X-wing
    ask p1 pilot TIE Pilot -> Speeder Bike Scout
    dispute May a TIE Pilot fly a Speeder Bike?

A ``before`` line is a step taken before the asked one (``before p1 attack TIE Fighter -> X-wing``:
the attack declared, its chance to play open). A card line is ``PLAYER ZONE CARD[: facts]``, the
facts ``N damage``, ``N counters``, ``tapped``;
``PLAYER pilot CARD on UNIT``, ``PLAYER equipped CARD on UNIT``, ``PLAYER location CARD at ARENA``.
A player's line gives ``dark``/``light``, ``force N``, ``build N``, ``hand N`` (or card names split
by ``;``), ``deck N``, ``discard`` card names split by ``;``.
"""

from __future__ import annotations

import re
from typing import Any, Final

from i18n import N_, Msg
from judge.games.base import PLAYER, Faults
from judge.games.inputs import escape
from judge.games.quick import (
    ask_words,
    asked_step,
    place_of,
    player_facts,
    quick_players,
    quick_replay,
    slip_of,
    split_names,
    text_lines,
)
from judge.games.swtcg.names import card_names
from judge.games.swtcg.state import ARENAS, ZONES

PHASES = ("build", "retreat", "battle")
SIDES = ("dark", "light")
MAX_CARDS = 30  # cards in play and in the build zone of one player (the bounds of a request's work)
MAX_HAND = 30  # cards named in a hand, and in a discard pile
MAX_BEFORE = 4  # steps taken before the asked one
_FACT = re.compile(r"^(\d{1,3}) (damage|counters?)$")
_OPTION = re.compile(r"\s+(option|pay|amount)\s+(\d{1,2})\s*$")
_DICE = re.compile(r"\s+dice((?:\s+\d{1,2})+)\s*$")
_COPY = re.compile(r"^(?P<name>.+?)(?:\.(?P<n>[0-9]{1,3}))?$")
_ON: Final = {"pilot": " on ", "equipped": " on ", "location": " at "}  # the card line's second part


#: the asked step's forms (as typed: the web page shows them as code) and notes on naming cards
HELP_FORMS = ("P attack UNIT -> TARGET rolling 4 5 6", "P skip UNIT", "P deploy CARD", "P build N CARD",
              "P pilot PILOT -> UNIT", "P retreat UNIT", "P equip CARD -> UNIT", "P complete CARD",
              "P play CARD -> TARGET", "P use UNIT:ABILITY -> TARGET", "P prevent UNIT:evade amount N",
              "P reroll UNIT:lucky dice 0 1", "P pass")
HELP_NOTES = (
    N_("A card line is PLAYER ZONE CARD, then its facts after a colon (1 damage, 3 counters, tapped); the zones "
       "are space, ground, character, build, pilot, equipped and location."),
    N_("A card in play is named by its name: say whose with p2.X-wing when both players have one, and which copy "
       "with TIE Fighter.2 (the copies are numbered as they are listed)."),
    N_("A name two cards share needs its version: Darth Vader (K). 'rolling' gives the dice the step rolls, in "
       "order."),
    N_("A 'before' line is a step taken first, by the same words: 'before p1 attack TIE Fighter -> X-wing' asks "
       "about the chance to play of an attack declared."),
)

EXAMPLE = """round 3
phase battle
arena space
p1 Vera: dark, force 4, build 0, hand 0, deck 20
p1 space TIE Bomber
p1 character Stormtrooper Squad: 1 damage, tapped
p1 build Imperial Star Destroyer: 4 counters
p2 Luke: light, force 5, build 0, hand 0, deck 20
p2 space Mon Calamari Cruiser
p2 character Rebel Commando
ask p1 attack TIE Bomber -> Mon Calamari Cruiser rolling 4 4 5
dispute The Cruiser has Armor. Does the Bomber's Accuracy 1 make its 4s hit?
"""


# ------------------------------------------------------------------------ the compact text
#: the words a line of the compact text starts with, but for a player ID
_LINE_WORDS: tuple[str, ...] = ("round", "phase", "arena", "active", "before", "ask", "dispute")


def parse_quick(text: str) -> tuple[dict[str, Any], Faults]:
    """The compact text as a quick position (JSON), and each line it cannot read (pointer
    ``/lines/<n>``, from 1)."""
    spec: dict[str, Any] = {"players": []}
    players: dict[str, dict[str, Any]] = {}
    lines, faults = text_lines(text)
    for where, line in lines:
        head, _, rest = line.partition(" ")
        rest = rest.strip()
        if head == "round":
            if not rest.isdigit():
                faults.append((where, Msg(N_("'round N': a whole number"))))
            else:
                spec["round"] = int(rest)
        elif head in ("phase", "arena", "active", "ask", "dispute"):
            spec[head] = rest
        elif head == "before":
            spec.setdefault("before", []).append(rest)
        elif (slip := slip_of(line, head, rest, _LINE_WORDS)) is not None:
            faults.append((where, slip))
        elif PLAYER.match(head):
            if head not in players:
                players[head] = {"id": head, "cards": []}
                spec["players"].append(players[head])
            _player_line(players[head], rest, where, faults)
        else:
            faults.append((where, Msg(N_("cannot read {line}: a line starts with round, phase, arena, active, before, "
                                         "ask, dispute or a player ID (p1 ...)"), line=repr(line))))
    return spec, faults


def _player_line(p: dict[str, Any], rest: str, where: str, faults: Faults) -> None:
    if not rest:
        faults.append((where, Msg(N_("cannot read {line} alone: 'PLAYER NAME: dark, force N, build N, hand N, "
                                     "deck N' or 'PLAYER ZONE CARD: ...'"), line=repr(p["id"]))))
        return
    zone, _, body = rest.partition(" ")
    if zone in ZONES:
        name, _, facts = body.partition(":")
        card: dict[str, Any] = {"card": name.strip(), "zone": zone}
        if zone in _ON:
            name, sep, on = name.partition(_ON[zone])
            if not sep or not name.strip() or not on.strip():
                faults.append((where, Msg(N_("'PLAYER {zone} CARD{on}CARD', e.g. 'p2 pilot Starfighter Pilot on "
                                             "X-wing'"), zone=zone, on=_ON[zone])))
                return
            card.update(card=name.strip(), **{_ON[zone].strip(): on.strip()})
        for fact in (f.strip() for f in facts.split(",") if f.strip()):
            m = _FACT.match(fact)
            if fact == "tapped":
                card["tapped"] = True
            elif m:
                card["damage" if m.group(2) == "damage" else "counters"] = int(m.group(1))
            else:
                faults.append((where, Msg(N_("cannot read {fact}: '2 damage', '3 counters' or 'tapped'"),
                                          fact=repr(fact))))
        if not card["card"]:
            faults.append((where, Msg(N_("'PLAYER ZONE CARD', e.g. 'p1 space TIE Fighter: 1 damage, tapped'"))))
        else:
            p["cards"].append(card)
        return
    for fact, key, value in player_facts(p, rest):
        if key in SIDES and not value:
            p["side"] = key
        elif key in ("force", "build", "deck") and value.isdigit():
            p[key] = int(value)
        elif key in ("hand", "discard") and value:
            p[key] = int(value) if key == "hand" and value.isdigit() else split_names(value)
        else:
            faults.append((where, Msg(N_("cannot read {fact}: 'dark' or 'light', 'force N', 'build N', 'hand N' "
                                         "(or card names split by ';'), 'deck N', 'discard' card names split by "
                                         "';'; or a card line 'PLAYER ZONE CARD' (zones: {zones})"),
                                      fact=repr(fact), zones=", ".join(ZONES))))


# ------------------------------------------------------------------------ the log
def quick_log(spec: Any, cards: Any, places: dict[str, str] | None = None) -> tuple[dict[str, Any] | None, Faults]:
    """The replay log of a quick position: its players, ``setup.position`` and the asked step (the
    log's step 1, with ``dispute``). Faults carry JSON Pointers into ``spec``. ``places``, when
    given, gets the log's places and the pointers into ``spec`` they come from
    (judge.games.quick.log_faults): a player and a card at their entries (the steps taken before
    the asked one are taken here: their faults are at ``/before/<i>``)."""
    if not isinstance(spec, dict):
        return None, [("", Msg(N_("a quick position is an object (judge.games.swtcg.quick)")))]
    raw_players = spec.get("players")
    if not isinstance(raw_players, list) or len(raw_players) != 2:
        return None, [("/players", Msg(N_("SW TCG is played by two players (swtcg.base.setup)")))]
    faults: Faults = []
    names = _Names(cards)
    seats: list[dict[str, Any]] = []
    position: dict[str, Any] = {"players": {}, "cards": {}}
    table = _Table()
    for i, where, raw, seat in quick_players(raw_players, faults):
        seats.append(seat)
        position["players"][seat["id"]] = _seat(raw, where, SIDES[i], names, faults)
        table.seat(seat["id"], where)
    if len(seats) != 2:
        return None, faults
    ids = [s["id"] for s in seats]
    _table_facts(spec, ids, position, faults)
    for i, raw in enumerate(raw_players):
        _cards_of(ids[i], raw.get("cards", []), f"/players/{i}/cards", names, table, position["cards"], faults)
    for ref, entry in position["cards"].items():
        if "on" in entry:  # a card of the same player's, named as the ask names it
            entry["on"] = table.find(names, entry["on"], ref.split(".")[0], f"{table.at[ref]}/on", faults, own=True)
    before = spec.get("before", [])
    if not isinstance(before, list) or len(before) > MAX_BEFORE or not all(isinstance(b, str) for b in before):
        faults.append(("/before", Msg(N_("at most {n} steps in words, taken before the asked one"), n=MAX_BEFORE)))
        before = []
    steps = [_ask(b, ids, names, table, faults, f"/before/{i}") for i, b in enumerate(before)]
    asking = asked_step(spec, faults, lambda ask: _ask(ask, ids, names, table, faults),
                        "p1 attack TIE Fighter -> X-wing rolling 4 5")
    if faults or asking is None:
        return None, faults
    ask, step = asking
    from judge.games.swtcg.setup import from_position

    state, faults = from_position(position, seats, cards)
    if faults or state is None:
        return None, [(table.pointer(p), m) for p, m in faults]
    if steps:
        position = _taken(state, [s for s in steps if s is not None], ids, cards, faults)
        if faults:
            return None, faults
    if places is not None:
        places.update(table.places)
    log = quick_replay("swtcg", spec, ask, seats, position, step, places)
    if steps:
        log["meta"]["before"] = steps  # (what the position was before them: the quick position)
    return log, []


def _taken(state: Any, steps: list[dict[str, Any]], ids: list[str], cards: Any, faults: Faults) -> dict[str, Any]:
    """The position after the steps taken before the asked one (an attack declared, a battle card
    played: a chance to play or an attack in progress), as ``GameState.position`` writes it; a step
    that is not legal there, or cannot be taken whole, is a fault at ``/before/<i>``."""
    from judge.games.inputs import parse_inputs
    from judge.games.swtcg.game import GAME
    from judge.games.swtcg.steps import parse_step

    for i, step in enumerate(steps):
        at = f"/before/{i}"
        found: Faults = []
        action = parse_step(step, at, ids, cards)[0]
        inputs = parse_inputs(step, at, ids, found)
        if action is None or found:
            faults.append((at, Msg(N_("not a step of the game: {step}"), step=repr(step))))
            return {}
        violation = GAME.check(state, action, cards)
        if violation is not None:
            faults.append((at, Msg(N_("not legal there ({rule}): {why}"), rule=violation[0], why=violation[1])))
            return {}
        error = GAME.apply(state, action, inputs, cards, None, None, None).error
        if error is not None:
            faults.append((at, Msg(N_("the step cannot be taken whole here: {error}"),
                                   error=str(getattr(error, "message", error)))))
            return {}
    position: dict[str, Any] = state.position()
    return position


class _Names:
    """Cards named by name (``names.card_names``: as a log names them), each fault at its pointer."""

    def __init__(self, cards: Any) -> None:
        self.cards = cards
        self.names = card_names(cards)

    def code(self, name: Any, where: str, faults: Faults) -> str | None:
        if not isinstance(name, str) or not name.strip():
            faults.append((where, Msg(N_("a card's name or code"))))
            return None
        code, why = self.names.code(name.strip())
        if why is not None:
            faults.append((where, why))
        return code

    def codes(self, value: Any, where: str, faults: Faults) -> Any:
        """A hand, a deck or a discard pile: a count (``{"unknown": n}``) or card names as codes."""
        if type(value) is int and 0 <= value <= 99:
            return {"unknown": value}
        if not isinstance(value, list) or len(value) > MAX_HAND:
            faults.append((where, Msg(N_("a count from 0 to 99, or at most {n} card names"), n=MAX_HAND)))
            return []
        return [c for i, name in enumerate(value) if (c := self.code(name, f"{where}/{i}", faults))]

    def title(self, code: str) -> str:
        return self.names.title(code)


def _seat(raw: dict[str, Any], where: str, side: str, names: _Names, faults: Faults) -> dict[str, Any]:
    seat: dict[str, Any] = {"side": raw.get("side", side)}
    if seat["side"] not in SIDES:
        faults.append((f"{where}/side", Msg(N_("'side' is dark or light (swtcg.base.deck-side)"))))
    for key, default in (("force", 0), ("build", 0)):
        value = raw.get(key, default)
        if type(value) is not int or not 0 <= value <= 99:
            faults.append((f"{where}/{key}", Msg(N_("'{key}': a whole number from 0 to 99"), key=key)))
        seat[key] = value
    seat["hand"] = names.codes(raw.get("hand", 0), f"{where}/hand", faults)
    seat["deck"] = names.codes(raw.get("deck", 10), f"{where}/deck", faults)
    seat["discard"] = names.codes(raw.get("discard", []), f"{where}/discard", faults)
    return seat


def _table_facts(spec: dict[str, Any], ids: list[str], position: dict[str, Any], faults: Faults) -> None:
    """The round, the phase and step, the battle step's arena and the active player."""
    rnd = spec.get("round", 1)
    if type(rnd) is not int or not 1 <= rnd <= 999:
        faults.append(("/round", Msg(N_("a round number, from 1"))))
    position["round"] = rnd
    phase = spec.get("phase", "battle")
    if phase not in PHASES:
        faults.append(("/phase", Msg(N_("'phase' is build or retreat (the command phase's steps) or battle "
                                        "(swtcg.base.turn.command, swtcg.base.battle)"))))
    position["phase"] = "battle" if phase == "battle" else "command"
    position["step"] = phase
    arena = spec.get("arena")
    if arena is not None and arena != "":
        if phase != "battle" or arena not in ARENAS:
            faults.append(("/arena", Msg(N_("'arena' is the battle step under way: space, ground or character "
                                            "(swtcg.base.battle.order)"))))
        position["arena"] = arena
    active = spec.get("active")
    if active is not None and active != "":
        if phase == "battle" or active not in ids:
            faults.append(("/active", Msg(N_("'active' is the player whose build or retreat step it is: one of "
                                             "{players}"), players=", ".join(ids))))
        position["active"] = active


class _Table:
    """The cards of a quick position, to name them in the asked step: each reference (``p1.CODE``,
    ``p1.CODE.2``: the copies numbered as listed) and the quick position's pointer to its entry."""

    def __init__(self) -> None:
        self.refs: list[tuple[str, str, str]] = []  # (player, code, ref)
        self.at: dict[str, str] = {}  # ref -> its entry's pointer in the quick position
        self.where: dict[str, str] = {}  # player -> their entry's pointer
        self.zone: dict[str, str] = {}  # ref -> its zone (a card a step before builds: "build")
        # the position's pointer of a player or a card -> the quick position's (judge.games.quick.place_of)
        self.places: dict[str, str] = {"/setup/position": ""}

    def seat(self, pid: str, where: str) -> None:
        self.where[pid] = self.places[f"/setup/position/players/{escape(pid)}"] = where

    def add(self, pid: str, code: str, at: str) -> str:
        n = sum(1 for p, c, _ in self.refs if p == pid and c == code) + 1
        ref = f"{pid}.{code}" + (f".{n}" if n > 1 else "")
        self.refs.append((pid, code, ref))
        self.at[ref] = self.places[f"/setup/position/cards/{escape(ref)}"] = at
        return ref

    def built(self, pid: str, code: str) -> None:
        """A card a step before the asked one starts building from hand: its reference, as the engine
        makes it (judge.games.swtcg.engine.new_ref), so that a later step names it (``deploy CARD``)."""
        refs = {ref for _, _, ref in self.refs}
        ref, n = f"{pid}.{code}", 1
        while ref in refs:
            n += 1
            ref = f"{pid}.{code}.{n}"
        self.refs.append((pid, code, ref))
        self.zone[ref] = "build"

    def find(self, names: _Names, text: Any, prefer: str | None, where: str, faults: Faults,
             own: bool = False) -> str | None:
        """The reference of the card ``[player.]NAME[.N]``, or a fault; a name several players have
        in play is ``prefer``'s card (only theirs when ``own``)."""
        if not isinstance(text, str) or not text.strip():
            faults.append((where, Msg(N_("a card's name or code"))))
            return None
        text = text.strip()
        pid, dot, name = text.partition(".")
        if not (dot and pid in self.where and name.strip()):
            pid, name = "", text
        m = _COPY.match(name.strip())
        name, copy = (m.group("name"), m.group("n")) if m else (name, None)
        code = names.code(name, where, faults)
        if code is None:
            return None
        found = [ref for p, c, ref in self.refs if c == code and (p == pid if pid else not own or p == prefer)]
        if copy:
            found = [ref for ref in found if (ref.count(".") == 2 and ref.endswith(f".{copy}")) or
                     (copy == "1" and ref.count(".") == 1)]
        mine = [ref for ref in found if ref.startswith(f"{prefer}.")]
        if len(found) > 1 and len({r.split(".")[0] for r in found}) > 1 and mine:
            found = mine
        if len(found) == 1:
            return found[0]
        title = names.title(code)
        if not found:
            faults.append((where, Msg(N_("{name} is not in play for {pid}"), name=repr(title), pid=pid or prefer)
                           if pid or own else Msg(N_("{name} is not in play"), name=repr(title))))
        else:
            faults.append((where, Msg(N_("{pid} has {name} in play more than once: say which copy, e.g. "
                                         "'{plain}.2' (the copies are numbered as they are listed)"),
                                      pid=found[0].split(".")[0], name=repr(title), plain=title)))
        return None

    def pointer(self, at: str) -> str:
        """The quick position's pointer for a fault of ``setup.from_position`` (``/setup/position/...``)."""
        return place_of(at, self.places) or at


def _cards_of(pid: str, raw: Any, where: str, names: _Names, table: _Table, out: dict[str, Any],
              faults: Faults) -> None:
    """A player's cards in play and in the build zone, as ``setup.position``'s ``cards``."""
    if not isinstance(raw, list) or len(raw) > MAX_CARDS:
        faults.append((where, Msg(N_("at most {n} cards, each {{\"card\": name, \"zone\": \"space\", ...}}"),
                                  n=MAX_CARDS)))
        return
    for i, card in enumerate(raw):
        at = f"{where}/{i}"
        if not isinstance(card, dict):
            faults.append((at, Msg(N_("a card is {\"card\": name, \"zone\", \"damage\", \"tapped\", \"counters\", "
                                      "\"on\", \"at\"}"))))
            continue
        zone = card.get("zone")
        if zone not in ZONES:
            faults.append((f"{at}/zone", Msg(N_("'zone' is one of {known}"), known=", ".join(ZONES))))
            continue
        code = names.code(card.get("card"), f"{at}/card", faults)
        if code is None:
            continue
        entry: dict[str, Any] = {"code": code, "zone": zone}
        for key in ("damage", "counters"):
            value = card.get(key, 0)
            if type(value) is not int or not 0 <= value <= 99:
                faults.append((f"{at}/{key}", Msg(N_("'{key}': a whole number from 0 to 99"), key=key)))
            elif value:
                entry[key] = value
        if not isinstance(card.get("tapped", False), bool):
            faults.append((f"{at}/tapped", Msg(N_("true or false"))))
        elif card.get("tapped"):
            entry["tapped"] = True
        if zone == "build" and "counters" in entry:
            entry["built"] = False  # counters on a card face down: it is being built (swtcg.base.build)
        if zone in ("pilot", "equipped"):
            entry["on"] = card.get("on")
        if zone == "location":
            entry["at"] = card.get("at")
        ref = table.add(pid, code, at)
        out[ref] = entry
        table.zone[ref] = zone


def _ask(ask: str, ids: list[str], names: _Names, table: _Table, faults: Faults, at: str = "/ask",
         ) -> dict[str, Any] | None:
    """A step in words (the asked one, or one taken before it) as the game's ordinary step
    (judge.games.swtcg.steps); its faults at ``at``."""
    words = ask_words(ask, ids, faults, at)
    if words is None:
        return None
    by, verb, rest = words
    other = next(p for p in ids if p != by)
    step: dict[str, Any] = {"by": by, "do": verb}
    rest, _, roll = f" {rest} ".partition(" rolling ")
    if roll.split():
        step["roll"] = roll.split()
    while True:  # the options at the end, in any order
        if m := _OPTION.search(rest):
            step[m.group(1)] = int(m.group(2))
        elif m := _DICE.search(rest):
            step["dice"] = [int(x) for x in m.group(1).split()]
        else:
            break
        rest = rest[:m.start()]
    first, arrow, second = (s.strip() for s in rest.partition("->"))

    def ref(text: str, prefer: str) -> str | None:
        return table.find(names, text, prefer, at, faults)

    def hand_or_ref(text: str) -> str | None:
        """A card of the hand by its name, or one of the player's table: named with its player or its
        copy's number, or the one card of that name in the build zone (a card in an arena is neither
        built nor deployed: the name is the hand's card then)."""
        m = _COPY.match(text.strip())
        code = names.code(m.group("name") if m else text, at, [])
        if text.partition(".")[0] in ids or (m is not None and m.group("n")):
            return table.find(names, text, by, at, faults, own=True)
        building = [ref for p, c, ref in table.refs if p == by and c == code and table.zone.get(ref) == "build"]
        if len(building) == 1:
            return building[0]
        if building:
            return table.find(names, text, by, at, faults, own=True)  # (which copy: the fault says)
        return names.code(text, at, faults)

    if verb == "pass":
        return step
    if verb in ("attack", "skip", "retreat", "complete", "pilot", "equip"):
        step["card"] = ref(first, by)
        if verb == "attack":
            step["target"] = ref(second, other)
        elif verb == "pilot":
            step["onto"] = second if second in ("character", "build") else ref(second, by)
        elif verb == "equip":
            step["onto"] = ref(second, by)
    elif verb == "build":
        count, _, name = first.partition(" ")
        if not count.isdigit():
            faults.append((at, Msg(N_("'P build N CARD': the counters, then the card"))))
            return None
        step.update(card=hand_or_ref(name), counters=int(count))
        code = step["card"]
        if at != "/ask" and isinstance(code, str) and "." not in code:  # (a step before the asked one)
            table.built(by, code)  # from hand into the build zone: named by name from now on
    elif verb in ("deploy", "play"):
        step["card"] = hand_or_ref(first)
    elif verb in ("use", "prevent", "reroll"):
        card, colon, ability = first.partition(":")
        if not colon or not ability.strip():
            faults.append((at, Msg(N_("an ability is UNIT:KEYWORD, e.g. 'X-wing:evade'"))))
            return None
        unit = ref(card, by)
        step["ability"] = f"{unit}:{ability.strip()}" if unit else None
        if verb == "prevent" and second:
            step["to"] = ref(second, other)
    else:
        faults.append((at, Msg(N_("the verb is one of {verbs} (got {verb})"), verb=repr(verb),
                                  verbs=", ".join(("attack", "skip", "deploy", "build", "pilot", "retreat", "equip",
                                                   "complete", "play", "use", "prevent", "reroll", "pass")))))
        return None
    if arrow and verb in ("play", "use", "complete"):
        step["target"] = ref(second, other)
    elif arrow and verb not in ("attack", "pilot", "equip", "prevent"):
        faults.append((at, Msg(N_("'{verb}' names no second card ('->')"), verb=verb)))
    if (arrow or verb in ("attack", "pilot", "equip")) and not second and verb != "prevent":
        faults.append((at, Msg(N_("'{verb}' names its second card after '->'"), verb=verb)))
    return None if any(p == at for p, _ in faults) else step
