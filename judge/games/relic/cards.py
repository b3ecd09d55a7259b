"""Relic's cards as data (STYLE.md section 6): what a card shows (relic.cards.anatomy), read from the
log's own definitions (``setup.cards``) or from the project's pool (``data/cards.json``, package data
read once through importlib.resources, as the rule index is).

A card definition (JSON)::

    {"name": "Needle Rifle", "class": "Wargear", "type": "Weapon", "influence": 3, "charges": 2,
     "bonuses": [{"kind": "battle", "color": "gray", "value": 2, "charge": true}],
     "effect": {"kind": "reroll", "timing": "during", "window": "battle", "charge": true}}

- ``class`` and ``type`` are the card's two words (relic.cards.anatomy); the type decides when the
  card can be used (relic.cards.type-timing, ``TYPE_WINDOWS``).
- ``influence``: the Influence cost to buy it (relic.cards.influence-cost).
- ``charges``: its charge value, tokens placed when it is drawn (relic.charges.initial).
- ``bonuses``: skill bonuses (plain circles) and battle bonuses (spiked circles) by colour
  (relic.bonuses.*); ``charge: true`` when using the bonus spends a charge token.
- ``effect``: one of the engine's effect kinds (``EFFECT_KINDS``), with its timing word
  (``start``, ``end``, ``during``: relic.timing.*) and its window (a phase, ``turn``, ``battle``,
  ``test``). Any other text is kept as written and is ``not-implemented`` when the card would use
  it: the engine never skips it silently.
- An enemy (type ``Enemy``) has ``battle``: ``{"color": "red"|"blue"|"yellow", "value": n}`` and an
  optional ``penalty`` (an effect applied when it beats the player, relic.base.battle).
- A Power card (class ``Power``) is held in a hidden hand and has a power ``number``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from typing import Any

from i18n import N_, Msg

CODE = re.compile(r"^[a-z0-9][a-z0-9-]{0,47}$")
COLORS = ("red", "blue", "yellow", "gray")
# relic.bonuses.skill-colors / relic.bonuses.battle-colors: the colour names the characteristic
CHARACTERISTIC = {"red": "strength", "blue": "willpower", "yellow": "cunning"}
COLOR_OF = {v: k for k, v in CHARACTERISTIC.items()}
SKILLS = ("strength", "willpower", "cunning")
BONUS_KINDS = ("skill", "battle")
TIMINGS = ("start", "end", "during")
PHASES = ("movement", "exploration", "encounter", "experience")
WINDOWS = ("turn", *PHASES, "battle", "test")
# the effect kinds the engine carries out, with the parameters each takes
EFFECT_KINDS: dict[str, tuple[str, ...]] = {
    "reroll": (),  # reroll one of the player's dice after the roll (relic.dice.reroll)
    "modify": ("value",),  # raise or lower one die's result (relic.dice.modify)
    "extra-die": (),  # roll one more die with the roll, declared before it (relic.dice.additional-simultaneous)
    "add-charges": ("value",),  # put charge tokens on one of the player's cards (relic.charges.add-beyond-value)
    "gain-influence": ("value",),
    "lose-influence": ("value",),
    "gain-life": ("value",),
    "lose-life": ("value",),
    "discard": ("value", "type"),  # the player discards cards of a type (relic.discard.*)
    "score": ("value",),  # the active player's score in this battle or test (relic.dice.modify)
    "enemy-score": ("value",),  # the enemy's score in every battle (a scenario's special rule)
    "difficulty": ("value",),  # every skill test's target number (a scenario's special rule)
}
EFFECT_KEYS = ("kind", "timing", "window", "charge", "value", "type", "text")
CARD_KEYS = ("name", "class", "type", "influence", "charges", "bonuses", "effect", "battle", "penalty", "number",
             "text")
BONUS_KEYS = ("kind", "color", "value", "charge")
CHARACTER_KEYS = ("name", *SKILLS, "life")
SCENARIO_KEYS = ("name", "special", "confrontation")
MAX_VALUE = 99
# relic.cards.type-timing: the windows in which a card of each type may be used ("any": always)
TYPE_WINDOWS: dict[str, tuple[str, ...]] = {"weapon": ("battle",), "armour": ("battle",), "armor": ("battle",)}

Faults = list[tuple[str, str]]


@dataclass(frozen=True)
class Bonus:
    kind: str  # skill | battle
    color: str
    value: int
    charge: bool = False  # using it spends a charge token (relic.charges.spend)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "color": self.color, "value": self.value}
        if self.charge:
            out["charge"] = True
        return out


@dataclass(frozen=True)
class Effect:
    """One effect: a kind the engine carries out (``EFFECT_KINDS``), or ``text`` it does not."""

    kind: str  # an EFFECT_KINDS key, or "text"
    timing: str = "during"
    window: str = "turn"
    charge: bool = False  # using it spends a charge token
    value: int = 0
    type: str | None = None
    text: str = ""

    @property
    def implemented(self) -> bool:
        return self.kind in EFFECT_KINDS

    def to_json(self) -> dict[str, Any]:
        if not self.implemented:
            return {"kind": self.kind, "text": self.text} if self.kind != "text" else {"text": self.text}
        out: dict[str, Any] = {"kind": self.kind, "timing": self.timing, "window": self.window}
        if self.charge:
            out["charge"] = True
        if "value" in EFFECT_KINDS[self.kind]:
            out["value"] = self.value
        if self.type is not None:
            out["type"] = self.type
        return out


@dataclass(frozen=True)
class Card:
    code: str
    name: str
    cls: str  # the card's class (the bold word on the left)
    type: str  # the card's type (the word on the right)
    influence: int | None = None
    charges: int = 0
    bonuses: tuple[Bonus, ...] = ()
    effect: Effect | None = None
    battle: tuple[str, int] | None = None  # an enemy's (colour, value)
    penalty: Effect | None = None
    number: int | None = None  # a Power card's power number
    text: str = ""

    @property
    def enemy(self) -> bool:
        return self.battle is not None

    @property
    def power(self) -> bool:
        return self.cls.lower() == "power"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "class": self.cls, "type": self.type}
        if self.influence is not None:
            out["influence"] = self.influence
        if self.charges:
            out["charges"] = self.charges
        if self.bonuses:
            out["bonuses"] = [b.to_json() for b in self.bonuses]
        if self.effect is not None:
            out["effect"] = self.effect.to_json()
        if self.battle is not None:
            out["battle"] = {"color": self.battle[0], "value": self.battle[1]}
        if self.penalty is not None:
            out["penalty"] = self.penalty.to_json()
        if self.number is not None:
            out["number"] = self.number
        if self.text:
            out["text"] = self.text
        return out


@dataclass(frozen=True)
class Character:
    """A character sheet's starting characteristics and life (relic.base.components)."""

    name: str
    strength: int
    willpower: int
    cunning: int
    life: int

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "strength": self.strength, "willpower": self.willpower, "cunning": self.cunning,
                "life": self.life}


@dataclass(frozen=True)
class Scenario:
    """A scenario sheet (relic.scenario.anatomy): special rules for every player
    (relic.scenario.special-rules) and the Confrontation (relic.scenario.confrontation): a battle
    ``{"color", "value"}`` or a skill test ``{"skill", "target"}`` the player must win."""

    name: str
    special: tuple[Effect, ...] = ()
    confrontation: tuple[str, str, int] = ("battle", "red", 8)  # (battle|test, colour, value)

    def to_json(self) -> dict[str, Any]:
        kind, color, value = self.confrontation
        conf = ({"kind": "battle", "color": color, "value": value} if kind == "battle"
                else {"kind": "test", "skill": CHARACTERISTIC[color], "target": value})
        return {"name": self.name, "special": [e.to_json() for e in self.special], "confrontation": conf}


@dataclass
class Pool:
    """Card, character and scenario definitions by code."""

    cards: dict[str, Card] = field(default_factory=dict)
    characters: dict[str, Character] = field(default_factory=dict)
    scenarios: dict[str, Scenario] = field(default_factory=dict)
    # the index of each table's names (judge.games.cardnames.NameIndexes), built when a log first names one
    names: dict[str, Any] = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.names = {}  # set here too: a compiled dataclass does not set init=False defaults

    def get(self, code: str) -> Card | None:
        return self.cards.get(code)

    def with_cards(self, extra: Mapping[str, Card]) -> Pool:
        return Pool({**self.cards, **extra}, self.characters, self.scenarios) if extra else self


# -- reading definitions ---------------------------------------------------------------------
def _int(raw: Any, path: str, faults: Faults, lo: int = 0, hi: int = MAX_VALUE) -> int:
    if type(raw) is not int or not lo <= raw <= hi:
        faults.append((path, Msg(N_("a whole number from {lo} to {hi}"), lo=lo, hi=hi)))
        return lo
    return raw


def _keys(raw: Mapping[str, Any], known: tuple[str, ...], path: str, where: str, faults: Faults) -> None:
    from judge.games.inputs import escape, unknown_key

    for key in raw:
        if key not in known:
            faults.append((f"{path}/{escape(key)}", unknown_key(key, known, where)))


def read_effect(raw: Any, path: str, faults: Faults) -> Effect:
    """An effect: an object of a known kind, or anything else kept as text (not implemented)."""
    if isinstance(raw, str):
        return Effect(kind="text", text=raw)
    if not isinstance(raw, dict):
        faults.append((path, Msg(N_("an effect is an object {\"kind\", \"timing\", \"window\", ...} or its text"))))
        return Effect(kind="text")
    kind = raw.get("kind")
    if not isinstance(kind, str) or kind not in EFFECT_KINDS:
        text = raw.get("text") if isinstance(raw.get("text"), str) else json.dumps(raw, sort_keys=True)
        return Effect(kind=kind if isinstance(kind, str) and kind else "text", text=str(text))
    _keys(raw, EFFECT_KEYS, path, N_("an effect"), faults)
    timing = raw.get("timing", "during")
    if timing not in TIMINGS:
        faults.append((f"{path}/timing", Msg(N_("'timing' is one of {known}"), known=", ".join(TIMINGS))))
        timing = "during"
    window = raw.get("window", "turn")
    if window not in WINDOWS:
        faults.append((f"{path}/window", Msg(N_("'window' is one of {known}"), known=", ".join(WINDOWS))))
        window = "turn"
    value = 0
    if "value" in EFFECT_KINDS[kind]:
        value = _int(raw.get("value"), f"{path}/value", faults, -MAX_VALUE)
    typ = raw.get("type")
    if "type" in EFFECT_KINDS[kind] and not isinstance(typ, str):
        faults.append((f"{path}/type", Msg(N_("'type' names the type of card to discard (e.g. \"Power\", \"any\")"))))
        typ = "any"
    charge = raw.get("charge", False)
    if not isinstance(charge, bool):
        faults.append((f"{path}/charge", Msg(N_("'charge' is true when using the effect spends a charge token"))))
        charge = False
    return Effect(kind=kind, timing=str(timing), window=str(window), charge=charge, value=value,
                  type=typ if isinstance(typ, str) else None, text=str(raw.get("text", "")))


def read_card(code: str, raw: Any, path: str, faults: Faults) -> Card | None:
    if not CODE.match(code):
        faults.append((path, Msg(N_("a card code is lowercase letters, digits and dashes: {code}"), code=repr(code))))
        return None
    if not isinstance(raw, dict):
        faults.append((path, Msg(N_("a card is an object with name, class, type, ..."))))
        return None
    _keys(raw, CARD_KEYS, path, N_("a card"), faults)
    for key in ("name", "class", "type"):
        if not isinstance(raw.get(key), str) or not raw[key]:
            faults.append((f"{path}/{key}", Msg(N_("'{key}' is a non-empty string"), key=key)))
    influence = _int(raw["influence"], f"{path}/influence", faults) if "influence" in raw else None
    charges = _int(raw.get("charges", 0), f"{path}/charges", faults)
    bonuses: list[Bonus] = []
    raw_bonuses = raw.get("bonuses", [])
    if not isinstance(raw_bonuses, list):
        faults.append((f"{path}/bonuses", Msg(N_("'bonuses' is a list of {\"kind\", \"color\", \"value\"}"))))
        raw_bonuses = []
    for i, b in enumerate(raw_bonuses):
        at = f"{path}/bonuses/{i}"
        if not isinstance(b, dict):
            faults.append((at, Msg(N_("a bonus is an object {\"kind\", \"color\", \"value\"}"))))
            continue
        _keys(b, BONUS_KEYS, at, N_("a bonus"), faults)
        kind, color = b.get("kind"), b.get("color")
        if kind not in BONUS_KINDS:
            faults.append((f"{at}/kind", Msg(N_("'kind' is skill (a plain circle) or battle (a spiked circle)"))))
        # relic.bonuses.skill-colors: no gray skill bonus (an open question of the seed; the
        # reference says gray skill bonuses came with an expansion)
        allowed = COLORS if kind == "battle" else COLORS[:3]
        if color not in allowed:
            faults.append((f"{at}/color", Msg(N_("a {kind} bonus's colour is one of {known}"), kind=kind,
                                                 known=", ".join(allowed))))
        value = _int(b.get("value"), f"{at}/value", faults, 1)
        charge = b.get("charge", False) is True
        bonuses.append(Bonus(str(kind), str(color), value, charge))
    effect = read_effect(raw["effect"], f"{path}/effect", faults) if "effect" in raw else None
    battle = None
    if "battle" in raw:
        bt = raw["battle"]
        if not isinstance(bt, dict) or not isinstance(bt.get("color"), str) or bt["color"] not in CHARACTERISTIC:
            faults.append((f"{path}/battle",
                           Msg(N_("an enemy's 'battle' is {\"color\": red|blue|yellow, \"value\": n}"))))
        else:
            battle = (str(bt["color"]), _int(bt.get("value"), f"{path}/battle/value", faults))
    penalty = read_effect(raw["penalty"], f"{path}/penalty", faults) if "penalty" in raw else None
    number = _int(raw["number"], f"{path}/number", faults, 1, 6) if "number" in raw else None
    return Card(code=code, name=str(raw.get("name", "")), cls=str(raw.get("class", "")), type=str(raw.get("type", "")),
                influence=influence, charges=charges, bonuses=tuple(bonuses), effect=effect, battle=battle,
                penalty=penalty, number=number, text=str(raw.get("text", "")))


def read_cards(raw: Any, path: str, faults: Faults) -> dict[str, Card]:
    if not isinstance(raw, dict):
        faults.append((path, Msg(N_("'cards' maps a card code to its definition"))))
        return {}
    out: dict[str, Card] = {}
    for code, entry in raw.items():
        card = read_card(code, entry, f"{path}/{code}", faults)
        if card is not None:
            out[code] = card
    return out


def read_character(raw: Any, path: str, faults: Faults) -> Character:
    if not isinstance(raw, dict):
        faults.append((path,
                       Msg(N_("a character is an object {\"name\", \"strength\", \"willpower\", \"cunning\", "
                              "\"life\"}"))))
        return Character("", 1, 1, 1, 1)
    _keys(raw, CHARACTER_KEYS, path, N_("a character"), faults)
    if not isinstance(raw.get("name"), str):
        faults.append((f"{path}/name", Msg(N_("'name' is a string"))))
    # relic.base.levels: characteristics 1-12, life up to 12
    s, w, c, life = (_int(raw.get(k), f"{path}/{k}", faults, 1, 12) for k in (*SKILLS, "life"))
    return Character(str(raw.get("name", "")), s, w, c, life)


def read_scenario(raw: Any, path: str, faults: Faults) -> Scenario:
    if not isinstance(raw, dict):
        faults.append((path, Msg(N_("a scenario is an object {\"name\", \"special\", \"confrontation\"}"))))
        return Scenario("")
    _keys(raw, SCENARIO_KEYS, path, N_("a scenario"), faults)
    special_raw = raw.get("special", [])
    if not isinstance(special_raw, list):
        faults.append((f"{path}/special", Msg(N_("'special' is a list of effects"))))
        special_raw = []
    special = tuple(read_effect(e, f"{path}/special/{i}", faults) for i, e in enumerate(special_raw))
    conf = raw.get("confrontation")
    at = f"{path}/confrontation"
    confrontation: tuple[str, str, int] = ("battle", "red", 1)
    if isinstance(conf, dict) and conf.get("kind") == "battle" and conf.get("color") in ("red", "blue", "yellow"):
        confrontation = ("battle", str(conf["color"]), _int(conf.get("value"), f"{at}/value", faults))
    elif isinstance(conf, dict) and conf.get("kind") == "test" and conf.get("skill") in SKILLS:  # (a tuple)
        confrontation = ("test", COLOR_OF[str(conf["skill"])], _int(conf.get("target"), f"{at}/target", faults))
    else:
        faults.append((at, Msg(N_("the Confrontation is {\"kind\": \"battle\", \"color\", \"value\"} or "
                                  "{\"kind\": \"test\", \"skill\", \"target\"}"))))
    return Scenario(str(raw.get("name", "")), special, confrontation)


@lru_cache(maxsize=1)
def default_pool() -> Pool:
    """The project's own definitions (``data/cards.json``): every card the seed names in an example
    and a small set for self-play. Their printed numbers are the project's (relic.project.card-values)."""
    text = (resources.files("judge.games.relic") / "data" / "cards.json").read_text(encoding="utf-8")
    data = json.loads(text)
    faults: Faults = []
    cards = read_cards(data["cards"], "/cards", faults)
    characters = {k: read_character(v, f"/characters/{k}", faults) for k, v in data["characters"].items()}
    scenarios = {k: read_scenario(v, f"/scenarios/{k}", faults) for k, v in data["scenarios"].items()}
    if faults:
        raise ValueError(f"judge/games/relic/data/cards.json: {faults}")
    return Pool(cards, characters, scenarios)
