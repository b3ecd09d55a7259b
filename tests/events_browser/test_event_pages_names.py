"""The event pages with the names a big event brings (after an organizer's 300-player event), in a real
headless Chromium as test_event_pages.py: very long names (200 characters with spaces, 120 without)
and a 120-character event name keep every field of a printed slip inside its border, on A4 and on
Letter, three slips to a page; widen neither the front page nor a phone's pairings, where an ordinary
name is never broken inside a word; the find box ignores accents (also "ł", "ø", "æ", "ß"...) and case,
and says when no name matches; the by-name list is in that order too ("Łukasz" among the L's) and
marks the players who dropped; printed pairings repeat the event and the round on every page; the
standings explain each tie-breaker and show byes.

``ARBITER_EVENTS_SHOTS=dir`` also writes the tests' screenshots and PDFs into ``dir`` (to look at them).
"""

from __future__ import annotations

import math
import os
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from tests.browser import CHROMIUM, SKIP_REASON
from tests.events_browser.test_event_pages import BASE, MM, event, pdf_pages, report, tabs  # noqa: F401 - tabs: the fixture

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason=SKIP_REASON)

#: 200 characters with spaces, 120 without (names of the organizer's event)
LONG_SPACED = ("Hubert Blaine Wolfeschlegelsteinhausenbergerdorff Senior Adolph Blaine Charles David Earl "
               "Frederick Gerald Hubert Irvin John Kenneth Lloyd Martin Nero Oliver Paul Quincy Randolph Sherman "
               "Thomas Uncas Victor William")[:200]
LONG_WORD = ("Wolfeschlegelsteinhausenbergerdorffvoralternwarengewissenhaftschaferswessenschafewarenwohlgepflege"
             "undsorgfaltigkeitbeschutzen")[:120]
LONG_EVENT = ("Mistrzostwa" * 11)[:120]  # one word
ACCENTED = ["Łukasz Żółkiewski", "Zażółć Gęślą Jaźń", "Małgorzata Świętochowska-Ćwik", "Søren Ærø", "Đorđe Straße",
            "Юлия Ёлкина"]
SURNAMES = ["Kowalski", "Nowak", "Smith", "Иванов", "Wiśniewski", "Müller"]
#: printable size (CSS px) of A4 and Letter with the 12 mm margins of the CSS
PAPER = {"A4": (int((210 - 24) * MM), int((297 - 24) * MM)), "Letter": (int((215.9 - 24) * MM), int((279.4 - 24) * MM))}


def fillers(n: int) -> list[str]:
    return [f"Player {i:03d} {SURNAMES[i % len(SURNAMES)]}" for i in range(1, n + 1)]


def keep(page: Any, name: str, pdf: bytes | None = None) -> None:
    """The screenshot (or PDF) into $ARBITER_EVENTS_SHOTS, when set."""
    folder = os.environ.get("ARBITER_EVENTS_SHOTS")
    if not folder:
        return
    Path(folder).mkdir(parents=True, exist_ok=True)
    if pdf is None:
        page.screenshot(path=str(Path(folder) / name), full_page=True)
    else:
        (Path(folder) / name).write_bytes(pdf)


#: each slip's parts that lie outside its border (or have no size), whether anything in it is clipped,
#: and how many lines each name takes
SLIP_LAYOUT = """() => [...document.querySelectorAll('article.slip')].map(s => {
  const box = s.getBoundingClientRect(), bw = parseFloat(getComputedStyle(s).borderTopWidth);
  const parts = [...s.querySelectorAll('header, header > *, th, td, footer, footer *')];
  const out = parts.filter(e => {
    const r = e.getBoundingClientRect();
    return r.width === 0 || r.height === 0 || r.left < box.left + bw - .5 || r.right > box.right - bw + .5
      || r.top < box.top + bw - .5 || r.bottom > box.bottom - bw + .5;
  }).map(e => e.tagName + '.' + e.className + ' ' + e.textContent.slice(0, 30));
  const lines = [...s.querySelectorAll('td.name')].map(td => {
    const n = td.firstElementChild || td;
    return Math.round(n.getBoundingClientRect().height / parseFloat(getComputedStyle(n).lineHeight));
  });
  return {table: +s.dataset.table, out, lines,
          clipped: s.scrollHeight > s.clientHeight + 1 || s.scrollWidth > s.clientWidth + 1,
          footer: s.querySelector('footer').innerText, breakInside: getComputedStyle(s).breakInside};
})"""


def test_slips_keep_every_field_inside_their_border_three_to_a_page_on_a4_and_letter(
        app: Flask, tabs: Any) -> None:  # noqa: F811
    client = app.test_client()
    tid, auth, _ = event(client, [LONG_SPACED, LONG_WORD, *ACCENTED, *fillers(10)], name=LONG_EVENT, best_of=3)
    rnd = client.post(f"{BASE}/{tid}/rounds", headers=auth).get_json()
    assert len(rnd["matches"]) == 9
    tab = tabs()
    page = tab.page
    tab.open(f"/events/{tid}/slips")
    page.emulate_media(media="print")
    for size, (width, height) in PAPER.items():
        page.set_viewport_size({"width": width, "height": height})
        slips = page.evaluate(SLIP_LAYOUT)
        assert len(slips) == 9
        for s in slips:
            assert s["out"] == [] and not s["clipped"], (size, s)
            assert all(1 <= n <= 2 for n in s["lines"]), (size, s)  # a name takes two lines at most
            assert "Winner" in s["footer"] and "Dropping? tick" in s["footer"] and s["breakInside"] == "avoid"
        assert sum(s["lines"].count(2) for s in slips) >= 2  # the long names, cut to two lines
        heights = page.evaluate("() => [...document.querySelectorAll('article.slip')].map(s => s.offsetHeight)")
        margin = page.evaluate("() => parseFloat(getComputedStyle(document.querySelector('.slip')).marginBottom)")
        assert 3 * (max(heights) + margin) <= height, size  # three to a page
        pdf = page.pdf(format=size, print_background=True)
        keep(page, f"slips-{size}.pdf", pdf)
        assert pdf_pages(pdf) == math.ceil(9 / 3), (size, pdf_pages(pdf))
    page.set_viewport_size({"width": PAPER["A4"][0], "height": 1200})
    keep(page, "slips-print.png")


def test_find_your_name_ignores_accents_and_case_and_says_when_no_name_matches(
        app: Flask, tabs: Any) -> None:  # noqa: F811
    client = app.test_client()
    names = [*ACCENTED, "Lena Zawadzka", "Marek Lis", "Zygmunt Abacki", "Anna Łoś", "Bartosz Kąkol", "Dmitrij Lee"]
    tid, auth, _ = event(client, names)
    client.post(f"{BASE}/{tid}/rounds", headers=auth)
    tab = tabs({"width": 390, "height": 800})  # a phone
    page = tab.page
    tab.open(f"/events/{tid}/pairings")

    def found(query: str) -> list[str]:
        page.fill("#find", query)
        return page.locator("#by-name tbody tr:visible td.name:first-child").all_text_contents()

    assert found("lukasz") == ["Łukasz Żółkiewski"]
    assert found("zolkiewski") == ["Łukasz Żółkiewski"]
    assert found("ŁUKASZ  żółk") == ["Łukasz Żółkiewski"]
    assert found("zazolc gesla jazn") == ["Zażółć Gęślą Jaźń"]
    assert found("swietochowska-cwik") == ["Małgorzata Świętochowska-Ćwik"]
    assert found("soren aero") == ["Søren Ærø"]
    assert found("dorde strasse") == ["Đorđe Straße"]
    assert found("елкина") == ["Юлия Ёлкина"]
    assert found("los") == ["Anna Łoś"]
    assert page.is_hidden("#no-match")
    assert found("xyzzy") == []
    assert page.is_visible("#no-match") and page.text_content("#no-match") == "No player matches that name."
    keep(page, "find-no-match.png")
    assert len(found("")) == len(names) and page.is_hidden("#no-match")
    # the list is in the same order: accents and case aside ("Łukasz" among the L's, not after Z)
    shown = page.locator("#by-name tbody td.name:first-child").all_text_contents()
    assert shown == ["Anna Łoś", "Bartosz Kąkol", "Dmitrij Lee", "Đorđe Straße", "Lena Zawadzka", "Łukasz Żółkiewski",
                     "Małgorzata Świętochowska-Ćwik", "Marek Lis", "Søren Ærø", "Zażółć Gęślą Jaźń", "Zygmunt Abacki",
                     "Юлия Ёлкина"]
    tab.open(f"/events/{tid}")
    assert page.locator("ul.players a").all_text_contents() == shown


def test_printed_pairings_repeat_the_event_and_the_round_on_every_page(
        app: Flask, tabs: Any) -> None:  # noqa: F811
    client = app.test_client()
    tid, auth, _ = event(client, [LONG_SPACED, LONG_WORD, *ACCENTED, *fillers(292)], rounds=3, name=LONG_EVENT)
    assert client.post(f"{BASE}/{tid}/rounds", headers=auth).status_code == 201
    tab = tabs()
    page = tab.page
    tab.open(f"/events/{tid}/pairings")
    assert page.is_hidden("tr.printhead")  # on screen the sheet's heading says it
    page.emulate_media(media="print")
    page.set_viewport_size({"width": PAPER["A4"][0], "height": PAPER["A4"][1]})
    heads = page.evaluate("""() => [...document.querySelectorAll('.sheet table.list')].map(t => ({
      group: getComputedStyle(t.tHead).display,
      first: t.tHead.rows[0].innerText.replace(/\\s+/g, ' ').trim(),
      shown: t.tHead.rows[0].getBoundingClientRect().height > 0,
      columns: [...t.tHead.rows[1].cells].map(c => c.textContent),
      h1: getComputedStyle(t.closest('.sheet').querySelector('h1')).display}))""")
    assert [h["first"] for h in heads] == [
        f"{LONG_EVENT.upper()} Round 1 of 3: pairings by table 300 players · 150 tables",
        f"{LONG_EVENT.upper()} Round 1 of 3: pairings by name"]
    assert all(h["group"] == "table-header-group" and h["shown"] and h["h1"] == "none" for h in heads)
    assert heads[1]["columns"] == ["Player", "Pts", "Table", "Opponent"]
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0
    for size in ("A4", "Letter"):
        pdf = page.pdf(format=size, print_background=True)
        keep(page, f"pairings-{size}.pdf", pdf)
        # 150 tables and 300 names at about 19 rows a page (not shrunk to fit a long name), each list
        # from a new page
        assert 22 <= pdf_pages(pdf) <= 30, (size, pdf_pages(pdf))


def test_standings_explain_each_tie_breaker_and_show_byes(app: Flask, tabs: Any) -> None:  # noqa: F811
    client = app.test_client()
    tid, auth, _ = event(client, fillers(7), profile="mtg", best_of=3, rounds=3)
    first = client.post(f"{BASE}/{tid}/rounds", headers=auth).get_json()
    report(client, tid, auth, first)
    tab = tabs()
    page = tab.page
    tab.open(f"/events/{tid}/standings")
    assert "docs/tournaments.md" not in page.text_content("body")
    assert page.locator("#tiebreaks dt").all_text_contents() == ["Pts", "W-L-D", "OMW%", "GW%", "OGW%"]
    said = dict(zip(["omw", "gw", "ogw"], page.locator("#tiebreaks dd[data-key]").all_text_contents(), strict=True))
    assert "opponents' match-win percentage" in said["omw"] and "at least 33.33%" in said["omw"]
    assert "a bye counting as a 2-0 win" in said["gw"] and "at least" not in said["gw"]
    assert "opponents' game-win percentage" in said["ogw"] and "at least 33.33%" in said["ogw"]
    assert all("byes left out" in said[k] for k in ("omw", "ogw"))
    bye = page.text_content(f'#swiss tr[data-player="{first["bye"]}"] td.wld')
    assert bye == "1-0-0 (1 bye)"
    assert page.locator("#swiss td.wld .byes").count() == 1
    keep(page, "standings.png")
    # a Destiny event: SoS and eSoS, in Polish too
    tid2, auth2, _ = event(client, fillers(4))
    report(client, tid2, auth2, client.post(f"{BASE}/{tid2}/rounds", headers=auth2).get_json())
    tab.open(f"/events/{tid2}/standings")
    assert page.locator("#tiebreaks dt").all_text_contents() == ["Pts", "W-L-D", "SoS", "eSoS"]
    assert "mean of the opponents' win ratios" in page.text_content("#tiebreaks dd[data-key=sos]")
    tab.open(f"/events/{tid}/standings?lang=pl")
    assert "33,33%" in page.text_content("#tiebreaks dd[data-key=omw]")
    assert page.text_content(f'#swiss tr[data-player="{first["bye"]}"] td.wld') == "1-0-0 (1 bye)"


#: for each name cell: its words (between spaces) broken over two lines though they would fit the cell
SPLIT_WORDS = """(sel) => [...document.querySelectorAll(sel)].flatMap(td => {
  const text = td.firstChild;
  if (!text || text.nodeType !== Node.TEXT_NODE) return [];
  const style = getComputedStyle(td);
  const width = td.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  const probe = document.createElement('span');
  probe.style.whiteSpace = 'nowrap';
  td.appendChild(probe);
  const out = [];
  let at = 0;
  for (const word of text.data.split(' ')) {
    const range = document.createRange();
    range.setStart(text, at);
    range.setEnd(text, at + word.length);
    at += word.length + 1;
    probe.textContent = word;
    const lines = new Set([...range.getClientRects()].map(r => Math.round(r.top))).size;
    if (word && lines > 1 && probe.getBoundingClientRect().width <= width) out.push(word);
  }
  probe.remove();
  return out;
})"""


def test_long_names_widen_no_page_and_short_names_keep_their_words_on_a_phone(
        app: Flask, tabs: Any) -> None:  # noqa: F811
    client = app.test_client()
    names = [LONG_WORD, LONG_SPACED, *ACCENTED, *fillers(40)]
    tid, auth, _ = event(client, names, name=LONG_EVENT, rounds=3)
    rnd = client.post(f"{BASE}/{tid}/rounds", headers=auth).get_json()
    gone = rnd["matches"][3]["p2"]
    gone_name = rnd["matches"][3]["p2_name"]
    assert client.post(f"{BASE}/{tid}/players/{gone}/drop", headers=auth).status_code == 200
    tab = tabs({"width": 1280, "height": 900})
    page = tab.page
    tab.open(f"/events/{tid}")
    assert page.evaluate("document.documentElement.scrollWidth") <= 1280
    keep(page, "front-long-names.png")
    tab.open(f"/events/{tid}/pairings")
    assert page.evaluate("document.documentElement.scrollWidth") <= 1280
    # the by-name list marks the player who dropped, as the by-table list does
    tagged = page.evaluate("""() => [...document.querySelectorAll('#by-table td.name, #by-name td.name:first-child')]
      .filter(td => td.querySelector('.tag')).map(td => td.firstChild.textContent.trim())""")
    assert tagged == [gone_name, gone_name]
    assert page.text_content("#by-name td.name:first-child:has(.tag) .tag") == "dropped"
    page.set_viewport_size({"width": 390, "height": 800})  # a phone
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert page.evaluate(SPLIT_WORDS, "#by-table td.name, #by-name td.name") == []
    keep(page, "pairings-phone.png")
    tab.open(f"/events/{tid}")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
