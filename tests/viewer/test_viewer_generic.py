"""A game without a table renderer of its own is drawn from its state view generically (players,
counters, zones, cards by name), never as an error: in headless Chromium, offline."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from replays.viewer import page, viewer_json
from tests.browser import CHROMIUM, SKIP_REASON, GuardedTab, launch_browser
from tests.helpers import load_example

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason=SKIP_REASON)


def other_game() -> dict[str, Any]:
    """Real viewer data with its game renamed and each step's table replaced by another shape."""
    data = viewer_json(load_example("choices-order-guardian-redeploy.json"))
    data["game"] = "no-renderer-game"
    for step in data["steps"]:
        step.pop("patch", None)
        step["state"] = {
            "round": 3, "phase": "battle", "turn": "p1", "winner": None,
            "arena": {"space": ["p1.01022"], "ground": []},
            "players": {
                "p1": {"force": step["at"] + 1, "build_points": 4, "passed": False, "hand": 2,
                       "units": {"p1.01022": {"damage": step["at"], "tapped": True}}},
                "p2": {"force": 0, "passed": True, "hand": 1, "units": {}},
            },
        }
    return data


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with launch_browser() as chromium:
        yield chromium


def test_a_game_without_a_renderer_is_drawn_generically(browser: Any, tmp_path: Path) -> None:
    data = other_game()
    html = tmp_path / "other.html"
    html.write_text(page(copy.deepcopy(data)), encoding="utf-8")
    opened = GuardedTab(browser, None, offline=True, viewport={"width": 1200, "height": 900})
    context, tab, errors = opened.context, opened.page, opened.errors
    tab.goto(html.as_uri() + "#step-2")
    tab.wait_for_selector("#viewer[data-ready=true]")
    assert errors == []
    assert tab.locator(".v-json").count() == 0  # drawn, not dumped
    names = {p["id"]: p["name"] for p in data["players"]}
    panels = tab.locator(".v-player[data-player]")
    assert tab.locator('.v-player[data-player="p1"] .v-pname').inner_text() == names["p1"]
    assert tab.locator('.v-player[data-player="p1"] [data-field=force] b').inner_text() == "3"
    assert tab.locator('.v-player[data-player="p2"] [data-field=passed] b').inner_text() == "yes"
    unit = tab.locator('.v-player[data-player="p1"] .v-card[data-ref="p1.01022"]')
    assert unit.locator(".v-cname").inner_text() == data["cards"]["01022"]["name"]  # a name, not the code
    assert unit.locator("[data-field=damage] b").inner_text() == "2"
    assert "Tusken Raider" in tab.locator('[data-zone="space"]').inner_text()
    assert panels.count() == 3  # the table's shared zones, then each player
    tab.keyboard.press("Home")
    assert unit.locator("[data-field=damage] b").inner_text() == "0"
    tab.screenshot(path=str(tmp_path / "generic.png"), full_page=True)
    context.close()
