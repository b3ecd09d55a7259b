"""The replayer (replays/replayer.py): visitors, stopping early, steps expected to fail, unexpected
failures, and checkpoints (docs/replay-format.md section 3, "Checkpoints", and section 4)."""

from __future__ import annotations

from typing import Any

import pytest

from judge.games.destiny import steps as st_
from tests.replays.samples import POOL, STEPS, Recorder, cut, duel, final_hash, run, six_steps

N = len(STEPS)


def hashes_of_prefixes(log: dict[str, Any]) -> list[str]:
    """The hash of the state after each prefix of the log (index k: after k steps), each from a
    replay of its own."""
    return [final_hash(cut(log, k)) for k in range(len(log["steps"]) + 1)]


# ---------------------------------------------------------------------- visitors
def test_the_six_step_game_is_legal() -> None:
    """The base game of these tests replays without error (a test that expects a failure relies on
    this, so that the failure is the one it introduces)."""
    result = run(six_steps())
    assert result.valid and result.error is None and result.steps == N
    view = result.state.view()
    # Luke's 2 ranged die raised by 2 (power action, 2 of 5 resources); the trooper's 1 ranged
    # blocked by one of the 3 shields of Heightened Awareness (2 resources); the claim gains 1
    assert view["players"]["p2"]["characters"]["p2.05013"]["damage"] == 4
    luke = view["players"]["p1"]["characters"]["p1.05031"]
    assert (luke["shields"], luke["damage"]) == (3 - 1, 0)
    assert view["players"]["p1"]["resources"] == 5 - 2 - 2 + 1
    assert view["claimed_by"] == "p1"


def test_visitors_see_begin_each_step_and_end_in_order() -> None:
    log = six_steps()
    first, second = Recorder(), Recorder()
    result = run(log, first, second)
    expected_order = [("begin", 0)] + [("step", at) for at in range(1, N + 1)] + [("end", N)]
    assert [(kind, at) for kind, at, _ in first.calls] == expected_order
    assert first.calls == second.calls  # every visitor sees the same walk
    # each call sees the state after the step it is told about
    prefix = hashes_of_prefixes(log)
    assert [h for _, _, h in first.calls] == prefix + [prefix[-1]]
    assert first.result is result and first.setup is not None and first.setup.action is None
    for rec in first.records:
        assert rec.step == log["steps"][rec.at - 1]
        assert isinstance(rec.action, st_.DestinyAction)
        assert rec.action.to_json() == {k: v for k, v in rec.step.items() if k != "roll"}
        assert rec.error is None and not rec.rejected_as_expected


def test_a_step_record_carries_the_events_of_its_own_step() -> None:
    rec = Recorder()
    run(six_steps(), rec)
    kinds = [[e["event"] for e in r.events] for r in rec.records]
    assert "damage" in kinds[0] and "activate" in kinds[1] and "shields" in kinds[2]
    assert "claim" in kinds[5] and "claim" not in kinds[4]
    damage = next(e for e in rec.records[0].events if e["event"] == "damage")
    assert (damage["source"], damage["target"], damage["amount"]) == ("p1.05031/1", "p2.05013", 4)


@pytest.mark.parametrize("stop", [0, 1, 3, N, N + 5])
def test_stop_after_ends_the_walk_there(stop: int) -> None:
    log = six_steps()
    rec = Recorder()
    result = run(log, rec, stop_after=stop)
    done = min(stop, N)
    assert result.steps == done and result.valid
    assert [at for kind, at, _ in rec.calls if kind == "step"] == list(range(1, done + 1))
    assert rec.calls[-1][0] == "end"
    assert result.state is not None and result.state.state_hash() == final_hash(cut(log, done))


# ---------------------------------------------------------------------- steps expected to fail
BAD_ROLL = {"by": "p1", "do": "activate", "card": "p1.05031", "roll": ["1RD", "3ID"]}  # Luke's dice have no 3ID


def test_the_bad_roll_changes_the_state_before_it_is_rejected() -> None:
    """What the next tests rely on: the engine applies a step in place, and this one exhausts Luke
    and puts his first die in the pool before his second die's face is found wrong; so a replay
    that did not put the state back would show it."""
    from replays.format import parse_log
    from replays.replayer import run_step, start

    log = parse_log(duel().log([dict(BAD_ROLL)]), POOL)
    before = start(log, POOL, None).state
    h0 = before.state_hash()
    rec = run_step(log, before, 0, POOL, None)
    assert rec.error is not None and rec.error.rule == "destiny.cards.die-faces"
    assert rec.state.state_hash() != h0
    assert rec.state.view()["players"]["p1"]["characters"]["p1.05031"]["exhausted"] is True


@pytest.mark.rules("destiny.cards.die-faces")
def test_a_step_rejected_as_expected_changes_nothing_and_the_replay_goes_on() -> None:
    bad = {**BAD_ROLL, "expect": {"error": {"kind": "illegal-action", "rule": "destiny.cards.die-faces"}}}
    good = {"by": "p1", "do": "activate", "card": "p1.05031", "roll": ["2RD", "1Sh"]}
    log = duel().log([bad, good])
    rec = Recorder()
    result = run(log, rec)
    assert result.valid and result.error is None and result.steps == 2
    assert result.passed == [1] and result.failed == []
    setup_hash = rec.calls[0][2]
    assert rec.calls[1] == ("step", 1, setup_hash)  # the state before == the state after
    rejected = rec.records[0]
    assert rejected.rejected_as_expected and rejected.error is not None
    assert (rejected.error.kind, rejected.error.rule) == ("illegal-action", "destiny.cards.die-faces")
    # Luke was not left exhausted by the rejected step: the next one activates him
    assert result.state.view()["players"]["p1"]["pool"] == {"p1.05031/1": "2RD", "p1.05031/2": "1Sh"}
    assert final_hash(log) == final_hash(duel().log([good]))


def test_a_step_rejected_as_expected_gives_back_the_random_words_it_drew() -> None:
    """Han Solo's activation rolls his dice from the seeded generator, then fails on a choice made
    by the wrong player. Rejected as expected, it must leave the generator where it was: the next
    step rolls what it would have rolled without it, and the hashes (which count the words drawn)
    are the same."""
    t = duel().with_rng("restore-1")
    t.character("p1", "05046", dice=2)
    bad = {"by": "p1", "do": "activate", "card": "p1.05046", "choices": [{"by": "p2", "kind": "may", "answer": True}],
           "expect": {"error": {"kind": "illegal-action"}}}
    good = {"by": "p1", "do": "activate", "card": "p1.05046", "choices": [{"by": "p1", "kind": "may", "answer": False}]}
    rec = Recorder()
    result = run(t.log([bad, good]), rec)
    assert result.valid and result.passed == [1]
    activate = next(e for e in rec.records[0].events if e["event"] == "activate")
    assert len(activate["rolled"]) == 2  # it did roll (and draw) before failing
    assert rec.calls[1][2] == rec.calls[0][2]
    assert final_hash(t.log([bad, good])) == final_hash(t.log([good]))


@pytest.mark.parametrize(("want", "why"), [
    ({"kind": "missing-outcome"}, "expected a missing-outcome error, got illegal-action"),
    ({"kind": "illegal-action", "rule": "destiny.actions.activate"}, "expected rule destiny.actions.activate"),
])
def test_a_step_rejected_otherwise_than_expected_fails_its_checkpoint(want: dict[str, str], why: str) -> None:
    log = duel().log([{**BAD_ROLL, "expect": {"error": want}}, {"by": "p2", "do": "pass"}])
    rec = Recorder()
    result = run(log, rec)
    assert not result.valid and result.steps == 1 and result.passed == []
    assert [f["at"] for f in result.failed] == [1] and why in result.failed[0]["message"]
    assert result.error is not None and (result.error.at, result.error.rule) == (1, "destiny.cards.die-faces")
    assert [kind for kind, _, _ in rec.calls] == ["begin", "step", "end"]


def test_a_step_rejected_otherwise_than_expected_ends_with_the_state_before_it() -> None:
    log = duel().log([{**BAD_ROLL, "expect": {"error": {"kind": "missing-outcome"}}}])
    result = run(log)
    assert result.error is not None and result.error.at == 1
    assert result.state.state_hash() == final_hash(cut(log, 0))


def test_a_step_expected_to_fail_that_is_accepted_is_a_checkpoint_mismatch() -> None:
    log = six_steps()
    log["steps"][1]["expect"] = {"error": {"kind": "illegal-action"}}
    result = run(log)
    assert not result.valid and result.steps == 2
    assert result.error is not None and (result.error.at, result.error.kind) == (2, "checkpoint-mismatch")
    assert "accepted" in result.error.message and [f["at"] for f in result.failed] == [2]


# ---------------------------------------------------------------------- unexpected failures
def test_an_unexpected_failure_ends_the_replay_with_the_state_before_it() -> None:
    """Step 3 plays Heightened Awareness in full (2 resources paid, 3 shields given) and only then
    fails: its logged choice answers a question the card never asks."""
    extra_choice = {**STEPS[2], "choices": [{"by": "p1", "kind": "may", "answer": True}]}
    log = six_steps([*STEPS[:2], extra_choice, *STEPS[3:]])
    rec = Recorder()
    result = run(log, rec)
    assert not result.valid and result.steps == 3
    assert result.error is not None and (result.error.at, result.error.kind) == (3, "illegal-action")
    assert result.error.rule == "destiny.terms.choose-option"
    before = final_hash(cut(log, 2))
    assert result.state.state_hash() == before
    view = result.state.view()["players"]["p1"]
    assert view["resources"] == 3 and view["characters"]["p1.05031"]["shields"] == 0 and view["hand"] == 2
    # the failing step is visited (with its error and the state before it); nothing after it is
    assert [(kind, at) for kind, at, _ in rec.calls] == [("begin", 0), ("step", 1), ("step", 2), ("step", 3),
                                                       ("end", 3)]
    assert rec.calls[3][2] == before and rec.records[-1].error is result.error


def test_an_unexpected_failure_in_a_seeded_log_gives_back_the_words_it_drew() -> None:
    """Han Solo's activation rolls from the seeded generator and then fails (a choice by the wrong
    player): the state the replay ends in is the one after step 2, words drawn included."""
    t = duel().with_rng("unexpected-1")
    t.character("p1", "05046", dice=2)
    wrong_chooser = [{"by": "p2", "kind": "may", "answer": True}]
    steps = [{"by": "p1", "do": "activate", "card": "p1.05031"}, {"by": "p2", "do": "activate", "card": "p2.05013"},
             {"by": "p1", "do": "activate", "card": "p1.05046", "choices": wrong_chooser}]
    log = t.log(steps)
    rec = Recorder()
    result = run(log, rec)
    assert result.error is not None and (result.error.at, result.error.kind) == (3, "illegal-action")
    assert any(e["event"] == "activate" for e in rec.records[-1].events)  # it rolled before failing
    assert result.state.state_hash() == final_hash(cut(log, 2)) == rec.calls[2][2]
    assert result.state.rng_drawn == run(cut(log, 2)).state.rng_drawn


def test_an_unexpected_failure_at_the_first_step_leaves_the_position() -> None:
    log = duel().log([dict(BAD_ROLL)])
    result = run(log)
    assert result.error is not None and result.error.at == 1
    assert result.state.state_hash() == final_hash(cut(log, 0))


# ---------------------------------------------------------------------- checkpoints: hash
def test_a_right_hash_passes_and_a_wrong_one_is_a_checkpoint_mismatch() -> None:
    log = six_steps()
    prefix = hashes_of_prefixes(log)
    log["steps"][1]["expect"] = {"hash": prefix[2]}
    log["steps"][3]["expect"] = {"hash": prefix[3]}  # the hash of the step before: well formed, wrong
    log["steps"][5]["expect"] = {"hash": prefix[6]}
    result = run(log)
    assert result.passed == [2, 6]
    assert [f["at"] for f in result.failed] == [4]
    assert result.failed[0]["expected"] == {"hash": prefix[3]}
    assert prefix[3] in result.failed[0]["message"] and prefix[4] in result.failed[0]["message"]
    assert not result.valid
    assert result.error is not None and (result.error.at, result.error.kind) == (4, "checkpoint-mismatch")
    # a checkpoint that does not match does not stop the replay
    assert result.steps == N and result.state.state_hash() == prefix[N]
    assert run(log).to_json()["error"]["kind"] == "checkpoint-mismatch"


def test_only_the_first_mismatch_is_the_error_but_every_one_is_listed() -> None:
    log = six_steps()
    prefix = hashes_of_prefixes(log)
    log["steps"][2]["expect"] = {"hash": prefix[0]}
    log["steps"][4]["expect"] = {"hash": prefix[0]}
    result = run(log)
    assert [f["at"] for f in result.failed] == [3, 5]
    assert result.error is not None and result.error.at == 3


# ---------------------------------------------------------------------- checkpoints: partial state
# After step 1 of the six-step game: Ana paid 2 of her 5 resources; Luke's second die (1RD) is
# still in her pool and his first one left it; the trooper took 2 + 2 damage; Ben's pool is empty
# and he has not discarded anything.
@pytest.mark.parametrize(("state", "problem"), [
    ({"players": {"p1": {"resources": 3}}}, None),
    ({"turn": "p2", "players": {"p2": {"characters": {"p2.05013": {"damage": 4}}}}}, None),
    ({"players": {"p1": {"pool": {"p1.05031/2": "1RD"}}}}, None),
    ({"players": {"p2": {"pool": {}, "discard": []}}}, None),
    ({"players": {"p1": {"resources": 5}}}, "/players/p1/resources: expected 5, got 3"),
    ({"players": {"p1": {"pool": {}}}}, "/players/p1/pool: expected empty, got ['p1.05031/2']"),
    ({"players": {"p1": {"pool": {"p1.05031/1": "2RD"}}}}, "/players/p1/pool/p1.05031/1: missing"),
    ({"players": {"p1": {"hand": [], "deck": 10}}}, "/players/p1/hand: expected [], got 2"),
    ({"players": {"p1": {"discard": ["05102"]}}}, "/players/p1/discard: expected ['05102'], got []"),
    ({"turn": {"p2": True}}, "/turn: expected an object, got 'p2'"),
    ({}, "/: expected empty"),
], ids=["one-key", "nested", "part-of-a-pool", "empty-pool-and-list", "wrong-value", "not-empty",
        "gone-from-the-pool", "count-not-list", "list-compared-whole", "object-for-scalar", "empty-top"])
def test_expect_state_is_a_deep_partial_match(state: dict[str, Any], problem: str | None) -> None:
    log = six_steps()
    log["steps"][0]["expect"] = {"state": state}
    result = run(log)
    assert result.steps == N  # a checkpoint never stops the replay
    if problem is None:
        assert result.valid and result.passed == [1] and result.failed == []
    else:
        assert not result.valid and result.passed == []
        assert result.error is not None and (result.error.at, result.error.kind) == (1, "checkpoint-mismatch")
        assert [f["at"] for f in result.failed] == [1]
        assert problem in result.failed[0]["message"], result.failed[0]["message"]
        assert result.failed[0]["expected"] == {"state": state}


def test_hash_and_state_are_checked_together() -> None:
    log = six_steps()
    prefix = hashes_of_prefixes(log)
    log["steps"][0]["expect"] = {"hash": prefix[1], "state": {"players": {"p1": {"resources": 4}}}}
    result = run(log)
    assert [f["at"] for f in result.failed] == [1]
    assert "hash" not in result.failed[0]["message"]
    assert "resources: expected 4, got 3" in result.failed[0]["message"]


def test_a_late_failure_is_rebuilt_from_the_nearest_snapshot_not_from_the_start() -> None:
    """A step that fails mid-resolution has changed the state; the state before it comes from the
    latest snapshot (after 64 steps, then 128, 256, ...), replaying only the steps after it."""
    import copy as copy_

    from replays import format as fmt
    from replays import replayer
    from tests.replays.samples import golden

    log = copy_.deepcopy(golden(5))  # the longest self-play game of the corpus
    n = len(log["steps"])
    assert 2 * replayer.FIRST_SNAPSHOT > n > replayer.FIRST_SNAPSHOT + 2
    at = n - 1  # the failing step (1-based), after the first snapshot
    step = log["steps"][at - 1]
    for s in log["steps"]:
        s.pop("expect", None)
    step["choices"] = [*step.get("choices", []), {"answer": "nothing asked this"}]  # fails after applying
    parsed = fmt.parse_log(log)
    game = parsed.rules
    applied: list[int] = []

    class Counting:
        def __getattr__(self, name: str) -> Any:
            return getattr(game, name)

        def apply(self, *args: Any) -> Any:
            applied.append(1)
            return game.apply(*args)

    parsed.rules = Counting()
    result = replayer.replay(parsed)
    assert result.error is not None and result.error.at == at and result.error.rule == "destiny.terms.choose-option"
    assert result.state.state_hash() == final_hash(cut(log, at - 1))
    rebuilt = len(applied) - at
    assert rebuilt == at - 1 - replayer.FIRST_SNAPSHOT  # only the steps after the snapshot, again


def test_a_replay_without_visitors_gives_what_a_visited_one_does() -> None:
    """Without visitors the replayer keeps no record of each step (its fast path); its result is the
    one a replay with visitors gives, checkpoints, failures and final hash alike. (Every replay of
    the suite otherwise has the hash ledger's visitor.)"""
    import copy as copy_

    from replays import format as fmt
    from tests.replays import ledger
    from tests.replays.samples import corpus

    plain = ledger.UNWRAPPED[0]
    logs = [log for _, log in corpus()]
    broken = copy_.deepcopy(logs[-1])
    broken["steps"][5]["expect"] = {"hash": "sha256:" + "0" * 64}  # a checkpoint that fails
    broken["steps"][9]["choices"] = [{"answer": "nothing asked this"}]  # a step that fails
    for log in [*logs, broken]:
        want = run(log, Recorder())
        got = plain(fmt.parse_log(log))
        assert (got.valid, got.steps, got.passed, got.failed) == (want.valid, want.steps, want.passed, want.failed)
        assert (got.error.to_json() if got.error else None) == (want.error.to_json() if want.error else None)
        assert got.state.state_hash() == want.state.state_hash()


# ---------------------------------------------------------------------- the replayer's fast path
def _repeated(log: dict[str, Any], at: int, expected: bool) -> dict[str, Any]:
    """``log`` with step ``at`` (0-based) replaced by the step before it (a step done twice: most
    often illegal the second time), expected to fail when ``expected``, and a wrong hash expected
    at the step after it."""
    steps = [dict(s) for s in log["steps"]]
    steps[at] = {k: v for k, v in steps[at - 1].items() if k != "expect"}
    if expected:
        steps[at]["expect"] = {"error": {"kind": "illegal-action"}}
    if at + 1 < len(steps):
        steps[at + 1] = {**steps[at + 1], "expect": {"hash": "sha256:" + "0" * 64}}
    return {**log, "steps": steps}


@pytest.mark.parametrize("game", ["destiny", "swtcg", "relic"])
def test_a_replay_without_visitors_is_the_replay_with_them(game: str) -> None:
    """A replay without visitors takes the fast path (no step record kept; a step without 'expect'
    read no further); with a visitor every step takes the full one. Both give the same result, step
    count, checkpoints, error and final hash: for a self-play game (its checkpoints), stopped part
    way, with a step failing unexpectedly, and with that step expected to fail."""
    from judge.games import registry
    from replays.format import parse_log
    from replays.replayer import replay
    from replays.selfplay import play_game
    from tests.replays.ledger import unwrapped_replay

    rules = registry.get(game)
    sides = rules.selfplay_sides()
    pool = rules.default_cards()
    log = play_game(f"fast-path-{game}", sides[0], sides[-1], game=game, max_steps=120).log
    n = len(log["steps"])
    assert n > 10 and any("expect" in s for s in log["steps"])

    def rejected(k: int) -> bool:  # a step fails (not merely the wrong hash after the repeated one)
        error = replay(parse_log(_repeated(log, k, False), pool), pool).error
        return error is not None and error.kind != "checkpoint-mismatch"

    bad = next(k for k in range(n // 3, n - 1) if rejected(k))
    cases = [(log, None), (log, n // 2), (_repeated(log, bad, False), None), (_repeated(log, bad, True), None)]
    fast_replay = unwrapped_replay()  # (the suite's replay has the hash ledger's visitor: never the fast path)
    for case, stop in cases:
        fast = fast_replay(parse_log(case, pool), pool, stop_after=stop)
        rec = Recorder()
        full = replay(parse_log(case, pool), pool, visitors=(rec,), stop_after=stop)
        assert fast.to_json() == full.to_json()
        assert rec.calls[-1] == ("end", fast.steps, fast.state.state_hash() if fast.state else None)
    assert replay(parse_log(log, pool), pool).steps == n
    stopped = replay(parse_log(_repeated(log, bad, False), pool), pool)
    assert stopped.error is not None and stopped.steps == stopped.error.at > bad  # (the step it stopped at)
