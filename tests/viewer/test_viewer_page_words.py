"""The exported viewer page, in headless Chromium, offline: the creator's note is labelled in the
page's language (markup, not CSS), a game's table is drawn with the data's words for its keys and
values, a note's set title and a missing set are told under the heading, and a link to a step on
a phone scrolls the step's note into view."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from replays.viewer import asset, page, viewer_json
from replays.viewer_words import ui_words
from tests.browser import CHROMIUM, SKIP_REASON, launch_browser
from tests.helpers import EXAMPLES_DIR

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason=SKIP_REASON)

SWTCG = EXAMPLES_DIR / "swtcg" / "selfplay-game.json"
ATTACK = 30  # the Millennium Falcon attacks: an attack and a roll under way, "may: use ... (lucky)"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with launch_browser() as chromium:
        yield chromium


@pytest.fixture(scope="module")
def swtcg() -> dict[str, Any]:
    return json.loads(SWTCG.read_text(encoding="utf-8"))


def open_page(browser: Any, data: dict[str, Any], tmp_path: Path, hash_: str, width: int = 1400,
              height: int = 1000) -> tuple[Any, Any, list[str]]:
    html = tmp_path / "game.html"
    html.write_text(page(data), encoding="utf-8")
    context = browser.new_context(offline=True, viewport={"width": width, "height": height})
    errors: list[str] = []
    tab = context.new_page()
    tab.on("pageerror", lambda exc: errors.append(str(exc)))
    tab.goto(html.as_uri() + hash_)
    tab.wait_for_selector("#viewer[data-ready=true]")
    return context, tab, errors


def test_the_creators_note_label_is_the_pages_word_not_css(browser: Any, swtcg: dict[str, Any],
                                                          tmp_path: Path) -> None:
    assert "Creator" not in asset("viewer.css")  # (CSS text is never translated)
    data = viewer_json(swtcg, annotations=[{"at": ATTACK, "note": "Watch the dice"}], lang="pl")
    data["ui"]["creators_note"] = "NOTATKA TWÓRCY"  # whatever the data's language says
    context, tab, errors = open_page(browser, data, tmp_path, f"#step-{ATTACK}")
    assert tab.locator(".v-annlabel").inner_text().upper() == "NOTATKA TWÓRCY"
    assert tab.locator(".v-annotation").inner_text() == "Watch the dice"
    assert "creators_note" in ui_words("pl")
    assert errors == []
    context.close()


def test_the_attack_under_way_and_what_a_player_may_do_are_in_the_datas_words(
        browser: Any, swtcg: dict[str, Any], tmp_path: Path) -> None:
    data = viewer_json(swtcg, lang="pl")
    data["words"]["keys"].update(attacker="NAPASTNIK", purpose="CEL", attack="ATAK")
    data["words"]["values"].update(use="UŻYJ", lucky="SZCZĘŚCIE", attack="ATAK-WARTOŚĆ")
    context, tab, errors = open_page(browser, data, tmp_path, f"#step-{ATTACK}")
    moment = tab.locator("[data-moment]").inner_text()
    assert "NAPASTNIK" in moment and "CEL" in moment and "ATAK-WARTOŚĆ" in moment
    assert "attacker" not in moment.lower() and "purpose" not in moment.lower()
    may = tab.locator("[data-may]").inner_text()
    assert "UŻYJ" in may and "(SZCZĘŚCIE)" in may and "use " not in may
    assert errors == []
    context.close()


def test_the_notes_title_shows_under_the_heading_escaped(browser: Any, swtcg: dict[str, Any],
                                                        tmp_path: Path) -> None:
    data = viewer_json(swtcg)
    data["notes"] = {"id": "0123456789abcdef", "title": "Falcon <b>run</b> & co"}
    context, tab, errors = open_page(browser, data, tmp_path, "")
    assert tab.locator("#v-notes").inner_text() == "Notes: Falcon <b>run</b> & co"
    assert tab.locator("#v-notes b").count() == 0
    assert "Falcon <b>run</b> & co" in tab.title()
    assert errors == []
    context.close()


def test_a_missing_notes_set_is_told_and_the_game_shows(browser: Any, swtcg: dict[str, Any], tmp_path: Path) -> None:
    data = viewer_json(swtcg)
    data["notes"] = {"id": "0123456789abcdef", "missing": True}
    context, tab, errors = open_page(browser, data, tmp_path, "#step-3")
    assert tab.locator("#v-notes").is_visible()
    assert tab.evaluate("() => document.getElementById('v-notes').getBoundingClientRect().top") >= 0
    assert "could not be found" in tab.locator("#v-notes").inner_text()
    assert tab.locator("#v-table .v-arena").count() == 3
    assert errors == []
    context.close()


def test_a_link_to_a_step_on_a_phone_scrolls_its_note_into_view(browser: Any, swtcg: dict[str, Any],
                                                               tmp_path: Path) -> None:
    data = viewer_json(swtcg, annotations=[{"at": ATTACK, "note": "The Falcon rolls five dice"}])
    context, tab, errors = open_page(browser, data, tmp_path, f"#step-{ATTACK}", width=390, height=844)
    tab.wait_for_timeout(100)
    box = tab.evaluate("() => { const note = document.querySelector('.v-annbox') || "
                       "document.querySelector('.v-annotation'); const r = note.getBoundingClientRect();"
                       " return [r.top, document.getElementById('v-controls').getBoundingClientRect().bottom,"
                       " window.innerHeight]; }")
    assert box[1] <= box[0] < box[2], box  # its top within the screen, under the controls (they stick)
    assert errors == []
    context.close()
    # with no step linked, the page opens at its top
    context, tab, errors = open_page(browser, data, tmp_path, "", width=390, height=844)
    assert tab.evaluate("() => window.scrollY") == 0
    context.close()
