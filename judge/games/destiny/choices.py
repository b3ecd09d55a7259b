"""One way to read a logged answer that chooses several dice, or turns dice to new faces, for
every card and symbol that asks (destiny.terms.choose-targets-simultaneously,
destiny.terms.turn-die): the shape is checked, references are made canonical, and every die must
be one of the options, named once, in the number the ability allows."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from i18n import N_, Msg
from judge.games.destiny.dice import FaceError, parse_face
from judge.kernel.core import Decision, IllegalAction

if TYPE_CHECKING:  # pragma: no cover
    from judge.games.destiny.engine import Ctx


def validate_dice(ctx: Ctx, answer: Any, options: Sequence[str], rule: str, least: int = 0,
                  most: int | None = None) -> list[str]:
    """A logged choice of dice: a list of distinct die references among ``options``, between
    ``least`` and ``most`` of them."""
    if not isinstance(answer, list) or not all(isinstance(d, str) for d in answer):
        raise IllegalAction(rule, Msg(N_("a choice of dice is a list of die references")))
    dice = [ctx.canon_die(d) for d in answer]
    if len(set(dice)) != len(dice):
        raise IllegalAction(rule, Msg(N_("a die is named twice")))
    bad = [d for d in dice if d not in options]
    if bad:
        raise IllegalAction(rule, Msg(
            N_("{bad} cannot be chosen ({options})"),
            bad=', '.join(bad), options=', '.join(options) or Msg(N_("none")),
        ))
    high = len(options) if most is None else most
    if not least <= len(dice) <= high:
        want = (Msg(N_("exactly {least}"), least=least) if least == high
                else Msg(N_("{least} to {high}"), least=least, high=high))
        raise IllegalAction(rule, Msg(N_("choose {want} dice, not {n_dice}"), want=want, n_dice=len(dice)))
    return dice


def choose_dice(ctx: Ctx, by: str, options: Sequence[str], src: str, prompt: str, rules: Sequence[str],
                least: int = 0, most: int | None = None, count: int | None = None) -> list[str]:
    """Several dice chosen at once, as one decision (``kind: dice``; ``count``: the number the
    decision announces, if any)."""
    if not options:
        return []
    answer = ctx.decide(Decision(by, "dice", tuple(options), tuple(rules), prompt,
                                 src, True, count))
    return validate_dice(ctx, answer, options, rules[0], least, most)


def validate_turns(ctx: Ctx, answer: Any, allowed: Mapping[str, Sequence[str] | None], rule: str, least: int = 0,
                   most: int | None = None, symbol: str | None = None) -> dict[str, str]:
    """A logged answer turning dice: a map from die to the face it is turned to, each die among
    ``allowed`` (with the faces it may be turned to, or None for any of its faces), between
    ``least`` and ``most`` dice; ``symbol``: every new face must show it."""
    if not isinstance(answer, dict) or not all(isinstance(f, str) for f in answer.values()):
        raise IllegalAction(rule, Msg(N_("a turn maps dice to the faces they are turned to")))
    turns: dict[str, str] = {}
    for die, face in answer.items():
        d = ctx.canon_die(die)
        if d in turns:
            raise IllegalAction(rule, Msg(N_("{d} is named twice"), d=d))
        if d not in allowed:
            raise IllegalAction(rule, Msg(
                N_("{d} cannot be turned by this effect ({allowed})"),
                d=d, allowed=', '.join(allowed) or Msg(N_("none")),
            ))
        try:
            parsed = parse_face(face)
        except FaceError as exc:
            raise IllegalAction(rule, Msg(N_("{d}: {exc}"), d=d, exc=exc)) from None
        faces = allowed[d]
        if faces is not None and parsed.notation() not in faces:
            raise IllegalAction(rule, Msg(N_("{d} cannot be turned to {face} here"), d=d, face=face))
        if symbol is not None and parsed.symbol != symbol:
            raise IllegalAction(rule, Msg(
                N_("{d} must be turned to a face showing {symbol}, not {face}"),
                d=d, symbol=symbol, face=face,
            ))
        turns[d] = face
    high = len(allowed) if most is None else most
    if not least <= len(turns) <= high:
        want = (Msg(N_("exactly {least}"), least=least) if least == high
                else Msg(N_("{least} to {high}"), least=least, high=high))
        raise IllegalAction(rule, Msg(N_("turn {want} dice, not {n_turns}"), want=want, n_turns=len(turns)))
    return turns


def choose_turns(ctx: Ctx, by: str, allowed: Mapping[str, Sequence[str] | None], src: str, prompt: str,
                 rules: Sequence[str], least: int = 0, most: int | None = None, symbol: str | None = None,
                 count: int | None = None) -> dict[str, str]:
    """Dice to turn and their new faces, as one decision (``kind: turn``; ``count``: the number
    the decision announces, if any)."""
    if not allowed:
        return {}
    answer = ctx.decide(Decision(by, "turn", tuple(allowed), tuple(rules), prompt,
                                 src, True, count))
    return validate_turns(ctx, answer, allowed, rules[0], least, most, symbol)
