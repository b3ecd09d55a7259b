"""``arbiter selfplay`` through click's runner: the game and its sides come from the registry."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from arbiter.cmd_selfplay import selfplay
from judge.games import registry
from judge.limits import MAX_SEED_CHARS
from replays.service import replay_json


def test_selfplay_writes_logs_that_replay(tmp_path: Path) -> None:
    args = ["--game", "destiny", "--seed", "cli", "--games", "2", "--side", "LEG-V", "--side", "LEG-H",
            "--max-steps", "40", "--out", str(tmp_path)]
    result = CliRunner().invoke(selfplay, args)
    assert result.exit_code == 0, result.output
    for i in (1, 2):
        path = tmp_path / f"selfplay-cli-{i}.json"
        log = json.loads(path.read_text())
        assert log["game"] == "destiny" and log["rng"]["seed"] == f"cli-{i}"
        assert "LEG-V v LEG-H" in log["meta"]["title"]
        assert replay_json(log)["valid"]
        assert f"{path}: " in result.output


def test_default_sides_are_the_games_first_two(tmp_path: Path) -> None:
    result = CliRunner().invoke(selfplay, ["--max-steps", "5", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    first, second = registry.get("destiny").selfplay_sides()[:2]
    log = json.loads((tmp_path / "selfplay-arbiter-1.json").read_text())
    assert f"{first} v {second}" in log["meta"]["title"]


def test_sides_are_checked_against_the_game(tmp_path: Path) -> None:
    unknown = CliRunner().invoke(selfplay, ["--side", "NOPE", "--side", "LEG-H", "--out", str(tmp_path)])
    assert unknown.exit_code == 2 and "'NOPE' is not one of" in unknown.output and "LEG-V" in unknown.output
    one = CliRunner().invoke(selfplay, ["--side", "LEG-H", "--out", str(tmp_path)])
    assert one.exit_code == 2 and "give two sides" in one.output
    game = CliRunner().invoke(selfplay, ["--game", "chess", "--out", str(tmp_path)])
    assert game.exit_code == 2 and "destiny" in game.output
    assert not list(tmp_path.iterdir())


def test_the_default_policy_is_the_games_first_and_random_stays_selectable(tmp_path: Path) -> None:
    from replays.selfplay import play_game, policies

    first = policies("destiny")[0]
    assert first == "heuristic"
    for args, policy in (([], first), (["--policy", "random"], "random")):
        out = tmp_path / policy
        result = CliRunner().invoke(selfplay, ["--seed", "pol", "--max-steps", "60", "--out", str(out), *args])
        assert result.exit_code == 0, result.output
        log = json.loads((out / "selfplay-pol-1.json").read_text())
        assert log == play_game("pol-1", max_steps=60, policy=policy).log
    heuristic = json.loads((tmp_path / first / "selfplay-pol-1.json").read_text())
    assert heuristic["steps"] != json.loads((tmp_path / "random" / "selfplay-pol-1.json").read_text())["steps"]


def test_an_unknown_policy_is_a_usage_error(tmp_path: Path) -> None:
    result = CliRunner().invoke(selfplay, ["--policy", "clever", "--out", str(tmp_path)])
    assert result.exit_code == 2 and "'clever' is not one of heuristic, random" in result.output
    assert not list(tmp_path.iterdir())


def _refused(result: Result, code: int, words: str) -> None:
    """A clean refusal: exit ``code``, ``words`` in its one ``Error:`` line, no traceback."""
    assert result.exit_code == code, result.output
    assert isinstance(result.exception, SystemExit) and "Traceback" not in result.output
    assert "Error: " in result.output and words in result.output, result.output


@pytest.mark.parametrize(("seed", "games", "words"), [
    ("a/b", 1, "it cannot hold '/' or NUL"),
    ("a\0b", 1, "it cannot hold '/' or NUL"),
    ("s" * 256, 1, f"'<seed>-1' has at most {MAX_SEED_CHARS} characters (MAX_SEED_CHARS), so the seed at most 254"),
    ("s" * 240, 1, "selfplay-<seed>-1.json has at most 255 bytes, so the seed at most 239 bytes (UTF-8), not 240"),
    ("é" * 120, 1, "so the seed at most 239 bytes (UTF-8), not 240"),
    ("s" * 239, 10, "selfplay-<seed>-10.json has at most 255 bytes, so the seed at most 238 bytes"),
    ("bad\udcffbytes", 1, "not text: the seed holds bytes that are not UTF-8"),
])
def test_a_seed_that_cannot_name_its_log_file_is_refused_before_anything_is_written(
        tmp_path: Path, seed: str, games: int, words: str) -> None:
    out = tmp_path / "out"
    args = ["--seed", seed, "--games", str(games), "--max-steps", "1", "--out", str(out)]
    result = CliRunner().invoke(selfplay, args)
    _refused(result, 2, words)
    assert "Error: Invalid value for '--seed': " in result.output
    assert not out.exists()


def test_the_longest_seed_that_names_a_file_is_played(tmp_path: Path) -> None:
    result = CliRunner().invoke(selfplay, ["--seed", "s" * 239, "--max-steps", "1", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert json.loads((tmp_path / f"selfplay-{'s' * 239}-1.json").read_text())["rng"]["seed"] == "s" * 239 + "-1"


def test_an_out_folder_that_cannot_be_made_or_written_is_an_error(tmp_path: Path) -> None:
    a_file = tmp_path / "a-file"
    a_file.write_text("x")
    under = CliRunner().invoke(selfplay, ["--max-steps", "1", "--out", str(a_file / "logs")])
    _refused(under, 2, f"Invalid value for '--out': cannot make the folder {a_file / 'logs'}: Not a directory")
    is_file = CliRunner().invoke(selfplay, ["--max-steps", "1", "--out", str(a_file)])
    _refused(is_file, 2, "is a file")
    (tmp_path / "logs" / "selfplay-arbiter-1.json").mkdir(parents=True)  # (the log's name is taken by a folder)
    taken = CliRunner().invoke(selfplay, ["--max-steps", "1", "--out", str(tmp_path / "logs")])
    _refused(taken, 1, f"cannot write {tmp_path / 'logs' / 'selfplay-arbiter-1.json'}: Is a directory")
    assert a_file.read_text() == "x"
