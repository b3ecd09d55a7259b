"""``arbiter selfplay`` through click's runner: the game and its sides come from the registry."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from arbiter.cmd_selfplay import selfplay
from judge.games import registry
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
