"""One step of a SW TCG log: checked, carried out, then the turn's procedure runs (``state.frames``,
judge.games.swtcg.engine.run_frame) until a player must act: a build or retreat step, a unit's turn
to attack, or a chance to play. A player who could do nothing but pass passes at once
(swtcg.project.forced-pass); a unit with nothing to do but go through its turn does so."""

from __future__ import annotations

from typing import Final

from i18n import N_, Msg
from judge.games.inputs import NO_INPUTS
from judge.games.swtcg import records as rc
from judge.games.swtcg.actions import apply, check
from judge.games.swtcg.engine import MAX_LOOP, Ctx, NotImplementedCard, new_turn, pass_chance, pass_twice, run_frame
from judge.games.swtcg.legal import may as legal_may
from judge.games.swtcg.legal import may_any, nothing_in_chance
from judge.games.swtcg.opening import end_wait
from judge.games.swtcg.steps import SwAction
from judge.kernel.core import IllegalAction, KernelLoop


def apply_step(ctx: Ctx, a: SwAction) -> None:
    """Check the step, carry it out, and run the procedure until someone must act."""
    problem = check(ctx, a)
    if problem is not None:
        raise IllegalAction(*problem)
    ctx.state.may_stale()
    # a Location or Equipment in play works all the time: its text matters now
    index = ctx.state.index()
    by_zone = index.by_zone  # (a zone is a key there while a card is in it: no call to index.zone a step)
    if "location" in by_zone or "equipped" in by_zone:
        for c in index.zones(("location", "equipped")):
            if not ctx.card(c.code).implemented:
                d = ctx.card(c.code)
                raise NotImplementedCard(d.code, d.display, d.unparsed)
    apply(ctx, a)
    advance(ctx)
    reader = ctx.inputs
    # (a step with no inputs, the commonest, has none left over: NO_INPUTS is empty, never read from)
    unused = reader.unused() if reader.inputs is not NO_INPUTS else None
    if unused is not None:
        raise IllegalAction("swtcg.project.inputs", Msg(
            N_("the step's '{unused}' has more than the step used"),
            unused=unused,
        ))


# the rule each wait but a chance's record cites (advance)
_WAIT_RULES: Final = {"deploy": "swtcg.base.setup", "partial": "swtcg.setup.units-only",
                      "act": "swtcg.base.battle.order"}


def advance(ctx: Ctx) -> None:
    """Run the turn's procedure until a player must act (or the game is over)."""
    st = ctx.state
    something: str | None = None  # a player nothing_in_chance found something for in the chance open now
    for _turn in range(MAX_LOOP):  # (named: compiled, ``_`` was an object, boxed at each turn of the loop)
        if st.phase == "over":
            st.turn = st.wait = None
            st.may = []
            return
        wait = st.wait
        if wait is not None:
            pid = st.turn
            assert pid is not None
            if wait == "chance" and pid != something and nothing_in_chance(ctx, pid):
                # swtcg.project.forced-pass (most chances, for both players)
                ch = st.chance
                assert ch is not None
                if ch.passes == 0:
                    # the other player next: asked now (what they have does not depend on who acts or on
                    # the passes), both passes at once when they have nothing either
                    other = ctx.opponent(pid)
                    if other != pid:
                        if nothing_in_chance(ctx, other):
                            pass_twice(ctx, pid, other)
                            continue
                        something = other
                pass_chance(ctx, pid, auto=True)
                continue
            something = None
            if not ctx.recording:  # nobody reads the names now: whether there are any, the names when read
                if may_any(ctx, pid):
                    st.may_later(ctx.cards)
                    return
                auto_pass(ctx)
                continue
            may = legal_may(ctx, pid)  # what they could do besides passing (legal.options), sorted
            if may:
                st.may = may
                if wait == "chance":
                    ch = st.chance
                    assert ch is not None
                    # (``may``, ``acting``: lists shared by the state and the record, which neither changes:
                    # the state's are replaced, never changed in place)
                    if ctx.recording:
                        ctx.records.append(rc.ChanceRecord(("swtcg.pop.dark-side-first",), kind=ch.kind, player=pid,
                                                           passes=ch.passes, may=may))
                elif ctx.recording:
                    ctx.records.append(rc.AwaitRecord((_WAIT_RULES.get(wait, "swtcg.base.turn.command"),), player=pid,
                                                      wait=wait, acting=st.acting if wait == "act" else None,
                                                      may=may))
                return
            auto_pass(ctx)
            continue
        if not st.frames:
            new_turn(ctx)
            continue
        run_frame(ctx, st.frames.pop())
    raise KernelLoop(MAX_LOOP)


def auto_pass(ctx: Ctx) -> None:
    """The player to act has nothing to do but pass: the engine passes for them (swtcg.project.forced-pass)."""
    st = ctx.state
    pid = st.turn
    assert pid is not None
    if st.wait == "chance":
        pass_chance(ctx, pid, auto=True)
    elif st.wait == "act":
        # a unit with nothing to attack still goes through its turn (swtcg.battle.empty-arena)
        ref = st.acting[0]
        st.cards[ref].tapped = True
        if ctx.recording:
            ctx.records.append(rc.AttackRecord(("swtcg.battle.empty-arena", "swtcg.project.forced-pass"), player=pid,
                                               attacker=ref, arena=st.arena, skip=True))
        st.wait, st.acting = None, []
        st.frames.append({"f": "chance", "kind": "general"})
    else:
        end_wait(ctx, pid, auto=True)
