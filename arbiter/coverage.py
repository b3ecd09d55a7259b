"""Reading the test folder for ``arbiter rules --coverage``: the file walk and the reads, so that
the scanner itself (``judge.rules.coverage``) stays pure."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from judge.rules.coverage import Scan, ScanError, scan_sources


def find_test_files(tests_dir: Path, root: Path | None = None) -> Iterator[tuple[str, Path]]:
    """``(path relative to root, path)`` of every ``*.py`` file under ``tests_dir``, in path order,
    skipping hidden folders and ``__pycache__`` inside it (not the folders it is in: a checkout
    under ``~/.cache`` is scanned) and folders named like a file (``test_x.py/``); ``root``
    defaults to the parent of ``tests_dir``."""
    root = root if root is not None else tests_dir.parent
    for file in sorted(tests_dir.rglob("*.py")):
        inside = file.relative_to(tests_dir).parts
        if any(part.startswith(".") or part == "__pycache__" for part in inside) or not file.is_file():
            continue
        yield (file.relative_to(root).as_posix() if file.is_relative_to(root) else file.as_posix()), file


def read_test_files(tests_dir: Path, root: Path | None = None) -> Iterator[tuple[str, bytes]]:
    """``(path relative to root, bytes)`` of each of :func:`find_test_files`. A file that cannot be read
    raises ``OSError``."""
    for rel, file in find_test_files(tests_dir, root):
        yield rel, file.read_bytes()


def scan_tests(tests_dir: Path, root: Path | None = None) -> Scan:
    """The ``@pytest.mark.rules`` citations of every test file under ``tests_dir``; a file that
    cannot be read is one of the scan's errors, as one that does not parse."""
    unread: list[ScanError] = []

    def sources() -> Iterator[tuple[str, bytes]]:
        for rel, file in find_test_files(tests_dir, root):
            try:
                yield rel, file.read_bytes()
            except OSError as exc:
                unread.append(ScanError(rel, f"cannot read: {exc.strerror or exc}"))

    scan = scan_sources(sources())
    scan.errors = sorted([*scan.errors, *unread], key=lambda e: e.path)
    return scan
