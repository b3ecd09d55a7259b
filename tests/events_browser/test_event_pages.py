"""The event pages in a real headless Chromium (Debian's ``/usr/bin/chromium``, driven by playwright;
no browser is downloaded), against the app served on a free port: a 32-player round's pairings by
table and by name (and their print layout: A4 and Letter width, each list on its own pages, large
table numbers, a PDF of each size), the result slips, standings after a cut with places, the
organizer's result entry used to finish a round, a player's own view, a private event's sign-in.
Every page asks for nothing beyond the server and throws no script error.

``ARBITER_EVENTS_SCREENSHOT=docs/pairings.png`` makes the pairings test write its print-layout
screenshot there too (the one in the README); it otherwise goes to the test's temporary folder.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.browser import CHROMIUM, SKIP_REASON, GuardedTab
from tests.helpers import screenshot

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason=SKIP_REASON)

BASE = "/v1/tournaments"
FIRST = ["Ahsoka", "Bail", "Cassian", "Din", "Ezra", "Finn", "Hera", "Jyn", "Kanan", "Lando", "Mara", "Nien",
         "Obi-Wan", "Padmé", "Qi'ra", "Sabine"]
LAST = ["Andor", "Organa"]
NAMES = [f"{f} {last}" for last in LAST for f in FIRST]  # 32 names
MM = 96 / 25.4  # CSS pixels per millimetre
#: the narrower printable width of A4 (210 mm) and Letter (215.9 mm) with the 12 mm margins of the CSS
PRINT_WIDTH_PX = int((210 - 24) * MM)


class Tab(GuardedTab):
    """One page in a fresh context that refuses every request not to the served app."""

    def __init__(self, browser: Any, origin: str, viewport: dict[str, int] | None = None, **options: Any) -> None:
        super().__init__(browser, origin + "/", viewport=viewport or {"width": 1200, "height": 900}, **options)
        self.origin = origin

    def open(self, path: str) -> Any:
        resp = self.page.goto(self.origin + path)
        assert resp is not None
        return resp


@pytest.fixture()
def tabs(browser: Any, served: str) -> Iterator[Any]:
    opened: list[Tab] = []

    def new(viewport: dict[str, int] | None = None, **options: Any) -> Tab:
        opened.append(Tab(browser, served, viewport, **options))
        return opened[-1]

    yield new
    for tab in opened:
        tab.check()


def event(client: FlaskClient, names: list[str], **body: Any) -> tuple[str, dict[str, str], str]:
    made = client.post(BASE, json={"name": "Kessel Run Regional", "seed": 11, "public": True, **body}).get_json()
    tid, auth = made["id"], {"Authorization": f"Bearer {made['token']}"}
    for n in names:
        assert client.post(f"{BASE}/{tid}/players", json={"name": n}, headers=auth).status_code == 201
    return tid, auth, made["token"]


def report(client: FlaskClient, tid: str, auth: dict[str, str], rnd: dict[str, Any], lower_wins: bool = False) -> None:
    for m in rnd["matches"]:
        res = {"p1_wins": 0, "p2_wins": 1} if lower_wins and m["table"] % 2 else {"p1_wins": 1, "p2_wins": 0}
        r = client.put(f"{BASE}/{tid}/rounds/{rnd['number']}/matches/{m['table']}", json=res, headers=auth)
        assert r.status_code == 200


def pdf_pages(pdf: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page(?![s\w])", pdf))


def signed_in(page: Any) -> None:
    """Signs in with the token filled in: the sign-in reloads the page (signin.js), waited for whole
    before the organizer's part is read (reading it while the reload ran was a flaky 'Execution context
    was destroyed')."""
    with page.expect_navigation():
        page.click("#signin button")
    page.wait_for_load_state("load")
    page.wait_for_selector("#organizer")


def test_pairings_of_a_32_player_round_by_table_and_by_name_and_printed(
        app: Flask, tabs: Any, tmp_path: Path) -> None:
    client = app.test_client()
    tid, auth, _ = event(client, NAMES)
    report(client, tid, auth, client.post(f"{BASE}/{tid}/rounds", headers=auth).get_json(), lower_wins=True)
    rnd = client.post(f"{BASE}/{tid}/rounds", headers=auth).get_json()
    tab = tabs()
    page = tab.page
    assert tab.open(f"/events/{tid}/pairings").status == 200
    drawn = page.evaluate("""() => ({
      tables: [...document.querySelectorAll('#by-table tbody tr[data-table]')].map(r =>
        [+r.dataset.table, ...[...r.querySelectorAll('td.name')].map(td => td.textContent.trim())]),
      names: [...document.querySelectorAll('#by-name tbody tr')].map(r =>
        [...r.querySelectorAll('td')].map(td => td.textContent.trim())),
    })""")
    assert drawn["tables"] == [[m["table"], m["p1_name"], m["p2_name"]] for m in rnd["matches"]]
    assert len(drawn["tables"]) == 16
    assert [row[0] for row in drawn["names"]] == sorted(NAMES, key=str.casefold)
    seat = {x: (m["table"], m["p2_name"] if x == m["p1_name"] else m["p1_name"])
            for m in rnd["matches"] for x in (m["p1_name"], m["p2_name"])}
    assert all((int(row[2]), row[3]) == seat[row[0]] for row in drawn["names"])
    # the find box keeps the rows of the names that contain what is typed (accents and case ignored)
    page.fill("#find", "padme")
    found = page.locator("#by-name tbody tr:visible td.name:first-child").all_text_contents()
    assert found == ["Padmé Andor", "Padmé Organa"]
    page.fill("#find", "ORGANA")
    assert page.locator("#by-name tbody tr:visible").count() == 16
    page.fill("#find", "")
    assert page.locator("#by-name tbody tr:visible").count() == 32

    # print: A4/Letter width, each list on a page of its own, table numbers large, nav hidden; the
    # whole list by name, whatever the find box holds (rows it hid were left out of the sheet)
    page.fill("#find", "padme")
    page.set_viewport_size({"width": PRINT_WIDTH_PX, "height": int((297 - 24) * MM)})
    page.emulate_media(media="print")
    assert page.locator("#by-name tbody tr:visible").count() == 32
    layout = page.evaluate("""() => ({
      overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
      header: getComputedStyle(document.querySelector('header.top')).display,
      breakBefore: getComputedStyle(document.querySelector('#by-name')).breakBefore,
      tableNo: parseFloat(getComputedStyle(document.querySelector('#by-table td.tno')).fontSize),
      name: parseFloat(getComputedStyle(document.querySelector('#by-table td.name')).fontSize),
    })""")
    assert layout["overflow"] <= 0 and layout["header"] == "none"
    assert layout["breakBefore"] == "page"
    assert layout["tableNo"] >= 26 and layout["tableNo"] >= 1.8 * layout["name"]  # 20pt against 11pt
    screenshot(page, tmp_path, "pairings.png", "ARBITER_EVENTS_SCREENSHOT")
    for size in ("A4", "Letter"):
        pdf = page.pdf(format=size, print_background=True)
        # 16 tables fit one page; 32 names start a new page and fit one or two more
        assert 2 <= pdf_pages(pdf) <= 3, (size, pdf_pages(pdf))


def test_a_slip_per_table(app: Flask, tabs: Any) -> None:
    client = app.test_client()
    tid, auth, _ = event(client, NAMES[:9], best_of=3)
    rnd = client.post(f"{BASE}/{tid}/rounds", headers=auth).get_json()
    tab = tabs()
    tab.open(f"/events/{tid}/slips")
    slips = tab.page.evaluate("""() => [...document.querySelectorAll('article.slip')].map(s => ({
      table: +s.dataset.table, names: [...s.querySelectorAll('td.name')].map(td => td.textContent),
      boxes: s.querySelectorAll('td.box').length, signatures: s.querySelectorAll('td.sig').length,
      head: s.querySelector('header').textContent}))""")
    assert [(s["table"], s["names"]) for s in slips] == [(m["table"], [m["p1_name"], m["p2_name"]])
                                                          for m in rnd["matches"]]
    assert all(s["boxes"] == 3 and s["signatures"] == 2 and "Round 1 of" in s["head"] for s in slips)
    tab.page.emulate_media(media="print")
    tab.page.set_viewport_size({"width": PRINT_WIDTH_PX, "height": 1000})
    heights = tab.page.evaluate("() => [...document.querySelectorAll('article.slip')].map(s => s.offsetHeight)")
    assert max(heights) * 3 <= (279.4 - 24) * MM  # three to a page, on Letter's shorter height too
    assert 1 <= pdf_pages(tab.page.pdf(format="A4")) <= 2  # 4 slips


@pytest.mark.rules("tournament.cut.placings")
def test_standings_after_a_cut_show_places(app: Flask, tabs: Any) -> None:
    client = app.test_client()
    tid, auth, _ = event(client, NAMES[:12], rounds=3, cut=8)
    for _ in range(3):
        report(client, tid, auth, client.post(f"{BASE}/{tid}/rounds", headers=auth).get_json(), lower_wins=True)
    rnd = client.post(f"{BASE}/{tid}/cut", json={}, headers=auth).get_json()
    while True:
        report(client, tid, auth, rnd, lower_wins=True)
        if client.get(f"{BASE}/{tid}").get_json()["champion"]:
            break
        rnd = client.post(f"{BASE}/{tid}/rounds", headers=auth).get_json()
    places = client.get(f"/events/{tid}/standings.json").get_json()["placings"]
    tab = tabs()
    tab.open(f"/events/{tid}/standings")
    shown = tab.page.evaluate("""() => [...document.querySelectorAll('#placings tbody tr')].map(r =>
      [...r.querySelectorAll('td')].map(td => td.textContent.trim()))""")
    assert [row[:3] for row in shown] == [[str(p["place"]), p["name"], p["reached"]] for p in places]
    assert [row[2] for row in shown[:8]] == ["champion", "final", "semi-final", "semi-final"] + ["quarter-final"] * 4
    swiss = tab.page.locator("#swiss tbody tr").count()
    assert swiss == 12
    assert tab.page.locator("#swiss thead th").all_text_contents()[-2:] == ["SoS", "eSoS"]


def test_the_organizer_finishes_a_round_on_the_results_page(app: Flask, tabs: Any, tmp_path: Path) -> None:
    client = app.test_client()
    tid, auth, token = event(client, NAMES[:8], best_of=3, public=False)
    rnd = client.post(f"{BASE}/{tid}/rounds", headers=auth).get_json()
    tab = tabs()
    page = tab.page
    assert tab.open(f"/events/{tid}/results").status == 404  # private: sign in first
    page.fill("#signin input[name=token]", "not the token")
    page.click("#signin button")
    page.wait_for_selector("#signin .error:not([hidden])")
    page.fill("#signin input[name=token]", token)
    signed_in(page)
    assert page.is_hidden("#signin") and page.is_disabled("#pair")
    tables = [m["table"] for m in rnd["matches"]]
    # three tables by one click, one by the quick entry box
    for t, label in zip(tables[:3], ["2-0", "2-1", "1-2"], strict=True):
        page.click(f'tr[data-table="{t}"] button.r:text-is("{label}")')
        page.wait_for_selector(f'tr[data-table="{t}"].done')
    page.fill("#quick-input", f"{tables[3]} 0-2")
    page.press("#quick-input", "Enter")
    page.wait_for_selector(f'tr[data-table="{tables[3]}"].done')
    assert page.text_content("#reported") == "4" and page.is_enabled("#pair")
    # a different result for a reported table is a correction, after a confirmation
    page.once("dialog", lambda d: d.accept())
    page.click(f'tr[data-table="{tables[0]}"] button.r:text-is("1-1-1")')
    page.wait_for_function(f"""() => document.querySelector('tr[data-table="{tables[0]}"] .res')
                               .textContent === '1-1-1'""")
    stored = {m["table"]: m["result"] for m in client.get(f"{BASE}/{tid}/rounds/1", headers=auth).get_json()["matches"]}
    assert [(stored[t]["p1_wins"], stored[t]["p2_wins"], stored[t]["draws"]) for t in tables] == \
        [(1, 1, 1), (2, 1, 0), (1, 2, 0), (0, 2, 0)]
    page.click("#pair")
    page.wait_for_selector('#organizer[data-round="2"]')
    assert client.get(f"{BASE}/{tid}", headers=auth).get_json()["current_round"] == 2
    assert page.text_content("#reported") == "0"
    # a wrong result of round 1 found now: corrected from round 1's page, round 2's pairings stand
    round2 = client.get(f"{BASE}/{tid}/rounds/2", headers=auth).get_json()["matches"]
    assert page.is_hidden("#past")
    page.click('nav.rounds a:text-is("1")')
    page.wait_for_selector('#organizer[data-round="1"]')
    assert page.is_visible("#past") and page.query_selector("#pair") is None
    assert page.text_content(f'tr[data-table="{tables[1]}"] .res') == "2-1"
    screenshot(page, tmp_path, "results-earlier-round.png", "ARBITER_RESULTS_SCREENSHOT")
    page.once("dialog", lambda d: d.accept())
    page.click(f'tr[data-table="{tables[1]}"] button.r:text-is("1-2")')
    page.wait_for_function(f"""() => document.querySelector('tr[data-table="{tables[1]}"] .res')
                               .textContent === '1-2'""")
    stored = {m["table"]: m["result"] for m in client.get(f"{BASE}/{tid}/rounds/1", headers=auth).get_json()["matches"]}
    assert (stored[tables[1]]["p1_wins"], stored[tables[1]]["p2_wins"]) == (1, 2)
    assert client.get(f"{BASE}/{tid}/rounds/2", headers=auth).get_json()["matches"] == round2
    page.click("nav.rounds a:has-text('Back to round 2')")
    page.wait_for_selector('#organizer[data-round="2"]')


def test_the_last_swiss_round_of_an_event_without_a_cut_finishes_it(app: Flask, tabs: Any) -> None:
    """No "Pair next round" on the last planned round: a line says the event ends with it, and says it
    is finished once the last result is in; the event's status and standings say so too."""
    client = app.test_client()
    tid, auth, token = event(client, NAMES[:4], rounds=2)
    report(client, tid, auth, client.post(f"{BASE}/{tid}/rounds", headers=auth).get_json())
    last = client.post(f"{BASE}/{tid}/rounds", headers=auth).get_json()
    tab = tabs()
    page = tab.page
    page.goto(tab.origin + f"/events/{tid}/results")
    page.fill("#signin input[name=token]", token)
    signed_in(page)
    assert page.query_selector("#pair") is None and page.query_selector("#cut") is None
    assert "when its results are in" in page.text_content("#last")
    assert client.get(f"{BASE}/{tid}").get_json()["status"] == "swiss"
    for m in last["matches"]:
        page.click(f'tr[data-table="{m["table"]}"] button.r:text-is("1-0")')
        page.wait_for_selector(f'tr[data-table="{m["table"]}"].done')
    assert "All 2 Swiss rounds are played" in page.text_content("#last")
    assert client.get(f"{BASE}/{tid}").get_json()["status"] == "finished"
    tab.open(f"/events/{tid}/standings")
    assert "Final standings after round 2" in page.text_content("#swiss h1")
    assert "Swiss rounds in progress" not in page.text_content("body")


def test_a_players_own_view(app: Flask, tabs: Any) -> None:
    client = app.test_client()
    tid, auth, _ = event(client, NAMES[:6])
    rnd = client.post(f"{BASE}/{tid}/rounds", headers=auth).get_json()
    m = rnd["matches"][1]
    tab = tabs({"width": 390, "height": 800})  # a phone
    tab.open(f"/events/{tid}")
    tab.page.click(f"text={m['p2_name']}")
    tab.page.wait_for_selector("#now")
    assert tab.page.text_content("#now .big") == f"Table {m['table']}"
    assert tab.page.text_content("#now .opp") == m["p1_name"]
    assert "Rank" in tab.page.text_content("#record")
    overflow = tab.page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0
