"""The judges' pages in a browser (Debian's Chromium driven by playwright, as tests/viewer; skipped
with the reason said when it is missing): the rules page (anchors, the linked rule marked, the
filter) and the quick position form (filled, asked, answered in words; a fault shown with where it
is). Each page asks for nothing but its own server. Screenshots go to the test's temporary folder,
or to ``ARBITER_PAGES_SCREENSHOTS`` when set."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from judge.rules import index
from tests.browser import CHROMIUM, SKIP_REASON
from tests.judge_pages.conftest import shot

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason=SKIP_REASON)


def test_the_rules_page_marks_the_linked_rule_and_filters(page: Any, tmp_path: Path) -> None:
    rule_id = "destiny.shields.max-three"
    page.goto(f"{page.base}/rules/destiny#{rule_id}")
    assert page.locator("section.rule").count() == len(index.ids("destiny"))
    target = page.locator(f"section.rule[id='{rule_id}']")
    assert "target" in (target.get_attribute("class") or "")
    assert target.is_visible() and target.bounding_box()["y"] < 900  # scrolled to it
    assert index.summary(rule_id) in target.inner_text()
    assert page.locator("section.rule.target").count() == 1
    shot(page, tmp_path, "rules-anchor.png")
    page.fill("#filter", "shields")
    visible = page.locator("section.rule:visible")
    assert 0 < visible.count() < len(index.ids("destiny"))
    assert all("shield" in t.lower() for t in visible.all_inner_texts())
    page.fill("#filter", "")
    assert page.locator("section.rule:visible").count() == len(index.ids("destiny"))


def test_the_position_form_sets_up_a_table_by_names_and_rules(page: Any, tmp_path: Path) -> None:
    page.goto(f"{page.base}/position")
    page.click("#load-example")
    page.click("#rule")
    page.wait_for_selector("#result:not([hidden])")
    assert page.inner_text("#ruling .answer-text") == "Legal."
    assert "Luke has 2 shields" in page.inner_text("#ruling .asked")
    changes = page.locator("#ruling section:has(h2:text('What changed on the table')) li").all_inner_texts()
    assert "Luke Skywalker gains 1 shield (2 → 3)" in changes and "turn: Ana → Ben" in changes
    link = page.locator("#ruling .rules-applied a", has_text="destiny.shields.max-three")
    assert link.get_attribute("href") == "/rules/destiny#destiny.shields.max-three"
    log_json = json.loads(page.text_content("#log-json") or "")
    assert log_json["setup"]["position"]["players"]["p1"]["pool"] == {"p1.05031/1": "1Sh", "p1.05031/2": "1Sh"}
    shot(page, tmp_path, "position-ruled.png")
    link.click()
    page.wait_for_url("**/rules/destiny#destiny.shields.max-three")
    assert page.locator("section.rule.target").get_attribute("id") == "destiny.shields.max-three"


def test_the_form_built_by_hand_and_a_fault_shown_where_it_is(page: Any, tmp_path: Path) -> None:
    page.goto(f"{page.base}/position")
    players = page.locator("fieldset.player")
    assert players.count() == 2
    players.nth(0).locator("input[name=name]").fill("Ana")
    players.nth(0).locator(".character input[name=card]").fill("Han Solo")
    players.nth(1).locator(".character input[name=card]").fill("Boba Fett")
    page.fill("#ask", "p1 pass")
    page.click("#rule")
    page.wait_for_selector("#faults:not([hidden])")
    faults = page.inner_text("#faults")
    assert "p1 character 1: card" in faults and "names several cards" in faults  # (its field, by its label)
    assert page.get_attribute("#faults li code", "title") == "/players/0/characters/0/card"  # (its pointer)
    assert "Han Solo - Scoundrel" in faults
    shot(page, tmp_path, "position-fault.png")
    players.nth(0).locator(".character input[name=card]").fill("Han Solo - Scoundrel")
    players.nth(0).locator(".character input[name=dice]").fill("2")
    players.nth(0).locator(".add-die").click()
    players.nth(0).locator(".die input[name=card]").fill("Han Solo")
    players.nth(0).locator(".die input[name=face]").fill("2RD")
    page.fill("#ask", "p1 resolve Han Solo/1 -> Boba Fett")
    page.click("#rule")
    page.wait_for_selector("#result:not([hidden])")
    assert page.is_hidden("#faults")
    assert page.inner_text("#ruling .answer-text") == "Legal."
    assert "Boba Fett takes 2 damage (0 → 2)" in page.inner_text("#ruling")


def test_a_support_and_an_upgrade_added_on_the_form_and_ruled_on(page: Any, tmp_path: Path) -> None:
    page.goto(f"{page.base}/position")
    ana, ben = page.locator("fieldset.player").nth(0), page.locator("fieldset.player").nth(1)
    ana.locator(".character input[name=card]").fill("Boba Fett")
    ana.locator(".character input[name=dice]").fill("2")
    ana.locator(".add-upgrade").click()
    ana.locator(".upgrade input[name=card]").fill("Hidden Blaster")
    ana.locator(".add-support").click()
    ana.locator(".support input[name=card]").fill("Underworld Connections")
    ana.locator(".add-support").click()
    ana.locator(".support input[name=card]").nth(1).fill("Slave I")
    ana.locator(".support input[name=exhausted]").nth(1).check()
    ana.locator(".add-die").click()
    ana.locator(".die input[name=card]").fill("Hidden Blaster")
    ana.locator(".die input[name=face]").fill("1RD")
    ben.locator(".character input[name=card]").fill("Luke Skywalker")
    page.fill("#ask", "p1 resolve Hidden Blaster/1 -> Luke Skywalker")
    page.click("#rule")
    page.wait_for_selector("#result:not([hidden])")
    assert page.inner_text("#ruling .answer-text") == "Legal."
    assert "Luke Skywalker takes 1 damage (0 → 1)" in page.inner_text("#ruling")
    p1 = json.loads(page.text_content("#log-json") or "")["setup"]["position"]["players"]["p1"]
    assert p1["characters"]["p1.05019"]["upgrades"] == ["p1.05072#1"]
    assert p1["supports"] == {"p1.01101#1": {"exhausted": False}, "p1.05025#1": {"exhausted": True}}
    assert p1["pool"] == {"p1.05072#1/1": "1RD"}
    shot(page, tmp_path, "position-supports-ruled.png")
    page.locator("#qp").scroll_into_view_if_needed()
    page.evaluate("window.scrollTo(0, 0)")
    shot(page, tmp_path, "position-supports-form.png")
    # the support used: exhausted, a resource gained; the exhausted one cannot be activated
    page.fill("#ask", "p1 use Underworld Connections")
    page.click("#rule")
    page.wait_for_function("document.querySelector('#ruling .asked').innerText.includes('Underworld')")
    assert page.inner_text("#ruling .answer-text") == "Legal."
    page.fill("#ask", "p1 activate Slave I")
    page.click("#rule")
    page.wait_for_function("!document.querySelector('#ruling .asked').innerText.includes('Underworld')")
    refused = page.inner_text("#ruling .answer-text")
    assert refused.startswith("Not legal") and "destiny.actions.activate-ready-only" in refused
    # an upgrade that is a support: the fault points at it
    ana.locator(".upgrade input[name=card]").fill("Slave I")
    page.click("#rule")
    page.wait_for_selector("#faults:not([hidden])")
    faults = page.inner_text("#faults")
    assert "p1 character 1 upgrade 1: card" in faults and "Slave I is not an upgrade" in faults
    assert "/players/0/characters/0/upgrades/0/card" in page.locator("#faults li code").evaluate_all(
        "codes => codes.map(c => c.title)")
    # removed again: the character's row keeps no upgrade
    ana.locator(".upgrade .remove").click()
    assert ana.locator(".upgrade").count() == 0 and ana.locator(".character").count() == 1


def test_the_compact_text_on_the_page(page: Any) -> None:
    page.goto(f"{page.base}/position")
    page.click("#compact summary")
    page.click("#rule-text")
    page.wait_for_selector("#result:not([hidden])")
    assert page.inner_text("#ruling .answer-text") == "Legal."


def test_the_sw_tcg_position_is_its_compact_text_ruled_and_its_fault_shown(page: Any, tmp_path: Path) -> None:
    page.goto(f"{page.base}/position")
    page.click("nav.games a:text('Star Wars Trading Card Game')")
    page.wait_for_load_state("load")  # (the page's script in place)
    page.wait_for_selector("#compact-text")
    assert page.url.endswith("/position?game=swtcg") and page.locator("#qp").count() == 0
    assert page.input_value("#compact-text").startswith("round 3\nphase battle\narena space\n")
    assert "P attack UNIT -> TARGET rolling 4 5 6" in page.inner_text("#compact .help")
    page.click("#rule-text")
    page.wait_for_selector("#result:not([hidden])")
    assert page.inner_text("#ruling .answer-text") == "Legal."
    assert "Mon Calamari Cruiser: 3 hits (needs 5), 3 damage" in page.inner_text("#ruling")
    assert {"swtcg.keywords.accuracy", "swtcg.keywords.armor-threshold"} <= set(
        page.locator("#ruling .rules-applied dt").all_text_contents())
    log_json = json.loads(page.text_content("#log-json") or "")
    assert log_json["game"] == "swtcg" and log_json["steps"][0]["target"] == "p2.LS-MC"
    shot(page, tmp_path, "position-swtcg-ruled.png")
    page.fill("#compact-text", page.input_value("#compact-text").replace("p2 space Mon Calamari Cruiser",
                                                                         "p2 ground Mon Calamari Cruiser"))
    page.click("#rule-text")
    page.wait_for_selector("#faults:not([hidden])")
    line = page.input_value("#compact-text").splitlines().index("p2 ground Mon Calamari Cruiser") + 1
    assert page.is_hidden("#result") and f"line {line} " in page.inner_text("#faults")  # (its line, as counted)
    assert page.get_attribute("#faults li code", "title") == f"/text/lines/{line}"  # (its pointer)
    shot(page, tmp_path, "position-swtcg-fault.png")
    page.click("#load-example")
    assert "p2 space Mon Calamari Cruiser" in page.input_value("#compact-text")
    page.goto(f"{page.base}/position?game=swtcg&lang=ru")
    assert page.text_content("h1").startswith("Быстрая позиция")
    assert "Позиция, один факт в строке" == page.get_attribute("#compact-text", "aria-label")
    page.click("nav.games a:text('Star Wars Destiny')")
    page.wait_for_selector("#qp fieldset.player")  # (the script builds the players' fieldsets)
    assert "lang=ru" in page.url and page.locator("fieldset.player").count() == 2


def test_the_relic_position_is_its_compact_text_ruled_and_its_fault_shown(page: Any, tmp_path: Path) -> None:
    page.goto(f"{page.base}/position?game=swtcg")
    page.click("nav.games a:text('Relic')")
    page.wait_for_load_state("load")
    page.wait_for_selector("#compact-text")
    assert page.url.endswith("/position?game=relic") and page.locator("#qp").count() == 0
    assert "ask p1 use Auspex on d1 rolling 6 3" in page.input_value("#compact-text")
    assert "P use CARD on DIE rolling 6 3" in page.inner_text("#compact .help")
    page.click("#rule-text")
    page.wait_for_selector("#result:not([hidden])")
    assert page.inner_text("#ruling .answer-text") == "Legal."
    ruling = page.inner_text("#ruling")
    assert "Auspex rerolls die d1: 2 → 6, total 12" in ruling and "die d2 explodes from d1: 3, total 15" in ruling
    assert {"relic.dice.reroll", "relic.dice.exploding"} <= set(
        page.locator("#ruling .rules-applied dt").all_text_contents())
    shot(page, tmp_path, "position-relic-ruled.png")
    page.fill("#compact-text", page.input_value("#compact-text").replace("p1 asset Auspex", "p1 asset Auspexx"))
    page.click("#rule-text")
    page.wait_for_selector("#faults:not([hidden])")
    assert page.is_hidden("#result") and "Auspexx" in page.inner_text("#faults")
    line = page.input_value("#compact-text").splitlines().index("p1 asset Auspexx") + 1
    assert page.inner_text("#faults li code") == f"line {line}"
    shot(page, tmp_path, "position-relic-fault.png")


def test_the_position_form_in_polish(page: Any, tmp_path: Path) -> None:
    page.goto(f"{page.base}/position?lang=pl")
    assert page.get_attribute("html", "lang") == "pl"
    assert page.text_content("h1").startswith("Szybka pozycja")
    assert page.locator("legend").all_text_contents()[:1] == ["Stół"]
    assert "Pytanie" in page.locator("legend").all_text_contents()
    labels = [t.split("\n")[0].strip() for t in page.locator("fieldset.table-facts label").all_inner_texts()]
    assert labels == ["Runda", "Tura", "Pole bitwy", "kontrolowane przez"]
    # the player fieldsets the script builds are worded in Polish too
    first = page.locator("fieldset.player").first
    assert [t.strip() for t in first.locator("label").all_inner_texts()][:4] == ["Imię", "zasoby", "ręka", "talia"]
    assert "Postać" in first.locator(".character label").first.inner_text()
    assert first.locator(".add-character").text_content() == "+ postać"
    assert first.locator(".zlabel.dice-label").text_content() == "Kości w puli"
    assert first.locator(".zlabel.supports-label").text_content() == "Wsparcia"
    assert first.locator(".add-upgrade").text_content() == "+ ulepszenie"
    assert page.text_content("#rule") == "Rozstrzygnij"
    page.click("#load-example")
    page.click("#rule")
    page.wait_for_selector("#result:not([hidden])")
    headings = page.locator("#ruling h2").all_text_contents()
    assert headings[:2] == ["Zapytanie", "Odpowiedź"] and "Co się zmieniło na stole" in headings
    # the ruling's own words (replays.ruling) follow the page's language too (its cookie)
    answer = page.inner_text("#ruling .answer-text")
    assert answer.startswith(("Zgodne z zasadami", "Niezgodne z zasadami", "Na razie zgodne", "Brak orzeczenia")), \
        answer
    assert page.locator("nav.top .langs a").all_text_contents() == ["English", "Русский"]
    shot(page, tmp_path, "position-pl.png")


def test_the_front_page_leads_to_each_page_and_lists_the_public_events(app: Flask, page: Any,
                                                                       tmp_path: Path) -> None:
    """``/``: where a judge, an organizer or a content creator starts: a quick ruling, the rules, the
    stored replays (counted), the public events (a private one is not listed) and the API."""
    client = app.test_client()
    made = client.post("/v1/tournaments", json={"name": "Kessel Run Regional", "seed": 3, "public": True}).get_json()
    client.post("/v1/tournaments", json={"name": "Private League", "seed": 4, "public": False})
    for name in ("Ana", "Ben", "Cyd"):
        client.post(f"/v1/tournaments/{made['id']}/players", json={"name": name},
                    headers={"Authorization": f"Bearer {made['token']}"})
    log = json.loads((Path(__file__).resolve().parents[2] / "replays" / "examples" / "shields-cap.json").read_text())
    assert client.post("/v1/replays", json=log).status_code in (200, 201)

    page.goto(page.base + "/")
    assert page.title() == "Home — Arbiter"
    links = {a.inner_text(): a.get_attribute("href") for a in page.query_selector_all("main a")}
    assert links["Quick position"] == "/position" and links["Rules"] == "/rules"
    assert links["Stored replays"] == "/replays" and links["API reference"] == "/docs"
    assert "(1 replay;" in page.inner_text("main")
    rows = [[c.inner_text() for c in r.query_selector_all("td")]
            for r in page.query_selector_all("table.events tbody tr")]
    assert rows == [["Kessel Run Regional", "Star Wars Destiny", "—", "3"]]
    assert links["Kessel Run Regional"] == f"/events/{made['id']}"
    shot(page, tmp_path, "front-page.png")
    page.click("text=Kessel Run Regional")
    page.wait_for_url(f"**/events/{made['id']}")
    assert "Kessel Run Regional" in page.inner_text("body")
    page.goto(page.base + "/?lang=pl")
    assert page.inner_text("h2 >> nth=0") == "Przy stole" and "Zapisane partie" in page.inner_text("main")
    assert "(1 zapis partii;" in page.inner_text("main")
    shot(page, tmp_path, "front-page-pl.png")
    page.click("nav.top >> text=Arbiter")  # the top bar of every page leads back here
    assert page.title().endswith("— Arbiter") and page.query_selector("table.events") is not None
