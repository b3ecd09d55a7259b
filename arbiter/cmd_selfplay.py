"""``arbiter selfplay``: complete games between the sides a game offers self-play (Destiny: its
starter decks) under a seeded policy (``--policy``: the game's first, Destiny's ``heuristic``, which
plays as a person would; ``random``, a random-but-legal one), written as logs that replay to the
same state hashes anywhere. The game is chosen through the registry (``--game``)."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

import click

from judge.games import registry
from judge.limits import MAX_SEED_CHARS

DEFAULT_GAME = "destiny"
#: the longest file name, in bytes, most file systems take (ext4, XFS, Btrfs, APFS: 255)
MAX_NAME_BYTES = 255


def log_name(seed: str) -> str:
    """The file name of the log of the game seeded ``seed`` (``<seed>-<i>``)."""
    return f"selfplay-{seed}.json"


def seed_problem(seed: str, games: int) -> str | None:
    """Why ``seed`` cannot seed GAMES games (each game's seed ``<seed>-<i>`` names its log file,
    ``selfplay-<seed>-<i>.json``), or None."""
    if "/" in seed or "\0" in seed:
        return "a seed is part of its logs' file names (selfplay-<seed>-<i>.json): it cannot hold '/' or NUL"
    try:
        seed.encode("utf-8")
    except UnicodeEncodeError:
        return "not text: the seed holds bytes that are not UTF-8"
    last = f"{seed}-{games}"
    if len(last) > MAX_SEED_CHARS:
        return (f"too long: game {games}'s seed '<seed>-{games}' has at most {MAX_SEED_CHARS} characters "
                f"(MAX_SEED_CHARS), so the seed at most {MAX_SEED_CHARS - len(last) + len(seed)}, not {len(seed)}")
    size = len(log_name(last).encode("utf-8"))
    if size > MAX_NAME_BYTES:
        seed_size = len(seed.encode("utf-8"))
        return (f"too long for a file name: selfplay-<seed>-{games}.json has at most {MAX_NAME_BYTES} bytes, "
                f"so the seed at most {MAX_NAME_BYTES - size + seed_size} bytes (UTF-8), not {seed_size}")
    return None


def _write(path: Path, text: str) -> None:
    """Write ``text`` to ``path``, or a click error saying why not (a file begun is removed)."""
    try:
        fh = path.open("w", encoding="utf-8")
    except OSError as exc:
        raise click.ClickException(f"cannot write {path}: {exc.strerror or exc}") from None
    try:
        with fh:
            fh.write(text)
    except OSError as exc:
        with contextlib.suppress(OSError):
            path.unlink()
        raise click.ClickException(f"cannot write {path}: {exc.strerror or exc}") from None


def _check_seed(_ctx: click.Context, _param: click.Parameter, seed: str) -> str:
    """The seed, refused as it is parsed when no game could use it (``--games`` is checked later)."""
    problem = seed_problem(seed, 1)
    if problem is not None:
        raise click.BadParameter(problem)
    return seed


@click.command("selfplay")
@click.option("--game", "game_id", default=DEFAULT_GAME, show_default=True, type=click.Choice(registry.written()),
              help="The game to play.")
@click.option("--seed", default="arbiter", show_default=True, callback=_check_seed,
              help="Seed; game i uses '<seed>-<i>' and its log is selfplay-<seed>-<i>.json: no '/' or NUL, "
                   f"and a name of at most {MAX_NAME_BYTES} bytes (about {MAX_NAME_BYTES - 16} for the seed).")
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
    from replays.errors import MalformedLog
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
    problem = seed_problem(seed, games)  # (the longest game seed: the last game's)
    if problem is not None:
        raise click.BadParameter(problem, param_hint="'--seed'")
    first, second = sides or offered[:2]
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise click.BadParameter(f"cannot make the folder {out_dir}: {exc.strerror or exc}",
                                 param_hint="'--out'") from None
    for i in range(1, games + 1):
        game_seed = f"{seed}-{i}"
        try:
            played = play_game(game_seed, first, second, max_steps=max_steps, game=game_id, policy=policy)
        except MalformedLog as exc:  # (what the checks above let through and the engine refuses)
            raise click.BadParameter(f"the engine refuses the seed {game_seed!r}: {exc}",
                                     param_hint="'--seed'") from None
        path = out_dir / log_name(game_seed)
        _write(path, json.dumps(played.log, indent=1) + "\n")
        state = played.state
        result = (f"{state.winner} wins ({state.reason}) in round {state.round}" if played.finished
                  else f"stopped after {played.steps} steps (--max-steps)")
        click.echo(f"{path}: {played.steps} steps, {result}, {state.state_hash()}")
