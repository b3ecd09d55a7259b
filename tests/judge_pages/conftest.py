"""The judges' pages in a browser: the app served on a free port, Debian's Chromium driven by
playwright (as tests/viewer), a page that may ask only its own server, and its screenshots (the test's
temporary folder, or ``ARBITER_PAGES_SCREENSHOTS`` when set)."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from werkzeug.serving import make_server

from tests.viewer.conftest import CHROMIUM

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--no-first-run"]


@pytest.fixture()
def served(app: Flask) -> Iterator[str]:
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(10)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield chromium
        chromium.close()


@contextmanager
def open_tab(browser: Any, served: str, **options: Any) -> Iterator[Any]:
    """A tab that may ask only its own server (``served``); page errors and refused requests fail the
    test. ``options`` go to the browser context (``viewport``, ``locale``...)."""
    context = browser.new_context(**{"viewport": {"width": 1280, "height": 900}, **options})
    refused: list[str] = []
    errors: list[str] = []

    def route(r: Any) -> None:
        if r.request.url.startswith(served):
            r.continue_()
        else:
            refused.append(r.request.url)
            r.abort()

    context.route("**/*", route)
    tab = context.new_page()
    tab.on("pageerror", lambda exc: errors.append(str(exc)))
    tab.base = served
    yield tab
    assert errors == [] and refused == []
    context.close()


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
