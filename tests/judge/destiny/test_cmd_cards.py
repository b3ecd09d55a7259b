"""``arbiter cards`` import / show / check through click's runner."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from arbiter.cmd_cards import card_tools, cards_command
from judge.games import carddata

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "swdestinydb"


def test_import_show_check(tmp_path: Path) -> None:
    out = tmp_path / "cards.json"
    runner = CliRunner()
    result = runner.invoke(cards_command, ["import", str(FIXTURES), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "10 cards from 3 sets" in result.output
    assert "05098 sides[1]" in result.output  # errors go to stderr, mixed in by the runner
    assert json.loads(out.read_text())["format"] == "arbiter-cards/1"

    shown = runner.invoke(cards_command, ["show", "05031", "--cards", str(out)])
    assert shown.exit_code == 0
    assert "* Luke Skywalker - Unlikely Hero" in shown.output
    assert "die: 1RD 2RD 1MD 1Sh 1R -" in shown.output and "points: 11/14" in shown.output
    assert runner.invoke(cards_command, ["show", "99999", "--cards", str(out)]).exit_code != 0

    deck = tmp_path / "deck.txt"
    deck.write_text(
        "Characters:\nLuke Skywalker (Legacies 31) x2 dice\nBattlefield:\nOuter Rim Outpost (LEG 178)\n"
    )
    checked = runner.invoke(cards_command, ["check", str(deck), "--cards", str(out)])
    assert checked.exit_code == 1
    assert "destiny.deckbuilding.deck-size: the deck has 0 cards, not 30" in checked.output
    sandbox = runner.invoke(cards_command, ["check", str(deck), "--cards", str(out), "--format", "sandbox"])
    assert sandbox.exit_code == 0 and "legal for sandbox" in sandbox.output


def test_missing_card_file(tmp_path: Path) -> None:
    result = CliRunner().invoke(cards_command, ["show", "05031", "--cards", str(tmp_path / "none.json")])
    assert result.exit_code != 0 and "arbiter cards import" in result.output


def test_the_game_is_chosen_through_the_registry(tmp_path: Path) -> None:
    tools = card_tools("destiny")  # the Game's members, or its package's cardtools module until it has them
    assert all(callable(getattr(tools, m)) for m in carddata.MEMBERS if m != "card_data_files")
    assert "sets.json" in tools.card_data_files
    out = tmp_path / "cards.json"
    runner = CliRunner()
    imported = runner.invoke(cards_command, ["import", str(FIXTURES), "--out", str(out), "--game", "destiny"])
    assert imported.exit_code == 0
    unknown = runner.invoke(cards_command, ["show", "05031", "--cards", str(out), "--game", "chess"])
    assert unknown.exit_code == 2 and "destiny" in unknown.output
    deck = tmp_path / "deck.json"
    deck.write_text(json.dumps({"slots": {"05031": {"quantity": 1, "dice": 2}}}))
    bad = runner.invoke(cards_command, ["check", str(deck), "--cards", str(out), "--format", "eternal"])
    assert bad.exit_code == 2 and "'eternal' is not one of standard, starter, sandbox" in bad.output
    starter = runner.invoke(cards_command, ["check", str(deck), "--cards", str(out), "--format", "starter"])
    assert starter.exit_code == 1 and '"card": "05031"' in starter.output
    assert "the deck has 0 cards, not 20" in starter.output


def test_an_import_that_reads_no_card_fails_and_leaves_the_card_file_as_it_was(tmp_path: Path) -> None:
    out = tmp_path / "cards.json"
    out.write_text('{"kept": true}\n')
    empty = tmp_path / "empty"
    empty.mkdir()
    result = CliRunner().invoke(cards_command, ["import", str(empty), "--out", str(out)])
    assert result.exit_code == 1 and "nothing written" in result.output, result.output
    assert out.read_text() == '{"kept": true}\n'
