"""The golden corpus (tests/replays/golden.py): each log's replay and rulings, compared in full with the
expected files; and the hash ledger (tests/replays/ledger.py) that holds every state hash the
suite's logs reached before the engine was reshaped."""

from __future__ import annotations

import json
from typing import Any

import pytest

from replays.service import replay_json, ruling_json
from tests.replays import golden, ledger

CORPUS = golden.corpus()


def test_the_corpus_has_examples_and_selfplay_games() -> None:
    names = [n for n, _ in CORPUS]
    assert len([n for n in names if n.startswith("selfplay-")]) == len(golden.SELFPLAY)
    assert len(names) - len(golden.SELFPLAY) == len(list(golden.EXAMPLES.glob("*.json")))
    assert {p.stem for p in golden.EXPECTED.glob("*.json")} == set(names)


@pytest.mark.parametrize(("name", "log"), CORPUS, ids=[n for n, _ in CORPUS])
def test_golden(name: str, log: dict[str, Any]) -> None:
    want = json.loads((golden.EXPECTED / f"{name}.json").read_text(encoding="utf-8"))
    assert replay_json(log) == want["replay"]
    for at, ruling in want["rulings"].items():
        assert ruling_json(log, int(at)) == ruling, f"ruling on step {at} of {name}"


def test_the_ledger_holds_the_corpus_and_checks_it() -> None:
    """Every corpus log is in the ledger, and replaying one is checked against it (a ledger that
    silently matched nothing would check nothing)."""
    entries = json.loads(ledger.LEDGER.read_text(encoding="utf-8"))
    assert len(entries) > 400
    before = ledger.checked()
    for _, log in CORPUS:
        replay_json(log)
    assert ledger.checked() - before == len(CORPUS)
