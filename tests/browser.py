"""What the browser tests share: Debian's Chromium (``/usr/bin/chromium``, installed by ``.ci/run``)
driven by playwright, no browser downloaded; an app served by werkzeug in a thread on a free port; a
tab that may ask only its own pages and fails the test on a script error."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from flask import Flask
from werkzeug.serving import make_server

#: Debian's Chromium (ARBITER_CHROMIUM names another path, e.g. to see the skip without uninstalling it)
CHROMIUM = Path(os.environ.get("ARBITER_CHROMIUM", "/usr/bin/chromium"))
SKIP_REASON = f"browser tests skipped: no {CHROMIUM}"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--no-first-run"]


@contextmanager
def launch_browser() -> Iterator[Any]:
    """Chromium (``CHROMIUM``, with ``ARGS``) under playwright, closed after."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield chromium
        chromium.close()


@contextmanager
def serve(app: Flask) -> Iterator[str]:
    """``app`` behind werkzeug's threaded server on a free port: its base URL."""
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(10)


class GuardedTab:
    """One page in a fresh browser context (``options`` go to the context: ``viewport``, ``offline``,
    ``locale``...) that keeps the page's script errors and refuses every request whose URL does not
    start with ``allow`` (``None``: refuses none)."""

    def __init__(self, browser: Any, allow: str | None, **options: Any) -> None:
        self.allow = allow
        self.context = browser.new_context(**options)
        self.refused: list[str] = []
        self.errors: list[str] = []
        if allow is not None:
            self.context.route("**/*", self._route)
        self.page = self.context.new_page()
        self.page.on("pageerror", lambda exc: self.errors.append(str(exc)))

    def _route(self, route: Any) -> None:
        if self.allow is not None and route.request.url.startswith(self.allow):
            route.continue_()
        else:
            self.refused.append(route.request.url)
            route.abort()

    def check(self) -> None:
        """Fails on a script error or a refused request; else closes the context."""
        assert self.errors == []
        assert self.refused == []  # the page asked for nothing beyond what it may
        self.context.close()


@contextmanager
def open_tab(browser: Any, served: str, **options: Any) -> Iterator[Any]:
    """A tab that may ask only its own server (``served``, also its ``base``); page errors and refused
    requests fail the test. ``options`` go to the browser context (``viewport``, ``locale``...)."""
    tab = GuardedTab(browser, served, **{"viewport": {"width": 1280, "height": 900}, **options})
    tab.page.base = served
    yield tab.page
    tab.check()
