"""Destiny's steps as typed actions (STYLE.md section 3): each step of a log is parsed once into a
frozen dataclass (``Play``, ``Activate``, ``Resolve``, ``Reroll``, ``Use``, ``Claim``, ``Pass``,
``Upkeep``) that writes itself back to the log's JSON (``to_json``; ``parse(a.to_json())`` gives
``a`` again).

``parse_step`` finds every structural fault of a step (a malformed log, never a rule violation):
an unknown key (with the nearest known name), a misspelt verb, a wrongly typed value, a
reference that cannot name a card or die (an unknown card code, a player not in the log, a die
number no card has), each with its JSON Pointer and what was expected.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Final

from i18n import N_, NP_, Msg
from judge.games.destiny.model import CardPool
from judge.games.destiny.refs import Ref, is_code, parse_ref
from judge.games.destiny.state import UNKNOWN
from judge.games.inputs import (
    ANNOTATION_KEYS,
    COMMON_KEYS,
    INPUT_KEYS,
    Faults,
    JsonValue,
    check_annotations,
    escape,
    got,
    nearest,
    unknown_key,
)
from judge.games.jsonbounds import at_most
from judge.limits import MAX_IN_PLAY, MAX_ZONE_CARDS

VERBS = ("play", "activate", "resolve", "reroll", "use", "claim", "pass", "upkeep")
MAX_DICE_PER_CARD = 2  # an elite character's two dice (destiny.characters.point-value); other cards have one
ENTRY_KEYS = ("die", "target", "modifies", "turn", "split", "die_value", "remove")
ENTRY_KEY_SET = frozenset(ENTRY_KEYS)


class DieEntry(JsonValue):
    """A die named in a step, with what its symbol or the resolving card needs: ``target``,
    ``modifies`` (the base die of a modifier), ``turn`` (focus: die -> face), ``split`` (indirect
    damage: character -> amount), ``die_value`` (a die whose value is dealt), ``remove`` (a die to
    remove). Immutable (``Final``)."""

    __slots__ = ENTRY_KEYS

    def __init__(self, die: str, target: str | None = None, modifies: str | None = None,
                 turn: dict[str, Any] | None = None, split: dict[str, Any] | None = None,
                 die_value: str | None = None, remove: str | None = None) -> None:
        self.die: Final = die
        self.target: Final = target
        self.modifies: Final = modifies
        self.turn: Final = turn  # read-only once parsed, as the whole entry
        self.split: Final = split
        self.die_value: Final = die_value
        self.remove: Final = remove

    def get(self, key: str) -> Any:
        """A named part, by its log key (None when absent): cards read a target by name."""
        return getattr(self, key, None) if key in ENTRY_KEY_SET else None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"die": self.die}
        for key in ENTRY_KEYS[1:]:
            value = getattr(self, key)
            if value is not None:
                out[key] = dict(value) if isinstance(value, Mapping) else value
        return out


class DestinyAction(JsonValue):
    """Base of the Destiny actions: who takes it (``by``; None only for the upkeep record) and the
    verb. Each action is an immutable value (``Final`` attributes): plain classes rather than
    frozen dataclasses, for the compiled engine (see ``judge.kernel.core.Record`` for why)."""

    __slots__ = ("by",)
    verb: ClassVar[str] = ""
    # (each action's __init__ sets ``by`` itself, rather than call this one: a Python call less at
    # every step read; not ``Final`` therefore, though no action changes it either)

    def __init__(self, by: str | None) -> None:
        self.by: str | None = by

    def get(self, key: str) -> Any:
        """A named part, by its log key (None when absent): cards read a written target by name."""
        return getattr(self, key, None) if key in KEYS.get(self.verb, ()) else None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.by is not None:
            out["by"] = self.by
        out["do"] = self.verb
        for key in KEYS[self.verb]:
            value = getattr(self, key)
            if value is None:
                continue
            if key == "dice" and value and isinstance(value[0], DieEntry):
                out[key] = [d.to_json() for d in value]
            elif isinstance(value, tuple):
                out[key] = list(value)
            elif isinstance(value, Mapping):
                out[key] = {k: list(v) for k, v in value.items()}
            else:
                out[key] = value
        return out


class Play(DestinyAction):
    __slots__ = ("card", "on", "replaces", "target", "dice")
    verb: ClassVar[str] = "play"

    def __init__(self, by: str | None, card: str = "", on: str | None = None, replaces: str | None = None,
                 target: str | None = None, dice: tuple[DieEntry, ...] | None = None) -> None:
        self.by = by
        self.card: Final = card
        self.on: Final = on
        self.replaces: Final = replaces
        self.target: Final = target
        self.dice: Final = dice


class Activate(DestinyAction):
    __slots__ = ("card",)
    verb: ClassVar[str] = "activate"

    def __init__(self, by: str | None, card: str = "") -> None:
        self.by = by
        self.card: Final = card


class Resolve(DestinyAction):
    __slots__ = ("dice",)
    verb: ClassVar[str] = "resolve"

    def __init__(self, by: str | None, dice: tuple[DieEntry, ...] = ()) -> None:
        self.by = by
        self.dice: Final = dice


class Reroll(DestinyAction):
    __slots__ = ("discard", "dice")
    verb: ClassVar[str] = "reroll"

    def __init__(self, by: str | None, discard: str = "", dice: tuple[str, ...] = ()) -> None:
        self.by = by
        self.discard: Final = discard
        self.dice: Final = dice


class Use(DestinyAction):
    __slots__ = ("card", "ability", "target", "dice")
    verb: ClassVar[str] = "use"

    def __init__(self, by: str | None, card: str = "", ability: int | None = None, target: str | None = None,
                 dice: tuple[DieEntry, ...] | None = None) -> None:
        self.by = by
        self.card: Final = card
        self.ability: Final = ability
        self.target: Final = target
        self.dice: Final = dice


class Claim(DestinyAction):
    __slots__ = ("claim_ability", "target", "dice")
    verb: ClassVar[str] = "claim"

    def __init__(self, by: str | None, claim_ability: bool | None = None, target: str | None = None,
                 dice: tuple[DieEntry, ...] | None = None) -> None:
        self.by = by
        self.claim_ability: Final = claim_ability
        self.target: Final = target
        self.dice: Final = dice


class Pass(DestinyAction):
    __slots__ = ()
    verb: ClassVar[str] = "pass"


class Upkeep(DestinyAction):
    """The upkeep phase recorded as a step: who discards what (``discard``: player -> codes)."""

    __slots__ = ("discard",)
    verb: ClassVar[str] = "upkeep"

    def __init__(self, by: str | None = None, discard: dict[str, tuple[str, ...]] | None = None) -> None:
        self.by = by
        self.discard: Final = discard


# what a card hook may read a written target from: the step's action, or the die entry resolving
Written = DestinyAction | DieEntry | None


def written(where: Written, key: str) -> Any:
    """What the log wrote under ``key`` on a step or a die entry (None when nothing)."""
    return where.get(key) if where is not None else None


CLASSES: dict[str, type[DestinyAction]] = {"play": Play, "activate": Activate, "resolve": Resolve, "reroll": Reroll,
                                           "use": Use, "claim": Claim, "pass": Pass, "upkeep": Upkeep}
# the keys of each verb beside the ones every step may carry (judge.games.inputs.COMMON_KEYS)
KEYS: dict[str, tuple[str, ...]] = {
    "play": ("card", "on", "replaces", "target", "dice"),
    "activate": ("card",),
    "resolve": ("dice",),
    "reroll": ("discard", "dice"),
    "use": ("card", "ability", "target", "dice"),
    "claim": ("claim_ability", "target", "dice"),
    "pass": (),
    "upkeep": ("discard",),
}

KNOWN: dict[str, frozenset[str]] = {do: frozenset((*COMMON_KEYS, *keys)) for do, keys in KEYS.items()}
# the keys of a step without annotations (note, dispute, expect: checked by check_annotations)
KNOWN_PLAIN: dict[str, frozenset[str]] = {do: known - {"note", "dispute", "expect"} for do, known in KNOWN.items()}
QUICK_ENTRY_KEYS = frozenset(("die", "target", "modifies"))


# ====================================================================== parsing
class _Parser:
    def __init__(self, path: str, players: Sequence[str], cards: Any):
        self.path = path
        self.players = players
        self.cards = cards
        # the pool's memos of what references and codes read as (None: no pool, read afresh)
        self.refs: dict[str, Ref | None] | None = cards.refs if isinstance(cards, CardPool) else None
        self.codes: dict[str, bool] | None = cards.codes if isinstance(cards, CardPool) else None
        self.faults: Faults = []

    def bad(self, sub: str, msg: str) -> None:
        self.faults.append((self.path + sub, msg))

    def code(self, value: Any, sub: str, what: str) -> str | None:
        if not isinstance(value, str) or not is_code(value, self.codes):
            self.bad(sub, Msg(N_("{what} must be a card code such as 05058{got}"), what=Msg(what),
                              got=got(value) if value is not None else ""))
            return None
        if self.cards is not None and value not in self.cards:
            self.bad(sub, Msg(N_("card {code} is not known to the engine{near}"), code=value,
                              near=nearest(value, self._codes())))
            return None
        return value

    def _codes(self) -> list[str]:
        table = getattr(self.cards, "cards", None)
        return list(table) if isinstance(table, dict) else []

    def sound(self, value: Any, die: bool | None) -> str | None:
        """``value`` when it is a reference that names something (the common case, checked at once,
        without building the JSON Pointer a fault would need), else None."""
        return _sound(value, die, self.players, self.cards, self.refs)

    def ref(self, value: Any, sub: str, what: str, die: bool | None = False) -> str | None:
        """A reference (``die``: True a die, False a card, None either) that can name something;
        else None, and the fault."""
        if _sound(value, die, self.players, self.cards, self.refs) is not None:
            return str(value)
        r = parse_ref(value, self.refs)
        example = "p1.05031/1" if die else "p1.05031"
        if r is None:
            if isinstance(value, str) and value in self.players and die is not True:
                return value  # a player, where a card or a player may be named (a target opponent)
            self.bad(sub, Msg(N_("{what} must be a die reference such as {example}{got}") if die else
                              N_("{what} must be a card reference such as {example}{got}"), what=Msg(what),
                              example=example, got=got(value) if isinstance(value, str) else ""))
            return None
        if die is True and r.die is None:
            self.bad(sub, Msg(N_("{what} must be a die reference such as {example}: write the die number after '/'"),
                              what=Msg(what), example=example))
            return None
        if die is False and r.die is not None:
            self.bad(sub, Msg(N_("{what} names a card, not a die: leave out '/{die}'"), what=Msg(what), die=r.die))
            return None
        if r.player not in self.players:
            self.bad(sub, Msg(N_("'{player}' in {value} is not a player of this log ({players}){near}"),
                              player=r.player, value=repr(value), players=", ".join(self.players),
                              near=nearest(r.player, self.players)))
            return None
        if self.cards is not None and r.code not in self.cards:
            self.bad(sub, Msg(N_("card {code} in {value} is not known to the engine{near}"), code=r.code,
                              value=repr(value), near=nearest(r.code, self._codes())))
            return None
        if r.die is not None and not 1 <= r.die <= MAX_DICE_PER_CARD:
            table = getattr(self.cards, "cards", None)
            card = table.get(r.code) if isinstance(table, dict) else None
            name = getattr(card, "name", None)  # (the card's name where the pool knows it: a judge reads names)
            self.bad(sub, Msg(N_("die {die} of {card}: a card has at most {n} dice, numbered from 1"), die=r.die,
                              card=f"{name} ({r.card})" if isinstance(name, str) and name else r.card,
                              n=MAX_DICE_PER_CARD))
            return None
        return str(value)

    def _part(self, entry: dict[str, Any], key: str, sub: str, i: int, die: bool | None) -> str | None:
        if key not in entry:
            return None
        value = entry[key]
        return self.sound(value, die) or self.ref(value, f"{sub}/{i}/{key}", f"'{key}'", die=die)

    def _map(self, entry: dict[str, Any], key: str, sub: str, i: int) -> dict[str, Any] | None:
        if key not in entry:
            return None
        value = entry[key]
        if not isinstance(value, dict):
            self.bad(f"{sub}/{i}/{key}", Msg(N_("'{key}' must be an object"), key=key))
            return None
        if len(value) > MAX_IN_PLAY:
            self.bad(f"{sub}/{i}/{key}", Msg(N_("'{key}' names {at_most}"), key=key,
                                             at_most=at_most("MAX_IN_PLAY", NP_("at most", "dice or characters"))))
            return None
        return dict(value)

    def entries(self, raw: Any, sub: str, required: bool) -> tuple[DieEntry, ...] | None:
        if not isinstance(raw, list) or (required and not raw):
            self.bad(sub, Msg(N_("'dice' must be a non-empty list of {\"die\": ..., \"target\": ...}")))
            return None
        if len(raw) > MAX_IN_PLAY:
            self.bad(sub, Msg(N_("'dice' names {at_most}"), at_most=at_most("MAX_IN_PLAY", NP_("at most", "dice"))))
            return None
        out = []
        for i, entry in enumerate(raw):
            if not isinstance(entry, dict):
                self.bad(f"{sub}/{i}", Msg(N_("each die entry must be an object with 'die'")))
                continue
            if not ENTRY_KEY_SET.issuperset(entry):
                for key in entry:
                    if key not in ENTRY_KEY_SET:
                        self.bad(f"{sub}/{i}/{escape(key)}", unknown_key(key, ENTRY_KEYS, N_("a die entry")))
            raw_die = entry.get("die")
            die = self.sound(raw_die, True) or self.ref(raw_die, f"{sub}/{i}/die", "'die'", die=True)
            if len(entry) == 1:
                if die is not None:
                    out.append(DieEntry(die))
                continue
            target = self._part(entry, "target", sub, i, None)
            die_value = self._part(entry, "die_value", sub, i, None)
            remove = self._part(entry, "remove", sub, i, None)
            modifies = self._part(entry, "modifies", sub, i, True)
            turn = self._map(entry, "turn", sub, i)
            split = self._map(entry, "split", sub, i)
            if die is not None:
                out.append(DieEntry(die, target, modifies, turn, split, die_value, remove))
        return tuple(out)


def parse_step(step: Any, path: str, players: Sequence[str], cards: Any = None,
               ) -> tuple[DestinyAction | None, Faults]:
    """One step of a log as a typed action, or its faults (JSON Pointer, message)."""
    if not isinstance(step, dict):
        return None, [(path, Msg(N_("a step must be a JSON object")))]
    quick = quick_step(step, players, cards)
    if quick is not None:
        return quick, []
    return _parse_full(step, path, players, cards)


def _parse_full(step: dict[str, Any], path: str, players: Sequence[str], cards: Any,
                ) -> tuple[DestinyAction | None, Faults]:
    """``parse_step``'s full reader, which words every fault (``_quick`` reads the same steps alike:
    tests/replays/test_typed_steps.py)."""
    do = step.get("do")
    by = step.get("by")
    p = _Parser(path, players, cards)
    if do not in VERBS:
        p.bad("/do", Msg(N_("'do' must be one of {known}{got}{near}"), known=", ".join(VERBS),
                         got=got(do) if do is not None else "", near=nearest(do, VERBS) if do is not None else ""))
        return None, p.faults
    known = KNOWN[do]
    if not known.issuperset(step):
        for key in step:
            if key not in known:
                p.bad(f"/{escape(key)}", unknown_key(key, known, Msg(N_("a {do} step"), do=do)))
    if do != "upkeep" or by is not None:
        if not isinstance(by, str):
            p.bad("/by", Msg(N_("'by' must name the player taking the step")))
            by = None
        elif by not in players:
            p.bad("/by", Msg(N_("'{by}' is not a player of this log ({players}){near}"), by=by,
                             players=", ".join(players), near=nearest(by, players)))
            by = None
    if do == "pass" or do == "activate":  # the commonest steps, read at once
        card = None
        if do == "activate":
            raw_card = step.get("card")
            card = p.sound(raw_card, False) or p.ref(raw_card, "/card", N_("'card' (a card in play)"))
        check_annotations(step, path, p.faults)
        if p.faults:
            return None, p.faults
        return (Pass(by) if do == "pass" else Activate(by, card or "")), []
    action: DestinyAction | None = None
    if do == "resolve":
        dice = p.entries(step.get("dice"), "/dice", required=True)
        action = Resolve(by, dice or ())
    elif do == "reroll":
        code = p.code(step.get("discard"), "/discard", N_("'discard' (the card discarded from hand)"))
        raw = step.get("dice")
        named: tuple[str, ...] = ()
        if not isinstance(raw, list):
            p.bad("/dice", Msg(N_("'dice' must be a list of die references")))
        elif len(raw) > MAX_IN_PLAY:
            p.bad("/dice", Msg(N_("'dice' names {at_most}"), at_most=at_most("MAX_IN_PLAY", NP_("at most", "dice"))))
        else:
            named = tuple(p.sound(d, True) or str(p.ref(d, f"/dice/{i}", N_("a die"), die=True))
                          for i, d in enumerate(raw))
        action = Reroll(by, code or "", named)
    elif do == "upkeep":
        action = Upkeep(by, _upkeep_discards(p, step, players) if "discard" in step else None)
    else:  # play, use, claim: the card, then what their abilities may read (a target, dice)
        code = on = replaces = card = None
        ability = None
        if do == "play":
            code = p.code(step.get("card"), "/card", "'card'")
            on = p.ref(step["on"], "/on", "'on'") if "on" in step else None
            replaces = p.ref(step["replaces"], "/replaces", "'replaces'") if "replaces" in step else None
        elif do == "use":
            card = p.ref(step.get("card"), "/card", N_("'card' (a card in play)"))
            if "ability" in step:
                ab = step["ability"]
                if not isinstance(ab, int) or isinstance(ab, bool) or not 1 <= ab <= 9:
                    p.bad("/ability", Msg(N_("'ability' is the number of the card's action ability, from 1")))
                else:
                    ability = ab
        target = None
        if "target" in step:
            target = p.sound(step["target"], None) or p.ref(step["target"], "/target", "'target'", die=None)
        dice_ = p.entries(step["dice"], "/dice", required=False) if "dice" in step else None
        if do == "play":
            action = Play(by, code or "", on, replaces, target, dice_)
        elif do == "use":
            action = Use(by, card or "", ability, target, dice_)
        else:
            claim_ability = None
            if "claim_ability" in step:
                if not isinstance(step["claim_ability"], bool):
                    p.bad("/claim_ability", Msg(N_("'claim_ability' is true or false")))
                else:
                    claim_ability = step["claim_ability"]
                    for key in ("target", "dice"):
                        if claim_ability is False and key in step:
                            p.bad(f"/{key}", Msg(N_("'{key}' answers the Claim ability, which "
                                                    "'claim_ability: false' declines"), key=key))
            action = Claim(by, claim_ability, target, dice_)
    check_annotations(step, path, p.faults)
    if p.faults:
        return None, p.faults
    return action, []


def _sound(value: Any, die: bool | None, players: Sequence[str], cards: Any,
           refs: dict[str, Ref | None] | None) -> str | None:
    """``value`` when it is a reference that names something, else None (``_Parser.sound``; ``refs``:
    the pool's memo, ``parse_ref``'s)."""
    r = refs.get(value) if refs is not None and type(value) is str else None  # (parse_ref's memo, inline)
    if r is None:
        r = parse_ref(value, refs)
    if r is not None and r.player in players and (cards is None or r.code in cards) and (
            (r.die is None and die is not True) or (r.die is not None and die is not False
                                                     and 1 <= r.die <= MAX_DICE_PER_CARD)):
        out: str = value  # (a string: parse_ref reads nothing else)
        return out
    return None


def _quick(step: dict[str, Any], path: str, players: Sequence[str], cards: Any) -> DestinyAction | None:
    """``quick_step`` (``path``: the step's JSON Pointer, which no fault it finds is worded with)."""
    return quick_step(step, players, cards)


# the own keys of each verb ``quick_step`` reads, at least (a play's card; a play on a character has
# ``on`` too, and its keys are counted in full); pass and claim have none. A step with no more keys
# has no input or annotation beside its own
QUICK_OWN_KEYS: Final = {"activate": 1, "use": 1, "resolve": 1, "play": 1, "reroll": 2}


# the most JSON values a step ``quick_step`` reads holds below it, when it has none of the logged inputs and
# annotations (INPUT_KEYS, ANNOTATION_KEYS): by, do and two keys of its own, one a list of at most
# MAX_IN_PLAY dice, each an object of QUICK_ENTRY_KEYS at most (judge.games.base.Game.quick_nodes)
QUICK_NODES: Final = 4 + MAX_IN_PLAY * (1 + len(QUICK_ENTRY_KEYS))


def quick_step(step: Any, players: Sequence[str], cards: Any = None) -> DestinyAction | None:
    """The commonest steps, read at once when they are sound at a glance (a known verb, its own
    keys only, sound annotations, references that name something; the logged inputs are read by
    the log's reader, judge.games.inputs); None sends the step to the full reader, which finds and
    words every fault. ``parse_step``'s action when it reads ``step`` (then the step has no fault): a
    log's reader asks this first, and makes the step's JSON Pointer, and calls ``parse_step``, only
    for the other steps (replays.format.parse_log)."""
    if not isinstance(step, dict):
        return None
    do = step.get("do")
    by = step.get("by")
    if not isinstance(by, str) or by not in players or not isinstance(do, str):
        return None
    # the verb's own keys: all but by, do, the logged inputs and the annotations. Each verb below
    # reads its own keys, which must then be all of them: no other key is there (a count, where a
    # set comparison of the keys would cost more). No more keys than the verb reads at most when
    # it is read here (QUICK_OWN_KEYS): no room for an input or an annotation beside them, which
    # are then not looked for (most steps)
    own = len(step) - 2
    if own > QUICK_OWN_KEYS.get(do, 0):
        for key in INPUT_KEYS:
            if key in step:
                own -= 1
        annotated = False
        for key in ANNOTATION_KEYS:
            if key in step:
                own -= 1
                annotated = True
        if annotated:
            faults: Faults = []
            check_annotations(step, "", faults)  # (a fault sends the step to the full reader, which words it)
            if faults:
                return None
    if do == "pass":
        return Pass(by) if own == 0 else None
    refs: dict[str, Ref | None] | None = None  # (the pool's memos: parse_ref's and is_code's)
    codes: dict[str, bool] | None = None
    if isinstance(cards, CardPool):
        refs = cards.refs
        codes = cards.codes
        cards = cards.cards  # a pool's table of codes: asked directly, it answers faster
    else:
        cards = getattr(cards, "cards", cards)
    if do == "activate" and own == 1:
        card = _sound(step.get("card"), False, players, cards, refs)
        return Activate(by, card) if card is not None else None
    if do == "resolve" and own == 1:
        raw = step.get("dice")
        if not isinstance(raw, list) or not raw or len(raw) > MAX_IN_PLAY:
            return None
        entries = []
        for entry in raw:
            if not isinstance(entry, dict):
                return None
            die = _sound(entry.get("die"), True, players, cards, refs)
            if die is None:
                return None
            keys = 1  # (die, target, modifies: QUICK_ENTRY_KEYS, counted)
            target = None
            if "target" in entry:
                target = entry["target"]
                if _sound(target, None, players, cards, refs) is None and target not in players:
                    return None
                keys += 1
            modifies = None
            if "modifies" in entry:
                modifies = entry["modifies"]
                if _sound(modifies, True, players, cards, refs) is None:
                    return None
                keys += 1
            if len(entry) != keys:
                return None
            entries.append(DieEntry(die, target, modifies))
        return Resolve(by, tuple(entries))
    if do == "reroll" and own == 2:
        code = step.get("discard")
        raw = step.get("dice")
        # (is_code's memo, asked inline)
        if not isinstance(code, str) or not (codes[code] if codes is not None and code in codes
                                             else is_code(code, codes)) \
                or (cards is not None and code not in cards) or not isinstance(raw, list) or len(raw) > MAX_IN_PLAY:
            return None
        dice = tuple([_sound(d, True, players, cards, refs) for d in raw])  # (a list made in one frame)
        return Reroll(by, code, dice) if None not in dice else None  # type: ignore[arg-type]
    if do == "play" and (own == 1 or (own == 2 and "on" in step)):
        code = step.get("card")
        if not isinstance(code, str) or not (codes[code] if codes is not None and code in codes  # (is_code's memo)
                                             else is_code(code, codes)) or (cards is not None and code not in cards):
            return None
        if own == 1:
            return Play(by, code)
        on = _sound(step["on"], False, players, cards, refs)
        return Play(by, code, on) if on is not None else None
    if do == "use" and own == 1:
        card = _sound(step.get("card"), False, players, cards, refs)
        return Use(by, card) if card is not None else None
    if do == "claim" and own == 0:
        return Claim(by)
    return None


# the setup's keys whose cards names.setup_codes reads (each when it is an object)
NAMED_SETUP_KEYS: Final = ("decks", "mulligan", "mulligan_decks", "shields", "position")


def plain_setup(players: list[Any], setup: Any, cards: Any) -> bool:
    """Whether ``names.setup_codes`` would give the players' entries and the setup back as they are,
    without a fault, told at a glance: every character's card, battlefield and deck card a code of
    the pool (or ``?``), and no setup key that names cards. False also when it cannot tell at a glance
    (then the log's reader asks ``setup_codes``: replays.format.parse_log). Compiled, where
    ``setup_codes`` is interpreted (tests/judge/destiny/test_plain_names.py compares the two)."""
    if not isinstance(cards, CardPool) or not isinstance(setup, dict):
        return False
    for key in NAMED_SETUP_KEYS:
        if isinstance(setup.get(key), dict):
            return False
    table = cards.cards
    for p in players:
        if not isinstance(p, dict):
            continue
        chars = p.get("characters")
        if isinstance(chars, list):
            for c in chars:
                if type(c) is not dict:
                    return False
                card = c.get("card")
                if type(card) is not str or card not in table:
                    return False
        bf = p.get("battlefield")
        if bf is not None and not (type(bf) is str and bf in table):
            return False
        deck = p.get("deck")
        if isinstance(deck, list):
            for code in deck:
                if type(code) is not str or (code not in table and code != UNKNOWN):
                    return False
    return True


def plain_answers(step: dict[str, Any], players: Sequence[str], cards: Any) -> bool:
    """Whether ``names.answer_codes`` would give ``step`` back as it is, told at a glance: each of its
    ``choices`` answers a boolean, a number, a player, a code or a reference, or a list of them, or
    counts by reference or code, and it has no expected state (``cardnames.Rewrite.answers`` would
    change nothing). False also when it cannot tell (then ``answer_codes`` rewrites: it asks this
    first, and so does the log's reader, replays.format.parse_log). Compiled, where ``answer_codes``
    is interpreted (tests/judge/destiny/test_plain_names.py holds the two to each other)."""
    if not isinstance(cards, CardPool):
        return False
    refs, codes = cards.refs, cards.codes
    chosen = step.get("choices")
    if isinstance(chosen, list):
        for choice in chosen:
            given = choice.get("answer") if isinstance(choice, dict) else None
            if isinstance(given, list):
                for one in given:
                    if not _plain_answer(one, players, refs, codes):
                        return False
            elif isinstance(given, dict):  # counts by reference or code ({"p1.01001/1": 2}), each a number
                for key, count in given.items():
                    if not (isinstance(count, (bool, int)) and (key in players or (
                            type(key) is str and (parse_ref(key, refs) is not None or is_code(key, codes))))):
                        return False
            elif not _plain_answer(given, players, refs, codes):
                return False
    expect = step.get("expect")  # an expected state is read by answer_codes
    return not (isinstance(expect, dict) and "state" in expect)


def _plain_answer(a: Any, players: Sequence[str], refs: dict[str, Ref | None], codes: dict[str, bool]) -> bool:
    if isinstance(a, str):
        return a in players or parse_ref(a, refs) is not None or is_code(a, codes)
    return a is None or isinstance(a, (bool, int))


def _upkeep_discards(p: _Parser, step: dict[str, Any], players: Sequence[str]) -> dict[str, tuple[str, ...]] | None:
    disc = step["discard"]
    if not isinstance(disc, dict):
        p.bad("/discard", Msg(N_("'discard' must map player IDs to lists of card codes")))
        return None
    out: dict[str, tuple[str, ...]] = {}
    for pid, codes in disc.items():
        if pid not in players:
            p.bad(f"/discard/{escape(pid)}", Msg(N_("'{pid}' is not a player of this log{near}"), pid=pid,
                                                 near=nearest(pid, players)))
        elif not isinstance(codes, list):
            p.bad(f"/discard/{escape(pid)}", Msg(N_("a list of card codes")))
        elif len(codes) > MAX_ZONE_CARDS:
            p.bad(f"/discard/{escape(pid)}", Msg(N_("a hand holds {at_most}"),
                                                 at_most=at_most("MAX_ZONE_CARDS", NP_("at most", "cards"))))
        else:
            out[pid] = tuple(str(p.code(c, f"/discard/{escape(pid)}/{i}", N_("a discarded card")))
                             for i, c in enumerate(codes))
    return out
