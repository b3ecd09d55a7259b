"""The judges' pages in a browser: the app served on a free port, Debian's Chromium driven by
playwright (as tests/viewer), a page that may ask only its own server (tests/browser.py), and its
screenshots (the test's temporary folder, or ``ARBITER_PAGES_SCREENSHOTS`` when set)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from tests.browser import launch_browser, open_tab, serve


@pytest.fixture()
def served(app: Flask) -> Iterator[str]:
    with serve(app) as base:
        yield base


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with launch_browser() as chromium:
        yield chromium


@pytest.fixture()
def page(browser: Any, served: str) -> Iterator[Any]:
    with open_tab(browser, served) as tab:
        yield tab


def shot(tab: Any, tmp_path: Path, name: str) -> Path:
    folder = Path(os.environ.get("ARBITER_PAGES_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    tab.screenshot(path=str(path), full_page=False)
    assert path.stat().st_size > 10_000  # a page was drawn, not a blank
    return path
