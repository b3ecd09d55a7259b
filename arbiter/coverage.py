"""Reading the test folder for ``arbiter rules --coverage``: the file walk and the reads, so that
the scanner itself (``judge.rules.coverage``) stays pure."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from judge.rules.coverage import Scan, scan_sources


def read_test_files(tests_dir: Path, root: Path | None = None) -> Iterator[tuple[str, bytes]]:
    """``(path relative to root, bytes)`` of every ``*.py`` under ``tests_dir``, in path order,
    skipping hidden folders and ``__pycache__``; ``root`` defaults to the parent of ``tests_dir``."""
    root = root if root is not None else tests_dir.parent
    for file in sorted(tests_dir.rglob("*.py")):
        if any(part.startswith(".") or part == "__pycache__" for part in file.parts):
            continue
        rel = file.relative_to(root).as_posix() if file.is_relative_to(root) else file.as_posix()
        yield rel, file.read_bytes()


def scan_tests(tests_dir: Path, root: Path | None = None) -> Scan:
    """The ``@pytest.mark.rules`` citations of every test file under ``tests_dir``."""
    return scan_sources(read_test_files(tests_dir, root))
