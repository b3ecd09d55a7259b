"""No Python values and no JSON dumps in any text the CLI prints for a judge: ``arbiter rule`` (every
step of every example), ``replay`` and ``timeline`` (every example), ``cards show`` (every card)
and ``rules show``. ``--json`` is for machines and is not scanned."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from arbiter.cmd_cards import cards_command
from arbiter.cmd_rules import rules_command
from arbiter.commands.logs import replay, rule, timeline
from judge.games import registry
from judge.rules import index
from tests.helpers import EXAMPLE_NAMES, EXAMPLES_DIR, load_example

# Python's values and a dict's or list's repr (a log's own notes may quote its JSON: they are the
# author's words, so a JSON object's ``{"`` is not looked for)
REPR = re.compile(r"\bNone\b|\bFalse\b|\bTrue\b|\{'|\['")


def assert_words(text: str, where: str) -> None:
    found = REPR.search(text)
    assert found is None, f"{where}: {found.group(0)!r} in:\n{text}"


@pytest.mark.parametrize("name", EXAMPLE_NAMES)
def test_rule_replay_and_timeline_text_hold_no_reprs(name: str) -> None:
    runner = CliRunner()
    path = str(EXAMPLES_DIR / name)
    steps = len(load_example(name)["steps"])
    for at in range(1, steps + 1):
        out = runner.invoke(rule, [path, "--at", str(at)])
        assert out.exit_code == 0, out.output
        assert out.output.startswith(f"Step {at}: ") and "Answer: " in out.output
        assert_words(out.output, f"arbiter rule {name} --at {at}")
    for command in (replay, timeline):
        out = runner.invoke(command, [path])
        assert out.output.strip(), name
        assert_words(out.output, f"arbiter {command.name} {name}")


def test_the_scan_catches_what_it_looks_for() -> None:
    for text in ("legal: None", "passed False", "{'a': 1}", "dice ['p1.05031/1']", "exhausted True"):
        assert REPR.search(text), text
    assert REPR.search("Nonetheless, Falsehood and Trueborn are words") is None


def test_card_and_rule_text_hold_no_reprs() -> None:
    runner = CliRunner()
    for code in registry.get("destiny").default_cards().cards:
        out = runner.invoke(cards_command, ["show", code])
        assert out.exit_code == 0 and code in out.output
        assert_words(out.output, f"arbiter cards show {code}")
    assert_words(runner.invoke(cards_command, ["search", ""]).output, "arbiter cards search")
    for rule_id in index.ids():
        assert_words(runner.invoke(rules_command, ["show", rule_id]).output, f"arbiter rules show {rule_id}")


def test_the_examples_are_all_here() -> None:
    assert len(EXAMPLE_NAMES) == len(list(Path(EXAMPLES_DIR).rglob("*.json"))) >= 10  # every game's folder too
