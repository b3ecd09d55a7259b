"""Destiny's keyword abilities (destiny.keywords.*) that act at a timing, written once as card
abilities: every character has Guardian's ``before`` ability and every upgrade Redeploy's
``after`` ability, live when the card has the keyword at that moment (printed or granted, and not
lost: ``Ctx.keywords``). The engine files them in the live-ability index beside the cards' own
abilities (``KEYWORD_ABILITIES``); it never names a keyword anywhere else.

Redeploy looks back in time: the upgrades leave play with the character, so the engine offers the
after-abilities of the cards that left play with an event (``Ctx.left_play``) as well.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from i18n import N_, Msg
from judge.games.destiny import events as ev
from judge.games.destiny import records as rec
from judge.games.destiny.model import Ability, CardType, on
from judge.games.destiny.perform import enforce_upgrade_limit, enter_upgrade

if TYPE_CHECKING:  # pragma: no cover
    from judge.games.destiny.engine import Ctx


def _damage_dice(ctx: Ctx, pid: str) -> list[str]:
    return [d for opp in ctx.state.opponents(pid) for d, f in ctx.player(opp).pool.items() if f.is_damage]


@on(ev.Activate)
def _guardian_trigger(ctx: Ctx, src: str, e: Any) -> bool:
    if not isinstance(e, ev.Activate) or e.card != src:
        return False
    pid = ctx.owner_of(src)
    return src in ctx.player(pid).characters and "guardian" in ctx.keywords(src) and bool(_damage_dice(ctx, pid))


def _guardian(ctx: Ctx, src: str, e: Any) -> None:
    """Before a Guardian character is activated, its player may take an opponent's damage die
    onto it: its damage, then the die is removed (destiny.keywords.guardian)."""
    pid = ctx.owner_of(src)
    die = ctx.choose(pid, "die", _damage_dice(ctx, pid), ("destiny.keywords.guardian",),
                     Msg(N_("which damage die to guard against")), src)
    face = ctx.pool_face(die)
    ctx.deal_damage(die, src, ctx.die_value(die, face))
    ctx.remove_die(src, die)


@on(ev.Defeat)
def _redeploy_trigger(ctx: Ctx, src: str, e: Any) -> bool:
    """The upgrade was on the defeated character, and its controller is still in the game."""
    return (isinstance(e, ev.Defeat) and ctx.upgrade_host(src) == e.target
            and not ctx.player(ctx.owner_of(src)).eliminated)


def _redeploy(ctx: Ctx, src: str, e: Any) -> None:
    """After a character is defeated, an upgrade on it with Redeploy may move to another of its
    controller's characters, ignoring its restrictions; it stays the same card, so its reference
    is kept (destiny.keywords.redeploy, destiny.keywords.redeploy-ignores-restrictions)."""
    pid = ctx.owner_of(src)
    code = ctx.code_of(src)
    p = ctx.player(pid)
    homes = [c.ref for c in p.alive()]
    if not homes or code not in p.discard:
        return
    to = ctx.choose(pid, "target", homes, ("destiny.keywords.redeploy",), Msg(N_("move the upgrade to")), src)
    p.discard.remove(code)
    ref = enter_upgrade(ctx, pid, code, to, keep=src)
    ctx.record(rec.RedeployRecord(ref, e.target, to, (
        "destiny.keywords.redeploy", "destiny.keywords.redeploy-ignores-restrictions")))
    enforce_upgrade_limit(ctx, pid, to)


GUARDIAN = Ability("before", "Guardian: take an opponent's damage die's damage and remove the die", effect=_guardian,
                   trigger=_guardian_trigger, optional=True, rules=("destiny.keywords.guardian",), keyword="guardian")
REDEPLOY = Ability("after", "Redeploy: move this upgrade to another of your characters", effect=_redeploy,
                   trigger=_redeploy_trigger, optional=True, rules=("destiny.keywords.redeploy",), keyword="redeploy")

# the keyword abilities each kind of card in play carries, live while it has the keyword
KEYWORD_ABILITIES: dict[CardType, tuple[Ability, ...]] = {
    CardType.CHARACTER: (GUARDIAN,),
    CardType.UPGRADE: (REDEPLOY,),
}
