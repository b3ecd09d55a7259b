"""The Destiny actions (destiny.actions.list) plus passing and the upkeep record.

Each step of a log is one typed action (judge.games.destiny.steps, where malformed steps are
found); ``apply_step`` applies it, raising ``IllegalAction`` with the broken rule's ID when the
rules forbid it.
"""

from __future__ import annotations

from i18n import N_, Msg
from judge.games.abilities import LiveIndex
from judge.games.destiny import engine as en
from judge.games.destiny import events as ev
from judge.games.destiny import records as rec
from judge.games.destiny import steps as st_
from judge.games.destiny.engine import Ctx
from judge.games.destiny.legal import check_activate, check_claim, check_play, check_reroll, check_use
from judge.games.destiny.resolve import resolve_dice
from judge.games.destiny.rounds import GameOver, advance, run_upkeep
from judge.games.destiny.state import UNKNOWN
from judge.games.inputs import NO_INPUTS
from judge.kernel.core import IllegalAction


# ====================================================================== applying steps
def apply_step(ctx: Ctx, upkeep_next: bool = False) -> None:
    """Apply one well-formed step. ``upkeep_next``: the log's next step records the upkeep."""
    try:
        _apply(ctx, upkeep_next)
    except GameOver:
        ctx.clear_queue()
        return
    if ctx.inputs.inputs is not NO_INPUTS:  # (a step that logs nothing leaves nothing over)
        ctx.check_inputs_used()


def _apply(ctx: Ctx, upkeep_next: bool) -> None:
    st = ctx.state
    step: st_.DestinyAction = ctx.step  # (typed: the compiled engine reads its fields directly)
    do = step.verb
    if st.phase == "over":
        raise IllegalAction("destiny.victory.all-defeated" if st.reason == "all-defeated" else
                            "destiny.victory.deck-out", Msg(
                                N_("the game is over: {winner} won ({reason})"),
                                winner=st.winner, reason=st.reason,
                            ))
    if st.phase == "upkeep":
        run_upkeep(ctx, step.discard if isinstance(step, st_.Upkeep) else None)
        if do == "upkeep":
            return
    elif do == "upkeep":
        raise IllegalAction("destiny.round.end-on-consecutive-passes",
                            Msg(N_("the upkeep phase comes only after the action phase ends on consecutive passes")))
    by = step.by
    assert by is not None  # every step but the upkeep names its player (steps.parse_step)
    expected = st.extra_action or st.turn
    if by != expected:
        rule = "destiny.actions.extra-actions-immediate" if st.extra_action else "destiny.round.action-phase"
        raise IllegalAction(rule, Msg(N_("it is {expected}'s turn, not {by}'s"), expected=expected, by=by))
    # an action step uses up an extra action (Ambush): cleared here, when there is one (a store in a
    # branch: after it, the type checker still takes the field for ``str | None``, as it is)
    extra = st.extra_action is not None
    if extra:
        if st.extra_more:  # another extra action waits: theirs after this one
            st.extra_more -= 1
        else:
            st.extra_action = None
    try:
        p = st.players[by]  # (ctx.player, inline)
    except KeyError:
        p = ctx.player(by)  # (raises: no such player)
    if do == "pass":
        if extra:
            if ctx.recording:
                ctx.records.append(rec.DeclineExtraActionRecord(by, ("destiny.actions.extra-actions-immediate",)))
            if st.extra_action == by:  # one passed, another extra action of theirs waits
                st.turn = by
                return
        else:
            p.passed = True
            st.passes += 1
            if ctx.recording:
                ctx.records.append(rec.PassRecord(by, ("destiny.round.pass",)))
        advance(ctx, by, upkeep_next)
        return
    # no live "cannot" effect (most steps): ctx.forbidden not asked (its index, read inline)
    index: LiveIndex | None = st.live_index
    if (index is not None and index.gen == st.gen.value and index.cards is ctx.cards and en.SHORTCUTS
            and "constant:forbid" not in index.live):
        forbidden = None
    else:
        forbidden = ctx.forbidden(do, by, step)
    if forbidden is not None:  # whatever lets them (destiny.negative.cannot-overrides-can)
        raise IllegalAction("destiny.negative.cannot-overrides-can", Msg(
            N_("{by} cannot {do} now: {forbidden}"),
            by=by, do=do, forbidden=forbidden,
        ))
    # (ACTIONS[do], written out: the compiled engine calls each natively, not through a Python call)
    # (resolve and activate, the commonest, written out too: a Python call less for each)
    if do == "resolve":
        resolve_dice(ctx, by, ctx.step.dice)  # (_resolve)
    elif do == "activate":
        assert isinstance(step, st_.Activate)
        ctx.emit(ev.Activate(by, check_activate(ctx, by, step)))  # (_activate)
    elif do == "reroll":
        _reroll(ctx, by)
    elif do == "play":
        _play(ctx, by)
    elif do == "claim":
        _claim(ctx, by)
    elif do == "use":
        _use(ctx, by)
    else:
        ACTIONS[do](ctx, by)
    kernel = ctx._kernel  # (ctx.drain, inline: the after-abilities queued, when a pipeline was made)
    if kernel is not None and kernel.queue:
        kernel.drain()
    p.passed = False
    st.passes = 0
    if st.extra_action == by:
        if st.claimed_by == by:
            # destiny.actions.claim-battlefield: the claimer passes every action left to them this round,
            # an extra action too (the FAQ's Rey: "including the additional action")
            if ctx.recording:
                for _ in range(1 + st.extra_more):
                    ctx.records.append(rec.DeclineExtraActionRecord(
                        by, ("destiny.actions.claim-battlefield", "destiny.actions.extra-actions-immediate"), True))
            st.extra_action = None
            st.extra_more = 0
        else:
            st.turn = by
            return
    advance(ctx, by, upkeep_next)


# ---------------------------------------------------------------------- the six actions
def _play(ctx: Ctx, pid: str) -> None:
    step = ctx.step
    assert isinstance(step, st_.Play)
    card, on, replaces = check_play(ctx, pid, step)
    p = ctx.player(pid)
    if step.card not in p.hand:  # a hand of unknown cards: the log reveals this one
        p.hand[p.hand.index(UNKNOWN)] = step.card
    ctx.emit(ev.Play(pid, step.card, on, replaces))
    ctx.cost_reduction = 0
    if "ambush" in ctx.keywords_of(card, (pid, step.card)):  # printed or granted, unless lost (destiny.keywords.loss)
        ctx.drain()
        ctx.grant_extra_action(pid, "destiny.keywords.ambush")


def _activate(ctx: Ctx, pid: str) -> None:
    assert isinstance(ctx.step, st_.Activate)
    ctx.emit(ev.Activate(pid, check_activate(ctx, pid, ctx.step)))


def _resolve(ctx: Ctx, pid: str) -> None:
    resolve_dice(ctx, pid, ctx.step.dice)


def _reroll(ctx: Ctx, pid: str) -> None:
    step = ctx.step
    assert isinstance(step, st_.Reroll)
    dice = check_reroll(ctx, pid, step)
    p = ctx.player(pid)
    if step.discard not in p.hand:
        p.hand[p.hand.index(UNKNOWN)] = step.discard
    ctx.emit(ev.DiscardFromHand(pid, pid, step.discard))
    if ctx.recording:
        ctx.records.append(rec.RerollActionRecord(pid, ("destiny.actions.reroll-by-discard",)))
    ctx.reroll(pid, dice)


def _use(ctx: Ctx, pid: str) -> None:
    step = ctx.step
    assert isinstance(step, st_.Use)
    ref, ab = check_use(ctx, pid, step)
    rules = ["destiny.actions.card-action"]
    if ab.timing == "power":
        rules.append("destiny.actions.power-action")
        ctx.player(pid).power_used.append(ref)
    ctx.records.append(rec.UseRecord(pid, ref, ab.text, tuple(rules)))
    if ab.effect is not None:
        ab.effect(ctx, ref, step)


def _claim(ctx: Ctx, pid: str) -> None:
    battlefield = check_claim(ctx)
    ctx.emit(ev.Claim(pid, battlefield))
    if ctx.step.claim_ability is not False:
        card = ctx.card(battlefield)
        claims = card.abilities_for("claim")
        if not claims and card.unimplemented:
            ctx.not_implemented(card.code, "its Claim ability")
        for ab in claims:
            if ctx.recording:
                ctx.records.append(rec.ClaimAbilityRecord(battlefield, ab.text, ("destiny.abilities.claim",)))
            if ab.effect is not None:
                ab.effect(ctx, f"{pid}.{battlefield}", ctx.step)


ACTIONS = {
    "play": _play,
    "activate": _activate,
    "resolve": _resolve,
    "reroll": _reroll,
    "use": _use,
    "claim": _claim,
}

__all__ = ["ACTIONS", "apply_step"]
