"""The setup's procedure from the beginning (base.setup, swtcg.setup.*): deploying units with 30
build points, the deploying player going on while not ahead, one partial build each, then turn 1;
and a player's pass on a step that is no chance to play (setup, a build or retreat step)."""

from __future__ import annotations

from judge.games.swtcg import engine as en
from judge.games.swtcg import records as rc
from judge.games.swtcg.engine import Ctx, NotImplementedCard
from judge.games.swtcg.state import Card


def setup_deploy(ctx: Ctx, pid: str, code: str) -> None:
    st = ctx.state
    d = ctx.card(code)
    if not d.implemented:
        raise NotImplementedCard(d.code, d.display, d.unparsed)
    p = st.players[pid]
    p.hand.remove(code)
    p.deployed += d.cost
    who = ctx.seat(pid)  # (the pool's and the seat's own strings: game._shared_codes)
    c = Card(ref=en.new_ref(st, pid, code), code=ctx.cards.same_code(code), owner=who, controller=who, zone="build")
    st.cards[c.ref] = c
    st.moved(c.ref)
    # a pilot goes to the Character arena in setup (swtcg.pilots.setup)
    en.put_in_arena(ctx, pid, c, d, ("swtcg.setup.units-only", "swtcg.pilots.setup"))
    en.draw(ctx, pid, 1, ("swtcg.setup.draw-per-deploy",))
    _next(ctx)


def setup_partial(ctx: Ctx, pid: str, code: str, counters: int) -> None:
    st = ctx.state
    p = st.players[pid]
    p.hand.remove(code)
    who = ctx.seat(pid)  # (the pool's and the seat's own strings: game._shared_codes)
    c = Card(ref=en.new_ref(st, pid, code), code=ctx.cards.same_code(code), owner=who, controller=who, zone="build",
             built=False, counters=counters)
    st.cards[c.ref] = c
    st.moved(c.ref)
    p.deployed += counters  # it may be overbuilt (swtcg.build.completed-not-forced)
    ctx.records.append(rc.BuildRecord(("swtcg.setup.units-only", "swtcg.build.completed-not-forced"), player=pid,
                                      card=c.ref, counters=counters, total=counters, cost=ctx.card(code).cost,
                                      build=en.SETUP_BUILD_POINTS - p.deployed))
    en.draw(ctx, pid, 1, ("swtcg.setup.draw-per-deploy",))
    p.done = True
    st.wait = None
    _next(ctx)


def setup_pass(ctx: Ctx, pid: str) -> None:
    ctx.state.players[pid].done = True
    _next(ctx)


def _next(ctx: Ctx) -> None:
    """Who deploys next: the player deploying goes on while their total does not exceed the other's,
    then the other catches up (base.setup; the Dark Side starts); a player who is done is skipped.
    Then the partial builds, the Dark Side first; then turn 1."""
    st = ctx.state
    order = st.side_order()
    if st.step == "setup":
        left = [pid for pid in order if not st.players[pid].done]
        if left:
            cur = st.turn if st.turn in left else left[0]
            other = st.opponent(cur)
            if other in left and st.players[cur].deployed > st.players[other].deployed:
                cur = other
            st.turn = cur
            st.wait = "deploy"
            return
        st.step = "partial"
        for p in st.players.values():
            p.done = False
    left = [pid for pid in order if not st.players[pid].done]
    if left:
        st.turn, st.wait = left[0], "partial"
        return
    for p in st.players.values():
        p.done = False
        p.deployed = 0
    st.turn = st.wait = None  # the procedure starts turn 1 (engine.new_turn)


def end_wait(ctx: Ctx, pid: str, auto: bool) -> None:
    """A player passes on a build or retreat step or on setup."""
    st = ctx.state
    what = st.wait or ""
    rules = {"build": ("swtcg.base.turn.command",), "retreat": ("swtcg.base.turn.command",),
             "deploy": ("swtcg.setup.out-of-units",), "partial": ("swtcg.setup.units-only",)}.get(what, ())
    ctx.records.append(rc.PassRecord(rules + (("swtcg.project.forced-pass",) if auto else ()), player=pid, what=what,
                                     auto=auto))
    st.wait = None
    if what in ("deploy", "partial"):
        setup_pass(ctx, pid)
