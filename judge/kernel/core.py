"""The timing kernel shared by every game (STYLE.md section 7).

One pipeline, documented once. ``Kernel.emit(event)`` runs:

1. **Replacement** ("instead"): the host lists the replacement effects that would replace the
   event. None: go on. One: it resolves instead. Several: the host's rules name who chooses
   (Destiny: the battlefield's controller). The replaced event is treated as never having
   happened: nothing performs it and nothing triggers from it; abilities may trigger from what
   the replacement itself does. A replacement never replaces an event its own effect emits (the
   "has run" set, as in Forge's replacement layer), so it cannot loop.
2. **Before** abilities interrupt: they resolve now, in the order chosen by the ordering rule,
   before the event is performed.
3. The event is **performed** by the host (which may find it no longer possible, e.g. a
   character healed by a before-ability is no longer defeated).
4. **After** abilities join the FIFO queue in the order chosen by the ordering rule. They wait
   until the outermost action or ability has finished (``drain``); one that triggers while the
   queue resolves joins at the back.

Each step is written down through ``Host.record`` as a typed ``Record`` (the kernel's own are
``ReplacedRecord``, ``TriggeredRecord``, ``QueuedRecord``, ``ResolvingRecord`` and
``DeclinedRecord``; ``PositionRecord`` is the replayer's); a record writes its JSON once, with
``to_json`` (docs/events.md).

The ordering rule for simultaneous abilities: when all belong to one player, that player orders
them; when several players' abilities trigger together, the host names the chooser (Destiny:
the battlefield's controller). Every step records the host's rule ID for it.

Depth is bounded (``max_depth``), as Showdown caps event recursion: a loop is a ``KernelLoop``.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Final, Protocol

from mypy_extensions import mypyc_attr

from i18n import N_, Msg


class IllegalAction(Exception):
    """An input the rules forbid. ``rule`` is the ID of the rule it breaks."""

    kind: ClassVar[str] = "illegal-action"

    def __init__(self, rule: str, message: str):
        self.rule = rule
        self.message = message
        super().__init__(f"{message} [{rule}]")


class MissingOutcome(Exception):
    """A random outcome the log must state (no ``rng``) but does not."""

    kind: ClassVar[str] = "missing-outcome"

    def __init__(self, what: str, rule: str | None = None):
        self.rule = rule
        self.message = what
        super().__init__(what)


class KernelLoop(Exception):
    """Events nested deeper than the kernel allows: a card interaction that never ends."""

    kind: ClassVar[str] = "illegal-action"

    def __init__(self, depth: int):
        self.rule = "kernel.depth"
        self.message = Msg(N_("events nested {depth} deep: the interaction does not terminate"), depth=depth)
        super().__init__(self.message)


class Decision:
    """A choice the rules give one player. ``options`` are JSON values; ``rules`` say why that
    player decides. An immutable value (``Final``) that compares, hashes and prints as the frozen
    dataclass it was: a plain class, as ``Record`` is, so that the compiled engine builds it natively
    (a frozen dataclass's interpreted ``__init__`` cost a replay a fortieth of its instructions)."""

    __slots__ = ("by", "kind", "options", "rules", "prompt", "source", "multiple", "count")

    def __init__(self, by: str, kind: str, options: tuple[Any, ...], rules: tuple[str, ...], prompt: str = "",
                 source: str | None = None, multiple: bool = False, count: int | None = None) -> None:
        self.by: Final = by
        self.kind: Final = kind
        self.options: Final = options
        self.rules: Final = rules
        self.prompt: Final = prompt
        self.source: Final = source  # the ability or card asking, when there is one
        self.multiple: Final = multiple  # the answer is a list or a map (an order, a split, dice to turn)
        self.count: Final = count  # how much to split, or how many at most

    def _fields(self) -> tuple[Any, ...]:
        return (self.by, self.kind, self.options, self.rules, self.prompt, self.source, self.multiple, self.count)

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self) or not isinstance(other, Decision):
            return NotImplemented
        return self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        return (f"{type(self).__qualname__}(by={self.by!r}, kind={self.kind!r}, options={self.options!r}, "
                f"rules={self.rules!r}, prompt={self.prompt!r}, source={self.source!r}, "
                f"multiple={self.multiple!r}, count={self.count!r})")

    def to_json(self, answer: Any = None, answered: bool = False) -> dict[str, Any]:
        out: dict[str, Any] = {"by": self.by, "kind": self.kind, "options": list(self.options)}
        if self.prompt:
            out["prompt"] = self.prompt
        if self.source:
            out["source"] = self.source
        if self.count is not None:
            out["count"] = self.count
        if answered:
            out["answer"] = answer
        out["rules"] = list(self.rules)
        return out


class PendingDecision(Exception):
    """The log lacks a choice the engine needs: replay stops and names who must decide."""

    kind: ClassVar[str] = "pending-decision"

    def __init__(self, decision: Decision):
        self.decision = decision
        self.rule = decision.rules[0] if decision.rules else None
        self.message = (Msg(N_("{by} must decide ({kind}: {prompt})"), by=decision.by, kind=decision.kind,
                            prompt=decision.prompt) if decision.prompt else
                        Msg(N_("{by} must decide ({kind})"), by=decision.by, kind=decision.kind))
        super().__init__(self.message)


@mypyc_attr(allow_interpreted_subclasses=True)  # events and cards may stay interpreted
class Event:
    """Base of every game event: an immutable value with a ``kind``, the rule IDs it applies and
    its ``fields`` in order (each subclass sets them, and its attributes once, in ``__init__``);
    ``to_json`` writes it for rulings and timelines."""

    __slots__ = ()
    kind: ClassVar[str] = "event"
    rules: ClassVar[tuple[str, ...]] = ()
    fields: ClassVar[tuple[str, ...]] = ()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"event": self.kind}
        for name in self.fields:
            value = getattr(self, name)
            if value is not None:
                out[name] = list(value) if type(value) is tuple else value
        return out

    def _values(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in self.fields)

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and isinstance(other, Event) and self._values() == other._values()

    def __hash__(self) -> int:
        return hash((type(self).__name__, repr(self._values())))

    def __repr__(self) -> str:
        return f"{type(self).__name__}{self._values()!r}"


@mypyc_attr(allow_interpreted_subclasses=True)  # a game's records may stay interpreted
class Record:
    """Base of every record of what happened: one kind, one class, one shape (docs/events.md).

    A record is an immutable value: its attributes are set once by ``__init__`` (``Final``; the
    compiled engine refuses to set them again). Records are plain classes rather than frozen
    dataclasses because mypyc compiles neither a dataclass's ``ClassVar`` (it becomes a field,
    mypyc/mypyc#1122) nor its generated ``__init__`` (an interpreted frozen ``__init__`` would cost
    a replay a tenth of its time). Each subclass states

    - ``kind``: the value of ``"event"`` in its JSON;
    - ``optional``: the JSON keys it leaves out when they do not apply (every other key is always
      written);
    - ``cites``: the rule IDs it typically cites (a kernel record: the names of the host's
      ``TimingRules`` whose IDs it cites), and ``cites_also``, in words, what else it may cite
      (empty: nothing else);

    and its docstring names every JSON key but ``event`` and ``rules`` as ``key: meaning``
    (docs/events.md is written from them, tests/replays/event_schema.py)."""

    __slots__ = ()
    kind: ClassVar[str] = "record"
    optional: ClassVar[tuple[str, ...]] = ()
    cites: ClassVar[tuple[str, ...]] = ()
    cites_also: ClassVar[str] = ""

    def to_json(self) -> dict[str, Any]:
        """The record as rulings and timelines write it: ``{"event": kind, ..., "rules": [...]}``."""
        raise NotImplementedError(type(self).__name__)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.to_json()!r})"


class ReplacedRecord(Record):
    """A replacement effect applied: the event did not happen, the replacement's effect did instead.

    by: the card whose replacement effect applied
    instead_of: the kind of the event replaced
    replaced: the event replaced, as the event writes itself (its kind and fields, no results)
    """

    __slots__ = ("by", "instead_of", "replaced", "rules")
    kind: ClassVar[str] = "replaced"
    cites: ClassVar[tuple[str, ...]] = ("instead", "no_triggers_from_replaced", "competing")

    def __init__(self, by: str, instead_of: str, replaced: Event, rules: tuple[str, ...]) -> None:
        self.by: Final = by
        self.instead_of: Final = instead_of
        self.replaced: Final = replaced
        self.rules: Final = rules

    def to_json(self) -> dict[str, Any]:
        return {"event": "replaced", "by": self.by, "instead_of": self.instead_of,
                "replaced": self.replaced.to_json(), "rules": list(self.rules)}


class _AbilityRecord(Record):
    """An ability met at one of the kernel's steps (``triggered``, ``queued``): its ID, its timing and
    the kind of the event it answers."""

    __slots__ = ("ability", "timing", "on", "rules")

    def __init__(self, ability: str, timing: str, on: str, rules: tuple[str, ...]) -> None:
        self.ability: Final = ability
        self.timing: Final = timing
        self.on: Final = on
        self.rules: Final = rules

    def to_json(self) -> dict[str, Any]:
        return {"event": self.kind, "ability": self.ability, "timing": self.timing, "on": self.on,
                "rules": list(self.rules)}


class TriggeredRecord(_AbilityRecord):
    """A before-ability resolves, interrupting the event it triggered on.

    ability: the ability's ID: its card's reference, with ``:<keyword>`` for a keyword's ability
    and ``:<n>`` when the card has several
    timing: ``before``
    on: the kind of the event it interrupts
    """

    __slots__ = ()
    kind: ClassVar[str] = "triggered"
    cites: ClassVar[tuple[str, ...]] = ("before",)
    cites_also: ClassVar[str] = "the ability's own rules"


class QueuedRecord(_AbilityRecord):
    """An after-ability joins the back of the queue; it resolves when the outermost action or
    ability has finished.

    ability: the ability's ID
    timing: ``after``
    on: the kind of the event it follows
    """

    __slots__ = ()
    kind: ClassVar[str] = "queued"
    cites: ClassVar[tuple[str, ...]] = ("after", "queue_fifo")


class ResolvingRecord(Record):
    """A queued ability leaves the queue and resolves now.

    ability: the ability's ID
    timing: the ability's timing (``after``)
    """

    __slots__ = ("ability", "timing", "rules")
    kind: ClassVar[str] = "resolving"
    cites: ClassVar[tuple[str, ...]] = ("queue_fifo",)
    cites_also: ClassVar[str] = "the ability's own rules"

    def __init__(self, ability: str, timing: str, rules: tuple[str, ...]) -> None:
        self.ability: Final = ability
        self.timing: Final = timing
        self.rules: Final = rules

    def to_json(self) -> dict[str, Any]:
        return {"event": "resolving", "ability": self.ability, "timing": self.timing, "rules": list(self.rules)}


class DeclinedRecord(Record):
    """An optional ("may") ability's controller chose not to resolve it.

    ability: the ability's ID
    """

    __slots__ = ("ability", "rules")
    kind: ClassVar[str] = "declined"
    cites: ClassVar[tuple[str, ...]] = ("optional",)

    def __init__(self, ability: str, rules: tuple[str, ...]) -> None:
        self.ability: Final = ability
        self.rules: Final = rules

    def to_json(self) -> dict[str, Any]:
        return {"event": "declined", "ability": self.ability, "rules": list(self.rules)}


class PositionRecord(Record):
    """The setup of a log that starts from a position: the state is given, nothing happens (the
    only event of its step 0, written by the replayer, replays/replayer.py).
    """

    __slots__ = ("rules",)
    kind: ClassVar[str] = "position"

    def __init__(self, rules: tuple[str, ...] = ()) -> None:
        self.rules: Final = rules

    def to_json(self) -> dict[str, Any]:
        return {"event": "position", "rules": list(self.rules)}


@dataclass
class Triggered:
    """A triggered ability instance waiting to resolve (or a replacement waiting to apply).

    Once triggered it exists on its own (destiny.abilities.triggered-independent): ``run`` holds
    everything it needs even if its card leaves play.
    """

    ability_id: str  # unique among simultaneous triggers: the source ref, plus ":k" if needed
    source: str
    controller: str
    timing: str  # before | after | instead
    text: str
    run: Callable[[], None]
    optional: bool = False
    rules: tuple[str, ...] = ()

    # (an explicit __init__, the one the dataclass would write: compiled, the dataclass's own stays an
    # interpreted function, several times the cost of a construction)
    def __init__(self, ability_id: str, source: str, controller: str, timing: str, text: str,
                 run: Callable[[], None], optional: bool = False, rules: tuple[str, ...] = ()) -> None:
        self.ability_id = ability_id
        self.source = source
        self.controller = controller
        self.timing = timing
        self.text = text
        self.run = run
        self.optional = optional
        self.rules = rules


@dataclass(frozen=True)
class TimingRules:
    """The host game's rule IDs for each kernel step."""

    instead: str
    no_triggers_from_replaced: str
    competing: str
    before: str
    after: str
    queue_fifo: str
    same_player: str
    several_players: str
    optional: str


class Host(Protocol):
    @property
    def timing_rules(self) -> TimingRules: ...

    def replacements(self, event: Event) -> list[Triggered]: ...
    def befores(self, event: Event) -> list[Triggered]: ...
    def afters(self, event: Event) -> list[Triggered]: ...
    def perform(self, event: Event) -> bool: ...
    def chooser_for(self, triggers: Sequence[Triggered]) -> tuple[str, str]: ...
    def decide(self, decision: Decision) -> Any: ...
    def record(self, record: Record) -> None: ...


class Kernel:
    """The timing pipeline for one step: replacement, before, perform, after-queue."""

    __slots__ = ("host", "max_depth", "queue", "_applying", "_depth")

    def __init__(self, host: Host, max_depth: int = 40):
        self.host = host
        self.max_depth = max_depth
        self.queue: deque[Triggered] = deque()
        self._applying: set[str] = set()
        self._depth = 0

    # -- the pipeline -------------------------------------------------------------------------
    def emit(self, event: Event) -> bool:
        """Run one event through the pipeline; True if it happened (was not replaced)."""
        host = self.host
        self._depth += 1
        try:
            if self._depth > self.max_depth:
                raise KernelLoop(self._depth)
            candidates = host.replacements(event)
            if candidates:
                candidates = [c for c in candidates if c.ability_id not in self._applying]
                candidates = [c for c in candidates if not c.optional or self._may(c)]
            if candidates:
                tr = host.timing_rules
                chosen = candidates[0]
                rules = [tr.instead, tr.no_triggers_from_replaced]
                if len(candidates) > 1:
                    chooser, why = host.chooser_for(candidates)
                    answer = host.decide(Decision(
                        chooser, "replacement", tuple(c.ability_id for c in candidates),
                        (tr.competing, why), Msg(
                            N_("which replacement applies to {kind}"),
                            kind=event.kind,
                        )))
                    chosen = next(c for c in candidates if c.ability_id == answer)
                    rules.append(tr.competing)
                host.record(ReplacedRecord(chosen.source, event.kind, event,
                                           tuple(rules)))
                self._applying.add(chosen.ability_id)
                try:
                    chosen.run()
                finally:
                    self._applying.discard(chosen.ability_id)
                return False

            befores = host.befores(event)
            if befores:
                tr = host.timing_rules
                for trig in self._ordered(befores, "before"):
                    if trig.optional and not self._may(trig):
                        continue
                    host.record(TriggeredRecord(trig.ability_id, "before", event.kind,
                                                (tr.before, *trig.rules)))
                    trig.run()

            if not host.perform(event):
                return False

            self.queue_afters(event)
            return True
        finally:
            self._depth -= 1

    def queue_afters(self, event: Event) -> None:
        """Queue the after-abilities an event that happened triggers, in the order their
        chooser gives (a host that performed an event itself calls this)."""
        afters = self.host.afters(event)
        if afters:
            self.queue_triggered(event, afters)

    def queue_triggered(self, event: Event, afters: list[Triggered]) -> None:
        """``queue_afters`` with the after-abilities ``event`` triggered (``host.afters(event)``,
        not empty) already asked for: a host that performed the event itself, and asked, makes the
        pipeline only when one did."""
        host = self.host
        if afters:
            tr = host.timing_rules
            for trig in self._ordered(afters, "after"):
                self.queue.append(trig)
                host.record(QueuedRecord(trig.ability_id, "after", event.kind,
                                         (tr.after, tr.queue_fifo)))

    def drain(self) -> None:
        """Resolve queued after-abilities first in, first out (new ones join at the back)."""
        tr = self.host.timing_rules
        while self.queue:
            trig = self.queue.popleft()
            if trig.optional and not self._may(trig):
                self.host.record(DeclinedRecord(trig.ability_id, (tr.optional,)))
                continue
            self.host.record(ResolvingRecord(trig.ability_id, trig.timing,
                                             (tr.queue_fifo, *trig.rules)))
            trig.run()

    # -- helpers ------------------------------------------------------------------------------
    def _may(self, trig: Triggered) -> bool:
        answer = self.host.decide(Decision(
            trig.controller, "may", (True, False),
            (self.host.timing_rules.optional, *trig.rules), trig.text, trig.ability_id))
        return bool(answer)

    def _ordered(self, triggers: list[Triggered], timing: str) -> list[Triggered]:
        if len(triggers) <= 1:
            return triggers
        tr = self.host.timing_rules
        controllers = {t.controller for t in triggers}
        if len(controllers) == 1:
            chooser, why = next(iter(controllers)), tr.same_player
        else:
            chooser, why = self.host.chooser_for(triggers)
            why = why or tr.several_players
        ids = tuple(t.ability_id for t in triggers)
        answer = self.host.decide(Decision(
            chooser, "order", ids, (why,), multiple=True,
            prompt=Msg(N_("order of {n_ids} simultaneous {timing}-abilities"), n_ids=len(ids), timing=timing)))
        if (not isinstance(answer, list) or not all(isinstance(a, str) for a in answer)
                or sorted(answer) != sorted(ids)):
            raise IllegalAction(why, Msg(N_("the order must name each of {ids} once"), ids=', '.join(ids)))
        by_id = {t.ability_id: t for t in triggers}
        return [by_id[a] for a in answer]
