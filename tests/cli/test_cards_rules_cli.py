"""``arbiter cards show|search`` on the game's own cards (by code or name) and ``arbiter rules show``."""

from __future__ import annotations

import json

from click.testing import CliRunner

from arbiter.cmd_cards import cards_command
from arbiter.cmd_rules import rules_command
from judge.rules import index


def test_show_by_code_and_by_name() -> None:
    runner = CliRunner()
    by_code = runner.invoke(cards_command, ["show", "05031"])
    assert by_code.exit_code == 0, by_code.output
    assert by_code.output.splitlines()[0] == "05031  * Luke Skywalker - Unlikely Hero"
    assert "health: 11" in by_code.output and "die: 1RD 2RD 1MD 1Sh 1R -" in by_code.output
    assert "status: applied by the engine" in by_code.output and "Pay 2 resources" in by_code.output
    assert runner.invoke(cards_command, ["show", "luke skywalker"]).output == by_code.output
    as_json = json.loads(runner.invoke(cards_command, ["show", "Boba Fett", "--json"]).output)
    assert as_json["code"] == "05019" and as_json["name"] == "Boba Fett" and None not in as_json.values()


def test_show_refuses_an_ambiguous_or_unknown_name_saying_why() -> None:
    runner = CliRunner()
    shared = runner.invoke(cards_command, ["show", "Han Solo"])
    assert shared.exit_code == 1
    assert "names several cards" in shared.output and "Han Solo - Savvy Smuggler" in shared.output
    unknown = runner.invoke(cards_command, ["show", "Nobody At All"])
    assert unknown.exit_code == 1 and "no card is named 'Nobody At All'" in unknown.output


def test_search_lists_one_card_a_line() -> None:
    runner = CliRunner()
    found = runner.invoke(cards_command, ["search", "han solo"])
    assert found.exit_code == 0
    assert found.output.splitlines() == ["01046  Han Solo - Scoundrel  [character]",
                                         "05046  Han Solo - Savvy Smuggler  [character]"]
    none = runner.invoke(cards_command, ["search", "zzzqqq"])
    assert none.exit_code == 1 and "no card matches" in none.output
    listed = json.loads(runner.invoke(cards_command, ["search", "shield", "--json"]).output)
    assert listed and all("shield" in json.dumps(c).lower() for c in listed)


def test_rules_show() -> None:
    runner = CliRunner()
    shown = runner.invoke(rules_command, ["show", "destiny.shields.max-three"])
    assert shown.exit_code == 0
    assert shown.output == runner.invoke(rules_command, ["destiny.shields.max-three"]).output
    assert f"summary: {index.summary('destiny.shields.max-three')}" in shown.output
    as_json = json.loads(runner.invoke(rules_command, ["show", "destiny.shields.max-three", "--json"]).output)
    assert as_json == index.get("destiny.shields.max-three").to_json()
    assert runner.invoke(rules_command, ["show"]).exit_code == 2
    assert runner.invoke(rules_command, ["show", "destiny.nope"]).exit_code == 1
    listed = json.loads(runner.invoke(rules_command, ["--game", "relic", "--json"]).output)
    assert [r["id"] for r in listed] == index.ids("relic")
