"""The quick position page at the table, in a browser (as tests/judge_pages/test_pages_browser.py):
a ruling shared as a link to its stored page and printed; Ctrl+Enter asks; a blank text is one clear
message; a phone's width; the page in the language negotiated; no stale faults; a fault of the form
named by its field and marked on it."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from judge.games import registry
from tests.browser import CHROMIUM, SKIP_REASON, open_tab
from tests.judge_pages.conftest import shot
from tests.worker.live import registered_worker

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason=SKIP_REASON)

GAMES = ["destiny", "swtcg", "relic"]
NOTHING = "Nothing to rule on: write a position, or load the example"
#: the elements wider than the screen (what a failing width test names)
WIDEST = """() => Array.from(document.querySelectorAll('body *'))
  .filter(e => e.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5)
  .map(e => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + (e.className ? '.' + e.className : '')
       + ' ' + Math.round(e.getBoundingClientRect().right)).slice(0, 12)"""


def rule_example(page: Any, game: str) -> None:
    page.goto(f"{page.base}/position?game={game}")
    page.click("#load-example")
    page.click("#rule" if game == "destiny" else "#rule-text")
    page.wait_for_selector("#result:not([hidden])")


def test_a_ruling_is_shared_as_a_link_to_its_stored_page(page: Any, redis_url: str, run_jobs: Callable[[], bool],
                                                         tmp_path: Path) -> None:
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=page.base)
    rule_example(page, "destiny")
    assert page.is_hidden("#share-out")
    with registered_worker(redis_url):
        page.click("#share")
        page.wait_for_selector("#share-out:not([hidden])")
    link = page.locator("#share-link")
    url = link.get_attribute("href")
    assert re.fullmatch(re.escape(page.base) + r"/rulings/[0-9a-f-]{16,}", url or ""), url
    assert link.inner_text() == url and page.is_disabled("#share")  # (shared once: the same link)
    page.click("#share-copy")
    page.wait_for_function("document.getElementById('share-copy').textContent === 'Copied'")
    assert page.evaluate("navigator.clipboard.readText()") == url
    shot(page, tmp_path, "position-shared.png")
    # a new answer: its own link to make
    page.fill("#dispute", "Another question")
    page.click("#rule")
    page.wait_for_function("document.querySelector('#ruling .asked').innerText.includes('Another question')")
    assert page.is_hidden("#share-out") and page.is_enabled("#share")
    assert run_jobs()
    link.get_attribute("href")
    page.goto(url)
    assert page.inner_text(".answer-text") == "Legal."
    assert "Luke has 2 shields. Does the second die give him a fourth?" in page.inner_text(".asked")
    assert "Luke Skywalker gains 1 shield (2 → 3)" in page.inner_text("main")
    shot(page, tmp_path, "ruling-shared.png")


def test_without_a_worker_the_link_is_not_made_and_the_page_says_why(page: Any) -> None:
    rule_example(page, "relic")
    page.click("#share")
    page.wait_for_selector("#share-fault:not([hidden])")
    said = page.inner_text("#share-fault")
    assert said.startswith("The ruling could not be stored: No worker is running"), said
    assert page.is_hidden("#share-out") and page.is_enabled("#share")  # (to try again)


def test_the_ruling_prints_without_the_form_the_bar_or_the_help(page: Any, redis_url: str,
                                                                run_jobs: Callable[[], bool], tmp_path: Path) -> None:
    rule_example(page, "destiny")
    page.emulate_media(media="print")
    for hidden in ("nav.top", "nav.games", "#qp", "#compact", ".intro", "#result .actions", "#result details"):
        assert page.locator(hidden).first.is_hidden(), hidden
    for shown in ("#ruling .asked", "#ruling .answer", "#ruling .rules-applied"):
        assert page.locator(shown).is_visible(), shown
    texts = page.locator("#ruling h2").all_inner_texts()
    assert texts == ["Asked", "Answer", "What happened", "What changed on the table", "Rules applied"]
    assert "Luke has 2 shields" in page.inner_text("#ruling .asked")
    shot(page, tmp_path, "position-print.png")
    (Path(tmp_path) / "position-print.pdf").write_bytes(page.pdf())
    page.emulate_media(media="screen")
    assert page.locator("#qp").is_visible() and page.locator("nav.top").is_visible()
    # the stored ruling's page prints the same way
    with registered_worker(redis_url):
        page.click("#share")
        page.wait_for_selector("#share-out:not([hidden])")
    run_jobs()
    page.goto(page.get_attribute("#share-link", "href"))
    page.emulate_media(media="print")
    assert page.locator("nav.top").is_hidden() and page.locator("p.api").is_hidden()
    assert page.locator(".answer").is_visible() and page.locator(".rules-applied").is_visible()
    assert page.locator("section.happened").is_visible() and page.locator(".asked").is_visible()
    shot(page, tmp_path, "ruling-print.png")


@pytest.mark.parametrize("key", ["Control+Enter", "Meta+Enter"])
def test_ctrl_enter_asks_from_the_compact_text_and_from_the_step(page: Any, key: str) -> None:
    for game in ("swtcg", "destiny"):
        page.goto(f"{page.base}/position?game={game}")
        if game == "destiny":
            page.click("#compact summary")
        text = page.input_value("#compact-text")
        page.focus("#compact-text")
        page.keyboard.press(key)
        page.wait_for_selector("#result:not([hidden])")
        assert page.inner_text("#ruling .answer-text") == "Legal."
        assert page.input_value("#compact-text") == text  # (no new line typed into it)
    page.goto(f"{page.base}/position")
    page.click("#load-example")
    page.focus("#ask")
    page.keyboard.press(key)
    page.wait_for_selector("#result:not([hidden])")
    assert "Luke has 2 shields" in page.inner_text("#ruling .asked")


@pytest.mark.parametrize("game", GAMES)
def test_a_blank_text_is_one_clear_message(page: Any, game: str, tmp_path: Path) -> None:
    page.goto(f"{page.base}/position?game={game}")
    if game == "destiny":
        page.click("#compact summary")
    posted: list[str] = []
    page.on("request", lambda r: posted.append(r.url) if r.method == "POST" else None)
    for text in ("", "   \n\n  \t", "# only a comment\n\n"):
        page.evaluate("document.getElementById('faults').hidden = true")
        page.fill("#compact-text", text)
        page.click("#rule-text")
        page.wait_for_selector("#faults:not([hidden])")
        assert page.inner_text("#faults").strip() == NOTHING, text
        assert page.locator("#faults li").count() == 0 and page.is_hidden("#result")
    assert posted == []  # (said by the page: nothing was sent)
    shot(page, tmp_path, f"position-blank-{game}.png")
    if game != "destiny":  # (Destiny's example button fills its fields)
        page.click("#load-example")  # (the example as it is: "->" and all)
        assert page.input_value("#compact-text") == registry.get(game).quick_example()
        page.click("#rule-text")
        page.wait_for_selector("#result:not([hidden])")
        assert page.is_hidden("#faults")
    page.goto(f"{page.base}/position?game={game}&lang=pl")
    if game == "destiny":
        page.click("#compact summary")
    page.fill("#compact-text", " ")
    page.click("#rule-text")
    page.wait_for_selector("#faults:not([hidden])")
    assert page.inner_text("#faults").strip() == "Nie ma czego rozstrzygać: opisz pozycję albo wczytaj przykład"


@pytest.mark.parametrize(("game", "lang"), [("destiny", "en"), ("swtcg", "en"), ("relic", "en"), ("destiny", "ru"),
                                            ("destiny", "pl")])
def test_a_phone_is_wide_enough_for_the_page(browser: Any, served: str, game: str, lang: str,
                                            tmp_path: Path) -> None:
    with open_tab(browser, served, viewport={"width": 390, "height": 844}, device_scale_factor=2,
                  is_mobile=True, has_touch=True) as tab:
        tab.goto(f"{served}/position?game={game}&lang={lang}")
        tab.click("#load-example")
        if game == "destiny":
            tab.click("#compact summary")
            tab.locator(".add-upgrade").first.click()
            tab.locator(".add-support").first.click()
            tab.locator(".add-die").first.click()
        assert tab.evaluate("document.documentElement.scrollWidth") <= 390, tab.evaluate(WIDEST)
        tab.evaluate("window.scrollTo(0, 0)")
        shot(tab, tmp_path, f"position-phone-{game}-{lang}.png")
        if game == "destiny":
            tab.locator(".upgrade .remove").click()
            tab.locator(".support .remove").click()
            tab.locator(".die .remove").last.click()
        tab.click("#rule" if game == "destiny" else "#rule-text")
        tab.wait_for_selector("#result:not([hidden])")
        tab.click("#result details summary")
        assert tab.evaluate("document.documentElement.scrollWidth") <= 390, tab.evaluate(WIDEST)
        shot(tab, tmp_path, f"position-phone-{game}-{lang}-ruled.png")


@pytest.mark.parametrize(("options", "lang", "name"), [
    ({"locale": "pl-PL"}, "pl", "Polski"),
    ({"extra_http_headers": {"Accept-Language": "ru-RU,ru;q=0.9,en;q=0.5"}}, "ru", "Русский"),
    ({}, "en", "English"),
])
def test_the_page_carries_the_language_negotiated(browser: Any, served: str, options: dict[str, Any], lang: str,
                                                  name: str) -> None:
    with open_tab(browser, served, **options) as tab:
        tab.goto(f"{served}/position")
        assert tab.get_attribute("html", "lang") == lang
        current = tab.locator("nav.top .langs [aria-current]")
        assert current.count() == 1 and current.inner_text() == name and current.get_attribute("lang") == lang
        assert tab.locator("nav.top .langs a").count() == 2


def test_the_language_cookie_is_the_page_language(browser: Any, served: str) -> None:
    with open_tab(browser, served, locale="pl-PL") as tab:
        tab.goto(f"{served}/position?lang=ru")  # (the switch's link sets the cookie)
        tab.goto(f"{served}/position?game=relic")
        assert tab.get_attribute("html", "lang") == "ru"
        assert tab.inner_text("nav.top .langs [aria-current]") == "Русский"
        assert tab.text_content("h1").startswith("Быстрая позиция")


def test_a_blocked_submit_clears_the_last_faults(page: Any, tmp_path: Path) -> None:
    page.goto(f"{page.base}/position")
    ana = page.locator("fieldset.player").nth(0)
    ana.locator(".character input[name=card]").fill("Han Solo")
    page.locator("fieldset.player").nth(1).locator(".character input[name=card]").fill("Boba Fett")
    page.fill("#ask", "p1 pass")
    page.click("#rule")
    page.wait_for_selector("#faults:not([hidden])")
    ana.locator(".character input[name=dice]").fill("5")  # (max 2: the browser blocks the submit)
    page.click("#rule")
    page.wait_for_function("document.getElementById('faults').hidden")
    assert page.evaluate("document.querySelector('.character input[name=dice]').validity.rangeOverflow")
    assert page.locator("[aria-invalid]").count() == 0  # (the fields the faults marked: unmarked)
    shot(page, tmp_path, "position-blocked.png")
    # a new question clears the faults as it starts, before its answer
    ana.locator(".character input[name=dice]").fill("1")
    page.click("#rule")
    page.wait_for_selector("#faults:not([hidden])")
    page.route("**/position", lambda route: None if route.request.method == "POST" else route.continue_())
    page.click("#rule")  # (its answer never comes)
    page.wait_for_function("document.getElementById('faults').hidden")


def test_a_fault_of_the_form_is_named_by_its_field_and_marked_on_it(page: Any, tmp_path: Path) -> None:
    page.goto(f"{page.base}/position")
    ana, ben = page.locator("fieldset.player").nth(0), page.locator("fieldset.player").nth(1)
    ana.locator(".add-character").click()  # (an empty first row: not sent, not counted)
    ana.locator(".character input[name=card]").nth(1).fill("Han Solo")
    ana.locator(".add-upgrade").nth(1).click()
    ana.locator(".upgrade input[name=card]").fill("Slave I")
    ben.locator(".character input[name=card]").fill("Boba Fett")
    ben.locator(".add-support").click()
    ben.locator(".support input[name=card]").fill("Nobody")
    page.fill("#ask", "p1 pass")
    page.click("#rule")
    page.wait_for_selector("#faults:not([hidden])")
    where = {c.get_attribute("title"): c.inner_text() for c in page.locator("#faults li code").all()}
    assert where == {"/players/0/characters/0/card": "p1 character 2: card",
                     "/players/1/supports/0/card": "p2 support 1: card"}, where
    han = ana.locator(".character input[name=card]").nth(1)
    for field in (han, ben.locator(".support input[name=card]")):
        assert field.get_attribute("aria-invalid") == "true" and "invalid" in (field.get_attribute("class") or "")
    assert ana.locator(".character input[name=card]").nth(0).get_attribute("aria-invalid") is None
    assert page.locator("[aria-invalid]").count() == 2
    item = page.locator("#faults li", has_text="p1 character 2: card")
    assert "names several cards" in item.inner_text()
    assert han.get_attribute("aria-describedby") == item.get_attribute("id")
    page.evaluate("window.scrollTo(0, 0)")
    item.locator("a.where").click()
    assert page.evaluate("document.activeElement === document.querySelectorAll('.character input[name=card]')[1]")
    shot(page, tmp_path, "position-fault-marked.png")
    han.fill("Han Solo - Scoundrel")  # (edited: no longer marked)
    assert han.get_attribute("aria-invalid") is None
    ben.locator(".support .remove").click()
    page.click("#rule")  # an upgrade that is not one: its row, by its place under its character
    page.wait_for_function("document.querySelector('#faults li code') && "
                           "document.querySelector('#faults li code').title.includes('upgrades')")
    where = {c.get_attribute("title"): c.inner_text() for c in page.locator("#faults li code").all()}
    assert where == {"/players/0/characters/0/upgrades/0/card": "p1 character 2 upgrade 1: card"}, where
    assert ana.locator(".upgrade input[name=card]").get_attribute("aria-invalid") == "true"
    assert page.locator("[aria-invalid]").count() == 1
    # a fault of a number, of the step, and a list named by its place; in Polish too
    page.goto(f"{page.base}/position?lang=pl")
    ana, ben = page.locator("fieldset.player").nth(0), page.locator("fieldset.player").nth(1)
    ana.locator(".character input[name=card]").fill("Luke Skywalker")
    ben.locator(".character input[name=card]").fill("Boba Fett")
    ben.locator("input[name=hand]").fill("Nobody Known; Boba Fett")
    page.fill("#ask", "p1 fly away")
    page.click("#rule")
    page.wait_for_selector("#faults:not([hidden])")
    where = {c.get_attribute("title"): c.inner_text() for c in page.locator("#faults li code").all()}
    assert where.get("/players/1/hand/0") == "p2: ręka" and where.get("/ask") == "Krok", where
    assert page.get_attribute("#faults", "hidden") is None
    shot(page, tmp_path, "position-fault-marked-pl.png")
