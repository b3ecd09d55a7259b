"""Checking and carrying out one step (STYLE.md section 4): ``check`` names the rule a step breaks before
anything changes; ``APPLY`` carries each verb out (``judge.games.swtcg.procedure.apply_step`` checks,
applies, then runs the turn's procedure until a player must act).

What a player may do depends on what they are asked (``state.wait``): ``deploy``/``partial`` in
setup, ``build`` and ``retreat`` in the command phase, ``act`` when it is a unit's turn in a battle
step, ``chance`` in a chance to play.
"""

from __future__ import annotations

from typing import Any, Final

from i18n import N_, Msg
from judge.games.swtcg import engine as en
from judge.games.swtcg import opening
from judge.games.swtcg import records as rc
from judge.games.swtcg.engine import Ctx, NotImplementedCard
from judge.games.swtcg.model import ACTIVATED, STATIC_USED, CardDef, CardPool, Keyword, Play, X
from judge.games.swtcg.state import ARENAS, ARENAS_OR_BUILD, IN_PLAY, UNKNOWN, AttackState, Card
from judge.games.swtcg.steps import (
    ABILITY,
    REF,
    Attack,
    Build,
    Complete,
    Deploy,
    Equip,
    Pass,
    Pilot,
    PlayCard,
    Prevent,
    Reroll,
    Retreat,
    Skip,
    SwAction,
    Use,
)

VERBS_BY_WAIT: Final = {
    "deploy": ("deploy", "pass"),
    "partial": ("build", "pass"),
    "build": ("build", "deploy", "pilot", "use", "complete", "equip", "pass"),
    "retreat": ("retreat", "pass"),
    "act": ("attack", "skip", "use"),
    "chance": ("play", "use", "prevent", "reroll", "pass"),
}
WAIT_RULE: Final = {"deploy": "swtcg.setup.out-of-units", "partial": "swtcg.setup.units-only",
                    "build": "swtcg.base.turn.command", "retreat": "swtcg.retreat.untapped-only",
                    "act": "swtcg.base.battle.order", "chance": "swtcg.pop.dark-side-first"}
# the rule of the step a verb belongs to, cited when it is asked in another step (WAIT_RULE otherwise:
# in setup, that setup's rule, but a pilot's swtcg.pilots.setup; in a chance to play, the chance's)
VERB_RULE: Final = {"pilot": "swtcg.pilots.build-step-move", "build": "swtcg.base.turn.command",
                    "deploy": "swtcg.base.turn.command", "complete": "swtcg.base.turn.command",
                    "equip": "swtcg.base.equip", "retreat": "swtcg.base.turn.command",
                    "attack": "swtcg.base.battle.order", "skip": "swtcg.base.battle.order"}
SETUP_WAITS: Final = frozenset({"deploy", "partial"})
# the chance each play window belongs to
WINDOW_RULE: Final = {"any": "swtcg.abilities.activated-when", "attack": "swtcg.timing.for-this-attack",
                      "reroll": "swtcg.pop.dice-roll", "prevent": "swtcg.damage.prevent-when",
                      "disrupt": "swtcg.keywords.disrupt-targets", "build": "swtcg.timing.play-only-build-step",
                      "no-attack": "swtcg.timing.play-only-no-attack",
                      "would-attack": "swtcg.timing.play-only-would-attack"}

Problem = tuple[str, str] | None


def _why(ctx: Ctx, rule: str, template: str, **params: Any) -> tuple[str, str]:
    """A step's problem: the rule it breaks, and why (a ``Msg``); only checking (``ctx.checking``:
    what a player could do, judge.games.swtcg.legal), the rule alone (nobody reads the words)."""
    if ctx.checking:
        return rule, ""
    return rule, Msg(template, **params)


# ====================================================================== check
def check(ctx: Ctx, a: SwAction) -> Problem:
    st = ctx.state
    if st.phase == "over":
        return _why(ctx, "swtcg.base.win", N_("the game is over"))
    if st.wait is None or st.turn is None:
        return _why(ctx, "swtcg.base.turn.command", N_("nobody is asked to act now"))
    if a.by != st.turn:
        if ctx.checking:
            return WAIT_RULE[st.wait], ""
        what = {"chance": Msg(N_("has the chance to play")), "act": Msg(N_("has the unit to act"))}.get(
            st.wait, Msg(N_("acts")))
        return _why(ctx, WAIT_RULE[st.wait], N_("{turn} {what} now, not {by}"), turn=st.turn, what=what, by=a.by)
    verb = a.verb
    allowed = VERBS_BY_WAIT[st.wait]
    if verb not in allowed:
        if verb == "play":
            return _why(
                ctx, "swtcg.abilities.battle-cards",
                N_("battle cards are played only in a chance to play in the battle phase"),
            )
        if st.wait in SETUP_WAITS:
            rule = "swtcg.pilots.setup" if verb == "pilot" else WAIT_RULE[st.wait]
        elif st.wait == "chance":  # (a chance to play is passed, or played in: its own rule)
            rule = WAIT_RULE[st.wait]
        else:
            rule = VERB_RULE.get(verb, WAIT_RULE[st.wait])
        return _why(
            ctx, rule,
            N_("'{verb}' is not possible now ({wait}): {turn} may {allowed}"),
            verb=verb, wait=st.wait, turn=st.turn, allowed=', '.join(allowed),
        )
    # each verb's checks (CHECKS), called directly: the compiled engine calls each natively
    if isinstance(a, Pass):
        return None
    if isinstance(a, Attack):
        return _check_attack(ctx, a)
    if isinstance(a, Deploy):
        return _check_deploy(ctx, a)
    if isinstance(a, Build):
        return _check_build(ctx, a)
    if isinstance(a, PlayCard):
        return _check_play(ctx, a)
    if isinstance(a, (Use, Prevent, Reroll)):
        return _check_use(ctx, a)
    if isinstance(a, Pilot):
        return _check_pilot(ctx, a)
    if isinstance(a, Retreat):
        return _check_retreat(ctx, a)
    if isinstance(a, Skip):
        return _check_skip(ctx, a)
    if isinstance(a, Complete):
        return _check_complete(ctx, a)
    if isinstance(a, Equip):
        return _check_equip(ctx, a)
    checker = CHECKS.get(verb)
    return checker(ctx, a) if checker else None


def _hand_code(ctx: Ctx, pid: str, code: str) -> CardDef | None:
    if ("." in code and REF.match(code)) or code not in ctx.state.players[pid].hand:  # (a reference has a dot)
        return None
    return ctx.card(code)


def _stack_problem(ctx: Ctx, pid: str, d: CardDef, moving: str | None = None) -> Problem:
    """A unique unit joins the unit of its name a player has in battle or retreated (base.unique):
    at most 4 cards, one copy of each version (swtcg.stacking.normal-rules)."""
    same = en.same_name(ctx, pid, d, moving)
    if same is None:
        return None
    c = ctx.state.cards[same]
    versions = [ctx.card(code).version for code in (c.code, *c.under)]
    if len(versions) >= en.STACK_MAX:
        return _why(
            ctx, "swtcg.stacking.normal-rules",
            N_("the stack of {same} has {n_versions} cards already (at most 4)"),
            same=same, n_versions=len(versions),
        )
    if d.version in versions:
        return _why(
            ctx, "swtcg.stacking.normal-rules",
            N_("the stack of {same} has version {version} already"),
            same=same, version=d.version,
        )
    return None


def _check_deploy(ctx: Ctx, a: Deploy) -> Problem:
    st = ctx.state
    pid = a.by or ""
    if st.wait == "deploy":
        d = _hand_code(ctx, pid, a.card)
        if d is None:
            return _why(ctx, "swtcg.setup.units-only", N_("{card} is not a card in {pid}'s hand"), card=a.card, pid=pid)
        if not d.unit:
            return _why(
                ctx, "swtcg.setup.units-only",
                N_("only units are deployed in setup ({display} is a {type} card)"),
                display=d.display, type=d.type,
            )
        left = en.SETUP_BUILD_POINTS - st.players[pid].deployed
        if d.cost > left:
            return _why(
                ctx, "swtcg.setup.out-of-units",
                N_("{display} costs {cost}; {pid} has {left} of 30 build points left"),
                display=d.display, cost=d.cost, pid=pid, left=left,
            )
        return _stack_problem(ctx, pid, d)
    if not REF.match(a.card):
        return _why(
            ctx, "swtcg.build.through-build-zone",
            N_("every card passes through the build zone: deploy a card built there"),
        )
    c = st.cards.get(a.card)
    if c is None or c.zone != "build" or c.controller != pid:
        return _why(
            ctx, "swtcg.build.through-build-zone",
            N_("{card} is not a card in {pid}'s build zone"),
            card=a.card, pid=pid,
        )
    d = ctx.card(c.code)
    if not d.unit and d.type != "location":  # a complete Location goes into its arena (swtcg.base.location)
        return _why(ctx, "swtcg.base.build", N_("{display} is a {type} card, not a unit"),
                    display=d.display, type=d.type)
    if not c.built and c.counters < d.cost:
        return _why(
            ctx, "swtcg.build.partial-build",
            N_("{card} has {counters} of its {cost} build counters"),
            card=a.card, counters=c.counters, cost=d.cost,
        )
    if d.type == "location":
        return None
    return _stack_problem(ctx, pid, d, moving=a.card)


def _built_problem(ctx: Ctx, pid: str, ref: str, kind: str, rule: str) -> Problem:
    """``ref`` is a card of type ``kind`` in ``pid``'s build zone with as many build counters as its cost."""
    c = ctx.state.cards.get(ref)
    if c is None or c.zone != "build" or c.controller != pid:
        return _why(ctx, rule, N_("{card} is not a card in {pid}'s build zone"), card=ref, pid=pid)
    d = ctx.card(c.code)
    if d.type != kind:
        return _why(ctx, rule, N_("{display} is a {type} card, not a {kind}"),
                    display=d.display, type=d.type, kind=kind)
    if c.counters < d.cost:
        return _why(
            ctx, "swtcg.build.partial-build",
            N_("{card} has {counters} of its {cost} build counters"),
            card=ref, counters=c.counters, cost=d.cost,
        )
    return None


def _check_complete(ctx: Ctx, a: Complete) -> Problem:
    """A complete Mission of one's build zone, in one's build step (swtcg.base.mission); its effect's
    option, target and cost are checked as a battle card's."""
    pid = a.by or ""
    prob = _built_problem(ctx, pid, a.card, "mission", "swtcg.base.mission")
    if prob:
        return prob
    d = ctx.cdef(a.card)
    if not d.implemented:
        return None  # carrying it out says the text is not implemented
    return _play_problem(ctx, a, d.plays[0] if d.plays else Play(), a.card, None, "mission")


def _check_equip(ctx: Ctx, a: Equip) -> Problem:
    """Equip (swtcg.base.equip): a complete Equipment of one's build zone, or one on a unit, onto
    another of one's units in an arena of a type it names; the Equip cost paid, once per turn."""
    st = ctx.state
    pid = a.by or ""
    c = st.cards.get(a.card)
    if c is not None and c.zone == "equipped" and c.controller == pid:
        if c.on == a.onto:
            return _why(ctx, "swtcg.base.equip", N_("{card} is on {onto} already"), card=a.card, onto=a.onto)
    else:
        prob = _built_problem(ctx, pid, a.card, "equipment", "swtcg.base.equip")
        if prob:
            return prob
        c = st.cards[a.card]
    d = ctx.card(c.code)
    if not d.implemented:
        return None
    u = st.cards.get(a.onto)
    if u is None or u.controller != pid or u.zone not in ARENAS:
        return _why(ctx, "swtcg.base.equip", N_("{onto} is not a unit {pid} controls"), onto=a.onto, pid=pid)
    ud = ctx.card(u.code)
    kinds = {en.arenas_named(s.scope) for s in d.statics if s.kind == "equip"}
    if any(ud.type not in named for named in kinds):
        return _why(
            ctx, "swtcg.cards.type-reference",
            N_("{display} equips a {kind} unit; {unit} is a {type} unit"),
            display=d.display, kind="/".join(sorted({a for named in kinds for a in named})), unit=ud.display,
            type=ud.type,
        )
    if f"{a.card}:equip" in st.players[pid].once:
        return _why(ctx, "swtcg.base.equip", N_("{card}'s Equip cost was paid this turn already"), card=a.card)
    p = st.players[pid]
    for kind, n in en.equip_costs(d):
        have = p.build if kind == "build" else p.force
        if have < n:
            return _why(
                ctx, "swtcg.costs.must-pay",
                N_("Equip costs {n} {what}; {pid} has {have}"),
                n=n, what=Msg(N_("build points")) if kind == "build" else Msg(N_("Force")), pid=pid, have=have,
            )
    return None


def _check_build(ctx: Ctx, a: Build) -> Problem:
    st = ctx.state
    pid = a.by or ""
    p = st.players[pid]
    if st.wait == "partial":
        d = _hand_code(ctx, pid, a.card)
        if d is None:
            return _why(ctx, "swtcg.setup.units-only", N_("{card} is not a card in {pid}'s hand"), card=a.card, pid=pid)
        if not d.unit:
            return _why(
                ctx, "swtcg.setup.units-only",
                N_("only a unit is partially built at the end of setup, not a {type} card"),
                type=d.type,
            )
        left = en.SETUP_BUILD_POINTS - p.deployed
        if not 1 <= a.counters <= left:
            return _why(ctx, "swtcg.setup.units-only", N_("from 1 to the {left} build points left"), left=left)
        return None
    if REF.match(a.card):
        c = st.cards.get(a.card)
        if c is None or c.zone != "build" or c.controller != pid or c.built:
            return _why(
                ctx, "swtcg.build.partial-build",
                N_("{card} is not a partially built card in {pid}'s build zone"),
                card=a.card, pid=pid,
            )
        if a.counters < 1:
            return _why(ctx, "swtcg.build.partial-build", N_("at least one build counter"))
    else:
        d = _hand_code(ctx, pid, a.card)
        if d is None:
            return _why(ctx, "swtcg.build.partial-build", N_("{card} is not a card in {pid}'s hand"),
                        card=a.card, pid=pid)
        if d.type == "battle":
            return _why(ctx, "swtcg.abilities.battle-cards", N_("battle cards are played, not built"))
        if a.counters < 1 and d.cost > 0:
            return _why(
                ctx, "swtcg.build.partial-build",
                N_("a card started in the build step needs at least one build counter"),
            )
    if a.counters > p.build:
        return _why(ctx, "swtcg.build.partial-build", N_("{pid} has {build} build points"), pid=pid, build=p.build)
    return None


def _check_pilot(ctx: Ctx, a: Pilot) -> Problem:
    st = ctx.state
    pid = a.by or ""
    c = st.cards.get(a.card)
    if c is None or c.controller != pid:
        return _why(ctx, "swtcg.control.controller", N_("{card} is not a card {pid} controls"), card=a.card, pid=pid)
    d = ctx.card(c.code)
    if d.pilot is None:
        return _why(ctx, "swtcg.pilots.move-onto-units", N_("{display} has no Pilot ability"), display=d.display)
    if not c.built:
        return _why(ctx, "swtcg.abilities.partially-built-inactive", N_("{card} is partially built"), card=a.card)
    if c.moved:
        return _why(ctx, "swtcg.pilots.build-step-move", N_("{card} has moved once in this build step"), card=a.card)
    if a.onto in ("character", "build"):
        if a.onto == "character" and c.zone not in ("pilot", "build"):
            return _why(
                ctx, "swtcg.pilots.build-step-move",
                N_("{card} is in the {zone} arena already"),
                card=a.card, zone=c.zone,
            )
        if a.onto == "build" and c.zone != "pilot":
            return _why(ctx, "swtcg.pilots.build-step-move", N_("{card} pilots no unit"), card=a.card)
        return None
    u = st.cards.get(a.onto)
    if u is None or u.controller != pid or u.zone == "pilot":
        return _why(ctx, "swtcg.pilots.move-onto-units", N_("{onto} is not a unit {pid} controls"),
                    onto=a.onto, pid=pid)
    ud = ctx.card(u.code)
    if ud.type not in ("space", "ground"):
        return _why(
            ctx, "swtcg.pilots.move-onto-units",
            N_("{display} is a {type} card: pilots go on Space or Ground units"),
            display=ud.display, type=ud.type,
        )
    if c.zone == "pilot":
        if u.zone not in ARENAS_OR_BUILD or u.ref == c.on:
            return _why(ctx, "swtcg.pilots.build-step-move", N_("{onto} is not another unit"), onto=a.onto)
        if not u.built:  # a card in the build zone is a unit once built (swtcg.abilities.partially-built-inactive)
            return _why(ctx, "swtcg.pilots.build-step-move",
                        N_("{onto} is partially built: not a unit yet, a pilot cannot move onto it"), onto=a.onto)
    elif u.zone not in ("space", "ground"):
        return _why(ctx, "swtcg.pilots.build-step-move", N_("{onto} is not in the Space or Ground arena"), onto=a.onto)
    if ud.droid:
        return _why(
            ctx, "swtcg.pilots.no-droid-units",
            N_("{display} is a Droid: it has no room for a pilot"),
            display=ud.display,
        )
    if not ud.has_subtype(d.pilot.kind):
        return _why(
                    ctx, "swtcg.pilots.type-match",
                    N_("{display} pilots a {kind}; {unit} is a {subtypes}"),
                    display=d.display, kind=d.pilot.kind, unit=ud.display, subtypes=' '.join(ud.subtypes))
    if u.pilot:
        return _why(ctx, "swtcg.pilots.one-per-unit", N_("{onto} has a pilot ({pilot})"), onto=a.onto, pilot=u.pilot)
    return None


def _check_retreat(ctx: Ctx, a: Retreat) -> Problem:
    st = ctx.state
    c = st.cards.get(a.card)
    if c is None or c.controller != a.by or c.zone not in IN_PLAY:
        return _why(
            ctx, "swtcg.retreat.untapped-only",
            N_("{card} is not a unit or pilot {by} has in an arena"),
            card=a.card, by=a.by,
        )
    if c.tapped:
        return _why(
            ctx, "swtcg.retreat.untapped-only",
            N_("{card} is tapped: only untapped units retreat in the retreat step"),
            card=a.card,
        )
    if c.pilot and c.pilot in st.cards and st.cards[c.pilot].tapped:
        return _why(
            ctx, "swtcg.pilots.retreat",
            N_("{card}'s pilot {pilot} is tapped: both must be untapped"),
            card=a.card, pilot=c.pilot,
        )
    return None


def _check_attack(ctx: Ctx, a: Attack) -> Problem:
    st = ctx.state
    if a.card not in st.acting:
        return _why(
            ctx, "swtcg.base.battle.order",
            N_("it is the turn of {acting} (the fastest untapped unit)"),
            acting=', '.join(st.acting),
        )
    t = st.cards.get(a.target)
    if t is None:
        return _why(ctx, "swtcg.base.attack", N_("{target} is not in play"), target=a.target)
    if t.controller == a.by and t.zone != "pilot":
        return _why(ctx, "swtcg.base.attack", N_("{target} is {by}'s own unit"), target=a.target, by=a.by)
    why = en.can_attack(ctx, a.card, a.target)
    if why:
        return _why(ctx, why, N_("{card} cannot attack {target}"), card=a.card, target=a.target)
    return None


def _check_skip(ctx: Ctx, a: Skip) -> Problem:
    if a.card not in ctx.state.acting:
        return _why(ctx, "swtcg.base.battle.order", N_("it is the turn of {acting}"),
                    acting=', '.join(ctx.state.acting))
    return None


def window_problem(ctx: Ctx, window: str, unit: str | None = None) -> Problem:
    """Whether a play of ``window`` may come now (the chance's kind, the step)."""
    st = ctx.state
    kind = st.chance.kind if st.chance is not None else None
    rule = WINDOW_RULE[window]
    if window == "any":
        ok = kind in ("general", "attack")
    elif window == "attack":
        ok = kind == "attack" and st.attack is not None
    elif window == "reroll":
        ok = kind == "reroll" and st.roll is not None
    elif window in ("prevent", "disrupt"):
        ok = kind == window
    elif window == "no-attack":
        ok = kind == "general" and st.attack is None
    elif window == "build":
        ok = st.wait == "build"
    elif window == "would-attack":
        ok = st.wait == "act" and unit in st.acting
    else:
        raise KeyError(window)
    if ok:
        return None
    if ctx.checking:
        return rule, ""
    now = Msg(N_("a {kind} chance"), kind=kind) if kind else Msg(N_("the {wait} step"), wait=st.wait)
    return _why(
        ctx, rule,
        N_("this is played {window}, not in {now}"),
        window=window.replace('-', ' '), now=now,
    )


def _play_problem(ctx: Ctx, a: PlayCard | Use | Complete, play: Play, ability_id: str, source: str | None,
                  scope: str) -> Problem:
    """The checks a battle card, an activated ability and a Mission's completion share: the option
    ("Choose one"), the window, once-per limits, targets, the cost."""
    st = ctx.state
    pid = a.by or ""
    n = len(play.options)
    option = a.option if a.option is not None else 0
    if n == 0:
        return _why(
            ctx, "swtcg.project.not-implemented",
            N_("{ability_id} has no effect the engine knows"),
            ability_id=ability_id,
        )
    if option >= n:
        return _why(
            ctx, "swtcg.effects.choose-one",
            N_("{ability_id} has {n} option(s): 0 to {last}"),
            ability_id=ability_id, n=n, last=n - 1,
        )
    if n > 1 and a.option is None:
        return _why(
            ctx, "swtcg.effects.choose-one",
            N_("{ability_id} says 'Choose one': name the option (0 to {n})"),
            ability_id=ability_id, n=n - 1,
        )
    window = play.windows[option] if option < len(play.windows) else play.windows[0]
    prob = window_problem(ctx, window, source)
    if prob:
        return prob
    key = f"{ability_id}#{option}"
    if play.once and key in st.players[pid].once:
        return _why(
            ctx, "swtcg.timing.this-turn",
            N_("{ability_id} was played this turn already (once per turn)"),
            ability_id=ability_id,
        )
    if window == "attack" and st.attack is not None and source is not None and \
            any(e.target == "self" for e in play.options[option]) and \
            source != st.attack.attacker and source != st.attack.defender:
        return _why(ctx, "swtcg.timing.for-this-attack", N_("{source} is neither attacking nor attacked"),
                    source=source)
    if window == "attack" and st.attack is not None and key in st.attack.used:
        return _why(
            ctx, "swtcg.timing.for-this-attack",
            N_("{ability_id} was played in this attack already"),
            ability_id=ability_id,
        )
    if window == "reroll" and st.roll is not None and ability_id in st.roll.used:
        return _why(
            ctx, "swtcg.timing.reroll-once-per-roll",
            N_("{ability_id} rerolled this roll already"),
            ability_id=ability_id,
        )
    if window == "prevent" and st.chance is not None and key in st.chance.used:
        return _why(
            ctx, "swtcg.damage.prevent-when",
            N_("{ability_id} was played in this chance already"),
            ability_id=ability_id,
        )
    for e in play.options[option]:
        amount = e.amount
        if e.kind == "reroll":
            dice = getattr(a, "dice", None) or ()
            if st.roll is None or len(dice) > amount or any(i >= len(st.roll.dice) for i in dice):
                return _why(
                    ctx, "swtcg.timing.reroll-once-per-roll",
                    N_("reroll at most {amount} of the dice rolled"),
                    amount=amount,
                )
            continue
        if e.kind == "disrupt":
            # "Disrupt a battle card" (the one wording the cards use): the latest play not disrupted yet,
            # as the effect finds it (engine.apply_effect), is a battle card's (no card in play its source)
            # and not a unit's ability (swtcg.keywords.disrupt-targets)
            last: dict[str, Any] | None = None
            for i in range(len(st.frames) - 1, -1, -1):  # (a loop: mypyc fails on next() over reversed() here)
                frame = st.frames[i]
                if frame["f"] == "resolve-play" and not frame.get("disrupted"):
                    last = frame
                    break
            if last is None:
                return _why(ctx, "swtcg.keywords.disrupt-targets",
                            N_("{ability_id} disrupts a battle card: no battle card is being played"),
                            ability_id=ability_id)
            if last["source"] is not None:
                return _why(ctx, "swtcg.keywords.disrupt-targets",
                            N_("{ability_id} disrupts a battle card: {what} is not one"), ability_id=ability_id,
                            what=last["source_id"])
            continue
        target = a.target
        why = en.target_problem(ctx, e.target, pid, target, source)
        if why:
            return _why(
                ctx, why,
                N_("{ability_id} needs a {replace} as its target, not {target}"),
                ability_id=ability_id, replace=e.target.replace('-', ' '), target=target,
            )
        if e.kind == "prevent":
            who = en.resolve_target(ctx, e.target, source, pid, target)
            if not any(d["target"] == who for d in st.damage):
                return _why(ctx, "swtcg.damage.prevent-when", N_("no damage waits to be dealt to {who}"), who=who)
        if e.kind == "gain-control" and target is not None and \
                ctx.cdef(target).cost > (_x_of(a) if amount == X else amount):
            return _why(
                ctx, "swtcg.costs.x-uses-printed-cost",
                N_("{target} has build cost {cost}: more than X ({x})"),
                target=target, cost=ctx.cdef(target).cost, x=_x_of(a) if amount == X else amount,
            )
        del amount
    if play.cost == X and getattr(a, "amount", None) is None:
        return _why(
            ctx, "swtcg.costs.x-uses-printed-cost",
            N_("{ability_id} costs X Force: say X ('amount')"),
            ability_id=ability_id,
        )
    cost = _printed(play, a) + en.cost_delta(ctx, pid, scope, source)
    if play.any_amount:
        if a.pay is None:
            return _why(
                ctx, "swtcg.costs.any-amount-reduced",
                N_("{ability_id} costs any amount of Force: say how much ('pay')"),
                ability_id=ability_id,
            )
        cost = a.pay
    cost = max(0, cost)
    if st.players[pid].force < cost:
        return _why(
            ctx, "swtcg.costs.must-pay",
            N_("{ability_id} costs {cost} Force; {pid} has {force}"),
            ability_id=ability_id, cost=cost, pid=pid, force=st.players[pid].force,
        )
    return None


def _check_play(ctx: Ctx, a: PlayCard) -> Problem:
    st = ctx.state
    pid = a.by or ""
    d = _hand_code(ctx, pid, a.card)
    if d is None:
        return _why(ctx, "swtcg.abilities.battle-cards", N_("{card} is not a card in {pid}'s hand"),
                    card=a.card, pid=pid)
    if d.type != "battle":
        return _why(
            ctx, "swtcg.cards.type-reference",
            N_("{display} is a {type} card: only battle cards are played"),
            display=d.display, type=d.type,
        )
    if st.phase != "battle":
        return _why(ctx, "swtcg.abilities.battle-cards", N_("battle cards are played only in the battle phase"))
    if not d.implemented:
        kind = st.chance.kind if st.chance is not None else None
        if kind in ("general", "attack"):
            return None
        return _why(ctx, "swtcg.abilities.battle-cards", N_("not in this chance"))
    return _play_problem(ctx, a, d.plays[0], a.card, None, "battle")


AbilityParts = tuple[str, str, int, str | None]
MAX_ABILITIES: Final = 4096


def parse_ability(ctx: Ctx, ability: str) -> AbilityParts:
    """An ability's parts: the card's reference, the keyword (or ``play``), its number (1 unless
    ``.n``), the card granting it (``@ref``). Its answers, by ability (a replay names the same few
    over and over), are kept with the card pool (``Interned.abilities``: the module keeps none),
    emptied when it holds MAX_ABILITIES."""
    table: dict[str, AbilityParts] = ctx.cards.interned.abilities
    found = table.get(ability)
    if found is not None:
        return found
    m = ABILITY.match(ability)
    assert m is not None
    found = m.group("ref"), m.group("name"), int(m.group("n") or 1), m.group("grant")
    if len(table) >= MAX_ABILITIES:
        table.clear()
    table[ability] = found
    return found


def find_keyword(ctx: Ctx, ability: str) -> Keyword | None:
    ref, _, _, _ = parse_ability(ctx, ability)
    for iid, k in en.keyword_instances(ctx, ref):
        if iid == ability:
            return k
    return None


def _check_use(ctx: Ctx, a: Use | Prevent | Reroll) -> Problem:
    st = ctx.state
    pid = a.by or ""
    ref, name, n, _ = parse_ability(ctx, a.ability)
    c = st.cards.get(ref)
    if c is None:
        return _why(ctx, "swtcg.abilities.activated-definition", N_("{ref} is not in play"), ref=ref)
    if c.controller != pid:
        return _why(
            ctx, "swtcg.control.controller",
            N_("{ref} is controlled by {controller}"),
            ref=ref, controller=c.controller,
        )
    if name == "hidden-cost":
        return _hidden_cost_problem(ctx, a, c)
    if not en.active(st, c):
        return ("swtcg.setup.no-abilities" if st.phase == "setup" else "swtcg.abilities.partially-built-inactive",
                Msg(N_("{ref}'s abilities do not work now"), ref=ref))
    d = ctx.card(c.code)
    if name == "play":
        if not d.unit:
            return _why(ctx, "swtcg.cards.units", N_("only units have activated abilities"))
        play = d.plays[n - 1] if n - 1 < len(d.plays) else None
        if play is None:
            return _why(
                ctx, "swtcg.abilities.activated-definition",
                N_("{display} has no activated ability {n}"),
                display=d.display, n=n,
            )
        if play.reserves and c.zone != "build":
            return _why(
                ctx, "swtcg.base.reserves",
                N_("{ref}'s Reserves ability works only while it is in the build zone"),
                ref=ref,
            )
        if c.zone == "build" and not play.reserves:  # a Reserves ability keeps its kind and window there
            option = a.option if isinstance(a, Use) and a.option is not None else 0
            windows = play.windows
            if (windows[option] if option < len(windows) else windows[0]) != "prevent":
                return _why(
                    ctx, "swtcg.damage.prevent-from-build-zone",
                    N_("{ref} is in the build zone: only prevention there"),
                    ref=ref,
                )
        if play.tap and c.tapped:
            return _why(ctx, "swtcg.abilities.activated-definition", N_("{ref} is tapped"), ref=ref)
        if not isinstance(a, Use):
            return _why(
                ctx, "swtcg.abilities.activated-when",
                N_("'{verb}' names Evade, Deflect, Prevent or a reroll"),
                verb=a.verb,
            )
        return _play_problem(ctx, a, play, a.ability, ref, "ability")
    k = find_keyword(ctx, a.ability)
    if k is None:
        return _why(
            ctx, "swtcg.abilities.granted-instances",
            N_("{ref} has no ability {ability} now"),
            ref=ref, ability=a.ability,
        )
    window = ACTIVATED.get(k.name)
    if window is None:
        return _why(ctx, "swtcg.abilities.activated-definition", N_("{text} is not an activated ability"),
                    text=k.text())
    if isinstance(a, Prevent) and window != "prevent" or isinstance(a, Reroll) and window != "reroll":
        return _why(
            ctx, "swtcg.abilities.activated-when",
            N_("{ability} is no {verb} ability"),
            ability=a.ability, verb=a.verb,
        )
    prob = window_problem(ctx, window)
    if prob:
        return prob
    if k.cost == X and getattr(a, "amount", None) is None:
        return _why(
            ctx, "swtcg.costs.x-uses-printed-cost",
            N_("{ability} costs X Force: say how much ('amount')"),
            ability=a.ability,
        )
    cost = keyword_cost(ctx, pid, k, a)
    if st.players[pid].force < cost:
        return _why(
            ctx, "swtcg.costs.must-pay",
            N_("{ability} costs {cost} Force; {pid} has {force}"),
            ability=a.ability, cost=cost, pid=pid, force=st.players[pid].force,
        )
    att = st.attack
    to = getattr(a, "to", None)
    target = getattr(a, "target", None)
    if k.name in ("evade", "deflect", "prevent"):
        if st.chance is not None and a.ability in st.chance.used:
            return _why(ctx, "swtcg.damage.prevent-when", N_("{ability} was used in this chance already"),
                        ability=a.ability)
        who = target if k.name == "prevent" and target else ref
        if k.name == "prevent" and (who not in st.cards or st.cards[who].controller != pid):
            return _why(ctx, "swtcg.control.you-your", N_("{who} is not {pid}'s unit"), who=who, pid=pid)
        if k.name == "prevent" and st.cards[who].zone == "pilot":  # "one of your units": never a pilot
            return _why(ctx, "swtcg.pilots.unit-effects-exclude", N_("{who} is a pilot, not a unit"), who=who)
        if not any(p["target"] == who for p in st.damage):
            return _why(ctx, "swtcg.damage.prevent-when", N_("no damage waits to be dealt to {who}"), who=who)
        if k.name == "evade" and all(p.get("unevadable") for p in st.damage if p["target"] == who):
            return _why(ctx, "swtcg.project.unevadable-damage",
                        N_("Evade cannot prevent the damage waiting for {who}"), who=who)
        amount = getattr(a, "amount", None)
        if amount is not None and not 1 <= amount <= (k.value if k.value != X else 99):
            return _why(ctx, "swtcg.damage.prevent-when", N_("{ability} prevents up to {k}"),
                        ability=a.ability, k=k.value)
        if k.name == "deflect":
            if to is None:
                return _why(ctx, "swtcg.pop.new-damage-waits",
                            N_("Deflect names the unit to deal the damage to ('to')"))
            if en.arena_of(ctx, to) is None or en.arena_of(ctx, to) != en.arena_of(ctx, ref) or \
                    st.cards[to].zone == "pilot":
                return _why(ctx, "swtcg.pop.new-damage-waits", N_("{to} is not a unit in {ref}'s arena"),
                            to=to, ref=ref)
        return None
    if k.name in ("intercept", "retaliate", "lucky"):
        prob = attack_keyword_problem(ctx, k.name, a.ability, ref, pid)
        if prob is not None or k.name != "lucky":
            return prob
        assert att is not None and st.roll is not None
        dice = getattr(a, "dice", None) or ()
        most = min(en.kw_value(ctx, ref, "lucky"), att.rolled or 0)
        if len(dice) > most or any(i >= len(st.roll.dice) for i in dice):
            return _why(
                ctx, "swtcg.keywords.lucky-reroll-count",
                N_("Lucky rerolls at most {most} of the dice first rolled"),
                most=most,
            )
        return None
    if att is None:
        return _why(ctx, "swtcg.timing.for-this-attack", N_("no unit is attacking"))
    return _why(ctx, "swtcg.abilities.activated-definition", N_("{ability} cannot be used now"), ability=a.ability)


def attack_keyword_problem(ctx: Ctx, name: str, ability: str, ref: str, pid: str) -> Problem:
    """Why Intercept, Retaliate or Lucky (``name``, instance ``ability`` of ``ref``) cannot be used by
    ``pid`` now, whatever its step says (Lucky's dice aside), or None: ``attack_keyword_refusal``'s
    refusal, worded."""
    why = attack_keyword_refusal(ctx, name, ability, ref, pid)
    if why == _USABLE:
        return None
    if why == _NO_ATTACK:
        return _why(ctx, "swtcg.timing.for-this-attack", N_("no unit is attacking"))
    if why == _INTERCEPT_USED:
        return _why(
            ctx, "swtcg.keywords.intercept-once-per-attack",
            N_("{ability} was used in this attack already"),
            ability=ability,
        )
    if why == _INTERCEPT_NOT_ATTACKED:
        return _why(
            ctx, "swtcg.keywords.intercept",
            N_("no other unit of {pid}'s in {ref}'s arena is attacked"),
            pid=pid, ref=ref,
        )
    if why == _RETALIATE_USED:
        return _why(ctx, "swtcg.keywords.retaliate", N_("{ability} was used in this attack already"), ability=ability)
    if why == _RETALIATE_NOT_ATTACKED:
        return _why(ctx, "swtcg.keywords.retaliate", N_("{ref} is not the unit attacked"), ref=ref)
    if why == _RETALIATE_OTHER_ARENA:
        return _why(ctx, "swtcg.keywords.retaliate",
                    N_("{ref} is attacked from another arena: Retaliate answers an attacker in its own arena"), ref=ref)
    if why == _LUCKY_USED:
        return _why(ctx, "swtcg.keywords.lucky-once-per-attack", N_("{ref} used Lucky in this attack already"), ref=ref)
    return _why(ctx, "swtcg.keywords.lucky-once-per-attack", N_("{ref} is neither attacking nor attacked"), ref=ref)


# attack_keyword_refusal's answers (attack_keyword_problem words them)
_USABLE: Final = 0
_NO_ATTACK: Final = 1
_INTERCEPT_USED: Final = 2
_INTERCEPT_NOT_ATTACKED: Final = 3
_RETALIATE_USED: Final = 4
_RETALIATE_NOT_ATTACKED: Final = 5
_LUCKY_USED: Final = 6
_LUCKY_NOT_IN_ATTACK: Final = 7
_RETALIATE_OTHER_ARENA: Final = 8


def attack_keyword_refusal(ctx: Ctx, name: str, ability: str, ref: str, pid: str) -> int:
    """Which refusal of Intercept, Retaliate or Lucky (``name``, instance ``ability`` of ``ref``, used
    by ``pid``) applies now, whatever its step says (Lucky's dice aside), without wording it:
    ``_USABLE`` (0) when none does. The one test check (``attack_keyword_problem``) and the
    legal-step search (legal._keyword_idle) share."""
    st = ctx.state
    att = st.attack
    if att is None:
        return _NO_ATTACK  # swtcg.timing.for-this-attack
    if name == "intercept":
        if ability in att.used:
            return _INTERCEPT_USED  # swtcg.keywords.intercept-once-per-attack
        c = st.cards.get(ref)
        defender = st.cards.get(att.defender)
        if c is None or defender is None or defender.controller != pid or defender.ref == ref or \
                defender.zone != c.zone:
            return _INTERCEPT_NOT_ATTACKED  # swtcg.keywords.intercept
        return _USABLE
    if name == "retaliate":
        if ability in att.used:
            return _RETALIATE_USED  # swtcg.keywords.retaliate
        if att.defender != ref:
            return _RETALIATE_NOT_ATTACKED  # swtcg.keywords.retaliate
        c = st.cards.get(ref)
        attacker = st.cards.get(att.attacker)
        if c is None or attacker is None or attacker.zone != c.zone:
            return _RETALIATE_OTHER_ARENA  # swtcg.keywords.retaliate: "a unit in the same arena" (not Bombard)
        return _USABLE
    if ref in att.lucky:
        return _LUCKY_USED  # swtcg.keywords.lucky-once-per-attack
    if (ref != att.attacker and ref != att.defender) or st.roll is None or st.roll.purpose != "attack":
        return _LUCKY_NOT_IN_ATTACK  # swtcg.keywords.lucky-once-per-attack
    return _USABLE


def _hidden_cost_problem(ctx: Ctx, a: SwAction, c: Card) -> Problem:
    """Hidden Cost X (swtcg.base.hidden-cost): a partially built card with at least the lesser of X and
    its cost in counters is completed by paying Force for the missing ones, in a chance to play that
    is not one to reroll, prevent or disrupt."""
    k = find_keyword(ctx, getattr(a, "ability", ""))
    if k is None or c.built or c.zone != "build":
        return _why(ctx, "swtcg.base.hidden-cost", N_("{ref} is not a partially built card with Hidden Cost"),
                    ref=c.ref)
    prob = window_problem(ctx, "any")
    if prob:
        return _why(
            ctx, "swtcg.base.hidden-cost",
            N_("Hidden Cost is used in a chance to play, not to reroll, prevent or disrupt"),
        )
    d = ctx.card(c.code)
    need = min(k.value, d.cost)
    if c.counters < need:
        return _why(
            ctx, "swtcg.base.hidden-cost",
            N_("{ref} has {counters} build counters; Hidden Cost needs {need}"),
            ref=c.ref, counters=c.counters, need=need,
        )
    if d.unit:  # it is put into its arena as a deployed unit is: a unique one stacks (swtcg.stacking.normal-rules)
        prob = _stack_problem(ctx, c.controller, d, moving=c.ref)
        if prob:
            return prob
    due = max(0, d.cost - c.counters)
    if ctx.state.players[c.controller].force < due:
        return _why(
            ctx, "swtcg.costs.must-pay",
            N_("{ref} needs {due} Force for its missing build counters"),
            ref=c.ref, due=due,
        )
    return None


def keyword_cost(ctx: Ctx, pid: str, k: Keyword, a: SwAction) -> int:
    """An activated keyword's Force cost now: printed (X: the amount asked for) plus cost changes to
    activated abilities; a static keyword used by a step (Lucky) has no arrow, and none reach it
    (swtcg.abilities.activated-definition)."""
    base = k.cost if k.cost != X else (getattr(a, "amount", None) or 0)
    return en.keyword_due(ctx, pid, k, parse_ability(ctx, getattr(a, "ability", ""))[0], base)


def _x_of(a: SwAction) -> int:
    """The X a step names for an X cost ("Tap, pay X Force"): its ``amount``, 0 when it names none."""
    return getattr(a, "amount", None) or 0


def _printed(play: Play, a: SwAction) -> int:
    """A play's printed Force cost: X is what the step names (swtcg.costs.x-uses-printed-cost)."""
    return _x_of(a) if play.cost == X else play.cost


def _check_pass(ctx: Ctx, a: Pass) -> Problem:
    return None


CHECKS: Final[dict[str, Any]] = {"deploy": _check_deploy, "build": _check_build, "pilot": _check_pilot,
                                 "complete": _check_complete, "equip": _check_equip,
                                 "retreat": _check_retreat, "attack": _check_attack, "skip": _check_skip,
                                 "play": _check_play, "use": _check_use, "prevent": _check_use, "reroll": _check_use,
                                 "pass": _check_pass}


# ====================================================================== apply
def _deploy(ctx: Ctx, a: Deploy) -> None:
    st = ctx.state
    pid = a.by or ""
    if st.wait == "deploy":
        opening.setup_deploy(ctx, pid, a.card)
        return
    c = st.cards[a.card]
    d = ctx.card(c.code)
    if not d.implemented:
        raise NotImplementedCard(d.code, d.display, d.unparsed)
    if d.type == "location":
        en.put_location(ctx, pid, c, d)
        return
    rules = ("swtcg.build.retreated-can-deploy",) if c.built else ("swtcg.build.completed-not-forced",)
    en.put_in_arena(ctx, pid, c, d, rules)


def _complete(ctx: Ctx, a: Complete) -> None:
    pid = a.by or ""
    c = ctx.state.cards[a.card]
    d = ctx.card(c.code)
    if not d.implemented or not d.plays:
        raise NotImplementedCard(d.code, d.display, d.unparsed or f"completing a {d.type} card")
    paid, x = _pay(ctx, pid, d.plays[0], a, "mission")
    en.complete_mission(ctx, pid, c, a.option or 0, a.target, x, paid)


def _equip(ctx: Ctx, a: Equip) -> None:
    c = ctx.state.cards[a.card]
    d = ctx.card(c.code)
    if not d.implemented:
        raise NotImplementedCard(d.code, d.display, d.unparsed or "equipping")
    en.equip(ctx, a.by or "", c, a.onto)


def _build(ctx: Ctx, a: Build) -> None:
    st = ctx.state
    pid = a.by or ""
    p = st.players[pid]
    if st.wait == "partial":
        opening.setup_partial(ctx, pid, a.card, a.counters)
        return
    if REF.match(a.card):
        c = st.cards[a.card]
    else:
        p.hand.remove(a.card)
        code, who = ctx.cards.same_code(a.card), ctx.seat(pid)  # (the pool's and the seat's own strings)
        c = Card(ref=en.new_ref(st, pid, a.card), code=code, owner=who, controller=who, zone="build", built=False)
        st.cards[c.ref] = c
        st.moved(c.ref)
    p.build -= a.counters
    c.counters += a.counters
    d = ctx.card(c.code)
    if ctx.recording:
        ctx.records.append(rc.BuildRecord(("swtcg.build.partial-build", "swtcg.build.through-build-zone",
                                           "swtcg.build.no-draw-for-building"), player=pid, card=c.ref,
                                          counters=a.counters, total=c.counters, cost=d.cost, build=p.build))
    if not d.unit and not d.implemented and c.counters >= d.cost:
        # a mission, location or equipment is complete: its text matters now (swtcg.project.not-implemented);
        # an implemented one is completed, put into its arena or equipped by a step of its own
        raise NotImplementedCard(d.code, d.display, d.unparsed or f"completing a {d.type} card")


def _pilot(ctx: Ctx, a: Pilot) -> None:
    st = ctx.state
    c = st.cards[a.card]
    if c.zone == "pilot" and c.on:
        st.cards[c.on].pilot = None  # the unit stays where it is (swtcg.pilots.moving-pilot)
        st.moved(c.on)
        c.on = None
    if a.onto in ("character", "build"):
        c.zone = a.onto
    else:
        c.zone, c.on = "pilot", a.onto
        st.cards[a.onto].pilot = c.ref
        st.moved(a.onto)
    st.moved(c.ref)
    c.moved = True
    if ctx.recording:
        # (onto a unit: of its type, with no pilot; off a unit to a place: neither applies)
        rules = ("swtcg.pilots.build-step-move", "swtcg.pilots.type-match", "swtcg.pilots.one-per-unit") \
            if c.zone == "pilot" else ("swtcg.pilots.build-step-move", "swtcg.pilots.moving-pilot")
        ctx.records.append(rc.PilotRecord(rules, player=a.by, pilot=a.card, onto=a.onto))


def _retreat(ctx: Ctx, a: Retreat) -> None:
    c = ctx.state.cards[a.card]
    rules = ("swtcg.retreat.untapped-only",) + (("swtcg.pilots.retreat",) if c.pilot or c.zone == "pilot" else ())
    en.retreat(ctx, a.card, tap=True, rules=rules)


def _attack(ctx: Ctx, a: Attack) -> None:
    """The unit taps and attacks (swtcg.base.attack); "when this unit attacks" abilities trigger and
    wait for the attack's chance to play, which comes before the roll."""
    st = ctx.state
    c = st.cards[a.card]
    c.tapped = True
    st.wait, st.acting = None, []
    st.attack = AttackState(a.card, a.target, c.zone)
    if st.last_hits is not None:  # no hits until it rolls some (swtcg.project.last-attack)
        st.last_hits[a.card] = 0
    if ctx.recording:
        ctx.records.append(rc.AttackRecord(("swtcg.base.attack", "swtcg.base.battle.order"), player=a.by,
                                           attacker=a.card, defender=a.target, arena=c.zone))
    en.trigger_all(ctx, "attacks", only=a.card)
    for iid, k in en.keyword_instances(ctx, a.card):
        if k.name == "power-boost":
            entry = {"id": iid, "source": a.card, "code": c.code, "player": c.controller, "index": -1,
                     "window": "chance", "boost": [k.value, k.extra]}
            st.held.append(entry)
            ctx.records.append(rc.HeldRecord(
                ("swtcg.keywords.power-boost-self-damage", "swtcg.triggers.held-during-effect"),
                ability=iid, player=c.controller, window="chance"))
    st.frames.extend([{"f": "chance", "kind": "general"}, {"f": "attack-end"}, {"f": "attack-roll"}])
    en.open_chance(ctx, "attack")


def _skip(ctx: Ctx, a: Skip) -> None:
    st = ctx.state
    st.cards[a.card].tapped = True
    if ctx.recording:
        ctx.records.append(rc.AttackRecord(("swtcg.base.battle", "swtcg.battle.empty-arena"), player=a.by,
                                           attacker=a.card, arena=st.arena, skip=True))
    st.wait, st.acting = None, []
    st.frames.append({"f": "chance", "kind": "general"})


def _pay(ctx: Ctx, pid: str, play: Play, a: PlayCard | Use | Complete, scope: str,
         source: str | None = None) -> tuple[int, int]:
    """(Force paid, X): X is the printed cost (swtcg.costs.x-uses-printed-cost), or for "any amount"
    the amount paid plus the reduction (swtcg.costs.any-amount-reduced)."""
    delta = en.cost_delta(ctx, pid, scope, source)
    if play.any_amount:
        paid = a.pay or 0
        x = paid - min(0, delta)
    else:
        x = _printed(play, a)
        paid = max(0, x + delta)
    p = ctx.state.players[pid]
    p.force -= paid  # swtcg.costs.must-pay: checked before
    return paid, x


def _resolve_play(ctx: Ctx, pid: str, ability_id: str, source: str | None, play: Play, a: PlayCard | Use,
                  scope: str) -> None:
    st = ctx.state
    option = a.option or 0
    paid, x = _pay(ctx, pid, play, a, scope, source)
    choose: tuple[str, ...] = ("swtcg.effects.choose-one",) if len(play.options) > 1 else ()
    if play.reserves:  # played from the build zone (swtcg.base.reserves)
        choose += ("swtcg.base.reserves",)
    if en.location_cost_change(ctx, pid, scope):
        choose = ("swtcg.base.location", *choose)  # a Location in play changed the cost
    if play.cost == X:
        choose = ("swtcg.costs.x-uses-printed-cost", *choose)  # X is the printed cost, whatever was paid
    if ctx.recording:
        ctx.records.append(rc.UseRecord(("swtcg.costs.must-pay", *choose),
                                        player=pid, ability=ability_id, cost=paid,
                                        option=option if len(play.options) > 1 else None, target=a.target))
    window = play.windows[option] if option < len(play.windows) else play.windows[0]
    key = f"{ability_id}#{option}"
    if play.once:
        st.players[pid].once.append(key)
    if window == "attack" and st.attack is not None:
        st.attack.used.append(key)
    if st.chance is not None:
        st.chance.used.append(key)
    effects = play.options[option]
    frame = {"f": "resolve-play", "source_id": ability_id, "source": source, "player": pid,
             "effects": [en.effect_json(e) for e in effects], "target": a.target, "x": x,
             "dice": list(a.dice) if a.dice is not None else None, "to": getattr(a, "to", None)}
    disrupt = window != "disrupt" and any(_can_disrupt(ctx, q) for q in st.side_order())
    if disrupt:  # a chance to disrupt it, the Dark Side first (swtcg.keywords.disrupt-dark-side-first)
        _suspend(ctx)
        st.frames.append(frame)
        en.open_chance(ctx, "disrupt")
        return
    before = len(st.frames)
    en.run_frame(ctx, frame)
    if len(st.frames) > before:
        _suspend(ctx, before)


def _suspend(ctx: Ctx, at: int | None = None) -> None:
    """The chance waits while what was played finishes (its damage gets its own chance)."""
    st = ctx.state
    if st.chance is None:
        return
    resume = en.resume_frame(st.chance, st.turn, st.wait)
    if at is None:
        st.frames.append(resume)
    else:
        st.frames.insert(at, resume)
    st.chance = None
    st.wait = None


def _can_disrupt(ctx: Ctx, pid: str) -> bool:
    """Whether ``pid`` holds a battle card they could play in a chance to disrupt and can pay for: the
    least printed cost of those in hand (``_disrupt_costs``) is enough to tell, the cost change the
    same for each; a code the pool does not know as ``_can_disrupt_each`` says."""
    p = ctx.state.players[pid]
    costs: dict[str, int] = ctx.cards.memo("disrupt-costs", _disrupt_costs)
    known = ctx.cards.cards
    least: int | None = None
    for code in p.hand:
        cost = costs.get(code)
        if cost is None:
            if code != UNKNOWN and code not in known:
                return _can_disrupt_each(ctx, pid)  # (ctx.card says so, when it gets there)
            continue
        if least is None or cost < least:
            least = cost
    return least is not None and p.force >= max(0, least + en.cost_delta(ctx, pid, "battle"))


def _disrupt_costs(pool: CardPool) -> dict[str, int]:
    """The printed Force cost of each battle card of the pool that may be played in a chance to disrupt."""
    return {code: d.plays[0].cost for code, d in pool.cards.items()
            if d.type == "battle" and d.plays and any("disrupt" in w for w in d.plays[0].windows)}


def _can_disrupt_each(ctx: Ctx, pid: str) -> bool:
    st = ctx.state
    for code in set(st.players[pid].hand) - {UNKNOWN}:
        d = ctx.card(code)
        if d.type == "battle" and d.plays and any("disrupt" in w for w in d.plays[0].windows) \
                and st.players[pid].force >= max(0, d.plays[0].cost + en.cost_delta(ctx, pid, "battle")):
            return True
    return False


def _play(ctx: Ctx, a: PlayCard) -> None:
    st = ctx.state
    pid = a.by or ""
    d = ctx.card(a.card)
    if not d.implemented:
        raise NotImplementedCard(d.code, d.display, d.unparsed)
    st.players[pid].hand.remove(a.card)
    st.players[pid].discard.append(a.card)
    en.played_in_chance(ctx, pid)
    _resolve_play(ctx, pid, a.card, None, d.plays[0], a, "battle")


def _use(ctx: Ctx, a: Use | Prevent | Reroll) -> None:
    st = ctx.state
    pid = a.by or ""
    ref, name, n, _ = parse_ability(ctx, a.ability)
    c = st.cards[ref]
    if name == "play":
        assert isinstance(a, Use)
        play = ctx.card(c.code).plays[n - 1]
        if play.tap:
            c.tapped = True
        if st.wait == "act":  # used instead of attacking: no attack (swtcg.abilities.would-attack-not-attack)
            c.tapped = True
            st.wait, st.acting = None, []
            if ctx.recording:
                ctx.records.append(rc.AttackRecord(("swtcg.timing.play-only-would-attack",
                                                    "swtcg.abilities.would-attack-not-attack"),
                                                   player=pid, attacker=ref, arena=st.arena, skip=True))
            st.frames.append({"f": "chance", "kind": "general"})
        else:
            en.played_in_chance(ctx, pid)
        _resolve_play(ctx, pid, a.ability, ref, play, a, "ability")
        return
    k = find_keyword(ctx, a.ability)
    assert k is not None
    if k.name == "hidden-cost":
        d = ctx.card(c.code)
        due = max(0, d.cost - c.counters)
        st.players[pid].force -= due
        if ctx.recording:
            ctx.records.append(rc.UseRecord(("swtcg.base.hidden-cost", "swtcg.abilities.partially-built-inactive"),
                                            player=pid, ability=a.ability, cost=due, option=None, target=None))
        en.played_in_chance(ctx, pid)
        if not d.implemented:
            raise NotImplementedCard(d.code, d.display, d.unparsed)
        if d.unit:
            en.put_in_arena(ctx, pid, c, d, ("swtcg.base.hidden-cost",))
        else:
            raise NotImplementedCard(d.code, d.display, f"completing a {d.type} card")
        return
    cost = keyword_cost(ctx, pid, k, a)
    st.players[pid].force -= cost
    if ctx.recording:
        # Lucky: a static keyword, no activated ability, whose cost changes do not reach it
        cited = (("swtcg.abilities.activated-definition", "swtcg.keywords.lucky-once-per-attack")
                 if k.name in STATIC_USED else ("swtcg.costs.must-pay", "swtcg.abilities.activated-when"))
        ctx.records.append(rc.UseRecord(cited, player=pid, ability=a.ability, cost=cost, option=None,
                                        target=getattr(a, "target", None)))
    en.played_in_chance(ctx, pid)
    att = st.attack
    if k.name in ("evade", "deflect", "prevent"):
        assert st.chance is not None
        st.chance.used.append(a.ability)
        target = getattr(a, "target", None) if k.name == "prevent" else None
        who = target or ref
        amount = getattr(a, "amount", None) or k.value
        rules = {"evade": "swtcg.abilities.granted-instances", "deflect": "swtcg.pop.new-damage-waits",
                 "prevent": "swtcg.damage.prevent-from-build-zone"}[k.name]
        done = en.prevent(ctx, pid, a.ability, who, amount if k.name != "deflect" else k.value,
                          ("swtcg.damage.prevent-when", rules))
        to = getattr(a, "to", None)
        if k.name == "deflect" and done > 0 and to:
            # the deflector deals it: its Stun goes with it (swtcg.keywords.stun-deflect)
            st.later.append({"target": to, "amount": done, "source": ref, "prevented": 0,
                             "stun": en.kw_value(ctx, ref, "stun")})
            ctx.records.append(rc.DeflectRecord(("swtcg.pop.new-damage-waits",), player=pid, ability=a.ability, to=to,
                                                amount=done))
        return
    assert att is not None
    att.used.append(a.ability)
    if k.name == "intercept":
        changed = en.can_attack(ctx, att.attacker, ref) is None
        if changed:
            att.defender = ref
        ctx.records.append(rc.InterceptRecord(("swtcg.keywords.intercept", "swtcg.keywords.intercept-once-per-attack")
                                              + (() if changed else ("swtcg.keywords.intercept-illegal-target",)),
                                              player=pid, ability=a.ability, defender=att.defender, changed=changed))
    elif k.name == "retaliate":
        # its value is locked now (swtcg.keywords.retaliate-value-lock)
        dice = en.stat(ctx, ref, "power") if k.extra == X else k.value
        att.retaliations.append({"unit": ref, "player": pid, "dice": dice})
        ctx.records.append(rc.RetaliateRecord(("swtcg.keywords.retaliate", "swtcg.keywords.retaliate-value-lock"),
                                              player=pid, ability=a.ability, dice=dice))
    elif k.name == "lucky":
        att.lucky.append(ref)
        en.reroll(ctx, pid, a.ability, tuple(getattr(a, "dice", None) or ()), 99)


def _pass(ctx: Ctx, a: Pass) -> None:
    st = ctx.state
    pid = a.by or ""
    if st.wait == "chance":
        en.pass_chance(ctx, pid, auto=False)
    else:
        opening.end_wait(ctx, pid, auto=False)


def apply(ctx: Ctx, a: SwAction) -> None:
    """Carry out a checked step (``APPLY``'s function of its verb, called directly: the compiled
    engine calls each natively)."""
    if isinstance(a, Pass):
        _pass(ctx, a)
    elif isinstance(a, Attack):
        _attack(ctx, a)
    elif isinstance(a, Deploy):
        _deploy(ctx, a)
    elif isinstance(a, Build):
        _build(ctx, a)
    elif isinstance(a, PlayCard):
        _play(ctx, a)
    elif isinstance(a, (Use, Prevent, Reroll)):
        _use(ctx, a)
    elif isinstance(a, Pilot):
        _pilot(ctx, a)
    elif isinstance(a, Retreat):
        _retreat(ctx, a)
    elif isinstance(a, Skip):
        _skip(ctx, a)
    elif isinstance(a, Complete):
        _complete(ctx, a)
    elif isinstance(a, Equip):
        _equip(ctx, a)
    else:
        APPLY[a.verb](ctx, a)


APPLY: Final[dict[str, Any]] = {
    "deploy": _deploy, "build": _build, "pilot": _pilot, "retreat": _retreat, "attack": _attack, "skip": _skip,
    "play": _play, "use": _use, "prevent": _use, "reroll": _use, "pass": _pass, "complete": _complete,
    "equip": _equip}
