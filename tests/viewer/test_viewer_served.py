"""The viewer page served by the API (``/replays/{id}``) in a real headless Chromium: a live server on
the session's Redis, the viewer's data computed by a real worker run while the page waits (it says
so and asks again after Retry-After), a creator's notes added and edited through the API with the
creator token and seen on the page, and nothing fetched beyond the server itself."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from api import create_app
from tests.browser import CHROMIUM, SKIP_REASON, GuardedTab, launch_browser, serve
from tests.viewer.test_viewer_browser import GAME, MID_GAME, assert_table, card_names
from tests.viewer.views import views_of
from tests.worker.live import registered_worker

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason=SKIP_REASON)


@pytest.fixture()
def server(redis_url: str, redis_db: Any) -> Iterator[str]:
    with serve(create_app({"REDIS_URL": redis_url, "TESTING": True})) as base:
        yield base


def call(method: str, url: str, body: Any = None, token: str | None = None) -> tuple[int, Any]:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, method=method)
    if data is not None:
        req.add_header("Content-Type", "application/json")
    if token:
        req.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(req, timeout=30) as resp:
            return resp.status, json.loads(resp.read() or b"null")
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read() or b"null")


@pytest.fixture()
def browser() -> Iterator[Any]:
    with launch_browser() as chromium:
        yield chromium


def test_served_viewer_waits_for_the_worker_then_draws_the_table_and_the_creators_notes(
        server: str, browser: Any, redis_url: str, run_jobs: Callable[[], bool]) -> None:
    log = json.loads(GAME.read_text(encoding="utf-8"))
    status, posted = call("POST", f"{server}/v1/replays", log)
    assert status in (201, 202), posted
    replay_id = posted["id"]
    first_note = {"at": MID_GAME, "note": "Shields up", "highlight": True}
    status, notes = call("POST", f"{server}/v1/replays/{replay_id}/annotations",
                         {"title": "Episode 4", "annotations": [first_note]})
    assert status == 201, notes
    opened = GuardedTab(browser, None, viewport={"width": 1400, "height": 1000})  # refuses nothing: notes what is asked
    context, page, errors = opened.context, opened.page, opened.errors
    asked: list[str] = []
    context.on("request", lambda req: asked.append(req.url))
    with registered_worker(redis_url):  # alive: the API asks the page to come back after 1 s
        page.goto(f"{server}{notes['links']['view']}#step-{MID_GAME}")
        page.wait_for_selector("#viewer[data-ready=waiting]")
        assert "Preparing this replay" in page.locator("#v-table").inner_text()
        run_jobs()  # the timeline job computes the viewer's data
        page.wait_for_selector("#viewer[data-ready=true]", timeout=15_000)
    assert page.get_attribute("#viewer", "data-step") == str(MID_GAME)
    views = views_of(log)
    assert_table(page, views.views[MID_GAME], card_names(page))
    assert page.locator(".v-annotation").inner_text() == "Shields up"
    rule = page.locator(".v-rules details").first
    rule.locator("summary").click()
    rule_id = rule.get_attribute("data-rule")
    assert rule.locator("a.v-rulelink").get_attribute("href") == f"/rules/destiny#{rule_id}"
    rules_page = context.new_page()
    rules_page.goto(f"{server}/rules/destiny#{rule_id}")
    assert rules_page.locator(f'[id="{rule_id}"]').count() == 1  # the link lands on the rule
    rules_page.close()
    assert page.locator(".v-step.v-hl").count() == 1
    # the creator edits the note through the API; the page shows it on reload
    status, changed = call("PUT", f"{server}/v1/replays/{replay_id}/annotations/{notes['id']}/steps/{MID_GAME}",
                           {"note": "Watch the shields", "highlight": "red"}, token=notes["token"])
    assert status == 200, changed
    status, _ = call("PUT", f"{server}/v1/replays/{replay_id}/annotations/{notes['id']}/steps/{MID_GAME}",
                     {"note": "no token"})
    assert status == 401
    page.reload()
    page.wait_for_selector("#viewer[data-ready=true]")
    assert page.locator(".v-annotation").inner_text() == "Watch the shields"
    page.keyboard.press("ArrowRight")
    page.wait_for_function(f"location.hash === '#step-{MID_GAME + 1}'", timeout=2_000)
    assert errors == []
    assert all(url.startswith(server) for url in asked), [u for u in asked if not u.startswith(server)]
    # the list page links to it
    page.goto(f"{server}/replays")
    page.click(f'a[href="/replays/{replay_id}"]')
    page.wait_for_selector("#viewer[data-ready=true]")
    assert page.locator(".v-annotation").count() == 0  # no notes without ?notes=
    context.close()


def test_the_served_viewer_in_polish_and_its_language_switch(
        server: str, browser: Any, redis_url: str, run_jobs: Callable[[], bool]) -> None:
    log = json.loads(GAME.read_text(encoding="utf-8"))
    status, posted = call("POST", f"{server}/v1/replays", log)
    assert status in (201, 202), posted
    with registered_worker(redis_url):
        assert call("GET", f"{server}/v1/replays/{posted['id']}/viewer")[0] == 202  # asks a worker
        run_jobs()  # which words the viewer's data in every language
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    page.goto(f"{server}/replays/{posted['id']}?lang=pl#step-{MID_GAME}")
    page.wait_for_selector("#viewer[data-ready=true]", timeout=15_000)
    assert page.evaluate("document.documentElement.lang") == "pl"
    assert page.text_content("#v-play") == "odtwórz" and page.text_content("#v-where").startswith("krok ")
    # the switch: Russian, and the choice sticks on the next page opened without ?lang=
    page.click('a[hreflang="ru"]')
    page.wait_for_selector("#viewer[data-ready=true]", timeout=15_000)
    assert page.evaluate("document.documentElement.lang") == "ru"
    assert page.text_content("#v-where").startswith("шаг ")
    page.goto(f"{server}/replays")
    assert page.evaluate("document.documentElement.lang") == "ru"
    assert page.text_content("h1") == "Повторы"
    context.close()
