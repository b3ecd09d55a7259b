"""The viewer's browser tests run in Debian's Chromium (``/usr/bin/chromium``, installed by
``.ci/run``) driven by playwright; without that browser they are skipped, and the session's summary
says so in one line."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

#: Debian's Chromium (ARBITER_CHROMIUM names another path, e.g. to see the skip without uninstalling it)
CHROMIUM = Path(os.environ.get("ARBITER_CHROMIUM", "/usr/bin/chromium"))
SKIP_REASON = f"browser tests skipped: no {CHROMIUM}"


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if not CHROMIUM.exists():
        terminalreporter.write_line(SKIP_REASON + " (apt-get install chromium; .ci/run installs it)", yellow=True)
