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
from dataclasses import dataclass
from typing import Any, ClassVar

from judge.games.destiny import events as ev
from judge.games.destiny.dice import Face, FaceError, parse_face
from judge.games.destiny.model import Ability, CardDef, CardPool, CardType
from judge.games.destiny.refs import card_of_die, parse_ref
from judge.games.destiny.state import (
    UNKNOWN,
    Character,
    Delayed,
    GameState,
    Player,
    Support,
    Upgrade,
)
from judge.games.destiny.steps import DieEntry
from judge.games.inputs import NO_INPUTS, NOTHING, InputReader, Inputs
from judge.kernel.core import (
    Decision,
    Event,
    IllegalAction,
    Kernel,
    MissingOutcome,
    PendingDecision,
    TimingRules,
    Triggered,
)
from judge.kernel.rng import Rng

HAND_LIMIT = 5
MAX_SHIELDS = 3
MAX_UPGRADES = 3
UPKEEP_RESOURCES = 2

# The engine's shortcuts (the live-ability index kept between steps, the reference memo, events no
# live ability answers performed without the kernel's pipeline). They must never change a ruling:
# tests/judge/destiny/test_fast_paths.py switches them off and compares.
SHORTCUTS = True

Policy = Callable[["Ctx", Decision], Any]


class GameOver(Exception):
    """Raised inside a step when the game ends; the step stops there."""


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


@dataclass
class Source:
    """A card in play whose abilities are live."""

    ref: str
    code: str
    controller: str
    card: CardDef


# The live-ability index kept on a state (Ctx._index): play generation, card pool, live abilities
# by timing, trigger candidates by (timing, event type), and event types no live ability answers.
LiveIndex = tuple[int, CardPool, dict[str, list[tuple["Source", tuple[Ability, ...]]]],
                  dict[tuple[str, type], list[tuple["Source", Ability, str]]], dict[type, bool]]


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


class Ctx:
    timing_rules: ClassVar[TimingRules] = TIMING_RULES
    __deletable__ = ("kernel",)  # see close() (mypyc needs to be told)

    def __init__(self, state: GameState, cards: CardPool, action: Any = None, inputs: Inputs = NO_INPUTS,
                 rng: Rng | None = None, policy: Policy | None = None):
        self.state = state
        self.cards = cards
        self.step = action  # the typed action being applied (steps.DestinyAction), None in setup
        self.rng = rng
        self.policy = policy
        self.kernel = Kernel(self)
        self.events: list[dict[str, Any]] = []
        self.decisions: list[dict[str, Any]] = []
        self.notes: list[str] = []
        self.unimplemented: list[dict[str, str]] = []
        self.inputs = InputReader(inputs)  # the step's logged outcomes and choices, read in order
        self.written_choices: list[dict[str, Any]] = []
        self.special_rerolled: set[str] = set()
        self.redeploy_candidates: list[Source] = []
        self.last_known_host: dict[str, str] = {}  # upgrades that left play this step -> their character
        self.current_entry: DieEntry | None = None
        self.cost_reduction = 0  # a reduction waiting for the next card played
        self.resolving_free = False

    def close(self) -> None:
        """Done with this step: break the context <-> kernel reference cycle, so the context is
        freed at once rather than by the cyclic garbage collector (whose passes cost a replay
        about a tenth of its time)."""
        del self.kernel

    # ------------------------------------------------------------------ lookups
    def card(self, code: str) -> CardDef:
        card = self.cards.get(code)
        if card is None:
            raise IllegalAction("destiny.cards.identifier", f"card {code} is not known to the engine")
        return card

    def player(self, pid: str) -> Player:
        if pid not in self.state.players:
            raise IllegalAction("destiny.terms.controller", f"there is no player {pid}")
        return self.state.players[pid]

    def owner_of(self, ref: str) -> str:
        r = parse_ref(ref)
        if r is None:
            raise IllegalAction("destiny.terms.controller", f"'{ref}' is not a reference to a card or die")
        return r.player

    def canon(self, ref: str) -> str:
        """A card reference as the state writes it: upgrades and supports always with ``#n``.
        Depends only on what is in play, so answers are kept for the play generation."""
        memo: tuple[int, dict[str, str]] | None = self.state.canon_memo
        gen = self.state.gen.value
        if memo is None or memo[0] != gen or not SHORTCUTS:
            memo = (gen, {})
            self.state.canon_memo = memo
        out = memo[1].get(ref)
        if out is None:
            out = memo[1][ref] = self._canon(ref)
        return out

    def _canon(self, ref: str) -> str:
        r = parse_ref(ref)
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
                                    f"'{ref}' is ambiguous: {', '.join(matches)} are in play")
            return base
        if r.serial == 1 and base in p.characters:
            return base
        return f"{base}#{r.serial}"

    def canon_die(self, ref: str) -> str:
        if "/" not in ref:
            raise IllegalAction("destiny.dice.pool-only", f"'{ref}' is not a die (write it as <card>/<n>)")
        card, n = ref.rsplit("/", 1)
        return f"{self.canon(card)}/{n}"

    def character(self, ref: str, alive: bool = True) -> Character:
        ref = self.canon(ref)
        owner = self.owner_of(ref)
        ch = self.player(owner).characters.get(ref)
        if ch is None:
            raise IllegalAction("destiny.terms.choose-target", f"{ref} is not a character in play")
        if alive and ch.defeated:
            raise IllegalAction("destiny.defeat.no-further-use", f"{ref} is defeated and cannot be chosen")
        return ch

    def code_of(self, ref: str) -> str:
        r = parse_ref(ref)
        if r is None:
            raise IllegalAction("destiny.cards.identifier", f"'{ref}' is not a card reference")
        return r.code

    def die_faces(self, die: str) -> tuple[Face, ...]:
        return self.card(self.code_of(card_of_die(die))).faces

    def die_owner(self, die: str) -> str:
        return self.owner_of(die)

    def pool_face(self, die: str) -> Face:
        die = self.canon_die(die)
        owner = self.die_owner(die)
        face = self.player(owner).pool.get(die)
        if face is None:
            raise IllegalAction("destiny.dice.pool-only", f"die {die} is not in a dice pool")
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
        self.note({"event": "x-value", "die": die, "value": value, "rules": ["destiny.terms.x"]})
        return max(0, value)

    def all_pool_dice(self) -> list[tuple[str, str, Face]]:
        return [(pid, d, f) for pid, p in self.state.players.items() for d, f in p.pool.items()]

    def sources(self) -> Iterator[Source]:
        """Every card in play whose abilities are live (destiny.abilities.when-active)."""
        st = self.state
        for pid, p in st.players.items():
            if p.eliminated:  # everything of an eliminated player left the game
                continue
            for ref, ch in p.characters.items():
                if not ch.defeated:
                    yield Source(ref, ch.code, pid, self.card(ch.code))
            for ref, up in p.upgrades.items():
                yield Source(ref, up.code, pid, self.card(up.code))
            for ref, su in p.supports.items():
                yield Source(ref, su.code, pid, self.card(su.code))
        if st.battlefield and st.controller:
            yield Source(f"{st.controller}.{st.battlefield}", st.battlefield, st.controller,
                         self.card(st.battlefield))

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
        live = self._index()[2]
        for src, abilities in live.get("constant:" + name, ()):
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
        gained = self.query("keywords", subject, set(card.keywords))
        lost = self.query("keywords_lost", subject, set())
        return frozenset(gained) - frozenset(lost)

    def forbidden(self, verb: str, pid: str, subject: Any) -> str | None:
        """The text of a live "cannot" effect that forbids ``pid`` to ``verb`` (play, activate,
        use, claim, resolve, reroll) with ``subject``, or None. Such effects are asked one by one
        and any one of them forbids: no "can" or "ignore restrictions" effect lifts a "cannot"
        (destiny.negative.cannot-overrides-can)."""
        live = self._index()[2]
        for src, abilities in live.get("constant:forbid", ()):
            for ab in abilities:
                if ab.modify is not None and ab.modify(self, src.ref, (verb, pid, subject), False):
                    return f"{src.ref}: {ab.text}"
        return None

    def hand_limit(self, pid: str) -> int:
        return int(self.query("hand_limit", pid, HAND_LIMIT))

    def battlefield_controller(self) -> str:
        return self.state.controller or self.state.seats()[0]

    # ------------------------------------------------------------------ kernel host
    def record(self, payload: dict[str, Any]) -> None:
        self.events.append(payload)

    def chooser_for(self, triggers: Sequence[Triggered]) -> tuple[str, str]:
        return self.battlefield_controller(), "destiny.timing.simultaneous-battlefield-controller"

    def decide(self, decision: Decision) -> Any:
        """Answer a decision from the step's ``choices`` (in order), else the policy, else stop."""
        choice = self.inputs.next_choice()
        if choice is not None:
            by, kind = choice.by, choice.kind
            if by is not None and by != decision.by:
                raise IllegalAction(decision.rules[0], f"{decision.by} makes this decision ({decision.kind}), "
                                    f"not {by}")
            if kind is not None and kind != decision.kind:
                raise IllegalAction(decision.rules[0], f"the engine asks for a '{decision.kind}' decision "
                                    f"here, the log gives '{kind}'")
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
            if not isinstance(answer, list):
                raise IllegalAction(rule, f"an order is a list of {list(decision.options)}")
            return
        if decision.multiple:
            return  # checked by the asker, which knows the amounts
        if answer not in decision.options:
            raise IllegalAction(rule, f"'{answer}' is not one of the options {list(decision.options)}")

    def replacements(self, event: Event) -> list[Triggered]:
        return self._triggers(event, "instead")

    def befores(self, event: Event) -> list[Triggered]:
        out = self._triggers(event, "before")
        if isinstance(event, ev.Activate):
            out.extend(_guardian(self, event))
        return out

    def afters(self, event: Event) -> list[Triggered]:
        out = self._triggers(event, "after")
        if isinstance(event, ev.Defeat):
            out.extend(_redeploy(self, event))
        return out

    def _triggers(self, event: Event, timing: str) -> list[Triggered]:
        cached = self._index()
        by_event = cached[3]
        key = (timing, type(event))
        candidates = by_event.get(key)
        if candidates is None:
            candidates = by_event[key] = _candidates(cached[2].get(timing, ()), type(event))
        if not candidates:
            return []
        return [self._instance(src, ab, aid, event) for src, ab, aid in candidates
                if ab.trigger is not None and ab.trigger(self, src.ref, event)]

    def _index(self) -> LiveIndex:
        """The live-ability index: (play generation, card pool, live abilities by timing,
        candidates by (timing, event type), whether no live ability answers an event type).
        Built again only when what is in play has changed since it was built (the play
        generation, see state.py), so it is never stale; it is kept on the state object."""
        st = self.state
        gen = self.state.gen.value
        cached: LiveIndex | None = st.live_index
        if SHORTCUTS and cached is not None and cached[0] == gen and cached[1] is self.cards:
            return cached
        live: dict[str, list[tuple[Source, tuple[Ability, ...]]]] = {}
        timed = self._timed_codes()
        for pid, p in st.players.items():
            if p.eliminated:
                continue
            for table in (p.characters, p.upgrades, p.supports):
                for ref, obj in table.items():
                    by_timing = timed.get(obj.code)
                    if by_timing is None or getattr(obj, "defeated", False):
                        continue
                    src = Source(ref, obj.code, pid, self.card(obj.code))
                    for timing, abilities in by_timing.items():
                        live.setdefault(timing, []).append((src, abilities))
        if st.battlefield and st.controller and st.battlefield in timed:
            src = Source(f"{st.controller}.{st.battlefield}", st.battlefield, st.controller,
                         self.card(st.battlefield))
            for timing, abilities in timed[st.battlefield].items():
                live.setdefault(timing, []).append((src, abilities))
        index: LiveIndex = (gen, self.cards, live, {}, {})
        st.live_index = index
        return index

    def _timed_codes(self) -> dict[str, dict[str, tuple[Ability, ...]]]:
        """Codes of the pool's cards that have triggered abilities, with them by timing."""
        cached = self.cards.timed_cache
        if cached is None or cached[0] != len(self.cards):
            table = {code: timed for code, card in self.cards.cards.items() if (timed := _timed(card))}
            cached = (len(self.cards), table)
            self.cards.timed_cache = cached
        return cached[1]

    def _instance(self, src: Source, ab: Ability, aid: str, event: Event | None) -> Triggered:
        effect = ab.effect

        def run() -> None:
            if effect is not None:
                effect(self, src.ref, event)

        return Triggered(ability_id=aid, source=src.ref, controller=src.controller, timing=ab.timing,
                         text=ab.text, run=run, optional=ab.optional, rules=ab.rules)

    # ------------------------------------------------------------------ performing events
    def perform(self, event: Event) -> bool:
        handler = _PERFORM.get(type(event))
        if handler is None:  # pragma: no cover - every event type has a handler
            raise RuntimeError(f"no handler for {type(event).__name__}")
        return handler(self, event)

    def emit(self, event: Event) -> bool:
        """An event through the kernel's pipeline. When no live ability could replace it or
        trigger on it (most events), it is simply performed: the pipeline would do the same."""
        t = type(event)
        if SHORTCUTS and t is not ev.Activate and t is not ev.Defeat:  # Guardian, Redeploy: asked each time
            cached = self._index()
            quiet = cached[4].get(t)
            if quiet is None:
                by_event, live = cached[3], cached[2]
                quiet = True
                for timing in ("instead", "before", "after"):
                    key = (timing, t)
                    if key not in by_event:
                        by_event[key] = _candidates(live.get(timing, ()), t)
                    quiet = quiet and not by_event[key]
                cached[4][t] = quiet
            if quiet:
                if not self.perform(event):
                    return False
                if cached[0] != self.state.gen.value:  # cards entered or left play: a card just played may answer
                    self.kernel.queue_afters(event)
                return True
        return self.kernel.emit(event)

    def note(self, payload: dict[str, Any]) -> None:
        self.events.append(payload)

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
        return self.decide(Decision(by=by, kind=kind, options=opts, rules=tuple(rules), prompt=prompt,
                                    source=source))

    def may(self, by: str, prompt: str, source: str | None = None,
            rules: Sequence[str] = ("destiny.abilities.resolve-fully",)) -> bool:
        return bool(self.decide(Decision(by=by, kind="may", options=(True, False), rules=tuple(rules),
                                         prompt=prompt, source=source)))

    def opponent(self, pid: str, source: str | None = None, prompt: str = "which opponent") -> str:
        """The opponent an ability affects (destiny.multiplayer.choose-opponent)."""
        opps = self.state.opponents(pid)
        if not opps:
            raise IllegalAction("destiny.multiplayer.choose-opponent", f"{pid} has no opponent left")
        return str(self.choose(pid, "opponent", opps, ("destiny.multiplayer.choose-opponent",), prompt, source))

    def roll_die(self, die: str) -> Face:
        """The face a die lands on: the log's next ``roll`` entry, else the rng."""
        faces = self.die_faces(die)
        raw = self.inputs.next_roll()
        if raw is not None:
            try:
                face = parse_face(raw)
            except FaceError as exc:
                raise IllegalAction("destiny.cards.die-faces", f"roll {self.inputs.ri} for {die}: {exc}") from None
            if face not in faces:
                raise IllegalAction("destiny.cards.die-faces", f"{die} has no face {raw} (its faces: "
                                    f"{' '.join(f.notation() for f in faces)})")
            return face
        if self.rng is not None:
            return faces[self.rng.below(6)]
        raise MissingOutcome(f"the log does not say what {die} rolled (roll {self.inputs.ri + 1} of this step) "
                             "and has no rng", "destiny.actions.activate")

    def random_pick(self, items: list[str], what: str) -> int:
        """The index of a random pick among ``items``: from the log's ``random`` list, else the rng."""
        raw = self.inputs.next_random()
        if raw is not NOTHING:
            if isinstance(raw, int) and not isinstance(raw, bool) and 0 <= raw < len(items):
                return raw
            if isinstance(raw, str) and raw in items:
                return items.index(raw)
            if isinstance(raw, str) and UNKNOWN in items:
                return items.index(UNKNOWN)
            raise IllegalAction("destiny.symbols.discard", f"random outcome {raw!r} for {what} is not among "
                                f"{items}")
        if self.rng is not None:
            return self.rng.below(len(items))
        raise MissingOutcome(f"the log does not say which card was picked at random for {what} and has no rng",
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
                                f"the step lists {len(got.roll)} rolled face(s) but only {self.inputs.ri} "
                                "die/dice were rolled")
        if left == "random":
            raise IllegalAction("destiny.symbols.discard", f"the step lists {len(got.random)} random outcome(s) "
                                f"but only {self.inputs.xi} were needed")
        extra = got.choices[self.inputs.ci]
        raise IllegalAction("destiny.terms.choose-option", f"choice {self.inputs.ci + 1} ({extra.kind or 'unnamed'}) "
                            "answers a question the rules did not ask in this step")

    # ------------------------------------------------------------------ verbs for abilities
    def deal_damage(self, source: str, target: str, amount: int, symbol: str | None = None,
                    unblockable: bool = False) -> None:
        target = self.canon(target)
        if target in self.player(self.owner_of(target)).supports:
            raise IllegalAction("destiny.supports.no-damage", f"{target} is a support: supports cannot take damage")
        self.character(target)
        if amount <= 0:
            return
        self.emit(ev.Damage(source=source, target=target, amount=amount, symbol=symbol, unblockable=unblockable))

    def give_shields(self, source: str, target: str, amount: int) -> None:
        target = self.canon(target)
        self.character(target)
        if amount > 0:
            self.emit(ev.GainShields(source=source, target=target, amount=amount))

    def remove_shields(self, source: str, target: str, amount: int) -> None:
        ch = self.character(target)
        if amount > 0 and ch.shields > 0:
            self.emit(ev.RemoveShields(source=source, target=ch.ref, amount=min(amount, ch.shields)))

    def heal(self, source: str, target: str, amount: int) -> None:
        ch = self.character(target)
        if amount > 0:
            self.emit(ev.Heal(source=source, target=ch.ref, amount=amount))

    def gain(self, source: str, pid: str, amount: int) -> None:
        if amount > 0:
            self.emit(ev.GainResources(source=source, player=pid, amount=amount))

    def lose(self, source: str, pid: str, amount: int) -> None:
        if amount > 0:
            self.emit(ev.LoseResources(source=source, player=pid, amount=amount))

    def spend(self, pid: str, amount: int, rule: str, what: str) -> None:
        p = self.player(pid)
        if amount <= 0:
            return
        if p.resources < amount:
            raise IllegalAction(rule, f"{pid} has {p.resources} resources and cannot pay {amount} for {what}")
        p.resources -= amount
        self.note({"event": "spend", "player": pid, "amount": amount, "for": what, "rules": [rule]})

    def draw(self, source: str, pid: str, amount: int) -> None:
        if amount > 0:
            self.emit(ev.Draw(source=source, player=pid, amount=amount))

    def discard_random(self, source: str, pid: str, amount: int) -> None:
        p = self.player(pid)
        for _ in range(min(amount, len(p.hand))):
            i = self.random_pick(list(p.hand), f"{pid}'s discard")
            self.emit(ev.DiscardFromHand(source=source, player=pid, card=p.hand[i], random=True))

    def reroll(self, source: str, dice: Sequence[str]) -> None:
        dice = tuple(self.canon_die(d) for d in dice)
        for d in dice:
            self.pool_face(d)
        if dice:
            self.emit(ev.Reroll(source=source, dice=dice))

    def turn_die(self, source: str, die: str, face: str | Face) -> None:
        die = self.canon_die(die)
        current = self.pool_face(die)
        f = face if isinstance(face, Face) else _parse_face_or_illegal(face)
        faces = self.die_faces(die)
        if f not in faces:
            raise IllegalAction("destiny.terms.turn-die", f"{die} has no face {f.notation()}")
        if f == current and faces.count(f) < 2:
            raise IllegalAction("destiny.terms.turn-die", f"{die} already shows {f.notation()}: a die is turned "
                                "to a different face unless that face repeats")
        self.emit(ev.TurnDie(source=source, die=die, face=f.notation()))

    def remove_die(self, source: str, die: str) -> None:
        die = self.canon_die(die)
        self.pool_face(die)
        self.emit(ev.RemoveDie(source=source, die=die))

    def activate(self, pid: str, ref: str, source: str | None = None) -> None:
        ref = self.canon(ref)
        self.check_activate(pid, ref)
        self.emit(ev.Activate(player=pid, card=ref))

    def grant_extra_action(self, pid: str, rule: str) -> None:
        self.state.extra_action = pid
        self.note({"event": "extra-action", "player": pid, "rules": [rule, "destiny.actions.extra-actions-immediate"]})

    def exhaust(self, source: str, ref: str) -> None:
        """Exhaust a ready character, support or upgrade, as a cost or an effect
        (destiny.cards.exhaust-usage); an exhausted card cannot be exhausted again."""
        ref = self.canon(ref)
        p = self.player(self.owner_of(ref))
        card = p.characters.get(ref) or p.supports.get(ref) or p.upgrades.get(ref)
        if card is None:
            raise IllegalAction("destiny.cards.exhaust-usage", f"{ref} is not a card in play")
        if card.exhausted:
            raise IllegalAction("destiny.cards.exhaust-usage", f"{ref} is already exhausted")
        card.exhausted = True
        self.note({"event": "exhaust", "card": ref, "source": source,
                   "rules": ["destiny.cards.exhaust-usage", "destiny.cards.exhausted"]})

    def give_battlefield(self, source: str, pid: str) -> None:
        """Give control of the battlefield to ``pid`` without claiming it
        (destiny.battlefields.single-controller)."""
        self.player(pid)
        before = self.state.controller
        self.state.controller = pid
        self.note({"event": "battlefield-control", "from": before, "to": pid, "source": source,
                   "rules": ["destiny.battlefields.single-controller"]})

    def delay(self, d: Delayed) -> None:
        self.state.delayed.append(d)
        self.note({"event": "delayed", "kind": d.kind, "target": d.target, "when": d.when,
                   "rules": ["destiny.delayed.definition"]})

    # -- verbs for card effects that move cards, dice and damage (added for the Awakenings cards)
    def discard_from_play(self, source: str, ref: str, rule: str = "destiny.zones.discard-pile") -> None:
        """Discard an upgrade or support from play; its die leaves with it (destiny.dice.leave-with-card)."""
        ref = self.canon(ref)
        p = self.player(self.owner_of(ref))
        if ref in p.upgrades:
            _leave_play_upgrade(self, p, ref, to_discard=True)
        elif ref in p.supports:
            su = p.supports.pop(ref)
            for n in range(1, su.dice + 1):
                p.pool.pop(f"{ref}/{n}", None)
            p.discard.append(su.code)
        else:
            return
        self.note({"event": "discarded-from-play", "card": ref, "source": source,
                   "rules": [rule, "destiny.dice.leave-with-card"]})

    def put_in_pool(self, source: str, pid: str, die: str, face: Face | None = None,
                    rule: str = "destiny.zones.dice-pool") -> Face:
        """Roll a die into ``pid``'s pool (or place it showing ``face``) by a card effect."""
        f = face if face is not None else self.roll_die(die)
        self.player(pid).pool[die] = f
        self.note({"event": "into-pool", "player": pid, "die": die, "face": f.notation(), "source": source,
                   "rules": [rule, "destiny.zones.dice-pool"]})
        return f

    def move_damage(self, source: str, frm: str, to: str, amount: int) -> int:
        """Move damage tokens between characters: shields are ignored and the recipient is not
        considered to have taken damage (destiny.terms.move-damage); it may be defeated."""
        a, b = self.character(frm), self.character(to)
        if a.ref == b.ref:
            raise IllegalAction("destiny.terms.move", "damage cannot move to the character it is on")
        health = self.card(b.code).health or 0
        n = min(amount, a.damage, max(0, health - b.damage))
        a.damage -= n
        b.damage += n
        self.note({"event": "move-damage", "source": source, "from": a.ref, "to": b.ref, "amount": n,
                   "rules": ["destiny.terms.move", "destiny.terms.move-damage"]})
        if health and b.damage >= health:
            self.emit(ev.Defeat(target=b.ref, source=source))
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
            raise IllegalAction("destiny.terms.choose-target", f"{code} is not in {pid}'s {frm}")
        if code == UNKNOWN and to == "discard":
            raise MissingOutcome(f"{pid}'s {frm} holds a card the position does not name, and it goes to the "
                                 "public discard pile: list the cards in the position", "destiny.zones.deck")
        src.remove(code)
        if to == "deck":
            dst.insert(0, code)
        else:
            dst.append(code)
        self.note({"event": "move-card", "player": pid, "card": code, "from": frm, "to": to, "source": source,
                   "rules": ["destiny.zones.deck" if "deck" in (frm, to) else "destiny.zones.discard-pile"]})
        return code

    def upgrade_becomes_support(self, source: str, ref: str) -> None:
        """An upgrade leaves its character and stays in play as a ready support, its die with it."""
        ref = self.canon(ref)
        p = self.player(self.owner_of(ref))
        up = p.upgrades.pop(ref, None)
        if up is None:
            return
        host = p.characters.get(up.on)
        if host and ref in host.upgrades:
            host.upgrades.remove(ref)
        p.supports[ref] = Support(ref=ref, code=up.code, dice=1 if self.card(up.code).has_die else 0)
        self.note({"event": "becomes-support", "card": ref, "from": up.on, "source": source,
                   "rules": ["destiny.supports.play", "destiny.cards.enter-ready"]})

    def dice_of(self, ref: str) -> list[str]:
        """The dice an activation of ``ref`` rolls: character dice, then upgrade dice in the order the
        upgrades were attached (destiny.actions.activate-all-dice); a support's own dice."""
        ref = self.canon(ref)
        owner = self.owner_of(ref)
        p = self.player(owner)
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
                raise IllegalAction("destiny.defeat.no-further-use", f"{ref} is defeated")
            if ch.exhausted:
                raise IllegalAction("destiny.actions.activate-ready-only", f"{ref} is exhausted")
        elif ref in p.supports:
            su = p.supports[ref]
            if su.exhausted:
                raise IllegalAction("destiny.actions.activate-ready-only", f"{ref} is exhausted")
            if not self.card(su.code).has_die:
                raise IllegalAction("destiny.actions.activate-ready-only", f"{ref} has no die to activate")
        else:
            raise IllegalAction("destiny.actions.activate", f"{pid} has no character or support {ref} in play")

    # ------------------------------------------------------------------ dice resolution
    def resolve_dice(self, pid: str, entries: Sequence[DieEntry] | None, source: str | None = None, bonus: int = 0,
                     free: bool = False, only: Callable[[str], bool] | None = None,
                     max_dice: int | None = None, rule: str = "destiny.actions.resolve-dice",
                     unmodified: bool = False) -> None:
        """Resolve dice from ``pid``'s pool: one symbol, modifiers with a base, costs, effects.
        ``unmodified``: a modifier face resolves as if it had no plus (a card says so)."""
        if not entries:
            raise IllegalAction("destiny.actions.resolve-at-least-one", "name at least one die to resolve")
        seen: set[str] = set()
        symbol: str | None = None
        p = self.player(pid)
        now: list[tuple[str, Face, DieEntry]] = []
        late: list[tuple[str, DieEntry]] = []
        for entry in entries:
            die = self.canon_die(entry.die)
            if die in seen:
                raise IllegalAction("destiny.actions.resolve-once-each", f"{die} is named twice in one action")
            seen.add(die)
            if die not in p.pool:
                owner = self.die_owner(die)
                if owner != pid and die in self.player(owner).pool:
                    raise IllegalAction("destiny.dice.pool-only", f"{die} is in {owner}'s pool, not {pid}'s")
                raise IllegalAction("destiny.dice.pool-only", f"{die} is not in {pid}'s dice pool")
            if only is not None and not only(die):
                raise IllegalAction(rule, f"{die} cannot be resolved by {source}")
            face = self._resolving_face(p.pool[die], unmodified)
            if face.is_blank or (symbol is not None and face.symbol != symbol):
                # it may still come to show the chosen symbol during the action
                # (destiny.actions.resolve-late-joiners); checked again when the others have resolved
                late.append((die, entry))
                continue
            symbol = face.symbol
            now.append((die, face, entry))
        if max_dice is not None and len(seen) > max_dice:
            raise IllegalAction(rule, f"{source} resolves at most {max_dice} die")
        if symbol is None:
            die = late[0][0]
            raise IllegalAction("destiny.symbols.blank", f"{die} shows a blank, which cannot be resolved")
        self._resolve_groups(pid, self._group(p, now, unmodified), source, bonus, free, rule)
        if not late:
            return
        joined: list[tuple[str, Face, DieEntry]] = []
        for die, entry in late:
            if die not in p.pool:
                raise IllegalAction("destiny.dice.pool-only", f"{die} left the pool before it could resolve")
            face = self._resolving_face(p.pool[die], unmodified)
            if face.is_blank:
                raise IllegalAction("destiny.symbols.blank", f"{die} shows a blank, which cannot be resolved")
            if face.symbol != symbol:
                raise IllegalAction("destiny.actions.resolve-one-symbol", f"{die} shows {face.notation()}: all "
                                    f"dice resolved in one action must show the same symbol ({symbol})")
            joined.append((die, face, entry))
        self.note({"event": "late-joiners", "dice": [d for d, _, _ in joined], "symbol": symbol,
                   "rules": ["destiny.actions.resolve-late-joiners"]})
        self._resolve_groups(pid, self._group(p, joined, unmodified), source, bonus, free, rule)

    @staticmethod
    def _resolving_face(face: Face, unmodified: bool) -> Face:
        return Face(face.symbol, face.value, False, face.cost) if unmodified and face.modifier else face

    def _group(self, p: Player, dice: list[tuple[str, Face, DieEntry]], unmodified: bool,
               ) -> dict[str, list[tuple[str, Face, DieEntry]]]:
        """Base dice, each with the modifiers resolved with it (destiny.dice.modifier-needs-base),
        in the order named."""
        groups: dict[str, list[tuple[str, Face, DieEntry]]] = {}
        for die, face, entry in dice:
            if not face.modifier:
                groups[die] = [(die, face, entry)]
        for die, face, entry in dice:
            if not face.modifier:
                continue
            base = entry.get("modifies")
            if base is None:
                bases = [b for b in groups if p.pool[b].symbol == face.symbol]
                if len(bases) != 1:
                    raise IllegalAction("destiny.dice.modifier-needs-base",
                                        f"{die} shows a modifier ({face.notation()}) and can only be resolved "
                                        "together with a base die of the same symbol in the same action"
                                        + (" (name it with 'modifies')" if bases else ""))
                base = bases[0]
            base = self.canon_die(base)
            if base not in groups:
                raise IllegalAction("destiny.dice.modifier-needs-base",
                                    f"{die} modifies {base}, which is not a base die resolved in this action")
            groups[base].append((die, face, entry))
        return groups

    def _resolve_groups(self, pid: str, groups: dict[str, list[tuple[str, Face, DieEntry]]],
                        source: str | None, bonus: int, free: bool, rule: str) -> None:
        p = self.player(pid)
        for base, group in groups.items():
            if base not in p.pool or any(d not in p.pool for d, _, _ in group):
                raise IllegalAction("destiny.dice.pool-only", f"{base} left the pool before it could resolve")
            self._resolve_group(pid, group, source, bonus, free, rule)

    def _resolve_group(self, pid: str, group: list[tuple[str, Face, DieEntry]], source: str | None,
                       bonus: int, free: bool, rule: str) -> None:
        p = self.player(pid)
        base_die, base_face, entry = group[0]
        value = sum(self.die_value(d, f) for d, f, _ in group) + bonus
        cost = sum(f.cost for _, f, _ in group)
        rules = [rule, "destiny.dice.symbol"]
        if len(group) > 1:
            rules.append("destiny.dice.modifier-needs-base")
        if cost:
            free = free or bool(self.query("free_die", base_die, False))
            if free:
                self.note({"event": "free", "die": base_die, "cost": cost, "rules": ["destiny.terms.free"]})
            else:
                self.spend(pid, cost, "destiny.dice.face-cost", f"the face of {base_die}")
        dice = [d for d, _, _ in group]
        self.note({"event": "resolve", "player": pid, "dice": dice, "symbol": base_face.symbol, "value": value,
                   **({"via": source} if source else {}), "rules": rules})
        # the die returns to its card as it resolves (destiny.actions.resolve-dice)
        for d in dice:
            p.pool.pop(d, None)
        src = base_die
        sym = base_face.symbol
        target = entry.get("target")
        if sym in ("MD", "RD"):
            if not isinstance(target, str):
                raise IllegalAction("destiny.symbols.damage-one-target", f"{base_die} needs a target character")
            self.deal_damage(src, target, value, symbol=sym)
        elif sym == "ID":
            opp = target if isinstance(target, str) and target in self.state.players else None
            if opp is None:
                if isinstance(target, str) and parse_ref(target):
                    opp = self.owner_of(target)
                else:
                    opp = self.opponent(pid, src, "which opponent takes the indirect damage")
            if opp == pid or opp not in self.state.opponents(pid):
                raise IllegalAction("destiny.symbols.indirect", f"indirect damage goes to an opponent, not {opp}")
            self.indirect(src, opp, value, split=entry.get("split"))
        elif sym == "Sh":
            if not isinstance(target, str):
                raise IllegalAction("destiny.symbols.shield", f"{base_die} needs a character to shield")
            self.give_shields(src, target, value)
        elif sym == "R":
            self.gain(src, pid, value)
        elif sym in ("Dr", "Dc"):
            opp = target if isinstance(target, str) and target in self.state.players else self.opponent(pid, src)
            rule = "destiny.symbols.disrupt" if sym == "Dr" else "destiny.symbols.discard"
            if opp not in self.state.opponents(pid):
                raise IllegalAction(rule, f"{base_die} affects an opponent of {pid}, not {opp}")
            if sym == "Dr":
                self.lose(src, opp, value)
            else:
                self.discard_random(src, opp, value)
        elif sym == "F":
            self.focus(pid, src, value, entry.get("turn"))
        elif sym == "Sp":
            for d, _f, e in group:
                self.special(pid, d, e)

    def indirect(self, source: str, opp: str, amount: int, split: Any = None) -> None:
        """Indirect damage: the opponent splits it among their characters (destiny.symbols.indirect)."""
        alive = [c.ref for c in self.player(opp).alive()]
        if not alive or amount <= 0:
            return
        if len(alive) == 1:
            shares = {alive[0]: amount}
        else:
            answer = split
            if answer is None:
                answer = self.decide(Decision(by=opp, kind="split", options=tuple(alive),
                                              rules=("destiny.symbols.indirect",),
                                              prompt=f"split {amount} indirect damage among your characters",
                                              source=source, multiple=True, count=amount))
            if not isinstance(answer, dict) or any(not isinstance(v, int) or isinstance(v, bool) or v < 0
                                                   for v in answer.values()):
                raise IllegalAction("destiny.symbols.indirect", "a split maps characters to amounts")
            shares = {self.canon(k): v for k, v in answer.items()}
            if any(k not in alive for k in shares) or sum(shares.values()) != amount:
                raise IllegalAction("destiny.symbols.indirect", f"the split must put exactly {amount} damage on "
                                    f"{opp}'s characters ({', '.join(alive)})")
        self.note({"event": "indirect", "player": opp, "amount": amount, "split": shares,
                   "rules": ["destiny.symbols.indirect"]})
        for ref, n in shares.items():
            if n and not self.player(opp).characters[ref].defeated:
                self.deal_damage(source, ref, n, symbol="ID")

    def focus(self, pid: str, source: str, value: int, turns: Any) -> None:
        """Turn up to ``value`` of your other dice (destiny.symbols.focus, .focus-own-only)."""
        if turns is None:
            turns = self.decide(Decision(by=pid, kind="turn", options=tuple(self.player(pid).pool),
                                         rules=("destiny.symbols.focus",), source=source, multiple=True,
                                         prompt=f"turn up to {value} of your other dice", count=value))
        if not isinstance(turns, dict):
            raise IllegalAction("destiny.symbols.focus", "a focus names dice and the faces to turn them to")
        if len(turns) > value:
            raise IllegalAction("destiny.symbols.focus", f"focus {value} turns at most {value} dice")
        for die, face in turns.items():
            d = self.canon_die(die)
            if d == source:
                raise IllegalAction("destiny.symbols.focus", "a focus die does not turn itself")
            if self.die_owner(d) != pid:
                raise IllegalAction("destiny.symbols.focus-own-only", f"focus cannot turn {d}, an opponent's die")
            self.turn_die(source, d, face)

    def special(self, pid: str, die: str, entry: DieEntry) -> None:
        """A special face runs its own card's special ability (destiny.symbols.special-own-card)."""
        code = self.code_of(card_of_die(die))
        card = self.card(code)
        specials = card.abilities_for("special")
        if not specials:
            self.not_implemented(code, "its special ability")
        self.note({"event": "special", "die": die, "card": code, "rules": ["destiny.symbols.special",
                                                                              "destiny.abilities.resolve-fully"]})
        self.current_entry = entry
        for ab in specials:
            if ab.effect is not None:
                ab.effect(self, card_of_die(die), entry)

    # ------------------------------------------------------------------ replay helpers
    def not_implemented(self, code: str, what: str, fatal: bool = True) -> None:
        """Say that a card's text is not implemented: fatal where it would change the game now,
        a warning on the ruling where it only may matter later (a card entering play)."""
        card = self.card(code)
        self.unimplemented.append({"card": code, "what": what, "text": card.unimplemented})
        self.note({"event": "not-implemented", "card": code,
                   "message": f"{card.name}: {what} is not implemented by the engine"
                   + ("" if fatal else "; later effects of this card are not applied"),
                   "rules": ["destiny.general.golden-rule"]})
        if fatal:
            raise NotImplementedCard(code, card.name, what, card.unimplemented)


def _timed(card: CardDef) -> dict[str, tuple[Ability, ...]]:
    """A card's triggered abilities (before, after, instead) by timing, and its constant abilities
    by the name the engine asks about. Computed when a pool's table is built (Ctx._timed_codes);
    not cached by ``id(card)``, which a new card may reuse once an old one is collected."""
    got = {t: card.abilities_for(t) for t in ("before", "after", "instead") if card.abilities_for(t)}
    for ab in card.abilities:
        if ab.timing == "constant" and ab.query:
            got["constant:" + ab.query] = got.get("constant:" + ab.query, ()) + (ab,)
    return got


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
def _perform_activate(ctx: Ctx, e: ev.Activate) -> bool:
    pid = ctx.owner_of(e.card)
    p = ctx.player(pid)
    if e.card in p.characters:
        ch = p.characters[e.card]
        if ch.defeated or ch.exhausted:
            return False
        ch.exhausted = True
    else:
        su = p.supports[e.card]
        if su.exhausted:
            return False
        su.exhausted = True
    rolled: dict[str, str] = {}
    for die in ctx.dice_of(e.card):
        face = ctx.roll_die(die)
        p.pool[die] = face
        rolled[die] = face.notation()
    ctx.record({**e.to_json(), "rolled": rolled, "rules": list(e.rules) + ["destiny.cards.exhausted"]})
    return True


def _perform_damage(ctx: Ctx, e: ev.Damage) -> bool:
    owner = ctx.owner_of(e.target)
    ch = ctx.player(owner).characters[e.target]
    if ch.defeated:
        return False
    blocked = 0
    rules = list(e.rules)
    if e.unblockable:
        rules.append("destiny.damage.unblockable")
    elif ch.shields:
        blocked = min(ch.shields, e.amount)
        ch.shields -= blocked
        rules += ["destiny.damage.shields-block", "destiny.shields.mandatory"]
    taken = e.amount - blocked
    health = ctx.card(ch.code).health or 0
    placed = min(taken, max(0, health - ch.damage))
    ch.damage += placed
    if blocked and not taken:
        rules.append("destiny.damage.dealt-vs-taken")
    if placed < taken:
        rules.append("destiny.defeat.excess-ignored")
    rules += {"MD": ["destiny.symbols.melee"], "RD": ["destiny.symbols.ranged"], "ID": ["destiny.symbols.indirect"]
              }.get(e.symbol or "", [])
    if e.symbol in ("MD", "RD"):
        rules.append("destiny.symbols.damage-one-target")
    ctx.record({**e.to_json(), "blocked": blocked, "taken": taken, "rules": rules})
    if health and ch.damage >= health:
        ctx.emit(ev.Defeat(target=ch.ref, source=e.source))
    return True


def _perform_defeat(ctx: Ctx, e: ev.Defeat) -> bool:
    owner = ctx.owner_of(e.target)
    p = ctx.player(owner)
    ch = p.characters[e.target]
    health = ctx.card(ch.code).health or 0
    if ch.defeated or (ch.damage < health and not e.forced):
        return False  # healed or saved before it happened
    ch.defeated = True
    ch.exhausted = False
    removed_dice = [d for d in list(p.pool) if card_of_die(d) == ch.ref or card_of_die(d) in ch.upgrades]
    for d in removed_dice:
        del p.pool[d]
    discarded = []
    redeploying = []
    for up in list(ch.upgrades):
        if "redeploy" in ctx.keywords(up):
            redeploying.append(Source(up, ctx.code_of(up), owner, ctx.card(ctx.code_of(up))))
        discarded.append(up)
    ctx.redeploy_candidates = redeploying
    for up in discarded:
        _leave_play_upgrade(ctx, p, up, to_discard=True)
    ch.upgrades = []
    ctx.record({**e.to_json(), "dice_removed": removed_dice, "upgrades_discarded": discarded,
                "rules": list(e.rules) + ["destiny.dice.leave-with-card"]})
    _check_all_defeated(ctx)
    return True


def _leave_play_upgrade(ctx: Ctx, p: Player, ref: str, to_discard: bool = True) -> None:
    up = p.upgrades.pop(ref, None)
    if up is None:
        return
    ctx.last_known_host[ref] = up.on
    host = p.characters.get(up.on)
    if host and ref in host.upgrades:
        host.upgrades.remove(ref)
    die = f"{ref}/1"
    if die in p.pool and host is not None and not host.defeated:
        # two copies on one character, both dice in the pool: the dice are alike, so the
        # controller picks which one is set aside (destiny.dice.duplicate-upgrade-dice)
        twins = [f"{o}/1" for o in host.upgrades if o in p.upgrades and p.upgrades[o].code == up.code
                 and f"{o}/1" in p.pool]
        if twins and p.pool[twins[0]] != p.pool[die]:
            gone = ctx.choose(p.id, "die", [die, twins[0]], ("destiny.dice.duplicate-upgrade-dice",),
                              f"{ref} leaves play: which of its two alike dice is set aside", ref)
            showing = p.pool[gone].notation()
            if gone == twins[0]:
                p.pool[twins[0]] = p.pool[die]  # the die left in the pool belongs to the copy that stays
            ctx.note({"event": "die-set-aside", "upgrade": ref, "showing": showing,
                      "rules": ["destiny.dice.duplicate-upgrade-dice"]})
    p.pool.pop(die, None)
    if to_discard:
        p.discard.append(up.code)


def _perform_shields(ctx: Ctx, e: ev.GainShields) -> bool:
    ch = ctx.character(e.target)
    before = ch.shields
    ch.shields = min(MAX_SHIELDS, ch.shields + e.amount)
    ctx.record({**e.to_json(), "given": ch.shields - before, "ignored": e.amount - (ch.shields - before),
                "rules": list(e.rules)})
    return True


def _perform_remove_shields(ctx: Ctx, e: ev.RemoveShields) -> bool:
    ch = ctx.character(e.target)
    n = min(ch.shields, e.amount)
    ch.shields -= n
    ctx.record({**e.to_json(), "removed": n})
    return n > 0


def _perform_heal(ctx: Ctx, e: ev.Heal) -> bool:
    ch = ctx.character(e.target)
    n = min(ch.damage, e.amount)
    ch.damage -= n
    rules = list(e.rules) + (["destiny.terms.heal-none"] if n == 0 else [])
    ctx.record({**e.to_json(), "healed": n, "rules": rules})
    return n > 0


def _perform_gain(ctx: Ctx, e: ev.GainResources) -> bool:
    ctx.player(e.player).resources += e.amount
    ctx.record({**e.to_json(), "rules": list(e.rules) + (["destiny.symbols.resource"] if "/" in e.source else [])})
    return True


def _perform_lose(ctx: Ctx, e: ev.LoseResources) -> bool:
    p = ctx.player(e.player)
    n = min(p.resources, e.amount)
    p.resources -= n
    rules = list(e.rules) + (["destiny.symbols.disrupt"] if "/" in e.source else [])
    ctx.record({**e.to_json(), "lost": n, "rules": rules})
    return True


def _perform_draw(ctx: Ctx, e: ev.Draw) -> bool:
    p = ctx.player(e.player)
    deck = p.deck
    n = min(e.amount, len(deck))
    p.hand.extend([deck.popleft() for _ in range(n)])  # together, from the top (destiny.draw.simultaneous)
    ctx.record({**e.to_json(), "drawn": n, "rules": list(e.rules)})
    return n > 0


def _perform_discard(ctx: Ctx, e: ev.DiscardFromHand) -> bool:
    p = ctx.player(e.player)
    if e.card not in p.hand:
        return False
    p.hand.remove(e.card)
    p.discard.append(e.card)
    rules = ["destiny.symbols.discard"] if e.random else ["destiny.zones.discard-pile"]
    ctx.record({**e.to_json(), "rules": rules})
    return True


def _perform_reroll(ctx: Ctx, e: ev.Reroll) -> bool:
    faces: dict[str, str] = {}
    for die in e.dice:  # all chosen before any is rerolled (destiny.actions.reroll-by-discard)
        owner = ctx.die_owner(die)
        p = ctx.player(owner)
        if die not in p.pool:
            continue
        face = ctx.roll_die(die)
        p.pool[die] = face
        faces[die] = face.notation()
    ctx.record({**e.to_json(), "rolled": faces})
    return True


def _perform_turn(ctx: Ctx, e: ev.TurnDie) -> bool:
    owner = ctx.die_owner(e.die)
    p = ctx.player(owner)
    if e.die not in p.pool:
        return False
    p.pool[e.die] = parse_face(e.face)
    ctx.record({**e.to_json(), "rules": list(e.rules)})
    return True


def _perform_remove_die(ctx: Ctx, e: ev.RemoveDie) -> bool:
    owner = ctx.die_owner(e.die)
    p = ctx.player(owner)
    if e.die not in p.pool:
        return False
    del p.pool[e.die]
    ctx.record({**e.to_json(), "rules": list(e.rules)})
    return True


def _perform_play(ctx: Ctx, e: ev.Play) -> bool:
    _play_card(ctx, e)
    return True


def _perform_claim(ctx: Ctx, e: ev.Claim) -> bool:
    st = ctx.state
    before = st.controller
    st.controller = e.player
    st.claimed_by = e.player
    rules = list(e.rules) + ["destiny.actions.claim-once-per-round"]
    if before == e.player:
        rules.append("destiny.actions.claim-while-controlling")
    ctx.record({**e.to_json(), "from": before, "rules": rules + ["destiny.battlefields.single-controller"]})
    return True


_PERFORM: dict[type, Callable[[Any, Any], bool]] = {
    ev.Activate: _perform_activate,
    ev.Damage: _perform_damage,
    ev.Defeat: _perform_defeat,
    ev.GainShields: _perform_shields,
    ev.RemoveShields: _perform_remove_shields,
    ev.Heal: _perform_heal,
    ev.GainResources: _perform_gain,
    ev.LoseResources: _perform_lose,
    ev.Draw: _perform_draw,
    ev.DiscardFromHand: _perform_discard,
    ev.Reroll: _perform_reroll,
    ev.TurnDie: _perform_turn,
    ev.RemoveDie: _perform_remove_die,
    ev.Play: _perform_play,
    ev.Claim: _perform_claim,
}


# ====================================================================== keywords
def _guardian(ctx: Ctx, e: ev.Activate) -> list[Triggered]:
    """Before a Guardian character is activated, its player may take an opponent's damage die onto it
    (destiny.keywords.guardian)."""
    pid = ctx.owner_of(e.card)
    if e.card not in ctx.player(pid).characters or "guardian" not in ctx.keywords(e.card):
        return []
    dice = [d for opp in ctx.state.opponents(pid) for d, f in ctx.player(opp).pool.items() if f.is_damage]
    if not dice:
        return []

    def run() -> None:
        die = ctx.choose(pid, "die", dice, ("destiny.keywords.guardian",), "which damage die to guard against",
                         e.card)
        face = ctx.pool_face(die)
        ctx.deal_damage(die, e.card, ctx.die_value(die, face))
        ctx.remove_die(e.card, die)

    return [Triggered(ability_id=f"{e.card}:guardian", source=e.card, controller=pid, timing="before",
                      text="Guardian: take an opponent's damage die's damage and remove the die", run=run,
                      optional=True, rules=("destiny.keywords.guardian",))]


def _redeploy(ctx: Ctx, e: ev.Defeat) -> list[Triggered]:
    """After a character is defeated, each upgrade on it with Redeploy may move to another of its
    controller's characters (destiny.keywords.redeploy)."""
    cands, ctx.redeploy_candidates = ctx.redeploy_candidates, []
    out = []
    for src in cands:
        pid = src.controller

        def run(src: Source = src, pid: str = pid) -> None:
            p = ctx.player(pid)
            homes = [c.ref for c in p.alive()]
            if not homes or src.code not in p.discard:
                return
            to = ctx.choose(pid, "target", homes, ("destiny.keywords.redeploy",), "move the upgrade to", src.ref)
            p.discard.remove(src.code)
            ref = _enter_upgrade(ctx, pid, src.code, to, keep=src.ref)  # the same card: its #n stays
            ctx.note({"event": "redeploy", "upgrade": ref, "from": e.target, "to": to,
                      "rules": ["destiny.keywords.redeploy", "destiny.keywords.redeploy-ignores-restrictions"]})
            _enforce_upgrade_limit(ctx, pid, to)

        out.append(Triggered(ability_id=f"{src.ref}:redeploy", source=src.ref, controller=pid, timing="after",
                             text="Redeploy: move this upgrade to another of your characters", run=run,
                             optional=True, rules=("destiny.keywords.redeploy",)))
    return out


def _check_all_defeated(ctx: Ctx) -> None:
    """All of a player's characters defeated: that player loses (destiny.victory.all-defeated),
    or is eliminated in a multiplayer game (destiny.multiplayer.elimination)."""
    st = ctx.state
    out = [pid for pid, p in st.players.items() if not p.eliminated and p.characters and not p.alive()]
    if not out:
        return
    if len(st.players) == 2:
        left = [pid for pid in st.players if pid not in out]
        if left:
            _end_game(ctx, left[0], "all-defeated", ["destiny.victory.all-defeated"])
        else:
            # both teams fell at the same moment: the seeds are silent; the battlefield decides, as
            # for a double deck-out (destiny.victory.deck-out-both)
            _end_game(ctx, ctx.battlefield_controller(), "all-defeated",
                      ["destiny.victory.all-defeated", "destiny.victory.deck-out-both"])
        return
    for pid in out:
        _eliminate(ctx, pid, "all characters defeated")


def _eliminate(ctx: Ctx, pid: str, why: str) -> None:
    st = ctx.state
    p = st.players[pid]
    p.eliminated = True
    p.pool.clear()
    ctx.note({"event": "eliminated", "player": pid, "why": why, "rules": ["destiny.multiplayer.elimination"]})
    if st.controller == pid:
        left = [q for q in st.seats() if not st.players[q].eliminated]
        # the seeds are silent on who takes the battlefield; the next player in turn order does
        if left:
            st.controller = _next_seat(st, pid, alive_only=True)
    alive = [q for q in st.seats() if not st.players[q].eliminated]
    if len(alive) == 1:
        _end_game(ctx, alive[0], "eliminated", ["destiny.multiplayer.last-player-wins"])


def _end_game(ctx: Ctx, winner: str, reason: str, rules: list[str]) -> None:
    st = ctx.state
    st.winner = winner
    st.reason = reason
    st.phase = "over"
    st.turn = None
    st.extra_action = None
    ctx.note({"event": "game-over", "winner": winner, "reason": reason, "rules": rules})
    raise GameOver()


def _candidates(live: Sequence[tuple[Source, tuple[Ability, ...]]], event_type: type,
                ) -> list[tuple[Source, Ability, str]]:
    """The live triggered abilities that may answer an event of ``event_type``: all but those
    whose trigger test is marked (model.on) for other event types. Each with its ability ID."""
    out = []
    for src, abilities in live:
        for k, ab in enumerate(abilities):
            if ab.trigger is None:
                continue
            types = getattr(ab.trigger, "event_types", None)
            if types is not None and not issubclass(event_type, types):
                continue
            out.append((src, ab, src.ref if len(abilities) == 1 else f"{src.ref}:{k + 1}"))
    return out


def _next_seat(st: GameState, pid: str, alive_only: bool = True) -> str:
    """The next player clockwise (seat order) after ``pid``, skipping eliminated ones."""
    players = st.players
    seats = list(players)
    n = len(seats)
    i = seats.index(pid)
    for k in range(1, n + 1):
        q = seats[(i + k) % n]
        if not alive_only or not players[q].eliminated:
            return q
    return pid


# ====================================================================== playing cards
def _play_card(ctx: Ctx, e: ev.Play) -> None:
    """Pay and resolve a card being played (destiny.actions.play-card-sequence)."""
    pid = e.player
    p = ctx.player(pid)
    card = ctx.card(e.code)
    rules = ["destiny.actions.play-card-sequence", "destiny.cards.cost"]
    replaced_cost = 0
    if e.replaces:
        replaced_cost = ctx.card(ctx.code_of(e.replaces)).cost or 0
        rules.append("destiny.upgrades.replace")
    reduction = ctx.cost_reduction + replaced_cost
    if reduction:
        rules.append("destiny.terms.reduce")
    pay = max(0, ctx.cost_of(pid, e.code, e.on) - reduction)
    p.hand.remove(e.code)
    ctx.spend(pid, pay, "destiny.cards.cost", f"playing {card.name}")
    ctx.record({**e.to_json(), "cost": pay, "rules": rules})
    ref: str | None = None
    if card.type == CardType.EVENT:
        ctx.note({"event": "limbo", "card": e.code, "rules": ["destiny.events.limbo"]})
        plays = card.abilities_for("play")
        if not [a for a in plays if a.effect is not None] and card.unimplemented:
            ctx.not_implemented(e.code, "its effect")
        for ab in plays:
            if ab.effect is not None:
                ab.effect(ctx, f"{pid}.{e.code}", ctx.step)
        p.discard.append(e.code)
        ctx.note({"event": "discarded", "card": e.code, "rules": ["destiny.events.resolve-then-discard"]})
    elif card.type == CardType.UPGRADE:
        assert e.on is not None
        if e.replaces:
            _leave_play_upgrade(ctx, p, e.replaces, to_discard=True)
            ctx.note({"event": "replaced-upgrade", "upgrade": e.replaces, "rules": ["destiny.upgrades.replace"]})
        ref = _enter_upgrade(ctx, pid, e.code, e.on)
        _enforce_upgrade_limit(ctx, pid, e.on)
    elif card.type == CardType.SUPPORT:
        n = p.serials.get(e.code, 0) + 1
        p.serials[e.code] = n
        ref = f"{pid}.{e.code}#{n}"
        p.supports[ref] = Support(ref=ref, code=e.code, dice=1 if card.has_die else 0)
        ctx.note({"event": "enters-play", "card": ref, "rules": ["destiny.supports.play", "destiny.cards.enter-ready"]
                  + (["destiny.supports.dice"] if card.has_die else [])})
    if ref is not None:
        if card.unimplemented:
            ctx.not_implemented(e.code, "part of its text", fatal=False)
        for ab in card.abilities_for("play"):
            if ab.effect is not None:
                ab.effect(ctx, ref, ctx.step)


def _enter_upgrade(ctx: Ctx, pid: str, code: str, on: str, keep: str | None = None) -> str:
    """An upgrade enters play on ``on``. A card that enters play anew is a new instance (the next
    ``#n`` of its code); a card that moves (``keep``: its reference before the move, e.g. a
    Redeployed upgrade) keeps its identity, so a later step names it as before."""
    p = ctx.player(pid)
    if keep is not None:
        ref = keep
    else:
        n = p.serials.get(code, 0) + 1
        p.serials[code] = n
        ref = f"{pid}.{code}#{n}"
    p.upgrades[ref] = Upgrade(ref=ref, code=code, on=on)
    p.characters[on].upgrades.append(ref)
    ctx.note({"event": "enters-play", "card": ref, "on": on,
              "rules": ["destiny.upgrades.attach", "destiny.cards.enter-ready"]
              + (["destiny.upgrades.dice"] if ctx.card(code).has_die else [])})
    return ref


def _enforce_upgrade_limit(ctx: Ctx, pid: str, on: str) -> None:
    """More than 3 upgrades: the controller discards down to 3 (destiny.upgrades.max-three)."""
    p = ctx.player(pid)
    ch = p.characters[on]
    while len(ch.upgrades) > MAX_UPGRADES:
        ref = ctx.choose(pid, "discard-upgrade", list(ch.upgrades), ("destiny.upgrades.max-three",),
                         f"{on} has more than 3 upgrades: discard one")
        _leave_play_upgrade(ctx, p, ref, to_discard=True)
        ctx.note({"event": "discard-upgrade", "upgrade": ref, "rules": ["destiny.upgrades.max-three"]})
