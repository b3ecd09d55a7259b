"""The rule index: data shipped with the package, lookups, and every cited ID known."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from judge.rules import index
from judge.rules.coverage import RULE_ID, cited_ids

ROOT = Path(__file__).resolve().parents[2]


def test_counts_per_game() -> None:
    assert len(index.ids("destiny")) == 212
    # the digest's 118, besides the base game (swtcg.base.*) and the project's assumptions (swtcg.project.*)
    assert len([r for r in index.ids("swtcg") if not r.startswith(("swtcg.base.", "swtcg.project."))]) == 118
    # the 32 rules of the Relic digest (seed 003), then the reference's and the project's own
    assert len([r for r in index.rules("relic") if r.source.startswith("003")]) == 32
    assert index.ids()[:1] == ["destiny.general.golden-rule"]


def test_lookup() -> None:
    rule = index.get("destiny.shields.max-three")
    assert rule.game == "destiny"
    assert rule.section == "Damage, shields & defeat"
    assert rule.source.startswith("000")
    assert rule.applicable
    assert index.summary("destiny.shields.max-three") == rule.summary
    assert index.is_known("relic.dice.exploding")
    assert not index.is_known("destiny.shields.max-four")
    with pytest.raises(index.UnknownRule):
        index.get("destiny.shields.max-four")


def test_rule_is_frozen() -> None:
    rule = index.get("destiny.general.golden-rule")
    with pytest.raises(AttributeError):
        rule.summary = "x"  # type: ignore[misc]


def test_every_entry_is_well_formed() -> None:
    for rule in index.rules():
        assert RULE_ID.fullmatch(rule.id), rule.id
        assert rule.summary and "\n" not in rule.summary, rule.id
        assert len(rule.summary) <= 160, rule.id
        assert rule.status in index.STATUSES
        if rule.game in index.GAMES:
            assert rule.section and rule.source, rule.id
        if not rule.applicable:
            assert rule.reason, rule.id


def test_not_applicable_is_rare() -> None:
    na = [r.id for r in index.rules("destiny") if not r.applicable]
    assert "destiny.cards.flavor-text" in na
    assert "destiny.shields.max-three" not in na
    assert len(na) < 15


def test_extra_entries_parse() -> None:
    text = '{"rules": [{"id": "tournament.swiss.bye", "summary": "A bye scores as a win."}]}'
    [rule] = index.load_entries(text, "extra.json")
    assert rule.game == "tournament" and rule.status == "applied" and rule.section == ""


@pytest.mark.parametrize(
    "entry",
    [
        '{"id": "tournament.x.y"}',
        '{"id": "tournament.x.y", "summary": "s", "status": "maybe"}',
        '{"id": "tournament.x.y", "summary": "s", "status": "not-applicable"}',
    ],
)
def test_bad_extra_entries_rejected(entry: str) -> None:
    with pytest.raises(ValueError):
        index.load_entries('{"rules": [' + entry + "]}", "extra.json")


def test_cited_ids_finds_quoted_ids_only() -> None:
    src = 'x = "destiny.shields.max-three"\n# destiny.not.quoted\ny = ("relic.dice.reroll", "destiny.json")\n'
    assert cited_ids(src) == [("destiny.shields.max-three", 1), ("relic.dice.reroll", 3)]


def _source_files() -> list[Path]:
    files: list[Path] = []
    for package in ("judge", "replays", "worker", "api"):
        files.extend(p for p in (ROOT / package).rglob("*.py") if "__pycache__" not in p.parts)
    return files


def test_every_rule_id_cited_in_source_is_known() -> None:
    unknown = []
    for path in _source_files():
        for rule_id, line in cited_ids(path.read_text(encoding="utf-8")):
            if not index.is_known(rule_id):
                unknown.append(f"{path.relative_to(ROOT)}:{line}: {rule_id}")
    assert not unknown, "unknown rule IDs:\n" + "\n".join(unknown)


def test_rule_id_pattern() -> None:
    assert re.fullmatch(RULE_ID, "tournament.swiss.pairing-order")
    assert not re.fullmatch(RULE_ID, "destiny.json")
