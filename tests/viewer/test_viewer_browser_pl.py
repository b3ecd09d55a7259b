"""The viewer page in Polish, in headless Chromium: ``arbiter export-html --lang pl`` writes a page
whose ``<html lang>`` is ``pl`` and whose every word comes from the Polish words
(replays/viewer_words_translations.json until the lead merges them into the catalog, then the
catalog's), with plurals by the language's rules; the events are in Polish once the catalog has
their templates.

``ARBITER_VIEWER_SCREENSHOT_PL=docs/viewer-pl.png`` writes the mid-game screenshot there too.
"""

from __future__ import annotations

import json
import os
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

import i18n
from replays.viewer import EVENT_WORDS
from replays.viewer_words import ui_words
from tests.helpers import ROOT
from tests.viewer.conftest import CHROMIUM, SKIP_REASON
from tests.viewer.test_viewer_browser import GAME, MID_GAME, Page, browser, export, tab  # noqa: F401 (fixtures)

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason=SKIP_REASON)

PL = {msgid: entry["pl"] for msgid, entry in json.loads(
    (resources.files("replays") / "viewer_words_translations.json").read_text(encoding="utf-8")).items()}


def polish(msgid: str) -> str:
    """The Polish of a viewer word: the catalog's when it has one, else the file's (not merged yet)."""
    word = i18n.text("pl").gettext(msgid)
    return word if word != msgid else str(PL[msgid])


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


def test_the_events_are_polish_once_the_catalog_has_them(tab: Page, page_pl: Path) -> None:  # noqa: F811
    template = EVENT_WORDS["round-begins"]
    if i18n.text("pl").gettext(template) == template:
        pytest.skip("the Polish catalog has no event templates yet (i18n/catalogs/pl: being filled by the lead)")
    page = tab.open(page_pl.as_uri())
    data: Any = page.evaluate("window.arbiterViewer.data")
    begins = [e["text"] for s in data["steps"] for e in s["events"] if e["kind"] == "round-begins"]
    assert begins and all("round" not in text for text in begins)
