"""Importing a SWDestinyDB data folder in tests: read by the shell's reader, imported by the pure
importer (what ``arbiter cards import`` does)."""

from __future__ import annotations

from pathlib import Path

from arbiter.card_files import read_card_data
from judge.games.destiny import importer

ROOT = Path(__file__).resolve().parents[3]
FIXTURES = ROOT / "tests" / "fixtures" / "swdestinydb"


def import_directory(directory: Path) -> importer.ImportResult:
    return importer.import_files(read_card_data(directory, importer.FILES))
