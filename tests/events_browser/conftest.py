"""The event pages' browser tests run in Debian's Chromium (``/usr/bin/chromium``, installed by
``.ci/run``) driven by playwright, against the app served by werkzeug in a thread on the test's
Redis; without that browser they are skipped, and the session's summary says so in one line."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from werkzeug.serving import make_server

from tests.viewer.conftest import CHROMIUM, SKIP_REASON

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--no-first-run"]


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if not CHROMIUM.exists():
        terminalreporter.write_line("event pages: " + SKIP_REASON + " (apt-get install chromium)", yellow=True)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield chromium
        chromium.close()


@pytest.fixture()
def served(app: Flask) -> Iterator[str]:
    """The app behind werkzeug's threaded server on a free port: its base URL."""
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(10)
