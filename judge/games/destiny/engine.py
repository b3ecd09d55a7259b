"""The Destiny rules engine: one step of a log applied to a state.

``Ctx`` is the context of one step: it holds the state being changed, the step's logged
outcomes (``roll``, ``random``) and choices (``choices``), and it is the kernel's host
(judge.kernel.core): it lists the abilities that replace, interrupt or follow each event, and
performs events. Card abilities (judge.games.destiny.cards) act only through ``Ctx``'s small
verbs (deal_damage, give_shields, draw, choose, ...), never on the state directly, so every
change passes through the timing pipeline and is recorded with its rule IDs.

Checking is apart from applying where it can be (``check_step`` raises ``IllegalAction`` naming
the rule before anything changes); what can only be found while resolving raises the same way
mid-step, and the caller discards the working copy.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any, ClassVar

from i18n import N_, Msg
from judge.games.abilities import LiveIndex, Source, build_shared, codes_with, timed_codes
from judge.games.destiny import events as ev
from judge.games.destiny import records as rec
from judge.games.destiny.dice import Face, FaceError, parse_face
from judge.games.destiny.keywords import KEYWORD_ABILITIES
from judge.games.destiny.model import Ability, CardDef, CardPool
from judge.games.destiny.perform import leave_play_upgrade, perform_event
from judge.games.destiny.refs import card_of_die, parse_ref
from judge.games.destiny.rounds import chooser
from judge.games.destiny.state import (
    UNKNOWN,
    Character,
    Delayed,
    GameState,
    Player,
    Support,
)
from judge.games.inputs import NO_INPUTS, NOTHING, InputReader, Inputs
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

HAND_LIMIT = 5

# The engine's shortcuts (the live-ability index kept between steps, the reference memo, events no
# live ability answers performed without the kernel's pipeline). They must never change a ruling:
# tests/judge/destiny/test_fast_paths.py switches them off and compares.
SHORTCUTS = True

Policy = Callable[["Ctx", Decision], Any]


class NotImplementedCard(Exception):
    """A card's text would change the game here, but the engine does not implement it: the replay
    says so rather than silently skipping it."""

    kind: ClassVar[str] = "not-implemented"

    def __init__(self, code: str, name: str, what: str, text: str):
        self.code = code
        self.rule = "destiny.general.golden-rule"
        self.message = (f"{name} ({code}): {what} is not implemented by the engine, so it cannot rule past "
                        f"this point" + (f" (card text: {text})" if text else ""))
        super().__init__(self.message)


TIMING_RULES = TimingRules(
    instead="destiny.replacement.instead",
    no_triggers_from_replaced="destiny.replacement.no-triggers-from-replaced",
    competing="destiny.replacement.competing",
    before="destiny.timing.before",
    after="destiny.timing.after",
    queue_fifo="destiny.timing.queue-fifo",
    same_player="destiny.timing.simultaneous-same-player",
    several_players="destiny.timing.simultaneous-battlefield-controller",
    optional="destiny.abilities.resolve-fully",
)


def _no_player(pid: str) -> IllegalAction:
    return IllegalAction("destiny.terms.controller", Msg(N_("there is no player {pid}"), pid=pid))


def _not_a_ref(ref: str) -> IllegalAction:
    return IllegalAction("destiny.terms.controller", Msg(
        N_("'{ref}' is not a reference to a card or die"),
        ref=ref,
    ))


class Ctx:
    timing_rules: ClassVar[TimingRules] = TIMING_RULES
    # (a context per step: no instance dict to make, and to scan in each collection, in pure Python)
    __slots__ = ("state", "cards", "step", "rng", "policy", "_kernel", "records", "decisions", "inputs",
                 "written_choices", "left_play", "last_known_host", "cost_reduction", "recording")

    def __init__(self, state: GameState, cards: CardPool, action: Any = None, inputs: Inputs = NO_INPUTS,
                 rng: Rng | None = None, policy: Policy | None = None, recording: bool = True):
        self.state = state
        self.cards = cards
        self.step = action  # the typed action being applied (steps.DestinyAction), None in setup
        self.rng = rng
        self.policy = policy
        # the timing pipeline, made when an event first needs it (most steps' events are quiet: see emit)
        self._kernel: Kernel | None = None
        self.records: list[Record] = []  # what happened in this step (written to JSON when read)
        self.decisions: list[dict[str, Any]] = []
        self.inputs = InputReader(inputs)  # the step's logged outcomes and choices, read in order
        self.written_choices: list[dict[str, Any]] = []  # answers a policy gave (self-play)
        # cards that left play with the event being performed, with their keyword abilities then:
        # offered to the after-abilities of that event (judge.games.destiny.keywords)
        self.left_play: list[tuple[Source, tuple[Ability, ...]]] = []
        self.last_known_host: dict[str, str] = {}  # upgrades that left play this step -> their character
        self.cost_reduction = 0  # a reduction waiting for the next card played
        # False: nobody reads this step's records (Game.apply_unrecorded, a replay without visitors), so
        # the commonest are not made; a record something reads during the step (a damage's, read by a
        # card) is made all the same (tests/judge/destiny/test_unrecorded.py)
        self.recording = recording

    @property
    def kernel(self) -> Kernel:
        """The step's timing pipeline (judge.kernel.core), made on first use."""
        kernel = self._kernel
        if kernel is None:
            kernel = self._kernel = Kernel(self)
        return kernel

    def drain(self) -> None:
        """Resolve the after-abilities queued so far (``Kernel.drain``; none without a pipeline)."""
        kernel = self._kernel
        if kernel is not None and kernel.queue:
            kernel.drain()

    def clear_queue(self) -> None:
        """Forget the after-abilities still queued (the game ended)."""
        if self._kernel is not None:
            self._kernel.queue.clear()

    def close(self) -> None:
        """Done with this step: break the context <-> kernel reference cycle, so the context is
        freed at once rather than by the cyclic garbage collector (whose passes cost a replay
        about a tenth of its time)."""
        self._kernel = None

    # ------------------------------------------------------------------ lookups
    # (card, player and owner look up by subscript, a KeyError caught: on these hot paths, a dict's
    # ``get`` and the test of its answer cost more)
    def card(self, code: str) -> CardDef:
        try:
            return self.cards.cards[code]  # (CardPool.get, read inline)
        except KeyError:
            raise IllegalAction("destiny.cards.identifier", Msg(
                N_("card {code} is not known to the engine"),
                code=code,
            )) from None

    def player(self, pid: str) -> Player:
        try:
            return self.state.players[pid]
        except KeyError:
            raise _no_player(pid) from None

    def owner_of(self, ref: str) -> str:
        r = self.cards.refs.get(ref)  # (parse_ref's memo, asked inline on this hot path)
        if r is None:
            r = parse_ref(ref, self.cards.refs)
            if r is None:
                raise _not_a_ref(ref)
        return r.player

    def owner(self, ref: str) -> Player:
        """The player ``ref`` (a card or die) belongs to: ``player(owner_of(ref))``, in one call on
        this hot path."""
        r = self.cards.refs.get(ref)  # (parse_ref's memo, asked inline)
        if r is None:
            r = parse_ref(ref, self.cards.refs)
            if r is None:
                raise _not_a_ref(ref)
        try:
            return self.state.players[r.player]
        except KeyError:
            raise _no_player(r.player) from None

    def canon(self, ref: str) -> str:
        """A card reference as the state writes it: upgrades and supports always with ``#n``.
        Depends only on what is in play, so answers are kept for the play generation."""
        memo: tuple[int, dict[str, str], dict[str, str]] | None = self.state.canon_memo
        gen = self.state.gen.value
        if memo is None or memo[0] != gen or not SHORTCUTS:
            memo = (gen, {}, {})  # (the generation, card references, die references: canon_die)
            self.state.canon_memo = memo
        out = memo[1].get(ref)
        if out is None:
            out = memo[1][ref] = self._canon(ref)
        return out

    def _canon(self, ref: str) -> str:
        r = self.cards.refs.get(ref)  # (parse_ref's memo, asked inline)
        if r is None:
            r = parse_ref(ref, self.cards.refs)
        if r is None or r.player not in self.state.players:
            return ref
        p = self.state.players[r.player]
        base = f"{r.player}.{r.code}"
        if r.serial is None:
            if base in p.characters:
                return base
            matches = [k for k in list(p.upgrades) + list(p.supports) if k.startswith(base + "#")]
            if len(matches) == 1:
                return matches[0]
            if len(matches) > 1:
                raise IllegalAction("destiny.uniqueness.one-copy-in-play",
                                    Msg(
                                        N_("'{ref}' is ambiguous: {matches} are in play"),
                                        ref=ref, matches=', '.join(matches),
                                    ))
            return base
        if r.serial == 1 and base in p.characters:
            return base
        return f"{base}#{r.serial}"

    def canon_die(self, ref: str) -> str:
        if "/" not in ref:
            raise IllegalAction("destiny.dice.pool-only", Msg(
                N_("'{ref}' is not a die (write it as <card>/<n>)"),
                ref=ref,
            ))
        # depends only on what is in play, as its card's reference (``canon``) does: kept beside those
        # for the play generation
        memo: tuple[int, dict[str, str], dict[str, str]] | None = self.state.canon_memo
        if memo is not None and memo[0] == self.state.gen.value and SHORTCUTS:
            out = memo[2].get(ref)
            if out is not None:
                return out
        card, n = ref.rsplit("/", 1)
        out = f"{self.canon(card)}/{n}"
        memo = self.state.canon_memo  # (made by ``canon`` for this generation when there was none)
        if memo is not None and memo[0] == self.state.gen.value:
            memo[2][ref] = out
        return out

    def _not_a_die(self, ref: str, rule: str) -> None:
        """A character is named where a die is written: the die's card is not meant."""
        r = self.cards.refs.get(ref)  # (parse_ref's memo, asked inline)
        if r is None:
            r = parse_ref(ref, self.cards.refs)
        if r is not None and r.die is not None:
            raise IllegalAction(rule, Msg(
                N_("{ref} is a die: name a character (such as {card})"),
                ref=ref, card=r.card,
            ))

    def character(self, ref: str, alive: bool = True) -> Character:
        self._not_a_die(ref, "destiny.terms.choose-target")
        ref = self.canon(ref)
        ch = self.owner(ref).characters.get(ref)
        if ch is None:
            raise IllegalAction("destiny.terms.choose-target", Msg(N_("{ref} is not a character in play"), ref=ref))
        if alive and ch._defeated:
            raise IllegalAction("destiny.defeat.no-further-use", Msg(
                N_("{ref} is defeated and cannot be chosen"),
                ref=ref,
            ))
        return ch

    def code_of(self, ref: str) -> str:
        r = self.cards.refs.get(ref)  # (parse_ref's memo, asked inline)
        if r is None:
            r = parse_ref(ref, self.cards.refs)
        if r is None:
            raise IllegalAction("destiny.cards.identifier", Msg(N_("'{ref}' is not a card reference"), ref=ref))
        return r.code

    def die_faces(self, die: str) -> tuple[Face, ...]:
        r = self.cards.refs.get(die)  # (parse_ref's memo, asked inline: a die's code is its card's)
        if r is None:  # (not read yet, or not written as a die: read by its card's reference)
            return self.card(self.code_of(card_of_die(die))).faces
        return self.card(r.code).faces

    def pool_face(self, die: str) -> Face:
        die = self.canon_die(die)
        face = self.owner(die).pool.get(die)
        if face is None:
            raise IllegalAction("destiny.dice.pool-only", Msg(N_("die {die} is not in a dice pool"), die=die))
        return face

    def die_value(self, die: str, face: Face | None = None) -> int:
        """The value a die counts (destiny.dice.value). An ``X`` has no default value: the die's
        own card defines it (destiny.terms.x) with a constant ability answering ``x_value``; a
        card that defines none stops the ruling rather than count 0."""
        if face is None:
            face = self.pool_face(die)
        if face.value is not None:
            return face.value
        card_ref = card_of_die(die)
        code = self.code_of(card_ref)
        defs = [ab for ab in self.card(code).abilities_for("constant") if ab.query == "x_value" and ab.modify]
        if not defs:
            self.not_implemented(code, "the value of X on its die (destiny.terms.x: X has no default value)")
        value = None
        for ab in defs:
            assert ab.modify is not None
            value = ab.modify(self, self.canon(card_ref), die, value)
        if not isinstance(value, int) or isinstance(value, bool):
            raise NotImplementedCard(code, self.card(code).name, "the value of X on its die", "")
        self.records.append(rec.XValueRecord(die, value, ("destiny.terms.x",)))
        return max(0, value)

    def all_pool_dice(self) -> list[tuple[str, str, Face]]:
        players = self.state.players  # (keys, then each value: see rounds.next_seat)
        return [(pid, d, f) for pid in players for d, f in players[pid].pool.items()]

    def sources(self) -> Iterator[Source]:
        """Every card in play whose abilities are live (destiny.abilities.when-active)."""
        for ref, code, pid in self._in_play():
            yield Source(ref, code, pid, self.card(code))

    def _in_play(self) -> list[tuple[str, str, str]]:
        """(reference, code, controller) of every card in play whose abilities are live: not a
        defeated character, nothing of an eliminated player; the battlefield under its controller.
        (A list, not a generator: compiled, each item a generator yields costs more than the item.)"""
        st = self.state
        out: list[tuple[str, str, str]] = []
        add = out.append
        players = st.players
        # (keys, then each value: the tables are TrackedDicts, see rounds.next_seat)
        for pid in players:
            p = players[pid]
            if p._eliminated:  # everything of an eliminated player left the game (the field, not its property)
                continue
            chars, ups, sups = p.characters, p.upgrades, p.supports
            for ref in chars:
                ch = chars[ref]
                if not ch._defeated:
                    add((ref, ch.code, pid))
            for ref in ups:
                add((ref, ups[ref].code, pid))
            for ref in sups:
                add((ref, sups[ref].code, pid))
        battlefield, controller = st._battlefield, st._controller
        if battlefield and controller:
            add((f"{controller}.{battlefield}", battlefield, controller))
        return out

    def upgrade_host(self, upgrade_ref: str) -> str | None:
        """The character an upgrade is attached to; for an upgrade that left play during this step,
        the character it was last attached to, so an ability it triggered still resolves in full
        (destiny.abilities.triggered-independent)."""
        owner = self.owner_of(upgrade_ref)
        ref = self.canon(upgrade_ref)
        up = self.player(owner).upgrades.get(ref)
        return up.on if up else self.last_known_host.get(ref)

    # ------------------------------------------------------------------ constants and keywords
    def query(self, name: str, subject: Any, value: Any) -> Any:
        """Fold every live constant ability answering ``name`` over ``value``."""
        st = self.state
        index: LiveIndex | None = st.live_index  # (self._index(), inline; typed: see emit)
        if index is None or index.gen != st.gen.value or index.cards is not self.cards or not SHORTCUTS:
            index = self._index()
        for src, abilities in index.live.get("constant:" + name, ()):
            for ab in abilities:
                if ab.modify is not None:
                    value = ab.modify(self, src.ref, subject, value)
        return value

    def cost_of(self, pid: str, code: str, on: str | None = None) -> int:
        """What playing ``code`` costs ``pid``: its printed cost through every constant cost
        modifier in play (destiny.cards.cost), before one-off reductions."""
        return int(self.query("cost", (pid, code, on), self.card(code).cost or 0))

    def keywords(self, ref: str) -> frozenset[str]:
        """A card's keywords: printed plus granted (destiny.keywords.binary: a set, never counted),
        minus every keyword an effect takes away. A lost keyword is gone however many times it
        was granted (destiny.keywords.loss), so losses are applied after all the grants."""
        return self.keywords_of(self.card(self.code_of(ref)), self.canon(ref))

    def keywords_of(self, card: CardDef, subject: Any) -> frozenset[str]:
        """Keywords of ``card`` as ``subject`` (a ref in play, or a card being played)."""
        if SHORTCUTS:  # nothing live grants a keyword or takes one away (most plays): the printed ones
            live = self._index().live
            if "constant:keywords" not in live and "constant:keywords_lost" not in live:
                return frozenset(card.keywords)
        gained = self.query("keywords", subject, set(card.keywords))
        lost = self.query("keywords_lost", subject, set())
        return frozenset(gained) - frozenset(lost)

    def keyword_abilities(self, ref: str) -> tuple[Ability, ...]:
        """The keyword abilities (judge.games.destiny.keywords) the card ``ref`` has now."""
        card = self.card(self.code_of(ref))
        abilities = KEYWORD_ABILITIES.get(card.type, ())
        if not abilities:
            return ()
        have = self.keywords(ref)
        return tuple(ab for ab in abilities if ab.keyword in have)

    def forbidden(self, verb: str, pid: str, subject: Any) -> str | None:
        """The text of a live "cannot" effect that forbids ``pid`` to ``verb`` (play, activate,
        use, claim, resolve, reroll) with ``subject``, or None. Such effects are asked one by one
        and any one of them forbids: no "can" or "ignore restrictions" effect lifts a "cannot"
        (destiny.negative.cannot-overrides-can)."""
        st = self.state
        index: LiveIndex | None = st.live_index  # (self._index(), inline; typed: see emit)
        if index is None or index.gen != st.gen.value or index.cards is not self.cards or not SHORTCUTS:
            index = self._index()
        for src, abilities in index.live.get("constant:forbid", ()):
            for ab in abilities:
                if ab.modify is not None and ab.modify(self, src.ref, (verb, pid, subject), False):
                    return f"{src.ref}: {ab.text}"
        return None

    def hand_limit(self, pid: str) -> int:
        return int(self.query("hand_limit", pid, HAND_LIMIT))

    def battlefield_controller(self) -> str:
        return chooser(self.state)[0]

    # ------------------------------------------------------------------ kernel host
    def record(self, record: Record) -> None:
        """Write down what happened (the kernel's steps, performed events, the engine's notes). A
        record's JSON is written only when a ruling or a timeline reads it (base.written). (The
        engine's own modules append to ``records`` directly: a Python call less on their hot paths.)"""
        self.records.append(record)

    def chooser_for(self, triggers: Sequence[Triggered]) -> tuple[str, str]:
        return chooser(self.state)

    def decide(self, decision: Decision) -> Any:
        """Answer a decision from the step's ``choices`` (in order), else the policy, else stop."""
        choice = self.inputs.choice_for(decision)
        if choice is not None:
            answer = choice.answer
            self._check_answer(decision, answer)
        elif self.policy is not None:
            answer = self.policy(self, decision)
            self._check_answer(decision, answer)
            self.written_choices.append({"by": decision.by, "kind": decision.kind, "answer": answer})
        else:
            self.decisions.append(decision.to_json())
            raise PendingDecision(decision)
        self.decisions.append(decision.to_json(answer, answered=True))
        return answer

    def _check_answer(self, decision: Decision, answer: Any) -> None:
        rule = decision.rules[0] if decision.rules else "destiny.terms.choose-option"
        if decision.kind in ("order",):
            if not isinstance(answer, list) or not all(isinstance(a, str) for a in answer):
                raise IllegalAction(rule, Msg(N_("an order is a list of {options}"), options=list(decision.options)))
            return
        if decision.multiple:
            return  # checked by the asker, which knows the amounts
        if answer not in decision.options:
            raise IllegalAction(rule, Msg(
                N_("'{answer}' is not one of the options {options}"),
                answer=answer, options=list(decision.options),
            ))

    def replacements(self, event: Event) -> list[Triggered]:
        return self._triggers(event, "instead")

    def befores(self, event: Event) -> list[Triggered]:
        return self._triggers(event, "before")

    def afters(self, event: Event) -> list[Triggered]:
        out = self._triggers(event, "after")
        if self.left_play:  # abilities of cards that left play with this event look back at it
            gone, self.left_play = self.left_play, []
            for src, abilities in gone:
                for ab in abilities:
                    aid = f"{src.ref}:{ab.keyword}" if ab.keyword else src.ref
                    if ab.trigger is not None and ab.trigger(self, src.ref, event):
                        out.append(self._instance(src, ab, aid, event))
        return out

    def _triggers(self, event: Event, timing: str) -> list[Triggered]:
        """The live abilities of ``timing`` that trigger on ``event``: the cards' own, then their
        keywords' (judge.games.destiny.keywords)."""
        candidates = self._index().candidates(timing, type(event))
        if not candidates:
            return []
        return [self._instance(src, ab, aid, event) for src, ab, aid in candidates
                if ab.trigger is not None and ab.trigger(self, src.ref, event)]

    def _index(self) -> LiveIndex:
        """The live-ability index (judge.games.abilities), built again only when what is in play
        has changed since it was built (the state's play generation, see state.py), so it is
        never stale; it is kept on the state object."""
        st = self.state
        gen = st.gen.value
        cached: LiveIndex | None = st.live_index
        if SHORTCUTS and cached is not None and cached.gen == gen and cached.cards is self.cards:
            return cached
        # the cards that add something to the index: triggered or constant abilities, or a keyword
        # printed, whose ability goes to them; while a live constant ability grants keywords, every
        # card of a keyword's type gets its ability (its trigger asks whether the card has it)
        timed = timed_codes(self.cards)
        granting = codes_with(self.cards, "constant:keywords")
        cards = self.cards
        table = cards.cards
        in_play = self._in_play()
        live: list[tuple[str, str, str]] = []
        grants = False
        for item in in_play:
            code = item[1]
            card = table.get(code)
            if card is None:
                card = self.card(code)  # (raises: a card the engine does not know)
            if code in granting:
                grants = True
            if code in timed or card.keywords:
                live.append(item)
        if grants:
            live = in_play

        def sources() -> list[Source]:
            return [Source(ref, code, pid, cards.cards[code]) for ref, code, pid in live]

        # the same cards in play give the same index: shared, with what it has answered so far
        index = build_shared(gen, cards, (grants, tuple(live)), sources,
                             _granted_keywords if grants else _printed_keywords)
        st.live_index = index
        return index


    def _instance(self, src: Source, ab: Ability, aid: str, event: Event | None) -> Triggered:
        effect = ab.effect

        def run() -> None:
            if effect is not None:
                effect(self, src.ref, event)

        return Triggered(aid, src.ref, src.controller, ab.timing,
                         ab.text, run, ab.optional, ab.rules)

    # ------------------------------------------------------------------ performing events
    def perform(self, event: Event) -> bool:
        return perform_event(self, event)

    def emit(self, event: Event) -> bool:
        """An event through the kernel's pipeline. When no live ability could replace it, interrupt
        it or follow it (most events), it is simply performed: the pipeline would do the same; when
        only after-abilities may follow it, it is performed and they are queued, as the pipeline would."""
        if SHORTCUTS:
            st = self.state
            # (self._index(), read inline on this hot path; the state keeps it untyped: typed here,
            # the compiled engine reads its fields directly, not by name)
            index: LiveIndex | None = st.live_index
            if index is None or index.gen != st.gen.value or index.cards is not self.cards:
                index = self._index()
            kind = type(event)
            quiet = index.quiet_types.get(kind)
            if quiet is None:
                quiet = index.quiet(kind)
            if quiet:
                if not perform_event(self, event):
                    return False
                if index.gen != st.gen.value or self.left_play:  # cards entered or left play: they may answer
                    afters = self.afters(event)  # (Kernel.queue_afters; the pipeline made only when one does)
                    if afters:
                        self.kernel.queue_triggered(event, afters)
                return True
            calm = index.calm_types.get(kind)
            if calm is None:
                calm = index.calm(kind)
            if calm:  # only after-abilities may answer: the pipeline's own steps then, without it
                if not perform_event(self, event):
                    return False
                afters = self.afters(event)
                if afters:
                    self.kernel.queue_triggered(event, afters)
                return True
        return self.kernel.emit(event)

    # ------------------------------------------------------------------ outcomes and choices
    def choose(self, by: str, kind: str, options: Sequence[Any], rules: Sequence[str], prompt: str = "",
               source: str | None = None, optional: bool = False) -> Any:
        """A choice among ``options``; one option and no way to decline is taken without asking."""
        opts = tuple(options)
        if not opts:
            return None
        if len(opts) == 1 and not optional:
            # a forced choice is taken without asking; a log that writes it anyway is fine
            nxt = self.inputs.peek_choice()
            if nxt is not None and nxt.kind == kind and _same(nxt.answer, opts[0]) and (nxt.by or by) == by:
                self.inputs.skip_choice()
            return opts[0]
        return self.decide(Decision(by, kind, opts, tuple(rules), prompt,
                                    source))

    def may(self, by: str, prompt: str, source: str | None = None,
            rules: Sequence[str] = ("destiny.abilities.resolve-fully",)) -> bool:
        return bool(self.decide(Decision(by, "may", (True, False), tuple(rules),
                                         prompt, source)))

    def opponent(self, pid: str, source: str | None = None, prompt: str = "") -> str:
        """The opponent an ability affects (destiny.multiplayer.choose-opponent)."""
        prompt = prompt or Msg(N_("which opponent"))
        opps = self.state.opponents(pid)
        if not opps:
            raise IllegalAction("destiny.multiplayer.choose-opponent", Msg(N_("{pid} has no opponent left"), pid=pid))
        return str(self.choose(pid, "opponent", opps, ("destiny.multiplayer.choose-opponent",), prompt, source))

    def roll_die(self, die: str) -> Face:
        """The face a die lands on: the log's next ``roll`` entry, else the rng."""
        r = self.cards.refs.get(die)  # (die_faces, inline: a die's code is its card's)
        card = self.cards.cards.get(r.code) if r is not None else None
        faces = card.faces if card is not None else self.die_faces(die)
        inputs = self.inputs  # (inputs.next_roll, inline)
        raw: str | None = None
        if inputs.ri < len(inputs.inputs.roll):
            raw = inputs.inputs.roll[inputs.ri]
            inputs.ri += 1
        if raw is not None:
            try:
                face = parse_face(raw)
            except FaceError as exc:
                raise IllegalAction("destiny.cards.die-faces", Msg(
                    N_("roll {n} for {die}: {exc}"),
                    n=self.inputs.ri, die=die, exc=exc,
                )) from None
            if face not in faces:
                raise IllegalAction("destiny.cards.die-faces", Msg(
                    N_("{die} has no face {raw} (its faces: {faces})"),
                    die=die, raw=raw, faces=' '.join(f.notation() for f in faces),
                ))
            return face
        if self.rng is not None:
            return faces[self.rng.below(6)]
        raise MissingOutcome(Msg(
            N_("the log does not say what {die} rolled (roll {n} of this step) and has no rng"),
            die=die, n=self.inputs.ri + 1,
        ), "destiny.actions.activate")

    def random_pick(self, items: list[str], what: str, reveal: list[str] | None = None) -> int:
        """The index of a random pick among ``items``: from the log's ``random`` list, else the rng.
        A card the log names that ``items`` holds only as an unnamed card is that card: with
        ``reveal`` (the zone ``items`` was copied from), the zone's card is named so."""
        raw = self.inputs.next_random()
        if raw is not NOTHING:
            if isinstance(raw, int) and not isinstance(raw, bool) and 0 <= raw < len(items):
                return raw
            if isinstance(raw, str) and raw in items:
                return items.index(raw)
            if isinstance(raw, str) and UNKNOWN in items and (reveal is None or raw in self.cards):
                i = items.index(UNKNOWN)
                if reveal is not None:
                    reveal[i] = raw
                return i
            raise IllegalAction("destiny.symbols.discard", Msg(
                N_("random outcome {raw!r} for {what} is not among {items}"),
                raw=raw, what=what, items=items,
            ))
        if self.rng is not None:
            return self.rng.below(len(items))
        raise MissingOutcome(Msg(
            N_("the log does not say which card was picked at random for {what} and has no rng"),
            what=what,
        ),
                             "destiny.symbols.discard")

    def check_inputs_used(self) -> None:
        """Every logged outcome and choice of a step must have been used: a roll for a die that
        was not rolled, or an answer to a question the rules never asked, means the log describes
        something else than what happened."""
        left = self.inputs.unused()
        if left is None:
            return
        got = self.inputs.inputs
        if left == "roll":
            raise IllegalAction("destiny.actions.activate-all-dice",
                                Msg(
                                    N_("the step lists {n_roll} rolled face(s) but only {n_rolled} die/dice were "
                                       "rolled"),
                                    n_roll=len(got.roll), n_rolled=self.inputs.ri,
                                ))
        if left == "random":
            raise IllegalAction("destiny.symbols.discard", Msg(
                N_("the step lists {n_random} random outcome(s) but only {n_needed} were needed"),
                n_random=len(got.random), n_needed=self.inputs.xi,
            ))
        extra = got.choices[self.inputs.ci]
        raise IllegalAction("destiny.terms.choose-option", Msg(
            N_("choice {n} ({kind}) answers a question the rules did not ask in this step"),
            n=self.inputs.ci + 1, kind=extra.kind or Msg(N_("unnamed")),
        ))

    # ------------------------------------------------------------------ verbs for abilities
    def deal_damage(self, source: str, target: str, amount: int, symbol: str | None = None,
                    unblockable: bool = False) -> None:
        self._not_a_die(target, "destiny.symbols.damage-one-target")
        target = self.canon(target)
        if target in self.owner(target).supports:
            raise IllegalAction("destiny.supports.no-damage", Msg(
                N_("{target} is a support: supports cannot take damage"),
                target=target,
            ))
        self.character(target)
        if amount <= 0:
            return
        self.emit(ev.Damage(source, target, amount, symbol, unblockable))

    def give_shields(self, source: str, target: str, amount: int) -> None:
        self._not_a_die(target, "destiny.symbols.shield")
        target = self.canon(target)
        self.character(target)
        if amount > 0:
            self.emit(ev.GainShields(source, target, amount))

    def remove_shields(self, source: str, target: str, amount: int) -> None:
        ch = self.character(target)
        if amount > 0 and ch.shields > 0:
            self.emit(ev.RemoveShields(source, ch.ref, min(amount, ch.shields)))

    def heal(self, source: str, target: str, amount: int) -> None:
        ch = self.character(target)
        if amount > 0:
            self.emit(ev.Heal(source, ch.ref, amount))

    def gain(self, source: str, pid: str, amount: int) -> None:
        if amount > 0:
            self.emit(ev.GainResources(source, pid, amount))

    def lose(self, source: str, pid: str, amount: int) -> None:
        if amount > 0:
            self.emit(ev.LoseResources(source, pid, amount))

    def spend(self, pid: str, amount: int, rule: str, what: str) -> None:
        p = self.player(pid)
        if amount <= 0:
            return
        if p.resources < amount:
            raise IllegalAction(rule, Msg(
                N_("{pid} has {resources} resources and cannot pay {amount} for {what}"),
                pid=pid, resources=p.resources, amount=amount, what=what,
            ))
        p.resources -= amount
        if self.recording:
            self.records.append(rec.SpendRecord(pid, amount, what, (rule,)))

    def draw(self, source: str, pid: str, amount: int) -> None:
        if amount > 0:
            self.emit(ev.Draw(source, pid, amount))

    def discard_random(self, source: str, pid: str, amount: int) -> None:
        p = self.player(pid)
        for _ in range(min(amount, len(p.hand))):
            i = self.random_pick(list(p.hand), f"{pid}'s discard", reveal=p.hand)
            if p.hand[i] == UNKNOWN:  # the card picked goes to the public pile (destiny.symbols.discard)
                raise self.unnamed_to_discard(pid, "hand", "destiny.symbols.discard")
            self.emit(ev.DiscardFromHand(source, pid, p.hand[i], True))

    def reroll(self, source: str, dice: Sequence[str]) -> None:
        dice = tuple([self.canon_die(d) for d in dice])  # (a list made, not a generator run: cheaper)
        for d in dice:
            self.pool_face(d)
        if dice:
            self.emit(ev.Reroll(source, dice))

    def turn_die(self, source: str, die: str, face: str | Face) -> None:
        die = self.canon_die(die)
        current = self.pool_face(die)
        f = face if isinstance(face, Face) else _parse_face_or_illegal(face)
        faces = self.die_faces(die)
        if f not in faces:
            raise IllegalAction("destiny.terms.turn-die", Msg(
                N_("{die} has no face {notation}"),
                die=die, notation=f.notation(),
            ))
        if f == current and faces.count(f) < 2:
            raise IllegalAction("destiny.terms.turn-die", Msg(
                N_("{die} already shows {notation}: a die is turned to a different face unless that face repeats"),
                die=die, notation=f.notation(),
            ))
        self.emit(ev.TurnDie(source, die, f.notation()))

    def remove_die(self, source: str, die: str) -> None:
        die = self.canon_die(die)
        self.pool_face(die)
        self.emit(ev.RemoveDie(source, die))

    def activate(self, pid: str, ref: str, source: str | None = None) -> None:
        ref = self.canon(ref)
        self.check_activate(pid, ref)
        self.emit(ev.Activate(pid, ref))

    def grant_extra_action(self, pid: str, rule: str) -> None:
        """``pid`` may take an extra action now; one given while another waits comes after it: each
        is taken or passed in turn (destiny.actions.extra-actions-immediate; the FAQ's Rey with an
        Ambush upgrade: two additional actions)."""
        st = self.state
        if st.extra_action == pid:
            st.extra_more += 1
        else:
            st.extra_action = pid
        self.records.append(rec.ExtraActionRecord(pid, (rule, "destiny.actions.extra-actions-immediate")))

    def exhaust(self, source: str, ref: str) -> None:
        """Exhaust a ready character, support or upgrade, as a cost or an effect
        (destiny.cards.exhaust-usage); an exhausted card cannot be exhausted again."""
        ref = self.canon(ref)
        p = self.owner(ref)
        card = p.characters.get(ref) or p.supports.get(ref) or p.upgrades.get(ref)
        if card is None:
            raise IllegalAction("destiny.cards.exhaust-usage", Msg(N_("{ref} is not a card in play"), ref=ref))
        if card.exhausted:
            raise IllegalAction("destiny.cards.exhaust-usage", Msg(N_("{ref} is already exhausted"), ref=ref))
        card.exhausted = True
        self.records.append(rec.ExhaustRecord(ref, source,
                                      ("destiny.cards.exhaust-usage", "destiny.cards.exhausted")))

    def give_battlefield(self, source: str, pid: str) -> None:
        """Give control of the battlefield to ``pid`` without claiming it
        (destiny.battlefields.single-controller)."""
        self.player(pid)
        before = self.state.controller
        self.state.controller = pid
        self.records.append(rec.BattlefieldControlRecord(before, pid, source,
                                                 ("destiny.battlefields.single-controller",)))

    def delay(self, d: Delayed) -> None:
        self.state.delayed.append(d)
        self.records.append(rec.DelayedRecord(d.kind, d.target, d.when,
                                      ("destiny.delayed.definition",)))

    # -- verbs for card effects that move cards, dice and damage (added for the Awakenings cards)
    def discard_from_play(self, source: str, ref: str, rule: str = "destiny.zones.discard-pile") -> None:
        """Discard an upgrade or support from play; its die leaves with it (destiny.dice.leave-with-card)."""
        ref = self.canon(ref)
        p = self.owner(ref)
        if ref in p.upgrades:
            leave_play_upgrade(self, p, ref, to_discard=True)
        elif ref in p.supports:
            su = p.supports.pop(ref)
            for n in range(1, su.dice + 1):
                p.pool.pop(f"{ref}/{n}", None)
            p.discard.append(su.code)
        else:
            return
        self.records.append(rec.DiscardedFromPlayRecord(ref, source,
                                                (rule, "destiny.dice.leave-with-card")))

    def put_in_pool(self, source: str, pid: str, die: str, face: Face | None = None,
                    rule: str = "destiny.zones.dice-pool") -> Face:
        """Roll a die into ``pid``'s pool (or place it showing ``face``) by a card effect."""
        f = face if face is not None else self.roll_die(die)
        self.player(pid).pool[die] = f
        self.records.append(rec.IntoPoolRecord(pid, die, f.notation(), source,
                                       (rule, "destiny.zones.dice-pool")))
        return f

    def move_damage(self, source: str, frm: str, to: str, amount: int) -> int:
        """Move damage tokens between characters: shields are ignored and the recipient is not
        considered to have taken damage (destiny.terms.move-damage); it may be defeated."""
        a, b = self.character(frm), self.character(to)
        if a.ref == b.ref:
            raise IllegalAction("destiny.terms.move", Msg(N_("damage cannot move to the character it is on")))
        health = self.card(b.code).health or 0
        n = min(amount, a.damage, max(0, health - b.damage))
        a.damage -= n
        b.damage += n
        self.records.append(rec.MoveDamageRecord(source, a.ref, b.ref, n,
                                         ("destiny.terms.move", "destiny.terms.move-damage")))
        if health and b.damage >= health:
            self.emit(ev.Defeat(b.ref, source))
        return n

    def move_card(self, source: str, pid: str, frm: str, to: str, code: str | None = None) -> str | None:
        """Move one card between ``pid``'s hand, deck and discard pile (``code`` None: the deck's top
        card). A card goes onto the top of a deck. Returns the code moved, or None."""
        p = self.player(pid)
        zones = {"hand": p.hand, "deck": p.deck, "discard": p.discard}
        src, dst = zones[frm], zones[to]
        if code is None:
            if not src:
                return None
            code = src[0] if frm == "deck" else src[-1]
        if code not in src:
            raise IllegalAction("destiny.terms.choose-target", Msg(
                N_("{code} is not in {pid}'s {frm}"),
                code=code, pid=pid, frm=frm,
            ))
        if code == UNKNOWN and to == "discard":
            raise self.unnamed_to_discard(pid, frm, "destiny.zones.deck")
        src.remove(code)
        if to == "deck":
            dst.insert(0, code)
        else:
            dst.append(code)
        rule = "destiny.zones.deck" if "deck" in (frm, to) else "destiny.zones.discard-pile"
        self.records.append(rec.MoveCardRecord(pid, code, frm, to, source, (rule,)))
        return code

    def unnamed_to_discard(self, pid: str, frm: str, rule: str) -> MissingOutcome:
        """No ruling: a card of ``pid``'s ``frm`` (hand or deck) that the position does not name
        would go to the public discard pile (destiny.zones.discard-pile), so the judge must list
        those cards. ``rule``: the rule that moves the card."""
        return MissingOutcome(Msg(
            N_("{pid}'s {frm} holds a card the position does not name, and it goes to the public discard "
               "pile: list the cards in the position"),
            pid=pid, frm=frm,
        ), rule)

    def upgrade_becomes_support(self, source: str, ref: str) -> None:
        """An upgrade leaves its character and stays in play as a ready support, its die with it."""
        ref = self.canon(ref)
        p = self.owner(ref)
        up = p.upgrades.pop(ref, None)
        if up is None:
            return
        host = p.characters.get(up.on)
        if host and ref in host.upgrades:
            host.upgrades.remove(ref)
        p.supports[ref] = Support(ref, up.code, False, 1 if self.card(up.code).has_die else 0)
        self.records.append(rec.BecomesSupportRecord(ref, up.on, source,
                                             ("destiny.supports.play", "destiny.cards.enter-ready")))

    def dice_of(self, ref: str) -> list[str]:
        """The dice an activation of ``ref`` rolls: character dice, then upgrade dice in the order the
        upgrades were attached (destiny.actions.activate-all-dice); a support's own dice."""
        ref = self.canon(ref)
        p = self.owner(ref)
        if ref in p.characters:
            ch = p.characters[ref]
            out = [f"{ref}/{n}" for n in range(1, ch.dice + 1)]
            for up in ch.upgrades:
                if self.card(self.code_of(up)).has_die:
                    out.append(f"{up}/1")
            return out
        if ref in p.supports:
            return [f"{ref}/{n}" for n in range(1, p.supports[ref].dice + 1)]
        return []

    # ------------------------------------------------------------------ rules checks
    def check_activate(self, pid: str, ref: str) -> None:
        p = self.player(pid)
        if ref in p.characters:
            ch = p.characters[ref]
            if ch.defeated:
                raise IllegalAction("destiny.defeat.no-further-use", Msg(N_("{ref} is defeated"), ref=ref))
            if ch.exhausted:
                raise IllegalAction("destiny.actions.activate-ready-only", Msg(N_("{ref} is exhausted"), ref=ref))
        elif ref in p.supports:
            su = p.supports[ref]
            if su.exhausted:
                raise IllegalAction("destiny.actions.activate-ready-only", Msg(N_("{ref} is exhausted"), ref=ref))
            if not self.card(su.code).has_die:
                raise IllegalAction("destiny.actions.activate-ready-only", Msg(
                    N_("{ref} has no die to activate"),
                    ref=ref,
                ))
        else:
            raise IllegalAction("destiny.actions.activate", Msg(
                N_("{pid} has no character or support {ref} in play"),
                pid=pid, ref=ref,
            ))

    # ------------------------------------------------------------------ dice resolution








    # ------------------------------------------------------------------ replay helpers
    def not_implemented(self, code: str, what: str, fatal: bool = True) -> None:
        """Say that a card's text is not implemented: fatal where it would change the game now,
        a warning on the ruling where it only may matter later (a card entering play)."""
        card = self.card(code)
        message = f"{card.name}: {what} is not implemented by the engine" + (
            "" if fatal else "; later effects of this card are not applied")
        self.records.append(rec.NotImplementedRecord(code, message,
                                                     ("destiny.general.golden-rule",)))
        if fatal:
            raise NotImplementedCard(code, card.name, what, card.unimplemented)




def _granted_keywords(src: Source) -> tuple[Ability, ...]:
    """Every character carries Guardian's ability and every upgrade Redeploy's (each live only
    while the card has the keyword: its trigger asks)."""
    return KEYWORD_ABILITIES.get(src.card.type, ())


def _printed_keywords(src: Source) -> tuple[Ability, ...]:
    """The keyword abilities of the keywords printed on the card (when nothing grants any)."""
    if not src.card.keywords:
        return ()
    abilities = KEYWORD_ABILITIES.get(src.card.type, ())
    return tuple(ab for ab in abilities if ab.keyword in src.card.keywords) if abilities else ()


def _same(a: Any, b: Any) -> bool:
    """Equal JSON values (a logged answer and an option), never raising on unlike types."""
    try:
        return bool(a == b)
    except Exception:  # pragma: no cover - JSON values compare without raising
        return False


def _parse_face_or_illegal(text: Any) -> Face:
    try:
        return parse_face(text)
    except FaceError as exc:
        raise IllegalAction("destiny.terms.turn-die", str(exc)) from None


# ====================================================================== performing events


































# ====================================================================== keywords














# ====================================================================== playing cards




