"""``arbiter selfplay``: complete games between the sides a game offers self-play (Destiny: its
starter decks) under a seeded policy (``--policy``: the game's first, Destiny's ``heuristic``, which
plays as a person would; ``random``, a random-but-legal one), written as logs that replay to the
same state hashes anywhere. The game is chosen through the registry (``--game``)."""

from __future__ import annotations

import json
from pathlib import Path

import click

from judge.games import registry

DEFAULT_GAME = "destiny"


@click.command("selfplay")
@click.option("--game", "game_id", default=DEFAULT_GAME, show_default=True, type=click.Choice(registry.written()),
              help="The game to play.")
@click.option("--seed", default="arbiter", show_default=True, help="Seed; game i uses '<seed>-<i>'.")
@click.option("--games", default=1, show_default=True, type=click.IntRange(1, 10_000))
@click.option("--side", "sides", multiple=True, metavar="SIDE",
              help="A side to seat, given twice (first player, then second): one of the game's self-play "
                   "sides (Destiny: its starter decks, e.g. LEG-H); default: the game's first two.")
@click.option("--out", "out_dir", default="var/selfplay", show_default=True,
              type=click.Path(file_okay=False, path_type=Path), help="Folder for the logs.")
@click.option("--max-steps", default=2000, show_default=True, type=click.IntRange(1, 100_000))
@click.option("--policy", "policy", default=None, metavar="NAME",
              help="How the bots play: one of the game's self-play policies (Destiny: heuristic, random); "
                   "default: the game's first (Destiny: heuristic).")
def selfplay(game_id: str, seed: str, games: int, sides: tuple[str, ...], out_dir: Path, max_steps: int,
             policy: str | None) -> None:
    """Play GAMES games and write their logs to OUT."""
    from replays.selfplay import play_game, policies

    offered = registry.get(game_id).selfplay_sides()
    named = policies(game_id)
    if policy is not None and policy not in named:
        raise click.BadParameter(f"{policy!r} is not one of {', '.join(named) or 'none: the game has only its own'}",
                                 param_hint="'--policy'")
    policy = policy or (named[0] if named else None)
    for side in sides:
        if side not in offered:
            raise click.BadParameter(f"{side!r} is not one of {', '.join(offered)}", param_hint="'--side'")
    if sides and len(sides) != 2:
        raise click.BadParameter(f"give two sides, not {len(sides)}", param_hint="'--side'")
    first, second = sides or offered[:2]
    out_dir.mkdir(parents=True, exist_ok=True)
    for i in range(1, games + 1):
        game_seed = f"{seed}-{i}"
        played = play_game(game_seed, first, second, max_steps=max_steps, game=game_id, policy=policy)
        path = out_dir / f"selfplay-{game_seed}.json"
        path.write_text(json.dumps(played.log, indent=1) + "\n", encoding="utf-8")
        state = played.state
        result = (f"{state.winner} wins ({state.reason}) in round {state.round}" if played.finished
                  else f"stopped after {played.steps} steps (--max-steps)")
        click.echo(f"{path}: {played.steps} steps, {result}, {state.state_hash()}")
