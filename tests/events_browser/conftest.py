"""The event pages' browser tests run in Debian's Chromium (``/usr/bin/chromium``, installed by
``.ci/run``) driven by playwright, against the app served by werkzeug in a thread on the test's
Redis (tests/browser.py); without that browser they are skipped, and the session's summary says so
in one line."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask

from tests.browser import CHROMIUM, SKIP_REASON, launch_browser, serve


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if not CHROMIUM.exists():
        terminalreporter.write_line("event pages: " + SKIP_REASON + " (apt-get install chromium)", yellow=True)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with launch_browser() as chromium:
        yield chromium


@pytest.fixture()
def served(app: Flask) -> Iterator[str]:
    """The app behind werkzeug's threaded server on a free port: its base URL."""
    with serve(app) as base:
        yield base
