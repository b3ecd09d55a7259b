"""SW TCG's steps as typed actions (STYLE.md section 3): one immutable class per verb, each writing
itself back to the log's JSON (``parse_step(a.to_json())`` gives ``a`` again).

    deploy  {card}                 setup: a unit from hand (its code); later: a built or retreated
                                   unit of the build zone (its reference) into its arena, or a
                                   complete Location into its arena
    complete {card, option?, target?}   complete a Mission of the build zone: its effect happens
    equip   {card, onto}           Equip: a complete Equipment of the build zone, or one on a unit,
                                   onto one of one's units (its Equip cost paid)
    build   {card, counters}       build counters on a card: a code from hand starts it, a reference
                                   adds to it
    pilot   {card, onto}           move a pilot onto a unit, or off to "character" / "build"
    retreat {card}                 retreat an untapped unit (or a pilot alone) in the retreat step
    attack  {card, target}         the unit whose turn it is attacks an enemy unit in its arena
    skip    {card}                 the unit goes through its turn without attacking (it taps)
    play    {card, option?, target?, pay?, dice?}   a battle card from hand, in a chance to play
    use     {ability, option?, target?, pay?, to?, amount?, dice?}   an activated ability
                                   (``<unit>:<keyword>``, ``<unit>:play`` or ``<unit>:play.2``)
    prevent {ability, amount?, to?, target?}   Evade, Deflect or Prevent in a chance to prevent damage
    reroll  {ability, dice}        Lucky (or another reroll) in a chance to reroll: dice positions
    pass    {}                     pass the chance, or end one's build step, retreat step or setup

``parse_step`` finds every structural fault of a step with its JSON Pointer (a malformed log,
never a rule violation: ``judge.games.swtcg.engine.check`` says which rule a step breaks).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, ClassVar, Final

from i18n import N_, Msg
from judge.games.inputs import COMMON_KEYS, Faults, JsonValue, check_annotations, escape, nearest, unknown_key
from judge.games.swtcg.model import CardPool

VERBS: Final = ("deploy", "build", "pilot", "retreat", "attack", "skip", "play", "use", "prevent", "reroll", "pass",
                "complete", "equip")
REF: Final = re.compile(r"^[A-Za-z][A-Za-z0-9_-]{0,31}\.[A-Za-z0-9_-]{1,40}(\.[0-9]{1,3})?$")
ABILITY: Final = re.compile(r"^(?P<ref>[A-Za-z][A-Za-z0-9_-]{0,31}\.[A-Za-z0-9_-]{1,40}(\.[0-9]{1,3})?)"
                            r":(?P<name>[a-z-]+)(\.(?P<n>[0-9]{1,2}))?(@(?P<grant>[A-Za-z0-9_.-]{1,80}))?$")
MAX_SMALL: Final = 99


class SwAction(JsonValue):
    """Base of the SW TCG actions: who takes it (``by``) and the verb. Each action is an immutable
    value (``Final`` attributes; the compiled engine refuses to set them again): plain classes
    rather than frozen dataclasses, for the compiled engine (see ``judge.kernel.core.Record`` for
    why). They compare, hash and print as the JSON they write (``JsonValue``)."""

    __slots__ = ("by",)
    verb: ClassVar[str] = ""

    def __init__(self, by: str | None) -> None:
        self.by: Final = by

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"by": self.by, "do": self.verb}
        for name, _, _ in KEYS[self.verb]:
            value = getattr(self, name)
            if value is None:
                continue
            out[name] = list(value) if isinstance(value, tuple) else value
        return out


class Deploy(SwAction):
    __slots__ = ("card",)
    verb: ClassVar[str] = "deploy"

    def __init__(self, by: str | None, card: str = "") -> None:
        super().__init__(by)
        self.card: Final = card


class Build(SwAction):
    __slots__ = ("card", "counters")
    verb: ClassVar[str] = "build"

    def __init__(self, by: str | None, card: str = "", counters: int = 1) -> None:
        super().__init__(by)
        self.card: Final = card
        self.counters: Final = counters


class Pilot(SwAction):
    __slots__ = ("card", "onto")
    verb: ClassVar[str] = "pilot"

    def __init__(self, by: str | None, card: str = "", onto: str = "") -> None:
        super().__init__(by)
        self.card: Final = card
        self.onto: Final = onto


class Retreat(SwAction):
    __slots__ = ("card",)
    verb: ClassVar[str] = "retreat"

    def __init__(self, by: str | None, card: str = "") -> None:
        super().__init__(by)
        self.card: Final = card


class Attack(SwAction):
    __slots__ = ("card", "target")
    verb: ClassVar[str] = "attack"

    def __init__(self, by: str | None, card: str = "", target: str = "") -> None:
        super().__init__(by)
        self.card: Final = card
        self.target: Final = target


class Skip(SwAction):
    __slots__ = ("card",)
    verb: ClassVar[str] = "skip"

    def __init__(self, by: str | None, card: str = "") -> None:
        super().__init__(by)
        self.card: Final = card


class PlayCard(SwAction):
    __slots__ = ("card", "option", "target", "pay", "dice")
    verb: ClassVar[str] = "play"

    def __init__(self, by: str | None, card: str = "", option: int | None = None, target: str | None = None,
                 pay: int | None = None, dice: tuple[int, ...] | None = None) -> None:
        super().__init__(by)
        self.card: Final = card
        self.option: Final = option
        self.target: Final = target
        self.pay: Final = pay
        self.dice: Final = dice


class Use(SwAction):
    __slots__ = ("ability", "option", "target", "pay", "to", "amount", "dice")
    verb: ClassVar[str] = "use"

    def __init__(self, by: str | None, ability: str = "", option: int | None = None, target: str | None = None,
                 pay: int | None = None, to: str | None = None, amount: int | None = None,
                 dice: tuple[int, ...] | None = None) -> None:
        super().__init__(by)
        self.ability: Final = ability
        self.option: Final = option
        self.target: Final = target
        self.pay: Final = pay
        self.to: Final = to
        self.amount: Final = amount
        self.dice: Final = dice


class Prevent(SwAction):
    __slots__ = ("ability", "amount", "to", "target")
    verb: ClassVar[str] = "prevent"

    def __init__(self, by: str | None, ability: str = "", amount: int | None = None, to: str | None = None,
                 target: str | None = None) -> None:
        super().__init__(by)
        self.ability: Final = ability
        self.amount: Final = amount
        self.to: Final = to
        self.target: Final = target


class Reroll(SwAction):
    __slots__ = ("ability", "dice")
    verb: ClassVar[str] = "reroll"

    def __init__(self, by: str | None, ability: str = "", dice: tuple[int, ...] = ()) -> None:
        super().__init__(by)
        self.ability: Final = ability
        self.dice: Final = dice


class Pass(SwAction):
    __slots__ = ()
    verb: ClassVar[str] = "pass"


class Complete(SwAction):
    __slots__ = ("card", "option", "target", "pay")
    verb: ClassVar[str] = "complete"

    def __init__(self, by: str | None, card: str = "", option: int | None = None, target: str | None = None,
                 pay: int | None = None) -> None:
        super().__init__(by)
        self.card: Final = card
        self.option: Final = option
        self.target: Final = target
        self.pay: Final = pay


class Equip(SwAction):
    __slots__ = ("card", "onto")
    verb: ClassVar[str] = "equip"

    def __init__(self, by: str | None, card: str = "", onto: str = "") -> None:
        super().__init__(by)
        self.card: Final = card
        self.onto: Final = onto


CLASSES: Final[dict[str, type[SwAction]]] = {c.verb: c for c in (Deploy, Build, Pilot, Retreat, Attack, Skip, PlayCard,
                                                                  Use, Prevent, Reroll, Pass, Complete, Equip)}
# each verb's keys: (name, kind, required); kinds: card (a code or a reference), ref, ability, onto,
# int (a small whole number), dice (a list of small whole numbers)
KEYS: Final[dict[str, tuple[tuple[str, str, bool], ...]]] = {
    "deploy": (("card", "card", True),),
    "build": (("card", "card", True), ("counters", "int", True)),
    "pilot": (("card", "ref", True), ("onto", "onto", True)),
    "retreat": (("card", "ref", True),),
    "attack": (("card", "ref", True), ("target", "ref", True)),
    "skip": (("card", "ref", True),),
    "play": (("card", "card", True), ("option", "int", False), ("target", "card", False), ("pay", "int", False),
             ("dice", "dice", False)),
    "use": (("ability", "ability", True), ("option", "int", False), ("target", "card", False),
            ("pay", "int", False), ("to", "ref", False), ("amount", "int", False), ("dice", "dice", False)),
    "prevent": (("ability", "ability", True), ("amount", "int", False), ("to", "ref", False),
                ("target", "ref", False)),
    "reroll": (("ability", "ability", True), ("dice", "dice", True)),
    "pass": (),
    "complete": (("card", "ref", True), ("option", "int", False), ("target", "card", False), ("pay", "int", False)),
    "equip": (("card", "ref", True), ("onto", "ref", True)),
}
CODE: Final = re.compile(r"^[A-Za-z0-9_-]{1,40}$")


def is_ref(text: str, known: dict[str, bool]) -> bool:
    """Whether ``text`` is a card reference (``REF``), found once per string (``known``: the answers so
    far, kept with the card pool, ``Interned.refs``: the module keeps none); emptied when it holds
    MAX_SOUND."""
    found = known.get(text)
    if found is None:
        if len(known) >= MAX_SOUND:
            known.clear()
        found = known[text] = REF.match(text) is not None
    return found


# the keys a step of each verb may have (its own and the common ones), made once
KNOWN_KEYS: Final[dict[str, frozenset[str]]] = {verb: frozenset({name for name, _, _ in spec} | set(COMMON_KEYS))
                                                for verb, spec in KEYS.items()}


# the keys a step of each verb may have (KNOWN_KEYS), each with 1 for those ``check_annotations`` reads
# (the inputs are read elsewhere), else 0
_ROLES: Final[dict[str, dict[str, int]]] = {
    verb: {key: int(key in ("note", "dispute", "expect")) for key in known} for verb, known in KNOWN_KEYS.items()}
MAX_SOUND: Final = 8192


def parse_step(step: Any, path: str, players: Sequence[str], cards: Any) -> tuple[SwAction | None, Faults]:
    """One step as a typed action, or every fault found in it."""
    if type(step) is dict:
        action = _parse_sound(step, players, cards)
        if action is not None:
            return action, []
    return _parse_step(step, path, players, cards)


# the most JSON values a step ``quick_step`` reads holds below it, when it has none of the logged inputs
# and annotations: by, do and its verb's own keys, one a list of at most 12 dice (``_check``)
# (judge.games.base.Game.quick_nodes)
QUICK_NODES: Final = 2 + max(len(spec) for spec in KEYS.values()) + 12


def quick_step(step: Any, players: Sequence[str], cards: Any) -> SwAction | None:
    """``parse_step``'s action for a step read at once with no fault (``_parse_sound``), else None: a
    log's reader asks this first, and makes the step's JSON Pointer and calls ``parse_step`` only for
    the other steps (judge.games.base, replays.format.parse_log)."""
    return _parse_sound(step, players, cards) if type(step) is dict else None


def _parse_sound(step: dict[str, Any], players: Sequence[str], cards: Any) -> SwAction | None:
    """``parse_step``'s action for a step with no fault, made with the values in the order its class
    takes them; None when the step may have one (``_parse_step`` then finds it, or makes the action).
    A step with no key but ``by``, ``do`` and its verb's own (the commonest) has its keys told by their
    count; the others' keys are each looked up (the inputs, the annotations, which must be sound)."""
    by = step.get("by")
    verb = step.get("do")
    if type(by) is not str or type(verb) is not str or by not in players:
        return None
    spec = KEYS.get(verb)
    if spec is None or not isinstance(cards, CardPool):
        return None
    # the values ``_check`` found sound, by kind, kept with the card pool they are sound for
    # (``Interned.sound``, an attribute: a code or a reference sound for one pool may not be for
    # another, or for the same pool once a card is added); each emptied when it holds MAX_SOUND
    sound_sets = cards.interned.sound
    args: list[Any] = []
    present = 2  # (by and do)
    size = len(step)
    for name, kind, required in spec:
        if present == size:  # (every key of the step counted already: this one is not there)
            if required:
                return None
            args.append(None)
            continue
        value = step.get(name)
        if value is None:
            if required or name in step:
                return None
            args.append(None)
            continue
        present += 1
        if kind == "int":
            if type(value) is not int or not 0 <= value <= MAX_SMALL:
                return None
        elif kind == "dice":
            if _check(kind, value, cards) is not None:
                return None
            value = tuple(value)
        else:
            if type(value) is not str:
                return None
            sound = sound_sets[kind]
            if value not in sound:
                if _check(kind, value, cards) is not None:
                    return None
                if len(sound) >= MAX_SOUND:
                    sound.clear()
                sound.add(value)
        args.append(value)
    if len(step) != present:  # other keys: each one a step of this verb may have, the annotations sound
        roles = _ROLES[verb]
        annotated = False
        for key in step:
            role = roles.get(key)
            if role is None:
                return None
            if role:
                annotated = True
        if annotated:
            faults: Faults = []
            check_annotations(step, "", faults)
            if faults:
                return None
    return _make(verb, by, args)


def plain_setup(players: list[Any], setup: Any, cards: Any) -> bool:
    """Whether ``names.setup_codes`` would give the players' entries and the setup back as they are,
    without a fault, told at a glance: each player's ``deck`` and each of the setup's ``decks`` only
    codes of the pool (or ``?``), and no ``position``. False also when it cannot tell at a glance (then
    the log's reader asks ``setup_codes``: replays.format.parse_log). Compiled, where ``setup_codes``
    is interpreted (tests/judge/swtcg/test_plain_names.py compares the two)."""
    if not isinstance(cards, CardPool) or not isinstance(setup, dict) or "position" in setup:
        return False
    table = cards.cards
    for p in players:
        if isinstance(p, dict) and not _plain_codes(p.get("deck"), table):
            return False
    decks = setup.get("decks")
    if isinstance(decks, dict):
        for deck in decks.values():
            if not _plain_codes(deck, table):
                return False
    return True


def _plain_codes(value: Any, table: dict[str, Any]) -> bool:
    """Whether ``names`` keeps a list of codes as it is (``_Names.cs``: anything but a list too)."""
    if not isinstance(value, list):
        return True
    for code in value:
        if type(code) is not str or (code not in table and code != _UNKNOWN):
            return False
    return True


_UNKNOWN: Final = "?"  # (state.UNKNOWN: a card nobody knows)


def plain_answers(step: dict[str, Any], players: Sequence[str], cards: Any) -> bool:
    """Whether ``names.answer_codes`` would give ``step`` back as it is, told at a glance: each of its
    ``choices`` answers a boolean, a number or None, a player, a code or a reference written with a
    code, or a flat list of them, and it has no expected state (``cardnames.Rewrite.answers`` would
    change nothing). False also when it cannot tell (then the log's reader asks ``answer_codes``:
    replays.format.parse_log). Compiled, where ``answer_codes`` is interpreted
    (tests/judge/swtcg/test_plain_names.py holds the two to each other)."""
    if not isinstance(cards, CardPool):
        return False
    table = cards.cards
    chosen = step.get("choices")
    if isinstance(chosen, list):
        for choice in chosen:
            if not isinstance(choice, dict) or "answer" not in choice:
                continue
            given = choice["answer"]
            if isinstance(given, list):
                for one in given:
                    if not _plain_answer(one, players, table):
                        return False
            elif not _plain_answer(given, players, table):
                return False
    expect = step.get("expect")  # an expected state is read by answer_codes
    return not (isinstance(expect, dict) and "state" in expect)


def _plain_answer(a: Any, players: Sequence[str], table: dict[str, Any]) -> bool:
    """Whether ``Rewrite.answer`` keeps ``a`` (not in a list) as it is: anything but a string, a list
    or an object; a player, a code (or ``?``) or a reference whose code the pool has (``_Names``'
    ``is_ref``)."""
    if isinstance(a, str):
        return a in players or a in table or a == _UNKNOWN or (REF.match(a) is not None and a.split(".")[1] in table)
    return not isinstance(a, (list, dict))


def _make(verb: str, by: str, a: list[Any]) -> SwAction:
    """The action of ``verb`` by ``by`` with its keys' values ``a``, in ``KEYS``' order (None: left out)."""
    if verb == "pass":
        return Pass(by)
    if verb == "attack":
        return Attack(by, a[0], a[1])
    if verb == "play":
        return PlayCard(by, a[0], a[1], a[2], a[3], a[4])
    if verb == "deploy":
        return Deploy(by, a[0])
    if verb == "build":
        return Build(by, a[0], a[1])
    if verb == "use":
        return Use(by, a[0], a[1], a[2], a[3], a[4], a[5], a[6])
    if verb == "pilot":
        return Pilot(by, a[0], a[1])
    if verb == "retreat":
        return Retreat(by, a[0])
    if verb == "skip":
        return Skip(by, a[0])
    if verb == "prevent":
        return Prevent(by, a[0], a[1], a[2], a[3])
    if verb == "reroll":
        return Reroll(by, a[0], a[1])
    if verb == "complete":
        return Complete(by, a[0], a[1], a[2], a[3])
    return Equip(by, a[0], a[1])


def _parse_step(step: Any, path: str, players: Sequence[str], cards: Any) -> tuple[SwAction | None, Faults]:
    faults: Faults = []
    if not isinstance(step, dict):
        return None, [(path, Msg(N_("a step is an object with 'by' and 'do'")))]
    by = step.get("by")
    if not isinstance(by, str) or by not in players:
        faults.append((f"{path}/by", Msg(N_("'by' must name a player of this log ({players})"),
                                         players=", ".join(players))))
    verb = step.get("do")
    if not isinstance(verb, str) or verb not in CLASSES:
        faults.append((f"{path}/do", Msg(N_("'do' must be one of {known}{near}"), known=", ".join(VERBS),
                                         near=nearest(verb, VERBS))))
        return None, faults
    spec = KEYS[verb]
    known = KNOWN_KEYS[verb]
    for key in step:
        if key not in known:
            faults.append((f"{path}/{escape(key)}", unknown_key(key, known, Msg(N_("a '{verb}' step"), verb=verb))))
    check_annotations(step, path, faults)
    values: dict[str, Any] = {}
    for name, kind, required in spec:
        if name not in step:
            if required:
                faults.append((f"{path}/{name}", Msg(N_("a '{verb}' step needs '{name}'"), verb=verb, name=name)))
            continue
        value = step[name]
        problem = _check(kind, value, cards)
        if problem:
            faults.append((f"{path}/{name}", problem))
            continue
        values[name] = tuple(value) if kind == "dice" else value
    if faults:
        return None, faults
    return CLASSES[verb](by=by, **values), []


def _check(kind: str, value: Any, cards: Any) -> str | None:
    if kind == "int":
        if type(value) is not int or not 0 <= value <= MAX_SMALL:
            return Msg(N_("a whole number from 0 to {n}"), n=MAX_SMALL)
        return None
    if kind == "dice":
        if not isinstance(value, list) or len(value) > 12 or not all(type(v) is int and 0 <= v < 99 for v in value):
            return Msg(N_("a list of dice positions (whole numbers from 0)"))
        if len(set(value)) != len(value):
            return Msg(N_("each die once"))
        return None
    if not isinstance(value, str):
        return Msg(N_("a string"))
    if kind == "ref":
        return _named(value, cards) if REF.match(value) else \
            Msg(N_("'{value}' is not a card reference such as p1.SW001"), value=value)
    if kind == "onto":
        return None if value in ("character", "build") else _named(value, cards) if REF.match(value) else \
            Msg(N_("a unit's reference, 'character' or 'build'"))
    if kind == "ability":
        return _named(value.partition(":")[0], cards) if ABILITY.match(value) else \
            Msg(N_("'{value}' is not an ability such as p1.SW001:evade"), value=value)
    # a card: a code of the pool, or a reference to a card in play
    if REF.match(value):
        return _named(value, cards)
    if CODE.match(value) and value in cards:
        return None
    near = nearest(value, [c.code for c in cards]) if CODE.match(value) else ""
    return Msg(N_("'{value}' is neither a card code nor a reference such as p1.SW001{near}"), value=value, near=near)


def _named(ref: str, cards: Any) -> str | None:
    """None for a reference ``p1.CODE`` (``p1.CODE.2``); a fault for one that names its card by a
    one-word name (``p1.Yoda``), which the log's reader then writes with the code
    (judge.games.swtcg.names). A reference to no card of the pool and no name is left for the
    replay, which says it is not in play."""
    if cards is None or ref.split(".")[1] in cards.cards:
        return None
    code = ref.split(".")[1]
    from judge.games.swtcg.names import card_names

    match = card_names(cards).index.match(code)
    if match.code is None and not match.ambiguous:
        return None
    return Msg(N_("'{value}' is not a card reference such as p1.SW001"), value=ref)
