"""``arbiter export-html``: a replay as one standalone HTML page (the replay viewer, docs/viewer.md).

The page carries its assets and the viewer data inline: it opens from file:// with the network
off. Exit codes as ``arbiter replay``: 0 written (an invalid replay too: the page shows where it
stops), 1 the log is malformed or the annotations are wrong, 2 a file cannot be read or written or
is not JSON, or a usage error (``--start`` past the last step).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from arbiter.commands.logs import EXIT_INVALID, EXIT_UNREADABLE, log_argument, read_log, report_malformed
from arbiter.lang import current, lang_option
from judge.limits import MAX_BODY_BYTES
from replays.service import MalformedLog
from replays.viewer import check_annotations, page, viewer_json

#: the longest set title shown (as the API's annotation sets: api.replays.viewer.TITLE_CHARS)
TITLE_CHARS = 200


def read_annotations(path: str) -> Any:
    """The annotations file's JSON (at most MAX_BODY_BYTES bytes, as a request body)."""
    try:
        with open(path, "rb") as fh:
            raw = fh.read(MAX_BODY_BYTES + 1)
        if len(raw) > MAX_BODY_BYTES:
            raise ValueError(f"larger than {MAX_BODY_BYTES} bytes")
        return json.loads(raw.decode("utf-8"))
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as exc:
        click.echo(f"arbiter: cannot read {path}: {exc}", err=True)
        raise SystemExit(EXIT_UNREADABLE) from exc


@click.command("export-html")
@log_argument
@click.option("-o", "--output", "output", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="The HTML file to write (default: the log's name with .html, in the current folder).")
@click.option("--annotations", "annotations_path", type=click.Path(dir_okay=False), default=None,
              help="Creator annotations: a JSON list [{\"at\": step, \"note\": text, \"highlight\": true}], or an "
                   "annotation set as the API gives it ({\"title\", \"annotations\"}: its title shown too).")
@click.option("--start", type=click.IntRange(min=0), default=None,
              help="The step the page opens at (a #step-N link still wins).")
@lang_option
def export_html(log: str, output: Path | None, annotations_path: str | None, start: int | None) -> None:
    """Write LOG as one standalone HTML page: the replay viewer, working offline (its words and the
    replay's text in --lang)."""
    data = read_log(log)
    annotations = read_annotations(annotations_path) if annotations_path else None
    try:
        viewer = viewer_json(data, lang=current())
    except MalformedLog as exc:
        report_malformed(exc)
        raise SystemExit(EXIT_INVALID) from exc
    last = len(viewer["steps"]) - 1
    if start is not None:
        if start > last:
            raise click.BadParameter(f"{start} is past the last step ({last})", param_hint="'--start'")
        viewer["start"] = start
    if isinstance(annotations, dict) and "annotations" in annotations:  # an annotation set as the API gives it
        title = annotations.get("title")
        if isinstance(title, str) and title.strip():
            viewer["notes"] = {"id": str(annotations.get("id") or ""), "title": title[:TITLE_CHARS]}
        annotations = annotations["annotations"]
    if annotations is not None:
        try:
            viewer["annotations"] = check_annotations(annotations, last)
        except ValueError as exc:
            click.echo(f"arbiter: {annotations_path}: {exc}", err=True)
            raise SystemExit(EXIT_INVALID) from exc
    target = output or Path(Path(log).stem + ".html")
    if target.exists() and target.resolve() == Path(log).resolve():
        raise click.BadParameter(f"{target} is the log itself: name another file", param_hint="'--output'")
    text = page(viewer)
    try:
        target.write_text(text, encoding="utf-8")
    except OSError as exc:
        click.echo(f"arbiter: cannot write {target}: {exc}", err=True)
        raise SystemExit(EXIT_UNREADABLE) from exc
    steps = len(viewer["steps"]) - 1
    state = "valid" if viewer["valid"] else f"invalid (stops at step {(viewer['error'] or {}).get('at')})"
    click.echo(f"{target}: {steps} steps, {state}, {len(text.encode('utf-8')) // 1024} KiB")
