"""The event: state recomputed from the append-only list of organizer actions.

``check(state, action)`` lists the rules an action would break (nothing changes);
``apply(state, action)`` trusts it; ``replay(actions)`` rebuilds the state from the log.
Planners (``plan_next_round``, ``plan_repair``, ``plan_cut``) compute the action the organizer
asked for — pairings are decided once, then logged as data.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from .cut import first_cut_round, next_cut_round
from .model import (
    BEST_OF,
    CUT_SIZES,
    PROFILES,
    Action,
    AddPlayer,
    ArchiveEvent,
    Config,
    CreateTournament,
    DropPlayer,
    OverridePairings,
    Pairing,
    PairRound,
    Player,
    RenamePlayer,
    RepairRound,
    ReportResult,
    Round,
    SetVisibility,
    StartCut,
    UndropPlayer,
    Violation,
    name_key,
)
from .pairing import SwissPlan, pair_swiss, swiss_input
from .rules import rule
from .standings import standings
from .state import EventState

MAX_ROUNDS = 30
MAX_NAME = 200
MAX_GAME = 40


class Rejected(Exception):
    """An action the rules do not allow; ``violations`` says which rules and fields."""

    def __init__(self, violations: Sequence[Violation]) -> None:
        super().__init__("; ".join(f"{v.rule}: {v.message}" for v in violations))
        self.violations = list(violations)


def _v(rule_id: str, field: str, message: str) -> Violation:
    return Violation(rule(rule_id), field, message)


# ------------------------------------------------------------------ checks


def _check_config(c: Config) -> list[Violation]:
    out = []
    if not c.name.strip() or len(c.name) > MAX_NAME:
        out.append(_v("tournament.config.name", "/name", "name must be 1 to 200 characters"))
    if c.profile not in PROFILES:
        out.append(
            _v("tournament.config.profile", "/profile", f"profile must be one of {', '.join(PROFILES)}")
        )
    if not 0 <= c.rounds <= MAX_ROUNDS:
        out.append(_v("tournament.config.rounds", "/rounds", "rounds must be 0 (recommended) to 30"))
    if c.cut not in CUT_SIZES:
        out.append(_v("tournament.config.cut", "/cut", "cut must be 0, 2, 4, 8, 16 or 32"))
    if c.best_of not in BEST_OF:
        out.append(_v("tournament.config.best-of", "/best_of", "best_of must be 1 or 3"))
    if not _game_ok(c.game):
        out.append(
            _v("tournament.config.game", "/game", "game must be 1 to 40 lower-case letters, digits or hyphens")
        )
    return out


def _game_ok(game: str) -> bool:
    return 0 < len(game) <= MAX_GAME and all(ch in "abcdefghijklmnopqrstuvwxyz0123456789-" for ch in game)


def _check_name(state: EventState, name: str, pid: str | None) -> list[Violation]:
    """A valid name that no other player of the event has [tournament.player.name,
    tournament.player.name-unique]."""
    if not name.strip() or len(name) > MAX_NAME:
        return [_v("tournament.player.name", "/name", "name must be 1 to 200 characters")]
    other = state.named(name)
    if other is not None and other != pid:
        return [
            _v(
                "tournament.player.name-unique",
                "/name",
                f"the name {name!r} is taken by {other} ({state.players[other].name!r})",
            )
        ]
    return []


def _check_known(state: EventState, pid: str) -> list[Violation]:
    if pid not in state.players:
        return [_v("tournament.player.unknown", "/player_id", f"unknown player {pid!r}")]
    return []


def check_pairings(
    state: EventState, pairings: Sequence[Pairing], bye: str | None, expected: Iterable[str]
) -> list[Violation]:
    """Every expected player exactly once, no unknown, dropped or repeated player
    [tournament.pairing.duplicate-player, tournament.pairing.incomplete]."""
    out: list[Violation] = []
    seen: set[str] = set()
    expected_set = set(expected)

    def one(pid: str, field: str) -> None:
        if pid not in state.players:
            out.append(_v("tournament.player.unknown", field, f"unknown player {pid!r}"))
        elif pid in seen:
            out.append(_v("tournament.pairing.duplicate-player", field, f"player {pid!r} appears twice"))
        elif pid in state.dropped:
            out.append(_v("tournament.player.dropped", field, f"player {pid!r} has dropped"))
        elif pid not in expected_set:
            out.append(_v("tournament.pairing.incomplete", field, f"player {pid!r} is not in this round"))
        seen.add(pid)

    tables = [p.table for p in pairings]
    if sorted(tables) != list(range(1, len(pairings) + 1)):
        out.append(_v("tournament.pairing.incomplete", "/pairings", "tables must be numbered 1..N once each"))
    for i, p in enumerate(pairings):
        if p.p1 == p.p2:
            out.append(
                _v("tournament.pairing.self", f"/pairings/{i}/p2", f"player {p.p1!r} paired with themself")
            )
        one(p.p1, f"/pairings/{i}/p1")
        if p.p1 != p.p2:
            one(p.p2, f"/pairings/{i}/p2")
    if bye is not None:
        one(bye, "/bye")
    missing = sorted(expected_set - seen)
    if missing:
        out.append(
            _v(
                "tournament.pairing.incomplete",
                "/pairings",
                f"active players not paired: {', '.join(missing[:10])}",
            )
        )
    return out


def _check_result(state: EventState, a: ReportResult) -> list[Violation]:
    rnd = state.round(a.number)
    if rnd is None:
        return [_v("tournament.round.not-current", "/round", f"round {a.number} has not been paired")]
    cur = state.current()
    if rnd is not cur:
        # tournament.result.past-round: an earlier Swiss round's result is corrected until the cut starts
        # (the pairings made from it stand); a cut round's winner already plays on
        if rnd.stage == "cut":
            return [_v("tournament.result.past-round", "/round",
                       f"round {a.number} is finished and its winners are paired in round {a.number + 1}")]
        if state.cut_seeds:
            return [_v("tournament.result.past-round", "/round",
                       f"round {a.number} is finished and the top cut is seeded from the Swiss standings")]
    if rnd.table(a.table) is None:
        return [_v("tournament.result.table-unknown", "/table", f"round {a.number} has no table {a.table}")]
    r, out = a.result, []
    bo = state.config.best_of
    for name in ("p1_wins", "p2_wins", "draws"):
        if getattr(r, name) < 0:
            out.append(_v("tournament.result.games", f"/{name}", f"{name} must not be negative"))
    if out:
        return out
    need = (bo + 1) // 2
    if max(r.p1_wins, r.p2_wins) > need:
        field = "/p1_wins" if r.p1_wins > need else "/p2_wins"
        out.append(_v("tournament.result.games", field, f"best-of-{bo}: at most {need} game wins"))
    elif r.p1_wins + r.p2_wins > bo:
        out.append(_v("tournament.result.games", "/p2_wins", f"best-of-{bo}: at most {bo} games won in all"))
    elif r.draws > bo or r.games == 0:
        # drawn games do not count toward the wins needed (MTR 2.1: a 1-1-1 match goes on to a fourth
        # game), so 2-1-1 fits a best-of-3; at most best-of of them, and one game at least
        out.append(_v("tournament.result.games", "/draws", f"best-of-{bo}: 0 to {bo} drawn games, 1 game at least"))
    if rnd.stage == "cut" and r.outcome() == 0:
        out.append(_v("tournament.result.cut-no-draw", "/p1_wins", "a top-cut match needs a winner"))
    old = state.results.get((a.number, a.table))
    if not out and old is not None and old != r and not a.correction:
        out.append(
            _v(
                "tournament.result.conflict",
                "/p1_wins",
                f"table {a.table} already has result {old.p1_wins}-{old.p2_wins}-{old.draws}; "
                "send it as a correction",
            )
        )
    return out


def check(state: EventState, action: Action) -> list[Violation]:
    """The violations ``action`` would cause; empty means it may be applied."""
    if isinstance(action, CreateTournament):
        if state.created:
            return [_v("tournament.event.created-once", "/", "tournament already created")]
        return _check_config(action.config)
    if not state.created:
        return [_v("tournament.event.created-once", "/", "tournament not created")]
    if state.archived:
        return [_v("tournament.event.archived", "/", "the event is archived (read-only)")]
    if isinstance(action, AddPlayer):
        out = []
        if state.cut_seeds:
            out.append(_v("tournament.player.after-swiss", "/", "the top cut has started"))
        out += _check_name(state, action.name, None)
        if action.player_id in state.players:
            out.append(_v("tournament.player.id-unique", "/player_id", "player id already used"))
        return out
    if isinstance(action, RenamePlayer):
        # tournament.player.rename: any time, under the name rules
        return _check_known(state, action.player_id) or _check_name(state, action.name, action.player_id)
    if isinstance(action, DropPlayer):
        if action.player_id not in state.players:
            return _check_known(state, action.player_id)
        if action.player_id in state.dropped:
            return [_v("tournament.player.dropped", "/player_id", "player has already dropped")]
        if state.cut_seeds:
            return [_v("tournament.player.after-swiss", "/player_id", "the top cut has started")]
        return []
    if isinstance(action, UndropPlayer):
        if action.player_id not in state.players:
            return _check_known(state, action.player_id)
        if action.player_id not in state.dropped:
            return [_v("tournament.player.undrop", "/player_id", "the player has not dropped")]
        if state.cut_seeds:
            return [_v("tournament.player.after-swiss", "/player_id", "the top cut has started")]
        return []
    if isinstance(action, SetVisibility):
        return []
    if isinstance(action, ArchiveEvent):
        return []  # archiving twice is refused above [tournament.event.archived]
    if isinstance(action, PairRound):
        return _check_pair(state, action)
    if isinstance(action, RepairRound | OverridePairings):
        cur = state.current()
        if cur is None or cur.number != action.number or cur.stage != "swiss":
            return [
                _v("tournament.round.not-current", "/round", "only the current Swiss round can be re-paired")
            ]
        if state.reported(cur.number):
            return [
                _v(
                    "tournament.round.repair-after-results",
                    "/round",
                    f"round {cur.number} already has results",
                )
            ]
        return check_pairings(state, action.pairings, action.bye, state.active())
    if isinstance(action, ReportResult):
        return _check_result(state, action)
    if isinstance(action, StartCut):
        return _check_cut(state, action.size) or check_pairings(state, action.pairings, None, action.seeds)
    raise TypeError(f"not a tournament action: {action!r}")


def _check_pair(state: EventState, a: PairRound) -> list[Violation]:
    cur = state.current()
    if cur is not None and not state.complete(cur.number):
        missing = len(cur.pairings) - state.reported(cur.number)
        return [
            _v(
                "tournament.round.results-missing",
                "/round",
                f"round {cur.number} still misses {missing} result(s)",
            )
        ]
    if a.number != len(state.rounds) + 1:
        return [_v("tournament.round.not-current", "/round", f"the next round is {len(state.rounds) + 1}")]
    if a.stage == "swiss":
        if state.cut_seeds:
            return [_v("tournament.swiss.rounds-complete", "/round", "the top cut has started")]
        if state.swiss_paired() >= state.planned_rounds():
            return [
                _v(
                    "tournament.swiss.rounds-complete",
                    "/round",
                    f"all {state.planned_rounds()} Swiss rounds are paired",
                )
            ]
        if len(state.active()) < 2:
            return [_v("tournament.round.min-players", "/round", "at least two active players are needed")]
        return check_pairings(state, a.pairings, a.bye, state.active())
    if not state.cut_seeds:
        return [_v("tournament.cut.swiss-unfinished", "/round", "the top cut has not started")]
    if state.champion() is not None:
        return [_v("tournament.cut.finished", "/round", "the top cut is over")]
    assert cur is not None
    return check_pairings(state, a.pairings, None, _cut_winners(state, cur))


def _check_cut(state: EventState, size: int) -> list[Violation]:
    if state.cut_seeds:
        return [_v("tournament.cut.started", "/size", "the top cut has already started")]
    if size not in CUT_SIZES or size == 0:
        return [_v("tournament.cut.size", "/size", "cut size must be 2, 4, 8, 16 or 32")]
    if size > len(state.active()):
        return [_v("tournament.cut.size", "/size", f"only {len(state.active())} active players")]
    cur = state.current()
    if state.swiss_paired() < state.planned_rounds() or (cur is not None and not state.complete(cur.number)):
        return [_v("tournament.cut.swiss-unfinished", "/size", "finish every Swiss round first")]
    return []


def _cut_winners(state: EventState, rnd: Round) -> list[str]:
    out = []
    for p in rnd.pairings:
        res = state.results[(rnd.number, p.table)]
        out.append(p.p1 if res.outcome() > 0 else p.p2)
    return out


# ------------------------------------------------------------------ apply / replay


def apply(state: EventState, action: Action) -> None:
    """Apply a checked action (trusting; see :func:`check`)."""
    if isinstance(action, CreateTournament):
        state.config = action.config
        state.created = True
    elif isinstance(action, AddPlayer):
        state.players[action.player_id] = Player(
            action.player_id, action.name, state.swiss_paired(), action.missed_as_loss
        )
        state.names.setdefault(name_key(action.name), action.player_id)
    elif isinstance(action, RenamePlayer):
        old = state.players[action.player_id]
        if state.names.get(name_key(old.name)) == old.id:
            del state.names[name_key(old.name)]
        state.players[action.player_id] = Player(old.id, action.name, old.joined_after, old.missed_as_loss)
        state.names.setdefault(name_key(action.name), action.player_id)
    elif isinstance(action, DropPlayer):
        # tournament.player.drop-mid-round: the current round (its pairing, its result) is left as
        # it is; only rounds paired from now on leave the player out (see check_pairings).
        state.dropped.add(action.player_id)
    elif isinstance(action, UndropPlayer):
        # tournament.player.undrop: paired again from the next round; rounds missed while out
        # are losses (standings.records)
        state.dropped.discard(action.player_id)
        state.back_after[action.player_id] = len(state.rounds)
    elif isinstance(action, SetVisibility):
        state.config = replace(state.config, public=action.public)
    elif isinstance(action, ArchiveEvent):
        state.archived = True
    elif isinstance(action, PairRound):
        if not state.rounds:
            state.entrants_at_round_one = len(state.players)
        state.rounds.append(Round(action.number, action.stage, action.pairings, action.bye))
    elif isinstance(action, RepairRound | OverridePairings):
        state.rounds[-1] = Round(action.number, "swiss", action.pairings, action.bye)
    elif isinstance(action, ReportResult):
        state.results[(action.number, action.table)] = action.result
    elif isinstance(action, StartCut):
        state.cut_seeds = action.seeds
        state.rounds.append(Round(action.number, "cut", action.pairings))
    else:
        raise TypeError(f"not a tournament action: {action!r}")
    state.version += 1


def replay(actions: Iterable[Action], strict: bool = True) -> EventState:
    """Rebuild an event from its log; with ``strict`` every action is checked first."""
    state = EventState()
    for a in actions:
        if strict:
            bad = check(state, a)
            if bad:
                raise Rejected(bad)
        apply(state, a)
    return state


# ------------------------------------------------------------------ planners


@dataclass(frozen=True)
class Plan:
    action: PairRound | RepairRound | StartCut
    swiss: SwissPlan | None = None


def _raise_if(violations: list[Violation]) -> None:
    if violations:
        raise Rejected(violations)


def plan_next_round(state: EventState) -> Plan:
    """Pair the next round: Swiss until the planned rounds are paired, then (once the cut has
    started) the next elimination round. Raises :class:`Rejected`."""
    number = len(state.rounds) + 1
    if state.cut_seeds:
        probe = PairRound(number, "cut", ())
        bad = _check_pair(state, probe)
        if any(v.rule != "tournament.pairing.incomplete" for v in bad):
            _raise_if(bad)
        cur = state.current()
        assert cur is not None
        seed_of = {pid: i for i, pid in enumerate(state.cut_seeds)}
        action = PairRound(number, "cut", next_cut_round(_cut_winners(state, cur), seed_of))
        _raise_if(check(state, action))
        return Plan(action)
    probe_bad = [
        v
        for v in _check_pair(state, PairRound(number, "swiss", ()))
        if not v.rule.startswith("tournament.pairing.")
    ]
    _raise_if(probe_bad)
    plan = pair_swiss(swiss_input(state, number))
    action = PairRound(number, "swiss", plan.pairings, plan.bye)
    _raise_if(check(state, action))
    return Plan(action, plan)


def plan_repair(state: EventState) -> Plan:
    """Fresh pairings for the current Swiss round (e.g. after a late entry or a drop)."""
    cur = state.current()
    number = cur.number if cur is not None else 0
    _raise_if(
        [v for v in check(state, RepairRound(number, ())) if not v.rule.startswith("tournament.pairing.")]
    )
    plan = pair_swiss(swiss_input(state, number))
    action = RepairRound(number, plan.pairings, plan.bye)
    _raise_if(check(state, action))
    return Plan(action, plan)


def plan_cut(state: EventState, size: int | None = None) -> Plan:
    """Start the top cut: the best ``size`` active players of the Swiss standings, seeded 1
    against N [tournament.cut.seeding]."""
    size = state.config.cut if size is None else size
    _raise_if(_check_cut(state, size))
    seeds = [s.player_id for s in standings(state, only=state.active())][:size]
    action = StartCut(size, tuple(seeds), len(state.rounds) + 1, first_cut_round(seeds))
    _raise_if(check(state, action))
    return Plan(action)
