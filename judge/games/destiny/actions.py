"""The Destiny actions (destiny.actions.list) plus passing and the upkeep record.

Each step of a log is one typed action (judge.games.destiny.steps, where malformed steps are
found); ``apply_step`` applies it, raising ``IllegalAction`` with the broken rule's ID when the
rules forbid it.
"""

from __future__ import annotations

from judge.games.destiny import events as ev
from judge.games.destiny import records as rec
from judge.games.destiny import steps as st_
from judge.games.destiny.engine import Ctx
from judge.games.destiny.model import CardType
from judge.games.destiny.resolve import resolve_dice
from judge.games.destiny.rounds import GameOver, advance, run_upkeep
from judge.kernel.core import IllegalAction


# ====================================================================== applying steps
def apply_step(ctx: Ctx, upkeep_next: bool = False) -> None:
    """Apply one well-formed step. ``upkeep_next``: the log's next step records the upkeep."""
    try:
        _apply(ctx, upkeep_next)
    except GameOver:
        ctx.kernel.queue.clear()
        return
    ctx.check_inputs_used()


def _apply(ctx: Ctx, upkeep_next: bool) -> None:
    st = ctx.state
    step = ctx.step
    do = step.verb
    if st.phase == "over":
        raise IllegalAction("destiny.victory.all-defeated" if st.reason == "all-defeated" else
                            "destiny.victory.deck-out", f"the game is over: {st.winner} won ({st.reason})")
    if st.phase == "upkeep":
        run_upkeep(ctx, step.discard if isinstance(step, st_.Upkeep) else None)
        if do == "upkeep":
            return
    elif do == "upkeep":
        raise IllegalAction("destiny.round.end-on-consecutive-passes",
                            "the upkeep phase comes only after the action phase ends on consecutive passes")
    by = step.by
    assert by is not None  # every step but the upkeep names its player (steps.parse_step)
    expected = st.extra_action or st.turn
    if by != expected:
        rule = "destiny.actions.extra-actions-immediate" if st.extra_action else "destiny.round.action-phase"
        raise IllegalAction(rule, f"it is {expected}'s turn, not {by}'s")
    extra = st.take_extra_action() is not None
    p = ctx.player(by)
    if do == "pass":
        if extra:
            ctx.record(rec.DeclineExtraActionRecord(player=by, rules=("destiny.actions.extra-actions-immediate",)))
        else:
            p.passed = True
            st.passes += 1
            ctx.record(rec.PassRecord(player=by, rules=("destiny.round.pass",)))
        advance(ctx, by, upkeep_next)
        return
    forbidden = ctx.forbidden(do, by, step)
    if forbidden is not None:  # whatever lets them (destiny.negative.cannot-overrides-can)
        raise IllegalAction("destiny.negative.cannot-overrides-can", f"{by} cannot {do} now: {forbidden}")
    ACTIONS[do](ctx, by)
    ctx.kernel.drain()
    p.passed = False
    st.passes = 0
    if st.extra_action == by:
        st.turn = by
        return
    advance(ctx, by, upkeep_next)


# ---------------------------------------------------------------------- the six actions
def _play(ctx: Ctx, pid: str) -> None:
    step = ctx.step
    assert isinstance(step, st_.Play)
    code = step.card
    p = ctx.player(pid)
    if code not in p.hand:
        if "?" in p.hand:  # a hand of unknown cards: the log reveals this one
            p.hand[p.hand.index("?")] = code
        else:
            raise IllegalAction("destiny.actions.play-card-sequence", f"{code} is not in {pid}'s hand")
    card = ctx.card(code)
    if card.type not in (CardType.EVENT, CardType.UPGRADE, CardType.SUPPORT):
        raise IllegalAction("destiny.deckbuilding.deck-card-types", f"{card.name} is a {card.type.value} and cannot "
                            "be played from hand")
    on = ctx.canon(step.on) if step.on else None
    if card.unique and card.type != CardType.EVENT:
        for ref in list(p.upgrades) + list(p.supports):
            other = ctx.card(ctx.code_of(ref))
            if other.name == card.name:
                raise IllegalAction("destiny.uniqueness.one-copy-in-play", f"{pid} already has {card.name} "
                                    f"({ref}) in play")
    replaces = None
    if card.type == CardType.UPGRADE:
        if on is None:
            raise IllegalAction("destiny.upgrades.attach", f"{card.name} is an upgrade: name the character it goes "
                                "on with 'on'")
        if on not in p.characters:
            raise IllegalAction("destiny.upgrades.attach", f"{on} is not one of {pid}'s characters")
        if p.characters[on].defeated:
            raise IllegalAction("destiny.defeat.no-further-use", f"{on} is defeated")
        if step.replaces:
            replaces = ctx.canon(step.replaces)
            if replaces not in p.characters[on].upgrades:
                raise IllegalAction("destiny.upgrades.replace", f"{replaces} is not an upgrade on {on}")
    elif on is not None:
        raise IllegalAction("destiny.actions.play-card-sequence", f"{card.name} is a {card.type.value}: only "
                            "upgrades name a character with 'on'")
    ignore = bool(on and ctx.query("ignore_restrictions", (code, on), False))
    for ab in card.abilities_for("play"):
        if ab.condition is not None and not ignore and not ab.condition(ctx, pid, on):
            raise IllegalAction("destiny.terms.play-restrictions", f"{card.name} cannot be played: {ab.text}")
    for ab in card.abilities_for("restriction"):
        if ab.condition is not None and not ignore and not ab.condition(ctx, pid, on):
            raise IllegalAction("destiny.terms.play-restrictions", f"{card.name} cannot be played: {ab.text}")
    ctx.emit(ev.Play(player=pid, code=code, on=on, replaces=replaces))
    ctx.cost_reduction = 0
    if "ambush" in ctx.keywords_of(card, (pid, code)):  # printed or granted, unless lost (destiny.keywords.loss)
        ctx.kernel.drain()
        ctx.grant_extra_action(pid, "destiny.keywords.ambush")


def _activate(ctx: Ctx, pid: str) -> None:
    ref = ctx.canon(ctx.step.card)
    if ctx.owner_of(ref) != pid:
        raise IllegalAction("destiny.terms.controller", f"{pid} cannot activate {ref}, which {ctx.owner_of(ref)} "
                            "controls")
    ctx.check_activate(pid, ref)
    ctx.emit(ev.Activate(player=pid, card=ref))


def _resolve(ctx: Ctx, pid: str) -> None:
    resolve_dice(ctx, pid, ctx.step.dice)


def _reroll(ctx: Ctx, pid: str) -> None:
    step = ctx.step
    assert isinstance(step, st_.Reroll)
    p = ctx.player(pid)
    if not p.pool:
        raise IllegalAction("destiny.actions.reroll-needs-dice", f"{pid} has no dice in their pool to reroll")
    dice = [ctx.canon_die(d) for d in step.dice]
    if not dice:
        raise IllegalAction("destiny.actions.reroll-by-discard", "name at least one die to reroll")
    if len(set(dice)) != len(dice):
        raise IllegalAction("destiny.actions.reroll-by-discard", "a die is named twice")
    for d in dice:
        if d not in p.pool:
            raise IllegalAction("destiny.dice.pool-only", f"{d} is not in {pid}'s dice pool")
    code = step.discard
    if code not in p.hand:
        if "?" not in p.hand:
            raise IllegalAction("destiny.actions.reroll-by-discard", f"{code} is not in {pid}'s hand")
        p.hand[p.hand.index("?")] = code
    ctx.emit(ev.DiscardFromHand(source=pid, player=pid, card=code))
    ctx.record(rec.RerollActionRecord(player=pid, rules=("destiny.actions.reroll-by-discard",)))
    ctx.reroll(pid, dice)


def _use(ctx: Ctx, pid: str) -> None:
    step = ctx.step
    assert isinstance(step, st_.Use)
    ref = ctx.canon(step.card)
    if ctx.owner_of(ref) != pid:
        raise IllegalAction("destiny.actions.card-action", f"{pid} does not control {ref}")
    p = ctx.player(pid)
    if ref in p.characters:
        if p.characters[ref].defeated:
            raise IllegalAction("destiny.defeat.no-further-use", f"{ref} is defeated")
    elif ref not in p.upgrades and ref not in p.supports:
        raise IllegalAction("destiny.actions.card-action", f"{ref} is not in play under {pid}'s control")
    code = ctx.code_of(ref)
    card = ctx.card(code)
    abilities = [a for a in card.abilities if a.timing in ("action", "power")]
    if not abilities:
        if card.unimplemented:
            ctx.not_implemented(code, "its action ability")
        raise IllegalAction("destiny.actions.card-action", f"{card.name} has no action ability")
    k = step.ability or 1
    if k > len(abilities):
        raise IllegalAction("destiny.actions.card-action", f"{card.name} has {len(abilities)} action abilities")
    ab = abilities[k - 1]
    rules = ["destiny.actions.card-action"]
    if ab.timing == "power":
        rules.append("destiny.actions.power-action")
        if ref in p.power_used:
            raise IllegalAction("destiny.actions.power-action", f"{card.name}'s power action was already used "
                                "this round")
        p.power_used.append(ref)
    if ab.condition is not None and not ab.condition(ctx, pid, ref):
        raise IllegalAction("destiny.actions.card-action", f"{card.name}'s action cannot be used now: {ab.text}")
    ctx.record(rec.UseRecord(player=pid, card=ref, ability=ab.text, rules=tuple(rules)))
    if ab.effect is not None:
        ab.effect(ctx, ref, step)


def _claim(ctx: Ctx, pid: str) -> None:
    st = ctx.state
    if st.claimed_by is not None:
        raise IllegalAction("destiny.actions.claim-once-per-round", f"{st.claimed_by} already claimed the "
                            "battlefield this round")
    if not st.battlefield:
        raise IllegalAction("destiny.battlefields.one-used", "there is no battlefield in play")
    ctx.emit(ev.Claim(player=pid, battlefield=st.battlefield))
    if ctx.step.claim_ability is not False:
        card = ctx.card(st.battlefield)
        claims = card.abilities_for("claim")
        if not claims and card.unimplemented:
            ctx.not_implemented(card.code, "its Claim ability")
        for ab in claims:
            ctx.record(rec.ClaimAbilityRecord(card=st.battlefield, text=ab.text, rules=("destiny.abilities.claim",)))
            if ab.effect is not None:
                ab.effect(ctx, f"{pid}.{st.battlefield}", ctx.step)


ACTIONS = {
    "play": _play,
    "activate": _activate,
    "resolve": _resolve,
    "reroll": _reroll,
    "use": _use,
    "claim": _claim,
}

__all__ = ["ACTIONS", "apply_step"]
