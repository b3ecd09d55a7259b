"""The viewer's browser tests run in Debian's Chromium (``/usr/bin/chromium``, installed by
``.ci/run``) driven by playwright (tests/browser.py); without that browser they are skipped, and the
session's summary says so in one line."""

from __future__ import annotations

import pytest

from tests.browser import CHROMIUM, SKIP_REASON


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if not CHROMIUM.exists():
        terminalreporter.write_line(SKIP_REASON + " (apt-get install chromium; .ci/run installs it)", yellow=True)
