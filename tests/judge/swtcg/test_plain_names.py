"""SW TCG's glance at names, as Destiny's (tests.judge.plain_names): ``plain_setup`` tells decks of codes,
``plain_answers`` answers of codes, references, players and numbers, and the interpreted
``names.setup_codes`` and ``names.answer_codes`` keep what either tells plain."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from judge.games.swtcg import game as swtcg_game
from judge.games.swtcg.names import _Names, answer_codes, setup_codes
from judge.games.swtcg.steps import plain_answers, plain_setup
from replays.selfplay import play_game
from tests.judge.plain_names import (
    assert_odd_answers,
    assert_reads_the_same_without_the_glance,
    plain_answers_told,
    plain_setups_told,
)
from tests.judge.swtcg.test_card_names import NAMES, POOL, load, named

IDS = ["p1", "p2"]


def _logs() -> list[dict[str, Any]]:
    logs = [load(n) for n in NAMES]
    logs += [play_game(f"plain-{i}", "DARK-60", "LIGHT-60", game="swtcg", max_steps=400).log for i in range(2)]
    return logs + [named(log) for log in logs]


LOGS = _logs()
SELFPLAY = LOGS[len(NAMES)]  # (a self-play log, written with codes)

# answers at the edges: each kind of value, a name, a word, a float, nesting, objects
ODD_ANSWERS: list[Any] = [
    True, False, 0, 3, None, 2.5, "p1", "p3", "DS-TIE", "DS-NOPE", "?", "p1.DS-TIE", "p1.DS-TIE.2", "p1.DS-NOPE",
    "p1.TIE Fighter", "TIE Fighter", "yes", "", " ", ["p1.DS-TIE", "LS-LS"], ["p1.DS-TIE", "TIE Fighter"], [True, None],
    [2.5], [["p1.DS-TIE"]], [{"p1.DS-TIE": 1}], {"p1.DS-TIE": 2}, {}, [], "p1.DS-TIE:evade",
]
# each alone: whether it is told plain (a boolean, a number or None, a player of IDS, a code of the pool or
# ?, a reference written with a code of the pool, a flat list of those); not: another player, a code the
# pool does not have, a name, a word, a blank, a nested list, an object, an ability's ID
ODD_PLAIN = [True, True, True, True, True, True, True, False, True, False, True, True, True, False,
             False, False, False, False, False, True, False, True,
             True, False, False, False, False, True, False]


def _rewrite_keeps(step: dict[str, Any], ids: list[str]) -> bool:
    """Whether the interpreted rewrite gives ``step`` back as it is, without a fault."""
    names = _Names(POOL, ids)
    return answer_codes(step, ids, POOL) is step and names.answers(step, ids, names.is_ref, names.is_code) is step \
        and not names.faults


def _steps() -> list[tuple[dict[str, Any], list[str]]]:
    out = [(s, [p["id"] for p in log["players"]]) for log in LOGS for s in log["steps"]
           if isinstance(s, dict) and ("choices" in s or "expect" in s)]
    out += [({"by": "p1", "do": "pass", "choices": [{"answer": a}]}, IDS) for a in ODD_ANSWERS]
    out += [({"by": "p1", "do": "pass", "choices": "p1"}, IDS), ({"by": "p1", "do": "pass", "choices": [3, "x"]}, IDS),
            ({"by": "p1", "do": "pass", "expect": {"state": {}}}, IDS),
            ({"by": "p1", "do": "pass", "expect": {"hash": "x"}}, IDS)]
    return out


def test_plain_answers_only_where_the_rewrite_keeps_the_step() -> None:
    seen = plain_answers_told(plain_answers, _rewrite_keeps, _steps(), POOL)
    assert seen[True] > 20 and seen[False] > 10, seen


def test_plain_answers_of_odd_answers() -> None:
    assert_odd_answers(plain_answers, _rewrite_keeps, ODD_ANSWERS, ODD_PLAIN, IDS, POOL)
    assert not plain_answers({"by": "p1", "do": "pass", "choices": [{"answer": True}]}, IDS, None)


def test_plain_answers_tells_the_self_play_steps() -> None:
    """Not only safe but useful: each step of the self-play logs whose answers are booleans, numbers,
    codes or references is told plain (not an answer with a colon: an ordered ability ``p1.DS-BH:upkeep``
    or a word ``build:1``, which the rewrite reads)."""
    told = 0
    for log in LOGS[len(NAMES):len(LOGS) // 2]:
        for step in log["steps"]:
            if "choices" not in step:
                continue
            answers = [a for ch in step["choices"] for a in (ch["answer"] if isinstance(ch["answer"], list)
                                                             else [ch["answer"]])]
            if not any(isinstance(a, str) and ":" in a for a in answers):
                assert plain_answers(step, IDS, POOL), step
                told += 1
    assert told >= 2


def _setups() -> list[tuple[list[Any], dict[str, Any]]]:
    out = [(log["players"], log["setup"]) for log in LOGS]
    base = copy.deepcopy(SELFPLAY)
    players, setup = base["players"], base["setup"]
    p = players[0]
    for value in ([*p["deck"], "?"], [*p["deck"], "DS-NOPE"], [*p["deck"], 5], [*p["deck"], "TIE Fighter"], "DS-TIE",
                  None, {"DS-TIE": 1}):
        out.append(([{**p, "deck": value}, players[1]], setup))
    out += [([*players, "p3"], setup), (players, {**setup, "decks": {"p1": p["deck"]}}),
            (players, {**setup, "decks": {"p1": [*p["deck"], "TIE Fighter"]}}), (players, {**setup, "decks": 3}),
            (players, {**setup, "position": {}}), (players, {**setup, "roll": [1]})]
    return out


def test_plain_setup_gives_what_setup_codes_gives_back() -> None:
    seen = plain_setups_told(plain_setup, setup_codes, _setups(), POOL)
    assert seen[True] > 5 and seen[False] > 5, seen
    assert plain_setup(SELFPLAY["players"], SELFPLAY["setup"], POOL)  # (the self-play logs': told at a glance)
    assert not plain_setup(SELFPLAY["players"], SELFPLAY["setup"], None)


@pytest.mark.parametrize("index", range(len(LOGS)))
def test_a_log_reads_the_same_without_the_glance(index: int, monkeypatch: pytest.MonkeyPatch) -> None:
    assert_reads_the_same_without_the_glance(LOGS[index], POOL, swtcg_game.Swtcg, monkeypatch)
