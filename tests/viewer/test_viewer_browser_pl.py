"""The viewer page in Polish, in headless Chromium: ``arbiter export-html --lang pl`` writes a page
whose ``<html lang>`` is ``pl`` and whose every word comes from the Polish words
(the catalog's), with plurals by the language's rules, and its events in Polish.

``ARBITER_VIEWER_SCREENSHOT_PL=docs/viewer-pl.png`` writes the mid-game screenshot there too.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

import i18n
from replays.viewer import EVENT_WORDS
from replays.viewer_words import ui_words
from tests.browser import CHROMIUM, SKIP_REASON
from tests.helpers import ROOT
from tests.viewer.test_viewer_browser import GAME, MID_GAME, Page, browser, export, tab  # noqa: F401 (fixtures)

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason=SKIP_REASON)

def polish(msgid: str) -> str:
    """The Polish of a viewer word (the catalog's; the test fails on a word left in English)."""
    word = i18n.text("pl").gettext(msgid)
    assert word != msgid or msgid == "{left} vs {right}", f"no Polish for {msgid!r}"
    return word


@pytest.fixture(scope="module")
def page_pl(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return export(GAME, tmp_path_factory.mktemp("viewer-pl") / "game-pl.html", "--lang", "pl")


def test_the_page_is_polish(tab: Page, page_pl: Path, tmp_path: Path) -> None:  # noqa: F811 (fixture)
    page = tab.open(page_pl.as_uri() + f"#step-{MID_GAME}")
    assert page.evaluate("document.documentElement.lang") == "pl"
    assert page.text_content("#v-play") == polish("play")
    assert page.get_attribute("#v-first", "title") == polish("First step (Home)")
    assert page.text_content("#v-list-box summary") == polish("All steps")
    assert polish("speed") in page.text_content(".v-speed")
    # "krok 30 / N · runda R · faza akcji"
    where = page.text_content("#v-where")
    data = page.evaluate("window.arbiterViewer.data")
    step = data["steps"][MID_GAME]
    phase = polish({"action": "action phase", "upkeep": "upkeep phase"}.get(step["phase"], step["phase"]))
    last = len(data["steps"]) - 1
    assert where == polish("step {at} / {last} \u00b7 round {round} \u00b7 {phase}").format(
        at=MID_GAME, last=last, round=step["round"], phase=phase)
    assert where.startswith("krok ") and "runda" in where
    # the table's header says the phase once: its word ("faza akcji"), not the label before it too
    header = page.text_content(".v-battlefield")
    assert phase in header and header.count(polish("phase")) == 1, header
    # the header counts steps with the Polish plural of the number ("kroków" for 5, 25..., "kroki" for 22...)
    forms = ui_words("pl")
    n = last % 100
    category = "one" if last == 1 else "few" if n % 10 in (2, 3, 4) and not 12 <= n <= 14 else "many"
    sub = page.text_content("#v-sub")
    assert forms[f"steps_{category}"].format(n=last) in sub
    assert "{" not in sub and polish("{left} vs {right}").format(left="Hero bot", right="Villain bot") in sub
    assert page.text_content("#v-step h3") in {polish(m) for m in ("What happened", "Decisions", "What changed")}
    assert page.text_content(".v-player .v-zone .v-zlabel") == polish("characters")
    # playing says "pauza"
    page.click("#v-play")
    assert page.text_content("#v-play") == polish("pause")
    page.click("#v-play")
    page.screenshot(path=str(tmp_path / "viewer-pl.png"))
    target = os.environ.get("ARBITER_VIEWER_SCREENSHOT_PL")
    if target:
        page.screenshot(path=str(ROOT / target), full_page=False)


def test_the_events_and_steps_are_polish(tab: Page, page_pl: Path) -> None:  # noqa: F811
    page = tab.open(page_pl.as_uri() + f"#step-{MID_GAME}")
    data: Any = page.evaluate("window.arbiterViewer.data")
    begins = [e["text"] for s in data["steps"] for e in s["events"] if e["kind"] == "round-begins"]
    assert begins and all(t.startswith("zaczyna się runda ") for t in begins), begins[:2]
    assert all("round" not in t for t in begins)
    # the panel of the step shown: its summary and events as the data words them, in Polish
    step = data["steps"][MID_GAME]
    panel = page.text_content("#v-step")
    assert step["summary"] in panel and all(e["text"] in panel for e in step["events"])
    assert step["do_words"] in panel and step["do_words"] != step["do"]  # the verb in Polish too
    template = EVENT_WORDS["round-begins"]
    assert i18n.text("pl").gettext(template) != template
