"""Small reusable pieces for card definitions: trigger tests and effects.

A card module defines ``CARDS: list[CardDef]``; abilities are built from these helpers or from
small functions beside the card. Nothing here names a card.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from i18n import N_, Msg
from judge.games.destiny import events as ev
from judge.games.destiny.engine import Ctx
from judge.games.destiny.model import Ability, Trigger, on
from judge.games.destiny.refs import card_of_die
from judge.games.destiny.state import UNKNOWN
from judge.games.destiny.steps import Written, written
from judge.kernel.core import MissingOutcome


def controller(ctx: Ctx, ref: str) -> str:
    return ctx.owner_of(ref)


def attached_to(ctx: Ctx, upgrade_ref: str) -> str | None:
    return ctx.upgrade_host(upgrade_ref)


def entry_or_choose(
    ctx: Ctx,
    entry: Written,
    key: str,
    by: str,
    kind: str,
    options: list[str],
    rules: tuple[str, ...],
    prompt: str,
    source: str,
) -> Any:
    """A target written on the die entry or step (``target``), else a choice."""
    given = written(entry, key)
    if isinstance(given, str):
        value = ctx.canon(given) if "/" not in given else ctx.canon_die(given)
        if value not in options:
            from judge.kernel.core import IllegalAction

            raise IllegalAction(
                rules[0] if rules else "destiny.terms.choose-target",
                Msg(
                    N_("{value} is not a legal choice ({options})"),
                    value=value, options=', '.join(options) or Msg(N_("none")),
                ),
            )
        return value
    return ctx.choose(by, kind, options, rules, prompt, source)


def named_hand(ctx: Ctx, pid: str, source: str, rule: str) -> list[str]:
    """``pid``'s hand, every card of it named. What ``source`` (a card's reference) does next
    depends on which cards they are (a choice among them; a card that goes to the public discard
    pile or into play): a hand holding a card the position does not name gives no ruling, and the
    judge is asked to list it (MissingOutcome under ``rule``), as for a deck's unnamed card
    discarded (Ctx.move_card)."""
    hand = ctx.player(pid).hand
    if UNKNOWN in hand:
        raise MissingOutcome(Msg(
            N_("{pid}'s hand holds a card the position does not name, and what {source} does depends on it: "
               "list the cards in the position"),
            pid=pid, source=ctx.card(ctx.code_of(source)).name,
        ), rule)
    return list(hand)


def choose_character(ctx: Ctx, entry: Any, by: str, prompt: str, source: str) -> str:
    """A living character as the target: written as ``target`` on the entry, else chosen by
    ``by`` (destiny.terms.choose-target)."""
    target: str = entry_or_choose(ctx, entry, "target", by, "target", living_characters(ctx),
                                  ("destiny.terms.choose-target",), prompt, source)
    return target


def living_characters(ctx: Ctx, pid: str | None = None) -> list[str]:
    return [c.ref for q, p in ctx.state.players.items() if pid in (None, q) for c in p.alive()]


def pool_dice(ctx: Ctx, pid: str | None = None, test: Callable[[Any], bool] | None = None) -> list[str]:
    return [d for q, d, f in ctx.all_pool_dice() if pid in (None, q) and (test is None or test(f))]


def cheapest(ctx: Ctx, pid: str, codes: Iterable[str]) -> list[str]:
    """The distinct cards among ``codes`` with the lowest cost for ``pid``, after every cost-modifying
    effect (destiny.terms.cheapest); several on a tie, in the order given."""
    costs = {code: ctx.cost_of(pid, code) for code in dict.fromkeys(codes)}
    if not costs:
        return []
    low = min(costs.values())
    return [code for code, cost in costs.items() if cost == low]


# ---------------------------------------------------------------------- triggers
@on(ev.Activate)
def after_you_activate_this(ctx: Ctx, src: str, e: Any) -> bool:
    return isinstance(e, ev.Activate) and e.card == src


@on(ev.Play)
def after_you_play_this(ctx: Ctx, src: str, e: Any) -> bool:
    """``src`` is the upgrade or support in play; the Play event names its code and player."""
    if not isinstance(e, ev.Play):
        return False
    return e.player == ctx.owner_of(src) and e.code == ctx.code_of(src) and _newest(ctx, src)


def _newest(ctx: Ctx, src: str) -> bool:
    p = ctx.player(ctx.owner_of(src))
    code = ctx.code_of(src)
    return src == f"{p.id}.{code}#{p.serials.get(code, 0)}"


@on(ev.Activate)
def after_opponent_activates_character(ctx: Ctx, src: str, e: Any) -> bool:
    if not isinstance(e, ev.Activate):
        return False
    actor = ctx.owner_of(e.card)
    return actor != ctx.owner_of(src) and e.card in ctx.player(actor).characters


@on(ev.Defeat)
def before_attached_defeated(ctx: Ctx, src: str, e: Any) -> bool:
    return isinstance(e, ev.Defeat) and e.target == ctx.upgrade_host(src)


def ability(
    timing: str,
    text: str,
    effect: Any = None,
    trigger: Trigger | None = None,
    optional: bool = False,
    rules: tuple[str, ...] = (),
    **kw: Any,
) -> Ability:
    return Ability(
        timing=timing, text=text, effect=effect, trigger=trigger, optional=optional, rules=rules, **kw
    )


def spot_color(color: str) -> Callable[[Ctx, str, Any], bool]:
    """A play restriction or requirement: the player has an undefeated character of ``color``
    (destiny.terms.spot, destiny.terms.spot-own-only)."""

    def test(ctx: Ctx, pid: str, _extra: Any) -> bool:
        return any(ctx.card(c.code).color == color for c in ctx.player(pid).alive())

    return test


def character_color_only(color: str) -> Callable[[Ctx, str, Any], bool]:
    """ "<Color> character only": the upgrade goes on a character of that color."""

    def test(ctx: Ctx, pid: str, on: Any) -> bool:
        return isinstance(on, str) and ctx.card(ctx.code_of(on)).color == color

    return test


def dice_of_character(ctx: Ctx, char_ref: str) -> set[str]:
    """A character's character dice and upgrade dice (as refs of their cards)."""
    ch = ctx.character(char_ref)
    return {ch.ref, *ch.upgrades}


def die_belongs_to(ctx: Ctx, char_ref: str) -> Callable[[str], bool]:
    cards = dice_of_character(ctx, char_ref)
    return lambda d: card_of_die(d) in cards
