"""The SW TCG engine: the turn's procedure, chances to play, attacks, damage and abilities.

A step is carried out by ``judge.games.swtcg.procedure.apply_step`` (the verbs in
``judge.games.swtcg.actions``), then ``procedure.advance`` runs the turn's procedure: the frames of
``state.frames`` (the next last), each run here by ``run_frame``, until a player must act (a build
or retreat step, a unit's turn to attack, or a chance to play). Package layers, lowest first:
model, state, records, steps -> engine -> opening (setup's procedure) -> actions -> legal ->
procedure -> setup -> game.

Chances to play (swtcg.pop.*): when a chance opens, the triggered abilities waiting for it resolve
first (swtcg.pop.triggers-first); then the Dark Side acts (swtcg.pop.dark-side-first): plays one
ability or battle card, or passes; players alternate until both pass in a row
(swtcg.pop.two-passes-end). A player with nothing they could play passes at once (the engine
writes that pass, marked ``auto``: a project assumption, swtcg.project.forced-pass; procedure.py). A roll
(the ready phase's build-point die too) opens a chance to reroll (swtcg.pop.dice-roll), damage
about to be dealt a chance to prevent it (swtcg.pop.damage), a battle card or ability a chance to
disrupt it when someone could.

Triggered abilities never resolve at once: each joins ``state.held`` and waits for its moment
(swtcg.triggers.held-during-effect, swtcg.triggers.held-during-chance): the next chance to play for
most, the next chance to reroll or to prevent damage for those that reroll or prevent
(swtcg.triggers.reroll-window, swtcg.triggers.prevent-window), the start of the owner's build step
for Upkeep and Bounty (swtcg.build.start-triggers).

Timing kernel: the SW TCG pipeline uses the kernel's decisions, errors and records
(judge.kernel.core); its FIFO after-queue, drained when the outermost action ends, does not model
SW TCG's held triggers, which wait across steps for the next chance, so they are held here.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any, ClassVar, Final

from i18n import N_, Msg
from judge.games.base import Policy
from judge.games.inputs import NO_INPUTS, InputReader, Inputs
from judge.games.swtcg import records as rc
from judge.games.swtcg.model import (
    ACTIVATED,
    CUMULATIVE,
    KEYWORD_EFFECTS,
    STATIC_USED,
    CardDef,
    CardPool,
    Effect,
    Keyword,
    Trigger,
    X,
)
from judge.games.swtcg.state import ARENAS, ARENAS_OR_BUILD, IN_PLAY, Card, Chance, Facts, GameState, RollState
from judge.kernel.core import Decision, IllegalAction, KernelLoop, MissingOutcome, PendingDecision, Record
from judge.kernel.rng import Rng

MAX_LOOP: Final = 5_000  # procedure steps run by one step of a log before it is taken for a loop
FORCE_PER_TURN: Final = 4  # base.turn.ready
SETUP_BUILD_POINTS: Final = 30  # swtcg.setup.out-of-units
OPENING_HAND: Final = 7  # base.setup (swtcg.project.opening-hand)
STACK_MAX: Final = 4  # swtcg.stacking.normal-rules
# where a player's unique card of a name is in play (base.unique: in battle or retreated): a unit in an
# arena or retreated to the build zone, or a pilot on a unit, the card of its name still and one a new
# version stacks with (swtcg.pilots.unique-stacked: a stacked unique pilot is on a unit)
UNIQUE_ZONES: Final = (*ARENAS_OR_BUILD, "pilot")


class NotImplementedCard(Exception):
    """A card whose text the engine does not implement matters here: the replay stops."""

    kind: ClassVar[str] = "not-implemented"

    def __init__(self, code: str, name: str, text: str):
        self.rule = "swtcg.project.not-implemented"
        self.code = code
        self.message = f"card {code} ({name}) has text the engine does not implement: {text!r}"
        super().__init__(self.message)


class Ctx:
    """One step's working context: the state, the cards, the step's inputs and what happened."""

    def __init__(self, state: GameState, cards: CardPool, inputs: Inputs = NO_INPUTS, rng: Rng | None = None,
                 policy: Policy | None = None, recording: bool = True):
        self.state = state
        self.cards = cards
        self.rng = rng
        self.policy = policy
        self.inputs = InputReader(inputs)
        self.records: list[Record] = []
        # whether the step's records are kept: False when nobody reads them (``Swtcg.apply_unrecorded``, a
        # replay with no visitor), and the commonest records, each written ``if ctx.recording``, are not
        # made (what the step does to the state is the same: tests/judge/swtcg/test_fast_paths.py)
        self.recording = recording
        self.decisions: list[dict[str, Any]] = []
        self.written_choices: list[dict[str, Any]] = []
        # only checking (judge.games.swtcg.legal.options): the state cannot change, and a problem is not
        # worded (actions._why)
        self.checking = False
        # the Dark Side player and the two seats, found when first asked for (``dark``, ``opponent``):
        # the seats and their sides never change once the players are seated
        self._dark: str | None = None
        self._seats: tuple[str, str] | None = None
        # two players' shared records (``_player_records``), each with its player's string
        self._rec_pid: str | None = None
        self._rec: _PlayerRecords | None = None
        self._rec_pid2: str | None = None
        self._rec2: _PlayerRecords | None = None
        # the facts ``facts_of`` last found sound for this step, and the phase then (``facts_of``: the
        # pool and its edits never change while a step is carried out, so only the phase and the index's
        # facts object are asked again)
        self._facts: Facts | None = None
        self._facts_phase = ""

    def dark(self) -> str:
        """``state.dark()``, found once a step."""
        found = self._dark
        if found is None:
            found = self._dark = self.state.dark()
        return found

    def seat(self, pid: str) -> str:
        """The key of ``state.players`` equal to ``pid`` (that string itself: looked up by identity), or
        ``pid``."""
        for key in self.state.players:
            if key == pid:
                return key
        return pid

    def opponent(self, pid: str) -> str:
        """``state.opponent(pid)``, the two seats found once a step."""
        seats = self._seats
        if seats is None:
            players = self.state.players
            if len(players) != 2:
                return self.state.opponent(pid)
            first, second = players  # (its two keys in order, without a list made of them)
            seats = self._seats = (first, second)
        if pid == seats[0]:
            return seats[1]
        if pid == seats[1]:
            return seats[0]
        return self.state.opponent(pid)

    # ------------------------------------------------------------------ lookups
    def card(self, code: str) -> CardDef:
        card = self.cards.cards.get(code)  # (CardPool.get, without its call: the hottest lookup)
        if card is None:
            raise IllegalAction("swtcg.project.card-pool", Msg(N_("card {code} is not known to the engine"), code=code))
        return card

    def cdef(self, ref: str) -> CardDef:
        code = self.state.cards[ref].code
        return self.cards.cards.get(code) or self.card(code)

    def record(self, record: Record) -> None:
        self.records.append(record)

    def decide(self, decision: Decision) -> Any:
        """Answer a decision from the step's ``choices`` (in order), else the policy, else stop."""
        choice = self.inputs.choice_for(decision)
        if choice is not None:
            answer = choice.answer
        elif self.policy is not None:
            answer = self.policy(self, decision)
            self.written_choices.append({"by": decision.by, "kind": decision.kind, "answer": answer})
        else:
            self.decisions.append(decision.to_json())
            raise PendingDecision(decision)
        if decision.multiple:
            if not isinstance(answer, list) or sorted(map(str, answer)) != sorted(map(str, decision.options)):
                raise IllegalAction(decision.rules[0], Msg(
                    N_("the answer must list each of {options} once"),
                    options=list(decision.options),
                ))
        elif answer not in decision.options:
            raise IllegalAction(decision.rules[0], Msg(
                N_("{answer!r} is not one of the options {options}"),
                answer=answer, options=list(decision.options),
            ))
        self.decisions.append(decision.to_json(answer, answered=True))
        return answer

    def die(self, rule: str) -> int:
        """One die: the step's next logged ``roll``, else the seeded generator, else missing."""
        face = self.inputs.next_roll()
        if face is not None:
            if face not in ("1", "2", "3", "4", "5", "6"):
                raise IllegalAction(rule, Msg(N_("a die shows 1 to 6, not {face!r}"), face=face))
            return int(face)
        if self.rng is not None:
            return self.rng.below(6) + 1
        raise MissingOutcome(Msg(N_("a die roll: the step's 'roll' has no more dice and the log has no 'rng'")), rule)


# ====================================================================== stats and abilities
def active(st: GameState, c: Card) -> bool:
    """Whether a card's abilities work: not in setup (swtcg.setup.no-abilities), not partially built
    (swtcg.abilities.partially-built-inactive)."""
    return st.phase != "setup" and c.built


def stat(ctx: Ctx, ref: str, name: str, boosters: list[Card] | None = None) -> int:
    """A unit's speed, power or health: printed, plus its pilot's bonuses
    (swtcg.pilots.bonuses-only-when-piloting), plus lasting effects (swtcg.abilities.cumulative-modifiers).
    ``boosters``: ``boost_sources(ctx)``, when the caller found them already."""
    st = ctx.state
    c = st.cards[ref]
    d = ctx.cards.cards.get(c.code) or ctx.card(c.code)
    value = d.speed if name == "speed" else d.power if name == "power" else d.health if name == "health" \
        else int(getattr(d, name))
    pc = st.cards.get(c.pilot) if c.pilot else None
    if pc is not None:
        pdef = (ctx.cards.cards.get(pc.code) or ctx.card(pc.code)).pilot  # (ctx.cdef, the card found already)
        if pdef is not None:
            value += pdef.speed if name == "speed" else pdef.power if name == "power" else pdef.health \
                if name == "health" else int(getattr(pdef, name))
    for m in st.mods:
        on: str = m["target"]  # (typed: compared as strings, compiled)
        if on == ref and m["stat"] == name:
            value += int(m["amount"])
    for g in boost_sources(ctx) if boosters is None else boosters:
        if g.ref != ref and g.controller == c.controller:
            for s in ctx.card(g.code).statics:
                if s.kind == "boost" and s.stat == name and d.has_subtype(s.scope):
                    value += s.amount  # swtcg.cards.subtype-reference: the type line, never the name
    if c.gear:
        for g in equipment_on(ctx, ref):  # only while attached to this unit (swtcg.base.equip)
            for s in ctx.card(g.code).statics:
                if s.kind == "equip" and s.stat == name:
                    value += s.amount
    return max(0, value)


def equipment_on(ctx: Ctx, ref: str) -> list[Card]:
    """The Equipment attached to a unit (swtcg.base.equip)."""
    cards = ctx.state.cards
    c = cards.get(ref)
    if c is None or not c.gear:
        return []
    return [cards[g] for g in c.gear if g in cards]


def set_gear(st: GameState, unit: str | None, equipment: str, on: bool) -> None:
    """Note on ``unit`` that ``equipment`` is (``on``) or is no longer on it."""
    u = st.cards.get(unit) if unit else None
    if u is not None:
        u.gear = tuple(sorted({*u.gear, equipment} if on else set(u.gear) - {equipment}))


def location_cost_change(ctx: Ctx, pid: str, scope: str) -> bool:
    """Whether a Location in play changes the Force cost of ``pid``'s ``scope`` (swtcg.base.location)."""
    codes = ctx.cards.with_static("cost")
    return any(c.zone == "location" and c.code in codes and any(
        s.kind == "cost" and s.scope == scope and (s.whose == "all" or (s.whose == "you") == (c.controller == pid))
        for s in ctx.card(c.code).statics) for c in ctx.state.index().zone("location"))


def location_in(st: GameState, arena: str) -> Card | None:
    """The Location in an arena (at most one: swtcg.project.location-per-arena)."""
    return next((c for c in st.index().zone("location") if c.at == arena), None)


def facts_of(ctx: Ctx) -> Facts:
    """What the engine keeps while the cards stay where they are (``CardIndex.facts``), less what the
    cards moved since it last looked may have changed (``_settle``)."""
    st = ctx.state
    index = st._index  # (GameState.facts, written out here: the engine asks a dozen times a step)
    found = index._facts if index is not None else None
    if found is None or found is not ctx._facts or st.phase is not ctx._facts_phase:
        found = _sound_facts(ctx, found)
    if found.moves:
        _settle(ctx, found)
    return found


def _sound_facts(ctx: Ctx, found: Facts | None) -> Facts:
    """The index's facts ``found`` if they were found for this pool, as it is, and this phase (in setup
    or not), else new ones (``GameState.facts``); noted in ``ctx`` as sound while the step goes on and
    the phase stays (the same string: a phase written again is asked again), as ``facts_of`` asks.
    tests/judge/swtcg/test_fast_paths.py compares the facts so found with ``GameState.facts``."""
    st = ctx.state
    pool = ctx.cards
    phase = st.phase
    if found is None or found.pool is not pool or found.edits != pool.edits or found.setup != (phase == "setup"):
        found = st.facts(pool)
    ctx._facts = found
    ctx._facts_phase = phase
    return found


def _settle(ctx: Ctx, facts: Facts) -> None:
    """Drop what the cards moved (``Facts.moves``) may have changed: with a card granting keywords in
    play, or one moving, everything; the cards boosting stats, or the cost changes, when such a card
    moves; the names of its controllers' units (``same_name``); its keyword instances; with
    Equipment moving, or a unit moving with Equipment, every card's keyword instances and chance
    cards (``legal._chance_base``: from the Equipment's text); with a pilot moving, or a unit
    getting, losing or moving with a pilot, those of the card and of its pilot or unit; its
    controllers' chance cards when its own text has something for a chance (or a code the pool does
    not know). tests/judge/swtcg/test_fast_paths.py compares what is kept with what a state
    without it finds, after every step of self-play games."""
    moves = facts.moves
    facts.moves = []
    pool = ctx.cards
    grant = pool.with_static("grant")
    if facts.grants:
        _drop_all(facts)
        return
    boost, cost = pool.with_static("boost"), pool.with_static("cost")
    chance = pool.derived("chance-relevant", _chance_relevant)
    cards = ctx.state.cards
    for ref, old_code, old_pid, old_zone, old_piloted, code, pid, zone, piloted in moves:
        if old_code in grant or code in grant:
            _drop_all(facts)
            return
        if old_code in boost or code in boost:
            facts.boost = None
        if old_code in cost or code in cost:
            facts.cost = {}
            facts.no_cost = None
        names, by_pid, kinds = facts.names, facts.chance_base, facts.chance_cards
        # (each entry dropped by ``in`` and ``del``: compiled, ``dict.pop`` with a default is a generic method call)
        if old_pid is not None and old_pid in names:
            del names[old_pid]
        if pid is not None and pid in names:
            del names[pid]
        c = cards.get(ref)
        if old_zone == "equipped" or zone == "equipped" or (c is not None and c.gear):
            facts.keywords, facts.kw_values, facts.chance_base, facts.chance_cards = {}, {}, {}, {}
            facts.chance_moved = {}
            continue
        if old_piloted or piloted or old_zone == "pilot" or zone == "pilot":
            # a pilot's move, or a unit's getting, losing or moving with its pilot: what each has comes
            # from both (keyword instances, chance cards), so its own facts go and those of the unit it
            # pilots or the pilot on it (each of those that changed is noted too: it was filed again)
            _forget(facts, ref, old_pid, pid)
            if c is not None:
                other = cards.get(c.pilot) if c.pilot else cards.get(c.on) if c.zone == "pilot" and c.on else None
                if other is not None:
                    _forget(facts, other.ref, other.controller, None)
            continue
        keywords, kw_values = facts.keywords, facts.kw_values
        if ref in keywords:
            del keywords[ref]
        if ref in kw_values:
            del kw_values[ref]
        if (old_code is not None and chance.get(old_code, _ANY)) or (code is not None and chance.get(code, _ANY)):
            # its own entry in its controllers' chance cards is found again (legal._chance_base)
            for who in (old_pid, pid):
                if who is not None and who in by_pid:
                    if who in kinds:
                        del kinds[who]
                    moved = facts.chance_moved.get(who)
                    if moved is None:
                        facts.chance_moved[who] = {ref}
                    else:
                        moved.add(ref)


def _forget(facts: Facts, ref: str, pid: str | None, other_pid: str | None) -> None:
    """Drop the card ``ref``'s keyword instances and values, and its entry in the chance cards of
    ``pid`` and ``other_pid`` (its controllers before and after a move): found again, the others kept
    (legal._chance_base_moved)."""
    keywords, kw_values, kinds = facts.keywords, facts.kw_values, facts.chance_cards
    if ref in keywords:  # (``in`` and ``del``, as in _settle)
        del keywords[ref]
    if ref in kw_values:
        del kw_values[ref]
    for who in (pid, other_pid):
        if who is not None and who in facts.chance_base:
            if who in kinds:
                del kinds[who]
            moved = facts.chance_moved.get(who)
            if moved is None:
                facts.chance_moved[who] = {ref}
            else:
                moved.add(ref)


_ANY: Final = frozenset(("any",))


def _chance_relevant(d: CardDef) -> frozenset[str]:
    """{"any"} for a card whose own text may have something for a chance to play: plays or an activated
    keyword (legal._chances, whatever the kind)."""
    return _ANY if d.plays or any(k.name in ACTIVATED for k in d.keywords) else frozenset()


def _drop_all(facts: Facts) -> None:
    facts.boost, facts.grants, facts.keywords, facts.kw_values, facts.cost = None, None, {}, {}, {}
    facts.no_cost = None
    facts.names, facts.chance_base, facts.chance_cards, facts.chance_moved = {}, {}, {}, {}


def boost_sources(ctx: Ctx) -> list[Card]:
    """The cards in the arenas whose static abilities boost other units' stats (found once while the
    cards stay where they are: GameState.index)."""
    st = ctx.state
    codes = ctx.cards.with_static("boost")
    if not codes:
        return []
    facts = facts_of(ctx)
    found = facts.boost
    if found is None:
        found = facts.boost = [g for g in st.index().of_codes(codes) if g.zone in ARENAS and active(st, g)]
    return found


def static_cards(ctx: Ctx) -> Iterable[Card]:
    """The cards in play ``grant_sources`` and ``cost_delta`` look at: those whose code has a cost or
    grant ability (what both skip for the others), in ``state.cards``' order (``GameState.index``)."""
    return ctx.state.index().of_codes(ctx.cards.with_statics(("cost", "grant")))


def grant_sources(ctx: Ctx) -> list[tuple[Card, Any]]:
    """The cards in the arenas whose static abilities grant keywords, with those abilities (found once
    while the cards stay where they are: GameState.index)."""
    st = ctx.state
    facts = facts_of(ctx)
    out = facts.grants
    if out is not None:
        return out
    out = facts.grants = []
    codes = ctx.cards.with_static("grant")
    for g in static_cards(ctx):
        if g.code in codes and g.zone in ARENAS and active(st, g):
            for s in ctx.card(g.code).statics:
                if s.kind == "grant" and s.keyword is not None:
                    out.append((g, s))
    return out


def keyword_instances(ctx: Ctx, ref: str, grants: list[tuple[Card, Any]] | None = None) -> list[tuple[str, Keyword]]:
    """Every keyword instance a card has now, with its ID: printed (``<ref>:<name>``, ``.2`` for a
    second), from its pilot (``@<pilot>``), granted by another card (``@<granter>``: one instance per
    granting card, swtcg.abilities.grant-per-source). In the build zone only Upkeep, prevention and
    Reserves abilities work (base.zones, swtcg.damage.prevent-from-build-zone); a Reserves ability
    works only there (swtcg.base.reserves). ``grants``: ``grant_sources(ctx)``, when the caller found
    them already. Found once while the cards stay where they are (GameState.index: what they depend on,
    zones, pilots, Equipment, built or not, is all there); the list is kept as it is."""
    if grants is not None and grants is not grant_sources(ctx):
        return _keyword_instances(ctx, ref, grants)
    keywords = facts_of(ctx).keywords
    found: list[tuple[str, Keyword]] | None = keywords.get(ref)
    if found is None:
        found = keywords[ref] = _keyword_instances(ctx, ref, None)
    return found


def _keyword_instances(ctx: Ctx, ref: str, grants: list[tuple[Card, Any]] | None) -> list[tuple[str, Keyword]]:
    st = ctx.state
    c = st.cards.get(ref)
    if c is None or st.phase == "setup":
        return []
    d = ctx.cards.cards.get(c.code) or ctx.card(c.code)
    if not c.built:  # a partially built card: only Hidden Cost works (swtcg.abilities.partially-built-inactive)
        return [(f"{ref}:{k.name}", k) for k in d.keywords if k.name == "hidden-cost"][:1]
    out: list[tuple[str, Keyword]] = []
    seen: dict[str, int] = {}
    for k in d.keywords:
        seen[k.name] = seen.get(k.name, 0) + 1
        out.append((f"{ref}:{k.name}" + (f".{seen[k.name]}" if seen[k.name] > 1 else ""), k))
    if c.zone != "pilot":
        if c.pilot and c.pilot in st.cards:
            pdef = ctx.cdef(c.pilot).pilot
            for k in pdef.keywords if pdef else ():
                out.append((f"{ref}:{k.name}@{c.pilot}", k))
        for g, s in grant_sources(ctx) if grants is None else grants:
            if g.ref != ref and g.controller == c.controller and (not s.scope or d.type == s.scope):
                out.append((f"{ref}:{s.keyword.name}@{g.ref}", s.keyword))
        if c.gear:
            for g in equipment_on(ctx, ref):  # what Equipment gives, while attached (swtcg.base.equip)
                for s in ctx.card(g.code).statics:
                    if s.kind == "equip" and s.keyword is not None:
                        out.append((f"{ref}:{s.keyword.name}@{g.ref}", s.keyword))
    if c.zone == "build":
        out = [(i, k) for i, k in out if k.reserves or k.name == "upkeep" or ACTIVATED.get(k.name) == "prevent"]
    elif any(k.reserves for _, k in out):
        out = [(i, k) for i, k in out if not k.reserves]  # swtcg.base.reserves: only in the build zone
    return out


def kw_value(ctx: Ctx, ref: str, name: str) -> int:
    """A keyword's value on a unit: the sum of its instances for a cumulative keyword
    (swtcg.abilities.cumulative-modifiers, swtcg.keywords.lucky-sum), 1 when it has Armor or Overkill
    however many times (swtcg.keywords.armor-no-stack)."""
    values = facts_of(ctx).kw_values.get(ref)
    if values is None:
        values = _kw_values(ctx, ref)
    value = values.get(name)
    extra = 0
    mods = ctx.state.mods
    if mods:
        stat_name: str | None = None  # ("kw:" + name, made when a lasting effect is on ref)
        for m in mods:
            on: str = m["target"]  # (typed: compared as strings, compiled)
            if on == ref:
                if stat_name is None:
                    stat_name = "kw:" + name
                if m["stat"] == stat_name:
                    extra += int(m["amount"])
    if value is None and not extra:
        return 0
    if name in _CUMULATIVE:
        return (value or 0) + extra
    return 1


_CUMULATIVE: Final = frozenset(CUMULATIVE)


def _kw_values(ctx: Ctx, ref: str) -> dict[str, int]:
    """For each keyword a card has now (``keyword_instances``), the sum of its instances' values (kept
    with them, in the facts)."""
    values: dict[str, int] = {}
    for _, k in keyword_instances(ctx, ref):
        values[k.name] = values.get(k.name, 0) + k.value
    facts_of(ctx).kw_values[ref] = values
    return values


def keyword_due(ctx: Ctx, pid: str, k: Keyword, ref: str | None, base: int) -> int:
    """The Force ``pid`` pays to use keyword ``k`` of the card ``ref`` whose cost reads ``base`` (X:
    the amount asked for): plus the cost changes to activated abilities (``cost_delta``), none for a
    static keyword a step uses (Lucky: no arrow, swtcg.abilities.activated-definition); at least 0."""
    if k.name in STATIC_USED:
        return max(0, base)
    return max(0, base + cost_delta(ctx, pid, "ability", ref))


def cost_delta(ctx: Ctx, pid: str, scope: str, source: str | None = None) -> int:
    """How much the Force cost of ``pid``'s battle cards (``battle``) or activated abilities
    (``ability``, of the card ``source``: a change may reach only some cards' abilities, Static.of)
    changes, from static abilities in play (found once while the cards stay where they are:
    GameState.index)."""
    st = ctx.state
    facts = facts_of(ctx)
    none = facts.no_cost
    if none is None:
        by_code = st.index().by_code
        none = facts.no_cost = not any(code in by_code for code in ctx.cards.with_static("cost"))
    if none:
        return 0  # (no card with a cost change in play: the loop below would find none)
    by_pid = facts.cost
    by_scope = by_pid.get(pid)
    if by_scope is None:
        by_scope = by_pid[pid] = {}
    memo = by_scope.get(scope)
    if memo is None:
        memo = by_scope[scope] = {}
    src = st.cards.get(source) if source is not None else None
    of = src.code if src is not None else None
    found: int | None = memo.get(of)
    if found is not None:
        return found
    delta = 0
    codes = ctx.cards.with_static("cost")
    for c in static_cards(ctx):
        if c.code not in codes or (c.zone not in ARENAS and c.zone != "location") or not active(st, c):
            continue  # a unit in an arena, or a Location in play (swtcg.base.location)
        for s in ctx.card(c.code).statics:
            mine = c.controller == pid
            if s.kind == "cost" and s.scope == scope and (s.whose == "all" or (s.whose == "you" and mine)
                                                          or (s.whose == "opponent" and not mine)) \
                    and (not s.of or s.covers(ctx.cards.get(of) if of is not None else None)):
                delta += s.amount
    memo[of] = delta
    return delta


def units(st: GameState) -> Iterator[Card]:
    """Units in the arenas (pilots on units are no units: swtcg.pilots.not-a-unit)."""
    return (c for c in st.cards.values() if c.zone in ARENAS)


def remaining_health(ctx: Ctx, ref: str) -> int:
    c = ctx.state.cards[ref]
    health = ctx.cdef(ref).health if c.zone == "pilot" else stat(ctx, ref, "health")
    return max(0, health - c.damage)


def arena_of(ctx: Ctx, ref: str) -> str | None:
    c = ctx.state.cards.get(ref)
    if c is None:
        return None
    if c.zone == "pilot" and c.on:
        return arena_of(ctx, c.on)
    return c.zone if c.zone in ARENAS else None


def can_attack(ctx: Ctx, attacker: str, target: str) -> str | None:
    """Why ``attacker`` cannot attack ``target`` (a rule ID), or None."""
    st = ctx.state
    a, t = st.cards.get(attacker), st.cards.get(target)
    if a is None or t is None:
        return "swtcg.base.attack"
    if t.zone == "pilot":
        return "swtcg.pilots.not-attackable"
    bombard = a.zone == "space" and t.zone == "ground" and kw_value(ctx, attacker, "bombard") > 0
    if (t.zone != a.zone or t.zone not in ARENAS) and not bombard:  # swtcg.base.bombard: Space into Ground
        return "swtcg.project.attack-same-arena"
    for s in (ctx.cards.cards.get(a.code) or ctx.card(a.code)).statics:
        if s.kind == "attack-only" and not ctx.cdef(target).has_subtype(s.scope):
            return "swtcg.project.attack-only"
    if any(m["stat"] == "no-combat" and m["target"] in (attacker, target) for m in st.mods):
        return "swtcg.base.golden"  # "can't attack or be attacked" beats "can" (Han Enchained)
    if not t.tapped and not t.damage and _may_have_stealth(ctx, t) and kw_value(ctx, target, "stealth"):
        return "swtcg.project.stealth"  # "can't be attacked unless tapped or damaged"
    return None


def _stealthy(d: CardDef) -> frozenset[str]:
    """{"stealth"} when a card has Stealth, gives it as a pilot or grants it to other units."""
    found = (*d.keywords, *(d.pilot.keywords if d.pilot else ()),
             *(s.keyword for s in d.statics if s.keyword is not None))
    return frozenset(("stealth",)) if any(k.name == "stealth" for k in found) else frozenset()


def _may_have_stealth(ctx: Ctx, t: Card) -> bool:
    """Whether a unit could have Stealth now (its card, its pilot's or a granting card's text), found
    without reading its keyword instances (can_attack is asked for every attack a player could make)."""
    marks = ctx.cards.derived("stealth", _stealthy)
    pilot = ctx.state.cards.get(t.pilot) if t.pilot else None
    return bool(marks.get(t.code) or (pilot is not None and marks.get(pilot.code))
                or any(marks.get(code) for code in ctx.cards.with_static("grant")))


# ====================================================================== force, drawing, moving cards
def gain_force(ctx: Ctx, pid: str, amount: int, rules: tuple[str, ...]) -> None:
    p = ctx.state.players[pid]
    p.force = max(0, p.force + amount)  # swtcg.effects.force-floor-zero
    ctx.records.append(rc.ForceRecord(rules, player=pid, change=amount, force=p.force))


def draw(ctx: Ctx, pid: str, n: int, rules: tuple[str, ...]) -> None:
    p = ctx.state.players[pid]
    got = min(n, len(p.deck))  # swtcg.build.empty-deck: nothing else happens
    p.hand.extend(p.deck[:got])
    del p.deck[:got]
    if ctx.recording:
        ctx.records.append(rc.DrawRecord(rules, player=pid, count=got, asked=n))


def discard_from_hand(ctx: Ctx, pid: str, n: int, source: str) -> None:
    """``pid`` discards ``n`` cards: a discard that names no zone comes from the hand
    (swtcg.zones.discard-default-hand), each card chosen by the player discarding it, to its owner's
    discard pile (swtcg.zones.owner-global-rule); with fewer cards in hand, all of them."""
    p = ctx.state.players[pid]
    for _ in range(min(n, len(p.hand))):
        options = tuple(sorted(set(p.hand)))
        code = options[0] if len(options) == 1 else ctx.decide(Decision(
            by=pid, kind="discard", options=options, rules=("swtcg.zones.discard-default-hand",),
            prompt=Msg(N_("the card {player} discards from their hand"), player=pid)))
        p.hand.remove(code)
        p.discard.append(code)
        if ctx.recording:
            ctx.records.append(rc.DiscardRecord(("swtcg.zones.discard-default-hand", "swtcg.zones.owner-global-rule"),
                                                card=code, owner=pid, why="hand", player=pid, source=source))


def new_ref(st: GameState, pid: str, code: str) -> str:
    ref = f"{pid}.{code}"
    n = 1
    while ref in st.cards:
        n += 1
        ref = f"{pid}.{code}.{n}"
    return ref


def remove_from_play(ctx: Ctx, ref: str, why: str) -> bool:
    """A card leaves play for its owner's discard pile (swtcg.zones.owner-global-rule), with its pilot
    (swtcg.pilots.moving-unit) and the cards stacked under it; a pilot leaving leaves its unit where
    it is (swtcg.pilots.moving-pilot). Its "when discarded" abilities trigger (held). A unit that
    retreats instead (swtcg.project.retreat-instead) stays in play: False."""
    st = ctx.state
    c = st.cards.get(ref)
    if c is None:
        return False
    if c.code in ctx.cards.with_static("retreat-instead") and retreats_instead(ctx, c):
        retreat(ctx, ref, tap=False, rules=("swtcg.project.retreat-instead", "swtcg.retreat.by-effect"))
        return False
    del st.cards[ref]
    st.moved(ref)
    if st.last_hits:
        st.last_hits.pop(ref, None)  # a card back in play later is another unit (swtcg.project.last-attack)
    pilot = st.cards.get(c.pilot) if c.pilot else None
    if pilot is not None:
        remove_from_play(ctx, pilot.ref, "pilot")
    if c.on and c.on in st.cards and c.zone == "pilot":
        st.cards[c.on].pilot = None
        st.moved(c.on)
    if c.zone == "equipped":
        set_gear(st, c.on, ref, False)
    for g in c.gear:  # its Equipment goes too (swtcg.project.equipment)
        remove_from_play(ctx, g, "equipment")
    owner = st.players[c.owner]
    owner.discard.extend([*c.under, c.code])
    st.mods = [m for m in st.mods if m["target"] != ref]
    also = {"pilot": ("swtcg.pilots.moving-unit",), "equipment": ("swtcg.project.equipment",),
            "location": ("swtcg.project.location-per-arena",)}.get(why, ())
    if ctx.recording:
        ctx.records.append(rc.DiscardRecord(("swtcg.zones.owner-global-rule", *also), card=ref, owner=c.owner, why=why))
    if active(st, c):
        for i, trig in enumerate(ctx.card(c.code).triggers):
            if trig.on == "discarded":
                # what left play with it, as "<owner>.<code>": the card, its stack, its pilot
                left = None
                if any(e.kind == "return-with-stack" for e in trig.effects):
                    left = [f"{c.owner}.{c.code}", *(f"{c.owner}.{u}" for u in c.under),
                            *((f"{pilot.owner}.{pilot.code}",) if pilot is not None else ())]
                # "you" is the controller when it left play (swtcg.zones.leave-play-you); "from the
                # Space arena": the zone it left (swtcg.triggers.conditions)
                hold(ctx, ref, c.code, c.controller, i, trig, where=c.zone, left=left)
    return True


def retreats_instead(ctx: Ctx, c: Card) -> bool:
    """Whether a unit about to be discarded retreats instead: it is in an arena (a unit in the build
    zone has nowhere to retreat to) and a card of the name its text says is in its controller's
    Character arena (swtcg.project.retreat-instead)."""
    st = ctx.state
    if c.zone not in ARENAS or not active(st, c):
        return False
    for s in ctx.card(c.code).statics:
        if s.kind == "retreat-instead" and any(u.ref != c.ref and ctx.card(u.code).name == s.scope and active(st, u)
                                               for u in st.units_in("character", c.controller)):
            return True
    return False


# ====================================================================== held triggered abilities
def trigger_window(trig: Trigger) -> str:
    kinds = {e.kind for e in trig.effects}
    if "reroll" in kinds:
        return "reroll"
    if "prevent" in kinds:
        return "prevent"
    return "chance"


def hold(ctx: Ctx, ref: str, code: str, controller: str, index: int, trig: Trigger, where: str | None = None,
         left: list[str] | None = None) -> None:
    """A triggered ability triggers: its conditions are read now (swtcg.triggers.conditions) and it
    joins the waiting ones; once there it resolves even if they stop being true
    (swtcg.triggers.pending-commit). ``left``: the cards that left play with a discarded card, for
    an ability that returns them (kept in the entry only then)."""
    if trig.where and (where or arena_of(ctx, ref)) != trig.where:
        return
    window = trigger_window(trig)
    entry = {"id": f"{ref}:trigger" + (f".{index + 1}" if index else ""), "source": ref, "code": code,
             "player": controller, "index": index, "window": window}
    if left is not None:
        entry["left"] = list(left)
    ctx.state.held.append(entry)
    ctx.records.append(rc.HeldRecord(("swtcg.triggers.pending-commit", "swtcg.triggers.held-during-effect"),
                                     ability=entry["id"], player=controller, window=window))


def trigger_all(ctx: Ctx, on: str, only: str | None = None) -> None:
    """Trigger the ``on`` abilities of every card in play (``only``: of that card)."""
    st = ctx.state
    # ``only``: that card alone (when in play), not every card sorted to skip all but one; else the
    # cards of a code with such an ability (GameState.index), and of a code the pool does not know
    # (ctx.card says so)
    if only is not None:
        refs = [only] if only in st.cards else []
    else:
        ons = ctx.cards.derived("triggers-on", _triggers_on)
        codes = ctx.cards.derived_codes("triggers-on", _triggers_on).get(on)
        index = st.index()
        unknown = index.outside(ons)
        refs = sorted([c.ref for c in index.of_codes(codes)] + [c.ref for c in unknown] if codes is not None
                      else [c.ref for c in unknown])
    for ref in refs:
        c = st.cards[ref]
        if (only is not None and ref != only) or not active(st, c) or c.zone not in IN_PLAY:
            continue
        for i, trig in enumerate((ctx.cards.cards.get(c.code) or ctx.card(c.code)).triggers):
            if trig.on == on:
                hold(ctx, ref, c.code, c.controller, i, trig)


def _triggers_on(d: CardDef) -> frozenset[str]:
    """The events a card's triggered abilities trigger on (``trigger_all``)."""
    return frozenset(t.on for t in d.triggers)


def release(ctx: Ctx, window: str) -> bool:
    """Resolve the held abilities whose moment has come (swtcg.triggers.release,
    swtcg.pop.triggers-first): the Dark Side's first, each player's in the order they choose
    (swtcg.project.trigger-order). Those that trigger meanwhile join in and resolve too.

    One whose effect leaves frames to run (damage to deal, with its chance to prevent it) stops the
    release there: its effect is not finished, and every other waiting ability is held until it is
    (swtcg.triggers.held-during-effect, "even another triggered ability's"). Then it returns True:
    the caller runs those frames first and releases the rest after them (``release_then``); the
    rest of the player's order is kept (``ordered``), not asked again."""
    st = ctx.state
    depth = len(st.frames)
    for _ in range(100):
        due = [h for h in st.held if h["window"] == window]
        if not due:
            return False
        for pid in st.side_order():
            mine = [h for h in due if h["player"] == pid]
            if len(mine) > 1 and not all(h.get("ordered") for h in mine):
                order = ctx.decide(Decision(by=pid, kind="order", options=tuple(h["id"] for h in mine),
                                            rules=("swtcg.project.trigger-order",), multiple=True,
                                            prompt=Msg(N_("order of your waiting triggered abilities"))))
                mine = [next(h for h in mine if h["id"] == a) for a in order]
            for k in range(len(mine)):
                h = mine[k]
                if h in st.held:
                    st.held.remove(h)
                    resolve_held(ctx, h)
                    if len(st.frames) > depth:
                        rest = [r for r in mine[k + 1:] if r in st.held]
                        if len(rest) > 1:  # (new entries, never the old states' dictionaries changed)
                            st.held = [r for r in st.held if r not in rest] + [{**r, "ordered": True} for r in rest]
                        return True
    raise KernelLoop(100)


def release_then(ctx: Ctx, window: str, then: dict[str, Any] | None = None) -> bool:
    """``release``; when an ability's effect left frames to run, ``then`` goes under those frames, to
    run after them: by default a ``release`` frame, which releases the rest. True when it did."""
    st = ctx.state
    depth = len(st.frames)
    if not release(ctx, window):
        return False
    st.frames.insert(depth, then if then is not None else {"f": "release", "w": window})
    return True


def resolve_held(ctx: Ctx, h: dict[str, Any]) -> None:
    ctx.records.append(rc.ResolveRecord(("swtcg.triggers.release",), ability=h["id"], player=h["player"]))
    st = ctx.state
    if "boost" in h:  # Power Boost X/Y: "you may give it +X power for that attack" (swtcg.keywords.power-boost-*)
        if st.attack is None or st.attack.attacker != h["source"] or h["source"] not in st.cards:
            return
        yes = ctx.decide(Decision(by=h["player"], kind="may", options=(True, False),
                                  rules=("swtcg.keywords.power-boost-self-damage",),
                                  prompt=Msg(
                                      N_("+{power} power for this attack, {damage} damage to it after"),
                                      power=h['boost'][0], damage=h['boost'][1],
                                  ),
                                  source=h["id"]))
        if yes:
            add_mod(ctx, h["source"], "power", h["boost"][0], "attack", h["id"])
            st.attack.boosts.append(h["boost"][1])
            ctx.records.append(rc.EffectRecord(("swtcg.keywords.power-boost-duration",), source=h["id"], effect="power",
                                               amount=h["boost"][0], target=h["source"]))
        return
    trig = ctx.card(h["code"]).triggers[h["index"]]
    if trig.optional and trig.cost:  # "you may pay N Force; if you do": not without the Force
        if st.players[h["player"]].force < trig.cost:
            return
        yes = ctx.decide(Decision(by=h["player"], kind="may", options=(True, False),
                                  rules=("swtcg.triggers.release", "swtcg.costs.must-pay"),
                                  prompt=Msg(N_("pay {cost} Force for this triggered ability?"), cost=trig.cost),
                                  source=h["id"]))
        if not yes:
            return
        gain_force(ctx, h["player"], -trig.cost, ("swtcg.costs.must-pay",))
    elif trig.optional:
        yes = ctx.decide(Decision(by=h["player"], kind="may", options=(True, False), rules=("swtcg.triggers.release",),
                                  prompt=Msg(N_("use this triggered ability?")), source=h["id"]))
        if not yes:
            return
    run_effects(ctx, h["id"], h["source"], h["player"], trig.effects, None, 0, left=tuple(h.get("left", ())))


# ====================================================================== effects
def run_effects(ctx: Ctx, source_id: str, source: str | None, pid: str, effects: tuple[Effect, ...],
                target: str | None, x: int, dice: tuple[int, ...] | None = None, to: str | None = None,
                start: int = 0, left: tuple[str, ...] = ()) -> None:
    """Carry out instructions in the order written (swtcg.abilities.multi-part-order). One that deals
    damage stops here: the chance to prevent it comes in the middle, and the rest follows after
    (swtcg.abilities.multi-part-interrupts). ``left``: what left play with a discarded card (its
    held entry's), for ``return-with-stack``."""
    st = ctx.state
    for i in range(start, len(effects)):
        e = effects[i]
        amount = x if e.amount == X else e.amount
        who = resolve_target(ctx, e.target, source, pid, target)
        if e.kind == "damage-each":
            hit = each_of(ctx, e.target, pid)
            if not hit:
                continue
            if i + 1 < len(effects):
                st.frames.append({"f": "effects", "source_id": source_id, "source": source, "player": pid,
                                  "effects": [effect_json(f) for f in effects], "target": target, "x": x,
                                  "start": i + 1})
            # the card does it, in play or not (a discarded unit's last words, like Retaliate's)
            st.frames.append({"f": "damage-each", "source": source, "targets": hit, "amount": amount})
            return
        if e.kind in ("damage", "dice", "unevadable-damage"):
            if who is None or who not in st.cards:
                continue
            if i + 1 < len(effects):
                st.frames.append({"f": "effects", "source_id": source_id, "source": source, "player": pid,
                                  "effects": [effect_json(f) for f in effects], "target": target, "x": x,
                                  "start": i + 1})
            src = source if source and e.target != "self" and source in st.cards and ctx.state.cards[source].zone in \
                ARENAS_OR_BUILD and st.cards[source].zone != "build" else None
            if e.kind == "dice":
                # dice of damage are no attack (swtcg.battle.dice-of-damage-not-attack)
                st.frames.append({"f": "dice-damage", "source": src, "target": who, "n": amount, "player": pid})
            elif e.kind == "unevadable-damage":  # the unit does it (swtcg.project.unevadable-damage)
                st.frames.append({"f": "effect-damage", "source": src, "target": who, "amount": amount,
                                  "unevadable": True})
            else:
                st.frames.append({"f": "effect-damage", "source": None, "target": who, "amount": amount})
            return
        if e.kind == "return-with-stack":
            return_with_stack(ctx, source_id, pid, left)
            continue
        apply_effect(ctx, source_id, source, pid, e, amount, who, dice, to)


def return_with_stack(ctx: Ctx, source_id: str, pid: str, left: tuple[str, ...]) -> None:
    """"Return it, its stack and its pilot from your discard pile to your hand": "your" is the
    controller when it left play; a card another player owns went to that player's discard pile
    (swtcg.zones.owner-global-rule), not "your" one, so it stays there (swtcg.zones.leave-play-you)."""
    p = ctx.state.players[pid]
    back: list[str] = []
    for card in left:
        owner, code = card.split(".")[0], card.split(".")[1]
        if owner == pid and code in p.discard:
            p.discard.remove(code)
            p.hand.append(code)
            back.append(code)
    ctx.records.append(rc.EffectRecord(("swtcg.zones.leave-play-you", "swtcg.zones.owner-global-rule"),
                                       source=source_id, effect="return-with-stack", amount=len(back), target=pid))


def effect_json(e: Effect) -> list[Any]:
    return [e.kind, e.amount, e.target]


EffectTable = dict[tuple[tuple[Any, ...], ...], tuple[Effect, ...]]
MAX_EFFECTS: Final = 1024


def effects_from(ctx: Ctx, raw: list[list[Any]]) -> tuple[Effect, ...]:
    """The effects ``effect_json`` wrote, each tuple made once per pool and shared (a replay resolves
    the same few plays over and over, and an Effect, a frozen dataclass, is made by an interpreted
    __init__): kept by the effects' JSON (as a tuple of tuples) in ``Interned.effects``, emptied when
    it holds MAX_EFFECTS."""
    key = tuple([tuple(e) for e in raw])
    if not all(type(v) in (str, int) for e in key for v in e):  # (only as effect_json writes them)
        return tuple([Effect(kind=k, amount=a, target=t) for k, a, t in raw])
    table: EffectTable = ctx.cards.interned.effects
    found = table.get(key)
    if found is None:
        found = tuple([Effect(kind=k, amount=a, target=t) for k, a, t in raw])
        if len(table) >= MAX_EFFECTS:
            table.clear()
        table[key] = found
    return found


def reads_last_attack(cards: CardPool, codes: Iterable[str]) -> bool:
    """Whether any of ``codes`` is a card that reads a unit's last attack (Rebel Surrender): a game
    with one remembers each unit's (``GameState.last_hits``, swtcg.project.last-attack)."""
    readers = cards.derived_codes("last-attack", _reads_last_attack).get("yes")
    if not readers:
        return False  # (no card of the pool does)
    return not readers.isdisjoint(codes)  # (the codes read in one C loop, the first reader stops it)


def _reads_last_attack(d: CardDef) -> frozenset[str]:
    """{"yes"} for a card that reads a unit's last attack (``reads_last_attack``)."""
    return frozenset(("yes",) if any(e.kind == "discard-if-missed" for p in d.plays for o in p.options for e in o)
                     else ())


def each_of(ctx: Ctx, kind: str, pid: str) -> list[str]:
    """The cards an effect on "each of your <subtype>" reaches: ``pid``'s cards of that subtype in the
    arenas, and pilots of it on units ("Droids", no "unit": swtcg.pilots.unit-effects-exclude); not
    the build zone (swtcg.project.each-of-your). By the type line only (swtcg.cards.subtype-reference)."""
    word = {"your-droids": "Droid"}.get(kind)
    if word is None:
        return []
    return sorted(c.ref for c in ctx.state.index().zones(IN_PLAY)
                  if c.controller == pid and ctx.card(c.code).has_subtype(word))


def resolve_target(ctx: Ctx, kind: str, source: str | None, pid: str, given: str | None) -> str | None:
    st = ctx.state
    if kind == "self":
        return source
    if kind == "attacker":
        return st.attack.attacker if st.attack is not None else None
    if kind == "defender":
        return st.attack.defender if st.attack is not None else None
    if kind in ("your-unit", "enemy-unit", "any-unit", "character", "character-unit", "enemy-character-unit",
                "enemy-ground-or-character-unit", "dark-character-unit"):
        return given
    return None


def target_problem(ctx: Ctx, kind: str, pid: str, target: str | None, source: str | None) -> str | None:
    """Why ``target`` cannot be an effect's target of ``kind`` (rule ID and message), or None."""
    st = ctx.state
    if kind in ("", "self", "attacker", "defender"):
        if kind in ("attacker", "defender") and st.attack is None:
            return "swtcg.timing.for-this-attack"
        return None
    if target is None or target not in st.cards:
        return "swtcg.project.target"
    c = st.cards[target]
    if kind == "character":  # "a Character" can be a pilot (swtcg.pilots.unit-effects-exclude)
        return None if ctx.cdef(target).type == "character" and c.zone in IN_PLAY else \
            "swtcg.cards.type-reference"
    if c.zone not in ARENAS:  # "a unit" never is a pilot (swtcg.pilots.unit-effects-exclude)
        return "swtcg.pilots.unit-effects-exclude" if c.zone == "pilot" else "swtcg.project.target"
    if kind in ("character-unit", "enemy-character-unit", "dark-character-unit") and c.zone != "character":
        return "swtcg.cards.type-reference"
    if kind == "dark-character-unit" and (ctx.cdef(target).side != "dark" or c.controller == pid):
        return "swtcg.project.gain-control"  # a Dark Side Character another player controls
    if kind == "your-unit" and c.controller != pid:
        return "swtcg.control.you-your"
    if kind == "enemy-ground-or-character-unit" and c.zone not in ("ground", "character"):
        return "swtcg.cards.type-reference"
    if kind in ("enemy-unit", "enemy-character-unit", "enemy-ground-or-character-unit") and c.controller == pid:
        return "swtcg.control.you-your"
    return None


def add_mod(ctx: Ctx, target: str, statname: str, amount: int, until: str, source: str) -> None:
    ctx.state.mods.append({"target": target, "stat": statname, "amount": amount, "until": until, "source": source})


def apply_effect(ctx: Ctx, source_id: str, source: str | None, pid: str, e: Effect, amount: int, who: str | None,
                 dice: tuple[int, ...] | None, to: str | None) -> None:
    st = ctx.state
    rules: tuple[str, ...] = ("swtcg.effects.one-shot-vs-lasting",)
    if e.kind == "gain-force":
        gain_force(ctx, pid, amount, rules)
    elif e.kind == "lose-force":
        gain_force(ctx, st.opponent(pid), -amount, ("swtcg.effects.force-floor-zero",))
    elif e.kind == "draw":
        draw(ctx, pid, amount, rules)
    elif e.kind in ("discard", "opponent-discards"):
        discard_from_hand(ctx, pid if e.kind == "discard" else st.opponent(pid), amount, source_id)
    elif e.kind == "return-self":
        # the card goes back to its owner's hand (swtcg.zones.owner-global-rule, swtcg.zones.leave-play-you)
        parts = source_id.split(":")[0].split(".")
        if len(parts) < 2 or parts[0] not in st.players:
            return
        code, owner = parts[1], st.players[parts[0]]
        if code in owner.discard:
            owner.discard.remove(code)
            owner.hand.append(code)
            ctx.records.append(rc.EffectRecord(("swtcg.zones.owner-global-rule", "swtcg.zones.leave-play-you"),
                                               source=source_id, effect="return-self", amount=1, target=owner.id))
    elif e.kind in KEYWORD_EFFECTS:
        if who is not None and who in st.cards and st.cards[who].zone in ARENAS:
            add_mod(ctx, who, f"kw:{e.kind}", amount, "attack" if st.attack is not None else "battle", source_id)
            ctx.records.append(rc.EffectRecord(rules, source=source_id, effect=e.kind, amount=amount, target=who))
    elif e.kind in ("power", "speed"):
        if who is None or who not in st.cards or st.cards[who].zone not in ARENAS:
            return  # a pilot is no unit: "this unit gets +2 power" does nothing (swtcg.pilots.normal-abilities)
        # "... for this attack" (the power and speed effects the cards have, on the attacker or defender, or
        # on "one of your units"): it lasts until the attack ends (swtcg.timing.for-this-attack)
        until = "attack" if st.attack is not None and (
            (who == st.attack.attacker or who == st.attack.defender) and e.target in ("attacker", "defender", "self")
            or e.target == "your-unit") else "battle"
        add_mod(ctx, who, e.kind, amount, until, source_id)
        ctx.records.append(rc.EffectRecord(rules, source=source_id, effect=e.kind, amount=amount, target=who))
    elif e.kind == "prevent":
        prevent(ctx, pid, source_id, who or source, amount, ("swtcg.damage.prevent-when",))
    elif e.kind == "reroll":
        reroll(ctx, pid, source_id, dice if dice is not None else (), amount)
    elif e.kind == "disrupt":
        for i in range(len(st.frames) - 1, -1, -1):  # the latest first
            f = st.frames[i]
            if f["f"] == "resolve-play" and not f.get("disrupted"):
                f["disrupted"] = source_id
                ctx.records.append(rc.DisruptedRecord(("swtcg.keywords.disrupt-targets",), ability=f["source_id"],
                                                      by=source_id))
                break
    elif e.kind == "discard-if-missed":
        if st.last_hits is None:
            parts = source_id.split(":")[0].split(".")
            code = parts[1] if len(parts) > 1 else parts[0]
            raise NotImplementedCard(code, ctx.card(code).display, "a unit's last attack: this game remembers no "
                                     "attacks (no card that reads them was known at its start)")
        if who is None or who not in st.cards:
            return
        missed = st.last_hits.get(who) == 0  # a unit that never attacked has no last attack
        ctx.records.append(rc.EffectRecord(("swtcg.project.last-attack",), source=source_id, effect="discard-if-missed",
                                           amount=int(missed), target=who))
        if missed:
            remove_from_play(ctx, who, "effect")
    elif e.kind == "retreat":
        if who is not None and who in st.cards:
            retreat(ctx, who, tap=False, rules=("swtcg.retreat.by-effect",))
    elif e.kind == "no-combat":  # "can't attack or be attacked this turn" (swtcg.timing.this-turn)
        if who is not None and who in st.cards and st.cards[who].zone in ARENAS:
            add_mod(ctx, who, "no-combat", 1, "turn", source_id)
            ctx.records.append(rc.EffectRecord(("swtcg.timing.this-turn", "swtcg.base.golden"), source=source_id,
                                               effect="no-combat", amount=0, target=who))
    elif e.kind == "gain-control":
        gain_control(ctx, source_id, pid, who, amount)
    elif e.kind == "untap":
        if who is not None and who in st.cards:
            st.cards[who].tapped = False
            ctx.records.append(rc.EffectRecord(("swtcg.battle.untap-attack-again",), source=source_id, effect="untap",
                                               amount=0, target=who))


def gain_control(ctx: Ctx, source_id: str, pid: str, who: str | None, x: int) -> None:
    """``pid`` gains control of a unit of build cost ``x`` or less (the printed cost: the X of the cost,
    swtcg.costs.x-uses-printed-cost) until the end of the Character battle step: it stays where it is,
    tapped or not, and its new controller controls every aspect of it (swtcg.control.controller), to
    attack with it too; then the player who had it gets it back (``end_control``;
    swtcg.project.gain-control). A unit no longer in an arena, or costing more, is not taken."""
    st = ctx.state
    if who is None or who not in st.cards:
        return
    c = st.cards[who]
    if c.zone not in ARENAS or c.controller == pid or ctx.card(c.code).cost > x:
        ctx.records.append(rc.EffectRecord(("swtcg.project.gain-control",), source=source_id, effect="gain-control",
                                           amount=0, target=who))
        return
    add_mod(ctx, who, f"control:{c.controller}", 0, "character-step", source_id)
    c.controller = pid
    st.moved(c.ref)
    ctx.records.append(rc.EffectRecord(
        ("swtcg.control.controller", "swtcg.costs.x-uses-printed-cost", "swtcg.project.gain-control"),
        source=source_id, effect="gain-control", amount=x, target=who))


def end_control(ctx: Ctx) -> None:
    """The Character battle step ended: control gained "until the end of the Character battle step"
    goes back to the player who had it, the latest change first (swtcg.project.gain-control)."""
    st = ctx.state
    ending = [m for m in st.mods if m["until"] == "character-step"]
    if not ending:
        return
    st.mods = [m for m in st.mods if m["until"] != "character-step"]
    for i in range(len(ending) - 1, -1, -1):  # (an index: mypyc cannot compile reversed() of this list)
        m = ending[i]
        c = st.cards.get(m["target"])
        back = m["stat"].partition(":")[2]
        if c is None or back not in st.players or c.controller == back:
            continue
        c.controller = back
        st.moved(c.ref)
        ctx.records.append(rc.EffectRecord(("swtcg.control.controller", "swtcg.project.gain-control"),
                                           source=m["source"], effect="control-ends", amount=0, target=c.ref))


def retreat(ctx: Ctx, ref: str, tap: bool, rules: tuple[str, ...]) -> None:
    """A unit (with its pilot, swtcg.pilots.moving-unit) or a pilot alone goes to the build zone."""
    st = ctx.state
    c = st.cards[ref]
    if c.zone == "pilot" and c.on:
        st.cards[c.on].pilot = None
        st.moved(c.on)
        c.on = None
    c.zone = "build"
    st.moved(ref)
    if tap:
        c.tapped = True
        if c.pilot and c.pilot in st.cards:
            st.cards[c.pilot].tapped = True
    ctx.records.append(rc.RetreatRecord(rules, player=c.controller, card=ref, tapped=tap))


# ====================================================================== damage
def open_damage(ctx: Ctx, pending: list[dict[str, Any]]) -> None:
    """Damage about to be dealt waits in a chance to prevent it (swtcg.pop.damage)."""
    st = ctx.state
    pending = [p for p in pending if p["amount"] > 0 and p["target"] in st.cards]
    if not pending:
        return
    if ctx.cards.with_static("double-damage"):
        double_damage(ctx, pending)
    st.damage = pending
    if ctx.cards.with_static("prevent-all"):
        prevent_all(ctx, pending)
    for p in pending:
        if ctx.recording:
            ctx.records.append(rc.PendingRecord(("swtcg.pop.damage",), target=p["target"], amount=p["amount"],
                                                source=p["source"]))
        for i, trig in enumerate(ctx.cdef(p["target"]).triggers if active(st, st.cards[p["target"]]) else ()):
            if trig.on == "damaged":
                hold(ctx, p["target"], st.cards[p["target"]].code, st.cards[p["target"]].controller, i, trig)
        if p.get("parry"):  # a static prevention: before anyone plays in the chance (swtcg.project.parry)
            prevent(ctx, st.cards[p["target"]].controller, f"{p['target']}:parry", p["target"], p["parry"],
                    ("swtcg.project.parry", "swtcg.pop.damage"))
    open_chance(ctx, "prevent")


def double_damage(ctx: Ctx, pending: list[dict[str, Any]]) -> None:
    """A Location that doubles the damage units in its arena would do (Hoth Battle Plains) doubles
    each amount done by such a unit, as it is dealt: after Overkill split the hits, before anyone
    can prevent it (swtcg.keywords.overkill-then-double). A source no longer in that arena (a
    discarded unit's Retaliate) or not a unit (a battle card) does no doubled damage."""
    st = ctx.state
    codes = ctx.cards.with_static("double-damage")
    by_code = st.index().by_code
    if not any(code in by_code for code in codes):
        return  # (no such Location in play)
    doublers = [(c.ref, s.scope) for c in st.index().zone("location") if c.code in codes and active(st, c)
                for s in ctx.card(c.code).statics if s.kind == "double-damage"]
    for p in pending:
        src = st.cards.get(p["source"]) if p["source"] else None
        if src is None:
            continue
        for location, arena in doublers:
            if src.zone == arena:
                was = p["amount"]
                p["amount"] = 2 * was
                ctx.records.append(rc.DoubledRecord(("swtcg.keywords.overkill-then-double", "swtcg.base.location"),
                                                    source=location, by=p["source"], target=p["target"], was=was,
                                                    amount=p["amount"]))


def prevent_all(ctx: Ctx, pending: list[dict[str, Any]]) -> None:
    """"Prevent all damage to and from it" (Obi-Wan's Spirit): a static prevention, as the damage
    waits to be dealt and before anyone plays in the chance to prevent it (after any doubling), by the
    card's controller; nothing is left to prevent afterwards (swtcg.project.prevent-all). It works
    while the unit is in an arena (a static ability of a unit, swtcg.damage.prevent-from-build-zone
    aside)."""
    st = ctx.state
    codes = ctx.cards.with_static("prevent-all")
    by_code = st.index().by_code
    if not any(code in by_code for code in codes):
        return  # (no such card in play)
    for p in pending:
        for ref in (p["target"], p["source"]):
            c = st.cards.get(ref) if ref else None
            if c is None or c.code not in codes or c.zone not in ARENAS or not active(st, c):
                continue
            left = p["amount"] - p["prevented"]
            if left > 0:
                prevent(ctx, c.controller, f"{c.ref}:prevent-all", p["target"], left,
                        ("swtcg.project.prevent-all", "swtcg.pop.damage"))
            break


def prevent(ctx: Ctx, pid: str, ability: str, target: str | None, amount: int, rules: tuple[str, ...]) -> int:
    """Prevent up to ``amount`` of the damage waiting for ``target``; the rest is wasted
    (swtcg.damage.excess-prevention-wasted). Counters already there stay (swtcg.damage.prevent-not-remove)."""
    st = ctx.state
    p = next((d for d in st.damage if d["target"] == target), None)
    left = p["amount"] - p["prevented"] if p else 0
    done = min(left, amount)
    if p:
        p["prevented"] += done
    if ctx.recording:
        ctx.records.append(rc.PreventRecord(
            (*rules, "swtcg.damage.excess-prevention-wasted", "swtcg.damage.prevent-not-remove"),
            player=pid, ability=ability, target=target, prevented=done, wasted=amount - done))
    return done


def place_damage(ctx: Ctx) -> None:
    """The prevention chance ended: put the counters (swtcg.pop.damage), Stun, discard the destroyed;
    then new damage (Deflect's) gets its own chance (swtcg.pop.new-damage-waits)."""
    st = ctx.state
    pending, st.damage = st.damage, []
    destroyed: list[tuple[str, str | None]] = []
    for p in pending:
        ref = p["target"]
        if ref not in st.cards:
            continue
        n = p["amount"] - p["prevented"]
        if n <= 0:
            continue
        c = st.cards[ref]
        c.damage += n
        if ctx.recording:
            ctx.records.append(rc.DamageRecord(
                ("swtcg.pop.damage",) + (("swtcg.damage.sourceless-counters",) if p["source"] is None else ()),
                target=ref, counters=n, total=c.damage, source=p["source"]))
        stun = p.get("stun", 0)
        if stun and c.zone in ARENAS and p["source"] != ref:  # swtcg.keywords.stun: only when counters were
            # put, and on another unit than the one that dealt them
            add_mod(ctx, ref, "power", -stun, "battle", p["source"] or "")
            ctx.records.append(rc.StunRecord(("swtcg.keywords.stun", "swtcg.keywords.stun-deflect"), source=p["source"],
                                             target=ref, amount=stun))
        if c.zone == "pilot":
            # a pilot keeps its own health: discarded with more counters than health (swtcg.pilots.health)
            if c.damage > ctx.cdef(ref).health:
                destroyed.append((ref, p["source"]))
        elif c.damage >= stat(ctx, ref, "health"):  # base.attack.discard
            destroyed.append((ref, p["source"]))
    for ref, source in destroyed:
        if ref not in st.cards:
            continue
        victim_controller = st.cards[ref].controller
        if not remove_from_play(ctx, ref, "damage"):
            continue  # it retreated instead: not defeated
        if source and source in st.cards and st.cards[source].controller != victim_controller:
            for iid, k in keyword_instances(ctx, source):
                if k.name == "bounty":  # collected when its controller's next build step starts
                    st.players[st.cards[source].controller].bounties.append([iid, [list(o) for o in k.options]])
    if st.later:
        later, st.later = st.later, []
        open_damage(ctx, later)


# ====================================================================== rolls
def roll_dice(ctx: Ctx, pid: str, n: int, purpose: str, source: str | None, target: str | None,
              rule: str) -> list[int]:
    reader = ctx.inputs
    rng = ctx.rng
    if rng is not None and reader.ri >= len(reader.inputs.roll):
        dice = [rng.below(6) + 1 for _ in range(n)]  # (no logged die left: what ctx.die gives each)
    else:
        dice = [ctx.die(rule) for _ in range(n)]
    if ctx.recording:
        ctx.records.append(rc.RollRecord((rule,), player=pid, purpose=purpose, dice=list(dice), source=source))
    return dice


def reroll(ctx: Ctx, pid: str, ability: str, which: tuple[int, ...], most: int) -> None:
    st = ctx.state
    roll = st.roll
    if roll is None:
        raise IllegalAction("swtcg.pop.dice-roll", Msg(N_("there is no roll to reroll")))
    if len(which) > most or any(i >= len(roll.dice) for i in which):
        raise IllegalAction("swtcg.keywords.lucky-reroll-count",
                            Msg(
                                N_("at most {most} of the {n_roll} dice rolled, by position"),
                                most=most, n_roll=len(roll.dice),
                            ))
    for i in which:
        roll.dice[i] = ctx.die("swtcg.timing.reroll-once-per-roll")
    roll.used.append(ability)
    ctx.records.append(rc.RerollRecord(("swtcg.timing.reroll-once-per-roll",), player=pid, ability=ability,
                                       which=list(which), dice=list(roll.dice)))


def hits(ctx: Ctx, roll: RollState, attack: bool) -> tuple[int, int, int, int]:
    """(hits, need, accuracy, critical) of a roll against its target: 4+ hits, 5+ against Armor
    (swtcg.keywords.armor-threshold); Accuracy adds to attack dice (swtcg.keywords.accuracy); a natural
    6 gives Critical Hit's extra damage once (base.glossary). Dice of damage get neither."""
    target, source = roll.target, roll.source
    cards = ctx.state.cards
    need = 5 if target in cards and kw_value(ctx, target, "armor") else 4
    acc = kw_value(ctx, source, "accuracy") if attack and source in cards else 0
    n = 0
    six = False
    dice = roll.dice
    for d in dice:
        if d + acc >= need:
            n += 1
        if d == 6:
            six = True
    crit = 0
    if attack and six and source in cards:
        crit = kw_value(ctx, source, "critical-hit")
    return n, need, acc, crit


# ====================================================================== chances to play
def open_chance(ctx: Ctx, kind: str) -> None:
    """A chance to play opens: the held abilities of its window first (swtcg.pop.triggers-first,
    swtcg.triggers.reroll-window, swtcg.triggers.prevent-window), then the Dark Side acts
    (swtcg.pop.dark-side-first, swtcg.keywords.disrupt-dark-side-first). An open chance waits in the
    frames and resumes after this one."""
    st = ctx.state
    if st.chance is not None:
        st.frames.append(resume_frame(st.chance, st.turn, st.wait))
    window = _CHANCE_WINDOW.get(kind, "")
    st.chance = Chance(kind)
    dark = ctx.dark()
    st.turn = dark
    st.wait = "chance"
    if ctx.recording:
        opened: Record | None = _player_records(ctx, dark).opened.get(kind)
        ctx.records.append(opened if opened is not None else _chance_record(ctx.cards.interned.by_player, kind, dark))
    # The window's held abilities resolve (none held: nothing to do). One that dealt damage: it is
    # dealt, with its chance to prevent it, before the players get this chance
    # (swtcg.abilities.multi-part-interrupts); then the chance opens again.
    if window and st.held and release_then(ctx, window, {"f": "chance", "kind": kind}):
        st.chance = None
        st.wait = None


def resume_frame(chance: Chance, turn: str | None, wait: str | None) -> dict[str, Any]:
    """The frame that resumes ``chance`` (the player to act then ``turn``, waiting for ``wait``) once
    what comes before it is done: the chance as ``Chance.to_json`` writes it, plus ``to``."""
    saved = chance.to_json()
    saved["to"] = turn
    return {"f": "resume", "chance": saved, "wait": wait}


# the held abilities' window a kind of chance releases, and the rules its record cites (open_chance)
_CHANCE_WINDOW: Final = {"reroll": "reroll", "prevent": "prevent", "general": "chance", "attack": "chance"}
_CHANCE_RULES: Final = {kind: (rule, "swtcg.pop.dark-side-first") for kind, rule in (
    ("reroll", "swtcg.pop.dice-roll"), ("prevent", "swtcg.pop.damage"),
    ("disrupt", "swtcg.keywords.disrupt-dark-side-first"))}
_CHANCE_RULES_OTHER: Final = ("swtcg.pop.triggers-first", "swtcg.pop.dark-side-first")
_PASS_RULES: Final = {False: ("swtcg.pop.two-passes-end",),
                      True: ("swtcg.pop.two-passes-end", "swtcg.project.forced-pass")}

MAX_SHARED: Final = 64


class _PlayerRecords:
    """One player's shared records: their pass, their forced pass, a chance opening for them by kind."""

    __slots__ = ("passed", "forced", "opened")

    def __init__(self, pid: str) -> None:
        self.passed: Record = rc.PassRecord(_PASS_RULES[False], player=pid, what="chance", auto=False)
        self.forced: Record = rc.PassRecord(_PASS_RULES[True], player=pid, what="chance", auto=True)
        self.opened: dict[str, Record] = {}


# the records of chances to play that come back with the same values, most of a replay's records (a
# chance opening, a pass, a chance ending), each made once and shared: records are immutable values
# (``may`` of an opening: an empty tuple, written as []). Kept with the pool (``Interned.by_player``,
# ``Interned.ended``: a chance's end, by kind); each table emptied when it holds MAX_SHARED


def _records_of(by_player: dict[str, Any], pid: str) -> _PlayerRecords:
    found: _PlayerRecords | None = by_player.get(pid)
    if found is None:
        if len(by_player) >= MAX_SHARED:
            by_player.clear()
        found = by_player[pid] = _PlayerRecords(pid)
    return found


def _player_records(ctx: Ctx, pid: str) -> _PlayerRecords:
    """``_records_of(pid)``, kept with the step's ``ctx`` for two players, found again by the very string
    ``pid`` (the players of a step's chances are the same two, most often the same strings)."""
    if pid is ctx._rec_pid:
        kept = ctx._rec
        assert kept is not None
        return kept
    if pid is ctx._rec_pid2:
        kept = ctx._rec2
        assert kept is not None
        return kept
    by_player = ctx.cards.interned.by_player
    found: _PlayerRecords | None = by_player.get(pid)
    if found is None:
        found = _records_of(by_player, pid)
    if ctx._rec_pid is None:
        ctx._rec_pid, ctx._rec = pid, found
    else:
        ctx._rec_pid2, ctx._rec2 = pid, found
    return found


def _chance_record(by_player: dict[str, Any], kind: str, pid: str) -> Record:
    """A chance to play of ``kind`` opens, ``pid`` (the Dark Side) to act (open_chance)."""
    mine: _PlayerRecords | None = by_player.get(pid)
    opened = (mine if mine is not None else _records_of(by_player, pid)).opened
    found = opened.get(kind)
    if found is None:
        if len(opened) >= MAX_SHARED:
            opened.clear()
        found = opened[kind] = rc.ChanceRecord(_CHANCE_RULES.get(kind, _CHANCE_RULES_OTHER), kind=kind, player=pid,
                                               passes=0, may=())
    return found


def _chance_end_record(ended: dict[str, Any], kind: str) -> Record:
    found: Record | None = ended.get(kind)
    if found is None:
        if len(ended) >= MAX_SHARED:
            ended.clear()
        found = ended[kind] = rc.ChanceEndRecord(("swtcg.pop.two-passes-end",), kind=kind)
    return found


def close_chance(ctx: Ctx) -> None:
    st = ctx.state
    ch = st.chance
    assert ch is not None
    st.chance = None
    st.wait = None
    kind = ch.kind
    if ctx.recording:
        ended = ctx.cards.interned.ended
        end: Record | None = ended.get(kind)  # (_chance_end_record's look-up, written out)
        ctx.records.append(end if end is not None else _chance_end_record(ended, kind))
    if kind == "prevent":
        place_damage(ctx)
    elif st.held and (kind == "general" or kind == "attack"):
        # swtcg.triggers.release: a held ability waits "usually until the current chance to play battle
        # cards and activated abilities ends", then resolves, before the turn goes on (an attack's roll)
        release_then(ctx, "chance")


def pass_chance(ctx: Ctx, pid: str, auto: bool) -> None:
    st = ctx.state
    ch = st.chance
    assert ch is not None
    passes = ch.passes + 1
    ch.passes = passes
    if ctx.recording:
        mine = _player_records(ctx, pid)
        ctx.records.append(mine.forced if auto else mine.passed)
    if passes >= 2:
        close_chance(ctx)
    else:
        st.turn = ctx.opponent(pid)


def pass_twice(ctx: Ctx, pid: str, other: str) -> None:
    """``pass_chance`` of ``pid``, then of ``other`` (their opponent), both forced, in a chance nobody
    has passed in yet: the chance ends (swtcg.pop.two-passes-end)."""
    st = ctx.state
    ch = st.chance
    assert ch is not None
    ch.passes = 2
    if ctx.recording:
        mine = _player_records(ctx, pid)
        theirs = _player_records(ctx, other)
        records = ctx.records
        records.append(mine.forced)
        records.append(theirs.forced)
    st.turn = other
    close_chance(ctx)


def played_in_chance(ctx: Ctx, pid: str) -> None:
    """A player played in the chance: the count of passes starts again, the opponent acts next
    (swtcg.pop.dark-side-first: players alternate)."""
    st = ctx.state
    if st.chance is not None:
        st.chance.passes = 0
        st.turn = ctx.opponent(pid)


# ====================================================================== the turn's procedure
def new_turn(ctx: Ctx) -> None:
    st = ctx.state
    st.round += 1
    st.build_started = []
    for p in st.players.values():
        p.once = []
    dark, light = st.dark(), st.light()
    st.frames = list(reversed([
        {"f": "ready"}, {"f": "build-start", "p": dark}, {"f": "build", "p": dark},
        {"f": "build-start", "p": light}, {"f": "build", "p": light},
        {"f": "retreat", "p": dark}, {"f": "retreat", "p": light},
        {"f": "battle-start"}, {"f": "arena", "a": "space"}, {"f": "arena", "a": "ground"},
        {"f": "arena", "a": "character"}, {"f": "battle-end"}, {"f": "turn-end"}]))


def ready(ctx: Ctx) -> None:
    """swtcg.base.turn.ready: untap (Dark Side first; pilots too, swtcg.pilots.ready-phase), 4 Force each,
    the Light Side rolls one die for everyone's build points (+1 with a unit in every arena). Like
    any roll, it is followed by a chance to reroll (swtcg.pop.dice-roll: "Reroll up to 2 dice"
    rerolls it too); the build points come from the die as it stands after that chance."""
    st = ctx.state
    st.phase, st.step, st.arena, st.active = "ready", "ready", None, None
    if ctx.recording:
        ctx.records.append(rc.PhaseRecord(("swtcg.base.turn.ready",), round=st.round, phase="ready", step="ready"))
    untapped = []
    refs = sorted(st.cards)  # (sorted once for both players)
    for pid in st.side_order():
        for ref in refs:
            c = st.cards[ref]
            if c.controller == pid and c.tapped:
                c.tapped = False
                untapped.append(ref)
    for pid in st.side_order():
        st.players[pid].force += FORCE_PER_TURN
    dice = roll_dice(ctx, st.light(), 1, "build", None, None, "swtcg.base.turn.ready")
    st.roll = RollState("build", dice, st.light(), None, None)
    st.frames.append({"f": "build-points", "untapped": untapped})
    open_chance(ctx, "reroll")


def build_points(ctx: Ctx, untapped: list[str]) -> None:
    """The reroll chance after the build-point roll ended: each player's build points."""
    st = ctx.state
    roll, st.roll = st.roll, None
    assert roll is not None
    die = roll.dice[0]
    for pid in st.side_order():
        bonus = 1 if all(st.units_in(a, pid) for a in ARENAS) else 0
        st.players[pid].build = die + bonus  # swtcg.project.build-points-reset
    if ctx.recording:
        ctx.records.append(rc.ReadyRecord(
            ("swtcg.base.turn.ready", "swtcg.pilots.ready-phase", "swtcg.project.build-points-reset"),
            untapped=untapped, force={p: st.players[p].force for p in st.side_order()},
            roll=die, build={p: st.players[p].build for p in st.side_order()}))


def build_start(ctx: Ctx, pid: str) -> None:
    """The start of a build step: drawing a card, Upkeep, Bounty rewards and other "when your build
    step starts" abilities, in the order the active player chooses (swtcg.build.start-triggers),
    once per turn (swtcg.build.start-trigger-once-per-turn)."""
    st = ctx.state
    st.phase, st.step, st.active, st.arena = "command", "build", pid, None
    if ctx.recording:
        ctx.records.append(rc.PhaseRecord(("swtcg.base.turn.command",), round=st.round, phase="command", step="build",
                                          player=pid))
    for c in st.cards.values():
        c.moved = False
    if pid in st.build_started:
        return
    st.build_started.append(pid)
    items: list[tuple[str, Any]] = [(f"{pid}:draw", None)]
    # (pid's cards, GameState.index: those sorted, not every card)
    for ref in sorted([c.ref for c in st.index().controlled(pid) if c.controller == pid]):
        c = st.cards[ref]
        if not active(st, c):
            continue
        # Upkeep is due in the build zone, on top of a stack, while piloting (swtcg.keywords.upkeep-still-due)
        for iid, k in keyword_instances(ctx, ref):
            if k.name == "upkeep":
                items.append((iid, ("upkeep", ref, k)))
        if c.zone in ARENAS:
            for i, trig in enumerate(ctx.card(c.code).triggers):
                if trig.on == "build-start":
                    items.append((f"{ref}:trigger" + (f".{i + 1}" if i else ""), ("trigger", ref, i)))
    for n, (iid, options) in enumerate(st.players[pid].bounties):
        items.append((f"{iid}#{n + 1}", ("bounty", iid, options)))
    st.players[pid].bounties = []
    if len(items) > 1:
        order = ctx.decide(Decision(by=pid, kind="order", options=tuple(i for i, _ in items), multiple=True,
                                    rules=("swtcg.build.start-triggers", "swtcg.keywords.upkeep-order"),
                                    prompt=Msg(N_("order of the start of your build step"))))
        by_id = dict(items)
        items = [(a, by_id[a]) for a in order]
    for iid, what in items:
        if what is None:
            draw(ctx, pid, 1, ("swtcg.build.start-triggers",))
        elif what[0] == "upkeep":
            upkeep(ctx, pid, iid, what[1], what[2])
        elif what[0] == "bounty":
            for kind, n in what[2]:
                if kind == "force":
                    gain_force(ctx, pid, n, ("swtcg.build.start-triggers",))
                elif kind == "build":
                    st.players[pid].build += n
            ctx.records.append(rc.BountyRecord(("swtcg.build.start-triggers",), player=pid, ability=what[1],
                                               reward=[list(o) for o in what[2]]))
        else:
            ref, i = what[1], what[2]
            if ref in st.cards:
                trig = ctx.cdef(ref).triggers[i]
                ctx.records.append(rc.ResolveRecord(("swtcg.build.start-triggers",), ability=iid, player=pid))
                run_effects(ctx, iid, ref, pid, trig.effects, None, 0)


def upkeep(ctx: Ctx, pid: str, iid: str, ref: str, k: Keyword) -> None:
    """Pay an Upkeep cost when you can (swtcg.keywords.upkeep-mandatory); with several options, choose
    one you can pay; with none, it is ignored (swtcg.project.upkeep-unpayable)."""
    st = ctx.state
    p = st.players[pid]
    c = st.cards.get(ref)
    payable = []
    for kind, n in k.options:
        if (kind == "force" and p.force >= n) or (kind == "build" and p.build >= n) or \
                (kind == "tap" and c is not None and not c.tapped):
            payable.append(f"{kind}:{n}")
    if not payable:
        ctx.records.append(rc.UpkeepRecord(("swtcg.keywords.upkeep-mandatory", "swtcg.project.upkeep-unpayable"),
                                           player=pid, ability=iid, paid=None))
        return
    choice = payable[0] if len(payable) == 1 else ctx.decide(Decision(
        by=pid, kind="upkeep", options=tuple(payable), rules=("swtcg.keywords.upkeep-mandatory",),
        prompt=Msg(N_("which Upkeep cost to pay")), source=iid))
    kind, n = choice.split(":")[0], int(choice.split(":")[1])
    if kind == "force":
        p.force -= n
    elif kind == "build":
        p.build -= n
    elif c is not None:
        c.tapped = True
    ctx.records.append(rc.UpkeepRecord(("swtcg.keywords.upkeep-mandatory", "swtcg.keywords.upkeep-order"), player=pid,
                                       ability=iid, paid=choice))


def next_actors(ctx: Ctx, arena: str) -> list[str]:
    """The units whose turn it is in a battle step: the fastest untapped ones; on a tie of both
    players', the Dark Side's (base.battle.order)."""
    st = ctx.state
    boosters: list[Card] | None = None
    top = -1
    fastest: list[Card] = []
    for c in st.index().zone(arena):
        if c.tapped:
            continue
        if boosters is None:
            boosters = boost_sources(ctx)
        speed = stat(ctx, c.ref, "speed", boosters)  # (at least 0)
        if speed > top:
            top, fastest = speed, [c]
        elif speed == top:
            fastest.append(c)
    if not fastest:
        return []
    dark = ctx.dark()
    if any(c.controller == dark for c in fastest):
        fastest = [c for c in fastest if c.controller == dark]
    return sorted([c.ref for c in fastest])


def run_frame(ctx: Ctx, frame: dict[str, Any]) -> None:
    st = ctx.state
    f: str = frame["f"]
    # (the most frequent frames first: an arena's turn loop, a chance to play, an attack's steps)
    if f == "arena-loop":
        arena: str = frame["a"]
        actors = next_actors(ctx, arena)
        st.arena = arena
        if actors:
            st.frames.append(frame)
            st.acting = actors
            st.turn = st.cards[actors[0]].controller
            st.wait = "act"
        elif arena == "character" and st.mods:
            end_control(ctx)  # the Character battle step is over
    elif f == "chance":
        open_chance(ctx, frame["kind"])
    elif f == "attack-roll":
        attack_roll(ctx)
    elif f == "attack-hits":
        attack_hits(ctx)
    elif f == "attack-end":
        attack_end(ctx)
    elif f == "release":
        release_then(ctx, frame["w"])
    elif f == "attack-clear":
        st.attack = None
        if st.mods:
            st.mods = [m for m in st.mods if m["until"] != "attack"]
    elif f == "ready":
        ready(ctx)
    elif f == "build-points":
        build_points(ctx, list(frame["untapped"]))
    elif f == "build-start":
        build_start(ctx, frame["p"])
    elif f == "build":
        p = frame["p"]
        st.phase, st.step, st.active, st.arena = "command", "build", p, None
        st.turn, st.wait = p, "build"
    elif f == "retreat":
        p = frame["p"]
        st.phase, st.step, st.active, st.arena = "command", "retreat", p, None
        if ctx.recording:
            ctx.records.append(rc.PhaseRecord(("swtcg.base.turn.command",), round=st.round, phase="command",
                                              step="retreat", player=p))
        st.turn, st.wait = p, "retreat"
    elif f == "battle-start":
        st.phase, st.step, st.active, st.arena = "battle", "battle", None, None
        if ctx.recording:
            ctx.records.append(rc.PhaseRecord(("swtcg.base.battle",), round=st.round, phase="battle", step="battle"))
        trigger_all(ctx, "battle-start")
        open_chance(ctx, "general")
    elif f == "arena":
        st.arena = frame["a"]
        if ctx.recording:
            ctx.records.append(rc.PhaseRecord(("swtcg.base.battle",), round=st.round, phase="battle", step="battle",
                                              arena=frame["a"]))
        st.frames.append({"f": "arena-loop", "a": frame["a"]})
        open_chance(ctx, "general")
    elif f == "resume":
        saved = frame["chance"]
        st.chance = Chance.from_json(saved)
        st.turn = saved["to"]
        st.wait = frame["wait"]
    elif f == "dice-damage":
        if frame["target"] not in st.cards:
            return
        dice = roll_dice(ctx, frame["player"], frame["n"], "dice", frame["source"], frame["target"],
                         "swtcg.battle.dice-of-damage-not-attack")
        st.roll = RollState("dice", dice, frame["player"], frame["source"], frame["target"])
        st.frames.append({"f": "dice-hits"})
        open_chance(ctx, "reroll")
    elif f == "dice-hits":
        roll, st.roll = st.roll, None
        assert roll is not None
        n, need, acc, crit = hits(ctx, roll, attack=False)
        if ctx.recording:
            ctx.records.append(rc.HitsRecord(("swtcg.battle.dice-of-damage-not-attack",
                                              "swtcg.keywords.armor-threshold"), target=roll.target, hits=n, need=need,
                                             accuracy=acc, critical=crit, damage=n))
        stun = kw_value(ctx, roll.source, "stun") if roll.source in st.cards else 0
        open_damage(ctx, [{"target": roll.target, "amount": n, "source": roll.source, "prevented": 0,
                           "stun": stun}])
    elif f == "effect-damage":
        src = frame["source"]
        stun = kw_value(ctx, src, "stun") if src and src in st.cards else 0
        pending: dict[str, Any] = {"target": frame["target"], "amount": frame["amount"], "source": src,
                                   "prevented": 0, "stun": stun}
        if frame.get("unevadable"):
            pending["unevadable"] = True
        open_damage(ctx, [pending])
    elif f == "damage-each":
        open_damage(ctx, [{"target": t, "amount": frame["amount"], "source": frame["source"], "prevented": 0}
                          for t in frame["targets"]])
    elif f == "effects":
        run_effects(ctx, frame["source_id"], frame["source"], frame["player"], effects_from(ctx, frame["effects"]),
                    frame["target"], frame["x"], start=frame["start"])
    elif f == "resolve-play":
        if frame.get("disrupted"):
            return
        effects = effects_from(ctx, frame["effects"])
        run_effects(ctx, frame["source_id"], frame["source"], frame["player"], effects, frame["target"], frame["x"],
                    tuple(frame["dice"]) if frame.get("dice") is not None else None, frame.get("to"))
    elif f == "battle-end":
        trigger_all(ctx, "battle-end")  # resolved at the end of the turn (swtcg.turn.battle-phase-ends-triggers)
    elif f == "turn-end":
        turn_end(ctx)
    else:  # pragma: no cover - frames are written by this module
        raise ValueError(f"unknown frame {f!r}")


def attack_roll(ctx: Ctx) -> None:
    """The attack chance ended: roll dice equal to the attacker's power, less the defender's Shields
    (base.attack), and open the chance to reroll (swtcg.pop.dice-roll)."""
    st = ctx.state
    a = st.attack
    assert a is not None
    attacker, defender = a.attacker, a.defender
    cards = st.cards
    att = cards.get(attacker)
    dfd = cards.get(defender)
    if att is None or dfd is None:
        return
    power = stat(ctx, attacker, "power")
    if dfd.zone != att.zone:
        # Bombard X: X dice instead of its power, changed by what changes its power (swtcg.base.bombard)
        printed = ctx.cdef(attacker).power + _pilot_power(ctx, attacker)
        power += kw_value(ctx, attacker, "bombard") - printed
    power = max(0, power - kw_value(ctx, defender, "shields"))
    player = att.controller
    dice = roll_dice(ctx, player, power, "attack", attacker, defender, "swtcg.base.attack")
    a.rolled = len(dice)
    st.roll = RollState("attack", dice, player, attacker, defender)
    st.frames.append({"f": "attack-hits"})
    open_chance(ctx, "reroll")


def _pilot_power(ctx: Ctx, ref: str) -> int:
    c = ctx.state.cards[ref]
    pdef = ctx.cdef(c.pilot).pilot if c.pilot and c.pilot in ctx.state.cards else None
    return pdef.power if pdef else 0


def attack_hits(ctx: Ctx) -> None:
    st = ctx.state
    roll, st.roll = st.roll, None
    a = st.attack
    assert roll is not None and a is not None
    attacker, defender = a.attacker, a.defender
    if attacker not in st.cards or defender not in st.cards:
        return
    n, need, acc, crit = hits(ctx, roll, attack=True)
    if st.last_hits is not None:
        st.last_hits[attacker] = n  # swtcg.project.last-attack
    total = n + crit
    if ctx.recording:
        cited: tuple[str, ...] = ("swtcg.base.attack", "swtcg.keywords.accuracy", "swtcg.keywords.armor-threshold")
        if crit:  # Critical Hit's X, its instances added up
            cited += ("swtcg.base.critical-hit", "swtcg.abilities.cumulative-modifiers")
        ctx.records.append(rc.HitsRecord(cited, target=defender, hits=n, need=need, accuracy=acc, critical=crit,
                                         damage=total))
    stun = kw_value(ctx, attacker, "stun")
    pending = [{"target": defender, "amount": total, "source": attacker, "prevented": 0, "stun": stun}]
    # Parry X: a natural 1 among the attack dice (after rerolls, Accuracy aside) prevents X (swtcg.project.parry)
    parry = kw_value(ctx, defender, "parry") if any(d == 1 for d in roll.dice) else 0
    if parry:
        pending[0]["parry"] = parry
    left = remaining_health(ctx, defender)
    if total > left and kw_value(ctx, attacker, "overkill"):
        others = [c.ref for c in st.units_in(st.cards[defender].zone)
                  if c.ref not in (defender, attacker)]
        if others:
            pid = st.cards[attacker].controller
            other = ctx.decide(Decision(by=pid, kind="overkill", options=(*others, None),
                                        rules=("swtcg.keywords.overkill-remaining-health",),
                                        prompt=Msg(
                                            N_("the unit to take the {n} damage beyond the defender's remaining "
                                               "health (None: nobody)"),
                                            n=total - left,
                                        )))
            if other is not None:
                pending[0]["amount"] = left
                pending.append({"target": other, "amount": total - left, "source": attacker, "prevented": 0,
                                "stun": stun})
    open_damage(ctx, pending)


def attack_end(ctx: Ctx) -> None:
    """The attack ends: Retaliate's dice of damage (even from a discarded unit, swtcg.keywords.retaliate)
    and a Power Boost's self-damage (swtcg.keywords.power-boost-self-damage) come now."""
    st = ctx.state
    a = st.attack
    assert a is not None
    st.frames.append({"f": "attack-clear"})
    later: list[dict[str, Any]] = []
    for ret in a.retaliations:
        later.append({"f": "dice-damage", "source": ret["unit"], "target": a.attacker, "n": ret["dice"],
                      "player": ret["player"]})
    for boost in a.boosts:
        later.append({"f": "effect-damage", "source": a.attacker, "target": a.attacker, "amount": boost})
    st.frames.extend(reversed(later))


def turn_end(ctx: Ctx) -> None:
    """The end of the turn: "when the battle phase ends" abilities resolve
    (swtcg.turn.battle-phase-ends-triggers), lasting effects of the battle and the turn end
    (swtcg.timing.until-end-of-battle, swtcg.timing.this-turn), and a player who controls two
    arenas wins (base.win)."""
    st = ctx.state
    release(ctx, "chance")
    if st.frames:  # an ability resolving at the end of the turn dealt damage: finish that first
        st.frames.insert(0, {"f": "turn-end"})
        return
    st.mods = [m for m in st.mods if m["until"] not in ("battle", "turn", "attack")]
    control: dict[str, str | None] = {}
    uncounted = ctx.cards.with_static("no-arena-control")  # "does not count for controlling" (base.win)
    for arena in ARENAS:
        present = {c.controller for c in st.units_in(arena) if c.code not in uncounted or not active(st, c)}
        control[arena] = next(iter(present)) if len(present) == 1 else None
    for pid in st.side_order():
        if sum(1 for v in control.values() if v == pid) >= 2:
            st.winner, st.reason = pid, "arenas"
            st.phase, st.step, st.turn, st.wait, st.arena = "over", "over", None, None, None
            ctx.records.append(rc.VictoryRecord(("swtcg.base.win",), winner=pid, arenas=control))
            return


def same_name(ctx: Ctx, pid: str, d: CardDef, moving: str | None = None) -> str | None:
    """The unit of ``d``'s name ``pid`` has built in an arena or the build zone, or piloting a unit
    (base.unique, swtcg.pilots.unique-stacked: ``UNIQUE_ZONES``), other than ``moving``; None when
    ``d`` is not unique."""
    if not d.unique:
        return None
    if ctx.checking:  # only checking: each player's built units by name found once while they stay where they are
        by_pid = facts_of(ctx).names
        names = by_pid.get(pid)
        if names is None:
            names = by_pid[pid] = {}
            for c in ctx.state.index().controlled(pid):
                if c.controller == pid and c.built and c.zone in UNIQUE_ZONES:
                    names.setdefault(ctx.card(c.code).name, []).append(c.ref)
        for ref in names.get(d.name, ()):
            if ref != moving:
                return ref
        return None
    for c in ctx.state.index().controlled(pid):
        if c.ref != moving and c.controller == pid and c.built and c.zone in UNIQUE_ZONES \
                and ctx.card(c.code).name == d.name:
            return c.ref
    return None


def put_in_arena(ctx: Ctx, pid: str, c: Card, d: CardDef, rules: tuple[str, ...]) -> None:
    """A unit enters its arena, or stacks with the unit of its name (base.unique), a pilot's too: a
    new top card that cannot pilot that pilot's unit takes the stack off it, to the Character arena
    (swtcg.pilots.unique-stacked; the unit stays, swtcg.pilots.moving-pilot)."""
    st = ctx.state
    same = same_name(ctx, pid, d, moving=c.ref)
    c.built = True
    c.counters = 0
    if same is not None:
        top = st.cards[same]
        del st.cards[c.ref]
        if c.pilot:
            st.cards[c.pilot].zone, st.cards[c.pilot].on = "character", None
        for g in c.gear:  # its Equipment stays on the unit it now is (swtcg.project.equipment)
            st.cards[g].on = same
            set_gear(st, same, g, True)
        if d.cost < ctx.card(top.code).cost:
            top.under.append(c.code)
        else:
            top.under.append(top.code)
            top.code = c.code
        extra: tuple[str, ...] = ()
        where = top.zone
        if where == "pilot":  # the stack is where its unit is, part of it (swtcg.pilots.not-a-unit)
            extra = ("swtcg.pilots.unique-stacked",)
            unit = st.cards.get(top.on) if top.on else None
            flies = ctx.card(top.code).pilot
            if unit is None or flies is None or not ctx.card(unit.code).has_subtype(flies.kind):
                if unit is not None:
                    unit.pilot = None
                top.zone, top.on = "character", None
                extra += ("swtcg.pilots.moving-pilot",)
            where = unit.zone if unit is not None and top.zone == "pilot" else top.zone
        st.moved()
        if ctx.recording:
            ctx.records.append(rc.DeployRecord((*rules, "swtcg.stacking.normal-rules", *extra), player=pid,
                                               card=same, code=d.code, arena=where, stacked=same))
        return
    c.zone = d.type
    st.moved(c.ref)
    st.deploys += 1
    c.deployed_at = st.deploys
    if ctx.recording:
        ctx.records.append(rc.DeployRecord(rules, player=pid, card=c.ref, code=d.code, arena=c.zone))


# ====================================================================== missions, locations, equipment
def arenas_named(word: str) -> tuple[str, ...]:
    """The arenas a type word names: a Location's or an Equipment's first subtype (``Ground``,
    ``Space/Ground``, ``Space/Ground/Character``)."""
    named = {w.strip().lower() for w in word.split("/")}
    return tuple(a for a in ARENAS if a in named)


def put_location(ctx: Ctx, pid: str, c: Card, d: CardDef) -> None:
    """A complete Location goes into play in its arena (swtcg.base.location); one the subtype gives
    several arenas goes to the one its controller chooses; the Location there already, either
    player's, is discarded (swtcg.project.location-per-arena)."""
    st = ctx.state
    arenas = arenas_named(d.subtypes[0] if d.subtypes else "")
    if not arenas:
        raise NotImplementedCard(d.code, d.display, "a Location naming no arena")
    arena = arenas[0] if len(arenas) == 1 else ctx.decide(Decision(
        by=pid, kind="arena", options=arenas, rules=("swtcg.base.location", "swtcg.project.location-per-arena"),
        prompt=Msg(N_("the arena to put {card} into"), card=c.ref), source=c.ref))
    old = location_in(st, arena)
    if old is not None:
        remove_from_play(ctx, old.ref, "location")
    c.zone, c.at, c.built, c.counters = "location", arena, True, 0
    st.moved(c.ref)
    st.deploys += 1
    c.deployed_at = st.deploys
    if ctx.recording:
        ctx.records.append(rc.DeployRecord(("swtcg.base.location", "swtcg.project.location-per-arena"), player=pid,
                                           card=c.ref, code=d.code, arena=arena))


def complete_mission(ctx: Ctx, pid: str, c: Card, option: int, target: str | None, x: int, paid: int) -> None:
    """A Mission is completed: its effect happens (swtcg.base.mission), then it goes to its owner's
    discard pile (swtcg.project.mission-discarded). No card is drawn for it
    (swtcg.build.no-draw-for-building)."""
    st = ctx.state
    d = ctx.card(c.code)
    ctx.records.append(rc.CompleteRecord(("swtcg.base.mission", "swtcg.build.no-draw-for-building"), player=pid,
                                         card=c.ref, code=c.code, cost=paid,
                                         option=option if len(d.plays[0].options) > 1 else None, target=target))
    run_effects(ctx, c.ref, None, pid, d.plays[0].options[option], target, x)
    st.cards.pop(c.ref, None)
    st.moved(c.ref)
    st.players[c.owner].discard.append(c.code)
    if ctx.recording:
        ctx.records.append(rc.DiscardRecord(("swtcg.zones.owner-global-rule", "swtcg.project.mission-discarded"),
                                            card=c.ref, owner=c.owner, why="completed"))


def equip_costs(d: CardDef) -> tuple[tuple[str, int], ...]:
    """An Equipment's Equip cost: (``build``/``force``, amount) each (swtcg.base.equip)."""
    k = next((k for k in d.keywords if k.name == "equip"), None)
    return k.options if k is not None else ()


def equip(ctx: Ctx, pid: str, c: Card, onto: str) -> None:
    """Pay the Equip cost and attach the Equipment to the unit; moved from another unit, what it gives
    leaves that one (swtcg.base.equip). Once per turn for each Equipment."""
    st = ctx.state
    p = st.players[pid]
    paid = []
    for kind, n in equip_costs(ctx.card(c.code)):
        if kind == "build":
            p.build -= n
        else:
            p.force -= n
        paid.append([kind, n])
    was = c.on if c.zone == "equipped" else None
    set_gear(st, was, c.ref, False)
    c.zone, c.on, c.built, c.counters = "equipped", onto, True, 0
    st.moved(c.ref)
    set_gear(st, onto, c.ref, True)
    p.once.append(f"{c.ref}:equip")
    ctx.records.append(rc.EquipRecord(("swtcg.base.equip", "swtcg.project.equipment"), player=pid, card=c.ref,
                                      onto=onto, was=was, paid=paid))
