"""``arbiter rules`` through click's test runner."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from arbiter.cmd_rules import rules_command
from judge.rules import index


def test_one_rule() -> None:
    result = CliRunner().invoke(rules_command, ["destiny.shields.max-three"])
    assert result.exit_code == 0
    assert "status:  applied" in result.output and "source:  000" in result.output


def test_unknown_rule() -> None:
    result = CliRunner().invoke(rules_command, ["destiny.nope.nope"])
    assert result.exit_code != 0 and "unknown rule ID" in result.output


def test_index_for_a_game() -> None:
    result = CliRunner().invoke(rules_command, ["--game", "relic"])
    assert result.exit_code == 0
    assert len(result.output.strip().splitlines()) == len(index.ids("relic")) >= 32


@pytest.mark.rules("destiny.round.phases")
def test_coverage(tmp_path: Path) -> None:
    tests = tmp_path / "tests"
    tests.mkdir()
    (tests / "test_a.py").write_text(
        'import pytest\n\n@pytest.mark.rules("destiny.round.phases")\ndef test_x():\n    pass\n'
    )
    result = CliRunner().invoke(rules_command, ["--coverage", "--game", "destiny", "--tests", str(tests)])
    assert result.exit_code == 0, result.output
    assert "test_a.py::test_x" in result.output
    assert "destiny: 1/" in result.output


def test_one_rule_in_polish_and_russian() -> None:
    from arbiter.cli import main

    rule = index.get("destiny.shields.max-three")
    polish = CliRunner().invoke(main, ["rules", "show", "destiny.shields.max-three", "--lang", "pl"])
    assert polish.exit_code == 0, polish.output
    assert rule.summary_in("pl") in polish.output and rule.summary not in polish.output
    assert rule.headings[0].heading in polish.output
    russian = CliRunner().invoke(main, ["--lang", "ru", "rules", "destiny.shields.max-three"])
    assert rule.summary_in("ru") in russian.output
    by_env = CliRunner().invoke(main, ["rules", "destiny.shields.max-three"], env={"ARBITER_LANG": "pl_PL.UTF-8"})
    assert rule.summary_in("pl") in by_env.output
    bad = CliRunner().invoke(main, ["rules", "destiny.shields.max-three", "--lang", "de"])
    assert bad.exit_code == 2 and "'de' is not one of" in bad.output
