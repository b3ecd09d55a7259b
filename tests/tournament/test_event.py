"""Unit tests of the event log: players, drops, late entries, re-pairing, overrides, results."""

from __future__ import annotations

from fractions import Fraction

import pytest

import judge.tournament as T
from judge.tournament.prng import draw

from .sim import do, new_event, play_rounds, report_all


def rules_of(s: T.EventState, action: T.Action) -> list[tuple[str, str]]:
    return [(v.rule, v.field) for v in T.check(s, action)]


def test_prng_is_the_documented_sha256_construction() -> None:
    import hashlib

    expected = int.from_bytes(
        hashlib.sha256(b"arbiter/tournament/v1\x0042\x00order\x001\x00p3").digest()[:8], "big"
    )
    assert draw(42, "order", 1, "p3") == expected
    assert draw(42, "order", 1, "p3") != draw(43, "order", 1, "p3")


def test_every_cited_rule_id_is_indexed() -> None:
    import pathlib
    import re

    root = pathlib.Path(T.__file__).parent
    cited = set()
    for path in root.glob("*.py"):
        cited |= set(re.findall(r"tournament\.[a-z-]+(?:\.[a-z-]+)+", path.read_text()))
    cited = {c for c in cited if not c.endswith(("py", "rules"))}
    assert cited <= set(T.RULES), cited - set(T.RULES)
    with pytest.raises(KeyError):
        T.rule("tournament.no.such-rule")


@pytest.mark.rules("tournament.swiss.all-paired", "tournament.bye.lowest-unbyed")
def test_round_one_pairs_everyone_once_and_gives_the_bye() -> None:
    s = new_event(9)
    plan = T.plan_next_round(s)
    assert plan.swiss is not None and plan.swiss.objective.rematches == 0
    a = plan.action
    assert isinstance(a, T.PairRound) and a.bye is not None
    assert len(a.pairings) == 4
    # tournament.bye.lowest-unbyed: in round 1 the lowest-ranked is last in the seeded draw
    assert a.bye == T.standings(s)[-1].player_id


@pytest.mark.rules("tournament.bye.lowest-unbyed", "tournament.bye.counts-as-win", "tournament.tiebreak.points")
def test_bye_goes_to_lowest_ranked_player_without_one() -> None:
    s = new_event(7, seed=3)
    play_rounds(s, 1)
    first_bye = s.rounds[0].bye
    plan = T.plan_next_round(s).action
    ranking = [x.player_id for x in T.standings(s)]
    unbyed = [p for p in ranking if p != first_bye]
    assert plan.bye == unbyed[-1]
    # and the bye counts as a win
    assert T.records(s)[first_bye].points == 3


@pytest.mark.rules("tournament.swiss.pair-down", "tournament.swiss.tables")
def test_same_record_players_meet_and_tables_go_to_best_records() -> None:
    s = new_event(16, seed=11)
    play_rounds(s, 2, draws=False)
    a = T.plan_next_round(s).action
    pts = {x.player_id: x.points for x in T.standings(s)}
    assert all(pts[p.p1] == pts[p.p2] for p in a.pairings)  # 16 players, 2 rounds: groups are even
    tops = [pts[p.p1] for p in a.pairings]
    assert tops == sorted(tops, reverse=True)
    assert pts[a.pairings[0].p1] == 6


@pytest.mark.rules("tournament.player.dropped", "tournament.player.unknown")
def test_drop_is_never_paired_again_and_stays_in_standings() -> None:
    s = new_event(8)
    play_rounds(s, 1)
    do(s, T.DropPlayer("p2"))
    a = T.plan_next_round(s).action
    assert "p2" not in {x for p in a.pairings for x in (p.p1, p.p2)}
    assert a.bye is not None
    table = T.standings(s)
    assert any(x.player_id == "p2" and x.dropped for x in table)
    assert rules_of(s, T.DropPlayer("p2")) == [("tournament.player.dropped", "/player_id")]
    assert rules_of(s, T.DropPlayer("p99")) == [("tournament.player.unknown", "/player_id")]


@pytest.mark.rules("tournament.player.late-entry")
def test_late_entry_takes_losses_for_missed_rounds_if_chosen() -> None:
    s = new_event(8)
    play_rounds(s, 2)
    do(s, T.AddPlayer(s.next_player_id(), "Late with losses", True))
    do(s, T.AddPlayer(s.next_player_id(), "Late without", False))
    recs = T.records(s)
    assert [e.kind for e in recs["p9"].entries] == ["missed", "missed"]
    assert recs["p9"].count(-1) == 2 and recs["p9"].points == 0
    assert recs["p10"].entries == ()
    a = T.plan_next_round(s).action
    assert {"p9", "p10"} <= {x for p in a.pairings for x in (p.p1, p.p2)} | {a.bye}


@pytest.mark.rules("tournament.round.repair-after-results", "tournament.player.late-entry")
def test_late_entry_during_a_round_and_repair_before_results() -> None:
    s = new_event(8)
    do(s, T.plan_next_round(s).action)
    do(s, T.AddPlayer(s.next_player_id(), "Latecomer"))
    repair = T.plan_repair(s).action
    do(s, repair)
    assert "p9" in s.rounds[0].players()
    report_all(s)
    assert T.records(s)["p9"].entries[0].kind in ("match", "bye")  # played, not missed
    with pytest.raises(T.Rejected) as err:
        T.plan_repair(s)
    assert err.value.violations[0].rule == "tournament.round.repair-after-results"


@pytest.mark.rules("tournament.round.results-missing")
def test_next_round_waits_for_results() -> None:
    s = new_event(6)
    do(s, T.plan_next_round(s).action)
    do(s, T.ReportResult(1, 1, T.Result(2, 0)))
    with pytest.raises(T.Rejected) as err:
        T.plan_next_round(s)
    assert err.value.violations[0].rule == "tournament.round.results-missing"
    assert "2 result(s)" in err.value.violations[0].message


@pytest.mark.rules("tournament.pairing.duplicate-player", "tournament.pairing.incomplete", "tournament.player.unknown")
def test_manual_override_is_validated() -> None:
    s = new_event(6)
    do(s, T.plan_next_round(s).action)
    P = T.Pairing
    dup = T.OverridePairings(1, (P(1, "p1", "p2"), P(2, "p1", "p3"), P(3, "p5", "p6")))
    got = rules_of(s, dup)
    assert ("tournament.pairing.duplicate-player", "/pairings/1/p1") in got
    assert ("tournament.pairing.incomplete", "/pairings") in got  # p4 missing
    unknown = T.OverridePairings(1, (P(1, "p1", "p2"), P(2, "p3", "zz"), P(3, "p5", "p6")))
    assert ("tournament.player.unknown", "/pairings/1/p2") in rules_of(s, unknown)
    good = T.OverridePairings(1, (P(1, "p1", "p2"), P(2, "p3", "p4"), P(3, "p5", "p6")))
    assert rules_of(s, good) == []
    do(s, good)
    assert s.rounds[0].pairings == good.pairings


@pytest.mark.rules(
    "tournament.result.games",
    "tournament.result.table-unknown",
    "tournament.round.not-current",
    "tournament.result.conflict",
    "tournament.config.best-of",
)
def test_result_validation() -> None:
    s = new_event(4, best_of=3)
    do(s, T.plan_next_round(s).action)
    R = T.ReportResult
    assert rules_of(s, R(1, 1, T.Result(-1, 2))) == [("tournament.result.games", "/p1_wins")]
    assert rules_of(s, R(1, 1, T.Result(3, 0))) == [("tournament.result.games", "/p1_wins")]
    assert rules_of(s, R(1, 1, T.Result(2, 1, 1))) == []  # a drawn game does not count (MTR 2.1): a 4th is played
    assert rules_of(s, R(1, 1, T.Result(2, 2))) == [("tournament.result.games", "/p2_wins")]
    assert rules_of(s, R(1, 1, T.Result(1, 1, 4))) == [("tournament.result.games", "/draws")]
    assert rules_of(s, R(1, 1, T.Result(0, 0, 0))) == [("tournament.result.games", "/draws")]
    assert rules_of(s, R(1, 9, T.Result(2, 1))) == [("tournament.result.table-unknown", "/table")]
    assert rules_of(s, R(2, 1, T.Result(2, 1))) == [("tournament.round.not-current", "/round")]
    do(s, R(1, 1, T.Result(2, 1)))
    assert rules_of(s, R(1, 1, T.Result(2, 1))) == []  # the same report again is harmless
    assert rules_of(s, R(1, 1, T.Result(0, 2))) == [("tournament.result.conflict", "/p1_wins")]
    assert rules_of(s, R(1, 1, T.Result(0, 2), correction=True)) == []
    do(s, R(1, 2, T.Result(2, 0)))
    do(s, T.plan_next_round(s).action)
    assert rules_of(s, R(3, 1, T.Result(2, 0))) == [("tournament.round.not-current", "/round")]
    # round 1 is over: its results are still checked as any other
    assert rules_of(s, R(1, 9, T.Result(2, 0), correction=True)) == [("tournament.result.table-unknown", "/table")]
    assert rules_of(s, R(1, 1, T.Result(3, 0), correction=True)) == [("tournament.result.games", "/p1_wins")]
    assert rules_of(s, R(1, 1, T.Result(2, 0))) == [("tournament.result.conflict", "/p1_wins")]


@pytest.mark.rules("tournament.result.past-round")
def test_an_earlier_swiss_result_is_corrected_until_the_cut() -> None:
    s = new_event(8, rounds=3, cut=4)
    R = T.ReportResult
    play_rounds(s, 2, draws=False)
    do(s, T.plan_next_round(s).action)  # round 3 paired: rounds 1 and 2 are over
    p = s.round(1).pairings[0]
    old = s.results[(1, p.table)]
    before = {x.player_id: x.points for x in T.standings(s)}
    flipped = T.Result(old.p2_wins, old.p1_wins)
    assert rules_of(s, R(1, p.table, flipped)) == [("tournament.result.conflict", "/p1_wins")]
    pairings = s.round(3).pairings
    do(s, R(1, p.table, flipped, correction=True))
    after = {x.player_id: x.points for x in T.standings(s)}
    # the winner's 3 points went to the other player; the round paired since stands
    assert after[p.p1] - before[p.p1] == (3 if flipped.outcome() > 0 else -3)
    assert after[p.p2] - before[p.p2] == -(after[p.p1] - before[p.p1])
    assert s.round(3).pairings == pairings and s.results[(1, p.table)] == flipped
    report_all(s)
    do(s, T.plan_cut(s).action)
    # the cut is seeded from the standings: the Swiss results are final now, and so is a cut round once
    # its winners are paired on
    assert rules_of(s, R(1, p.table, old, correction=True)) == [("tournament.result.past-round", "/round")]
    report_all(s)
    do(s, T.plan_next_round(s).action)
    assert rules_of(s, R(4, 1, T.Result(0, 2), correction=True)) == [("tournament.result.past-round", "/round")]
    # the final's winner plays on nowhere: a result typed wrong there is corrected, and the champion with it
    report_all(s)
    final = s.round(5).pairings[0]
    won = s.results[(5, final.table)]
    assert s.champion() == (final.p1 if won.outcome() > 0 else final.p2)
    do(s, R(5, final.table, T.Result(won.p2_wins, won.p1_wins), correction=True))
    assert s.champion() == (final.p2 if won.outcome() > 0 else final.p1)


@pytest.mark.rules("tournament.tiebreak.destiny.sos")
def test_destiny_tiebreakers_exact() -> None:
    # p1 beats p2, p3 beats p4 (round 1); p1 beats p3, p2 beats p4 (round 2) — fixed by override.
    s = new_event(4, seed=1, profile="destiny", best_of=1)
    P = T.Pairing
    do(s, T.plan_next_round(s).action)
    do(s, T.OverridePairings(1, (P(1, "p1", "p2"), P(2, "p3", "p4"))))
    do(s, T.ReportResult(1, 1, T.Result(1, 0)))
    do(s, T.ReportResult(1, 2, T.Result(1, 0)))
    do(s, T.plan_next_round(s).action)
    do(s, T.OverridePairings(2, (P(1, "p1", "p3"), P(2, "p2", "p4"))))
    do(s, T.ReportResult(2, 1, T.Result(1, 0)))
    do(s, T.ReportResult(2, 2, T.Result(1, 0)))
    table = {x.player_id: x for x in T.standings(s)}
    # win ratios: p1 1, p2 1/2, p3 1/2, p4 0
    assert dict(table["p1"].tiebreaks)["sos"] == Fraction(1, 2)  # (1/2 + 1/2)/2
    assert dict(table["p4"].tiebreaks)["sos"] == Fraction(1, 2)
    assert dict(table["p2"].tiebreaks)["sos"] == Fraction(1, 2)  # (1 + 0)/2
    assert dict(table["p3"].tiebreaks)["esos"] == Fraction(1, 2)
    order = [x.player_id for x in T.standings(s)]
    assert order[0] == "p1" and order[-1] == "p4"


@pytest.mark.rules(
    "tournament.tiebreak.mtg.omw",
    "tournament.tiebreak.mtg.gw",
    "tournament.tiebreak.mtg.ogw",
    "tournament.bye.counts-as-win",
)
def test_mtg_floor_and_byes_not_in_opponent_figures() -> None:
    s = new_event(3, seed=5, profile="mtg", best_of=3)
    do(s, T.plan_next_round(s).action)
    bye = s.rounds[0].bye
    p = s.rounds[0].pairings[0]
    do(s, T.ReportResult(1, 1, T.Result(2, 0)))
    recs = T.records(s)
    # the bye player's own figures count the bye: 3 points, game-win 2/2
    assert recs[bye].points == 3
    assert recs[bye].game_win_pct(True, 2) == 1
    # but as an opponent, a player with only a bye shows the 1/3 floor, not 100 %
    assert recs[bye].match_win_pct(include_byes=False) == 0
    figs = dict(next(x for x in T.standings(s) if x.player_id == p.p1).tiebreaks)
    assert figs["omw"] == Fraction(1, 3)  # loser's 0 % floored
    assert figs["gw"] == 1
    assert figs["ogw"] == Fraction(1, 3)


@pytest.mark.rules("tournament.rounds.recommended", "tournament.cut.seeding")
def test_recommended_rounds_and_bracket() -> None:
    assert [T.recommended_rounds(n) for n in (2, 8, 9, 300, 1000, 2000)] == [3, 3, 4, 9, 10, 11]
    assert T.bracket_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert T.bracket_order(2) == [1, 2]


@pytest.mark.rules(
    "tournament.swiss.rounds-complete",
    "tournament.cut.seeding",
    "tournament.result.cut-no-draw",
    "tournament.cut.started",
    "tournament.cut.finished",
)
def test_top_cut_single_elimination_seeded_by_standings() -> None:
    s = new_event(20, seed=9, rounds=3, cut=8)
    play_rounds(s, 3, draws=False)
    with pytest.raises(T.Rejected) as err:
        T.plan_next_round(s)
    assert err.value.violations[0].rule == "tournament.swiss.rounds-complete"
    seeds = [x.player_id for x in T.standings(s)][:8]
    cut = T.plan_cut(s).action
    do(s, cut)
    assert [(p.p1, p.p2) for p in cut.pairings] == [
        (seeds[0], seeds[7]),
        (seeds[3], seeds[4]),
        (seeds[1], seeds[6]),
        (seeds[2], seeds[5]),
    ]
    assert (
        T.check(s, T.ReportResult(cut.number, 1, T.Result(1, 1, 1)))[0].rule
        == "tournament.result.cut-no-draw"
    )
    with pytest.raises(T.Rejected) as err:
        T.plan_cut(s)
    assert err.value.violations[0].rule == "tournament.cut.started"
    for _ in range(3):
        report_all(s, draws=False)
        if s.champion():
            break
        do(s, T.plan_next_round(s).action)
    assert s.stage() == "finished" and s.champion() in seeds
    assert [len(r.pairings) for r in s.rounds if r.stage == "cut"] == [4, 2, 1]
    with pytest.raises(T.Rejected) as err:
        T.plan_next_round(s)
    assert [v.rule for v in err.value.violations] == ["tournament.cut.finished"]


@pytest.mark.rules("tournament.cut.swiss-unfinished", "tournament.cut.size")
def test_cut_needs_finished_swiss_and_enough_players() -> None:
    s = new_event(6, rounds=2)
    assert T.check(s, T.StartCut(4, (), 1, ()))[0].rule == "tournament.cut.swiss-unfinished"
    play_rounds(s, 2)
    assert T.check(s, T.StartCut(8, (), 3, ()))[0].rule == "tournament.cut.size"
    assert T.check(s, T.StartCut(3, (), 3, ()))[0].rule == "tournament.cut.size"


def test_actions_round_trip_json_and_replay() -> None:
    s = new_event(11, seed=2, rounds=3, cut=4)
    play_rounds(s, 3)
    do(s, T.plan_cut(s).action)
    actions = _log_of(s)
    assert all(T.action_from_json(a.to_json()) == a for a in actions)
    again = T.replay([T.action_from_json(a.to_json()) for a in actions])
    assert again.rounds == s.rounds and again.results == s.results and again.cut_seeds == s.cut_seeds
    assert again.version == len(actions)


def _log_of(s: T.EventState) -> list[T.Action]:
    """Reconstruct an equivalent log from a state (create, players, rounds, results, cut)."""
    out: list[T.Action] = [T.CreateTournament(s.config)]
    out += [T.AddPlayer(p.id, p.name, p.missed_as_loss) for p in s.players.values()]
    for r in s.rounds:
        if (
            r.stage == "cut"
            and r.number == len(s.rounds) - len([x for x in s.rounds if x.stage == "cut"]) + 1
        ):
            out.append(T.StartCut(len(s.cut_seeds), s.cut_seeds, r.number, r.pairings))
        else:
            out.append(T.PairRound(r.number, r.stage, r.pairings, r.bye))
        out += [
            T.ReportResult(r.number, t, res) for (n, t), res in sorted(s.results.items()) if n == r.number
        ]
    return out


@pytest.mark.rules(
    "tournament.config.name",
    "tournament.config.profile",
    "tournament.config.rounds",
    "tournament.config.cut",
    "tournament.config.best-of",
)
def test_config_validation() -> None:
    bad = T.CreateTournament(T.Config("", "chess", 99, 3, 2, 0))
    got = {v.field for v in T.check(T.EventState(), bad)}
    assert got == {"/name", "/profile", "/rounds", "/cut", "/best_of"}


@pytest.mark.rules("tournament.swiss.rounds-complete")
def test_an_event_with_no_cut_is_finished_when_its_last_swiss_round_is_reported() -> None:
    s = new_event(10, seed=4, rounds=2)
    assert s.stage() == "registration" and not s.swiss_over()
    play_rounds(s, 1, draws=True)
    do(s, T.plan_next_round(s).action)
    assert s.stage() == "swiss" and not s.swiss_over()  # the last round is paired, not reported
    report_all(s, draws=True)
    assert s.swiss_over() and s.stage() == "finished" and s.champion() is None
    # with a cut, the end of the Swiss rounds is not the end of the event
    c = new_event(10, seed=4, rounds=2, cut=4)
    play_rounds(c, 2, draws=True)
    assert c.swiss_over() and c.stage() == "swiss"
    do(c, T.plan_cut(c).action)
    assert c.stage() == "cut" and not c.swiss_over()
