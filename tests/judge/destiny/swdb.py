"""Importing a SWDestinyDB data folder in tests: read by the shell's reader, imported by the pure
importer (what ``arbiter cards import`` does)."""

from __future__ import annotations

from pathlib import Path

import pytest

from arbiter.card_files import read_card_data
from judge.games.destiny import importer

ROOT = Path(__file__).resolve().parents[3]
FIXTURES = ROOT / "tests" / "fixtures" / "swdestinydb"


def _shared() -> Path:
    """The full SWDestinyDB data, in the shared folder beside the repository (CI checks it out
    there); the nearest one up from the repository, so that a copy of the tree inside it (the
    compiled engine's, var/compiled/tree) finds it too."""
    for parent in ROOT.parents:
        if (parent / "shared" / "data" / "swdestinydb").is_dir():
            return parent / "shared" / "data" / "swdestinydb"
    return ROOT / ".." / "shared" / "data" / "swdestinydb"


SHARED = _shared()


def import_directory(directory: Path) -> importer.ImportResult:
    return importer.import_files(read_card_data(directory, importer.FILES))


def shared_data() -> Path:
    """The full SWDestinyDB data folder; a missing folder fails the test (a skip would hide it)."""
    if not (SHARED / "sets.json").is_file():
        pytest.fail(f"the SWDestinyDB data is missing: no sets.json in {SHARED.resolve()} (shared/data/swdestinydb "
                    "beside the repository)", pytrace=False)
    return SHARED
