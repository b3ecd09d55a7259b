"""The event pages in Polish (and Russian) in a real headless Chromium, as test_event_pages.py: the
pairings page with ``?lang=pl`` (headings, ``<html lang="pl">``, Polish plurals of tables and rounds
for 2, 5 and 22), the language switch whose choice sticks on the next pages (the ``arbiter_lang``
cookie), ``Accept-Language: pl-PL`` without ``?lang``; Russian plurals for 21, 22 and 25 tables.

``ARBITER_EVENTS_SCREENSHOT_PL=docs/pairings-pl.png`` makes the first test write its screenshot of
the Polish pairings page there too (the one in docs/); it otherwise goes to the test's temporary folder.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from tests.browser import CHROMIUM, SKIP_REASON
from tests.events_browser.test_event_pages import BASE, NAMES, event, report, tabs  # noqa: F401 - the fixture
from tests.helpers import screenshot

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason=SKIP_REASON)


def players(n: int) -> list[str]:
    """``n`` distinct player names (the 32 of the English tests, then numbered ones)."""
    return (NAMES + [f"Gracz {i}" for i in range(n)])[:n]


def paired(app: Flask, n: int, **body: Any) -> str:
    client = app.test_client()
    tid, auth, _ = event(client, players(n), **body)
    assert client.post(f"{BASE}/{tid}/rounds", headers=auth).status_code == 201
    return tid


def test_the_pairings_page_in_polish(app: Flask, tabs: Any, tmp_path: Path) -> None:  # noqa: F811
    client = app.test_client()
    tid, auth, _ = event(client, NAMES[:11], rounds=5)
    first = client.post(f"{BASE}/{tid}/rounds", headers=auth).get_json()
    report(client, tid, auth, first)
    dropped = first["matches"][0]["p1"]
    assert client.post(f"{BASE}/{tid}/players/{dropped}/drop", headers=auth).status_code == 200
    assert client.post(f"{BASE}/{tid}/rounds", headers=auth).status_code == 201
    tab = tabs()
    page = tab.page
    assert tab.open(f"/events/{tid}/pairings?lang=pl").status == 200
    assert page.get_attribute("html", "lang") == "pl"
    assert page.text_content("#by-table h1").endswith("Runda 2 z 5: pary według stołów")
    assert page.text_content("#by-name h1").endswith("Runda 2 z 5: pary alfabetycznie")
    assert page.locator("#by-table thead th").all_text_contents()[:5] == ["Stół", "Gracz", "Pkt", "", "Przeciwnik"]
    assert page.locator("header.top nav:not(.langs) a").all_text_contents() == [
        "Pary", "Karty wyników", "Klasyfikacja", "Wpisz wyniki"]
    assert "5 rund szwajcarskich" in page.text_content("header.top .meta")
    assert page.text_content("#count") == "10 graczy · 5 stołów"  # 11 less the one who dropped
    assert page.text_content("label:has(#find)").strip() == "Znajdź swoje nazwisko"
    # the language switch: this page in each language, the current one not a link
    assert page.locator("nav.langs b").text_content() == "Polski"
    assert page.locator("nav.langs a").all_text_contents() == ["English", "Русский"]
    # long Polish words do not widen the page (a phone, then A4 print)
    page.set_viewport_size({"width": 390, "height": 800})
    assert page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth") <= 0
    page.set_viewport_size({"width": 1000, "height": 800})
    screenshot(page, tmp_path, "pairings-pl.png", "ARBITER_EVENTS_SCREENSHOT_PL")


@pytest.mark.parametrize(("n", "planned", "count", "rounds"), [
    (4, 2, "4 graczy · 2 stoły", "2 rundy szwajcarskie"),
    (10, 5, "10 graczy · 5 stołów", "5 rund szwajcarskich"),
    (44, 22, "44 graczy · 22 stoły", "22 rundy szwajcarskie"),
])
def test_polish_plurals_of_tables_and_rounds(app: Flask, tabs: Any, n: int, planned: int, count: str,  # noqa: F811
                                             rounds: str) -> None:
    tid = paired(app, n, rounds=planned)
    tab = tabs()
    tab.open(f"/events/{tid}/pairings?lang=pl")
    assert tab.page.text_content("#count") == count
    assert rounds in tab.page.text_content("header.top .meta")
    tab.open(f"/events/{tid}/slips?lang=pl")
    assert tab.page.text_content("h1").endswith(f"({count.split(' · ')[1]})")


@pytest.mark.parametrize(("n", "count"), [
    (42, "42 игрока · 21 стол"), (44, "44 игрока · 22 стола"), (50, "50 игроков · 25 столов"), (2, "2 игрока · 1 стол"),
])
def test_russian_plurals_of_tables(app: Flask, n: int, count: str) -> None:
    tid = paired(app, n)
    html = app.test_client().get(f"/events/{tid}/pairings?lang=ru").get_data(as_text=True)
    assert '<html lang="ru">' in html
    assert f'<p class="count" id="count">{count}</p>' in html
    assert "Тур 1 из" in html and "пары по столам" in html


def test_the_switch_to_polish_sticks_on_the_next_pages(app: Flask, tabs: Any) -> None:  # noqa: F811
    tid = paired(app, 6)
    tab = tabs()
    page = tab.page
    tab.open(f"/events/{tid}/standings?refresh=60")
    assert page.get_attribute("html", "lang") == "en"
    assert page.text_content("#swiss h1").endswith("Swiss standings")
    page.click("nav.langs a:text-is('Polski')")
    page.wait_for_selector("html[lang=pl]")
    assert page.url.endswith(f"/events/{tid}/standings?refresh=60&lang=pl")  # the other query args kept
    assert page.text_content("#swiss h1").endswith("Klasyfikacja szwajcarska")
    cookie = next(c for c in tab.context.cookies() if c["name"] == "arbiter_lang")
    assert cookie["value"] == "pl" and cookie["sameSite"] == "Lax" and cookie["path"] == "/"
    assert 364 * 86400 < cookie["expires"] - time.time() <= 365 * 86400
    # another page, no ?lang: still Polish
    tab.open(f"/events/{tid}/pairings")
    assert page.get_attribute("html", "lang") == "pl"
    assert page.text_content("#by-table h1").endswith("pary według stołów")
    tab.open(f"/events/{tid}")
    assert page.locator(".links a").first.text_content() == "Pary"
    # and back to English by the switch
    page.click("nav.langs a:text-is('English')")
    page.wait_for_selector("html[lang=en]")
    tab.open(f"/events/{tid}/pairings")
    assert page.text_content("#by-table h1").endswith("pairings by table")


def test_accept_language_polish_without_lang(app: Flask, tabs: Any) -> None:  # noqa: F811
    tid = paired(app, 5)
    tab = tabs(locale="pl-PL")
    tab.open(f"/events/{tid}/pairings")
    assert tab.page.get_attribute("html", "lang") == "pl"
    assert tab.page.text_content("#count") == "5 graczy · 2 stoły · jeden bye"
    assert tab.page.locator("#by-name thead th").all_text_contents() == ["Gracz", "Pkt", "Stół", "Przeciwnik"]
    assert not any(c["name"] == "arbiter_lang" for c in tab.context.cookies())  # only the switch sets it
    ru = tabs(extra_http_headers={"Accept-Language": "ru-RU,ru;q=0.9,en;q=0.5"})
    ru.open(f"/events/{tid}/standings")
    assert ru.page.get_attribute("html", "lang") == "ru"
    assert ru.page.text_content("#swiss h1").endswith("Швейцарская таблица")
