"""Reading a user's card-data folder for ``arbiter cards import``: the game names the files it
wants (glob patterns relative to the folder) and imports their bytes; the reading happens here,
so that the game's importer stays pure."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path


def read_card_data(directory: Path, patterns: Iterable[str]) -> dict[str, bytes]:
    """``{path relative to directory (POSIX): bytes}`` of every file matching one of ``patterns``,
    in path order. A file that cannot be read raises ``OSError``; a pattern matching nothing is
    left to the importer to report."""
    found: dict[str, bytes] = {}
    for pattern in patterns:
        for path in sorted(directory.glob(pattern)):
            rel = path.relative_to(directory).as_posix()
            if rel not in found and path.is_file():
                found[rel] = path.read_bytes()
    return dict(sorted(found.items()))
