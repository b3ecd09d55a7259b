"""Players in the pure core: unique names, rename, drop mid-round, re-entry, late entry during a
round, visibility, archive and the places after a cut."""

from __future__ import annotations

import pytest

import judge.tournament as T

from .sim import do, new_event, play_rounds, report_all


def rules_of(s: T.EventState, action: T.Action) -> list[tuple[str, str]]:
    return [(v.rule, v.field) for v in T.check(s, action)]


def record(s: T.EventState, pid: str) -> tuple[int, int, int, int]:
    x = next(x for x in T.standings(s) if x.player_id == pid)
    return x.points, x.wins, x.losses, x.draws


@pytest.mark.rules("tournament.player.name-unique")
@pytest.mark.parametrize("name", ["player 1", "PLAYER 1", "  Player   1 ", "Player\t1"])
def test_a_name_that_differs_only_in_case_or_spaces_clashes(name: str) -> None:
    s = new_event(3)
    bad = T.check(s, T.AddPlayer("p4", name))
    assert [(v.rule, v.field) for v in bad] == [("tournament.player.name-unique", "/name")]
    assert "p1" in bad[0].message and "'Player 1'" in bad[0].message  # the clash is named
    assert rules_of(s, T.AddPlayer("p4", "Player 11")) == []


@pytest.mark.rules("tournament.player.rename", "tournament.player.name-unique", "tournament.player.unknown")
def test_rename_keeps_the_record_and_frees_the_old_name() -> None:
    s = new_event(4)
    play_rounds(s, 1)
    before = record(s, "p2")
    assert rules_of(s, T.RenamePlayer("p2", "player 3")) == [("tournament.player.name-unique", "/name")]
    assert rules_of(s, T.RenamePlayer("p2", "PLAYER 2")) == []  # a player may change their own case
    assert rules_of(s, T.RenamePlayer("p9", "Nobody")) == [("tournament.player.unknown", "/player_id")]
    assert rules_of(s, T.RenamePlayer("p2", " ")) == [("tournament.player.name", "/name")]
    do(s, T.RenamePlayer("p2", "Rey Skywalker"))
    assert s.players["p2"].name == "Rey Skywalker" and record(s, "p2") == before
    assert rules_of(s, T.AddPlayer("p5", "Player 2")) == []  # the old name is free again
    assert rules_of(s, T.AddPlayer("p5", "rey skywalker")) == [("tournament.player.name-unique", "/name")]
    # the log replays to the same names
    again = T.replay(T.action_from_json(a.to_json()) for a in _log(s))
    assert {p: x.name for p, x in again.players.items()} == {p: x.name for p, x in s.players.items()}


def _log(s: T.EventState) -> list[T.Action]:
    out: list[T.Action] = [T.CreateTournament(s.config)]
    for pid in s.players:
        out.append(T.AddPlayer(pid, f"Player {pid[1:]}"))
    for rnd in s.rounds:
        out.append(T.PairRound(rnd.number, rnd.stage, rnd.pairings, rnd.bye))
        for p in rnd.pairings:
            res = s.results.get((rnd.number, p.table))
            if res is not None:
                out.append(T.ReportResult(rnd.number, p.table, res))
    out.append(T.RenamePlayer("p2", s.players["p2"].name))
    return out


@pytest.mark.rules("tournament.player.drop-mid-round", "tournament.player.dropped")
def test_a_drop_mid_round_keeps_the_match_and_leaves_the_next_round() -> None:
    s = new_event(8)
    do(s, T.plan_next_round(s).action)
    cur = s.current()
    assert cur is not None
    table = next(p for p in cur.pairings if "p3" in (p.p1, p.p2))
    do(s, T.DropPlayer("p3"))
    # the match stands: it can be reported and counts for both players
    win = T.Result(2, 0) if table.p1 == "p3" else T.Result(0, 2)
    assert rules_of(s, T.ReportResult(1, table.table, win)) == []
    report_all(s)
    do(s, T.ReportResult(1, table.table, win, correction=True))
    assert record(s, "p3")[:2] == (3, 1)
    nxt = T.plan_next_round(s).action
    assert isinstance(nxt, T.PairRound)
    assert "p3" not in [x for p in nxt.pairings for x in (p.p1, p.p2)] + [nxt.bye]
    assert nxt.bye is not None  # 7 active players


@pytest.mark.rules("tournament.player.undrop", "tournament.player.after-swiss")
def test_undrop_pairs_again_and_missed_rounds_are_losses() -> None:
    s = new_event(8, rounds=4, cut=2)
    play_rounds(s, 1)
    assert rules_of(s, T.UndropPlayer("p5")) == [("tournament.player.undrop", "/player_id")]
    do(s, T.DropPlayer("p5"))
    before = record(s, "p5")
    play_rounds(s, 2)  # rounds 2 and 3 without p5
    assert record(s, "p5") == before  # a dropped player's record stands
    do(s, T.UndropPlayer("p5"))
    points, wins, losses, draws = record(s, "p5")
    assert (points, wins + losses + draws) == (before[0], 3) and losses == before[2] + 2
    nxt = T.plan_next_round(s).action
    assert isinstance(nxt, T.PairRound)
    assert "p5" in [x for p in nxt.pairings for x in (p.p1, p.p2)] + [nxt.bye]
    do(s, nxt)
    report_all(s)
    back = record(s, "p5")
    do(s, T.DropPlayer("p5"))  # dropped again: the rounds missed the first time stay losses
    assert record(s, "p5") == back and back[2] >= before[2] + 2
    do(s, T.DropPlayer("p6"))
    do(s, T.plan_cut(s).action)
    assert rules_of(s, T.UndropPlayer("p6")) == [("tournament.player.after-swiss", "/player_id")]


@pytest.mark.rules("tournament.player.undrop")
def test_a_player_dropped_and_back_within_the_round_misses_nothing() -> None:
    s = new_event(6)
    do(s, T.plan_next_round(s).action)
    do(s, T.DropPlayer("p1"))
    do(s, T.UndropPlayer("p1"))
    report_all(s)
    assert sum(record(s, "p1")[1:]) == 1


@pytest.mark.rules("tournament.player.late-entry-round-in-progress", "tournament.player.late-entry")
def test_a_late_entry_during_a_round_sits_it_out_unless_repaired() -> None:
    s = new_event(7)
    do(s, T.plan_next_round(s).action)
    do(s, T.AddPlayer("p8", "Late With Loss"))
    do(s, T.AddPlayer("p9", "Late Without", missed_as_loss=False))
    report_all(s)
    assert record(s, "p8") == (0, 0, 1, 0)  # a missed round: a loss, never the bye
    assert record(s, "p9") == (0, 0, 0, 0)
    recs = T.records(s)
    assert [e.kind for e in recs["p8"].entries] == ["missed"] and recs["p8"].byes == 0
    assert recs["p9"].entries == ()
    # repaired before any result, the late entry plays the round in progress
    s2 = new_event(7)
    do(s2, T.plan_next_round(s2).action)
    do(s2, T.AddPlayer("p8", "Late"))
    do(s2, T.plan_repair(s2).action)
    report_all(s2)
    assert sum(record(s2, "p8")[1:]) == 1 and T.standings(s2)[0].points == 3
    assert all(e.kind != "missed" for e in T.records(s2)["p8"].entries)


@pytest.mark.rules("tournament.event.archived", "tournament.event.visibility", "tournament.config.game")
def test_archive_makes_the_event_read_only_and_visibility_is_logged() -> None:
    s = new_event(4)
    assert s.config.public and s.config.game == "destiny"
    do(s, T.SetVisibility(False))
    assert not s.config.public
    do(s, T.ArchiveEvent())
    for action in (T.AddPlayer("p5", "New"), T.DropPlayer("p1"), T.ArchiveEvent(), T.SetVisibility(True)):
        assert rules_of(s, action) == [("tournament.event.archived", "/")]
    bad_game = T.CreateTournament(T.Config("Open", game="Star Wars!"))
    assert rules_of(T.EventState(), bad_game) == [("tournament.config.game", "/game")]
    log = [T.CreateTournament(T.Config("Open", game="swtcg", public=False)), T.SetVisibility(True), T.ArchiveEvent()]
    again = T.replay(T.action_from_json(a.to_json()) for a in log)
    assert again.config.public and again.archived and again.config.game == "swtcg"


@pytest.mark.rules("tournament.cut.placings", "tournament.cut.seeding")
def test_placings_follow_the_cut_round_reached() -> None:
    s = new_event(12, rounds=3, cut=8)
    play_rounds(s, 3, draws=False)
    assert T.placings(s) == []
    do(s, T.plan_cut(s).action)
    swiss_rank = {x.player_id: x.rank for x in T.standings(s)}
    seeds = s.cut_seeds
    # during the quarter-finals: the 8 are unplaced, the other 4 are 9th-12th in Swiss order
    during = T.placings(s)
    assert [p.place for p in during[:8]] == [None] * 8 and {p.player_id for p in during[:8]} == set(seeds)
    assert [p.place for p in during[8:]] == [9, 10, 11, 12]
    assert [swiss_rank[p.player_id] for p in during[8:]] == sorted(swiss_rank[p.player_id] for p in during[8:])
    first = s.rounds[-1].pairings[0]
    do(s, T.ReportResult(s.rounds[-1].number, first.table, T.Result(0, 2)))
    partly = {p.player_id: p for p in T.placings(s)}
    assert partly[first.p2].reached == "semi-final" and partly[first.p2].place is None
    assert partly[first.p1].reached == "quarter-final" and partly[first.p1].place == 5
    assert partly[s.rounds[-1].pairings[1].p1].reached == "quarter-final"
    assert partly[s.rounds[-1].pairings[1].p1].place is None
    for p in s.rounds[-1].pairings[1:]:
        do(s, T.ReportResult(s.rounds[-1].number, p.table, T.Result(2, 1)))
    do(s, T.plan_next_round(s).action)
    for _ in range(2):
        report_all(s, draws=False)
        if s.champion() is None:
            do(s, T.plan_next_round(s).action)
    final = T.placings(s)
    assert [p.place for p in final] == list(range(1, 13))
    assert final[0].player_id == s.champion() and final[0].reached == "champion"
    assert final[1].reached == "final"
    assert [p.reached for p in final[2:4]] == ["semi-final"] * 2
    assert [p.reached for p in final[4:8]] == ["quarter-final"] * 4
    assert {p.player_id for p in final[:8]} == set(seeds)
    # within a round, by Swiss rank
    assert swiss_rank[final[4].player_id] < swiss_rank[final[5].player_id] < swiss_rank[final[7].player_id]
    assert all(p.reached == "swiss" for p in final[8:])
