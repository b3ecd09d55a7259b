"""The replayer: a log's setup plus its steps fed through the engine, with visitors.

As python-chess's ``BaseVisitor`` walks a PGN game, ``replay`` walks a log and calls each
visitor's ``begin`` (after setup), ``visit_step`` (after every step, with the step's events) and
``end``. The ruling collector, the timeline exporter and the checkpoint verifier are visitors of
this one loop (STYLE.md section 8).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from judge.games.base import Applied, GameState, Policy, written
from judge.kernel.core import PendingDecision, PositionRecord
from judge.kernel.rng import Rng
from judge.limits import MAX_FAULTS
from replays.errors import Fault, MalformedLog
from replays.format import Log


@dataclass
class StepError:
    at: int
    kind: str
    rule: str | None
    message: str
    pending: dict[str, Any] | None = None
    violations: list[dict[str, Any]] | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"at": self.at, "kind": self.kind, "rule": self.rule, "message": self.message}
        if self.pending is not None:
            out["pending"] = self.pending
        if self.violations is not None:
            out["violations"] = self.violations
        return out


def step_error(at: int, exc: Exception) -> StepError:
    pending = exc.decision.to_json() if isinstance(exc, PendingDecision) else None
    return StepError(at=at, kind=getattr(exc, "kind", "illegal-action"), rule=getattr(exc, "rule", None),
                     message=getattr(exc, "message", str(exc)), pending=pending)


@dataclass
class StepRecord:
    """What one step did: its events and decisions, the state after it, and any error."""

    at: int
    step: dict[str, Any]
    action: Any  # the step's typed action (None for the setup)
    records: list[Any]  # typed records (judge.kernel.core.Record), written to JSON by ``events``
    decisions: list[dict[str, Any]]
    state: GameState
    error: StepError | None = None
    rejected_as_expected: bool = False
    written_choices: list[dict[str, Any]] = field(default_factory=list)
    _events: list[dict[str, Any]] | None = None

    @property
    def events(self) -> list[dict[str, Any]]:
        """The step's events as rulings and timelines write them (docs/events.md), written once."""
        if self._events is None:
            self._events = written(self.records)
        return self._events


class Visitor(Protocol):
    def begin(self, log: Log, setup: StepRecord) -> None: ...
    def visit_step(self, record: StepRecord) -> None: ...
    def end(self, result: ReplayResult) -> None: ...


@dataclass
class ReplayResult:
    valid: bool
    steps: int
    state: GameState | None
    passed: list[int] = field(default_factory=list)
    failed: list[dict[str, Any]] = field(default_factory=list)
    error: StepError | None = None
    faults: list[Fault] = field(default_factory=list)

    game: Any = None  # the game that replayed it (judge.games.base.Game)

    def outcome(self) -> dict[str, Any] | None:
        if self.state is None or self.game is None:
            return None
        out: dict[str, Any] | None = self.game.outcome(self.state)
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "valid": self.valid,
            "steps": self.steps,
            "final_state": self.state.view() if self.state else None,
            "final_state_hash": self.state.state_hash() if self.state else None,
            "outcome": self.outcome(),
            "checkpoints": {"passed": self.passed, "failed": self.failed},
            "error": self.error.to_json() if self.error else None,
            "faults": [f.to_json() for f in self.faults],
        }


def start(log: Log, cards: Any, rng: Rng | None, policy: Policy | None = None) -> StepRecord:
    """The state before the first step (step 0): a position, or setup carried out."""
    game = log.rules
    if log.from_position:
        state, faults = game.from_position(log.setup["position"], log.players, cards)
        if state is None:
            raise MalformedLog([Fault(p, m) for p, m in faults])
        state.rng_drawn = rng.drawn if rng else None
        return StepRecord(at=0, step={}, action=None, records=[PositionRecord()], decisions=[],
                          state=state)
    violations = game.deck_violations(log.players, cards, log.deck_format)
    if violations:
        first = violations[0]
        err = StepError(at=0, kind="illegal-action", rule=first["rule"],
                        message=f"{len(violations)} deck-building violation(s) for the '{log.deck_format}' format; "
                        f"the first: {first['player']}: {first['message']}", violations=violations)
        return StepRecord(at=0, step={}, action=None, records=[], decisions=[], state=game.empty_state(log.players),
                          error=err)
    state, applied = game.begin(log.players, log.setup, cards, rng, policy)
    if applied.error is not None:
        return StepRecord(at=0, step={}, action=None, records=[], decisions=[], state=state,
                          error=step_error(0, applied.error))
    state.rng_drawn = rng.drawn if rng else None
    return StepRecord(at=0, step={}, action=None, records=applied.records, decisions=applied.decisions, state=state,
                      written_choices=applied.written_choices)


def run_step(log: Log, state: GameState, i: int, cards: Any, rng: Rng | None, policy: Policy | None = None,
             ) -> StepRecord:
    """Apply step ``i`` (0-based) of ``log`` to ``state`` in place, and keep its record."""
    return record(i + 1, log.steps[i], log.actions[i], state, _apply(log, state, i, cards, rng, policy), rng)


def _apply(log: Log, state: GameState, i: int, cards: Any, rng: Rng | None, policy: Policy | None) -> Applied:
    """Apply step ``i`` (0-based) of ``log`` to ``state`` in place (the game sees the next step too)."""
    nxt = log.actions[i + 1] if i + 1 < len(log.actions) else None
    out: Applied = log.rules.apply(state, log.actions[i], log.inputs[i], cards, rng, policy, nxt)
    return out


def record(at: int, step: dict[str, Any], action: Any, state: GameState, applied: Applied,
           rng: Rng | None) -> StepRecord:
    if rng is not None:
        state.rng_drawn = rng.drawn
    error = step_error(at, applied.error) if applied.error is not None else None
    return StepRecord(at=at, step=step, action=action, records=applied.records, decisions=applied.decisions,
                      state=state, error=error, written_choices=applied.written_choices)


def replay(log: Log, cards: Any = None, visitors: tuple[Visitor, ...] = (), stop_after: int | None = None,
           policy: Policy | None = None) -> ReplayResult:
    """Replay ``log`` (to step ``stop_after`` when given). Never raises for an illegal step: the
    result says where and why the replay stopped."""
    if cards is None:
        cards = log.rules.default_cards()
    rng = Rng(log.rng_seed, log.rng_drawn) if log.rng_seed is not None else None
    setup = start(log, cards, rng, policy)
    for v in visitors:
        v.begin(log, setup)
    result = ReplayResult(valid=True, steps=0, state=setup.state, game=log.rules)
    if setup.error:
        result.valid = False
        result.error = setup.error
        for v in visitors:
            v.end(result)
        return result
    state = setup.state
    last = len(log.steps) if stop_after is None else min(stop_after, len(log.steps))
    snap: _Snapshot | None = None  # before the first snapshot, the setup is carried out again
    next_snap = FIRST_SNAPSHOT
    steps, actions, inputs = log.steps, log.actions, log.inputs
    apply = log.rules.apply
    if not visitors and policy is None:  # nobody reads the steps' records: the game need not make them
        unrecorded = getattr(log.rules, "apply_unrecorded", None)
        if unrecorded is not None:
            apply = unrecorded
    n_actions = len(actions)
    no_expect: dict[str, Any] = {}
    at = 0
    for i in range(last):
        at = i + 1
        step = steps[i]
        if i == next_snap:
            snap = _Snapshot(i, state.copy(), rng.drawn if rng else None)
            next_snap *= 2
        expect = step.get("expect")
        if not expect:  # the common step, without a checkpoint or an expected error: read no further
            # (_apply, inline on this hot path: the game sees the next step too)
            applied: Applied = apply(state, actions[i], inputs[i], cards, rng, policy,
                                     actions[at] if at < n_actions else None)  # (typed: read natively, compiled)
            if applied.error is None and not visitors:  # the commonest case, no record kept
                if rng is not None:
                    state.rng_drawn = rng.drawn
                continue
            expect = no_expect
            want_error: Any = None
            saved: tuple[GameState, int | None] | None = None
        else:
            want_error = expect.get("error")
            # a rejected step changes nothing: the engine applies steps in place, so keep the state
            # before a step expected to fail; an unexpected failure ends the replay, and the state
            # before it is rebuilt then (copying every step would double the cost of a replay)
            saved = (state.copy(), rng.drawn if rng else None) if want_error else None
            applied = apply(state, actions[i], inputs[i], cards, rng, policy, actions[at] if at < n_actions else None)
            if applied.error is None and not visitors and not want_error:  # no record kept
                if rng is not None:
                    state.rng_drawn = rng.drawn
                if "hash" in expect or "state" in expect:
                    _checkpoint(result, at, expect, state)
                continue
        rec = record(at, step, log.actions[i], state, applied, rng)
        if rec.error is not None and not want_error:
            state = rec.state = _state_before(log, cards, at, policy, snap)
        if want_error:
            ok, why = _error_matches(want_error, rec.error)
            if ok and saved is not None:
                state = saved[0]
                if rng is not None and saved[1] is not None:
                    rng = Rng(rng.seed, saved[1])
                rec.state = state
                rec.rejected_as_expected = True
                result.passed.append(at)
            else:
                result.failed.append({"at": at, "expected": {"error": want_error}, "message": why})
                result.valid = False
                if result.error is None:
                    result.error = rec.error or StepError(at, "checkpoint-mismatch", None, why)
                if rec.error is not None and saved is not None:
                    state = rec.state = saved[0]  # rejected, though otherwise: it changes nothing either
                for v in visitors:
                    v.visit_step(rec)
                break
            for v in visitors:
                v.visit_step(rec)
            continue
        for v in visitors:
            v.visit_step(rec)
        if rec.error:
            result.valid = False
            result.error = rec.error
            result.state = state
            break
        if "hash" in expect or "state" in expect:
            _checkpoint(result, at, expect, state)
    result.steps = at  # (the steps applied: all of them, or up to the one the replay stopped at)
    result.state = state
    for v in visitors:
        v.end(result)
    return result


# A failed step changed the state it was applied to (steps are applied in place); the state before
# it is rebuilt from the latest snapshot, taken after FIRST_SNAPSHOT steps and then each time the
# count doubles (64, 128, 256, ...): at most half the steps replayed are replayed again, for a
# handful of copies however long the log (a copy every k steps would cost a long log's states
# over and over; a copy per step would double the cost of a replay).
FIRST_SNAPSHOT = 64


@dataclass
class _Snapshot:
    steps: int  # how many steps were applied to it
    state: Any
    rng_drawn: int | None


def _state_before(log: Log, cards: Any, at: int, policy: Policy | None, snap: _Snapshot | None) -> GameState:
    """The state after step ``at - 1``, replayed from the snapshot taken at or before it (None: from
    the setup, carried out again)."""
    if snap is None:
        rng = Rng(log.rng_seed, log.rng_drawn) if log.rng_seed is not None else None
        snap = _Snapshot(0, start(log, cards, rng, policy).state, rng.drawn if rng else None)
    rng = Rng(log.rng_seed, snap.rng_drawn) if log.rng_seed is not None and snap.rng_drawn is not None else None
    state = snap.state
    for i in range(snap.steps, at - 1):
        step = log.steps[i]
        want_error = (step.get("expect") or {}).get("error")
        saved = (state.copy(), rng.drawn if rng else None) if want_error else None
        rec = run_step(log, state, i, cards, rng, policy)
        if rec.error is not None and saved is not None:
            state = saved[0]
            if rng is not None and saved[1] is not None:
                rng = Rng(rng.seed, saved[1])
    return state


# A failed checkpoint's message quotes the state it found, which can be large: a result keeps at most
# CHECKPOINT_MESSAGE_CHARS of each message, and the details of the first MAX_FAULTS failures only
# (later ones keep their step number), so a log whose every step fails a checkpoint on a full
# table gives a result of bounded size, not one of gigabytes.
CHECKPOINT_MESSAGE_CHARS = 1_000


def _clip(text: str) -> str:
    if len(text) <= CHECKPOINT_MESSAGE_CHARS:
        return text
    return text[:CHECKPOINT_MESSAGE_CHARS] + f"... ({len(text) - CHECKPOINT_MESSAGE_CHARS:,} more characters)"


def _checkpoint(result: ReplayResult, at: int, expect: dict[str, Any], state: GameState) -> None:
    """Compare the state after step ``at`` with its checkpoint (``expect.hash``, ``expect.state``)."""
    mismatches = check_expect(expect, state)
    if mismatches:
        if len(result.failed) < MAX_FAULTS:
            result.failed.append({"at": at, "expected": {k: expect[k] for k in ("hash", "state") if k in expect},
                                  "message": _clip("; ".join(mismatches))})
        else:
            result.failed.append({"at": at, "expected": {}, "message": f"details are kept for the first "
                                  f"{MAX_FAULTS} failed checkpoints only (MAX_FAULTS)"})
        result.valid = False
        if result.error is None:
            result.error = StepError(at, "checkpoint-mismatch", None,
                                     _clip(f"step {at}: the state does not match its checkpoint: "
                                           + "; ".join(mismatches[:5])))
    else:
        result.passed.append(at)


def _error_matches(want: Any, got: StepError | None) -> tuple[bool, str]:
    if not isinstance(want, dict):
        return False, "expect.error must be an object with 'kind' and 'rule'"
    if got is None:
        return False, f"the step was accepted, but the checkpoint expects it rejected ({want.get('kind')}, " \
                      f"{want.get('rule')})"
    if want.get("kind") not in (None, got.kind):
        return False, f"expected a {want.get('kind')} error, got {got.kind}: {got.message}"
    if want.get("rule") not in (None, got.rule):
        return False, f"expected rule {want.get('rule')}, the engine cites {got.rule}: {got.message}"
    return True, ""


def check_expect(expect: dict[str, Any], state: GameState) -> list[str]:
    out: list[str] = []
    if "hash" in expect and expect["hash"] != state.state_hash():
        out.append(f"hash: expected {expect['hash']}, got {state.state_hash()}")
    if "state" in expect:
        _partial(expect["state"], state.view(), "", out)
    return out


def _partial(want: Any, got: Any, path: str, out: list[str]) -> None:
    """Deep partial match: every key given must match; an empty object asserts emptiness."""
    if isinstance(want, dict):
        if not isinstance(got, dict):
            out.append(f"{path or '/'}: expected an object, got {got!r}")
            return
        if not want and got:
            out.append(f"{path or '/'}: expected empty, got {sorted(got)}")
            return
        for k, v in want.items():
            if k not in got:
                out.append(f"{path}/{k}: missing")
            else:
                _partial(v, got[k], f"{path}/{k}", out)
    elif want != got:
        out.append(f"{path}: expected {want!r}, got {got!r}")
