"""``arbiter position --game relic``: Relic's quick position (judge.games.relic.quick) typed
compactly, ruled on in words; faults printed with where they are, exit 1."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from arbiter.commands.position import position


def test_the_relic_example_is_ruled_in_words(tmp_path: Path) -> None:
    runner = CliRunner()
    example = runner.invoke(position, ["--game", "relic", "--example"])
    assert example.exit_code == 0 and "ask p1 use Auspex on d1 rolling 6 3" in example.output
    text = tmp_path / "q.txt"
    text.write_text(example.output)
    out = tmp_path / "log.json"
    result = runner.invoke(position, ["--game", "relic", str(text), "--log-out", str(out)])
    assert result.exit_code == 0, result.output
    assert "Answer: Legal." in result.output
    assert "Auspex rerolls die d1: 2 → 6" in result.output and "die d2 explodes from d1: 3" in result.output
    assert "relic.dice.exploding" in result.output and "relic.dice.reroll" in result.output
    log = json.loads(out.read_text())
    assert log["game"] == "relic" and log["steps"][0]["do"] == "use"
    as_json = json.loads(runner.invoke(position, ["--game", "relic", str(text), "--json"]).output)
    assert as_json["ruling"]["legal"] is True and as_json["ruling"]["state"]["contest"]["player_score"] == 15


def test_a_refused_step_names_its_rule(tmp_path: Path) -> None:
    text = tmp_path / "q.txt"
    text.write_text("p1 Ana: Battle Sister\np2 Ben: Tech-Priest\np1 asset Needle Rifle: 1 charge, spent\n"
                    "battle Ork Boy\nask p1 declare Needle Rifle\n")
    result = CliRunner().invoke(position, ["--game", "relic", str(text)])
    assert result.exit_code == 0, result.output
    assert "Not legal: it breaks relic.charges.one-per-card-per-turn" in result.output


def test_faults_are_printed_with_their_lines_and_pointers(tmp_path: Path) -> None:
    text = tmp_path / "q.txt"
    text.write_text("p1 Ana: Battle Sister\np2 Ben: Tech-Priest\ndice d1 9\nask p1 resolve\n")
    runner = CliRunner()
    unread = runner.invoke(position, ["--game", "relic", str(text)])
    assert unread.exit_code == 1 and "line 3: cannot read the die 'd1 9'" in unread.output
    text.write_text("p1 Ana: Battle Sister\np2 Ben: Tech-Priest\nbattle Ork Boy\ndice e1 2, d1 6\nask p1 resolve\n")
    bad = runner.invoke(position, ["--game", "relic", str(text)])
    assert bad.exit_code == 1 and "line 4: d1 shows 6" in bad.output
    text.write_text("round 1\n" * 500)
    many = runner.invoke(position, ["--game", "relic", str(text)])
    assert many.exit_code == 1 and "at most 200 lines" in many.output
