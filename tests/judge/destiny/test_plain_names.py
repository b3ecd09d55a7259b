"""The log reader's glance at names (steps.plain_setup, steps.plain_answers: compiled, asked before the
interpreted names.setup_codes and names.answer_codes): True only where those give back what they are
given, and a log reads the same with and without the glance."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from judge.games.destiny import game as destiny_game
from judge.games.destiny.cards import default_pool
from judge.games.destiny.names import _is_code, _Names, _ref_test, answer_codes, setup_codes
from judge.games.destiny.steps import plain_answers, plain_setup
from replays.selfplay import play_game
from tests.judge.destiny.test_card_names import DESTINY_LOGS, _load, named
from tests.judge.plain_names import (
    assert_odd_answers,
    assert_reads_the_same_without_the_glance,
    plain_answers_told,
    plain_setups_told,
)

POOL = default_pool()
IDS = ["p1", "p2"]


def _logs() -> list[dict[str, Any]]:
    logs = [_load(n) for n in DESTINY_LOGS]
    logs += [play_game(f"plain-{i}", *pair).log for i, pair in enumerate([("LEG-H", "LEG-V"), ("AW-H", "AW-V")])]
    return logs + [named(log) for log in logs]


LOGS = _logs()
SELFPLAY = LOGS[len(DESTINY_LOGS) + 1]  # (a self-play log, written with codes)

# answers at the edges: each kind of value, a name, a word, a float, nesting, keys not references
ODD_ANSWERS: list[Any] = [
    True, False, 0, 3, None, 2.5, "p1", "p3", "05031", "05031A", "0503", "p1.05031", "p1.05031#2/1",
    "p1.Luke Skywalker",
    "all", ["p1.05031", "05073"], ["p1.05031", "Luke"], [True, None], [2.5], [["p1.05031"]], {"p1.05031": 2},
    {"p1.05031": "all"}, {"p1": 1}, {"05031": True}, {"Luke": 1}, {}, [], {"p1.05031": None},
]


def _odd_steps() -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = [{"by": "p1", "do": "pass", "choices": [{"answer": a}]} for a in ODD_ANSWERS]
    out += [{"by": "p1", "do": "pass", "choices": [{"answer": a}, {"answer": b}]}
            for a, b in zip(ODD_ANSWERS, ODD_ANSWERS[1:], strict=False)]
    out += [{"by": "p1", "do": "pass", "choices": "p1"}, {"by": "p1", "do": "pass", "choices": ["p1.05031", 3]},
            {"by": "p1", "do": "pass", "expect": {"state": {}}}, {"by": "p1", "do": "pass", "expect": {"hash": "x"}},
            {"by": "p1", "do": "pass", "expect": "state", "choices": [{"answer": True}]}]
    return out


def _steps() -> list[tuple[dict[str, Any], list[str]]]:
    out = [(s, [p["id"] for p in log["players"]]) for log in LOGS for s in log["steps"]
           if isinstance(s, dict) and ("choices" in s or "expect" in s)]
    return out + [(s, IDS) for s in _odd_steps()]


# each odd answer alone: whether it is plain (a boolean, a whole number, None, a player of IDS, a code, a
# reference written with codes, a flat list of those, or whole-number counts of players, codes or
# references); not: a float, another player, a code too short, a name, a word, a nested list
ODD_PLAIN = [True, True, True, True, True, False, True, False, True, True, False, True, True,
             False,
             False, True, False, True, False, False, True,
             False, True, True, False, True, True, False]


def _rewrite_keeps(step: dict[str, Any], ids: list[str]) -> bool:
    """Whether the interpreted rewrite gives ``step`` back as it is, without a fault."""
    names = _Names(POOL, ids)
    return names.answers(step, ids, _ref_test(POOL), _is_code) is step and not names.faults


def _keeps(step: dict[str, Any], ids: list[str]) -> bool:
    return _rewrite_keeps(step, ids) and answer_codes(step, ids, POOL) is step


def test_plain_answers_only_where_the_rewrite_keeps_the_step() -> None:
    seen = plain_answers_told(plain_answers, _keeps, _steps(), POOL)
    assert seen[True] > 100 and seen[False] > 20  # both answers, many times


def test_plain_answers_tells_the_self_play_logs_and_not_their_named_copies() -> None:
    """Not only safe but useful: every answer of the self-play logs (the bulk of a batch: codes and
    references) is told plain, and each step whose answers a name-written copy changes is not. (An
    example log's ability reference ``p2.01059#1:redeploy`` is not told at a glance: the rewrite
    reads it.)"""
    half = len(LOGS) // 2
    told = 0
    for at in range(len(DESTINY_LOGS), half):
        log, named_log = LOGS[at], LOGS[half + at]
        ids = [p["id"] for p in log["players"]]
        for step, named_step in zip(log["steps"], named_log["steps"], strict=True):
            if not isinstance(step, dict) or "choices" not in step:
                continue
            assert plain_answers(step, ids, POOL), step
            told += 1
            if named_step.get("choices") != step["choices"]:
                assert not plain_answers(named_step, ids, POOL), named_step
    assert told > 10


def test_plain_answers_of_odd_answers() -> None:
    assert_odd_answers(plain_answers, _rewrite_keeps, ODD_ANSWERS, ODD_PLAIN, IDS, POOL)


def test_plain_answers_not_told_without_a_pool() -> None:
    step = {"by": "p1", "do": "pass", "choices": [{"answer": True}]}
    assert plain_answers(step, IDS, POOL)
    assert not plain_answers(step, IDS, None) and not plain_answers(step, IDS, object())


def _setups() -> list[tuple[list[Any], dict[str, Any]]]:
    out = [(log["players"], log["setup"]) for log in LOGS]
    base = copy.deepcopy(SELFPLAY)
    players, setup = base["players"], base["setup"]
    p = players[0]
    variants: list[tuple[list[Any], dict[str, Any]]] = []
    for key, value in [("deck", [*p["deck"], "?"]), ("deck", [*p["deck"], "99999"]), ("deck", [*p["deck"], 5]),
                       ("deck", [*p["deck"], "Luke Skywalker"]), ("deck", [*p["deck"], "Han Solo - Savvy Smuggler"]),
                       ("deck", "05031"), ("battlefield", None), ("battlefield", "Nowhere"), ("battlefield", 7),
                       ("characters", [{"card": "05031", "dice": 2}, {"card": "Luke", "dice": 1}]),
                       ("characters", [["05031"]]), ("characters", "05031"), ("characters", [{"dice": 1}])]:
        q = dict(p)
        q[key] = value
        variants.append(([q, players[1]], setup))
    variants += [([*players, "p3"], setup), (players, {**setup, "shields": {"p1": {"p1.05031": 1}}}),
                 (players, {**setup, "shields": None}), (players, {**setup, "decks": {"p1": p["deck"]}}),
                 (players, {**setup, "mulligan": {}}), (players, {**setup, "position": {}})]
    return out + variants


def test_plain_setup_gives_what_setup_codes_gives_back() -> None:
    seen = plain_setups_told(plain_setup, setup_codes, _setups(), POOL)
    assert seen[True] > 5 and seen[False] > 10, seen
    assert not plain_setup(LOGS[0]["players"], LOGS[0]["setup"], None)


@pytest.mark.parametrize("index", range(len(LOGS)))
def test_a_log_reads_the_same_without_the_glance(index: int, monkeypatch: pytest.MonkeyPatch) -> None:
    assert_reads_the_same_without_the_glance(LOGS[index], POOL, destiny_game.Destiny, monkeypatch)
