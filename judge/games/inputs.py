"""A step's logged inputs, shared by every game: what the dice rolled (``roll``), what was picked at
random (``random``) and what the players decided (``choices``), each read in order while the step
resolves, and checked afterwards to have been used up (a roll for a die that was never rolled
means the log describes something else than what happened).

Also the keys every step of every game may carry besides its action: the log's annotations
(``note``, ``dispute``, ``expect``), read by the replay layer, never by a game.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Sequence
from typing import Any, Final

from i18n import N_, NP_, Msg
from judge.games.jsonbounds import at_most
from judge.kernel.core import Decision, IllegalAction
from judge.limits import MAX_INPUTS

INPUT_KEYS = ("roll", "random", "choices")
ANNOTATION_KEYS = ("note", "dispute", "expect")
COMMON_KEYS = ("by", "do", *INPUT_KEYS, *ANNOTATION_KEYS)
CHOICE_KEYS = ("by", "kind", "answer")
CHOICE_KEY_SET: Final = frozenset(CHOICE_KEYS)
EXPECT_KEYS = ("hash", "state", "error")  # a checkpoint (docs/replay-format.md, "Checkpoints")
EXPECT_ERROR_KEYS = ("kind", "rule")
STATE_HASH = re.compile(r"^sha256:[0-9a-f]{64}$")

Faults = list[tuple[str, str]]


class JsonValue:
    """Base of the small immutable values read from a log (a choice, a step's inputs, a game's
    actions): they compare, hash and print as the JSON they write (``to_json``)."""

    __slots__ = ()

    def to_json(self) -> dict[str, Any]:
        raise NotImplementedError(type(self).__name__)

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and isinstance(other, JsonValue) and self.to_json() == other.to_json()

    def __hash__(self) -> int:
        return hash(repr(self))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.to_json()!r})"


class Choice(JsonValue):
    """One logged answer: who decided (optional), what kind of decision (optional), the answer.
    Immutable (``Final``; a plain class for the compiled engine, as ``judge.kernel.core.Record``)."""

    __slots__ = ("answer", "by", "kind")

    def __init__(self, answer: Any, by: str | None = None, kind: str | None = None) -> None:
        self.answer: Final = answer
        self.by: Final = by
        self.kind: Final = kind

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.by is not None:
            out["by"] = self.by
        if self.kind is not None:
            out["kind"] = self.kind
        out["answer"] = self.answer
        return out


class Inputs(JsonValue):
    """The logged outcomes and choices of one step (or of setup), in the order they are read.
    Immutable (``Final``)."""

    __slots__ = ("roll", "random", "choices")

    def __init__(self, roll: tuple[str, ...] = (), random: tuple[Any, ...] = (),
                 choices: tuple[Choice, ...] = ()) -> None:
        self.roll: Final = roll
        self.random: Final = random
        self.choices: Final = choices

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.roll:
            out["roll"] = list(self.roll)
        if self.random:
            out["random"] = list(self.random)
        if self.choices:
            out["choices"] = [c.to_json() for c in self.choices]
        return out


NO_INPUTS = Inputs()


class InputReader:
    """Reads a step's inputs in order. ``unused()`` names what was left over, if anything."""

    __slots__ = ("inputs", "ci", "ri", "xi")

    def __init__(self, inputs: Inputs):
        self.inputs = inputs
        self.ci = self.ri = self.xi = 0

    def next_choice(self) -> Choice | None:
        if self.ci < len(self.inputs.choices):
            c = self.inputs.choices[self.ci]
            self.ci += 1
            return c
        return None

    def choice_for(self, decision: Decision) -> Choice | None:
        """The step's next logged choice, as the answer to ``decision`` (every game reads its
        ``choices`` so): its ``by`` and ``kind``, when given, must be the decision's (an
        ``IllegalAction`` citing the decision's rule otherwise); None when the step logs no more."""
        choice = self.next_choice()
        if choice is None:
            return None
        if choice.by is not None and choice.by != decision.by:
            raise IllegalAction(decision.rules[0], Msg(
                N_("{by} makes this decision ({kind}), not {other}"),
                by=decision.by, kind=decision.kind, other=choice.by,
            ))
        if choice.kind is not None and choice.kind != decision.kind:
            raise IllegalAction(decision.rules[0], Msg(
                N_("the engine asks for a '{kind}' decision here, the log gives '{given}'"),
                kind=decision.kind, given=choice.kind,
            ))
        return choice

    def peek_choice(self) -> Choice | None:
        return self.inputs.choices[self.ci] if self.ci < len(self.inputs.choices) else None

    def skip_choice(self) -> None:
        self.ci += 1

    def next_roll(self) -> str | None:
        if self.ri < len(self.inputs.roll):
            r = self.inputs.roll[self.ri]
            self.ri += 1
            return r
        return None

    def next_random(self) -> Any:
        """The next logged random outcome, or ``NOTHING`` when the log has no more."""
        if self.xi < len(self.inputs.random):
            r = self.inputs.random[self.xi]
            self.xi += 1
            return r
        return NOTHING

    def unused(self) -> str | None:
        """Which kind of input was not used up (``roll``, ``random``, ``choices``), or None."""
        if self.ri < len(self.inputs.roll):
            return "roll"
        if self.xi < len(self.inputs.random):
            return "random"
        if self.ci < len(self.inputs.choices):
            return "choices"
        return None


NOTHING: Any = object()


def parse_inputs(step: dict[str, Any], path: str, players: Sequence[str], faults: Faults) -> Inputs:
    """The inputs of a step (a JSON object), faults appended with their JSON Pointers."""
    if "roll" not in step and "random" not in step and "choices" not in step:
        return NO_INPUTS
    roll: tuple[str, ...] = ()
    if "roll" in step:
        raw = step["roll"]
        if isinstance(raw, list) and len(raw) > MAX_INPUTS:
            faults.append((f"{path}/roll", Msg(N_("'roll' lists {at_most}"),
                                                 at_most=at_most("MAX_INPUTS", NP_("at most", "die faces")))))
        elif not isinstance(raw, list) or not all(isinstance(x, str) for x in raw):
            faults.append((f"{path}/roll", Msg(N_("'roll' must be a list of die faces such as \"2RD\""))))
        else:
            roll = tuple(raw)
    random: tuple[Any, ...] = ()
    if "random" in step:
        raw = step["random"]
        if isinstance(raw, list) and len(raw) > MAX_INPUTS:
            faults.append((f"{path}/random", Msg(N_("'random' lists {at_most}"),
                                                 at_most=at_most("MAX_INPUTS", NP_("at most", "outcomes")))))
        elif not isinstance(raw, list) or not all(_is_pick(x) for x in raw):
            faults.append((f"{path}/random",
                           Msg(N_("'random' must be a list of outcomes (an index from 0 or a name)"))))
        else:
            random = tuple(raw)
    choices: list[Choice] = []
    if "choices" in step:
        raw = step["choices"]
        if not isinstance(raw, list):
            faults.append((f"{path}/choices", Msg(N_("'choices' must be a list of {\"by\", \"kind\", \"answer\"}"))))
        elif len(raw) > MAX_INPUTS:
            faults.append((f"{path}/choices", Msg(N_("'choices' lists {at_most}"),
                                                 at_most=at_most("MAX_INPUTS", NP_("at most", "choices")))))
        else:
            for i, ch in enumerate(raw):
                # (the choice's pointer, f"{path}/choices/{i}", is written only for a fault)
                if not isinstance(ch, dict) or "answer" not in ch:
                    faults.append((f"{path}/choices/{i}",
                                   Msg(N_("a choice is an object with 'by', 'kind' and 'answer'"))))
                    continue
                if not CHOICE_KEY_SET.issuperset(ch):
                    for key in ch:
                        if key not in CHOICE_KEYS:
                            faults.append((f"{path}/choices/{i}/{escape(key)}",
                                           unknown_key(key, CHOICE_KEYS, N_("a choice"))))
                by = ch.get("by")
                if by is not None and (not isinstance(by, str) or by not in players):
                    faults.append((f"{path}/choices/{i}/by", Msg(N_("{by} is not a player of this log ({players})"),
                                                                 by=repr(by), players=", ".join(players))))
                    if not isinstance(by, str):
                        by = None
                kind = ch.get("kind")
                if kind is not None and not isinstance(kind, str):
                    faults.append((f"{path}/choices/{i}/kind",
                                   Msg(N_("'kind' names the kind of decision (a string)"))))
                    kind = None
                choices.append(Choice(ch["answer"], by, kind))  # (positional: a call with keywords costs more)
    return Inputs(roll, random, tuple(choices))


def check_annotations(step: dict[str, Any], path: str, faults: Faults) -> None:
    """The shape of a step's annotations (``note``, ``dispute``, ``expect``), faults appended with
    their JSON Pointers. A checkpoint with a misspelt key would silently check nothing, so its keys
    are checked as strictly as the step's own."""
    for key in ("note", "dispute"):
        if key in step and not isinstance(step[key], str):
            faults.append((f"{path}/{key}", Msg(N_("'{key}' must be a string"), key=key)))
    if "expect" not in step:
        return
    expect = step["expect"]
    at = f"{path}/expect"
    if not isinstance(expect, dict):
        faults.append((at, Msg(N_("'expect' must be an object with 'hash', 'state' and/or 'error'"))))
        return
    for key in expect:
        if key not in EXPECT_KEYS:
            faults.append((f"{at}/{escape(key)}", unknown_key(key, EXPECT_KEYS, N_("a checkpoint ('expect')"))))
    if "hash" in expect and not (isinstance(expect["hash"], str) and STATE_HASH.match(expect["hash"])):
        faults.append((f"{at}/hash",
                       Msg(N_("'hash' is a state hash: 'sha256:' and 64 lowercase hexadecimal digits"))))
    if "state" in expect and not isinstance(expect["state"], dict):
        faults.append((f"{at}/state", Msg(N_("'state' is a partial state view (an object)"))))
    if "error" in expect:
        err = expect["error"]
        if not isinstance(err, dict) or not err:
            faults.append((f"{at}/error", Msg(N_("'error' is the expected rejection: an object with 'kind' and/or "
                                                   "'rule'"))))
            return
        for key in err:
            if key not in EXPECT_ERROR_KEYS:
                faults.append((f"{at}/error/{escape(key)}",
                               unknown_key(key, EXPECT_ERROR_KEYS, N_("an expected error"))))
            elif err[key] is not None and not isinstance(err[key], str):
                faults.append((f"{at}/error/{key}", Msg(N_("'{key}' must be a string (or null: any)"), key=key)))


def _is_pick(x: Any) -> bool:
    return isinstance(x, str) or (isinstance(x, int) and not isinstance(x, bool))


def escape(key: str) -> str:
    """A key as one token of a JSON Pointer (RFC 6901)."""
    return key.replace("~", "~0").replace("/", "~1")


def unknown_key(key: str, known: Iterable[str], where: str | Msg) -> Msg:
    """The message for an unknown key: the nearest known name, and the known ones. ``where`` is a
    phrase marked for translation (``N_("a choice")``) or a :class:`Msg`."""
    known = sorted(known)
    return Msg(N_("unknown key '{key}' in {where}{hint}; the known keys are {known}"), key=key,
               where=where if isinstance(where, Msg) else Msg(where), hint=nearest(key, known),
               known=", ".join(known))


def nearest(word: Any, known: Iterable[str]) -> str:
    """`` (did you mean 'x'?)`` (a :class:`Msg`) for the known name nearest ``word``, or an empty string."""
    if not isinstance(word, str):
        return ""
    near = difflib.get_close_matches(word, list(known), n=1, cutoff=0.6)
    return Msg(N_(" (did you mean '{word}'?)"), word=near[0]) if near else ""


def got(value: Any) -> str:
    """`` (got <repr of value>)`` (a :class:`Msg`): what a log gave where it should not."""
    return Msg(N_(" (got {value})"), value=repr(value))
