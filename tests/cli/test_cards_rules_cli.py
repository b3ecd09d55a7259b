"""``arbiter cards show|search`` on the game's own cards (by code or name) and ``arbiter rules show``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

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


FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "swdestinydb"


def _refused(result: Result, words: str) -> None:
    """A clean refusal: exit 1, one ``Error:`` line holding ``words``, no traceback."""
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit), result.output
    assert "Traceback" not in result.output
    assert result.output.startswith("Error: ") and words in result.output, result.output


@pytest.mark.parametrize(("data", "words"), [
    ([1, 2], "not a card file `arbiter cards import` wrote (a JSON array, not an object)"),
    (None, "(a JSON null, not an object)"),
    ("x", "(a JSON string, not an object)"),
    ({"format": "arbiter-cards/1", "cards": 5}, "(its cards or sets are not the JSON objects and lists it writes)"),
    ({"format": "arbiter-cards/1", "cards": [1]}, "(its cards or sets are not the JSON objects and lists it writes)"),
    ({"format": "arbiter-cards/1", "sets": [1]}, "(its cards or sets are not the JSON objects and lists it writes)"),
    ({"format": "arbiter-cards/1", "cards": [{}]}, "(a card or set without 'code')"),
    ({"cards": []}, "not an arbiter-cards/1 card file"),
])
def test_a_card_file_of_the_wrong_shape_is_refused_saying_so(tmp_path: Path, data: object, words: str) -> None:
    cards = tmp_path / "cards.json"
    cards.write_text(json.dumps(data))
    deck = tmp_path / "deck.txt"
    deck.write_text("Characters:\nLuke Skywalker (Legacies 31) x2 dice\n")
    runner = CliRunner()
    shown = runner.invoke(cards_command, ["show", "05031", "--cards", str(cards)])
    _refused(shown, words)
    assert shown.output.startswith(f"Error: {cards}: ")
    _refused(runner.invoke(cards_command, ["check", str(deck), "--cards", str(cards)]), words)


def test_a_swtcg_card_file_of_the_wrong_shape_is_refused(tmp_path: Path) -> None:
    cards = tmp_path / "cards.json"
    for data in ([], {"game": "swtcg", "cards": [1]}):
        cards.write_text(json.dumps(data))
        shown = CliRunner().invoke(cards_command, ["show", "X", "--game", "swtcg", "--cards", str(cards)])
        _refused(shown, f"{cards}: not a card file `arbiter cards import` wrote")


def test_a_file_that_is_not_utf8_text_is_refused_saying_so(tmp_path: Path) -> None:
    runner = CliRunner()
    cards = tmp_path / "cards.json"
    assert runner.invoke(cards_command, ["import", str(FIXTURES), "--out", str(cards)]).exit_code == 0
    binary = tmp_path / "deck.bin"
    binary.write_bytes(b"\x93\xff\x00\x01" + bytes(range(256)))
    latin = tmp_path / "deck.txt"
    latin.write_bytes("Characters:\nLuke Skywalker (Legacies 31) x2 dice — Café\n".encode("latin-1", "replace"))
    for deck in (binary, latin):
        _refused(runner.invoke(cards_command, ["check", str(deck), "--cards", str(cards)]), f"{deck}: not UTF-8 text")
    _refused(runner.invoke(cards_command, ["show", "05031", "--cards", str(binary)]), f"{binary}: not UTF-8 text")
    not_json = tmp_path / "not.json"
    not_json.write_text("[" * 100_000)
    _refused(runner.invoke(cards_command, ["show", "05031", "--cards", str(not_json)]), f"{not_json}: not JSON")


def _covered(output: str, rule_id: str) -> str:
    """The coverage table's cells for ``rule_id``: ``covered  <tests>``, or ``-  <summary>``."""
    line = next(x for x in output.splitlines() if x.startswith(rule_id + " "))
    return line[len(rule_id):].strip()


def test_coverage_reads_a_test_folder_under_a_hidden_one_and_skips_folders_named_like_files(tmp_path: Path) -> None:
    tests = tmp_path / ".checkout" / "tests"
    (tests / "judge").mkdir(parents=True)
    (tests / "judge" / "test_cap.py").write_text(
        'import pytest\n\n\n@pytest.mark.rules("destiny.shields.max-three")\ndef test_cap():\n    pass\n')
    (tests / "test_x.py").mkdir()  # (a folder named like a test file)
    (tests / ".hidden").mkdir()  # (a hidden folder inside the tests is skipped)
    (tests / ".hidden" / "test_skipped.py").write_text(
        'import pytest\n\n\n@pytest.mark.rules("destiny.victory.deck-out")\ndef test_it():\n    pass\n')
    result = CliRunner().invoke(rules_command, ["--coverage", "--game", "destiny", "--tests", str(tests)])
    assert result.exit_code == 0, result.output
    assert _covered(result.output, "destiny.shields.max-three") == "covered  tests/judge/test_cap.py::test_cap"
    assert _covered(result.output, "destiny.victory.deck-out").split()[0] == "-"
    assert "destiny: 1/" in result.output


def test_coverage_warns_of_a_test_file_it_cannot_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    tests = tmp_path / "tests"
    tests.mkdir()
    (tests / "test_a.py").write_text('import pytest\n\n\n@pytest.mark.rules("destiny.shields.max-three")\n'
                                     'def test_a():\n    pass\n')
    (tests / "test_b.py").write_text("")
    read_bytes = Path.read_bytes

    def refuse_b(self: Path) -> bytes:
        if self.name == "test_b.py":
            raise PermissionError(13, "Permission denied", str(self))
        return read_bytes(self)

    monkeypatch.setattr(Path, "read_bytes", refuse_b)
    result = CliRunner().invoke(rules_command, ["--coverage", "--game", "destiny", "--tests", str(tests)])
    assert result.exit_code == 0, result.output
    assert "warning: tests/test_b.py: cannot read: Permission denied" in result.output
    assert _covered(result.output, "destiny.shields.max-three") == "covered  tests/test_a.py::test_a"
