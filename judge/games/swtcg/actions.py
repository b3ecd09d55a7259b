"""Checking and carrying out one step (STYLE.md section 4): ``check`` names the rule a step breaks before
anything changes; ``APPLY`` carries each verb out (``judge.games.swtcg.procedure.apply_step`` checks,
applies, then runs the turn's procedure until a player must act).

What a player may do depends on what they are asked (``state.wait``): ``deploy``/``partial`` in
setup, ``build`` and ``retreat`` in the command phase, ``act`` when it is a unit's turn in a battle
step, ``chance`` in a chance to play.
"""

from __future__ import annotations

from typing import Any

from judge.games.swtcg import engine as en
from judge.games.swtcg import opening
from judge.games.swtcg import records as rc
from judge.games.swtcg.engine import Ctx, NotImplementedCard
from judge.games.swtcg.model import ACTIVATED, CardDef, Keyword, Play, X
from judge.games.swtcg.state import ARENAS, UNKNOWN, Card
from judge.games.swtcg.steps import (
    ABILITY,
    REF,
    Attack,
    Build,
    Deploy,
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

VERBS_BY_WAIT = {
    "deploy": ("deploy", "pass"),
    "partial": ("build", "pass"),
    "build": ("build", "deploy", "pilot", "use", "pass"),
    "retreat": ("retreat", "pass"),
    "act": ("attack", "skip", "use"),
    "chance": ("play", "use", "prevent", "reroll", "pass"),
}
WAIT_RULE = {"deploy": "swtcg.setup.out-of-units", "partial": "swtcg.setup.units-only",
             "build": "swtcg.base.turn.command", "retreat": "swtcg.retreat.untapped-only",
             "act": "swtcg.base.battle.order", "chance": "swtcg.pop.dark-side-first"}
# the chance each play window belongs to
WINDOW_RULE = {"any": "swtcg.abilities.activated-when", "attack": "swtcg.timing.for-this-attack",
               "reroll": "swtcg.pop.dice-roll", "prevent": "swtcg.damage.prevent-when",
               "disrupt": "swtcg.keywords.disrupt-targets", "build": "swtcg.timing.play-only-build-step",
               "no-attack": "swtcg.timing.play-only-no-attack", "would-attack": "swtcg.timing.play-only-would-attack"}

Problem = tuple[str, str] | None


# ====================================================================== check
def check(ctx: Ctx, a: SwAction) -> Problem:
    st = ctx.state
    if st.phase == "over":
        return "swtcg.base.win", "the game is over"
    if st.wait is None or st.turn is None:
        return "swtcg.base.turn.command", "nobody is asked to act now"
    if a.by != st.turn:
        what = {"chance": "has the chance to play", "act": "has the unit to act"}.get(st.wait, "acts")
        return WAIT_RULE[st.wait], f"{st.turn} {what} now, not {a.by}"
    allowed = VERBS_BY_WAIT[st.wait]
    if a.verb == "play" and a.verb not in allowed:
        return "swtcg.abilities.battle-cards", "battle cards are played only in a chance to play in the battle phase"
    if a.verb not in allowed:
        return WAIT_RULE[st.wait], f"'{a.verb}' is not possible now ({st.wait}): {st.turn} may {', '.join(allowed)}"
    checker = CHECKS.get(a.verb)
    return checker(ctx, a) if checker else None


def _hand_code(ctx: Ctx, pid: str, code: str) -> CardDef | None:
    if REF.match(code) or code not in ctx.state.players[pid].hand:
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
        return "swtcg.stacking.normal-rules", f"the stack of {same} has {len(versions)} cards already (at most 4)"
    if d.version in versions:
        return "swtcg.stacking.normal-rules", f"the stack of {same} has version {d.version} already"
    return None


def _check_deploy(ctx: Ctx, a: Deploy) -> Problem:
    st = ctx.state
    pid = a.by or ""
    if st.wait == "deploy":
        d = _hand_code(ctx, pid, a.card)
        if d is None:
            return "swtcg.setup.units-only", f"{a.card} is not a card in {pid}'s hand"
        if not d.unit:
            return "swtcg.setup.units-only", f"only units are deployed in setup ({d.display} is a {d.type} card)"
        left = en.SETUP_BUILD_POINTS - st.players[pid].deployed
        if d.cost > left:
            return "swtcg.setup.out-of-units", f"{d.display} costs {d.cost}; {pid} has {left} of 30 build points left"
        return _stack_problem(ctx, pid, d)
    if not REF.match(a.card):
        return "swtcg.build.through-build-zone", "every card passes through the build zone: deploy a card built there"
    c = st.cards.get(a.card)
    if c is None or c.zone != "build" or c.controller != pid:
        return "swtcg.build.through-build-zone", f"{a.card} is not a card in {pid}'s build zone"
    d = ctx.card(c.code)
    if not d.unit:
        return "swtcg.base.build", f"{d.display} is a {d.type} card, not a unit"
    if not c.built and c.counters < d.cost:
        return "swtcg.build.partial-build", f"{a.card} has {c.counters} of its {d.cost} build counters"
    return _stack_problem(ctx, pid, d, moving=a.card)


def _check_build(ctx: Ctx, a: Build) -> Problem:
    st = ctx.state
    pid = a.by or ""
    p = st.players[pid]
    if st.wait == "partial":
        d = _hand_code(ctx, pid, a.card)
        if d is None:
            return "swtcg.setup.units-only", f"{a.card} is not a card in {pid}'s hand"
        if not d.unit:
            return "swtcg.setup.units-only", f"only a unit is partially built at the end of setup, not a {d.type} card"
        left = en.SETUP_BUILD_POINTS - p.deployed
        if not 1 <= a.counters <= left:
            return "swtcg.setup.units-only", f"from 1 to the {left} build points left"
        return None
    if REF.match(a.card):
        c = st.cards.get(a.card)
        if c is None or c.zone != "build" or c.controller != pid or c.built:
            return "swtcg.build.partial-build", f"{a.card} is not a partially built card in {pid}'s build zone"
        if a.counters < 1:
            return "swtcg.build.partial-build", "at least one build counter"
    else:
        d = _hand_code(ctx, pid, a.card)
        if d is None:
            return "swtcg.build.partial-build", f"{a.card} is not a card in {pid}'s hand"
        if d.type == "battle":
            return "swtcg.abilities.battle-cards", "battle cards are played, not built"
        if a.counters < 1 and d.cost > 0:
            return "swtcg.build.partial-build", "a card started in the build step needs at least one build counter"
    if a.counters > p.build:
        return "swtcg.build.partial-build", f"{pid} has {p.build} build points"
    return None


def _check_pilot(ctx: Ctx, a: Pilot) -> Problem:
    st = ctx.state
    pid = a.by or ""
    c = st.cards.get(a.card)
    if c is None or c.controller != pid:
        return "swtcg.control.controller", f"{a.card} is not a card {pid} controls"
    d = ctx.card(c.code)
    if d.pilot is None:
        return "swtcg.pilots.move-onto-units", f"{d.display} has no Pilot ability"
    if not c.built:
        return "swtcg.abilities.partially-built-inactive", f"{a.card} is partially built"
    if c.moved:
        return "swtcg.pilots.build-step-move", f"{a.card} has moved once in this build step"
    if a.onto in ("character", "build"):
        if a.onto == "character" and c.zone not in ("pilot", "build"):
            return "swtcg.pilots.build-step-move", f"{a.card} is in the {c.zone} arena already"
        if a.onto == "build" and c.zone != "pilot":
            return "swtcg.pilots.build-step-move", f"{a.card} pilots no unit"
        return None
    u = st.cards.get(a.onto)
    if u is None or u.controller != pid or u.zone == "pilot":
        return "swtcg.pilots.move-onto-units", f"{a.onto} is not a unit {pid} controls"
    ud = ctx.card(u.code)
    if ud.type not in ("space", "ground"):
        return "swtcg.pilots.move-onto-units", f"{ud.display} is a {ud.type} card: pilots go on Space or Ground units"
    if c.zone == "pilot":
        if u.zone not in (*ARENAS, "build") or u.ref == c.on:
            return "swtcg.pilots.build-step-move", f"{a.onto} is not another unit"
    elif u.zone not in ("space", "ground"):
        return "swtcg.pilots.build-step-move", f"{a.onto} is not in the Space or Ground arena"
    if ud.droid:
        return "swtcg.pilots.no-droid-units", f"{ud.display} is a Droid: it has no room for a pilot"
    if not ud.has_subtype(d.pilot.kind):
        return "swtcg.pilots.type-match", (f"{d.display} pilots a {d.pilot.kind}; {ud.display} is a "
                                           f"{' '.join(ud.subtypes)}")
    if u.pilot:
        return "swtcg.pilots.one-per-unit", f"{a.onto} has a pilot ({u.pilot})"
    return None


def _check_retreat(ctx: Ctx, a: Retreat) -> Problem:
    st = ctx.state
    c = st.cards.get(a.card)
    if c is None or c.controller != a.by or c.zone not in (*ARENAS, "pilot"):
        return "swtcg.retreat.untapped-only", f"{a.card} is not a unit or pilot {a.by} has in an arena"
    if c.tapped:
        return "swtcg.retreat.untapped-only", f"{a.card} is tapped: only untapped units retreat in the retreat step"
    if c.pilot and c.pilot in st.cards and st.cards[c.pilot].tapped:
        return "swtcg.pilots.retreat", f"{a.card}'s pilot {c.pilot} is tapped: both must be untapped"
    return None


def _check_attack(ctx: Ctx, a: Attack) -> Problem:
    st = ctx.state
    if a.card not in st.acting:
        return "swtcg.base.battle.order", f"it is the turn of {', '.join(st.acting)} (the fastest untapped unit)"
    t = st.cards.get(a.target)
    if t is None:
        return "swtcg.base.attack", f"{a.target} is not in play"
    if t.controller == a.by and t.zone != "pilot":
        return "swtcg.base.attack", f"{a.target} is {a.by}'s own unit"
    why = en.can_attack(ctx, a.card, a.target)
    if why:
        return why, f"{a.card} cannot attack {a.target}"
    return None


def _check_skip(ctx: Ctx, a: Skip) -> Problem:
    if a.card not in ctx.state.acting:
        return "swtcg.base.battle.order", f"it is the turn of {', '.join(ctx.state.acting)}"
    return None


def window_problem(ctx: Ctx, window: str, unit: str | None = None) -> Problem:
    """Whether a play of ``window`` may come now (the chance's kind, the step)."""
    st = ctx.state
    kind = st.chance["kind"] if st.chance else None
    rule = WINDOW_RULE[window]
    ok = {"any": kind in ("general", "attack"),
          "attack": kind == "attack" and st.attack is not None,
          "reroll": kind == "reroll" and st.roll is not None,
          "prevent": kind == "prevent",
          "disrupt": kind == "disrupt",
          "no-attack": kind == "general" and st.attack is None,
          "build": st.wait == "build",
          "would-attack": st.wait == "act" and unit in st.acting}[window]
    if ok:
        return None
    now = f"a {kind} chance" if kind else f"the {st.wait} step"
    return rule, f"this is played {window.replace('-', ' ')}{'' if window in ('any',) else ''}, not in {now}"


def _play_problem(ctx: Ctx, a: PlayCard | Use, play: Play, ability_id: str, source: str | None, scope: str) -> Problem:
    """The checks a battle card and an activated ability share: the option ("Choose one"), the window,
    once-per limits, targets, the cost."""
    st = ctx.state
    pid = a.by or ""
    n = len(play.options)
    option = a.option if a.option is not None else 0
    if n == 0:
        return "swtcg.project.not-implemented", f"{ability_id} has no effect the engine knows"
    if option >= n:
        return "swtcg.effects.choose-one", f"{ability_id} has {n} option(s): 0 to {n - 1}"
    if n > 1 and a.option is None:
        return "swtcg.effects.choose-one", f"{ability_id} says 'Choose one': name the option (0 to {n - 1})"
    window = play.windows[option] if option < len(play.windows) else play.windows[0]
    prob = window_problem(ctx, window, source)
    if prob:
        return prob
    key = f"{ability_id}#{option}"
    if play.once and key in st.players[pid].once:
        return "swtcg.timing.this-turn", f"{ability_id} was played this turn already (once per turn)"
    if window == "attack" and st.attack is not None and source is not None and \
            any(e.target == "self" for e in play.options[option]) and \
            source not in (st.attack["attacker"], st.attack["defender"]):
        return "swtcg.timing.for-this-attack", f"{source} is neither attacking nor attacked"
    if window == "attack" and st.attack is not None and key in st.attack["used"]:
        return "swtcg.timing.for-this-attack", f"{ability_id} was played in this attack already"
    if window == "reroll" and st.roll is not None and ability_id in st.roll["used"]:
        return "swtcg.timing.reroll-once-per-roll", f"{ability_id} rerolled this roll already"
    if window == "prevent" and st.chance is not None and key in st.chance["used"]:
        return "swtcg.damage.prevent-when", f"{ability_id} was played in this chance already"
    for e in play.options[option]:
        amount = e.amount
        if e.kind == "reroll":
            dice = a.dice or ()
            if st.roll is None or len(dice) > amount or any(i >= len(st.roll["dice"]) for i in dice):
                return "swtcg.timing.reroll-once-per-roll", f"reroll at most {amount} of the dice rolled"
            continue
        if e.kind == "disrupt":
            continue
        target = a.target
        why = en.target_problem(ctx, e.target, pid, target, source)
        if why:
            return why, f"{ability_id} needs a {e.target.replace('-', ' ')} as its target, not {target}"
        if e.kind == "prevent":
            who = en.resolve_target(ctx, e.target, source, pid, target)
            if not any(d["target"] == who for d in st.damage):
                return "swtcg.damage.prevent-when", f"no damage waits to be dealt to {who}"
        del amount
    cost = play.cost + en.cost_delta(ctx, pid, scope)
    if play.any_amount:
        if a.pay is None:
            return "swtcg.costs.any-amount-reduced", f"{ability_id} costs any amount of Force: say how much ('pay')"
        cost = a.pay
    cost = max(0, cost)
    if st.players[pid].force < cost:
        return "swtcg.costs.must-pay", f"{ability_id} costs {cost} Force; {pid} has {st.players[pid].force}"
    return None


def _check_play(ctx: Ctx, a: PlayCard) -> Problem:
    st = ctx.state
    pid = a.by or ""
    d = _hand_code(ctx, pid, a.card)
    if d is None:
        return "swtcg.abilities.battle-cards", f"{a.card} is not a card in {pid}'s hand"
    if d.type != "battle":
        return "swtcg.cards.type-reference", f"{d.display} is a {d.type} card: only battle cards are played"
    if st.phase != "battle":
        return "swtcg.abilities.battle-cards", "battle cards are played only in the battle phase"
    if not d.implemented:
        kind = st.chance["kind"] if st.chance else None
        return None if kind in ("general", "attack") else ("swtcg.abilities.battle-cards", "not in this chance")
    return _play_problem(ctx, a, d.plays[0], a.card, None, "battle")


def parse_ability(ability: str) -> tuple[str, str, int, str | None]:
    m = ABILITY.match(ability)
    assert m is not None
    return m.group("ref"), m.group("name"), int(m.group("n") or 1), m.group("grant")


def find_keyword(ctx: Ctx, ability: str) -> Keyword | None:
    ref, _, _, _ = parse_ability(ability)
    for iid, k in en.keyword_instances(ctx, ref):
        if iid == ability:
            return k
    return None


def _check_use(ctx: Ctx, a: Use | Prevent | Reroll) -> Problem:
    st = ctx.state
    pid = a.by or ""
    ref, name, n, _ = parse_ability(a.ability)
    c = st.cards.get(ref)
    if c is None:
        return "swtcg.abilities.activated-definition", f"{ref} is not in play"
    if c.controller != pid:
        return "swtcg.control.controller", f"{ref} is controlled by {c.controller}"
    if name == "hidden-cost":
        return _hidden_cost_problem(ctx, a, c)
    if not en.active(st, c):
        return ("swtcg.setup.no-abilities" if st.phase == "setup" else "swtcg.abilities.partially-built-inactive",
                f"{ref}'s abilities do not work now")
    d = ctx.card(c.code)
    if name == "play":
        if not d.unit:
            return "swtcg.cards.units", "only units have activated abilities"
        play = d.plays[n - 1] if n - 1 < len(d.plays) else None
        if play is None:
            return "swtcg.abilities.activated-definition", f"{d.display} has no activated ability {n}"
        if c.zone == "build":
            option = a.option if isinstance(a, Use) and a.option is not None else 0
            windows = play.windows
            if (windows[option] if option < len(windows) else windows[0]) != "prevent":
                return "swtcg.damage.prevent-from-build-zone", f"{ref} is in the build zone: only prevention there"
        if play.tap and c.tapped:
            return "swtcg.abilities.activated-definition", f"{ref} is tapped"
        if not isinstance(a, Use):
            return "swtcg.abilities.activated-when", f"'{a.verb}' names Evade, Deflect, Prevent or a reroll"
        return _play_problem(ctx, a, play, a.ability, ref, "ability")
    k = find_keyword(ctx, a.ability)
    if k is None:
        return "swtcg.abilities.granted-instances", f"{ref} has no ability {a.ability} now"
    window = ACTIVATED.get(k.name)
    if window is None:
        return "swtcg.abilities.activated-definition", f"{k.text()} is not an activated ability"
    if isinstance(a, Prevent) and window != "prevent" or isinstance(a, Reroll) and window != "reroll":
        return "swtcg.abilities.activated-when", f"{a.ability} is no {a.verb} ability"
    prob = window_problem(ctx, window)
    if prob:
        return prob
    if k.cost == X and getattr(a, "amount", None) is None:
        return "swtcg.costs.x-uses-printed-cost", f"{a.ability} costs X Force: say how much ('amount')"
    cost = keyword_cost(ctx, pid, k, a)
    if st.players[pid].force < cost:
        return "swtcg.costs.must-pay", f"{a.ability} costs {cost} Force; {pid} has {st.players[pid].force}"
    ch = st.chance or {}
    att = st.attack
    to = getattr(a, "to", None)
    target = getattr(a, "target", None)
    if k.name in ("evade", "deflect", "prevent"):
        if a.ability in ch.get("used", []):
            return "swtcg.damage.prevent-when", f"{a.ability} was used in this chance already"
        who = target if k.name == "prevent" and target else ref
        if k.name == "prevent" and (who not in st.cards or st.cards[who].controller != pid):
            return "swtcg.control.you-your", f"{who} is not {pid}'s unit"
        if not any(p["target"] == who for p in st.damage):
            return "swtcg.damage.prevent-when", f"no damage waits to be dealt to {who}"
        amount = getattr(a, "amount", None)
        if amount is not None and not 1 <= amount <= (k.value if k.value != X else 99):
            return "swtcg.damage.prevent-when", f"{a.ability} prevents up to {k.value}"
        if k.name == "deflect":
            if to is None:
                return "swtcg.pop.new-damage-waits", "Deflect names the unit to deal the damage to ('to')"
            if en.arena_of(ctx, to) is None or en.arena_of(ctx, to) != en.arena_of(ctx, ref) or \
                    st.cards[to].zone == "pilot":
                return "swtcg.pop.new-damage-waits", f"{to} is not a unit in {ref}'s arena"
        return None
    if att is None:
        return "swtcg.timing.for-this-attack", "no unit is attacking"
    if k.name == "intercept":
        if a.ability in att["used"]:
            return "swtcg.keywords.intercept-once-per-attack", f"{a.ability} was used in this attack already"
        defender = st.cards.get(att["defender"])
        if defender is None or defender.controller != pid or defender.ref == ref or defender.zone != c.zone:
            return "swtcg.keywords.intercept", f"no other unit of {pid}'s in {ref}'s arena is attacked"
        return None
    if k.name == "retaliate":
        if a.ability in att["used"]:
            return "swtcg.keywords.retaliate", f"{a.ability} was used in this attack already"
        if att["defender"] != ref:
            return "swtcg.keywords.retaliate", f"{ref} is not the unit attacked"
        return None
    if k.name == "lucky":
        if ref in att["lucky"]:
            return "swtcg.keywords.lucky-once-per-attack", f"{ref} used Lucky in this attack already"
        if ref not in (att["attacker"], att["defender"]) or st.roll is None or st.roll["purpose"] != "attack":
            return "swtcg.keywords.lucky-once-per-attack", f"{ref} is neither attacking nor attacked"
        dice = getattr(a, "dice", None) or ()
        most = min(en.kw_value(ctx, ref, "lucky"), att.get("rolled", 0))
        if len(dice) > most or any(i >= len(st.roll["dice"]) for i in dice):
            return "swtcg.keywords.lucky-reroll-count", f"Lucky rerolls at most {most} of the dice first rolled"
        return None
    return "swtcg.abilities.activated-definition", f"{a.ability} cannot be used now"


def _hidden_cost_problem(ctx: Ctx, a: SwAction, c: Card) -> Problem:
    """Hidden Cost X (swtcg.base.hidden-cost): a partially built card with at least the lesser of X and
    its cost in counters is completed by paying Force for the missing ones, in a chance to play that
    is not one to reroll, prevent or disrupt."""
    k = find_keyword(ctx, getattr(a, "ability", ""))
    if k is None or c.built or c.zone != "build":
        return "swtcg.base.hidden-cost", f"{c.ref} is not a partially built card with Hidden Cost"
    prob = window_problem(ctx, "any")
    if prob:
        return "swtcg.base.hidden-cost", "Hidden Cost is used in a chance to play, not to reroll, prevent or disrupt"
    d = ctx.card(c.code)
    need = min(k.value, d.cost)
    if c.counters < need:
        return "swtcg.base.hidden-cost", f"{c.ref} has {c.counters} build counters; Hidden Cost needs {need}"
    due = max(0, d.cost - c.counters)
    if ctx.state.players[c.controller].force < due:
        return "swtcg.costs.must-pay", f"{c.ref} needs {due} Force for its missing build counters"
    return None


def keyword_cost(ctx: Ctx, pid: str, k: Keyword, a: SwAction) -> int:
    """An activated keyword's Force cost now: printed (X: the amount asked for) plus cost changes."""
    base = k.cost if k.cost != X else (getattr(a, "amount", None) or 0)
    return max(0, base + en.cost_delta(ctx, pid, "ability"))


def _check_pass(ctx: Ctx, a: Pass) -> Problem:
    return None


CHECKS: dict[str, Any] = {"deploy": _check_deploy, "build": _check_build, "pilot": _check_pilot,
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
    rules = ("swtcg.build.retreated-can-deploy",) if c.built else ("swtcg.build.completed-not-forced",)
    en.put_in_arena(ctx, pid, c, d, rules)


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
        c = Card(ref=en.new_ref(st, pid, a.card), code=a.card, owner=pid, controller=pid, zone="build", built=False)
        st.cards[c.ref] = c
    p.build -= a.counters
    c.counters += a.counters
    d = ctx.card(c.code)
    ctx.record(rc.BuildRecord(("swtcg.build.partial-build", "swtcg.build.through-build-zone",
                               "swtcg.build.no-draw-for-building"), player=pid, card=c.ref, counters=a.counters,
                              total=c.counters, cost=d.cost, build=p.build))
    if not d.unit and c.counters >= d.cost:  # a mission, location or equipment is complete
        raise NotImplementedCard(d.code, d.display, d.unparsed or f"completing a {d.type} card")


def _pilot(ctx: Ctx, a: Pilot) -> None:
    st = ctx.state
    c = st.cards[a.card]
    if c.zone == "pilot" and c.on:
        st.cards[c.on].pilot = None  # the unit stays where it is (swtcg.pilots.moving-pilot)
        c.on = None
    if a.onto in ("character", "build"):
        c.zone = a.onto
    else:
        c.zone, c.on = "pilot", a.onto
        st.cards[a.onto].pilot = c.ref
    c.moved = True
    ctx.record(rc.PilotRecord(("swtcg.pilots.build-step-move", "swtcg.pilots.type-match", "swtcg.pilots.one-per-unit"),
                              player=a.by, pilot=a.card, onto=a.onto))


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
    st.attack = {"attacker": a.card, "defender": a.target, "arena": c.zone, "used": [], "lucky": [],
                 "retaliations": [], "boosts": []}
    ctx.record(rc.AttackRecord(("swtcg.base.attack", "swtcg.base.battle.order"), player=a.by, attacker=a.card,
                               defender=a.target, arena=c.zone))
    en.trigger_all(ctx, "attacks", only=a.card)
    for iid, k in en.keyword_instances(ctx, a.card):
        if k.name == "power-boost":
            entry = {"id": iid, "source": a.card, "code": c.code, "player": c.controller, "index": -1,
                     "window": "chance", "boost": [k.value, k.extra]}
            st.held.append(entry)
            ctx.record(rc.HeldRecord(("swtcg.keywords.power-boost-self-damage", "swtcg.triggers.held-during-effect"),
                                     ability=iid, player=c.controller, window="chance"))
    st.frames.extend([{"f": "chance", "kind": "general"}, {"f": "attack-end"}, {"f": "attack-roll"}])
    en.open_chance(ctx, "attack")


def _skip(ctx: Ctx, a: Skip) -> None:
    st = ctx.state
    st.cards[a.card].tapped = True
    ctx.record(rc.AttackRecord(("swtcg.base.battle", "swtcg.battle.empty-arena"), player=a.by, attacker=a.card,
                               arena=st.arena, skip=True))
    st.wait, st.acting = None, []
    st.frames.append({"f": "chance", "kind": "general"})


def _pay(ctx: Ctx, pid: str, play: Play, a: PlayCard | Use, scope: str) -> tuple[int, int]:
    """(Force paid, X): X is the printed cost (swtcg.costs.x-uses-printed-cost), or for "any amount"
    the amount paid plus the reduction (swtcg.costs.any-amount-reduced)."""
    delta = en.cost_delta(ctx, pid, scope)
    if play.any_amount:
        paid = a.pay or 0
        x = paid - min(0, delta)
    else:
        paid = max(0, play.cost + delta)
        x = play.cost
    p = ctx.state.players[pid]
    p.force -= paid  # swtcg.costs.must-pay: checked before
    return paid, x


def _resolve_play(ctx: Ctx, pid: str, ability_id: str, source: str | None, play: Play, a: PlayCard | Use,
                  scope: str) -> None:
    st = ctx.state
    option = a.option or 0
    paid, x = _pay(ctx, pid, play, a, scope)
    choose = ("swtcg.effects.choose-one",) if len(play.options) > 1 else ()
    ctx.record(rc.UseRecord(("swtcg.costs.must-pay", *choose),
                            player=pid, ability=ability_id, cost=paid,
                            option=option if len(play.options) > 1 else None, target=a.target))
    window = play.windows[option] if option < len(play.windows) else play.windows[0]
    key = f"{ability_id}#{option}"
    if play.once:
        st.players[pid].once.append(key)
    if window == "attack" and st.attack is not None:
        st.attack["used"].append(key)
    if st.chance is not None:
        st.chance["used"].append(key)
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
    saved = dict(st.chance)
    saved["to"] = st.turn
    resume = {"f": "resume", "chance": saved, "wait": st.wait}
    if at is None:
        st.frames.append(resume)
    else:
        st.frames.insert(at, resume)
    st.chance = None
    st.wait = None


def _can_disrupt(ctx: Ctx, pid: str) -> bool:
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
    ref, name, n, _ = parse_ability(a.ability)
    c = st.cards[ref]
    if name == "play":
        assert isinstance(a, Use)
        play = ctx.card(c.code).plays[n - 1]
        if play.tap:
            c.tapped = True
        if st.wait == "act":  # used instead of attacking: no attack (swtcg.abilities.would-attack-not-attack)
            c.tapped = True
            st.wait, st.acting = None, []
            ctx.record(rc.AttackRecord(("swtcg.timing.play-only-would-attack",
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
        ctx.record(rc.UseRecord(("swtcg.base.hidden-cost", "swtcg.abilities.partially-built-inactive"), player=pid,
                                ability=a.ability, cost=due, option=None, target=None))
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
    ctx.record(rc.UseRecord(("swtcg.costs.must-pay", "swtcg.abilities.activated-when"), player=pid, ability=a.ability,
                            cost=cost, option=None, target=getattr(a, "target", None)))
    en.played_in_chance(ctx, pid)
    att = st.attack
    if k.name in ("evade", "deflect", "prevent"):
        assert st.chance is not None
        st.chance["used"].append(a.ability)
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
            ctx.record(rc.DeflectRecord(("swtcg.pop.new-damage-waits",), player=pid, ability=a.ability, to=to,
                                        amount=done))
        return
    assert att is not None
    att["used"].append(a.ability)
    if k.name == "intercept":
        changed = en.can_attack(ctx, att["attacker"], ref) is None
        if changed:
            att["defender"] = ref
        ctx.record(rc.InterceptRecord(("swtcg.keywords.intercept", "swtcg.keywords.intercept-once-per-attack")
                                      + (() if changed else ("swtcg.keywords.intercept-illegal-target",)),
                                      player=pid, ability=a.ability, defender=att["defender"], changed=changed))
    elif k.name == "retaliate":
        # its value is locked now (swtcg.keywords.retaliate-value-lock)
        dice = en.stat(ctx, ref, "power") if k.extra == X else k.value
        att["retaliations"].append({"unit": ref, "player": pid, "dice": dice})
        ctx.record(rc.RetaliateRecord(("swtcg.keywords.retaliate", "swtcg.keywords.retaliate-value-lock"), player=pid,
                                      ability=a.ability, dice=dice))
    elif k.name == "lucky":
        att["lucky"].append(ref)
        en.reroll(ctx, pid, a.ability, tuple(getattr(a, "dice", None) or ()), 99)


def _pass(ctx: Ctx, a: Pass) -> None:
    st = ctx.state
    pid = a.by or ""
    if st.wait == "chance":
        en.pass_chance(ctx, pid, auto=False)
    else:
        opening.end_wait(ctx, pid, auto=False)


APPLY: dict[str, Any] = {"deploy": _deploy, "build": _build, "pilot": _pilot, "retreat": _retreat, "attack": _attack,
                         "skip": _skip, "play": _play, "use": _use, "prevent": _use, "reroll": _use, "pass": _pass}
