"""The static coverage scanner and report."""

from __future__ import annotations

from pathlib import Path

import pytest

from arbiter.coverage import scan_tests
from judge.rules import coverage

SYNTHETIC = """
import pytest
from pytest import mark

pytestmark = [pytest.mark.rules("destiny.round.phases"), pytest.mark.slow]


@pytest.mark.rules("destiny.shields.max-three", "destiny.symbols.shield")
def test_shields():
    pass


@mark.rules("destiny.defeat.threshold")
def test_defeat():
    pass


def test_unmarked():
    pass


@pytest.mark.rules("destiny.sheilds.max-three")
def test_typo():
    pass


class TestUpkeep:
    pytestmark = pytest.mark.rules("destiny.round.upkeep")

    @pytest.mark.rules("destiny.round.upkeep-draw-limits")
    def test_draw(self):
        pass


@pytest.mark.rules("destiny.actions.activate")
class TestActivate:
    def test_one(self):
        pass
"""


@pytest.mark.rules("destiny.shields.max-three")
def test_scanner_finds_markers_in_a_synthetic_file(tmp_path: Path) -> None:
    tests = tmp_path / "tests"
    (tests / "sub").mkdir(parents=True)
    (tests / "sub" / "test_synthetic.py").write_text(SYNTHETIC)
    (tests / "test_broken.py").write_text("def broken(:\n")
    scan = scan_tests(tests)
    name = "tests/sub/test_synthetic.py"
    found = {(c.rule_id, c.test) for c in scan.citations}
    assert found == {
        ("destiny.round.phases", name),
        ("destiny.shields.max-three", f"{name}::test_shields"),
        ("destiny.symbols.shield", f"{name}::test_shields"),
        ("destiny.defeat.threshold", f"{name}::test_defeat"),
        ("destiny.sheilds.max-three", f"{name}::test_typo"),
        ("destiny.round.upkeep", f"{name}::TestUpkeep"),
        ("destiny.round.upkeep-draw-limits", f"{name}::TestUpkeep::test_draw"),
        ("destiny.actions.activate", f"{name}::TestActivate"),
    }
    assert [e.path for e in scan.errors] == ["tests/test_broken.py"]

    report = coverage.build_report(scan.citations, game="destiny")
    rows = {r.rule.id: r for r in report.rows}
    assert rows["destiny.shields.max-three"].tests == (f"{name}::test_shields",)
    assert not rows["destiny.victory.deck-out"].covered
    assert [c.rule_id for c in report.unknown] == ["destiny.sheilds.max-three"]
    assert report.covered == 7
    assert report.applicable == 212 - sum(1 for r in report.rows if not r.rule.applicable)
    assert report.percent == pytest.approx(100 * 7 / report.applicable)
    text = coverage.format_report(report)
    assert "UNKNOWN rule ID 'destiny.sheilds.max-three'" in text
    assert f"destiny: 7/{report.applicable} applicable rules covered" in text
    assert "destiny.cards.flavor-text" in text and "n/a" in text


def test_not_applicable_rules_do_not_count() -> None:
    cite = coverage.Citation("destiny.cards.flavor-text", "tests/x.py::test_a", 1)
    report = coverage.build_report([cite], game="destiny")
    assert report.covered == 0


def test_report_for_other_games_and_all() -> None:
    relic = coverage.build_report([], game="relic").rows
    assert len([r for r in relic if r.rule.source.startswith("003")]) == 32
    assert len(coverage.build_report([]).rows) >= 362


def test_project_test_markers_name_known_rules() -> None:
    """A typo in a @pytest.mark.rules ID anywhere in tests/ fails here."""
    root = Path(__file__).resolve().parents[2]
    scan = scan_tests(root / "tests", root)
    report = coverage.build_report(scan.citations)
    assert not report.unknown, [f"{c.test}: {c.rule_id}" for c in report.unknown]
    assert not scan.errors


def test_scanning_sources_already_read() -> None:
    """The scanner reads no files: it takes (path, text or bytes) pairs, and reports what it cannot read."""
    scan = coverage.scan_sources([
        ("tests/test_a.py", 'import pytest\n\n@pytest.mark.rules("destiny.round.phases")\ndef test_a():\n    pass\n'),
        ("tests/test_b.py", b'@mark.rules("destiny.round.upkeep")\ndef test_b():\n    pass\n'),
        ("tests/test_c.py", b"\xff\xfe not utf-8"),
    ])
    assert [(c.rule_id, c.test) for c in scan.citations] == [
        ("destiny.round.phases", "tests/test_a.py::test_a"),
        ("destiny.round.upkeep", "tests/test_b.py::test_b"),
    ]
    assert [e.path for e in scan.errors] == ["tests/test_c.py"]
