"""What the tests of a game's glance at names (its steps' ``plain_setup`` and ``plain_answers``,
asked by replays.format.parse_log before its interpreted names module) hold for every game."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from replays.format import parse_log


def plain_answers_told(plain_answers: Any, keeps: Any, steps: list[tuple[dict[str, Any], list[str]]],
                       pool: Any) -> dict[bool, int]:
    """How many of ``steps`` (step, player IDs) ``plain_answers`` tells plain and not; each told plain
    is one the interpreted rewrite keeps (``keeps(step, ids)``)."""
    seen = {True: 0, False: 0}
    for step, ids in steps:
        told = plain_answers(step, ids, pool)
        if told:
            assert keeps(step, ids), step
        seen[told] += 1
    return seen


def assert_odd_answers(plain_answers: Any, keeps: Any, answers: list[Any], plain: list[bool], ids: list[str],
                       pool: Any) -> None:
    """Each of ``answers``, alone in a step's ``choices``, told plain exactly when ``plain`` says, and
    then kept by the interpreted rewrite (``keeps(step, ids)``)."""
    assert len(plain) == len(answers)
    for answer, want in zip(answers, plain, strict=True):
        step = {"by": ids[0], "do": "pass", "choices": [{"answer": answer}]}
        assert plain_answers(step, ids, pool) is want, answer
        assert not want or keeps(step, ids), answer


def plain_setups_told(plain_setup: Any, setup_codes: Any, setups: list[tuple[list[Any], dict[str, Any]]],
                      pool: Any) -> dict[bool, int]:
    """How many of ``setups`` (players' entries, setup) ``plain_setup`` tells plain and not; each told
    plain is one ``setup_codes`` gives back as it is, without a fault."""
    seen = {True: 0, False: 0}
    for players, setup in setups:
        quick = plain_setup(players, setup, pool)
        seen[quick] += 1
        if quick:
            got_players, got_setup, faults = setup_codes(players, setup, pool)
            assert not faults and got_setup is setup and len(got_players) == len(players), (players, setup)
            assert all(a is b for a, b in zip(got_players, players, strict=True)), (players, setup)
    return seen


def assert_reads_the_same_without_the_glance(log: dict[str, Any], pool: Any, game_class: Any,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """``log`` read with the game's glance and without it (both members None) gives the same log."""
    quick = parse_log(copy.deepcopy(log), pool)
    monkeypatch.setattr(game_class, "plain_setup", None)
    monkeypatch.setattr(game_class, "plain_answers", None)
    slow = parse_log(copy.deepcopy(log), pool)
    assert (quick.players, quick.setup, quick.steps) == (slow.players, slow.setup, slow.steps)
    assert quick.inputs == slow.inputs
    assert [a.to_json() if a else a for a in quick.actions] == [a.to_json() if a else a for a in slow.actions]
