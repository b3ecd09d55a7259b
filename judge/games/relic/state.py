"""Relic's state: the characters at the table, their cards and tokens, the battle or skill test under
way with every die, the scenario, and whose turn and phase it is.

Plain classes with slots rather than dataclasses: the compiled engine builds them natively (a
dataclass's generated ``__init__`` stays interpreted, see ``judge.kernel.core.Record``).

``position()`` is the whole state as JSON (what a log's ``setup.position`` gives and ``from_position``
reads back: positions round-trip); ``view()`` is the position with what a reader needs beside it
(card names, each die's result, the scores), documented in docs/replay-format.md ("Relic logs").
"""

from __future__ import annotations

from collections.abc import Callable
from json.encoder import encode_basestring_ascii  # the canonical encoder's own (canon.py)
from typing import Any

from judge.games import canon
from judge.games.canon import json_doc as _doc
from judge.games.canon import json_int as _int
from judge.games.canon import json_str as _str
from judge.games.canon import json_strs as _strs
from judge.games.relic.cards import CHARACTERISTIC, EFFECT_KINDS, Card, Character, Effect, Pool, Scenario

SIDES = ("player", "enemy")


class Held:
    """A card a player holds (an asset in the play area, or a Power card in hand), with its tokens."""

    __slots__ = ("ref", "code", "charges")

    def __init__(self, ref: str, code: str, charges: int = 0) -> None:
        self.ref = ref
        self.code = code
        self.charges = charges

    def copy(self) -> Held:
        return Held(self.ref, self.code, self.charges)

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Held) and type(other) is type(self)
                and (self.ref, self.code, self.charges) == (other.ref, other.code, other.charges))

    def __repr__(self) -> str:
        return f"Held(ref={self.ref!r}, code={self.code!r}, charges={self.charges!r})"

    def to_json(self) -> dict[str, Any]:
        return {"ref": self.ref, "code": self.code, "charges": self.charges}


class Die:
    """One die of a battle or a skill test. ``rolls`` is every result it showed, the first roll then
    each reroll: only the last counts (relic.dice.reroll). ``modifiers`` change its result, never its
    base (relic.dice.base-result-triggers). ``parent`` is the die whose 6 it explodes from; ``void``
    marks an explosion whose parent was rerolled (relic.project.reroll-voids-explosions)."""

    __slots__ = ("id", "side", "rolls", "modifiers", "parent", "void")

    def __init__(self, id: str, side: str, rolls: list[int], modifiers: list[int] | None = None,
                 parent: str | None = None, void: bool = False) -> None:
        self.id = id
        self.side = side  # player | enemy
        self.rolls = rolls
        self.modifiers: list[int] = [] if modifiers is None else modifiers
        self.parent = parent
        self.void = void

    def copy(self) -> Die:
        return Die(self.id, self.side, list(self.rolls), list(self.modifiers), self.parent, self.void)

    def _fields(self) -> tuple[Any, ...]:
        return (self.id, self.side, self.rolls, self.modifiers, self.parent, self.void)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Die) and type(other) is type(self) and self._fields() == other._fields()

    def __repr__(self) -> str:
        return (f"Die(id={self.id!r}, side={self.side!r}, rolls={self.rolls!r}, modifiers={self.modifiers!r}, "
                f"parent={self.parent!r}, void={self.void!r})")

    @property
    def base(self) -> int:
        return self.rolls[-1]

    @property
    def result(self) -> int:
        modifiers = self.modifiers
        return self.rolls[-1] + sum(modifiers) if modifiers else self.rolls[-1]

    @property
    def explodes(self) -> bool:
        return self.rolls[-1] == 6  # relic.dice.base-result-triggers: the base result, never a modified one

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "side": self.side, "rolls": list(self.rolls)}
        if self.modifiers:
            out["modifiers"] = list(self.modifiers)
        if self.parent is not None:
            out["parent"] = self.parent
        if self.void:
            out["void"] = True
        return out


class Contest:
    """A battle (against one or more enemies of one colour, or the Confrontation) or a skill test."""

    __slots__ = ("kind", "color", "enemies", "value", "confrontation", "stage", "declared", "extra", "power", "dice",
                 "score", "enemy_score", "used")

    def __init__(self, kind: str, color: str, enemies: list[str] | None = None, value: int = 0,
                 confrontation: bool = False, stage: str = "prepare", declared: list[dict[str, Any]] | None = None,
                 extra: int = 0, power: int | None = None, dice: list[Die] | None = None, score: int = 0,
                 enemy_score: int = 0, used: list[str] | None = None) -> None:
        self.kind = kind  # battle | test
        self.color = color  # red | blue | yellow: the characteristic tested or fought with
        self.enemies: list[str] = [] if enemies is None else enemies  # enemy card codes (a battle)
        self.value = value  # the enemies' value (a battle) or the target number (a test)
        self.confrontation = confrontation
        self.stage = stage  # prepare (bonuses, extra dice) | rolled (rerolls, modifiers)
        # {"card": ref, "code": code, "bonus": i, "kind", "color", "value"}
        self.declared: list[dict[str, Any]] = [] if declared is None else declared
        self.extra = extra  # additional dice to roll with the player's die
        self.power = power  # a Power card's number, the result of the player's first die
        self.dice: list[Die] = [] if dice is None else dice
        self.score = score  # adjustments to the player's score (effects of kind "score")
        self.enemy_score = enemy_score  # adjustments to the enemy's score or the test's target
        # the weapons and armour whose effect was used in this battle (relic.project.effect-uses-card)
        self.used: list[str] = [] if used is None else used

    def copy(self) -> Contest:
        return Contest(self.kind, self.color, list(self.enemies), self.value, self.confrontation, self.stage,
                       [dict(d) for d in self.declared], self.extra, self.power, [d.copy() for d in self.dice],
                       self.score, self.enemy_score, list(self.used))

    def _fields(self) -> tuple[Any, ...]:
        return (self.kind, self.color, self.enemies, self.value, self.confrontation, self.stage, self.declared,
                self.extra, self.power, self.dice, self.score, self.enemy_score, self.used)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Contest) and type(other) is type(self) and self._fields() == other._fields()

    def __repr__(self) -> str:
        return f"Contest{self._fields()!r}"

    def die(self, die_id: str) -> Die | None:
        for d in self.dice:
            if d.id == die_id:
                return d
        return None

    def counted(self, side: str) -> list[Die]:
        return [d for d in self.dice if d.side == side and not d.void]

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "color": self.color, "value": self.value, "stage": self.stage,
                               "declared": [dict(d) for d in self.declared], "extra": self.extra,
                               "dice": [d.to_json() for d in self.dice], "score": self.score,
                               "enemy_score": self.enemy_score}
        if self.enemies:
            out["enemies"] = list(self.enemies)
        if self.confrontation:
            out["confrontation"] = True
        if self.power is not None:
            out["power"] = self.power
        if self.used:
            out["used"] = list(self.used)
        return out


class Player:
    __slots__ = ("id", "name", "character", "strength", "willpower", "cunning", "life", "influence", "assets", "hand",
                 "discard", "trophies", "at_scenario", "spent")

    def __init__(self, id: str, name: str, character: Character, strength: int, willpower: int, cunning: int,
                 life: int, influence: int = 3, assets: list[Held] | None = None, hand: list[Held] | None = None,
                 discard: list[str] | None = None, trophies: list[str] | None = None, at_scenario: bool = False,
                 spent: list[str] | None = None) -> None:
        self.id = id
        self.name = name
        self.character = character  # the sheet's starting values
        self.strength = strength
        self.willpower = willpower
        self.cunning = cunning
        self.life = life
        self.influence = influence
        self.assets: list[Held] = [] if assets is None else assets
        self.hand: list[Held] = [] if hand is None else hand  # Power cards
        self.discard: list[str] = [] if discard is None else discard  # card codes, face up (relic.discard.pile)
        self.trophies: list[str] = [] if trophies is None else trophies
        self.at_scenario = at_scenario
        self.spent: list[str] = [] if spent is None else spent  # cards a charge was spent from this turn

    def copy(self) -> Player:
        return Player(self.id, self.name, self.character, self.strength, self.willpower, self.cunning, self.life,
                      self.influence, [h.copy() for h in self.assets], [h.copy() for h in self.hand],
                      list(self.discard), list(self.trophies), self.at_scenario, list(self.spent))

    def _fields(self) -> tuple[Any, ...]:
        return (self.id, self.name, self.character, self.strength, self.willpower, self.cunning, self.life,
                self.influence, self.assets, self.hand, self.discard, self.trophies, self.at_scenario, self.spent)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Player) and type(other) is type(self) and self._fields() == other._fields()

    def __repr__(self) -> str:
        return f"Player{self._fields()!r}"

    def characteristic(self, color: str) -> int:
        """The characteristic a colour names (relic.bonuses.skill-colors)."""
        if color == "red":
            return self.strength
        if color == "blue":
            return self.willpower
        if color == "yellow":
            return self.cunning
        raise KeyError(color)

    def held(self, ref: str) -> Held | None:
        for h in self.assets:
            if h.ref == ref:
                return h
        for h in self.hand:
            if h.ref == ref:
                return h
        return None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "character": self.character.to_json(), "strength": self.strength,
                               "willpower": self.willpower, "cunning": self.cunning, "life": self.life,
                               "influence": self.influence, "assets": [h.to_json() for h in self.assets],
                               "hand": [h.to_json() for h in self.hand], "discard": list(self.discard),
                               "trophies": list(self.trophies), "spent": list(self.spent)}
        if self.at_scenario:
            out["at_scenario"] = True
        return out


class RelicState:
    __slots__ = ("players", "order", "pool", "cards", "scenario", "round", "phase", "turn", "contest", "last",
                 "winner", "reason", "rng_drawn", "ended", "confronted")

    def __init__(self, players: dict[str, Player], order: list[str], pool: Pool, cards: dict[str, Card] | None = None,
                 scenario: Scenario | None = None, round: int = 1, phase: str = "movement", turn: str | None = None,
                 contest: Contest | None = None, last: dict[str, Any] | None = None, winner: str | None = None,
                 reason: str | None = None, rng_drawn: int | None = None, ended: str | None = None,
                 confronted: bool = False) -> None:
        self.players = players
        self.order = order  # the seats, in turn order
        self.pool = pool  # the project's cards and the log's own (not part of the position but for ``cards``)
        self.cards: dict[str, Card] = {} if cards is None else cards  # the log's own definitions
        self.scenario = scenario
        self.round = round
        self.phase = phase
        self.turn = turn
        self.contest = contest
        self.last = last  # the result of the last battle or test
        self.winner = winner
        self.reason = reason
        self.rng_drawn = rng_drawn
        # this Encounter phase only (cleared when the phase ends): "lost" or "tied" once a battle was
        # lost or tied, which ends the phase's threats (relic.base.threats); whether the active player
        # resolved the Confrontation already (once each Encounter phase, relic.base.winning)
        self.ended = ended
        self.confronted = confronted

    def copy(self) -> RelicState:
        return RelicState({k: p.copy() for k, p in self.players.items()}, list(self.order), self.pool, self.cards,
                          self.scenario, self.round, self.phase, self.turn,
                          self.contest.copy() if self.contest else None, dict(self.last) if self.last else None,
                          self.winner, self.reason, self.rng_drawn, self.ended, self.confronted)

    def _fields(self) -> tuple[Any, ...]:
        return (self.players, self.order, self.pool, self.cards, self.scenario, self.round, self.phase, self.turn,
                self.contest, self.last, self.winner, self.reason, self.rng_drawn, self.ended, self.confronted)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, RelicState) and type(other) is type(self) and self._fields() == other._fields()

    def __repr__(self) -> str:
        return f"RelicState{self._fields()!r}"

    def card(self, code: str) -> Card | None:
        return self.cards.get(code) or self.pool.get(code)

    # -- JSON ---------------------------------------------------------------------------------
    def position(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "round": self.round, "phase": self.phase, "turn": self.turn, "order": list(self.order),
            "players": {pid: p.to_json() for pid, p in self.players.items()},
            "scenario": self.scenario.to_json() if self.scenario else None,
            "contest": self.contest.to_json() if self.contest else None,
            "winner": self.winner, "reason": self.reason,
        }
        if self.cards:
            out["cards"] = {code: c.to_json() for code, c in sorted(self.cards.items())}
        if self.last is not None:
            out["last"] = dict(self.last)
        if self.ended is not None:
            out["ended"] = self.ended
        if self.confronted:
            out["confronted"] = True
        return out

    def view(self, hidden: bool = False) -> dict[str, Any]:
        """The state as a reader sees it (docs/replay-format.md, "Relic logs"); ``hidden=True``
        gives the position."""
        if hidden:
            return self.position()
        from judge.games.relic.scoring import contest_view

        out = self.position()
        for pid, entry in out["players"].items():
            p = self.players[pid]
            entry["assets"] = [self._card_view(h) for h in p.assets]
            entry["hand"] = len(p.hand)
        out["contest"] = contest_view(self) if self.contest else None
        return out

    def _card_view(self, h: Held) -> dict[str, Any]:
        card = self.card(h.code)
        out = h.to_json()
        if card is not None:
            out.update(name=card.name, type=card.type, charge_value=card.charges,
                       bonuses=[b.to_json() for b in card.bonuses])
            if card.effect is not None:
                out["effect"] = card.effect.to_json()
        return out

    def canonical(self) -> bytes:
        """``position()`` (with ``rng_drawn`` when the log has an rng) as ``canon.canonical`` encodes
        it, byte for byte, written straight from the state: every checkpoint hashes the state, and
        building the position's dictionaries to sort and encode them cost a replay a third of its
        time. The keys are written in sorted order; a value of another type than the state's own
        (a position's odd value) is encoded by ``canon.canonical`` itself
        (tests/judge/relic/test_positions.py compares the two on every step of the examples)."""
        out: list[str] = ["{"]
        w = out.append
        if self.cards:
            w('"cards":')
            w(_doc({code: c.to_json() for code, c in self.cards.items()}))
            w(",")
        if self.confronted:
            w('"confronted":true,')
        w('"contest":')
        w("null" if self.contest is None else _contest(self.contest))
        if self.ended is not None:
            w(',"ended":')
            w(_str(self.ended))
        if self.last is not None:
            w(',"last":')
            w(_flat(self.last))
        w(',"order":')
        w(_strs(self.order))
        w(',"phase":')
        w(_str(self.phase))
        w(',"players":{')
        for i, pid in enumerate(sorted(self.players)):
            if i:
                w(",")
            w(_str(pid))
            w(":")
            _player(self.players[pid], w)
        w('},"reason":')
        w(_str(self.reason))
        if self.rng_drawn is not None:
            w(',"rng_drawn":')
            w(_int(self.rng_drawn))
        w(',"round":')
        w(_int(self.round))
        w(',"scenario":')
        w("null" if self.scenario is None else _scenario(self.scenario))
        w(',"turn":')
        w(_str(self.turn))
        w(',"winner":')
        w(_str(self.winner))
        w("}")
        return "".join(out).encode("ascii")

    def state_hash(self) -> str:
        return canon.state_hash(self.canonical())


# -- the canonical encoding, written straight from the state (RelicState.canonical) -------------
# Each writer gives what canon.canonical gives for the value ``to_json``/``position`` would build:
# keys in sorted order, no spaces, strings as the canonical encoder quotes them.
# (canon.json_doc, json_str, json_int: imported above as _doc, _str, _int)


def _scalar(value: Any) -> str:
    kind = type(value)
    if kind is str:
        return encode_basestring_ascii(value)
    if kind is int:
        return str(value)
    if kind is bool:
        return "true" if value else "false"
    return "null" if value is None else _doc(value)


def _flat(doc: dict[str, Any]) -> str:
    """A dictionary of JSON scalars (a declared bonus, an effect, the last result)."""
    parts: list[str] = []
    for key in sorted(doc):
        if type(key) is not str:
            return _doc(doc)
        parts.append(encode_basestring_ascii(key) + ":" + _scalar(doc[key]))
    return "{" + ",".join(parts) + "}"


def _effect(e: Effect) -> str:
    """An effect as ``Effect.to_json`` writes it."""
    if e.kind not in EFFECT_KINDS:  # not implemented: its text
        text = ',"text":' + _str(e.text) + "}"
        return "{" + text[1:] if e.kind == "text" else '{"kind":' + _str(e.kind) + text
    out = '{"charge":true,"kind":' if e.charge else '{"kind":'
    out += _str(e.kind) + ',"timing":' + _str(e.timing)
    if e.type is not None:
        out += ',"type":' + _str(e.type)
    if "value" in EFFECT_KINDS[e.kind]:
        out += ',"value":' + _int(e.value)
    return out + ',"window":' + _str(e.window) + "}"


def _scenario(s: Scenario) -> str:
    """A scenario as ``Scenario.to_json`` writes it."""
    kind, color, value = s.confrontation
    conf = (f'{{"color":{_str(color)},"kind":"battle","value":{_int(value)}}}' if kind == "battle" else
            f'{{"kind":"test","skill":{_str(CHARACTERISTIC[color])},"target":{_int(value)}}}')
    return f'{{"confrontation":{conf},"name":{_str(s.name)},"special":[{",".join([_effect(e) for e in s.special])}]}}'


def _ints(values: list[int]) -> str:
    return "[" + ",".join([_int(v) for v in values]) + "]"


def _held(held: list[Held]) -> str:
    return "[" + ",".join([f'{{"charges":{_int(h.charges)},"code":{_str(h.code)},"ref":{_str(h.ref)}}}'
                           for h in held]) + "]"


def _player(p: Player, w: Callable[[str], None]) -> None:
    ch = p.character
    w('{"assets":')
    w(_held(p.assets))
    if p.at_scenario:
        w(',"at_scenario":true')
    w(f',"character":{{"cunning":{_int(ch.cunning)},"life":{_int(ch.life)},"name":{_str(ch.name)},'
      f'"strength":{_int(ch.strength)},"willpower":{_int(ch.willpower)}}}')
    w(f',"cunning":{_int(p.cunning)},"discard":{_strs(p.discard)},"hand":{_held(p.hand)},'
      f'"influence":{_int(p.influence)},"life":{_int(p.life)},"name":{_str(p.name)},"spent":{_strs(p.spent)},'
      f'"strength":{_int(p.strength)},"trophies":{_strs(p.trophies)},"willpower":{_int(p.willpower)}}}')


def _die(d: Die) -> str:
    out = '{"id":' + _str(d.id)
    if d.modifiers:
        out += ',"modifiers":' + _ints(d.modifiers)
    if d.parent is not None:
        out += ',"parent":' + _str(d.parent)
    out += ',"rolls":' + _ints(d.rolls) + ',"side":' + _str(d.side)
    return out + (',"void":true}' if d.void else "}")


def _contest(c: Contest) -> str:
    out = '{"color":' + _str(c.color)
    if c.confrontation:
        out += ',"confrontation":true'
    out += ',"declared":[' + ",".join([_flat(d) for d in c.declared]) + "]"
    out += ',"dice":[' + ",".join([_die(d) for d in c.dice]) + "]"
    if c.enemies:
        out += ',"enemies":' + _strs(c.enemies)
    out += f',"enemy_score":{_int(c.enemy_score)},"extra":{_int(c.extra)},"kind":{_str(c.kind)}'
    if c.power is not None:
        out += ',"power":' + _int(c.power)
    return out + f',"score":{_int(c.score)},"stage":{_str(c.stage)},"value":{_int(c.value)}}}'
