"""SW TCG game state: small mutable records, a public view, a position and a canonical hash.

The state is the whole game at one moment, including where the turn's procedure stands:

- ``frames``: what is still to happen this turn, the next last (``{"f": name, ...}``: the ready
  phase, a player's build step, a battle step, an attack's roll, a dice-of-damage roll...);
  ``judge.games.swtcg.engine.advance`` runs them until a player must act;
- ``wait``: what the player to act (``turn``) is asked now: ``deploy``/``partial`` (setup),
  ``build``, ``retreat``, ``act`` (a unit's turn to attack in a battle step) or ``chance``;
- ``chance``: the open chance to play (its kind, consecutive passes, abilities used in it);
- ``attack``: the attack under way; ``roll``: dice in a reroll chance; ``damage``: damage waiting
  in a prevention chance; ``later``: new damage waiting for the next prevention chance
  (swtcg.pop.new-damage-waits); ``held``: triggered abilities waiting for their moment.

``view()`` has hands and decks as counts; ``position()`` has them as lists (``"?"``: unknown) and
is what ``setup.position`` takes back. ``state_hash()`` is SHA-256 of the canonical position plus
the random words drawn (judge.games.canon).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from json.encoder import encode_basestring_ascii
from typing import Any, Final

from judge.games import canon
from judge.games.canon import json_bool as _bool
from judge.games.canon import json_doc as _doc
from judge.games.canon import json_int as _int
from judge.games.canon import json_str as _str
from judge.games.canon import json_strs as _strs
from judge.games.swtcg.model import CardPool

ARENAS: Final = ("space", "ground", "character")
# a Location in an arena (``at``), Equipment on a unit
ZONES: Final = (*ARENAS, "build", "pilot", "location", "equipped")
IN_PLAY: Final = (*ARENAS, "pilot")  # the arenas, or piloting a unit there
ARENAS_OR_BUILD: Final = (*ARENAS, "build")
UNKNOWN: Final = "?"


def plain_copy(value: Any) -> Any:
    """A deep copy of a value made of dicts, lists and tuples of strings, numbers, booleans and None
    (what the state keeps as loose JSON-like data); anything else is deep-copied by ``copy``."""
    kind = type(value)
    if kind is dict:
        return {k: plain_copy(v) for k, v in value.items()}
    if kind is list:
        return [plain_copy(v) for v in value]
    if value is None or kind is str or kind is int or kind is bool or kind is float:
        return value
    if kind is tuple:
        return tuple(plain_copy(v) for v in value)
    return copy.deepcopy(value)


class _Written:
    """A piece of the state kept as an object and written as the dict it was (``to_json``): equal when
    written alike, unhashable (it changes), shown as what it writes."""

    __slots__ = ()

    def to_json(self) -> dict[str, Any]:
        raise NotImplementedError

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, _Written)
        return self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.to_json()!r})"


class Chance(_Written):
    """The open chance to play (``GameState.chance``): its kind, the consecutive passes in it and the
    abilities used in it. Written as the dict ``{"kind": ..., "passes": ..., "used": [...]}`` (``to_json``,
    keys in that order: what the state kept before it was an object, so every view, position and hash
    is as it was)."""

    __slots__ = ("kind", "passes", "used")

    def __init__(self, kind: str, passes: int = 0, used: list[str] | None = None) -> None:
        self.kind = kind
        self.passes = passes
        self.used = [] if used is None else used

    def copy(self) -> Chance:
        return Chance(self.kind, self.passes, list(self.used))

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "passes": self.passes, "used": list(self.used)}

    @staticmethod
    def from_json(value: Mapping[str, Any]) -> Chance:
        """The chance ``to_json`` wrote (a position's, checked by judge.games.swtcg.shape, or one a
        ``resume`` frame keeps: its ``to`` is not the chance's)."""
        return Chance(value["kind"], value["passes"], list(value["used"]))

    def __reduce__(self) -> tuple[Any, ...]:
        return (Chance, (self.kind, self.passes, list(self.used)))


class AttackState(_Written):
    """The attack under way (``GameState.attack``): the attacker, the defender, the arena, the
    abilities used for it (swtcg.timing.for-this-attack), the units that used Lucky in it, Retaliate's
    dice waiting (``{"unit", "player", "dice"}``, each), Power Boost's self-damage waiting, and the dice
    it rolled (None until it rolls). Written as the dict it was (``to_json``: the keys in that order,
    ``rolled`` last and only once rolled), so every view, position and hash is as it was."""

    __slots__ = ("attacker", "defender", "arena", "used", "lucky", "retaliations", "boosts", "rolled")

    def __init__(self, attacker: str, defender: str, arena: str, used: list[str] | None = None,
                 lucky: list[str] | None = None, retaliations: list[dict[str, Any]] | None = None,
                 boosts: list[int] | None = None, rolled: int | None = None) -> None:
        self.attacker = attacker
        self.defender = defender
        self.arena = arena
        self.used = [] if used is None else used
        self.lucky = [] if lucky is None else lucky
        self.retaliations = [] if retaliations is None else retaliations
        self.boosts = [] if boosts is None else boosts
        self.rolled = rolled

    def copy(self) -> AttackState:
        return AttackState(self.attacker, self.defender, self.arena, list(self.used), list(self.lucky),
                           [dict(r) for r in self.retaliations], list(self.boosts), self.rolled)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"attacker": self.attacker, "defender": self.defender, "arena": self.arena,
                               "used": list(self.used), "lucky": list(self.lucky),
                               "retaliations": [dict(r) for r in self.retaliations], "boosts": list(self.boosts)}
        if self.rolled is not None:
            out["rolled"] = self.rolled
        return out

    @staticmethod
    def from_json(value: Mapping[str, Any]) -> AttackState:
        """The attack ``to_json`` wrote (a position's, checked by judge.games.swtcg.shape)."""
        return AttackState(value["attacker"], value["defender"], value["arena"], list(value["used"]),
                           list(value["lucky"]), [dict(r) for r in value["retaliations"]], list(value["boosts"]),
                           value.get("rolled"))

    def __reduce__(self) -> tuple[Any, ...]:
        return (AttackState, (self.attacker, self.defender, self.arena, list(self.used), list(self.lucky),
                              [dict(r) for r in self.retaliations], list(self.boosts), self.rolled))


class RollState(_Written):
    """Dice in a reroll chance (``GameState.roll``): what they were rolled for (``attack``, ``dice`` of
    damage, ``build`` points), the dice, the player who rolled, the source and target (None for build
    points) and the abilities that rerolled them (swtcg.timing.reroll-once-per-roll). Written as the dict
    it was (``to_json``, the keys in that order), so every view, position and hash is as it was."""

    __slots__ = ("purpose", "dice", "player", "source", "target", "used")

    def __init__(self, purpose: str, dice: list[int], player: str, source: str | None, target: str | None,
                 used: list[str] | None = None) -> None:
        self.purpose = purpose
        self.dice = dice
        self.player = player
        self.source = source
        self.target = target
        self.used = [] if used is None else used

    def copy(self) -> RollState:
        return RollState(self.purpose, list(self.dice), self.player, self.source, self.target, list(self.used))

    def to_json(self) -> dict[str, Any]:
        return {"purpose": self.purpose, "dice": list(self.dice), "player": self.player, "source": self.source,
                "target": self.target, "used": list(self.used)}

    @staticmethod
    def from_json(value: Mapping[str, Any]) -> RollState:
        """The roll ``to_json`` wrote (a position's, checked by judge.games.swtcg.shape)."""
        return RollState(value["purpose"], list(value["dice"]), value["player"], value["source"], value["target"],
                         list(value["used"]))

    def __reduce__(self) -> tuple[Any, ...]:
        return (RollState, (self.purpose, list(self.dice), self.player, self.source, self.target, list(self.used)))


@dataclass
class Card:
    """A card in play (an arena), in the build zone, piloting a unit (zone ``pilot``, ``on``), a Location
    in an arena (zone ``location``, ``at``: swtcg.base.location) or Equipment on a unit (zone
    ``equipped``, ``on``: swtcg.base.equip)."""

    ref: str
    code: str
    owner: str
    controller: str
    zone: str
    tapped: bool = False
    damage: int = 0
    counters: int = 0  # build counters of a partially built card
    built: bool = True  # False: partially built, face down in the build zone
    pilot: str | None = None  # the pilot on this unit
    on: str | None = None  # the unit this pilot is on
    under: list[str] = field(default_factory=list)  # codes stacked under it (swtcg.stacking.normal-rules)
    moved: bool = False  # a pilot moved in this build step (swtcg.pilots.build-step-move)
    deployed_at: int = 0  # order of deployment (base.unique: the last one deployed goes)
    at: str | None = None  # the arena a Location is in
    gear: tuple[str, ...] = ()  # the Equipment on this unit, sorted (each one's ``on``, kept here too; not written)

    # (the dataclass's own __init__, written out: compiled, the generated one would run interpreted)
    def __init__(self, ref: str, code: str, owner: str, controller: str, zone: str, tapped: bool = False,
                 damage: int = 0, counters: int = 0, built: bool = True, pilot: str | None = None,
                 on: str | None = None, under: list[str] | None = None, moved: bool = False, deployed_at: int = 0,
                 at: str | None = None, gear: tuple[str, ...] = ()) -> None:
        self.ref = ref
        self.code = code
        self.owner = owner
        self.controller = controller
        self.zone = zone
        self.tapped = tapped
        self.damage = damage
        self.counters = counters
        self.built = built
        self.pilot = pilot
        self.on = on
        self.under = [] if under is None else under
        self.moved = moved
        self.deployed_at = deployed_at
        self.at = at
        self.gear = gear

    def copy(self) -> Card:
        return Card(ref=self.ref, code=self.code, owner=self.owner, controller=self.controller, zone=self.zone,
                    tapped=self.tapped, damage=self.damage, counters=self.counters, built=self.built, pilot=self.pilot,
                    on=self.on, under=list(self.under), moved=self.moved, deployed_at=self.deployed_at, at=self.at,
                    gear=self.gear)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"code": self.code, "zone": self.zone, "tapped": self.tapped, "damage": self.damage}
        if self.controller != self.owner:
            out["controller"] = self.controller
        if not self.built:
            out["built"] = False
            out["counters"] = self.counters
        elif self.counters:
            out["counters"] = self.counters
        if self.pilot:
            out["pilot"] = self.pilot
        if self.on:
            out["on"] = self.on
        if self.under:
            out["under"] = list(self.under)
        if self.moved:
            out["moved"] = True
        if self.deployed_at:
            out["deployed_at"] = self.deployed_at
        if self.at:
            out["at"] = self.at
        return out


class CardIndex:
    """Where the cards of ``GameState.cards`` are, in its order: by zone, by controller and by code,
    with each card's place in that order. ``GameState.index`` finds one in a pass over the cards and
    keeps it; a card entering or leaving ``cards`` or changing zone, controller, code or whether it
    has a pilot is filed again (``refile``, ``GameState.moved``), and what the engine found from where
    the cards are (``facts``) goes; what else changes (tapped, damage, counters, built...) is read from
    the cards themselves. The lists it gives change as the cards move (each is read through while no card
    moves)."""

    def __init__(self, cards: dict[str, Card]) -> None:
        self.cards = cards
        self.pos: dict[str, int] = {}
        self.by_zone: dict[str, list[Card]] = {}
        self.by_controller: dict[str, list[Card]] = {}
        self.by_code: dict[str, list[Card]] = {}
        self.piloted: list[Card] = []  # the cards with a pilot (``pilot``)
        # each card as it was filed: the card, its zone, controller and code, whether it had a pilot
        self.filed: dict[str, tuple[Card, str, str, str, bool]] = {}
        self._of_codes: dict[int, tuple[frozenset[str], list[Card]]] = {}
        self._outside: dict[int, tuple[Mapping[str, Any], list[Card]]] = {}
        self._facts: Facts | None = None
        pos, by_zone, by_controller, by_code, filed = self.pos, self.by_zone, self.by_controller, self.by_code, \
            self.filed
        i = 0
        for ref, c in cards.items():
            pos[ref] = i
            i += 1
            zone, controller, code = c.zone, c.controller, c.code
            by_zone.setdefault(zone, []).append(c)
            by_controller.setdefault(controller, []).append(c)
            by_code.setdefault(code, []).append(c)
            piloted = bool(c.pilot)
            if piloted:
                self.piloted.append(c)
            filed[ref] = (c, zone, controller, code, piloted)
        self.next = i  # the place of the next card to enter ``cards`` (the last)

    def refile(self, ref: str) -> None:
        """The card ``ref`` entered or left ``cards`` or may have changed zone, controller, code,
        whether it has a pilot or whether it is built: filed again where it is now (a card entering
        goes last, as it does in ``cards``), and noted in the facts' ``moves``."""
        if self._of_codes:
            self._of_codes = {}
        if self._outside:
            self._outside = {}
        old = self.filed.get(ref)
        c = self.cards.get(ref)
        facts = self._facts
        if facts is not None:  # (what the engine found: it drops what the move may change, Facts.moves)
            facts.moves.append((ref, old[3] if old is not None else None, old[2] if old is not None else None,
                                old[1] if old is not None else None, old is not None and old[4],
                                c.code if c is not None else None, c.controller if c is not None else None,
                                c.zone if c is not None else None, c is not None and bool(c.pilot)))
        if old is not None:
            was, zone, controller, code, piloted = old
            if c is was:  # (the same card, in its place in the order: only the tables whose key changed)
                new_zone, new_controller, new_code, new_piloted = c.zone, c.controller, c.code, bool(c.pilot)
                if new_zone == zone and new_controller == controller and new_code == code \
                        and new_piloted == piloted:
                    return
                pos = self.pos
                place = pos[ref]
                if new_zone != zone:
                    _unfile(self.by_zone, zone, c)
                    _file(self.by_zone, new_zone, c, place, pos)
                if new_controller != controller:
                    _unfile(self.by_controller, controller, c)
                    _file(self.by_controller, new_controller, c, place, pos)
                if new_code != code:
                    _unfile(self.by_code, code, c)
                    _file(self.by_code, new_code, c, place, pos)
                if new_piloted != piloted:
                    if piloted:
                        _drop(self.piloted, c)
                    else:
                        _place(self.piloted, c, place, pos)
                self.filed[ref] = (c, new_zone, new_controller, new_code, new_piloted)
                return
            del self.filed[ref]
            _unfile(self.by_zone, zone, was)
            _unfile(self.by_controller, controller, was)
            _unfile(self.by_code, code, was)
            if piloted:
                _drop(self.piloted, was)
            if c is not was:
                del self.pos[ref]
        if c is None:
            return
        at = self.pos.get(ref)
        if at is None:
            at = self.pos[ref] = self.next
            self.next += 1
        pos = self.pos
        zone, controller, code, piloted = c.zone, c.controller, c.code, bool(c.pilot)
        _file(self.by_zone, zone, c, at, pos)
        _file(self.by_controller, controller, c, at, pos)
        _file(self.by_code, code, c, at, pos)
        if piloted:
            _place(self.piloted, c, at, pos)
        self.filed[ref] = (c, zone, controller, code, piloted)

    def zone(self, zone: str) -> list[Card]:
        return self.by_zone.get(zone, _NONE)

    def controlled(self, pid: str) -> list[Card]:
        return self.by_controller.get(pid, _NONE)

    def zones(self, zones: tuple[str, ...]) -> list[Card]:
        """The cards in any of ``zones``, in ``cards``' order."""
        found = [c for z in zones for c in self.by_zone.get(z, _NONE)]
        if len(found) > 1:
            pos = self.pos
            found.sort(key=lambda c: pos[c.ref])
        return found

    def of_codes(self, codes: frozenset[str]) -> list[Card]:
        """The cards whose code is one of ``codes``, in ``cards``' order (kept for the same set)."""
        memo = self._of_codes.get(id(codes))
        if memo is not None and memo[0] is codes:
            return memo[1]
        by_code = self.by_code
        if len(codes) < len(by_code):
            found = [c for code in codes if code in by_code for c in by_code[code]]
        else:
            found = [c for code, cs in by_code.items() if code in codes for c in cs]
        if len(found) > 1:
            pos = self.pos
            found.sort(key=lambda c: pos[c.ref])
        self._of_codes[id(codes)] = (codes, found)
        return found

    def facts(self, pool: CardPool, setup: bool) -> Facts:
        """What the engine finds from where the cards are, whether they are built, the phase (in setup
        or not: ``setup``) and the card pool ``pool`` (cost changes, granted keywords...): dropped with
        the index, and when asked with another pool, after a card was added to it, or in or out of
        setup. What is kept there is never changed (callers keep it as it is)."""
        found = self._facts
        if found is None or found.pool is not pool or found.edits != pool.edits or found.setup != setup:
            found = self._facts = Facts(pool, setup)
        return found

    def outside(self, known: Mapping[str, Any]) -> list[Card]:
        """The cards whose code is not a key of ``known``, in ``cards``' order (kept for the same mapping)."""
        memo = self._outside.get(id(known))
        if memo is not None and memo[0] is known:
            return memo[1]
        found = [c for code, cs in self.by_code.items() if code not in known for c in cs]
        if len(found) > 1:
            pos = self.pos
            found.sort(key=lambda c: pos[c.ref])
        self._outside[id(known)] = (known, found)
        return found


_NONE: Final[list[Card]] = []


def _drop(cards: list[Card], c: Card) -> None:
    """``c`` (that card, not one equal to it) leaves ``cards``."""
    for i in range(len(cards)):
        if cards[i] is c:
            del cards[i]
            return


def _unfile(table: dict[str, list[Card]], key: str, c: Card) -> None:
    """``c`` leaves ``table[key]`` (the key goes with the last card)."""
    found = table.get(key)
    if found is None:
        return
    for i in range(len(found)):
        if found[i] is c:
            del found[i]
            break
    if not found:
        del table[key]


def _file(table: dict[str, list[Card]], key: str, c: Card, at: int, pos: dict[str, int]) -> None:
    """``c``, at place ``at`` in the cards' order, joins ``table[key]``."""
    found = table.get(key)
    if found is None:
        table[key] = [c]
    else:
        _place(found, c, at, pos)


def _place(cards: list[Card], c: Card, at: int, pos: dict[str, int]) -> None:
    """``c`` joins ``cards`` (in the cards' order, ``pos``) in its place ``at``."""
    i = len(cards)
    while i > 0 and pos[cards[i - 1].ref] > at:
        i -= 1
    if i == len(cards):
        cards.append(c)
    else:
        cards.insert(i, c)


# a card filed again (CardIndex.refile): its reference, then its code, controller, zone and whether it
# had a pilot as it was filed (None, None, None, False: it was not in play), then as it is now (the
# same: it left)
Move = tuple[str, str | None, str | None, str | None, bool, str | None, str | None, str | None, bool]


class Facts:
    """``CardIndex.facts``: what the engine keeps while the cards stay where they are, each kind in a
    table of its own (looked up by strings, never by tuples made at each look-up). Each entry is made
    by the engine (judge.games.swtcg.engine, judge.games.swtcg.legal) and never changed. A card that
    moves is noted in ``moves``; the engine drops what that may change before it next looks here
    (judge.games.swtcg.engine.facts)."""

    def __init__(self, pool: CardPool, setup: bool) -> None:
        self.pool = pool
        self.edits = pool.edits
        self.setup = setup
        self.moves: list[Move] = []
        self.boost: list[Card] | None = None  # engine.boost_sources
        self.grants: list[tuple[Card, Any]] | None = None  # engine.grant_sources
        self.keywords: dict[str, Any] = {}  # engine.keyword_instances, by reference
        self.kw_values: dict[str, dict[str, int]] = {}  # engine._kw_values, by reference
        # engine.cost_delta: by player, then scope, then the code of the card whose ability it is (None: any)
        self.cost: dict[str, dict[str, dict[str | None, int]]] = {}
        # engine.cost_delta: True when no card whose code has a cost change is anywhere in play (every
        # cost changes by 0), None until asked (dropped with ``cost``)
        self.no_cost: bool | None = None
        self.names: dict[str, dict[str, list[str]]] = {}  # engine.same_name: by player, then name
        self.chance_base: dict[str, Any] = {}  # legal._chance_base, by player
        self.chance_moved: dict[str, set[str]] = {}  # by player, the cards whose entry there is to be found again
        self.chance_cards: dict[str, dict[str, Any]] = {}  # legal._chance_cards, by player, then kind of chance


# -- the canonical encoding, written straight from the state (GameState.canonical): each writer gives
# what canon.canonical gives for the value ``position`` would build (Card.to_json, Player.to_json):
# keys in sorted order, no spaces, strings quoted as the canonical encoder quotes them (ASCII only)
def _json(value: Any) -> str:
    """Loose JSON-like data (a chance, an attack, frames...: dicts with string keys, lists, strings,
    whole numbers, booleans, None), as ``canon.canonical`` writes it, written here (the canonical
    encoder's set-up costs more than most of these small values); anything else by ``canon`` itself."""
    kind = type(value)
    if kind is str:
        return encode_basestring_ascii(value)
    if kind is int:
        return str(value)
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if kind is dict:
        if not value:
            return "{}"
        keys = list(value)
        for k in keys:
            if type(k) is not str:
                return _doc(value)
        keys.sort()
        return "{" + ",".join([encode_basestring_ascii(k) + ":" + _json(value[k]) for k in keys]) + "}"
    if kind is list or kind is tuple:
        if not value:
            return "[]"
        return "[" + ",".join([_json(v) for v in value]) + "]"
    return _doc(value)


def _loose(value: Any) -> str:
    """Loose JSON-like data (a chance, an attack, frames...), None the most often."""
    return "null" if value is None else _json(value)


def _chance(ch: Chance | None) -> str:
    """``_loose(ch.to_json())``, written straight (``used``: strings, as a position's are checked to be)."""
    if ch is None:
        return "null"
    return '{"kind":' + _str(ch.kind) + ',"passes":' + _int(ch.passes) + ',"used":' + _strs(ch.used) + "}"


def _attack(a: AttackState | None) -> str:
    """``_loose(a.to_json())``, written straight, keys in sorted order."""
    if a is None:
        return "null"
    return ('{"arena":' + _str(a.arena) + ',"attacker":' + _str(a.attacker) + ',"boosts":' + _json(a.boosts)
            + ',"defender":' + _str(a.defender) + ',"lucky":' + _strs(a.lucky) + ',"retaliations":'
            + _json(a.retaliations) + ('' if a.rolled is None else ',"rolled":' + _int(a.rolled)) + ',"used":'
            + _strs(a.used) + "}")


def _roll(r: RollState | None) -> str:
    """``_loose(r.to_json())``, written straight, keys in sorted order."""
    if r is None:
        return "null"
    return (f'{{"dice":{_json(r.dice)},"player":{_str(r.player)},"purpose":{_str(r.purpose)},"source":'
            f'{_str(r.source)},"target":{_str(r.target)},"used":{_strs(r.used)}}}')


MAX_QUOTED: Final = 4096


def _q(quoted: dict[str, str], value: Any) -> str:
    """``_str(value)``, a string quoted once (``quoted``: the strings quoted so far, ``GameState._quoted``;
    emptied when it holds MAX_QUOTED)."""
    if type(value) is not str:
        return _str(value)
    found = quoted.get(value)
    if found is None:
        if len(quoted) >= MAX_QUOTED:
            quoted.clear()
        found = quoted[value] = _str(value)
    return found


def _card(c: Card, quoted: dict[str, str]) -> str:
    """``Card.to_json()``, encoded (``quoted``: as ``_q``): each key's piece ("" for a key not
    written), joined by one f-string (no list of pieces, no join)."""
    built = c.built
    head = ('{"at":' + _q(quoted, c.at) + (',"code":' if built else ',"built":false,"code":')) if c.at \
        else '{"code":' if built else '{"built":false,"code":'
    controller = ',"controller":' + _q(quoted, c.controller) if c.controller != c.owner else ""
    counters = ',"counters":' + _int(c.counters) if not built or c.counters else ""
    damage = c.damage
    dealt = ',"damage":0' if damage == 0 and type(damage) is int else ',"damage":' + _int(damage)
    deployed = ',"deployed_at":' + _int(c.deployed_at) if c.deployed_at else ""
    moved = ',"moved":true' if c.moved else ""
    on = ',"on":' + _q(quoted, c.on) if c.on else ""
    pilot = ',"pilot":' + _q(quoted, c.pilot) if c.pilot else ""
    tapped = ',"tapped":true' if c.tapped is True else ',"tapped":false' if c.tapped is False \
        else ',"tapped":' + _bool(c.tapped)
    under = ',"under":' + _strs(c.under) if c.under else ""
    zone = _ZONES.get(c.zone) or ',"zone":' + _str(c.zone) + "}"
    return f"{head}{_q(quoted, c.code)}{controller}{counters}{dealt}{deployed}{moved}{on}{pilot}{tapped}{under}{zone}"


_ZONES: Final[dict[str, str]] = {zone: ',"zone":' + _str(zone) + "}" for zone in ZONES}


def _player(p: Player) -> str:
    """``Player.to_json(True)``, encoded (one f-string: the pieces joined at once, not one by one)."""
    head = f'{{"bounties":{_json(p.bounties)},"build":' if p.bounties else '{"build":'
    deployed = f',"deployed":{_int(p.deployed)}' if p.deployed else ""
    done = f',"done":{_bool(p.done)}' if p.done else ""
    name = f',"name":{_str(p.name)}' if p.name else ""
    once = f',"once":{_strs(p.once)}' if p.once else ""
    return (f'{head}{_int(p.build)},"deck":{_strs(p.deck)}{deployed},"discard":{_strs(p.discard)}{done},"force":'
            f'{_int(p.force)},"hand":{_strs(p.hand)}{name}{once},"side":{_str(p.side)}}}')


def _same(value: Any) -> Any:
    return value


class HandMemo:
    """What the engine found from one hand (judge.games.swtcg.legal._hand_needs), with a copy of
    that hand and the card pool it was found with (``Player.hand_memo``)."""

    __slots__ = ("pool", "edits", "hand", "needs")

    def __init__(self, pool: CardPool, hand: list[str], needs: dict[str, int]) -> None:
        self.pool: Final = pool
        self.edits: Final = pool.edits
        self.hand: Final = hand
        self.needs: Final = needs


@dataclass
class Player:
    id: str
    name: str = ""
    side: str = "dark"
    force: int = 0
    build: int = 0  # build points
    hand: list[str] = field(default_factory=list)
    deck: list[str] = field(default_factory=list)  # top first
    discard: list[str] = field(default_factory=list)
    deployed: int = 0  # build points spent in setup (swtcg.setup.out-of-units)
    done: bool = False  # done deploying in setup
    bounties: list[list[Any]] = field(default_factory=list)  # rewards due at the next build step
    once: list[str] = field(default_factory=list)  # once-per-turn plays used this turn
    # what the engine found from the hand as it was (judge.games.swtcg.legal._hand_needs): kept with
    # a copy of that hand, and compared with it before use; never written, never compared
    hand_memo: HandMemo | None = field(default=None, compare=False, repr=False)

    # (the dataclass's own __init__, written out: compiled, the generated one would run interpreted)
    def __init__(self, id: str, name: str = "", side: str = "dark", force: int = 0, build: int = 0,
                 hand: list[str] | None = None, deck: list[str] | None = None, discard: list[str] | None = None,
                 deployed: int = 0, done: bool = False, bounties: list[list[Any]] | None = None,
                 once: list[str] | None = None, hand_memo: HandMemo | None = None) -> None:
        self.id = id
        self.name = name
        self.side = side
        self.force = force
        self.build = build
        self.hand = [] if hand is None else hand
        self.deck = [] if deck is None else deck
        self.discard = [] if discard is None else discard
        self.deployed = deployed
        self.done = done
        self.bounties = [] if bounties is None else bounties
        self.once = [] if once is None else once
        self.hand_memo = hand_memo

    def copy(self) -> Player:
        return Player(id=self.id, name=self.name, side=self.side, force=self.force, build=self.build,
                      hand=list(self.hand), deck=list(self.deck), discard=list(self.discard), deployed=self.deployed,
                      done=self.done, bounties=plain_copy(self.bounties), once=list(self.once),
                      hand_memo=self.hand_memo)

    def to_json(self, hidden: bool) -> dict[str, Any]:
        out: dict[str, Any] = {"side": self.side, "force": self.force, "build": self.build}
        if self.name:
            out["name"] = self.name
        if hidden:
            out["hand"] = list(self.hand)
            out["deck"] = list(self.deck)
        else:
            out["hand"] = len(self.hand)
            out["deck"] = len(self.deck)
        out["discard"] = list(self.discard)
        for key in ("deployed", "done", "bounties", "once"):
            value = getattr(self, key)
            if value:
                out[key] = plain_copy(value)
        return out


@dataclass
class GameState:
    round: int = 0  # the turn number (0: setup)
    phase: str = "setup"  # setup | ready | command | battle | over
    step: str = "setup"  # setup | partial | build | retreat | battle | over
    arena: str | None = None  # the battle step's arena
    active: str | None = None  # whose build or retreat step it is
    turn: str | None = None  # the player to act now
    wait: str | None = None  # what that player is asked (see the module docstring)
    acting: list[str] = field(default_factory=list)  # units that may act now (wait "act")
    # what the player to act may do besides passing (read and written as ``may``)
    _may: list[str] = field(default_factory=list)
    players: dict[str, Player] = field(default_factory=dict)
    cards: dict[str, Card] = field(default_factory=dict)
    mods: list[dict[str, Any]] = field(default_factory=list)  # lasting effects: target, stat, amount, until
    chance: Chance | None = None
    attack: AttackState | None = None
    roll: RollState | None = None
    damage: list[dict[str, Any]] = field(default_factory=list)
    later: list[dict[str, Any]] = field(default_factory=list)
    held: list[dict[str, Any]] = field(default_factory=list)
    frames: list[dict[str, Any]] = field(default_factory=list)
    build_started: list[str] = field(default_factory=list)  # swtcg.build.start-trigger-once-per-turn
    deploys: int = 0  # a counter giving each deployed card its order
    winner: str | None = None
    reason: str | None = None
    rng_drawn: int | None = None
    # the hits each unit's last attack rolled, by reference (swtcg.project.last-attack); None: this
    # game remembers no attacks (no card that reads them was known at its start)
    last_hits: dict[str, int] | None = None
    # where the cards are (``index``), kept until ``moved``; never written, never compared
    _index: CardIndex | None = field(default=None, compare=False, repr=False)
    # strings as ``_str`` quotes them, by string (``_q``): the same codes, references and zones come back
    # in every card of every position; shared by the state's copies (a memo of pure values)
    _quoted: dict[str, str] = field(default_factory=dict, compare=False, repr=False)
    # the pool ``may`` is found with when first read (``may_later``); None: ``_may`` holds it
    _may_pool: CardPool | None = field(default=None, compare=False, repr=False)

    # (the dataclass's own __init__, written out: compiled, the generated one would run interpreted)
    def __init__(self, round: int = 0, phase: str = "setup", step: str = "setup", arena: str | None = None,
                 active: str | None = None, turn: str | None = None, wait: str | None = None,
                 acting: list[str] | None = None, may: list[str] | None = None,
                 players: dict[str, Player] | None = None, cards: dict[str, Card] | None = None,
                 mods: list[dict[str, Any]] | None = None, chance: Chance | None = None,
                 attack: AttackState | None = None, roll: RollState | None = None,
                 damage: list[dict[str, Any]] | None = None, later: list[dict[str, Any]] | None = None,
                 held: list[dict[str, Any]] | None = None, frames: list[dict[str, Any]] | None = None,
                 build_started: list[str] | None = None, deploys: int = 0, winner: str | None = None,
                 reason: str | None = None, rng_drawn: int | None = None, last_hits: dict[str, int] | None = None,
                 ) -> None:
        self.round = round
        self.phase = phase
        self.step = step
        self.arena = arena
        self.active = active
        self.turn = turn
        self.wait = wait
        self.acting = [] if acting is None else acting
        self._may = [] if may is None else may
        self._may_pool = None
        self.players = {} if players is None else players
        self.cards = {} if cards is None else cards
        self.mods = [] if mods is None else mods
        self.chance = chance
        self.attack = attack
        self.roll = roll
        self.damage = [] if damage is None else damage
        self.later = [] if later is None else later
        self.held = [] if held is None else held
        self.frames = [] if frames is None else frames
        self.build_started = [] if build_started is None else build_started
        self.deploys = deploys
        self.winner = winner
        self.reason = reason
        self.rng_drawn = rng_drawn
        self.last_hits = last_hits
        self._index = None
        self._quoted = {}

    # -------------------------------------------------------------------------- what the player may do
    @property
    def may(self) -> list[str]:
        """What the player to act may do besides passing (legal.may), sorted; found now when the
        procedure left it to be found when read (``may_later``)."""
        if self._may_pool is not None:
            self._find_may()
        return self._may

    @may.setter
    def may(self, value: list[str]) -> None:
        self._may = value
        self._may_pool = None

    def may_later(self, pool: CardPool) -> None:
        """``may`` is found (with ``pool``) when first read, from the state as it is now, which stays
        as it is until the next step changes it (``may_stale``): a replay with no visitor reads it only
        at a checkpoint, a snapshot or the end (procedure.advance; Swtcg.apply_unrecorded). ``pool`` is
        the replay's, which nothing changes once built (a pool gains cards while it is made, by
        judge.games.swtcg.cards and the importer, before any replay reads it)."""
        self._may_pool = pool

    def may_stale(self) -> None:
        """A step begins to change the state: ``may`` left to be found later is no longer found from
        it (the step, done, says what may be done next; one that fails leaves a state the replayer
        does not keep)."""
        if self._may_pool is not None:
            self._may_pool = None
            self._may = []

    def _find_may(self) -> None:
        from judge.games.swtcg.engine import Ctx
        from judge.games.swtcg.legal import may

        pool = self._may_pool
        self._may_pool = None
        pid = self.turn
        assert pool is not None and pid is not None
        self._may = may(Ctx(self, pool), pid)

    def __eq__(self, other: object) -> bool:
        """Field by field, as a dataclass compares (``may`` found first where it was left for later)."""
        if not isinstance(other, GameState):
            return NotImplemented
        if self._may_pool is not None:
            self._find_may()
        if other._may_pool is not None:
            other._find_may()
        return all(getattr(self, f.name) == getattr(other, f.name) for f in fields(GameState) if f.compare)

    # -------------------------------------------------------------------------- helpers
    def index(self) -> CardIndex:
        """The cards by zone, controller and code (``CardIndex``), found once until ``moved``."""
        found = self._index
        if found is None:
            found = self._index = CardIndex(self.cards)
        return found

    def facts(self, pool: CardPool) -> Facts:
        """``index().facts(pool, in setup or not)``, in one call (the engine asks a dozen times a step)."""
        index = self._index
        if index is None:
            index = self._index = CardIndex(self.cards)
        found = index._facts
        setup = self.phase == "setup"
        if found is None or found.pool is not pool or found.edits != pool.edits or found.setup != setup:
            found = index._facts = Facts(pool, setup)
        return found

    def moved(self, ref: str | None = None) -> None:
        """A card entered or left ``cards``, or changed zone, controller, code, pilot or whether it is
        built: ``ref`` (its reference), filed again in the index kept (``CardIndex.refile``), and what
        was found from where the cards are goes; None: the index goes, found again when next asked for
        (a change to several cards at once)."""
        found = self._index
        if found is not None:
            if ref is None:
                self._index = None
            else:
                found.refile(ref)

    def copy(self) -> GameState:
        """An independent copy, field by field (what deepcopy gives, several times faster: the
        replayer's snapshots and rejected steps take one)."""
        out = GameState(round=self.round, phase=self.phase, step=self.step, arena=self.arena, active=self.active,
                        turn=self.turn, wait=self.wait, acting=list(self.acting), may=list(self.may),
                        players={pid: p.copy() for pid, p in self.players.items()},
                        cards={ref: c.copy() for ref, c in self.cards.items()}, mods=plain_copy(self.mods),
                        chance=self.chance.copy() if self.chance is not None else None,
                        attack=self.attack.copy() if self.attack is not None else None,
                        roll=self.roll.copy() if self.roll is not None else None,
                        damage=plain_copy(self.damage), later=plain_copy(self.later), held=plain_copy(self.held),
                        frames=plain_copy(self.frames), build_started=list(self.build_started), deploys=self.deploys,
                        winner=self.winner, reason=self.reason, rng_drawn=self.rng_drawn,
                        last_hits=dict(self.last_hits) if self.last_hits is not None else None)
        out._quoted = self._quoted  # (the memo of quoted strings, shared: pure values)
        return out

    def seats(self) -> list[str]:
        return list(self.players)

    def dark(self) -> str:
        """The Dark Side player (the first seat when both or neither are)."""
        for pid, p in self.players.items():
            if p.side == "dark":
                return pid
        return next(iter(self.players))

    def light(self) -> str:
        dark = self.dark()
        return next((pid for pid in self.players if pid != dark), dark)

    def side_order(self) -> list[str]:
        """Dark Side first (base.golden: the Dark Side wins all ties)."""
        return [self.dark(), self.light()]

    def opponent(self, pid: str) -> str:
        for p in self.players:  # (the first other seat, else ``pid``)
            if p != pid:
                return p
        return pid

    def units_in(self, arena: str, pid: str | None = None) -> list[Card]:
        """Units in an arena (pilots are no units, swtcg.pilots.not-a-unit)."""
        found = self.index().zone(arena)
        return list(found) if pid is None else [c for c in found if c.controller == pid]

    # -------------------------------------------------------------------------- views
    def view(self, hidden: bool = False) -> dict[str, Any]:
        """The state view (docs/replay-format.md, "SW TCG logs"): hands and decks as counts unless
        ``hidden``; the three arenas, the build zones, Force, build points, who acts and what they
        may do."""
        arenas: dict[str, dict[str, Any]] = {a: {} for a in ARENAS}
        build: dict[str, dict[str, Any]] = {pid: {} for pid in self.players}
        for ref in sorted(self.cards):
            c = self.cards[ref]
            entry = c.to_json()
            entry.pop("zone")
            if c.zone in arenas:
                arenas[c.zone][ref] = entry
            elif c.zone == "build":
                build.setdefault(c.controller, {})[ref] = entry
        pilots = {ref: c.on for ref, c in sorted(self.cards.items()) if c.zone == "pilot"}
        locations: dict[str, dict[str, Any]] = {}
        equipment: dict[str, str | None] = {}
        for ref in sorted(self.cards):
            c = self.cards[ref]
            if c.zone == "location" and c.at:
                entry = c.to_json()
                del entry["zone"], entry["at"]
                locations.setdefault(c.at, {})[ref] = entry
            elif c.zone == "equipped":
                equipment[ref] = c.on
        out: dict[str, Any] = {
            "round": self.round, "phase": self.phase, "step": self.step, "arena": self.arena,
            "active": self.active, "turn": self.turn, "wait": self.wait, "acting": list(self.acting),
            "may": list(self.may),
            "players": {pid: p.to_json(hidden) for pid, p in self.players.items()},
            "arenas": arenas, "build_zone": build, "pilots": pilots,
            "pilot_cards": {ref: self.cards[ref].to_json() for ref in pilots},
            "chance": self.chance.to_json() if self.chance is not None else None,
            "attack": self.attack.to_json() if self.attack is not None else None,
            "roll": self.roll.to_json() if self.roll is not None else None, "damage": plain_copy(self.damage),
            "later": plain_copy(self.later), "held": plain_copy(self.held),
            "mods": plain_copy(self.mods),
            "winner": self.winner, "reason": self.reason,
        }
        if locations:  # only when there are some: the view of a game without them is as it was
            out["locations"] = locations
        if equipment:
            out["equipment"] = equipment
        if self.last_hits is not None:  # only in a game that remembers attacks: others' views are as they were
            out["last_hits"] = dict(sorted(self.last_hits.items()))
        if hidden:
            out["frames"] = plain_copy(self.frames)
            out["build_started"] = list(self.build_started)
            out["deploys"] = self.deploys
        return out

    def position(self) -> dict[str, Any]:
        """The whole state, hidden information included; ``setup.position`` reads it back."""
        return self._position(plain_copy)

    def _position(self, own: Callable[[Any], Any]) -> dict[str, Any]:
        """``view(hidden=True)`` less its arrangement by zone (arenas, build zones, pilots, Locations,
        Equipment), plus every card, written straight; ``own``: how the loose data is copied
        (``canonical`` encodes it at once and needs no copy)."""
        out: dict[str, Any] = {
            "round": self.round, "phase": self.phase, "step": self.step, "arena": self.arena,
            "active": self.active, "turn": self.turn, "wait": self.wait, "acting": list(self.acting),
            "may": list(self.may),
            "players": {pid: p.to_json(True) for pid, p in self.players.items()},
            "chance": self.chance.to_json() if self.chance is not None else None,
            "attack": self.attack.to_json() if self.attack is not None else None,
            "roll": self.roll.to_json() if self.roll is not None else None,
            "damage": own(self.damage), "later": own(self.later), "held": own(self.held), "mods": own(self.mods),
        }
        if self.winner is not None:
            out["winner"] = self.winner
        if self.reason is not None:
            out["reason"] = self.reason
        if self.last_hits is not None:
            out["last_hits"] = dict(sorted(self.last_hits.items()))
        out["frames"] = own(self.frames)
        out["build_started"] = list(self.build_started)
        out["deploys"] = self.deploys
        cards = self.cards
        out["cards"] = {ref: cards[ref].to_json() for ref in sorted(cards)}
        return out

    def canonical(self) -> bytes:
        """``{"position": ..., "rng_drawn": ...}`` as ``canon.canonical`` encodes it, byte for byte,
        written straight from the state (as Destiny's GameState.canonical): keys in sorted order, the
        loose JSON-like data (chance, attack, frames...) encoded by ``canon.canonical`` itself
        (tests/judge/swtcg/test_canonical.py compares the two after every step of self-play games)."""
        out: list[str] = []
        w = out.append
        w(f'{{"position":{{"acting":{_strs(self.acting)},"active":{_str(self.active)},"arena":{_str(self.arena)}'
          f',"attack":{_attack(self.attack)},"build_started":{_strs(self.build_started)},"cards":{{')
        cards = self.cards
        quoted = self._quoted
        sep = ""
        for ref in sorted(cards):
            w(f"{sep}{_q(quoted, ref)}:{_card(cards[ref], quoted)}")
            sep = ","
        w(f'}},"chance":{_chance(self.chance)},"damage":{_json(self.damage)},"deploys":{_int(self.deploys)}'
          f',"frames":{_json(self.frames)},"held":{_json(self.held)}')
        if self.last_hits is not None:
            w(',"last_hits":' + _json(self.last_hits))
        w(f',"later":{_json(self.later)},"may":{_strs(self.may)},"mods":{_json(self.mods)},"phase":{_str(self.phase)}'
          ',"players":{')
        sep = ""
        for pid in sorted(self.players):
            w(f"{sep}{_str(pid)}:{_player(self.players[pid])}")
            sep = ","
        w("}")
        if self.reason is not None:
            w(',"reason":' + _str(self.reason))
        w(f',"roll":{_roll(self.roll)},"round":{_int(self.round)},"step":{_str(self.step)},"turn":{_str(self.turn)}'
          f',"wait":{_str(self.wait)}')
        if self.winner is not None:
            w(',"winner":' + _str(self.winner))
        w('},"rng_drawn":' + (_int(self.rng_drawn) if self.rng_drawn is not None else "null") + "}")
        return "".join(out).encode("ascii")

    def state_hash(self) -> str:
        return canon.state_hash(self.canonical())
