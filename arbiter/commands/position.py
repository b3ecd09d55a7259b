"""``arbiter position``: a judge's quick position, written compactly, ruled on.

The text (one fact a line; the game's ``quick_example`` is a start: ``arbiter position --example``)
becomes a replay log that starts from that table and whose one step is the question; the answer is
printed as ``arbiter rule`` prints it. ``--log-out`` keeps the log (for ``arbiter rule``, the
viewer, or ``POST /v1/rulings``); ``--json`` prints ``{"log", "ruling"}``.

Exit codes: 0 ruled, 1 the text or the position has faults (each printed with where it is), 2 the
file cannot be read or the log cannot be written (``--log-out``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import NoReturn

import click

from arbiter import lang as cli_lang
from arbiter import render
from arbiter.commands.logs import EXIT_INVALID, EXIT_UNREADABLE, emit_json
from i18n import Msg
from judge.games import quick, registry
from judge.games.base import Faults
from replays.service import MalformedLog, ruling_words_json


def quick_games() -> list[str]:
    return [g for g in registry.written() if all(hasattr(registry.get(g), m) for m in quick.MEMBERS)]


@click.command("position")
@click.argument("text_file", required=False, type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--game", "game_id", type=click.Choice(quick_games()), default=quick_games()[0], show_default=True)
@click.option("--example", is_flag=True, help="Print a position to start from, and stop.")
@click.option("--log-out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Also write the log (JSON) here.")
@click.option("--json", "as_json", is_flag=True, help='Print {"log", "ruling"} as JSON.')
@cli_lang.lang_option
def position(text_file: str | None, game_id: str, example: bool, log_out: Path | None, as_json: bool) -> None:
    """Set up a table by card names in TEXT_FILE ('-': standard input), ask one question about it
    (its 'ask' line) and print the ruling in words (in --lang).

    Each game has its own lines, one fact a line: 'arbiter position --game GAME --example' prints a
    position to start from, and the game's quick module documents the whole syntax
    (judge/games/<game>/quick.py).

    \b
    Destiny (--game destiny):
      round 5 / turn p1 / battlefield p1 Outer Rim Outpost
      p1 Ana: resources 2, hand 0, deck 10
      p1 character Luke Skywalker: 2 dice, 1 damage, 2 shields, exhausted
      p1 upgrade Heirloom Lightsaber on Luke Skywalker[: exhausted]
      p1 support Slave I[: exhausted]
      p1 die Luke Skywalker/1: 1Sh      (or the die of an upgrade or support: Slave I/1)
      ask p1 resolve Luke Skywalker/1 -> Boba Fett   (activate, play, use, claim, pass)
      dispute Does the third shield stay?

    \b
    Star Wars TCG (--game swtcg):
      round 3 / phase battle (build, retreat) / arena space / active p1 (build, retreat)
      p1 Vera: dark, force 4, build 0, hand 2 (or names split by ;), deck 20, discard X-wing
      p1 space TIE Bomber: 1 damage, tapped       (ground, character: the unit's arena)
      p1 build Imperial Star Destroyer: 4 counters
      p2 pilot Starfighter Pilot on X-wing / p1 equipped Blaster Rifle on Stormtrooper Squad
      before p1 attack TIE Bomber -> X-wing     (steps taken first: an attack in progress)
      ask p1 attack TIE Bomber -> X-wing rolling 4 4 6
        (skip, deploy, build N, pilot, retreat, equip, complete, play, use, prevent, reroll, pass;
         a second copy of a player's card: TIE Fighter.2; whose: p2.X-wing)
      dispute Does Accuracy turn the 4s into hits?

    \b
    Relic (--game relic):
      round 3 / phase encounter / turn p1 / scenario The Mystery Beyond
      p1 Ana: Battle Sister, life 4, influence 2 / p1 asset Needle Rifle: 1 charge, spent
      battle Ork Nob (test willpower 9, confrontation) / declared Needle Rifle / dice e1 4, d1 2
      ask p1 use Auspex on d1 rolling 6 3
    """
    game = registry.get(game_id)
    if example:
        example_text = game.quick_example()
        click.echo(example_text, nl=not example_text.endswith("\n"))  # (one line end, whatever the game's)
        return
    if text_file is None:
        raise click.UsageError("give TEXT_FILE (or '-'), or --example for a position to start from")
    try:
        with click.open_file(text_file, encoding="utf-8") as fh:
            text = fh.read()
    except (OSError, UnicodeDecodeError) as exc:
        click.echo(f"arbiter: cannot read {text_file}: {exc}", err=True)
        raise SystemExit(EXIT_UNREADABLE) from exc
    spec, faults = game.quick_text(text)
    log, cards = None, game.default_cards()
    if not faults:
        log, faults = game.quick_log(spec, cards)
        faults = quick.text_faults(game.quick_text, text, faults)  # (at the lines they come from)
    if faults or log is None:
        _echo_faults(faults)
    if log_out is not None:
        _write_log(log_out, json.dumps(log, indent=1, ensure_ascii=False) + "\n")
    lang = cli_lang.current()
    try:
        result = ruling_words_json(log, 1, lang=lang)
    except MalformedLog as exc:  # (what the engine refuses in the log: at its line, else the log's place)
        _echo_faults(quick.log_faults(game, spec, cards, [(f.path, f.message) for f in exc.faults], text, log_base=""))
    if as_json:
        emit_json({"log": log, "ruling": result["ruling"]})
    else:
        click.echo("\n".join(render.ruling_lines(result["ruling"], result["words"], lang)))


def _write_log(path: Path, text: str) -> None:
    """Write the log to ``--log-out``, or say why not and exit 2 (a file begun is removed)."""
    try:
        with path.open("w", encoding="utf-8") as fh:
            try:
                fh.write(text)
            except OSError:
                path.unlink(missing_ok=True)
                raise
    except OSError as exc:
        click.echo(f"arbiter: cannot write {path}: {exc.strerror or exc}", err=True)
        raise SystemExit(EXIT_UNREADABLE) from None


def _echo_faults(faults: Faults) -> NoReturn:
    """Each fault with where it is (``line 9``, or a JSON Pointer), in --lang, then exit 1."""
    t = cli_lang.text()
    for where, message in faults:
        worded = message.text(t) if isinstance(message, Msg) else message
        click.echo(f"{where.replace('/lines/', 'line ') or '/'}: {worded}", err=True)
    raise SystemExit(EXIT_INVALID)
