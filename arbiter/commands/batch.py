"""``arbiter replay DIR|GLOB``: the batch's progress bar (rich, on a terminal) and summary table."""

from __future__ import annotations

import json
import os
import sys
import time
from typing import Any

import click

from arbiter import batch


def _progress(total: int) -> tuple[Any, Any]:
    """A rich progress bar on stderr when it is a terminal, else nothing."""
    if not sys.stderr.isatty():
        return None, None
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    bar = Progress("[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(),
                   TimeRemainingColumn(), console=Console(stderr=True), transient=True)
    task = bar.add_task("replaying", total=total)
    return bar, lambda n: bar.advance(task, n)


def run_batch(pattern: str, as_json: bool, jobs: int | None, queued: bool, timeout: float | None) -> None:
    try:
        files = batch.find_logs(pattern)
    except batch.BatchError as exc:
        click.echo(f"arbiter: {exc}", err=True)
        raise SystemExit(2) from exc
    jobs = jobs or os.cpu_count() or 1
    bar, shown = _progress(len(files))
    done = [0]  # logs answered so far (what an interrupted batch says it got to)

    def advance(n: int) -> None:
        done[0] += n
        if shown is not None:
            shown(n)

    t0 = time.perf_counter()
    try:
        if bar is not None:
            bar.start()
        if queued:
            from arbiter import settings as settings_mod
            from arbiter.redis_conn import check_reachable, connect, shared_url

            cfg = settings_mod.load()  # (a value that cannot be used: one line, see arbiter.cli)
            if cfg.redis_url is not None:
                url = check_reachable(cfg.redis_url)
            else:
                try:
                    url = shared_url(None, cfg.data_dir, cfg.redis_fsync)
                except RuntimeError as exc:  # redis-server would not start
                    raise click.ClickException(str(exc)) from exc

            def notice(line: str) -> None:  # above the progress bar, if any
                if bar is not None:
                    bar.console.print(f"arbiter: {line}", markup=False, highlight=False)
                else:
                    click.echo(f"arbiter: {line}", err=True)

            lines = batch.run_queued(files, connect(url), advance, timeout, notice)
        else:
            lines = batch.run_local(files, jobs, advance)
    except KeyboardInterrupt:
        if bar is not None:
            bar.stop()
        again = " (queued jobs go on on the workers: run it again to gather them)" if queued else ""
        click.echo(f"arbiter: interrupted: {done[0]:,} of {len(files):,} logs answered; no summary{again}",
                   err=True)
        raise SystemExit(130) from None
    finally:
        if bar is not None:
            bar.stop()
    seconds = time.perf_counter() - t0
    totals = batch.summarize(lines)
    if as_json:
        # (a file name that is not UTF-8 is written with its bytes escaped, \\xe9: the output stays UTF-8)
        named = [{**ln, "file": _printable(ln["file"])} for ln in lines]
        click.echo(json.dumps({"summary": {**totals, "seconds": round(seconds, 3)}, "logs": named},
                              indent=2, ensure_ascii=False))
    else:
        _print_summary(lines, totals, seconds, "RQ workers" if queued else f"{jobs} process{'es' if jobs > 1 else ''}")
    raise SystemExit(1 if totals["invalid"] else 3 if totals["not_replayed"] else 0)


def _printable(name: str) -> str:
    """A file name as text: bytes that are not UTF-8 (kept by the file system's surrogate escapes)
    written as ``\\xNN``."""
    return name.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def _print_summary(lines: list[dict[str, Any]], totals: dict[str, Any], seconds: float, where: str) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console(highlight=False, soft_wrap=True)
    table = Table(title=f"{totals['logs']:,} logs, {totals['steps']:,} steps in {seconds:.1f} s ({where})")
    table.add_column("result")
    table.add_column("logs", justify="right")
    table.add_row("valid", f"{totals['valid']:,}")
    for reason, n in totals["outcomes"].items():
        table.add_row(f"  ended: {reason}", f"{n:,}")
    table.add_row("invalid", f"{totals['invalid']:,}")
    if totals["not_replayed"]:
        table.add_row("not replayed (--timeout)", f"{totals['not_replayed']:,}")
    console.print(table)
    bad = [ln for ln in lines if not ln["valid"]]
    for ln in bad[:20]:
        word = "waiting" if ln.get("replayed") is False else "invalid"
        console.print(f"{word}  {_printable(ln['file'])}: {ln['error']}", markup=False)
    if len(bad) > 20:
        console.print(f"... and {len(bad) - 20:,} more (--json lists them all)")
