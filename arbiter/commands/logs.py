"""``arbiter replay``, ``arbiter rule`` and ``arbiter timeline``: the engine on a log file.

Exit codes: 0 success (``replay``: the log is valid), 1 the log is invalid or the question cannot
be answered (malformed log, no such step), 2 the file cannot be read or is not JSON.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import click

from arbiter import render
from arbiter.lang import current, lang_option, text
from judge.games import registry
from judge.games.jsonbounds import count_values
from judge.limits import MAX_BODY_BYTES, MAX_NODES
from replays.service import MalformedLog, StepOutOfRange, replay_json, ruling_words_json, timeline_json
from replays.viewer import viewer_json

EXIT_INVALID = 1
EXIT_UNREADABLE = 2


def read_log(path: str) -> Any:
    """The log in file ``path``; a file too large, or holding more JSON values than a log may, is
    refused before it is read (as the API refuses such a body, and the batch such a file): a few MB
    of empty objects would take hundreds of MB once read."""
    try:
        if os.path.getsize(path) > MAX_BODY_BYTES:
            raise ValueError(f"larger than {MAX_BODY_BYTES:,} bytes (MAX_BODY_BYTES)")
        data = Path(path).read_bytes()
        if (n := count_values(data)) > MAX_NODES:
            raise ValueError(f"it holds {n:,} JSON values; a log holds at most {MAX_NODES:,} (MAX_NODES)")
        return json.loads(data.decode("utf-8"))
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as exc:
        click.echo(f"arbiter: cannot read {path}: {exc}", err=True)
        raise SystemExit(EXIT_UNREADABLE) from exc


def emit_json(value: Any) -> None:
    click.echo(json.dumps(value, indent=2, ensure_ascii=False))


def report_malformed(exc: MalformedLog) -> None:
    t = text()
    click.echo(t.gettext("Malformed log:"), err=True)
    for fault in exc.faults:
        click.echo(f"  {fault.path or '/'}: {fault.text(t)}", err=True)


log_argument = click.argument("log", type=click.Path(dir_okay=False))
json_option = click.option("--json", "as_json", is_flag=True, help="Print the spec's JSON shape.")


@click.command()
@click.argument("log", type=click.Path())
@json_option
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=None,
              help="Batch: processes to replay in (default: every core).")
@click.option("--queue", "queued", is_flag=True,
              help="Batch: replay on the RQ workers of REDIS_URL (any machine), one job per log.")
@click.option("--timeout", type=click.FloatRange(min=0), default=None,
              help="Batch with --queue: give up waiting for results after this many seconds.")
@lang_option
def replay(log: str, as_json: bool, jobs: int | None, queued: bool, timeout: float | None) -> None:
    """Replay LOG: validity, outcome, checkpoints (exit 0 valid, 1 invalid, 2 unreadable).

    LOG may be a directory (every *.json below it) or a glob ('logs/**/*.json'): every log is
    replayed, on all cores (--jobs) or on RQ workers (--queue), with a progress bar and a summary
    (exit 0 when all are valid, 1 when some are invalid, 3 when none is invalid but some were not
    replayed within --timeout; Ctrl-C stops it: 130)."""
    if Path(log).is_dir() or any(c in log for c in "*?["):
        from arbiter.commands.batch import run_batch

        run_batch(log, as_json, jobs, queued, timeout)
        return
    result = replay_json(read_log(log))
    if as_json:
        emit_json(result)
    else:
        click.echo("\n".join(render.replay_lines(Path(log).name, result, current())))
    raise SystemExit(0 if result.get("valid") else EXIT_INVALID)


@click.command()
@log_argument
@click.option("--at", type=click.IntRange(min=1), default=None,
              help="Step to rule on (from 1); default: the disputed step, else the last.")
@json_option
@lang_option
def rule(log: str, at: int | None, as_json: bool) -> None:
    """Rule on one step of LOG, as a judge reads it aloud: what was asked, the answer (legal, or
    the rule broken; who decides now and between what), what happened, what changed on the table,
    the rules applied with their summaries (``--json``: the ruling as the spec gives it)."""
    data = read_log(log)
    try:
        result = ruling_words_json(data, at, lang=current())
    except MalformedLog as exc:
        report_malformed(exc)
        raise SystemExit(EXIT_INVALID) from exc
    except StepOutOfRange as exc:
        click.echo(f"arbiter: {exc}", err=True)
        raise SystemExit(EXIT_INVALID) from exc
    if as_json:
        emit_json(result["ruling"])
    else:
        click.echo("\n".join(render.ruling_lines(result["ruling"], result["words"], current())))


def card_names(game_id: Any) -> tuple[render.CardName | None, str | None]:
    """A card's name by its code in the game's own card pool (the game's ``viewer_cards``), and
    the game's name (None, None for a game the registry has no engine for)."""
    try:
        game = registry.get(game_id)
    except (registry.UnknownGame, TypeError):
        return None, None
    pool = game.default_cards()

    def name(code: str) -> str | None:
        card = (game.viewer_cards([code], pool).get("cards") or {}).get(code) or {}
        value = card.get("name")
        return value if isinstance(value, str) and value else None

    return name, str(game.name)


@click.command()
@log_argument
@json_option
@lang_option
def timeline(log: str, as_json: bool) -> None:
    """Step-by-step timeline of LOG, as a person reads it: players, characters, battlefield and
    outcome, then one line per step with card names, the rules applied, notes and disputes
    (``--json``: the per-step events, rule IDs and state hashes)."""
    data = read_log(log)
    lang = current()
    try:
        result = timeline_json(data)
        if lang != "en" and not as_json:  # the words of the viewer, in that language
            click.echo("\n".join(render.worded_timeline_lines(viewer_json(data, lang=lang), lang)))
            return
    except MalformedLog as exc:
        report_malformed(exc)
        raise SystemExit(EXIT_INVALID) from exc
    if as_json:
        emit_json(result)
        return
    card_name, game_name = card_names(result.get("game"))
    click.echo("\n".join(render.timeline_lines(result, data, card_name, game_name)))
