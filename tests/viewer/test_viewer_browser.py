"""The exported viewer page in a real headless Chromium (Debian's ``/usr/bin/chromium``, driven by
playwright; no browser is downloaded): opened from file:// with every other request refused, it
draws the table the engine's state view describes, scrubs with the keyboard, follows deep links,
hides hands by perspective, shows annotations and obeys the embed options.

``ARBITER_VIEWER_SCREENSHOT=docs/viewer.png`` makes the mid-game test write its screenshot there
too (the one in the README); screenshots otherwise go to the test's temporary folder.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from arbiter.cli import main
from judge.rules import index
from tests.browser import CHROMIUM, SKIP_REASON, GuardedTab, launch_browser
from tests.helpers import EXAMPLES_DIR, ROOT, screenshot
from tests.viewer.views import views_of

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason=SKIP_REASON)

GAME = ROOT / "tests" / "replays" / "golden" / "logs" / "selfplay-golden-5.json"
CHOICES = EXAMPLES_DIR / "choices-order-guardian-redeploy.json"
MID_GAME = 30  # dice in both pools, damage, shields and upgrades on the table
NOTE = "The Speeder Bike goes on the Stormtrooper: watch its 2RD1 face next round."
EARLY = (5, "An early plan </script> <b>not bold</b> &amp;")  # text, never markup


def export(log: Path, out: Path, *extra: str) -> Path:
    result = CliRunner().invoke(main, ["export-html", str(log), "-o", str(out), *extra], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return out


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("viewer")
    notes = folder / "notes.json"
    notes.write_text(json.dumps([{"at": MID_GAME, "note": NOTE, "highlight": True},
                                 {"at": EARLY[0], "note": EARLY[1]}]))
    return {"game": export(GAME, folder / "game.html", "--annotations", str(notes)),
            "choices": export(CHOICES, folder / "choices.html")}


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with launch_browser() as chromium:
        yield chromium


class Page(GuardedTab):
    """One page in a fresh offline context that refuses every request but file://."""

    def __init__(self, browser: Any) -> None:
        super().__init__(browser, "file:", offline=True, viewport={"width": 1400, "height": 1000})

    def open(self, url: str) -> Any:
        self.page.goto(url)
        self.page.wait_for_selector("#viewer[data-ready=true]")
        return self.page

    def step(self) -> int:
        return int(self.page.get_attribute("#viewer", "data-step"))


@pytest.fixture()
def tab(browser: Any) -> Iterator[Page]:
    page = Page(browser)
    yield page
    page.check()  # no script error, and the page asked for nothing beyond its own file


def drawn_table(page: Any) -> dict[str, Any]:
    """What the page draws, read from the DOM."""
    return page.evaluate("""() => {
      const out = {};
      for (const p of document.querySelectorAll('.v-player')) {
        const chars = {}, pool = {};
        for (const c of p.querySelectorAll('.v-card[data-damage]')) {
          chars[c.dataset.ref] = {damage: +c.dataset.damage, shields: +c.dataset.shields,
            exhausted: c.dataset.exhausted === 'true', defeated: c.dataset.defeated === 'true',
            upgrades: [...c.querySelectorAll('li[data-upgrade]')].map(u => u.dataset.upgrade),
            name: c.querySelector('.v-cname').textContent,
            tags: [...c.querySelectorAll('.v-tag')].map(t => t.textContent)};
        }
        for (const d of p.querySelectorAll('[data-die]')) pool[d.dataset.die] = d.querySelector('.v-die').dataset.face;
        const hand = p.querySelector('[data-zone=hand]');
        out[p.dataset.player] = {resources: +p.dataset.resources,
          shown: Object.fromEntries([...p.querySelectorAll('.v-stat')].map(
            s => [s.dataset.field, +s.querySelector('b').textContent])), hand: +p.dataset.hand, deck: +p.dataset.deck,
          characters: chars, pool: pool, handVisible: hand.dataset.visible === 'true',
          handChips: [...hand.querySelectorAll('.v-chip')].map(c => c.textContent),
          backs: hand.querySelectorAll('.v-back').length};
      }
      return out;
    }""")


def assert_table(page: Any, view: dict[str, Any], names: dict[str, str]) -> None:
    drawn = drawn_table(page)
    assert set(drawn) == set(view["players"])
    for pid, player in view["players"].items():
        got = drawn[pid]
        assert got["resources"] == player["resources"]
        assert got["hand"] == player["hand"] and got["deck"] == player["deck"]
        assert got["shown"] == {"resources": player["resources"], "hand": player["hand"], "deck": player["deck"],
                                "discard": len(player["discard"])}
        assert got["pool"] == player["pool"]
        assert set(got["characters"]) == set(player["characters"])
        for ref, ch in player["characters"].items():
            card = got["characters"][ref]
            assert (card["damage"], card["shields"], card["exhausted"], card["defeated"]) == (
                ch["damage"], ch["shields"], ch["exhausted"], ch["defeated"]), ref
            assert card["upgrades"] == ch["upgrades"]
            assert f"damage {ch['damage']}" in card["tags"]
            assert (f"shields {ch['shields']}" in card["tags"]) == bool(ch["shields"])
            assert ("exhausted" in card["tags"]) == ch["exhausted"]
            assert card["name"] == names[ref]  # a name, not the code


def card_names(page: Any) -> dict[str, str]:
    return page.evaluate("""() => {
      const d = window.arbiterViewer.data, out = {};
      for (const [ref, e] of Object.entries(d.refs)) if (e.die === undefined) out[ref] = d.cards[e.code].name;
      return out;
    }""")


def test_mid_game_table_matches_the_state_view(tab: Page, pages: dict[str, Path], tmp_path: Path) -> None:
    views = views_of(json.loads(GAME.read_text(encoding="utf-8")))
    page = tab.open(pages["game"].as_uri() + f"#step-{MID_GAME}")
    assert tab.step() == MID_GAME
    view = views.views[MID_GAME]
    assert sum(len(p["pool"]) for p in view["players"].values()) >= 4  # the step shows what it should
    assert any(c["shields"] for p in view["players"].values() for c in p["characters"].values())
    names = card_names(page)
    assert_table(page, view, names)
    dice = page.locator(".v-pooldie .v-die")
    assert dice.count() == sum(len(p["pool"]) for p in view["players"].values())
    first_face = next(iter(next(p for p in view["players"].values() if p["pool"])["pool"].values()))
    tile = page.locator(f'.v-pooldie .v-die[data-face="{first_face}"]').first
    assert tile.inner_text().replace("\n", "") == first_face.replace("-", "\u2013")
    battlefield = page.locator("[data-battlefield]").inner_text()
    assert view["battlefield"]["card"] not in battlefield and "controlled by" in battlefield
    screenshot(page, tmp_path, "mid-game.png", "ARBITER_VIEWER_SCREENSHOT", min_bytes=20_000, full_page=True)


def test_keyboard_scrubs_and_every_step_is_drawn_right(tab: Page, pages: dict[str, Path], tmp_path: Path) -> None:
    views = views_of(json.loads(GAME.read_text(encoding="utf-8")))
    last = len(views.views) - 1
    page = tab.open(pages["game"].as_uri())
    assert tab.step() == 0
    names = card_names(page)
    page.locator("body").focus()
    for at in range(1, last + 1):
        page.keyboard.press("ArrowRight")
        assert tab.step() == at
        if at % 7 == 0 or at == last:
            # the URL follows at most every 250 ms while moving fast; the last step wins
            page.wait_for_function(f"location.hash === '#step-{at}'", timeout=2_000)
            assert_table(page, views.views[at], names)
    page.keyboard.press("ArrowRight")
    assert tab.step() == last
    assert page.locator(".v-step h2").inner_text().startswith(f"Step {last}")
    page.keyboard.press("Home")
    assert tab.step() == 0
    assert_table(page, views.views[0], names)
    page.keyboard.press("ArrowLeft")
    assert tab.step() == 0
    page.keyboard.press("End")
    assert tab.step() == last
    page.keyboard.press("Home")
    page.keyboard.press(" ")  # Space plays and pauses
    assert page.get_attribute("#viewer", "data-playing") == "true"
    page.keyboard.press(" ")
    assert page.get_attribute("#viewer", "data-playing") == "false"
    page.keyboard.press("End")
    page.locator("#v-scrubber").focus()  # keys on the scrubber move one step, not two
    page.keyboard.press("ArrowLeft")
    assert tab.step() == last - 1
    page.locator("#v-scrubber").fill("12")
    assert tab.step() == 12
    assert_table(page, views.views[12], names)
    page.screenshot(path=str(tmp_path / "step-12.png"))


def test_markers_on_the_scrubber(tab: Page, pages: dict[str, Path]) -> None:
    views = views_of(json.loads(GAME.read_text(encoding="utf-8")))
    page = tab.open(pages["game"].as_uri())
    rounds = [at for at in range(1, len(views.views)) if views.views[at]["round"] != views.views[at - 1]["round"]]
    assert rounds
    drawn = [int(x) for x in page.eval_on_selector_all(".v-mark.v-round", "els => els.map(e => e.dataset.at)")]
    assert drawn == rounds
    assert page.locator(".v-mark.v-turn").count() > 0
    assert page.locator(".v-mark.v-ann").count() == 2


def test_deep_link_opens_at_a_step_and_follows_hash_changes(tab: Page, pages: dict[str, Path]) -> None:
    views = views_of(json.loads(GAME.read_text(encoding="utf-8")))
    page = tab.open(pages["game"].as_uri() + "#step-17")
    assert tab.step() == 17
    assert page.locator(".v-step h2").inner_text().startswith("Step 17")
    assert_table(page, views.views[17], card_names(page))
    page.evaluate("location.hash = '#step-44'")
    page.wait_for_function("document.getElementById('viewer').dataset.step === '44'")
    assert_table(page, views.views[44], card_names(page))
    page.locator("#v-next").click()
    assert tab.step() == 45
    page.wait_for_function("location.hash === '#step-45'", timeout=2_000)


def test_perspective_hides_hands(tab: Page, pages: dict[str, Path]) -> None:
    views = views_of(json.loads(GAME.read_text(encoding="utf-8")))
    page = tab.open(pages["game"].as_uri() + f"#step-{MID_GAME}")
    hands = views.hands[MID_GAME]
    names = page.evaluate("() => window.arbiterViewer.data.cards")
    drawn = drawn_table(page)
    for pid, hand in hands.items():
        assert drawn[pid]["handVisible"] is True
        assert drawn[pid]["handChips"] == [names[c]["name"] for c in hand]
    page.select_option("#v-perspective", "p1")
    drawn = drawn_table(page)
    assert drawn["p1"]["handVisible"] is True and drawn["p1"]["handChips"] == [names[c]["name"] for c in hands["p1"]]
    assert drawn["p2"]["handVisible"] is False
    assert drawn["p2"]["backs"] == len(hands["p2"]) > 0
    text = page.locator('.v-player[data-player="p2"] [data-zone=hand]').inner_text()
    assert not any(names[c]["name"] in text for c in hands["p2"])
    page.select_option("#v-perspective", "spectator")
    drawn = drawn_table(page)
    assert not drawn["p1"]["handVisible"] and not drawn["p2"]["handVisible"]
    page.keyboard.press("ArrowRight")  # the perspective stays as the step changes
    assert drawn_table(page)["p1"]["handVisible"] is False
    other = tab.open(pages["game"].as_uri() + f"?perspective=p2#step-{MID_GAME}")
    drawn = drawn_table(other)
    assert drawn["p2"]["handVisible"] and not drawn["p1"]["handVisible"]


def test_annotations_and_step_details(tab: Page, pages: dict[str, Path]) -> None:
    page = tab.open(pages["game"].as_uri() + f"#step-{MID_GAME}")
    note = page.locator(".v-annotation")
    assert note.count() == 1 and note.inner_text() == NOTE
    assert page.locator(".v-step.v-hl").count() == 1
    data = page.evaluate("() => window.arbiterViewer.data")
    step = data["steps"][MID_GAME]
    events = page.locator(".v-events li").all_inner_texts()
    assert events == [e["text"] for e in step["events"]]
    changes = page.locator(".v-changes li").all_inner_texts()
    assert changes == step["changes"] and changes
    rule = step["rules"][0]
    details = page.locator(f'.v-rules details[data-rule="{rule}"]')
    assert not details.locator("p").is_visible()
    details.locator("summary").click()
    assert details.locator("p").inner_text() == index.summary(rule)
    page.keyboard.press("ArrowRight")
    assert page.locator(".v-annotation").count() == 0
    page.evaluate(f"location.hash = '#step-{EARLY[0]}'")
    page.wait_for_function(f"document.getElementById('viewer').dataset.step === '{EARLY[0]}'")
    assert page.locator(".v-annotation").inner_text() == EARLY[1]  # as written: the markup in it is text
    assert page.locator(".v-annotation b").count() == 0 and page.locator(".v-step.v-hl").count() == 0


def test_illegal_and_disputed_steps(tab: Page, pages: dict[str, Path], tmp_path: Path) -> None:
    page = tab.open(pages["choices"].as_uri() + "#step-1")
    banner = page.locator(".v-illegal")
    assert banner.get_attribute("data-error-rule") == "destiny.abilities.resolve-fully"
    assert "Rejected, as the log expects" in banner.inner_text()
    assert index.summary("destiny.abilities.resolve-fully") in banner.inner_text()
    page.screenshot(path=str(tmp_path / "rejected.png"))
    page.keyboard.press("End")
    dispute = page.locator(".v-dispute")
    assert "Ana activates her Tusken Raider" in dispute.inner_text()
    assert "Ruling: legal" in dispute.inner_text()
    assert page.locator(".v-illegal").count() == 0
    assert re.search(r"Kylo Ren takes 3 damage \(8 → 11\)", page.locator(".v-changes").inner_text())


def test_an_illegal_step_stops_the_game(tab: Page, tmp_path: Path) -> None:
    log = json.loads(CHOICES.read_text(encoding="utf-8"))
    del log["steps"][0]["expect"]
    path = tmp_path / "illegal.json"
    path.write_text(json.dumps(log))
    page = tab.open(export(path, tmp_path / "illegal.html").as_uri() + "#step-1")
    assert "Illegal step" in page.locator(".v-illegal").inner_text()
    assert page.locator(".v-mark.v-bad").count() == 1
    assert "stops at step 1" in page.locator("#v-sub").inner_text()


def test_embed_mode_hides_controls_and_autoplays(tab: Page, pages: dict[str, Path], tmp_path: Path) -> None:
    page = tab.open(pages["game"].as_uri() + "?embed=1&start=17&controls=0")
    assert tab.step() == 17
    assert not page.locator("#v-controls").is_visible()
    assert not page.locator("#v-scrubber").is_visible()
    assert not page.locator(".v-list").is_visible()
    assert page.locator("#v-table").is_visible() and page.locator("#v-step").is_visible()
    page.screenshot(path=str(tmp_path / "embed.png"))
    page.keyboard.press("ArrowRight")  # keys still move
    assert tab.step() == 18
    playing = tab.open(pages["game"].as_uri() + "?embed=1&start=3&autoplay=1&speed=4")
    assert playing.locator("#v-controls").is_visible()
    playing.wait_for_function("+document.getElementById('viewer').dataset.step >= 5", timeout=10_000)
    assert playing.get_attribute("#viewer", "data-playing") == "true"
    playing.locator("#v-play").click()
    assert playing.get_attribute("#viewer", "data-playing") == "false"
    stopped = tab.step()
    playing.wait_for_timeout(700)
    assert tab.step() == stopped


def test_start_option_and_play_button(tab: Page, tmp_path: Path) -> None:
    page = tab.open(export(GAME, tmp_path / "start.html", "--start", "40").as_uri())
    assert tab.step() == 40
    page.select_option("#v-speed", "4")
    page.locator("#v-play").click()
    page.wait_for_function("+document.getElementById('viewer').dataset.step >= 42", timeout=10_000)
    page.keyboard.press(" ")  # on the focused play button: it pauses once, not twice
    assert page.get_attribute("#viewer", "data-playing") == "false"
    page.locator(".v-rules summary").first.focus()
    page.keyboard.press(" ")  # a rule's summary opens; the replay does not play
    assert page.get_attribute("#viewer", "data-playing") == "false"
    assert page.locator(".v-rules details[open]").count() == 1
    page.locator("#v-last").click()
    last = tab.step()
    page.locator("#v-first").click()
    assert tab.step() == 0 and last > 40
    page.locator("#v-list-box summary").click()
    page.locator('#v-list li[data-at="9"]').click()
    assert tab.step() == 9


def test_without_the_browser_the_tests_are_skipped_and_said_so(tmp_path: Path) -> None:
    env = {**os.environ, "ARBITER_CHROMIUM": str(tmp_path / "no-chromium")}
    run = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-rs",
                          str(Path(__file__)), "-k", "not without_the_browser"],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    assert f"browser tests skipped: no {tmp_path / 'no-chromium'}" in run.stdout
    assert re.search(r"\b1[0-9] skipped\b", run.stdout), run.stdout
    assert " passed" not in run.stdout
