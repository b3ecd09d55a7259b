"""``arbiter selfplay``: complete games between starter decks under a seeded random-but-legal
policy, written as logs that replay to the same state hashes anywhere."""

from __future__ import annotations

import json
from pathlib import Path

import click

from judge.games.destiny.starters import STARTERS


@click.command("selfplay")
@click.option("--seed", default="arbiter", show_default=True, help="Seed; game i uses '<seed>-<i>'.")
@click.option("--games", default=1, show_default=True, type=click.IntRange(1, 10_000))
@click.option("--hero", default="LEG-H", show_default=True, type=click.Choice(sorted(STARTERS)))
@click.option("--villain", default="LEG-V", show_default=True, type=click.Choice(sorted(STARTERS)))
@click.option("--out", "out_dir", default="var/selfplay", show_default=True,
              type=click.Path(file_okay=False, path_type=Path), help="Folder for the logs.")
@click.option("--max-steps", default=2000, show_default=True, type=click.IntRange(1, 100_000))
def selfplay(seed: str, games: int, hero: str, villain: str, out_dir: Path, max_steps: int) -> None:
    """Play GAMES games and write their logs to OUT."""
    from replays.selfplay import play_game

    out_dir.mkdir(parents=True, exist_ok=True)
    for i in range(1, games + 1):
        game_seed = f"{seed}-{i}"
        game = play_game(game_seed, hero, villain, max_steps=max_steps)
        path = out_dir / f"selfplay-{game_seed}.json"
        path.write_text(json.dumps(game.log, indent=1) + "\n", encoding="utf-8")
        result = (f"{game.state.winner} wins ({game.state.reason}) in round {game.state.round}" if game.finished
                  else f"stopped after {game.steps} steps")
        click.echo(f"{path}: {game.steps} steps, {result}, {game.state.state_hash()}")
