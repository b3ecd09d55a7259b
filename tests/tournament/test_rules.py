"""Tournament rules the event and pairing tests did not yet pin down: configuration and name bounds,
the top cut freezing the player list, minimum players, self-pairing, re-pairing only the current
round, the seeded draws, pair-downs, and exact tie-break figures computed by hand."""

from __future__ import annotations

from fractions import Fraction

import pytest

import judge.tournament as T
from judge.tournament.prng import draw

from .sim import do, new_event, play_rounds, report_all

P = T.Pairing


def rules_of(s: T.EventState, action: T.Action) -> list[tuple[str, str]]:
    return [(v.rule, v.field) for v in T.check(s, action)]


def create(name: str = "Test", profile: str = "destiny", rounds: int = 0, cut: int = 0, best_of: int = 1) -> list[
    tuple[str, str]
]:
    return rules_of(T.EventState(), T.CreateTournament(T.Config(name, profile, rounds, cut, best_of)))


def pair_round(s: T.EventState, number: int, pairings: tuple[T.Pairing, ...], bye: str | None = None) -> None:
    """Pair round ``number`` as planned, then replace it with the organizer's own pairings."""
    do(s, T.plan_next_round(s).action)
    do(s, T.OverridePairings(number, pairings, bye))


# ---------------------------------------------------------------------- configuration and players


@pytest.mark.rules("tournament.config.name")
@pytest.mark.parametrize(("name", "ok"), [("x" * 200, True), ("x" * 201, False), ("", False), ("   ", False)])
def test_a_tournament_name_is_one_to_two_hundred_characters(name: str, ok: bool) -> None:
    assert create(name=name) == ([] if ok else [("tournament.config.name", "/name")])


@pytest.mark.rules("tournament.config.profile")
@pytest.mark.parametrize(("profile", "ok"), [("destiny", True), ("mtg", True), ("swiss", False), ("", False)])
def test_the_profile_is_destiny_or_mtg(profile: str, ok: bool) -> None:
    assert create(profile=profile) == ([] if ok else [("tournament.config.profile", "/profile")])


@pytest.mark.rules("tournament.config.rounds")
@pytest.mark.parametrize(("rounds", "ok"), [(0, True), (1, True), (30, True), (31, False), (-1, False)])
def test_swiss_rounds_are_zero_to_thirty(rounds: int, ok: bool) -> None:
    assert create(rounds=rounds) == ([] if ok else [("tournament.config.rounds", "/rounds")])


@pytest.mark.rules("tournament.config.cut")
@pytest.mark.parametrize(("cut", "ok"), [(0, True), (2, True), (32, True), (1, False), (6, False), (64, False)])
def test_the_cut_is_none_or_a_power_of_two_up_to_thirty_two(cut: int, ok: bool) -> None:
    assert create(cut=cut) == ([] if ok else [("tournament.config.cut", "/cut")])


@pytest.mark.rules("tournament.config.best-of")
@pytest.mark.parametrize(("best_of", "ok"), [(1, True), (3, True), (2, False), (5, False), (0, False)])
def test_matches_are_best_of_one_or_three(best_of: int, ok: bool) -> None:
    assert create(best_of=best_of) == ([] if ok else [("tournament.config.best-of", "/best_of")])


@pytest.mark.rules("tournament.rounds.recommended", "tournament.swiss.rounds-complete")
@pytest.mark.parametrize(("players", "planned"), [(8, 3), (9, 4)])
def test_rounds_zero_plays_the_recommended_number_of_swiss_rounds(players: int, planned: int) -> None:
    s = new_event(players, rounds=0)
    play_rounds(s, planned)
    with pytest.raises(T.Rejected) as err:
        T.plan_next_round(s)
    assert [v.rule for v in err.value.violations] == ["tournament.swiss.rounds-complete"]
    assert s.swiss_paired() == planned


@pytest.mark.rules("tournament.rounds.recommended", "tournament.player.late-entry")
def test_late_entries_do_not_add_rounds_to_an_announced_event() -> None:
    s = new_event(8, rounds=0)
    assert s.planned_rounds() == 3
    play_rounds(s, 1)
    for k in range(9, 20):  # 19 players would call for 5 rounds from the start
        do(s, T.AddPlayer(f"p{k}", f"Late {k}"))
    assert s.planned_rounds() == 3
    play_rounds(s, 2)
    with pytest.raises(T.Rejected):
        T.plan_next_round(s)
    # before round 1 is paired, every entrant counts
    early = new_event(8, rounds=0)
    do(early, T.AddPlayer("p9", "Early"))
    assert early.planned_rounds() == 4


@pytest.mark.rules("tournament.event.created-once", "tournament.player.id-unique")
def test_an_event_is_created_once_and_player_ids_are_unique() -> None:
    fresh = T.EventState()
    assert rules_of(fresh, T.AddPlayer("p1", "Ana")) == [("tournament.event.created-once", "/")]
    s = new_event(2)
    again = T.CreateTournament(T.Config("Again"))
    assert rules_of(s, again) == [("tournament.event.created-once", "/")]
    assert rules_of(s, T.AddPlayer("p1", "Someone else")) == [("tournament.player.id-unique", "/player_id")]
    assert rules_of(s, T.AddPlayer("p3", "Cleo")) == []


@pytest.mark.rules("tournament.player.name")
@pytest.mark.parametrize(("name", "ok"), [("x" * 200, True), ("x" * 201, False), ("", False), (" ", False)])
def test_a_player_name_is_one_to_two_hundred_characters(name: str, ok: bool) -> None:
    s = new_event(2)
    assert rules_of(s, T.AddPlayer("p3", name)) == ([] if ok else [("tournament.player.name", "/name")])


@pytest.mark.rules("tournament.player.after-swiss")
def test_nobody_enters_or_drops_once_the_top_cut_has_started() -> None:
    s = new_event(4, rounds=1, cut=2)
    play_rounds(s, 1, draws=False)
    late, drop = T.AddPlayer("p5", "Late"), T.DropPlayer("p1")
    assert rules_of(s, late) == [] and rules_of(s, drop) == []  # both fine until the cut
    do(s, T.plan_cut(s).action)
    assert rules_of(s, late) == [("tournament.player.after-swiss", "/")]
    assert rules_of(s, drop) == [("tournament.player.after-swiss", "/player_id")]


@pytest.mark.rules("tournament.round.min-players")
def test_a_swiss_round_needs_two_active_players() -> None:
    s = new_event(2)
    do(s, T.DropPlayer("p2"))
    with pytest.raises(T.Rejected) as err:
        T.plan_next_round(s)
    assert [v.rule for v in err.value.violations] == ["tournament.round.min-players"]
    do(s, T.AddPlayer("p3", "Second"))
    (only,) = T.plan_next_round(s).action.pairings
    assert {only.p1, only.p2} == {"p1", "p3"}


# ---------------------------------------------------------------------- pairings


@pytest.mark.rules("tournament.pairing.self")
def test_a_player_cannot_be_paired_against_themself() -> None:
    s = new_event(4)
    do(s, T.plan_next_round(s).action)
    got = rules_of(s, T.OverridePairings(1, (P(1, "p1", "p1"), P(2, "p3", "p4"))))
    assert ("tournament.pairing.self", "/pairings/0/p2") in got
    assert rules_of(s, T.OverridePairings(1, (P(1, "p1", "p2"), P(2, "p3", "p4")))) == []


@pytest.mark.rules("tournament.round.not-current")
def test_only_the_current_round_can_be_re_paired_or_overridden() -> None:
    s = new_event(4)
    play_rounds(s, 1)
    do(s, T.plan_next_round(s).action)
    mine = (P(1, "p1", "p2"), P(2, "p3", "p4"))
    assert rules_of(s, T.OverridePairings(1, mine)) == [("tournament.round.not-current", "/round")]
    assert rules_of(s, T.RepairRound(1, mine)) == [("tournament.round.not-current", "/round")]
    assert rules_of(s, T.OverridePairings(3, mine)) == [("tournament.round.not-current", "/round")]
    report_all(s)
    assert rules_of(s, T.PairRound(4, "swiss", mine)) == [("tournament.round.not-current", "/round")]
    assert rules_of(s, T.PairRound(3, "swiss", mine)) == []


@pytest.mark.rules("tournament.swiss.random-within-group", "tournament.swiss.objective")
def test_round_one_pairs_neighbours_in_the_seeded_draw_order() -> None:
    # Everyone has 0 points: one score group. With no rematch, bye or points to weigh, the objective's
    # spread level pairs neighbours of the order draw(seed, "order", round, player).
    seen = set()
    for seed in range(5):
        s = new_event(8, seed=seed)
        order = sorted(s.players, key=lambda p: draw(seed, "order", 1, p))
        expected = {frozenset(order[i : i + 2]) for i in range(0, 8, 2)}
        pairs = {frozenset((p.p1, p.p2)) for p in T.plan_next_round(s).action.pairings}
        assert pairs == expected
        seen.add(frozenset(pairs))
    assert len(seen) > 1  # the seed, not the registration order, decides


def swiss(points: dict[str, int], seed: int, met: tuple[tuple[str, str], ...] = ()) -> T.SwissPlan:
    """Pair a round from points and the pairs that already met (no byes); standings order = listed order."""
    players = tuple(points)
    opponents = {p: frozenset(y for x, y in met if x == p) | {x for x, y in met if y == p} for p in players}
    return T.pair_swiss(T.SwissInput(seed, 3, players, points, opponents, frozenset()))


@pytest.mark.rules("tournament.swiss.pair-down")
@pytest.mark.parametrize("seed", range(5))
def test_an_odd_score_group_pairs_down_once_to_the_next_group(seed: int) -> None:
    plan = swiss({"a": 6, "b": 6, "c": 6, "d": 3, "e": 3, "f": 3}, seed)
    pts = {"a": 6, "b": 6, "c": 6, "d": 3, "e": 3, "f": 3}
    downs = [(pts[p.p1], pts[p.p2]) for p in plan.pairings if pts[p.p1] != pts[p.p2]]
    assert downs == [(6, 3)]


@pytest.mark.rules("tournament.swiss.pair-down")
@pytest.mark.parametrize("seed", range(5))
def test_two_small_pair_downs_beat_one_across_two_score_groups(seed: int) -> None:
    pts = {"a": 6, "b": 3, "c": 3, "d": 0}
    plan = swiss(pts, seed)
    assert sorted(abs(pts[p.p1] - pts[p.p2]) for p in plan.pairings) == [3, 3]


@pytest.mark.rules("tournament.swiss.pair-down", "tournament.swiss.no-rematch")
@pytest.mark.parametrize("seed", range(5))
def test_a_rematch_blocking_the_natural_pair_down_moves_it_not_widens_it(seed: int) -> None:
    # 9: a b c | 6: d | 3: e f g | 0: h. a already met d, c already met h. The odd 9 group still pairs
    # down to d (through b or c), and the odd 3 group down to h: two pair-downs of 3 points each.
    pts = {"a": 9, "b": 9, "c": 9, "d": 6, "e": 3, "f": 3, "g": 3, "h": 0}
    plan = swiss(pts, seed, met=(("a", "d"), ("c", "h")))
    assert sorted(abs(pts[p.p1] - pts[p.p2]) for p in plan.pairings) == [0, 0, 3, 3]
    partner = {x: y for p in plan.pairings for x, y in ((p.p1, p.p2), (p.p2, p.p1))}
    assert partner["d"] in ("b", "c") and pts[partner["h"]] == 3


# ---------------------------------------------------------------------- standings and tie-breakers


@pytest.mark.rules("tournament.tiebreak.destiny.draw", "tournament.tiebreak.mtg.draw")
@pytest.mark.parametrize("profile", ["destiny", "mtg"])
def test_remaining_ties_follow_the_seeded_standing_draw(profile: str) -> None:
    orders = set()
    for seed in range(5):
        s = new_event(6, seed=seed, profile=profile)  # no round yet: every figure ties
        got = [x.player_id for x in T.standings(s)]
        assert got == sorted(s.players, key=lambda p: draw(seed, "standing", p))
        orders.add(tuple(got))
    assert len(orders) > 1


def four_player_event(profile: str) -> T.EventState:
    """Best-of-three. Round 1: p1 beats p2 2-1, p3 and p4 draw 1-1-1.
    Round 2: p1 beats p3 2-0, p2 beats p4 2-0."""
    s = new_event(4, seed=1, profile=profile, best_of=3)
    pair_round(s, 1, (P(1, "p1", "p2"), P(2, "p3", "p4")))
    do(s, T.ReportResult(1, 1, T.Result(2, 1)))
    do(s, T.ReportResult(1, 2, T.Result(1, 1, 1)))
    pair_round(s, 2, (P(1, "p1", "p3"), P(2, "p2", "p4")))
    do(s, T.ReportResult(2, 1, T.Result(2, 0)))
    do(s, T.ReportResult(2, 2, T.Result(2, 0)))
    return s


@pytest.mark.rules("tournament.tiebreak.points")
def test_match_points_are_three_for_a_win_one_for_a_draw_none_for_a_loss() -> None:
    table = {x.player_id: x for x in T.standings(four_player_event("destiny"))}
    assert {pid: (x.wins, x.draws, x.losses, x.points) for pid, x in table.items()} == {
        "p1": (2, 0, 0, 6),
        "p2": (1, 0, 1, 3),
        "p3": (0, 1, 1, 1),
        "p4": (0, 1, 1, 1),
    }


@pytest.mark.rules("tournament.tiebreak.destiny.sos", "tournament.tiebreak.destiny.esos")
def test_destiny_sos_and_extended_sos_by_hand() -> None:
    # win ratios (W + D/2) / matches: p1 1, p2 1/2, p3 1/4, p4 1/4
    # SoS: p1 (1/2 + 1/4)/2 = 3/8, p2 (1 + 1/4)/2 = 5/8, p3 (1/4 + 1)/2 = 5/8, p4 (1/4 + 1/2)/2 = 3/8
    # ESoS: p1 (5/8 + 5/8)/2, p2 (3/8 + 3/8)/2, p3 (3/8 + 3/8)/2, p4 (5/8 + 5/8)/2
    table = T.standings(four_player_event("destiny"))
    got = {x.player_id: dict(x.tiebreaks) for x in table}
    f = Fraction
    assert got == {
        "p1": {"sos": f(3, 8), "esos": f(5, 8)},
        "p2": {"sos": f(5, 8), "esos": f(3, 8)},
        "p3": {"sos": f(5, 8), "esos": f(3, 8)},
        "p4": {"sos": f(3, 8), "esos": f(5, 8)},
    }
    # p3 and p4 both have 1 point: the higher SoS ranks first
    assert [x.player_id for x in table] == ["p1", "p2", "p3", "p4"]


@pytest.mark.rules("tournament.tiebreak.mtg.omw", "tournament.tiebreak.mtg.gw", "tournament.tiebreak.mtg.ogw")
def test_mtg_figures_by_hand_with_the_one_third_floor() -> None:
    # match-win % (points / 3 per match): p1 1, p2 1/2, p3 and p4 1/6 -> floored to 1/3 for their opponents
    # game-win % ((3 per game won + 1 per game drawn) / 3 per game): p1 12/15, p2 9/15, p3 and p4 4/15
    # (floored to 1/3 only as an opponent's figure; a player's own GW is not floored)
    table = T.standings(four_player_event("mtg"))
    got = {x.player_id: dict(x.tiebreaks) for x in table}
    f = Fraction
    assert got == {
        "p1": {"omw": (f(1, 2) + f(1, 3)) / 2, "gw": f(4, 5), "ogw": (f(3, 5) + f(1, 3)) / 2},
        "p2": {"omw": (1 + f(1, 3)) / 2, "gw": f(3, 5), "ogw": (f(4, 5) + f(1, 3)) / 2},
        "p3": {"omw": (f(1, 3) + 1) / 2, "gw": f(4, 15), "ogw": (f(1, 3) + f(4, 5)) / 2},
        "p4": {"omw": (f(1, 3) + f(1, 2)) / 2, "gw": f(4, 15), "ogw": (f(1, 3) + f(3, 5)) / 2},
    }
    assert [x.player_id for x in table] == ["p1", "p2", "p3", "p4"]  # p3 over p4 on OMW


def three_player_event(profile: str) -> T.EventState:
    """Best-of-three. Round 1: p1 beats p2 2-1, p3 has the bye. Round 2: p1 beats p3 2-0, p2 has the bye."""
    s = new_event(3, seed=1, profile=profile, best_of=3)
    pair_round(s, 1, (P(1, "p1", "p2"),), bye="p3")
    do(s, T.ReportResult(1, 1, T.Result(2, 1)))
    pair_round(s, 2, (P(1, "p1", "p3"),), bye="p2")
    do(s, T.ReportResult(2, 1, T.Result(2, 0)))
    return s


@pytest.mark.rules("tournament.tiebreak.no-bye-figures", "tournament.tiebreak.destiny.sos")
def test_an_opponents_bye_does_not_lift_destiny_sos() -> None:
    got = {x.player_id: dict(x.tiebreaks) for x in T.standings(three_player_event("destiny"))}
    # p2 and p3 lost their only match; their byes are left out, so both win ratios are 0, not 1/2
    assert got["p1"]["sos"] == 0
    assert got["p2"]["sos"] == 1 and got["p3"]["sos"] == 1


@pytest.mark.rules(
    "tournament.tiebreak.no-bye-figures", "tournament.bye.counts-as-win", "tournament.tiebreak.mtg.gw"
)
def test_an_opponents_bye_does_not_lift_mtg_figures_but_counts_for_the_player() -> None:
    table = T.standings(three_player_event("mtg"))
    got = {x.player_id: dict(x.tiebreaks) for x in table}
    # as p1's opponents, p2 (1 game of 3) and p3 (0 of 2) show their floored figures without byes
    assert got["p1"]["omw"] == Fraction(1, 3) and got["p1"]["ogw"] == Fraction(1, 3)
    # their own: the bye is a match win worth the 2 game wins a best-of-three needs
    assert {x.player_id: x.points for x in table} == {"p1": 6, "p2": 3, "p3": 3}
    assert got["p2"]["gw"] == Fraction(3 * 3, 3 * 5) and got["p3"]["gw"] == Fraction(3 * 2, 3 * 4)
