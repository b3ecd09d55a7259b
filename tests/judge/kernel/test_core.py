"""The timing kernel on its own, with a tiny host: the pipeline's order and its guards."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

import pytest

from judge.kernel.core import (
    Decision,
    Event,
    IllegalAction,
    Kernel,
    KernelLoop,
    PendingDecision,
    Record,
    TimingRules,
    Triggered,
)

RULES = TimingRules(instead="t.instead", no_triggers_from_replaced="t.no-triggers", competing="t.competing",
                    before="t.before", after="t.after", queue_fifo="t.fifo", same_player="t.same-player",
                    several_players="t.several", optional="t.may")


@dataclass(frozen=True)
class Ping(Event):
    kind: ClassVar[str] = "ping"
    n: int


@dataclass
class Host:
    timing_rules: TimingRules = RULES
    log: list[str] = field(default_factory=list)
    records: list[dict[str, Any]] = field(default_factory=list)
    answers: list[Any] = field(default_factory=list)
    asked: list[Decision] = field(default_factory=list)
    rep: Callable[[Event], list[Triggered]] = lambda e: []
    bef: Callable[[Event], list[Triggered]] = lambda e: []
    aft: Callable[[Event], list[Triggered]] = lambda e: []
    can_perform: bool = True

    def replacements(self, event: Event) -> list[Triggered]:
        return self.rep(event)

    def befores(self, event: Event) -> list[Triggered]:
        return self.bef(event)

    def afters(self, event: Event) -> list[Triggered]:
        return self.aft(event)

    def perform(self, event: Event) -> bool:
        self.log.append(f"perform {event.kind}")
        return self.can_perform

    def chooser_for(self, triggers: Sequence[Triggered]) -> tuple[str, str]:
        return "bf", "t.several"

    def decide(self, decision: Decision) -> Any:
        self.asked.append(decision)
        if not self.answers:
            raise PendingDecision(decision)
        return self.answers.pop(0)

    def record(self, record: Record) -> None:
        self.records.append(record.to_json())


def trig(host: Host, aid: str, controller: str = "a", timing: str = "after", optional: bool = False,
         then: Callable[[], None] | None = None) -> Triggered:
    def run() -> None:
        host.log.append(aid)
        if then:
            then()

    return Triggered(ability_id=aid, source=aid, controller=controller, timing=timing, text=aid, run=run,
                     optional=optional)


@pytest.mark.rules("destiny.timing.before", "destiny.timing.after", "destiny.timing.queue-wait")
def test_before_then_perform_then_after_waits_for_drain() -> None:
    host = Host()
    host.bef = lambda e: [trig(host, "B", timing="before")]
    host.aft = lambda e: [trig(host, "A")]
    k = Kernel(host)
    assert k.emit(Ping(1)) is True
    assert host.log == ["B", "perform ping"]
    k.drain()
    assert host.log == ["B", "perform ping", "A"]


@pytest.mark.rules("destiny.replacement.instead", "destiny.replacement.no-triggers-from-replaced")
def test_a_replacement_stops_the_event_and_its_triggers() -> None:
    host = Host()
    host.rep = lambda e: [trig(host, "R", timing="instead")]
    host.bef = lambda e: [trig(host, "B", timing="before")]
    host.aft = lambda e: [trig(host, "A")]
    k = Kernel(host)
    assert k.emit(Ping(1)) is False
    k.drain()
    assert host.log == ["R"]
    assert host.records[0]["event"] == "replaced" and host.records[0]["instead_of"] == "ping"


@pytest.mark.rules("destiny.replacement.instead")
def test_a_replacement_never_replaces_what_its_own_effect_emits() -> None:
    host = Host()
    k = Kernel(host)
    host.rep = lambda e: [trig(host, "R", timing="instead", then=lambda: k.emit(Ping(2)))]
    assert k.emit(Ping(1)) is False
    assert host.log == ["R", "perform ping"]


@pytest.mark.rules("destiny.replacement.competing")
def test_competing_replacements_ask_the_host_named_chooser() -> None:
    host = Host(answers=["R2"])
    host.rep = lambda e: [trig(host, "R1", "a", "instead"), trig(host, "R2", "a", "instead")]
    Kernel(host).emit(Ping(1))
    assert host.log == ["R2"]
    assert host.asked[0].by == "bf" and host.asked[0].kind == "replacement"
    assert host.asked[0].rules[0] == "t.competing"


@pytest.mark.rules("destiny.timing.simultaneous-same-player",
                   "destiny.timing.simultaneous-battlefield-controller")
@pytest.mark.parametrize(("owners", "chooser", "rule"), [(("a", "a"), "a", "t.same-player"),
                                                         (("a", "b"), "bf", "t.several")])
def test_who_orders_simultaneous_abilities(owners: tuple[str, str], chooser: str, rule: str) -> None:
    host = Host(answers=[["X2", "X1"]])
    host.aft = lambda e: [trig(host, "X1", owners[0]), trig(host, "X2", owners[1])]
    k = Kernel(host)
    k.emit(Ping(1))
    k.drain()
    assert (host.asked[0].by, host.asked[0].rules) == (chooser, (rule,))
    assert host.log == ["perform ping", "X2", "X1"]


@pytest.mark.rules("destiny.timing.queue-fifo")
def test_an_ability_triggered_during_drain_joins_at_the_back() -> None:
    host = Host()
    k = Kernel(host)

    def afters(e: Event) -> list[Triggered]:
        assert isinstance(e, Ping)
        if e.n == 1:
            return [trig(host, "first", then=lambda: k.emit(Ping(2)))]
        return [trig(host, f"late{e.n}")]

    host.aft = afters
    k.emit(Ping(1))
    k.queue.append(trig(host, "already-queued"))
    k.drain()
    assert host.log == ["perform ping", "first", "perform ping", "already-queued", "late2"]


@pytest.mark.rules("destiny.timing.before")
def test_an_event_no_longer_possible_triggers_no_after_abilities() -> None:
    host = Host(can_perform=False)
    host.aft = lambda e: [trig(host, "A")]
    k = Kernel(host)
    assert k.emit(Ping(1)) is False
    k.drain()
    assert host.log == ["perform ping"]


@pytest.mark.rules("destiny.abilities.resolve-fully")
def test_a_declined_optional_ability_does_not_resolve() -> None:
    host = Host(answers=[False])
    host.aft = lambda e: [trig(host, "A", optional=True)]
    k = Kernel(host)
    k.emit(Ping(1))
    k.drain()
    assert host.log == ["perform ping"]
    assert host.asked[0].kind == "may" and host.records[-1]["event"] == "declined"


def test_a_loop_is_stopped_at_the_depth_limit() -> None:
    host = Host()
    k = Kernel(host, max_depth=10)
    host.bef = lambda e: [trig(host, "again", timing="before", then=lambda: k.emit(Ping(0)))]
    with pytest.raises(KernelLoop):
        k.emit(Ping(0))


def test_an_order_naming_an_ability_twice_is_illegal() -> None:
    host = Host(answers=[["X1", "X1"]])
    host.aft = lambda e: [trig(host, "X1"), trig(host, "X2")]
    with pytest.raises(IllegalAction) as exc:
        Kernel(host).emit(Ping(1))
    assert exc.value.rule == "t.same-player"
