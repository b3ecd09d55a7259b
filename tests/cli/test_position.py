"""A judge's quick position (judge.games.quick, Destiny's judge.games.destiny.quick) and
``arbiter position``: a table by card names, one question, the ordinary ruling."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from arbiter.commands.position import position
from judge.games import registry
from replays.service import ruling_json
from tests.helpers import load_example

GAME = registry.get("destiny")
CARDS = GAME.default_cards()



def _line(path: Path, line: str) -> int:
    """The number of ``line`` in the text file at ``path`` (from 1)."""
    return path.read_text().splitlines().index(line) + 1

def test_the_example_is_the_shields_cap_table_and_gets_its_ruling() -> None:
    spec, faults = GAME.quick_text(GAME.quick_example())
    assert faults == []
    log, faults = GAME.quick_log(spec, CARDS)
    assert faults == [] and log is not None
    example = load_example("shields-cap.json")
    assert log["steps"][0]["dice"] == example["steps"][0]["dice"]
    assert log["setup"]["position"]["players"]["p1"]["characters"] == \
        example["setup"]["position"]["players"]["p1"]["characters"]
    ours, theirs = ruling_json(log, 1), ruling_json(example, 1)
    assert ours["legal"] is True and ours["events"] == theirs["events"]
    assert ours["state"]["players"]["p1"]["characters"] == theirs["state"]["players"]["p1"]["characters"]
    assert log["steps"][0]["dispute"].startswith("Luke has 2 shields")


@pytest.mark.parametrize(("text", "where", "words"), [
    ("p1 character Han Solo\np2 character Boba Fett\nask p1 pass", "/players/0/characters/0/card", "several cards"),
    ("p1 character Nobody\np2 character Boba Fett\nask p1 pass", "/players/0/characters/0/card", "no card is named"),
    ("p1 character Hidden Blaster\np2 character Boba Fett\nask p1 pass", "/players/0/characters/0/card",
     "not a character"),
    ("p1 character Luke Skywalker\np2 character Boba Fett\nask p1 resolve Jango Fett/1 -> Boba Fett", "/ask",
     "not in play"),
    ("p1 character Boba Fett\np2 character Boba Fett\np1 die Boba Fett/1: 2RD\nask p1 resolve Boba Fett/1 -> "
     "Boba Fett", "/ask", "say whose, e.g. 'p1:Boba Fett'"),
    ("p1 character Luke Skywalker\np2 character Boba Fett\nask p3 pass", "/ask", "player who takes it"),
    ("p1 character Luke Skywalker\np2 character Boba Fett", "/ask", "the step to rule on"),
    ("p1 character Luke Skywalker\nask p1 pass", "/players", "2 to 4 players"),
])
def test_faults_say_where_and_why(text: str, where: str, words: str) -> None:
    spec, faults = GAME.quick_text(text)
    assert faults == []
    log, faults = GAME.quick_log(spec, CARDS)
    assert log is None and any(p == where and words in m for p, m in faults), faults


def test_a_line_it_cannot_read_is_named_by_its_number() -> None:
    _, faults = GAME.quick_text("round 2\np1 character Luke Skywalker: 2 dise\nwhatever\n")
    assert [p for p, _ in faults] == ["/lines/2", "/lines/3"]


def test_whose_card_is_said_with_the_player_first() -> None:
    text = ("p1 character Boba Fett: 2 dice\np2 character Boba Fett\np1 die Boba Fett/1: 2RD\n"
            "ask p1 resolve Boba Fett/1 -> p2:Boba Fett")
    log, faults = GAME.quick_log(GAME.quick_text(text)[0], CARDS)
    assert faults == [] and log is not None
    assert log["steps"][0]["dice"] == [{"die": "p1.05019/1", "target": "p2.05019"}]
    assert ruling_json(log, 1)["state"]["players"]["p2"]["characters"]["p2.05019"]["damage"] == 2


def test_a_card_played_from_a_hand_given_by_names() -> None:
    text = ("p1 A: resources 3, hand Hidden Blaster; Wrist Rockets\np1 character Luke Skywalker\n"
            "p2 character Boba Fett\nask p1 play Hidden Blaster on Luke Skywalker")
    log, faults = GAME.quick_log(GAME.quick_text(text)[0], CARDS)
    assert faults == [] and log is not None
    assert log["setup"]["position"]["players"]["p1"]["hand"] == ["05072", "05027"]
    ruling = ruling_json(log, 1)
    assert ruling["legal"] is True and any(e["event"] == "play" for e in ruling["events"])


def test_the_command_prints_the_ruling_and_keeps_the_log(tmp_path: Path) -> None:
    runner = CliRunner()
    example = runner.invoke(position, ["--example"]).output
    text = tmp_path / "q.txt"
    text.write_text(example)
    out = tmp_path / "log.json"
    result = runner.invoke(position, [str(text), "--log-out", str(out)])
    assert result.exit_code == 0, result.output
    assert "Answer: Legal." in result.output and "Luke Skywalker gains 1 shield (2 → 3)" in result.output
    assert json.loads(out.read_text())["steps"][0]["do"] == "resolve"
    as_json = json.loads(runner.invoke(position, [str(text), "--json"]).output)
    assert set(as_json) == {"log", "ruling"} and as_json["ruling"]["legal"] is True
    text.write_text(example.replace("1Sh\n", "3Sh\n", 1))  # Luke's die has no such face: the engine says so
    bad = runner.invoke(position, [str(text)])
    die_line = example.splitlines().index("p1 die Luke Skywalker/1: 1Sh") + 1
    assert bad.exit_code == 1 and f"line {die_line}: Luke Skywalker's die has no face 3Sh" in bad.output
    text.write_text("p1 character Han Solo\np2 character Boba Fett\nask p1 pass\n")
    shared = runner.invoke(position, [str(text)])
    assert shared.exit_code == 1 and "names several cards" in shared.output and "Han Solo - Scoundrel" in shared.output


def test_the_command_rules_on_an_upgrades_die_and_a_support(tmp_path: Path) -> None:
    text = tmp_path / "q.txt"
    text.write_text("p1 Ana: resources 0\np1 character Boba Fett: 2 dice\n"
                    "p1 upgrade Hidden Blaster on Boba Fett\np1 support Underworld Connections\n"
                    "p1 die Hidden Blaster/1: 1RD\np2 Ben:\np2 character Luke Skywalker\n"
                    "ask p1 resolve Hidden Blaster/1 -> Luke Skywalker\n")
    runner = CliRunner()
    result = runner.invoke(position, [str(text), "--json"])
    assert result.exit_code == 0, result.output
    answer = json.loads(result.output)
    assert answer["log"]["setup"]["position"]["players"]["p1"]["supports"] == {"p1.01101#1": {"exhausted": False}}
    assert answer["ruling"]["legal"] is True
    assert answer["ruling"]["state"]["players"]["p2"]["characters"]["p2.05031"]["damage"] == 1
    text.write_text(text.read_text().replace("ask p1 resolve Hidden Blaster/1 -> Luke Skywalker",
                                             "ask p1 use Underworld Connections"))
    used = runner.invoke(position, [str(text)])
    assert used.exit_code == 0 and "Answer: Legal." in used.output, used.output
    text.write_text(text.read_text().replace("p1 support Underworld Connections", "p1 support Hidden Blaster"))
    bad = runner.invoke(position, [str(text)])
    assert bad.exit_code == 1 and ": Hidden Blaster is not a support" in bad.output
    assert f"line {_line(text, 'p1 support Hidden Blaster')}: Hidden Blaster" in bad.output
    text.write_text(text.read_text().replace("on Boba Fett", "on Jango Fett"))
    unread = runner.invoke(position, [str(text)])
    assert unread.exit_code == 1 and "line 3: p1 has no character line 'Jango Fett'" in unread.output


def test_the_command_rules_on_a_sw_tcg_position(tmp_path: Path) -> None:
    runner = CliRunner()
    example = runner.invoke(position, ["--game", "swtcg", "--example"]).output
    assert example.startswith("round 3\nphase battle\n")
    text = tmp_path / "q.txt"
    text.write_text(example)
    result = runner.invoke(position, ["--game", "swtcg", str(text), "--json"])
    assert result.exit_code == 0, result.output
    answer = json.loads(result.output)
    assert answer["log"]["game"] == "swtcg" and answer["ruling"]["legal"] is True
    assert "swtcg.keywords.accuracy" in answer["ruling"]["rules_cited"]
    words = runner.invoke(position, ["--game", "swtcg", str(text)])
    assert "Answer: Legal." in words.output and "Mon Calamari Cruiser: 3 hits (needs 5)" in words.output
    text.write_text(example.replace("p2 space Mon Calamari Cruiser", "p2 ground Mon Calamari Cruiser"))
    bad = runner.invoke(position, ["--game", "swtcg", str(text)])
    assert bad.exit_code == 1 and f"line {_line(text, 'p2 ground Mon Calamari Cruiser')}: Mon Calamari" in bad.output
    text.write_text(example.replace("phase battle", "phase lunch"))
    assert "line 2: 'phase' is build or retreat" in runner.invoke(position, ["--game", "swtcg", str(text)]).output
    text.write_text(example + "p1 spaceship TIE Fighter\n")
    unread = runner.invoke(position, ["--game", "swtcg", str(text)])
    assert unread.exit_code == 1 and "line 13: cannot read 'spaceship TIE Fighter'" in unread.output
    assert "--game swtcg" in runner.invoke(position, ["--help"]).output


@pytest.mark.parametrize("game_id", ["destiny", "swtcg", "relic"])
def test_the_example_is_printed_with_one_line_end(game_id: str) -> None:
    from judge.games import registry

    printed = CliRunner().invoke(position, ["--game", game_id, "--example"]).output
    assert printed.rstrip("\n") == registry.get(game_id).quick_example().rstrip("\n") and printed.endswith("?\n")


@pytest.mark.parametrize(("lang", "words", "fault"), [
    ("pl", ("Krok 1: ", "Odpowiedź: "), "kość karty Luke Skywalker nie ma ścianki 3Sh"),
    ("ru", ("Шаг 1: ", "Ответ: "), "у кубика карты Luke Skywalker нет грани 3Sh"),
])
def test_the_ruling_and_the_faults_are_worded_in_lang(tmp_path: Path, lang: str, words: tuple[str, ...],
                                                      fault: str) -> None:
    runner = CliRunner()
    text = tmp_path / "q.txt"
    text.write_text(runner.invoke(position, ["--example"]).output)
    english = runner.invoke(position, [str(text)])
    assert english.exit_code == 0 and "Answer: Legal." in english.output
    worded = runner.invoke(position, [str(text), "--lang", lang])
    assert worded.exit_code == 0, worded.output
    assert all(w in worded.output for w in words) and "Answer:" not in worded.output
    from arbiter.cli import main  # (the group's --lang, as `arbiter --lang pl position ...`)
    assert runner.invoke(main, ["--lang", lang, "position", str(text)]).output == worded.output
    text.write_text(text.read_text().replace("1Sh\n", "3Sh\n", 1))
    bad = runner.invoke(position, [str(text), "--lang", lang])
    assert bad.exit_code == 1 and f": {fault}\n" in bad.output, bad.output


def test_a_log_out_that_cannot_be_written_is_an_error_not_a_traceback(tmp_path: Path) -> None:
    runner = CliRunner()
    text = tmp_path / "q.txt"
    text.write_text(runner.invoke(position, ["--example"]).output)
    a_file = tmp_path / "a-file"
    a_file.write_text("x")
    result = runner.invoke(position, [str(text), "--log-out", str(a_file / "log.json")])
    assert result.exit_code == 2 and isinstance(result.exception, SystemExit), result.output
    assert result.output == f"arbiter: cannot write {a_file / 'log.json'}: Not a directory\n"
    folder = runner.invoke(position, [str(text), "--log-out", str(tmp_path)])
    assert folder.exit_code == 2 and "Error: Invalid value for '--log-out'" in folder.output
    assert a_file.read_text() == "x"
