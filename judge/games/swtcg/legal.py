"""What the player to act may do now: the candidate steps, each kept only if ``check`` passes.

``options`` names what a player could do besides passing (the chance record's ``may``); a player
with nothing there passes at once (swtcg.project.forced-pass). A battle card whose text the engine
does not implement counts as something they could play, so a chance never closes silently over it.
"""

from __future__ import annotations

from judge.games.swtcg import engine as en
from judge.games.swtcg.actions import check
from judge.games.swtcg.engine import Ctx
from judge.games.swtcg.model import ACTIVATED, Play, X
from judge.games.swtcg.state import ARENAS, UNKNOWN
from judge.games.swtcg.steps import (
    Attack,
    Build,
    Deploy,
    Pass,
    Pilot,
    PlayCard,
    Retreat,
    Skip,
    SwAction,
    Use,
)

# the chance each play window may be played in (swtcg.abilities.activated-when and the windows)
FITS = {"any": ("general", "attack"), "attack": ("attack",), "reroll": ("reroll",), "prevent": ("prevent",),
        "disrupt": ("disrupt",), "no-attack": ("general",), "build": (), "would-attack": ()}


def candidates(ctx: Ctx, pid: str) -> list[SwAction]:
    """The steps ``pid`` may take now (passing last, when it is allowed)."""
    st = ctx.state
    if st.turn != pid or st.wait is None:
        return []
    ok = [a for a in _steps(ctx, pid) if check(ctx, a) is None]
    if st.wait in ("deploy", "partial", "build", "retreat", "chance"):
        ok.append(Pass(pid))
    return ok


def has_option(ctx: Ctx, pid: str) -> bool:
    """Whether ``pid`` could do anything now besides passing (or letting a unit go through its turn)."""
    return any(not isinstance(a, Skip) and check(ctx, a) is None for a in _steps(ctx, pid))


def _steps(ctx: Ctx, pid: str) -> list[SwAction]:
    """The steps worth checking now (a few more than are legal; passing and skipping aside)."""
    st = ctx.state
    out: list[SwAction] = []
    w = st.wait
    p = st.players[pid]
    hand = sorted(set(p.hand) - {UNKNOWN})
    if w == "deploy":
        out += [Deploy(pid, card=code) for code in hand]
    elif w == "partial":
        left = en.SETUP_BUILD_POINTS - p.deployed
        for code in hand:
            d = ctx.card(code)
            if left >= 1:
                out.append(Build(pid, card=code, counters=max(1, min(left, d.cost))))
    elif w == "build":
        for code in hand:
            d = ctx.card(code)
            if p.build >= 1 or d.cost == 0:
                out.append(Build(pid, card=code, counters=max(0 if d.cost == 0 else 1, min(p.build, d.cost))))
        for ref in sorted(st.cards):
            c = st.cards[ref]
            if c.controller != pid:
                continue
            d = ctx.card(c.code)
            if c.zone == "build":
                if not c.built and p.build >= 1:
                    out.append(Build(pid, card=ref, counters=max(1, min(p.build, d.cost - c.counters))))
                out.append(Deploy(pid, card=ref))
            if d.pilot is not None:
                for target in sorted(st.cards):
                    out.append(Pilot(pid, card=ref, onto=target))
                out += [Pilot(pid, card=ref, onto="character"), Pilot(pid, card=ref, onto="build")]
            out += _unit_plays(ctx, pid, ref)
    elif w == "retreat":
        out += [Retreat(pid, card=ref) for ref in sorted(st.cards)]
    elif w == "act":
        for ref in st.acting:
            arena = st.cards[ref].zone
            out += [Attack(pid, card=ref, target=t.ref) for t in sorted(st.units_in(arena), key=lambda c: c.ref)
                    if t.controller != pid]
            if arena == "space" and en.kw_value(ctx, ref, "bombard"):
                out += [Attack(pid, card=ref, target=t.ref) for t in sorted(st.units_in("ground"), key=lambda c: c.ref)
                        if t.controller != pid]
            out += _unit_plays(ctx, pid, ref)
            out.append(Skip(pid, card=ref))
    elif w == "chance":
        kind = st.chance["kind"] if st.chance else ""
        for code in hand:
            d = ctx.card(code)
            if d.type != "battle":
                continue
            if not d.implemented:
                out.append(PlayCard(pid, card=code))
                continue
            if not any(kind in FITS[window] for window in d.plays[0].windows):
                continue
            out += [PlayCard(pid, card=code, option=u.option, target=u.target, pay=u.pay, dice=u.dice)
                    for u in _play_variants(ctx, pid, d.plays[0], code)]
        grants = en.grant_sources(ctx)
        for ref in sorted(st.cards):
            c = st.cards[ref]
            if c.controller != pid:
                continue
            out += _unit_plays(ctx, pid, ref)
            for iid, k in en.keyword_instances(ctx, ref, grants):
                window = ACTIVATED.get(k.name)
                if window is None or kind not in FITS[window]:
                    continue
                if k.name == "deflect":
                    where = en.arena_of(ctx, ref)
                    out += [Use(pid, ability=iid, to=u.ref) for u in sorted(st.units_in(where), key=lambda c: c.ref)
                            ] if where else []
                elif k.name == "prevent":
                    out += [Use(pid, ability=iid, target=d["target"]) for d in st.damage]
                elif k.name == "evade" and k.value == X:
                    due = sum(d["amount"] - d["prevented"] for d in st.damage if d["target"] == ref)
                    most = min(due, p.force - en.cost_delta(ctx, pid, "ability"))
                    if most > 0:
                        out.append(Use(pid, ability=iid, amount=most))
                elif k.name == "lucky":
                    out.append(Use(pid, ability=iid, dice=_misses(ctx, k.value)))
                else:
                    out.append(Use(pid, ability=iid))
    return out


def _misses(ctx: Ctx, most: int) -> tuple[int, ...]:
    roll = ctx.state.roll
    if roll is None:
        return ()
    misses = [i for i, d in enumerate(roll["dice"]) if d < 4]
    return tuple(misses[:most])


def _unit_plays(ctx: Ctx, pid: str, ref: str) -> list[SwAction]:
    d = ctx.cdef(ref)
    out: list[SwAction] = []
    st = ctx.state
    kind = st.chance["kind"] if st.chance else ""
    for n, play in enumerate(d.plays if d.unit else ()):
        if not any(kind in FITS[w] or (w == "build" and st.wait == "build")
                   or (w == "would-attack" and st.wait == "act") for w in play.windows):
            continue
        iid = f"{ref}:play" + (f".{n + 1}" if n else "")
        out += _play_variants(ctx, pid, play, iid)
    return out


def _play_variants(ctx: Ctx, pid: str, play: Play, iid: str) -> list[Use]:
    """One step per option and target of a play (a few: self-play tries them in turn)."""
    st = ctx.state
    out: list[Use] = []
    for option, effects in enumerate(play.options):
        targets: list[str | None] = [None]
        kinds = {e.target for e in effects if e.kind not in ("reroll", "disrupt")}
        if kinds & {"your-unit", "enemy-unit", "any-unit", "character", "character-unit"}:
            targets = [c.ref for c in sorted(st.cards.values(), key=lambda c: c.ref)
                       if c.zone in (*ARENAS, "pilot") and not ("your-unit" in kinds and c.controller != pid)
                       and not ("enemy-unit" in kinds and c.controller == pid)
                       and not ("prevent" in {e.kind for e in effects} and not any(d["target"] == c.ref
                                                                                   for d in st.damage))]
        dice = None
        for e in effects:
            if e.kind == "reroll":
                dice = _misses(ctx, e.amount)
        pay = st.players[pid].force if play.any_amount else None
        for t in targets:
            out.append(Use(pid, ability=iid, option=option if len(play.options) > 1 else None, target=t, pay=pay,
                           dice=dice))
    return out


def options(ctx: Ctx, pid: str) -> list[str]:
    """What ``pid`` could do now besides passing (``verb`` plus card or ability)."""
    out = []
    for a in candidates(ctx, pid):
        if isinstance(a, Pass | Skip):
            continue
        name = getattr(a, "ability", None) or getattr(a, "card", "")
        out.append(f"{a.verb} {name}")
    return out
