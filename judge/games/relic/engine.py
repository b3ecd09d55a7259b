"""Applying Relic's steps: the kernel's host (``Ctx``), the dice, charges, discards, effects and the
timing windows.

Timing words (relic.timing.*) run through the shared kernel (judge.kernel.core): a window (a turn,
a phase, a battle, a skill test) opens with a ``WindowStarts`` event whose before-abilities are the
"start" effects of the cards concerned (they resolve before anything else of the window), and
closes with a ``WindowEnds`` event whose after-abilities are its "end" effects (queued, resolved
once all else is done). The kernel's one ordering rule asks the active player to order effects
with the same timing (relic.timing.active-player-orders): every Relic effect is resolved under
the active player's control. "During" effects are the player's own steps (``use``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from i18n import N_, Msg
from judge.games.base import Policy
from judge.games.inputs import NO_INPUTS, InputReader, Inputs
from judge.games.relic import actions as ac
from judge.games.relic import events as ev
from judge.games.relic.cards import CHARACTERISTIC, COLOR_OF, EFFECT_KINDS, Card, Effect
from judge.games.relic.legal import PHASE_AFTER, WEAPON_ARMOUR, check
from judge.games.relic.scoring import against, score
from judge.games.relic.state import Contest, Die, Held, Player, RelicState
from judge.kernel.core import (
    Decision,
    Event,
    IllegalAction,
    Kernel,
    MissingOutcome,
    PendingDecision,
    Record,
    TimingRules,
    Triggered,
)
from judge.kernel.rng import Rng

TIMING_RULES = TimingRules(
    instead="relic.project.no-replacements",
    no_triggers_from_replaced="relic.project.no-replacements",
    competing="relic.project.no-replacements",
    before="relic.timing.start",
    after="relic.timing.end",
    queue_fifo="relic.timing.end",
    same_player="relic.timing.active-player-orders",
    several_players="relic.timing.active-player-orders",
    optional="relic.timing.during",
)
MAX_EXPLOSIONS = 50  # a die that shows 6 fifty times in a row: the log describes no real roll
LOST_BATTLE = Effect(kind="lose-life", value=1)  # relic.base.battle: a battle lost costs a life


class NotImplementedEffect(Exception):
    """A card's effect the engine does not carry out, at the moment it would change the game: the
    replay stops and says so rather than silently skipping it."""

    kind: ClassVar[str] = "not-implemented"

    def __init__(self, code: str, name: str, text: str):
        self.code = code
        self.rule = "relic.cards.anatomy"
        self.message = f"{name} ({code}): its effect is not implemented by the engine, so it cannot rule past " \
                       f"this point (effect: {text or 'no text'})"
        super().__init__(self.message)


class WindowStarts(Event):
    """A turn, phase, battle or skill test begins: its "start" effects resolve first."""

    __slots__ = ("window", "player")
    kind: ClassVar[str] = "window-starts"
    fields: ClassVar[tuple[str, ...]] = ("window", "player")

    def __init__(self, window: str, player: str) -> None:
        self.window = window
        self.player = player


class WindowEnds(Event):
    """A turn, phase, battle or skill test ends: its "end" effects resolve after all else."""

    __slots__ = ("window", "player")
    kind: ClassVar[str] = "window-ends"
    fields: ClassVar[tuple[str, ...]] = ("window", "player")

    def __init__(self, window: str, player: str) -> None:
        self.window = window
        self.player = player


class Ctx:
    """One step's context and the kernel's host."""

    timing_rules: ClassVar[TimingRules] = TIMING_RULES

    def __init__(self, state: RelicState, inputs: Inputs = NO_INPUTS, rng: Rng | None = None,
                 policy: Policy | None = None) -> None:
        self.state = state
        self.rng = rng
        self.policy = policy
        self.inputs = InputReader(inputs)
        self._kernel: Kernel | None = None  # made when a window has effects to run (most have none)
        self.records: list[Record] = []
        self.decisions: list[dict[str, Any]] = []
        self.written_choices: list[dict[str, Any]] = []
        self.turn_over = False  # the active player was vanquished: their turn ends after this step

    @property
    def kernel(self) -> Kernel:
        """The step's timing kernel (made on first use)."""
        kernel = self._kernel
        if kernel is None:
            kernel = self._kernel = Kernel(self)
        return kernel

    def close(self) -> None:
        """Done with this step: break the context <-> kernel reference cycle (as Destiny's Ctx does)."""
        self._kernel = None

    # -- kernel host --------------------------------------------------------------------------
    def record(self, record: Record) -> None:
        self.records.append(record)

    def chooser_for(self, triggers: Sequence[Triggered]) -> tuple[str, str]:
        return str(self.state.turn), "relic.timing.active-player-orders"

    def decide(self, decision: Decision) -> Any:
        """Answer from the step's ``choices`` in order, else the policy, else stop (pending)."""
        choice = self.inputs.choice_for(decision)
        if choice is not None:
            answer = choice.answer
        elif self.policy is not None:
            answer = self.policy(self, decision)
            self.written_choices.append({"by": decision.by, "kind": decision.kind, "answer": answer})
        else:
            self.decisions.append(decision.to_json())
            raise PendingDecision(decision)
        if not decision.multiple and answer not in decision.options:
            raise IllegalAction(decision.rules[0], Msg(
                N_("{answer!r} is not one of the options {options}"),
                answer=answer, options=list(decision.options),
            ))
        self.decisions.append(decision.to_json(answer, answered=True))
        return answer

    def replacements(self, event: Event) -> list[Triggered]:
        return []  # relic.project.no-replacements

    def befores(self, event: Event) -> list[Triggered]:
        return self._timed(event.window, event.player, "start") if isinstance(event, WindowStarts) else []

    def afters(self, event: Event) -> list[Triggered]:
        return self._timed(event.window, event.player, "end") if isinstance(event, WindowEnds) else []

    def perform(self, event: Event) -> bool:
        return True

    def _timed(self, window: str, pid: str, timing: str) -> list[Triggered]:
        """The ``timing`` effects of ``pid``'s ``window``: the enemies being fought, the active
        player's cards, the scenario's special rules, in that order."""
        st = self.state
        sources: list[tuple[str, Card | None, Effect]] = []
        if window == "battle" and st.contest is not None:
            for code in st.contest.enemies:
                card = st.card(code)
                if card is not None and card.effect is not None and self._runs_at(card, card.effect, timing, window):
                    sources.append((code, card, card.effect))
        for h in st.players[pid].assets:
            card = st.card(h.code)
            if card is None:
                continue
            eff = card.effect
            # (most cards: none, or an effect the engine carries out at another time)
            if eff is None or (eff.timing != timing and eff.kind in EFFECT_KINDS):
                continue
            if self._runs_at(card, eff, timing, window):
                sources.append((h.ref, card, eff))
        if st.scenario is not None:
            for i, eff in enumerate(st.scenario.special):
                if (eff.timing == timing or eff.kind not in EFFECT_KINDS) and self._runs_at(None, eff, timing, window):
                    sources.append((f"scenario:{i + 1}", None, eff))
        if not sources:
            return []
        out: list[Triggered] = []
        seen: dict[str, int] = {}
        for source, card, eff in sources:
            seen[source] = seen.get(source, 0) + 1
            ability = source if seen[source] == 1 else f"{source}#{seen[source]}"
            out.append(Triggered(ability_id=ability, source=source, controller=pid, timing=timing,
                                 text=f"{eff.kind} ({timing} of the {window})",
                                 run=self._runner(pid, source, card, eff), rules=(f"relic.timing.{timing}",)))
        return out

    def _runs_at(self, card: Card | None, eff: Effect, timing: str, window: str) -> bool:
        """Whether ``eff`` resolves at the ``timing`` of ``window``; an effect the engine cannot read
        whose text names that moment stops the replay (not-implemented) rather than being skipped."""
        if eff.kind not in EFFECT_KINDS:  # not implemented
            if card is not None and _mentions(eff.text, timing, window):
                raise self.not_implemented(card)
            return False
        return eff.timing == timing and eff.window == window

    def _runner(self, pid: str, source: str, card: Card | None, eff: Effect) -> Any:
        return lambda: self.effect(pid, source, card, eff)

    def not_implemented(self, card: Card) -> NotImplementedEffect:
        exc = NotImplementedEffect(card.code, card.name, card.effect.text if card.effect else "")
        self.record(ev.NotImplementedRecord(card=card.code, message=exc.message, rules=(exc.rule,)))
        return exc

    # -- inputs -------------------------------------------------------------------------------
    def roll(self, die: str) -> int:
        """A die's face: the log's next ``roll`` entry, else the rng, else a missing outcome."""
        raw = self.inputs.next_roll()
        if raw is not None:
            if raw not in ("1", "2", "3", "4", "5", "6"):
                raise IllegalAction("relic.dice.exploding", Msg(
                    N_("roll {n} for {die}: a six-sided die shows 1 to 6, not {raw!r}"),
                    n=self.inputs.ri, die=die, raw=raw,
                ))
            return int(raw)
        if self.rng is not None:
            return self.rng.below(6) + 1
        raise MissingOutcome(Msg(
            N_("the log does not say what {die} rolled (roll {n} of this step) and has no rng"),
            die=die, n=self.inputs.ri + 1,
        ), "relic.dice.exploding")

    def check_inputs_used(self) -> None:
        left = self.inputs.unused()
        if left == "roll":
            raise IllegalAction("relic.dice.additional-simultaneous", Msg(
                N_("the step lists {n_roll} die result(s) but only {n_rolled} dice were rolled"),
                n_roll=len(self.inputs.inputs.roll), n_rolled=self.inputs.ri,
            ))
        if left == "random":
            raise IllegalAction("relic.base.turn", Msg(N_("the step lists random outcomes no rule drew")))
        if left == "choices":
            raise IllegalAction("relic.timing.active-player-orders", Msg(
                N_("choice {n} answers a question the rules did not ask in this step"),
                n=self.inputs.ci + 1,
            ))

    # -- charges and discards -----------------------------------------------------------------
    def place_charges(self, pid: str, held: Held, card: Card) -> None:
        held.charges = card.charges  # relic.charges.initial
        if card.charges:
            self.record(ev.ChargesPlaced(player=pid, card=held.ref, charges=held.charges,
                                         rules=("relic.charges.initial",)))

    def spend_charge(self, pid: str, held: Held) -> None:
        p = self.state.players[pid]
        held.charges -= 1  # relic.charges.spend: back to the supply
        p.spent.append(held.ref)  # relic.charges.one-per-card-per-turn
        self.record(ev.ChargeSpent(player=pid, card=held.ref, left=held.charges,
                                   rules=("relic.charges.spend", "relic.charges.one-per-card-per-turn")))
        if held.charges == 0:
            self.discard(pid, held, "last-charge", ("relic.charges.last-token-discard", "relic.discard.pile"))

    def discard(self, pid: str, held: Held, why: str, rules: tuple[str, ...]) -> None:
        p = self.state.players[pid]
        tokens = held.charges
        if held in p.assets:
            p.assets.remove(held)
        else:
            p.hand.remove(held)
        held.charges = 0  # relic.discard.pile: every token removed
        p.discard.append(held.code)
        self.record(ev.CardDiscarded(player=pid, card=held.ref, code=held.code, tokens=tokens, why=why, rules=rules))

    def forced_discard(self, pid: str, source: str, count: int, type_: str) -> None:
        """An effect makes ``pid`` discard ``count`` cards of ``type_``: they choose which
        (relic.discard.player-chooses); with fewer, all they have (relic.discard.insufficient)."""
        p = self.state.players[pid]
        matching = [h for h in (*p.assets, *p.hand) if _of_type(self.state.card(h.code), type_)]
        if len(matching) <= count:
            chosen = matching
            if len(matching) < count:
                self.record(ev.DiscardShort(player=pid, type=type_, required=count, discarded=len(matching),
                                            rules=("relic.discard.insufficient",)))
        else:
            refs = tuple(h.ref for h in matching)
            answer = self.decide(Decision(by=pid, kind="discard", options=refs, rules=("relic.discard.player-chooses",),
                                          prompt=Msg(
                                              N_("discard {count} {type_} card(s)"),
                                              count=count, type_=type_,
                                          ), source=source, multiple=True,
                                          count=count))
            if (not isinstance(answer, list) or len(answer) != count or len(set(map(str, answer))) != count
                    or any(a not in refs for a in answer)):
                raise IllegalAction("relic.discard.player-chooses", Msg(
                    N_("name {count} different card(s) among {refs}"),
                    count=count, refs=', '.join(refs),
                ))
            chosen = [h for h in matching if h.ref in answer]
        for h in chosen:
            self.discard(pid, h, "effect", ("relic.discard.player-chooses", "relic.discard.pile"))

    # -- effects ------------------------------------------------------------------------------
    def effect(self, pid: str, source: str, card: Card | None, eff: Effect) -> None:
        """Carry out an effect for ``pid`` (a start or end effect, a used card, a penalty)."""
        st = self.state
        p = st.players[pid]
        c = st.contest
        kind = eff.kind
        rules: tuple[str, ...] = ()
        if kind in ("gain-influence", "lose-influence"):
            change = eff.value if kind == "gain-influence" else -min(eff.value, p.influence)
            p.influence += change
            self.record(ev.EffectResolved(card=source, effect=kind, player=pid, change=change, now=p.influence,
                                          rules=("relic.base.levels",)))
        elif kind in ("gain-life", "lose-life"):
            start = p.character.life
            change = min(eff.value, 12 - p.life) if kind == "gain-life" else -min(eff.value, p.life)
            p.life += change
            self.record(ev.EffectResolved(card=source, effect=kind, player=pid, change=change, now=p.life,
                                          rules=("relic.base.life",)))
            if p.life == 0:
                self.vanquish(p, start)
        elif kind == "discard":
            self.forced_discard(pid, source, eff.value, eff.type or "any")
        elif kind in ("score", "enemy-score", "difficulty"):
            if c is None:
                return
            if kind == "score":
                c.score += eff.value
                now, rules = c.score, ("relic.dice.modify",)
            else:
                c.enemy_score += eff.value
                now, rules = c.enemy_score, ("relic.dice.modify",)
            self.record(ev.EffectResolved(card=source, effect=kind, player=pid, change=eff.value, now=now,
                                          rules=rules))
        elif kind == "add-charges":
            targets = tuple(h.ref for h in p.assets)
            if not targets:
                return
            ref = targets[0] if len(targets) == 1 else self.decide(Decision(
                by=pid, kind="card", options=targets, rules=("relic.charges.add-beyond-value",),
                prompt=Msg(N_("the card to put {n} charge token(s) on"), n=eff.value), source=source))
            held = next(h for h in p.assets if h.ref == ref)
            held.charges += eff.value  # relic.charges.add-beyond-value: no cap at the printed value
            self.record(ev.ChargesAdded(player=pid, card=held.ref, added=eff.value, charges=held.charges,
                                        rules=("relic.charges.add-beyond-value",)))
        elif kind == "extra-die":
            if c is None or c.stage != "prepare":
                raise IllegalAction("relic.dice.additional-simultaneous", Msg(
                    N_("no die is added after the roll but by exploding"),
                ))
            c.extra += 1
            self.record(ev.ExtraDie(player=pid, card=source, dice=1 + c.extra,
                                    rules=("relic.dice.additional-simultaneous",)))
        else:  # reroll / modify need a die: used by a step, never at a window's start or end
            raise NotImplementedEffect(card.code if card else source, card.name if card else source,
                                       f"{kind} at the {eff.timing} of the {eff.window}")

    def vanquish(self, p: Player, start_life: int) -> None:
        """0 life (relic.base.life): Power cards and trophies discarded, Influence returned, life reset,
        moved to St. Antias' Sanctuary (off the scenario space; the board is not modelled,
        relic.project.board); on their own turn, the turn ends (after the step: ``turn_over``)."""
        for h in list(p.hand):
            self.discard(p.id, h, "vanquished", ("relic.base.life", "relic.discard.pile"))
        p.trophies.clear()
        p.influence = 0
        p.life = start_life
        p.at_scenario = False
        self.record(ev.Vanquished(player=p.id, life=p.life, rules=("relic.base.life",)))
        if p.id == self.state.turn:
            self.turn_over = True

    # -- windows ------------------------------------------------------------------------------
    def start_window(self, window: str) -> None:
        """The window opens: its "start" effects resolve through the kernel (a window without any,
        most of them, has nothing to run: the kernel is not asked)."""
        pid = str(self.state.turn)
        if self._timed(window, pid, "start"):
            self.kernel.emit(WindowStarts(window, pid))

    def end_window(self, window: str) -> None:
        """The window closes: its "end" effects queue and resolve (none: nothing to run)."""
        pid = str(self.state.turn)
        if self._timed(window, pid, "end"):
            kernel = self.kernel
            kernel.emit(WindowEnds(window, pid))
            kernel.drain()

    def begin_turn(self) -> None:
        st = self.state
        pid = str(st.turn)
        st.players[pid].spent.clear()  # relic.charges.one-per-card-per-turn: counted per turn
        st.phase = "movement"
        self.record(ev.TurnBegins(player=pid, round=st.round, rules=("relic.base.turn",)))
        self.start_window("turn")
        self.record(ev.PhaseBegins(player=pid, phase="movement", rules=("relic.base.turn",)))
        self.start_window("movement")

    # -- dice ---------------------------------------------------------------------------------
    def new_die(self, side: str, value: int, parent: str | None) -> Die:
        c = self.state.contest
        assert c is not None
        prefix = "d" if side == "player" else "e"
        die = Die(id=f"{prefix}{sum(1 for d in c.dice if d.side == side) + 1}", side=side, rolls=[value],
                  parent=parent)
        c.dice.append(die)
        return die

    def explode(self, die: Die) -> None:
        """relic.dice.exploding: a (base) 6 rolls one more die, again and again while it shows 6."""
        current, n = die, 0
        while current.explodes:
            n += 1
            if n > MAX_EXPLOSIONS:
                raise IllegalAction("relic.dice.exploding", Msg(
                    N_("{die} exploded more than {most} times"),
                    die=die.id, most=MAX_EXPLOSIONS,
                ))
            new = self.new_die(current.side, self.roll(f"the die exploding from {current.id}"), current.id)
            self.record(ev.DieExploded(die=new.id, side=new.side, parent=current.id, result=new.base,
                                       score=self.side_score(new.side),
                                       rules=("relic.dice.exploding", "relic.dice.explode-per-die")))
            current = new

    def side_score(self, side: str) -> int:
        return score(self.state, side)


def _of_type(card: Card | None, type_: str) -> bool:
    if card is None:
        return False
    t = type_.lower()
    return t == "any" or card.type.lower() == t or card.cls.lower() == t


def _mentions(text: str, timing: str, window: str) -> bool:
    """Whether an effect text the engine cannot read is timed at this window's start or end (its
    text names the timing word): the replay stops there rather than skipping it."""
    low = text.lower()
    return f"{timing} of this {window}" in low or f"{timing} of your {window}" in low or \
        f"{timing} of the {window}" in low


# -- steps ----------------------------------------------------------------------------------
def apply_step(ctx: Ctx, action: ac.RelicAction) -> None:
    st = ctx.state
    violation = check(st, action)
    if violation is not None:
        raise IllegalAction(*violation)
    pid = str(st.turn)
    p = st.players[pid]
    if isinstance(action, ac.EndPhase):
        _end_phase(ctx, pid)
    elif isinstance(action, ac.Reach):
        p.at_scenario = True
        ctx.record(ev.ScenarioReached(player=pid, rules=("relic.base.winning", "relic.project.board")))
    elif isinstance(action, ac.Battle):
        enemies = [st.card(code) for code in action.enemies]
        color = enemies[0].battle[0] if enemies[0] and enemies[0].battle else "red"
        value = sum(e.battle[1] for e in enemies if e is not None and e.battle is not None)
        _begin(ctx, Contest(kind="battle", color=color, enemies=list(action.enemies), value=value),
               ("relic.base.battle", "relic.base.threats") if len(action.enemies) > 1 else ("relic.base.battle",))
    elif isinstance(action, ac.Confront):
        assert st.scenario is not None
        kind, color, value = st.scenario.confrontation
        st.confronted = True  # once each Encounter phase (relic.base.winning)
        _begin(ctx, Contest(kind=kind, color=color, value=value, confrontation=True),
               ("relic.scenario.confrontation",))
    elif isinstance(action, ac.Test):
        _begin(ctx, Contest(kind="test", color=COLOR_OF[action.skill], value=action.target), ("relic.base.skill",))
    elif isinstance(action, ac.Declare):
        _declare(ctx, p, action)
    elif isinstance(action, ac.Use):
        _use(ctx, p, action)
    elif isinstance(action, ac.Power):
        held = next(h for h in p.hand if h.ref == action.card)
        card = st.card(held.code)
        assert card is not None and card.number is not None and st.contest is not None
        st.contest.power = card.number
        ctx.record(ev.PowerNumber(player=pid, card=held.ref, number=card.number, rules=("relic.base.power",)))
        ctx.discard(pid, held, "power", ("relic.base.power", "relic.discard.pile"))
    elif isinstance(action, ac.Roll):
        _roll(ctx)
    elif isinstance(action, ac.Resolve):
        _resolve(ctx, p)
    elif isinstance(action, ac.Discard):
        for ref in action.cards:
            gone = p.held(ref)
            assert gone is not None
            ctx.discard(pid, gone, "experience", ("relic.discard.experience-phase-only", "relic.discard.pile"))
    elif isinstance(action, ac.Buy):
        card = st.card(action.card)
        assert card is not None and card.influence is not None
        p.influence -= card.influence
        held = new_held(p, card)
        ctx.record(ev.Bought(player=pid, card=held.ref, cost=card.influence, influence=p.influence,
                             rules=("relic.cards.influence-cost",)))
        ctx.place_charges(pid, held, card)
    if ctx.turn_over and st.winner is None:
        _end_turn(ctx, pid)  # relic.base.life: vanquished on their own turn, the turn ends at once
    ctx.check_inputs_used()


def new_held(p: Player, card: Card) -> Held:
    """The card in ``p``'s play area (a Power card: in hand), with a reference of its own: not one of a
    card in play, nor one of a card discarded this turn after a charge was spent from it (another copy
    is another card: its charge is its own, relic.charges.one-per-card-per-turn)."""
    taken = {h.ref for h in (*p.assets, *p.hand)}
    taken.update(p.spent)
    ref, n = f"{p.id}.{card.code}", 1
    while ref in taken:
        n += 1
        ref = f"{p.id}.{card.code}#{n}"
    held = Held(ref=ref, code=card.code)
    (p.hand if card.power else p.assets).append(held)
    return held


def _end_phase(ctx: Ctx, pid: str) -> None:
    st = ctx.state
    phase = st.phase
    ctx.end_window(phase)
    st.ended, st.confronted = None, False  # the Encounter phase's own (relic.base.threats, relic.base.winning)
    nxt = PHASE_AFTER.get(phase)
    if nxt is not None:
        st.phase = nxt
        ctx.record(ev.PhaseBegins(player=pid, phase=nxt, rules=("relic.base.turn",)))
        ctx.start_window(nxt)
        return
    _next_turn(ctx, pid)


def _end_turn(ctx: Ctx, pid: str) -> None:
    """The active player's turn ends at once (vanquished, relic.base.life): no phase after this one,
    the contest under way (if any) abandoned."""
    st = ctx.state
    ctx.turn_over = False
    st.contest = None
    ctx.end_window(st.phase)
    st.ended, st.confronted = None, False
    _next_turn(ctx, pid)


def _next_turn(ctx: Ctx, pid: str) -> None:
    st = ctx.state
    ctx.end_window("turn")
    i = st.order.index(pid)
    if i + 1 == len(st.order):
        st.round += 1
    st.turn = st.order[(i + 1) % len(st.order)]
    ctx.begin_turn()


def _begin(ctx: Ctx, contest: Contest, rules: tuple[str, ...]) -> None:
    st = ctx.state
    st.contest = contest
    pid = str(st.turn)
    ctx.record(ev.ContestBegins(player=pid, contest=contest.kind, characteristic=CHARACTERISTIC[contest.color],
                                enemies=tuple(contest.enemies) or None, value=contest.value,
                                confrontation=contest.confrontation, rules=rules))
    ctx.start_window(contest.kind)  # relic.timing.start: before any other rule of the battle


def _declare(ctx: Ctx, p: Player, action: ac.Declare) -> None:
    st = ctx.state
    c = st.contest
    held = next(h for h in p.assets if h.ref == action.card)
    card = st.card(held.code)
    assert c is not None and card is not None
    bonus = card.bonuses[action.bonus]
    if bonus.charge:
        ctx.spend_charge(p.id, held)
    # the bonus is kept with its value: it counts even when its last token discarded the card
    c.declared.append({"card": held.ref, "code": held.code, "bonus": action.bonus, "kind": bonus.kind,
                       "color": bonus.color, "value": bonus.value})
    rules = (("relic.bonuses.battle", "relic.bonuses.battle-colors", "relic.bonuses.battle-declare")
             if bonus.kind == "battle" else
             ("relic.bonuses.skill", "relic.bonuses.skill-colors", "relic.bonuses.skill-declare"))
    ctx.record(ev.BonusDeclared(player=p.id, card=held.ref, bonus=bonus.to_json(), rules=rules))


def _use(ctx: Ctx, p: Player, action: ac.Use) -> None:
    st = ctx.state
    held = p.held(action.card)
    assert held is not None
    card = st.card(held.code)
    assert card is not None and card.effect is not None
    eff = card.effect
    if not eff.implemented:
        raise ctx.not_implemented(card)
    in_hand = held in p.hand
    c = st.contest
    if c is not None and c.kind == "battle" and card.type.lower() in WEAPON_ARMOUR and held.ref not in c.used:
        c.used.append(held.ref)  # relic.project.effect-uses-card: this battle's weapon (or armour) now
    if eff.charge:
        ctx.spend_charge(p.id, held)
    if eff.kind == "reroll":
        assert c is not None and action.die is not None
        _reroll(ctx, c, action.die, held.ref)
    elif eff.kind == "modify":
        assert c is not None and action.die is not None
        die = c.die(action.die)
        assert die is not None
        die.modifiers.append(eff.value)
        ctx.record(ev.DieModified(die=die.id, card=held.ref, by=eff.value, base=die.base, result=die.result,
                                  score=ctx.side_score(die.side),
                                  rules=("relic.dice.modify", "relic.dice.base-result-triggers")))
    else:
        ctx.effect(p.id, held.ref, card, eff)
    if in_hand and held in p.hand:  # relic.base.power: a Power card used for its ability is discarded
        ctx.discard(p.id, held, "power", ("relic.base.power", "relic.discard.pile"))


def _reroll(ctx: Ctx, c: Contest, die_id: str, source: str) -> None:
    """relic.dice.reroll: the new result replaces the old for every rule; only it can explode.
    The dice that exploded from the old result go with it (relic.project.reroll-voids-explosions)."""
    die = c.die(die_id)
    assert die is not None
    was = die.base
    voided: list[str] = []
    frontier = {die.id}
    for d in c.dice:
        if d.parent in frontier and not d.void:
            d.void = True
            voided.append(d.id)
            frontier.add(d.id)
    die.rolls.append(ctx.roll(die.id))
    ctx.record(ev.DieRerolled(die=die.id, card=source, was=was, result=die.base, voided=tuple(voided),
                              score=ctx.side_score(die.side),
                              rules=("relic.dice.reroll", "relic.project.reroll-voids-explosions")
                              if voided else ("relic.dice.reroll",)))
    ctx.explode(die)


def _roll(ctx: Ctx) -> None:
    """The enemy's die (a battle), then the player's dice all together, then each 6's explosions."""
    st = ctx.state
    c = st.contest
    assert c is not None
    c.stage = "rolled"
    if c.kind == "battle":
        enemy = ctx.new_die("enemy", ctx.roll("the enemy's die"), None)
        ctx.record(ev.DieRolled(die=enemy.id, side="enemy", result=enemy.base, score=ctx.side_score("enemy"),
                                rules=("relic.base.battle",)))
        ctx.explode(enemy)
    batch: list[Die] = []
    for i in range(1 + c.extra):
        if i == 0 and c.power is not None:
            die = ctx.new_die("player", c.power, None)  # relic.base.power: the number is the die's result
        else:
            die = ctx.new_die("player", ctx.roll(f"the player's die {i + 1}"), None)
        batch.append(die)
        ctx.record(ev.DieRolled(die=die.id, side="player", result=die.base, score=ctx.side_score("player"),
                                rules=("relic.dice.additional-simultaneous",) if c.extra else
                                ("relic.base.battle",) if c.kind == "battle" else ("relic.base.skill",)))
    for die in batch:
        ctx.explode(die)


def _resolve(ctx: Ctx, p: Player) -> None:
    st = ctx.state
    c = st.contest
    assert c is not None
    mine, theirs = score(st, "player"), against(st)
    rules: tuple[str, ...]
    if c.kind == "battle":
        outcome = "win" if mine > theirs else "lose" if mine < theirs else "tie"
        rules = ("relic.base.battle",)
    else:
        natural = [d.base for d in c.counted("player")]
        outcome = "pass" if mine >= theirs and not all(b == 1 for b in natural) else "fail"
        rules = ("relic.base.skill",)
    if c.confrontation:
        rules = (*rules, "relic.scenario.confrontation")
    ctx.record(ev.ContestResolved(player=p.id, contest=c.kind, score=mine, against=theirs, outcome=outcome,
                                  rules=rules))
    st.last = {"kind": c.kind, "score": mine, "against": theirs, "outcome": outcome}
    if outcome == "win" and not c.confrontation:
        for code in c.enemies:
            p.trophies.append(code)
            ctx.record(ev.Trophy(player=p.id, enemy=code, rules=("relic.base.battle",)))
    elif outcome == "lose":
        ctx.effect(p.id, "battle", None, LOST_BATTLE)
        for code in c.enemies:
            card = st.card(code)
            if card is not None and card.penalty is not None:
                if not card.penalty.implemented:
                    raise NotImplementedEffect(card.code, card.name, card.penalty.text)
                ctx.effect(p.id, code, card, card.penalty)
    ctx.end_window(c.kind)  # relic.timing.end: after every other rule of the battle
    st.contest = None
    if c.confrontation:  # (set when it began; a position may begin with one under way)
        st.confronted = True
    if c.kind == "battle" and outcome != "win" and st.winner is None:
        # relic.base.threats: losing or tying ends the Encounter phase at once; the threats left stay
        st.ended = "lost" if outcome == "lose" else "tied"
        ctx.record(ev.EncounterEnded(player=p.id, outcome=outcome, rules=("relic.base.threats", "relic.base.battle")))
    if c.confrontation and outcome in ("win", "pass"):
        st.winner, st.reason, st.phase = p.id, "confrontation", "over"
        st.confronted = False  # the game is over: no Encounter phase is under way
        ctx.record(ev.GameOver(winner=p.id, reason="confrontation",
                               rules=("relic.scenario.confrontation", "relic.scenario.first-to-win")))
