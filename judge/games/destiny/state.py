"""Destiny game state: small mutable records, a public view, a position (with hidden
information) and a canonical hash.

States are recomputed by replaying a log (STYLE.md section 5); a state object is the engine's
working copy for one replay. ``view()`` is the spec's state view (hand and deck as counts);
``position()`` is the same with hand and deck as lists of codes (``"?"`` for an unknown card),
which is what ``setup.position`` takes back. ``state_hash()`` is SHA-256 over the canonical
encoding of the position (hidden information included) plus the engine's bookkeeping:

    canonical = JSON with keys sorted, no insignificant whitespace, ASCII only, integers as
    decimal, lists in game order (deck top first; hand, discard and pool in the order they
    were filled), no floats (written by judge.games.canon, shared by every game).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from json.encoder import encode_basestring_ascii
from typing import Any, Final

from mypy_extensions import mypyc_attr

from judge.games import canon
from judge.games.canon import json_bool as _bool
from judge.games.canon import json_doc as _doc
from judge.games.canon import json_int as _int
from judge.games.canon import json_str as _str
from judge.games.canon import json_strs as _strs
from judge.games.destiny.dice import Face

UNKNOWN = "?"
# a string as the canonical encoder quotes it (ASCII only); the state's tables' keys (see ``_player``)
_KEY: Final = encode_basestring_ascii

# ---------------------------------------------------------------------- the play generation
# What is in play (characters and whether they are defeated, upgrades, supports, the battlefield
# and its controller, eliminated players) changes rarely; the engine's index of live triggered
# abilities is rebuilt only when it does. Every such change bumps the state's own counter (its
# ``Generation``, shared by the state's tables and characters: TrackedDict for the tables,
# properties for the flags), so an index built at generation g is valid for as long as the
# state's counter still reads g. The counter belongs to one state: replays in other threads
# never touch it (no process-wide counter).


class Generation:
    """A state's play generation: bumped by every change to what is in play."""

    __slots__ = ("value",)

    def __init__(self, value: int = 0):
        self.value = value


def play_generation(state: GameState) -> int:
    return state.gen.value


def _link(value: Any, gen: Generation) -> None:
    """Make a player or a character entering a state's table count changes on that state."""
    if isinstance(value, Character):
        value.gen = gen
    elif isinstance(value, Player):
        value.relink(gen)


def _retrack(table: Any, gen: Generation) -> TrackedDict:
    """``table`` counting its changes on ``gen`` (a plain dict is wrapped)."""
    if type(table) is not TrackedDict:
        return TrackedDict.of(gen, table)
    table.gen = gen
    for value in dict.values(table):
        _link(value, gen)
    return table


def _tracked(items: Any = ()) -> TrackedDict:
    return TrackedDict.of(Generation(), items)


@mypyc_attr(native_class=False)  # a dict subclass stays a Python class when compiled
class TrackedDict(dict):
    """A dict whose every change bumps its state's play generation (used for what is in play)."""

    __slots__ = ("gen",)
    gen: Generation

    @classmethod
    def of(cls, gen: Generation, items: Any = ()) -> TrackedDict:
        new = cls(items)
        new.gen = gen
        for value in dict.values(new):
            _link(value, gen)
        return new

    def __setitem__(self, key: Any, value: Any) -> None:
        self.gen.value += 1
        _link(value, self.gen)
        dict.__setitem__(self, key, value)

    def __delitem__(self, key: Any) -> None:
        self.gen.value += 1
        dict.__delitem__(self, key)

    def pop(self, *args: Any) -> Any:
        self.gen.value += 1
        return dict.pop(self, *args)

    def popitem(self) -> Any:
        self.gen.value += 1
        return dict.popitem(self)

    def clear(self) -> None:
        self.gen.value += 1
        dict.clear(self)

    def update(self, *args: Any, **kw: Any) -> None:
        self.gen.value += 1
        dict.update(self, *args, **kw)
        for value in dict.values(self):
            _link(value, self.gen)

    def setdefault(self, key: Any, default: Any = None) -> Any:
        self.gen.value += 1
        _link(default, self.gen)
        return dict.setdefault(self, key, default)

    def __ior__(self, other: Any) -> TrackedDict:  # type: ignore[misc]
        self.update(other)
        return self

    def __reduce__(self) -> Any:
        return (_tracked, (dict(self),))


@dataclass
class Character:
    ref: str
    code: str
    dice: int
    damage: int = 0
    shields: int = 0
    _defeated: bool = False  # read and written as ``defeated``
    exhausted: bool = False
    upgrades: list[str] = field(default_factory=list)
    # the play generation of the state it is in (set when it enters a player's characters)
    gen: Generation | None = field(default=None, init=False, repr=False, compare=False)

    # (an explicit __init__, the one the dataclass would write: compiled, the dataclass's own stays
    # an interpreted function, several times the cost of a construction; tests/judge/destiny/
    # test_state.py compares the fields with the dataclass's)
    def __init__(self, ref: str, code: str, dice: int, damage: int = 0, shields: int = 0, _defeated: bool = False,
                 exhausted: bool = False, upgrades: list[str] | None = None) -> None:
        self.ref = ref
        self.code = code
        self.dice = dice
        self.damage = damage
        self.shields = shields
        self._defeated = _defeated
        self.exhausted = exhausted
        self.upgrades = [] if upgrades is None else upgrades
        self.gen = None

    # (pickled and copied by its fields: a compiled class is made by its __init__, which wants them)
    def __reduce__(self) -> tuple[Any, ...]:
        return (Character, (self.ref, self.code, self.dice, self.damage, self.shields, self._defeated, self.exhausted,
                            self.upgrades))

    @property
    def defeated(self) -> bool:
        return self._defeated

    @defeated.setter
    def defeated(self, value: bool) -> None:  # a defeated character's abilities leave play
        if value != self._defeated and self.gen is not None:
            self.gen.value += 1
        self._defeated = value


@dataclass
class Upgrade:
    ref: str
    code: str
    on: str
    exhausted: bool = False

    def __init__(self, ref: str, code: str, on: str, exhausted: bool = False) -> None:  # (see Character)
        self.ref = ref
        self.code = code
        self.on = on
        self.exhausted = exhausted

    def __reduce__(self) -> tuple[Any, ...]:  # (see Character)
        return (Upgrade, (self.ref, self.code, self.on, self.exhausted))


@dataclass
class Support:
    ref: str
    code: str
    exhausted: bool = False
    dice: int = 1  # how many dice rest on it (0 when the card has none)

    def __init__(self, ref: str, code: str, exhausted: bool = False, dice: int = 1) -> None:  # (see Character)
        self.ref = ref
        self.code = code
        self.exhausted = exhausted
        self.dice = dice

    def __reduce__(self) -> tuple[Any, ...]:  # (see Character)
        return (Support, (self.ref, self.code, self.exhausted, self.dice))


@dataclass
class Player:
    id: str
    name: str = ""
    resources: int = 0
    hand: list[str] = field(default_factory=list)
    deck: deque[str] = field(default_factory=deque)  # top first; drawn from the left in O(1)
    discard: list[str] = field(default_factory=list)
    passed: bool = False
    characters: dict[str, Character] = field(default_factory=TrackedDict)
    supports: dict[str, Support] = field(default_factory=TrackedDict)
    upgrades: dict[str, Upgrade] = field(default_factory=TrackedDict)
    pool: dict[str, Face] = field(default_factory=dict)
    serials: dict[str, int] = field(default_factory=dict)  # copies of a code that entered play
    power_used: list[str] = field(default_factory=list)  # cards whose power action was used
    removed: list[str] = field(default_factory=list)  # cards removed from the game
    _eliminated: bool = False  # read and written as ``eliminated``
    # the play generation of the state it is in (its own until it takes a seat)
    gen: Generation = field(default_factory=Generation, init=False, repr=False, compare=False)

    def __init__(self, id: str, name: str = "", resources: int = 0, hand: list[str] | None = None,
                 deck: deque[str] | None = None, discard: list[str] | None = None, passed: bool = False,
                 characters: dict[str, Character] | None = None, supports: dict[str, Support] | None = None,
                 upgrades: dict[str, Upgrade] | None = None, pool: dict[str, Face] | None = None,
                 serials: dict[str, int] | None = None, power_used: list[str] | None = None,
                 removed: list[str] | None = None, _eliminated: bool = False) -> None:  # (see Character)
        self.id = id
        self.name = name
        self.resources = resources
        self.hand = [] if hand is None else hand
        self.deck = deque() if deck is None else deck
        self.discard = [] if discard is None else discard
        self.passed = passed
        self.pool = {} if pool is None else pool
        self.serials = {} if serials is None else serials
        self.power_used = [] if power_used is None else power_used
        self.removed = [] if removed is None else removed
        self._eliminated = _eliminated
        gen = self.gen = Generation()
        self.characters = TrackedDict.of(gen, () if characters is None else characters)
        self.supports = TrackedDict.of(gen, () if supports is None else supports)
        self.upgrades = TrackedDict.of(gen, () if upgrades is None else upgrades)

    def __reduce__(self) -> tuple[Any, ...]:  # (see Character; the tables as plain dicts, wrapped again)
        return (Player, (self.id, self.name, self.resources, self.hand, self.deck, self.discard, self.passed,
                         dict(self.characters), dict(self.supports), dict(self.upgrades), self.pool, self.serials,
                         self.power_used, self.removed, self._eliminated))

    def relink(self, gen: Generation) -> None:
        """Count this player's changes on ``gen`` (the state whose seat it takes)."""
        self.gen = gen
        self.characters = _retrack(self.characters, gen)
        self.supports = _retrack(self.supports, gen)
        self.upgrades = _retrack(self.upgrades, gen)

    @property
    def eliminated(self) -> bool:
        return self._eliminated

    @eliminated.setter
    def eliminated(self, value: bool) -> None:  # what an eliminated player had leaves play
        if value != self._eliminated:
            self.gen.value += 1
        self._eliminated = value

    def copy(self) -> Player:
        """A working copy: every field (tests/judge/destiny/test_explicit_init.py names each), its lists
        and tables its own. Each record made field by field (dataclasses.replace reads the class's
        fields every time: a state copy, at each snapshot of a replay, cost ten times as much with it;
        and ``copy.copy`` makes an object without its ``__init__``, which a compiled class cannot);
        tests/judge/destiny/test_canonical.py checks every field of them is copied."""
        new = Player(self.id, self.name, self.resources, list(self.hand), deque(self.deck), list(self.discard),
                     self.passed, {r: Character(c.ref, c.code, c.dice, c.damage, c.shields, c._defeated, c.exhausted,
                                                list(c.upgrades)) for r, c in self.characters.items()},
                     {r: Support(s.ref, s.code, s.exhausted, s.dice) for r, s in self.supports.items()},
                     {r: Upgrade(u.ref, u.code, u.on, u.exhausted) for r, u in self.upgrades.items()},
                     dict(self.pool), dict(self.serials), list(self.power_used), list(self.removed),
                     self._eliminated)
        new.gen.value = self.gen.value  # (its own counter, the tables' too, at the same count)
        return new

    def alive(self) -> list[Character]:
        chars = self.characters  # (keys, then each value: see rounds.next_seat)
        out = []
        for ref in chars:
            c = chars[ref]
            if not c._defeated:  # (the field, not its property, on this hot path)
                out.append(c)
        return out


@dataclass
class Delayed:
    """A delayed effect (destiny.delayed.definition): what happens, and when."""

    when: str  # "round-end"
    kind: str  # "defeat"
    target: str
    source: str
    round: int

    def __init__(self, when: str, kind: str, target: str, source: str, round: int) -> None:  # (see Character)
        self.when = when
        self.kind = kind
        self.target = target
        self.source = source
        self.round = round

    def __reduce__(self) -> tuple[Any, ...]:  # (see Character)
        return (Delayed, (self.when, self.kind, self.target, self.source, self.round))


@dataclass
class GameState:
    round: int = 1
    phase: str = "action"  # setup | action | upkeep | over
    turn: str | None = None
    claimed_by: str | None = None
    _battlefield: str | None = None  # read and written as ``battlefield``
    battlefield_owner: str | None = None
    _controller: str | None = None  # read and written as ``controller``
    players: dict[str, Player] = field(default_factory=_tracked)  # seat order
    winner: str | None = None
    reason: str | None = None
    passes: int = 0  # consecutive passes in this action phase
    extra_action: str | None = None  # the player who may take an extra action now (Ambush)
    extra_more: int = 0  # how many more extra actions they were given and have still to take (or pass)
    delayed: list[Delayed] = field(default_factory=list)
    rng_drawn: int | None = None  # words drawn from the log's rng, when it has one
    # the engine's caches (engine.Ctx) and the play generation they are valid for: never part of
    # the state's value
    live_index: Any = field(default=None, init=False, repr=False, compare=False)
    canon_memo: Any = field(default=None, init=False, repr=False, compare=False)
    gen: Generation = field(default_factory=Generation, init=False, repr=False, compare=False)

    def __init__(self, round: int = 1, phase: str = "action", turn: str | None = None, claimed_by: str | None = None,
                 _battlefield: str | None = None, battlefield_owner: str | None = None,
                 _controller: str | None = None, players: dict[str, Player] | None = None, winner: str | None = None,
                 reason: str | None = None, passes: int = 0, extra_action: str | None = None, extra_more: int = 0,
                 delayed: list[Delayed] | None = None, rng_drawn: int | None = None) -> None:  # (see Character)
        self.round = round
        self.phase = phase
        self.turn = turn
        self.claimed_by = claimed_by
        self._battlefield = _battlefield
        self.battlefield_owner = battlefield_owner
        self._controller = _controller
        self.winner = winner
        self.reason = reason
        self.passes = passes
        self.extra_action = extra_action
        self.extra_more = extra_more
        self.delayed = [] if delayed is None else delayed
        self.rng_drawn = rng_drawn
        gen = self.gen = Generation()
        self.players = TrackedDict.of(gen, () if players is None else players)
        self.live_index = None
        self.canon_memo = None

    def __reduce__(self) -> tuple[Any, ...]:  # (see Character; the engine's caches are not part of it)
        return (GameState, (self.round, self.phase, self.turn, self.claimed_by, self._battlefield,
                            self.battlefield_owner, self._controller, dict(self.players), self.winner, self.reason,
                            self.passes, self.extra_action, self.extra_more, self.delayed, self.rng_drawn))

    @property
    def battlefield(self) -> str | None:
        return self._battlefield

    @battlefield.setter
    def battlefield(self, value: str | None) -> None:
        if value != self._battlefield:
            self.gen.value += 1
        self._battlefield = value

    @property
    def controller(self) -> str | None:
        return self._controller

    @controller.setter
    def controller(self, value: str | None) -> None:
        if value != self._controller:
            self.gen.value += 1
        self._controller = value

    def copy(self) -> GameState:
        """A working copy (faces are immutable and shared); much cheaper than deepcopy. Every field
        (tests/judge/destiny/test_explicit_init.py names each); the caches stay valid for the copy
        until it changes (its own counter, at the same count)."""
        new = GameState(self.round, self.phase, self.turn, self.claimed_by, self._battlefield, self.battlefield_owner,
                        self._controller, {pid: p.copy() for pid, p in self.players.items()}, self.winner,
                        self.reason, self.passes, self.extra_action, self.extra_more,
                        [Delayed(d.when, d.kind, d.target, d.source, d.round) for d in self.delayed], self.rng_drawn)
        new.gen.value = self.gen.value
        new.live_index = self.live_index
        new.canon_memo = self.canon_memo
        return new

    def player(self, pid: str) -> Player:
        return self.players[pid]

    def opponents(self, pid: str) -> list[str]:
        players = self.players  # (keys, then each value: see rounds.next_seat)
        return [p for p in players if p != pid and not players[p]._eliminated]  # (the field, not its property)

    def seats(self) -> list[str]:
        return list(self.players)

    # -- views --------------------------------------------------------------------------------
    def view(self, hidden: bool = False) -> dict[str, Any]:
        """The spec's state view (section 5); ``hidden=True`` gives the position form."""
        players: dict[str, Any] = {}
        for pid, p in self.players.items():
            entry: dict[str, Any] = {
                "resources": p.resources,
                "hand": list(p.hand) if hidden else len(p.hand),
                "deck": list(p.deck) if hidden else len(p.deck),
                "discard": list(p.discard),
                "passed": p.passed,
                "characters": {
                    ref: {"dice": c.dice, "damage": c.damage, "shields": c.shields, "defeated": c.defeated,
                          "exhausted": c.exhausted, "upgrades": list(c.upgrades)}
                    for ref, c in p.characters.items()},
                "supports": {ref: {"exhausted": s.exhausted} for ref, s in p.supports.items()},
                "upgrades": {ref: {"on": u.on, "exhausted": u.exhausted} for ref, u in p.upgrades.items()},
                "pool": {ref: face.notation() for ref, face in p.pool.items()},
            }
            if p.power_used:
                entry["power_used"] = list(p.power_used)
            if hidden and p.serials:
                entry["serials"] = dict(sorted(p.serials.items()))
            if p.eliminated:
                entry["eliminated"] = True
            players[pid] = entry
        out: dict[str, Any] = {
            "round": self.round,
            "phase": self.phase,
            "turn": self.turn,
            "claimed_by": self.claimed_by,
            "battlefield": ({"card": self.battlefield, "controller": self.controller,
                             "owner": self.battlefield_owner} if self.battlefield else None),
            "players": players,
            "winner": self.winner,
            "reason": self.reason,
        }
        if self.passes:
            out["passes"] = self.passes
        if self.extra_action:
            out["extra_action"] = self.extra_action
        if self.extra_more:
            out["extra_more"] = self.extra_more
        if self.delayed:
            out["delayed"] = [{"when": d.when, "kind": d.kind, "target": d.target, "source": d.source,
                               "round": d.round} for d in self.delayed]
        return out

    def position(self) -> dict[str, Any]:
        return self.view(hidden=True)

    def canonical(self) -> bytes:
        """``position()`` (with ``rng_drawn`` when the log has an rng) as ``canon.canonical``
        encodes it, byte for byte, written straight from the state: every checkpoint hashes the
        state, and building the position's dictionaries only to sort and encode them cost a replay
        a tenth of its instructions (a sixth, compiled). Keys are written in sorted order; a value
        of another type than the state's own is encoded by ``canon.canonical`` itself
        (tests/judge/destiny/test_canonical.py compares the two after every step of every log)."""
        out: list[str] = []
        w = out.append
        w('{"battlefield":')
        if self._battlefield:  # (the fields, not their properties)
            w('{"card":' + _str(self._battlefield) + ',"controller":' + _str(self._controller) + ',"owner":'
              + _str(self.battlefield_owner) + "}")
        else:
            w("null")
        w(',"claimed_by":' + _str(self.claimed_by))
        if self.delayed:
            w(',"delayed":' + _doc([{"when": d.when, "kind": d.kind, "target": d.target, "source": d.source,
                                     "round": d.round} for d in self.delayed]))
        if self.extra_action:
            w(',"extra_action":' + _str(self.extra_action))
        if self.extra_more:
            w(',"extra_more":' + _int(self.extra_more))
        if self.passes:
            w(',"passes":' + _int(self.passes))
        w(',"phase":' + _str(self.phase) + ',"players":{')
        sep = ""
        for pid in sorted(self.players):
            w(sep + _str(pid) + ":")
            _player(self.players[pid], w)
            sep = ","
        w('},"reason":' + _str(self.reason))
        if self.rng_drawn is not None:
            w(',"rng_drawn":' + _int(self.rng_drawn))
        w(',"round":' + _int(self.round) + ',"turn":' + _str(self.turn) + ',"winner":' + _str(self.winner) + "}")
        return "".join(out).encode("ascii")

    def state_hash(self) -> str:
        return canon.state_hash(self.canonical())


# -- the canonical encoding, written straight from the state (GameState.canonical) ---------------
# Each writer gives what canon.canonical gives for the value ``position`` would build: keys in
# sorted order, no spaces, strings quoted as the canonical encoder quotes them (ASCII only).
# (canon.json_doc, json_str, json_strs, json_int, json_bool: imported above as _doc, _str, _strs, _int, _bool)


def _player(p: Player, w: Callable[[str], Any]) -> None:
    """A player's entry of the position, keys in sorted order (f-strings: one string made per part,
    not one per ``+``). The keys of the player's tables are strings (the engine's references, or a
    position's object keys): quoted by ``_KEY`` itself; a character whose counts and flags are of
    the state's own types is written without a call per value (tests/judge/destiny/test_canonical.py)."""
    w('{"characters":{')
    sep = ""
    chars = p.characters
    for ref in sorted(chars):
        c = chars[ref]
        damage, dice, shields, defeated, exhausted = c.damage, c.dice, c.shields, c._defeated, c.exhausted
        if type(damage) is int and type(dice) is int and type(shields) is int and type(defeated) is bool \
                and type(exhausted) is bool:
            w(f'{sep}{_KEY(ref)}:{{"damage":{damage},"defeated":{"true" if defeated else "false"},"dice":{dice},'
              f'"exhausted":{"true" if exhausted else "false"},"shields":{shields},"upgrades":{_strs(c.upgrades)}}}')
        else:
            w(f'{sep}{_KEY(ref)}:{{"damage":{_int(damage)},"defeated":{_bool(defeated)},"dice":{_int(dice)},'
              f'"exhausted":{_bool(exhausted)},"shields":{_int(shields)},"upgrades":{_strs(c.upgrades)}}}')
        sep = ","
    w(f'}},"deck":{_strs(p.deck)},"discard":{_strs(p.discard)}')
    if p._eliminated:
        w(',"eliminated":true')
    w(f',"hand":{_strs(p.hand)},"passed":{_bool(p.passed)},"pool":{{')
    pool = p.pool
    if pool:
        w(",".join([f"{_KEY(ref)}:{_KEY(pool[ref].notation())}" for ref in sorted(pool)]))
    if p.power_used:
        w(f'}},"power_used":{_strs(p.power_used)},"resources":{_int(p.resources)}')
    else:
        w(f'}},"resources":{_int(p.resources)}')
    serials = p.serials
    if serials:
        w(',"serials":{' + ",".join([f"{_KEY(code)}:{_int(serials[code])}" for code in sorted(serials)]) + "}")
    supports = p.supports
    w(',"supports":{' + ",".join([f'{_KEY(ref)}:{{"exhausted":{_bool(supports[ref].exhausted)}}}'
                                  for ref in sorted(supports)]))
    upgrades = p.upgrades
    w('},"upgrades":{' + ",".join([f'{_KEY(ref)}:{{"exhausted":{_bool(upgrades[ref].exhausted)},"on":'
                                   f'{_str(upgrades[ref].on)}}}' for ref in sorted(upgrades)]) + "}}")
