"""SW TCG cards as data plus small hooks (STYLE.md section 6): a card is its stats, its type line and
a few declarative abilities. The engine never branches on a card's name; it reads these values.

- ``Keyword``: a keyword ability (Accuracy, Armor, Critical Hit, Evade, Deflect, Intercept, Lucky,
  Overkill, Parry, Power Boost, Stealth, Retaliate, Shields, Stun, Upkeep, Bounty, Prevent, Disrupt), with its
  value and, for an activated keyword, its Force cost (``"Pay 2 Force -> Evade 1"``). "Reserves:"
  before an ability (a keyword or an activated ability) makes it work only in the build zone.
- ``Effect``: one instruction of a battle card, an activated ability or a triggered ability
  ("gain 2 Force", "3 dice of damage", "+2 power for this attack"...). ``amount`` may be ``X``.
- ``Play``: a battle card's effect or a unit's activated ability: its cost, the window it may be
  played in, and its options ("Choose one": several).
- ``Trigger``: a triggered ability ("When this unit attacks, gain 1 Force").
- ``Static``: a static ability (a cost change, a keyword granted to other units).
- ``PilotDef``: the text after "[subtype] Pilot", working only while the card pilots a unit.
- Missions, Locations and Equipment (swtcg.base.mission, swtcg.base.location, swtcg.base.equip): a
  Mission's effect is its ``plays[0]`` (window ``build``); a Location's text is its ``statics``; an
  Equipment's Equip cost is its ``equip`` keyword (``options``: ``("build", n)``, ``("force", n)``)
  and what the equipped unit gets its ``equip`` statics (``scope``: the unit types it goes on).

A card whose text the engine cannot read has ``implemented`` False: it stops a replay with a
``not-implemented`` error where its text would matter (``judge.games.swtcg.engine``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Final

UNIT_TYPES: Final = ("space", "ground", "character")  # swtcg.cards.units
CARD_TYPES: Final = (*UNIT_TYPES, "battle", "mission", "location", "equipment")
SIDES: Final = ("dark", "light", "neutral")
X: Final = -1  # an amount read from the cost (swtcg.costs.x-uses-printed-cost, swtcg.costs.any-amount-reduced)

# keywords used by a step as an activated ability is (a cost, an arrow), and the chance each belongs to
ACTIVATED: Final = {"evade": "prevent", "deflect": "prevent", "prevent": "prevent", "intercept": "attack",
                    "retaliate": "attack", "lucky": "reroll", "hidden-cost": "any"}
# those of them that are static keywords, with no arrow: no activated abilities
# (swtcg.abilities.activated-definition; base.glossary: Lucky, Hidden Cost), so a change to the cost of
# activated abilities (Darth Sidious D's) does not reach them
STATIC_USED: Final = frozenset(("lucky", "hidden-cost"))
STATIC: Final = ("accuracy", "armor", "critical-hit", "shields", "stun", "overkill", "bombard", "parry", "stealth")
TRIGGERED: Final = ("power-boost", "upkeep", "bounty")
KEYWORDS: Final = (*STATIC, *ACTIVATED, *TRIGGERED, "disrupt", "equip")
# keyword values that add up on one unit (swtcg.abilities.cumulative-modifiers, swtcg.keywords.lucky-sum);
# Armor and Overkill count once however many a unit has (swtcg.keywords.armor-no-stack)
CUMULATIVE: Final = ("accuracy", "critical-hit", "shields", "stun", "lucky", "bombard", "parry")

# "stun", "accuracy", "critical-hit": the unit gets that keyword's value (for this attack, or the battle)
KEYWORD_EFFECTS: Final = ("stun", "accuracy", "critical-hit")
EFFECT_KINDS = ("gain-force", "lose-force", "draw", "power", "speed", *KEYWORD_EFFECTS, "damage", "dice", "prevent",
                "reroll", "disrupt", "retreat", "untap", "return-self", "no-combat", "discard", "opponent-discards",
                "unevadable-damage", "damage-each", "return-with-stack", "discard-if-missed", "gain-control")
STATIC_KINDS = ("cost", "grant", "boost", "attack-only", "equip", "double-damage", "retreat-instead",
                "no-arena-control", "prevent-all")
TARGETS = ("", "self", "your-unit", "enemy-unit", "any-unit", "attacker", "defender", "character", "character-unit",
           "enemy-character-unit", "your-droids", "enemy-ground-or-character-unit", "dark-character-unit")
WINDOWS = ("any", "attack", "reroll", "prevent", "disrupt", "build", "no-attack", "would-attack")
TRIGGER_ON = ("attacks", "discarded", "damaged", "battle-start", "battle-end", "build-start")


@dataclass(frozen=True)
class Keyword:
    """A keyword ability. ``cost``: Force paid to use an activated keyword; ``extra``: Power Boost's
    self-damage; ``options``: Upkeep's alternatives (``("force", 1)``, ``("build", 2)``, ``("tap", 0)``)
    or Bounty's reward; ``reserves``: granted by "Reserves:", it works while, and only while, the
    card is in the build zone (swtcg.base.reserves)."""

    name: str
    value: int = 0
    cost: int = 0
    extra: int = 0
    options: tuple[tuple[str, int], ...] = ()
    reserves: bool = False

    def text(self) -> str:
        return ("Reserves: " if self.reserves else "") + self._text()

    def _text(self) -> str:
        label = " ".join(p.capitalize() for p in self.name.split("-"))
        if self.name == "upkeep":
            return "Upkeep: " + " or ".join(_option_text(o) for o in self.options)
        if self.name == "bounty":
            return "Bounty: " + " and ".join(_option_text(o) for o in self.options)
        if self.name == "equip":
            return "Pay " + ", ".join(_option_text(o) for o in self.options) + " -> Equip"
        if self.name == "power-boost":
            label = f"Power Boost {self.value}/{self.extra}"
        elif self.value:
            label += f" {self.value}"
        return f"Pay {self.cost} Force -> {label}" if self.cost else label


def _option_text(option: tuple[str, int]) -> str:
    what, n = option
    return {"force": f"{n} Force", "build": f"{n} build point{'s' if n != 1 else ''}", "tap": "tap this unit",
            "lose-force": f"lose {n} Force"}.get(what, what)


@dataclass(frozen=True)
class Effect:
    """One instruction. ``amount`` ``X`` (-1): the cost's X. ``target``: who it applies to.
    ``unevadable-damage``: the unit does ``amount`` damage (no roll; it is the damage's source) that
    Evade cannot prevent, other prevention can (swtcg.project.unevadable-damage). ``damage-each``: the
    card does ``amount`` damage to each card of ``target`` (``your-droids``: each of your Droids,
    swtcg.project.each-of-your), all in one chance to prevent it. ``return-with-stack``: a discarded
    card's trigger returns it, its stack and its pilot from your discard pile to your hand: only
    the cards its controller owns (swtcg.zones.leave-play-you). ``discard-if-missed``: discard the
    target if its last attack rolled no hits (swtcg.project.last-attack)."""

    kind: str
    amount: int = 0
    target: str = ""


@dataclass(frozen=True)
class Play:
    """A battle card's effect or an activated ability. ``options``: one tuple of effects per option
    of "Choose one" (one option: no choice); ``window``: the chance it belongs to; ``any_amount``:
    "Pay any amount of Force"; ``once``: "this turn" / "until end of battle" effects, once per turn
    (swtcg.timing.this-turn, swtcg.timing.until-end-of-battle); ``tap``: tapping the unit is part of
    the cost; ``reserves``: granted by "Reserves:", played while, and only while, the unit is in the
    build zone (swtcg.base.reserves)."""

    cost: int = 0
    options: tuple[tuple[Effect, ...], ...] = ()
    windows: tuple[str, ...] = ("any",)  # the window of each option (one per option)
    any_amount: bool = False
    once: bool = False
    tap: bool = False
    reserves: bool = False


@dataclass(frozen=True)
class Trigger:
    """A triggered ability: ``on`` an event of its own card, with ``effects`` (in the order written,
    swtcg.abilities.multi-part-order); ``optional``: "you may"; ``cost``: "you may pay N Force; if you
    do" (optional: the player who cannot pay does not; swtcg.costs.must-pay)."""

    on: str
    effects: tuple[Effect, ...]
    optional: bool = False
    where: str = ""  # a condition: "space", "ground", "character" (the arena the card is in)
    cost: int = 0


@dataclass(frozen=True)
class Static:
    """A static ability. ``kind`` ``cost``: the Force cost of ``scope`` (``battle`` cards or activated
    ``ability`` uses) of ``whose`` (``you``/``all``) changes by ``amount``; ``grant``: ``keyword`` to
    ``whose`` other units of type ``scope`` (one instance per granting card, swtcg.abilities.grant-per-source);
    ``equip``: an Equipment's unit (of a type in ``scope``, ``Space/Ground``) gets ``amount`` more ``stat``,
    or ``keyword``, while the Equipment is attached to it (swtcg.base.equip); ``double-damage``: a
    Location doubles all damage that units in the arena ``scope`` would do, before it can be
    prevented (Hoth Battle Plains; swtcg.keywords.overkill-then-double); ``retreat-instead``: while a
    card named ``scope`` is in your Character arena, if this unit would be discarded, retreat it
    instead (a replacement: swtcg.project.retreat-instead); ``no-arena-control``: the unit does not count
    for controlling its arena (base.win); ``prevent-all``: all damage to and from the unit is prevented
    as it waits to be dealt (swtcg.project.prevent-all). ``of``: a ``cost`` change only for the
    abilities of your cards of this type and subtype word, ``character:Jedi`` ("your Jedi
    Characters' activated abilities")."""

    kind: str
    amount: int = 0
    scope: str = ""
    whose: str = "you"
    keyword: Keyword | None = None
    stat: str = ""  # ``boost``: the stat your units of subtype ``scope`` get ``amount`` more of
    of: str = ""

    def covers(self, card: CardDef | None) -> bool:
        """Whether a ``cost`` change reaches the abilities of ``card`` (``of`` names its type and subtype)."""
        if not self.of:
            return True
        if card is None:
            return False
        type_, _, word = self.of.partition(":")
        return card.type == type_ and (not word or card.has_subtype(word))


@dataclass(frozen=True)
class PilotDef:
    """The text after "[kind] Pilot": what the piloted unit gets (swtcg.pilots.bonuses-only-when-piloting)."""

    kind: str  # the unit subtype word it can pilot: Starfighter, Speeder, Transport...
    speed: int = 0
    power: int = 0
    health: int = 0
    keywords: tuple[Keyword, ...] = ()


@dataclass(frozen=True)
class CardDef:
    code: str
    name: str
    side: str
    type: str
    subtypes: tuple[str, ...] = ()
    cost: int = 0  # build cost; a battle card's Force cost is its Play's
    speed: int = 0
    power: int = 0
    health: int = 0
    version: str | None = None  # the version letter of a unique card
    keywords: tuple[Keyword, ...] = ()
    plays: tuple[Play, ...] = ()  # a battle card's effect, or a unit's activated abilities
    triggers: tuple[Trigger, ...] = ()
    statics: tuple[Static, ...] = ()
    pilot: PilotDef | None = None
    text: str = ""
    implemented: bool = True
    unparsed: str = ""  # the part of the text the engine does not implement

    @property
    def unit(self) -> bool:
        return self.type in UNIT_TYPES

    @property
    def unique(self) -> bool:
        return self.version is not None

    def has_subtype(self, word: str) -> bool:
        """Whether the type line names ``word`` (swtcg.cards.subtype-reference: never the name); a pilot's
        ``Speeder/Starfighter`` names either."""
        return _names_subtype(self.subtypes, word)

    @property
    def droid(self) -> bool:
        return self.has_subtype("Droid")

    @property
    def display(self) -> str:
        return f"{self.name} ({self.version})" if self.version else self.name


@lru_cache(maxsize=4096)
def _names_subtype(subtypes: tuple[str, ...], word: str) -> bool:
    """CardDef.has_subtype, once per type line and word."""
    for one in word.lower().split("/"):
        pattern = re.compile(r"(^|\s)" + re.escape(one.strip()) + r"($|\s)")
        if any(pattern.search(s.lower()) for s in subtypes):
            return True
    return False


class Interned:
    """Immutable values the engine makes over and over from a few strings, each made once and shared
    (the modules keep no table of their own): the simple steps of a wait (legal._step), an ability's
    parts (actions.parse_ability), effects (engine.effects_from), the records of chances to play
    (engine._records_of), whether a string is a card reference (steps.is_ref), the values a step's
    reader found sound, by kind (steps._parse_sound). Kept with the pool (``CardPool.interned``, read
    as an attribute: the engine asks several times a step) until a card is added; each table is
    emptied by its user when full. (Typed loosely: the values are the engine's types, which this
    module does not import.)"""

    __slots__ = ("steps", "abilities", "effects", "by_player", "ended", "refs", "sound")

    def __init__(self) -> None:
        self.steps: dict[Any, Any] = {}
        self.abilities: dict[str, Any] = {}
        self.effects: dict[Any, Any] = {}
        self.by_player: dict[str, Any] = {}
        self.ended: dict[str, Any] = {}
        self.refs: dict[str, bool] = {}
        self.sound: dict[str, set[str]] = {"card": set(), "ref": set(), "onto": set(), "ability": set()}


def _pool_keys(pool: CardPool) -> dict[str, str]:
    """Each code of ``pool`` by itself: its key in ``pool.cards`` (CardPool.same_code)."""
    return {code: code for code in pool.cards}


@dataclass
class CardPool:
    """The cards an engine replays with, by code; ``decks``: named 60-card decks (self-play)."""

    cards: dict[str, CardDef] = field(default_factory=dict)
    decks: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # what the engine derives from the cards and looks up often, kept until a card is added
    _statics: dict[str, frozenset[str]] = field(default_factory=dict, init=False, repr=False, compare=False)
    _derived: dict[str, dict[str, frozenset[str]]] = field(default_factory=dict, init=False, repr=False,
                                                           compare=False)
    _statics_any: dict[tuple[str, ...], frozenset[str]] = field(default_factory=dict, init=False, repr=False,
                                                                compare=False)
    _by_value: dict[str, dict[str, frozenset[str]]] = field(default_factory=dict, init=False, repr=False,
                                                            compare=False)
    # what a module of the engine makes once per pool (``memo``), kept until a card is added
    _memos: dict[str, Any] = field(default_factory=dict, init=False, repr=False, compare=False)
    # the index of the cards' names (judge.games.cardnames.NameIndexes), built when a log first names one
    names: dict[str, Any] = field(default_factory=dict, init=False, repr=False, compare=False)
    # the engine's interned values (``Interned``), kept until a card is added
    interned: Interned = field(default_factory=Interned, init=False, repr=False, compare=False)
    # cards added (what is derived goes); in __init__, as mypyc sets no default of a field left out of it
    edits: int = field(default=0, repr=False, compare=False)

    def get(self, code: str) -> CardDef | None:
        return self.cards.get(code)

    def __contains__(self, code: object) -> bool:
        return isinstance(code, str) and code in self.cards

    def __iter__(self) -> Iterator[CardDef]:
        return iter(self.cards.values())

    def __len__(self) -> int:
        return len(self.cards)

    def add(self, card: CardDef) -> None:
        self.cards[card.code] = card
        self.edits += 1
        self._statics = {}
        self._derived = {}
        self._statics_any = {}
        self._by_value = {}
        self._memos = {}
        self.names = {}
        self.interned = Interned()

    def same_code(self, code: str) -> str:
        """The pool's own string of ``code`` (its key in ``cards``), or ``code`` when the pool does not
        know it: equal strings, the pool's looked up by identity (judge.games.swtcg.game._shared_codes)."""
        keys: dict[str, str] = self.memo("codes", _pool_keys)
        return keys.get(code, code)

    def same_codes(self, codes: list[Any]) -> list[Any]:
        """``codes`` with each string the pool knows as the pool's own (``same_code``)."""
        keys: dict[str, str] = self.memo("codes", _pool_keys)
        return [keys.get(code, code) if isinstance(code, str) else code for code in codes]

    def with_static(self, kind: str) -> frozenset[str]:
        """The codes of the cards with a static ability of ``kind`` (cached; the engine looks for
        them often)."""
        found = self._statics.get(kind)
        if found is None:
            found = self._statics[kind] = frozenset(c.code for c in self.cards.values()
                                                    if any(s.kind == kind for s in c.statics))
        return found

    def with_statics(self, kinds: tuple[str, ...]) -> frozenset[str]:
        """The codes of the cards with a static ability of any of ``kinds`` (cached as ``with_static``)."""
        found = self._statics_any.get(kinds)
        if found is None:
            found = self._statics_any[kinds] = frozenset().union(*(self.with_static(k) for k in kinds))
        return found

    def memo(self, what: str, make: Callable[[CardPool], Any]) -> Any:
        """``make(self)``, made once per ``what`` (which names ``make``) until a card is added: a
        table a module of the engine reads often, kept with the cards it was made from."""
        found = self._memos.get(what)
        if found is None:
            found = self._memos[what] = make(self)
        return found

    def derived(self, what: str, make: Callable[[CardDef], frozenset[str]]) -> dict[str, frozenset[str]]:
        """``make(card)`` of every card, by code, computed once per ``what`` (which names ``make``)."""
        found = self._derived.get(what)
        if found is None:
            found = self._derived[what] = {c.code: make(c) for c in self.cards.values()}
        return found

    def derived_codes(self, what: str, make: Callable[[CardDef], frozenset[str]]) -> dict[str, frozenset[str]]:
        """``derived`` the other way round: for each value ``make`` gives some card, the codes of the
        cards it gives it (computed once per ``what``; a value no card has is missing)."""
        found = self._by_value.get(what)
        if found is None:
            by: dict[str, set[str]] = {}
            for code, values in self.derived(what, make).items():
                for v in values:
                    by.setdefault(v, set()).add(code)
            found = self._by_value[what] = {v: frozenset(codes) for v, codes in by.items()}
        return found


# ---------------------------------------------------------------------- card JSON (import/load)
def keyword_json(k: Keyword) -> dict[str, Any]:
    out: dict[str, Any] = {"name": k.name}
    if k.value:
        out["value"] = k.value
    if k.cost:
        out["cost"] = k.cost
    if k.extra:
        out["extra"] = k.extra
    if k.options:
        out["options"] = [list(o) for o in k.options]
    if k.reserves:
        out["reserves"] = True
    return out


def keyword_from(d: Mapping[str, Any]) -> Keyword:
    name = d["name"]
    if name not in KEYWORDS:
        raise ValueError(f"unknown keyword {name!r}")
    return Keyword(name=name, value=int(d.get("value", 0)), cost=int(d.get("cost", 0)), extra=int(d.get("extra", 0)),
                   options=tuple((str(o[0]), int(o[1])) for o in d.get("options", ())),
                   reserves=bool(d.get("reserves", False)))


def card_json(c: CardDef) -> dict[str, Any]:
    """A card as the project's card JSON writes it (keywords and pilot text only: the importer
    reads nothing else into abilities)."""
    out: dict[str, Any] = {"code": c.code, "name": c.name, "side": c.side, "type": c.type,
                           "subtypes": list(c.subtypes), "cost": c.cost}
    if c.unit:
        out.update(speed=c.speed, power=c.power, health=c.health)
    if c.version:
        out["version"] = c.version
    if c.keywords:
        out["keywords"] = [keyword_json(k) for k in c.keywords]
    if c.pilot:
        out["pilot"] = {"kind": c.pilot.kind, "speed": c.pilot.speed, "power": c.pilot.power,
                        "health": c.pilot.health, "keywords": [keyword_json(k) for k in c.pilot.keywords]}
    if c.plays:
        out["plays"] = [{"cost": p.cost, "options": [[[e.kind, e.amount, e.target] for e in o] for o in p.options],
                         "windows": list(p.windows), "any_amount": p.any_amount, "once": p.once, "tap": p.tap,
                         **({"reserves": True} if p.reserves else {})}
                        for p in c.plays]
    if c.triggers:
        out["triggers"] = [{"on": t.on, "effects": [[e.kind, e.amount, e.target] for e in t.effects],
                            "optional": t.optional, **({"where": t.where} if t.where else {}),
                            **({"cost": t.cost} if t.cost else {})} for t in c.triggers]
    if c.statics:
        out["statics"] = [_static_json(s) for s in c.statics]
    out["text"] = c.text
    if not c.implemented:
        out["implemented"] = False
        out["unparsed"] = c.unparsed
    return out


def card_from(d: Mapping[str, Any]) -> CardDef:
    pilot = d.get("pilot")
    if d["type"] not in CARD_TYPES:
        raise ValueError(f"{d.get('code')}: unknown card type {d['type']!r}")
    if d["side"] not in SIDES:
        raise ValueError(f"{d.get('code')}: unknown side {d['side']!r}")
    return CardDef(
        code=str(d["code"]), name=str(d["name"]), side=d["side"], type=d["type"],
        subtypes=tuple(str(s) for s in d.get("subtypes", ())), cost=int(d.get("cost") or 0),
        speed=int(d.get("speed") or 0), power=int(d.get("power") or 0), health=int(d.get("health") or 0),
        version=d.get("version"), keywords=tuple(keyword_from(k) for k in d.get("keywords", ())),
        pilot=PilotDef(kind=pilot["kind"], speed=int(pilot.get("speed", 0)), power=int(pilot.get("power", 0)),
                       health=int(pilot.get("health", 0)),
                       keywords=tuple(keyword_from(k) for k in pilot.get("keywords", ()))) if pilot else None,
        plays=tuple(_play_from(p) for p in d.get("plays", ())),
        triggers=tuple(Trigger(on=_known(t["on"], TRIGGER_ON), effects=tuple(_effect_from(e) for e in t["effects"]),
                               optional=bool(t.get("optional", False)),
                               where=_known(t.get("where", ""), ("", *UNIT_TYPES)), cost=int(t.get("cost", 0)))
                  for t in d.get("triggers", ())),
        statics=tuple(_static_from(s) for s in d.get("statics", ())),
        text=str(d.get("text", "")), implemented=bool(d.get("implemented", True)), unparsed=str(d.get("unparsed", "")))


def _static_json(s: Static) -> dict[str, Any]:
    out: dict[str, Any] = {"kind": s.kind}
    if s.amount:
        out["amount"] = s.amount
    if s.scope:
        out["scope"] = s.scope
    if s.whose != "you":
        out["whose"] = s.whose
    if s.keyword is not None:
        out["keyword"] = keyword_json(s.keyword)
    if s.stat:
        out["stat"] = s.stat
    if s.of:
        out["of"] = s.of
    return out


def _static_from(raw: Mapping[str, Any]) -> Static:
    keyword = raw.get("keyword")
    return Static(kind=_known(raw["kind"], STATIC_KINDS), amount=int(raw.get("amount", 0)),
                  scope=str(raw.get("scope", "")), whose=_known(raw.get("whose", "you"), ("you", "all", "opponent")),
                  keyword=keyword_from(keyword) if keyword else None, stat=str(raw.get("stat", "")),
                  of=str(raw.get("of", "")))


def _known(value: Any, known: tuple[str, ...]) -> str:
    if value not in known:
        raise ValueError(f"{value!r} is not one of {', '.join(known)}")
    return str(value)


def _effect_from(raw: Any) -> Effect:
    kind, amount, target = raw
    return Effect(kind=_known(kind, EFFECT_KINDS), amount=int(amount), target=_known(target, TARGETS))


def _play_from(raw: Mapping[str, Any]) -> Play:
    return Play(cost=int(raw.get("cost", 0)), options=tuple(tuple(_effect_from(e) for e in o) for o in raw["options"]),
                windows=tuple(_known(w, WINDOWS) for w in raw.get("windows", ("any",))),
                any_amount=bool(raw.get("any_amount", False)), once=bool(raw.get("once", False)),
                tap=bool(raw.get("tap", False)), reserves=bool(raw.get("reserves", False)))
