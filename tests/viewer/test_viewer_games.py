"""The viewer draws each game's own table (replays/viewer_assets/viewer_<game>.js) from the engine's
state view: a Relic encounter and a SW TCG game, in headless Chromium, offline; what is drawn is
compared with the state view after each step."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from judge.games import registry
from replays.viewer import page, viewer_json
from tests.browser import CHROMIUM, SKIP_REASON, GuardedTab, launch_browser
from tests.helpers import EXAMPLES_DIR
from tests.viewer.views import views_of

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason=SKIP_REASON)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with launch_browser() as chromium:
        yield chromium


def opened(browser: Any, log: dict[str, Any], tmp_path: Path, at: int) -> tuple[Any, Any, list[str]]:
    return opened_data(browser, viewer_json(log), tmp_path, at)


def opened_data(browser: Any, data: dict[str, Any], tmp_path: Path, at: int) -> tuple[Any, Any, list[str]]:
    """The exported page of viewer data ``data`` opened at step ``at``: its context, tab and errors."""
    html = tmp_path / "game.html"
    html.write_text(page(data), encoding="utf-8")
    opened = GuardedTab(browser, None, offline=True, viewport={"width": 1400, "height": 1000})
    opened.page.goto(html.as_uri() + f"#step-{at}")
    opened.page.wait_for_selector("#viewer[data-ready=true]")
    return opened.context, opened.page, opened.errors


def test_a_relic_encounter_shows_every_die_its_rerolls_and_explosions(browser: Any, tmp_path: Path) -> None:
    log = json.loads((EXAMPLES_DIR / "relic" / "rerolled-six-explodes.json").read_text(encoding="utf-8"))
    views = views_of(log).views
    at = next(i for i, v in enumerate(views) if v.get("contest") and any(
        len(d.get("rolls", [])) > 1 for d in v["contest"].get("dice", [])))  # a step after a reroll
    context, tab, errors = opened(browser, log, tmp_path, at)
    contest = views[at]["contest"]
    script = ("els => els.map(e => [e.dataset.die, +e.dataset.result, e.dataset.exploded === 'true', "
              "e.querySelectorAll('.v-roll').length])")
    drawn = tab.eval_on_selector_all(".v-rdie", script)
    assert drawn == [[d["id"], d["result"], d["exploded"], len(d["rolls"])] for d in contest["dice"]]
    assert tab.locator(".v-rdie.v-exploded .v-roll.v-old").count() >= 1  # the rerolled result struck out
    assert tab.locator("[data-contest] [data-field=player_score] b").inner_text() == str(contest["player_score"])
    for pid, p in views[at]["players"].items():
        panel = tab.locator(f'.v-player[data-player="{pid}"]')
        assert panel.get_attribute("data-life") == str(p["life"])
        assert panel.get_attribute("data-influence") == str(p["influence"])
        for asset in p["assets"]:
            tile = panel.locator(f'.v-card[data-ref="{asset["ref"]}"]')
            assert tile.get_attribute("data-charges") == str(asset["charges"])
            assert tile.locator(".v-cname").inner_text() == asset["name"]
    tab.keyboard.press("End")
    tab.wait_for_function(f"document.getElementById('viewer').dataset.step === '{len(views) - 1}'")
    assert tab.locator(".v-rdie").count() == len((views[-1].get("contest") or {}).get("dice", []))
    assert errors == []
    tab.screenshot(path=str(tmp_path / "relic.png"), full_page=True)
    context.close()


def test_a_swtcg_game_shows_arenas_units_pilots_and_the_chance_to_play(browser: Any, tmp_path: Path) -> None:
    from replays.selfplay import play_game

    log = play_game("viewer-1", *registry.get("swtcg").selfplay_sides()[:2], game="swtcg").log
    views = views_of(log).views
    at = next(i for i, v in enumerate(views) if v.get("pilots") and any(v["arenas"].values()))
    context, tab, errors = opened(browser, log, tmp_path, at)
    for step in (at, len(views) // 2, len(views) - 1):
        tab.evaluate(f"window.arbiterViewer.go({step})")
        view = views[step]
        for arena, units in view["arenas"].items():
            drawn = tab.eval_on_selector_all(
                f'[data-arena="{arena}"] .v-card', "els => els.map(e => [e.dataset.ref, +e.dataset.damage, "
                "e.dataset.tapped === 'true'])")
            assert sorted(drawn) == sorted([ref, u["damage"], u["tapped"]] for ref, u in units.items()), (step, arena)
        for pilot, unit in view["pilots"].items():
            if any(unit in units for units in view["arenas"].values()):
                assert tab.locator(f'.v-card[data-ref="{unit}"] [data-pilot="{pilot}"]').count() == 1
        for pid, p in view["players"].items():
            panel = tab.locator(f'.v-player[data-player="{pid}"]')
            assert (panel.get_attribute("data-force"), panel.get_attribute("data-build")) == (
                str(p["force"]), str(p["build"]))
        if view["turn"]:
            assert tab.locator(f'[data-chance="{view["turn"]}"]').count() == 1
    assert errors == []
    tab.screenshot(path=str(tmp_path / "swtcg.png"), full_page=True)
    context.close()


def test_a_swtcg_table_shows_the_location_in_its_arena_and_the_equipment_on_its_unit(browser: Any,
                                                                                      tmp_path: Path) -> None:
    log = json.loads((EXAMPLES_DIR / "swtcg" / "mission-location-equip.json").read_text(encoding="utf-8"))
    views = views_of(log).views
    last = len(views) - 1
    assert views[last]["locations"] == {"ground": {"p1.NS-CCB": {"code": "NS-CCB", "tapped": False, "damage": 0,
                                                                  "deployed_at": 1}}}
    context, tab, errors = opened(browser, log, tmp_path, last)
    assert tab.locator('[data-arena="ground"] [data-location="p1.NS-CCB"]').count() == 1
    assert tab.locator('[data-arena="space"] [data-location]').count() == 0
    assert tab.locator('.v-card[data-ref="p1.DS-ST"] [data-equipment="p1.NS-BR"]').count() == 1
    assert tab.locator('[data-arena="ground"] .v-card').count() == 0  # a Location is no unit tile
    tab.evaluate("window.arbiterViewer.go(0)")
    assert tab.locator("[data-location]").count() == 0 and tab.locator("[data-equipment]").count() == 0
    assert errors == []
    context.close()


def test_a_swtcg_unit_another_player_controls_is_drawn_on_its_controller_s_side_with_its_owner(
        browser: Any, tmp_path: Path) -> None:
    log = json.loads((EXAMPLES_DIR / "swtcg" / "control-luke-takes-vader.json").read_text(encoding="utf-8"))
    views = views_of(log).views
    taken = next(i for i, v in enumerate(views) if v["arenas"]["character"].get("p1.DS-VK", {}).get("controller"))
    context, tab, errors = opened(browser, log, tmp_path, taken)
    vader = '[data-arena="character"] [data-side="p2"] .v-card[data-ref="p1.DS-VK"]'
    assert tab.locator(vader).count() == 1
    assert tab.locator('[data-arena="character"] [data-side="p1"] .v-card[data-ref="p1.DS-VK"]').count() == 0
    assert tab.locator(vader + ' [data-owner="p1"]').inner_text() == "Ana's card, controlled for now"
    assert tab.locator("[data-owner]").count() == 1  # only the taken unit
    tab.screenshot(path=str(tmp_path / "control.png"), full_page=True)
    tab.keyboard.press("End")
    tab.wait_for_function(f"document.getElementById('viewer').dataset.step === '{len(views) - 1}'")
    assert tab.locator('[data-arena="character"] [data-side="p1"] .v-card[data-ref="p1.DS-VK"]').count() == 1
    assert tab.locator("[data-owner]").count() == 0  # back with its owner
    assert errors == []
    context.close()


def test_damage_waiting_from_a_battle_card_names_no_missing_source() -> None:
    """A SW TCG ``pending`` event whose damage has no unit as its source (a battle card's) is worded
    without "from none"; with a source, the source is named, in every language."""
    from i18n import text
    from replays.viewer import Names, describe_event

    for lang in ("en", "pl", "ru"):
        info = {"refs": {"p1.LS-XW": {"code": "LS-XW", "player": "p1"}}, "cards": {"LS-XW": {"name": "X-wing"}}}
        names = Names([{"id": "p1", "name": "Dark"}], info, text(lang))
        bare = describe_event({"event": "pending", "amount": 2, "source": None, "target": "p1.LS-XW"}, names)
        sourced = describe_event({"event": "pending", "amount": 2, "source": "p1.DS-TIE", "target": "p1.LS-XW"},
                                 names)
        assert "none" not in bare and "None" not in bare and "2" in bare, (lang, bare)
        assert "DS-TIE" in sourced or "TIE" in sourced, (lang, sourced)
        assert len(sourced) > len(bare)


def test_a_swtcg_chance_and_effect_are_worded_in_the_readers_language() -> None:
    """The kind of a chance to play and what an ``effect`` event does are values the viewer words in
    Polish and Russian, not left in English."""
    from i18n import text
    from replays.viewer import Names, describe_event

    info = {"refs": {"p1.DS-VK": {"code": "DS-VK", "player": "p1"}}, "cards": {"DS-VK": {"name": "Darth Vader"}}}
    chance = {"event": "chance", "kind": "general", "player": "p2", "passes": 0, "may": []}
    taken = {"event": "effect", "source": "p2.LS-LN:play", "effect": "gain-control", "amount": 10,
             "target": "p1.DS-VK"}
    words = {}
    for lang in ("en", "pl", "ru"):
        names = Names([{"id": "p2", "name": "Ben"}], info, text(lang))
        words[lang] = (describe_event(chance, names), describe_event(taken, names))
    assert words["en"][0] == "Ben has a chance to play (general)"
    assert words["en"][1].startswith("gain-control → Darth Vader")
    assert "(ogólna)" in words["pl"][0] and "(общий)" in words["ru"][0]
    assert words["pl"][1].startswith("przejęcie kontroli") and words["ru"][1].startswith("захват контроля")
    assert "Darth Vader" in words["pl"][1] and "general" not in words["pl"][0] + words["ru"][0]


def test_a_relic_hand_shows_its_cards_by_name(browser: Any, tmp_path: Path) -> None:
    """A Relic hand, as the position holds it ({ref, code, charges} a card), is drawn card by card by
    name (it was drawn as '[object Object]' a card)."""
    from replays.selfplay import play_game

    log = play_game("viewer-relic-hand", *registry.get("relic").selfplay_sides()[:2], game="relic").log
    hands = views_of(log).hands
    at, pid = next((i, pid) for i, by_player in enumerate(hands) for pid, hand in by_player.items() if hand)
    data = viewer_json(log)
    want = [data["cards"][data["refs"][c["ref"]]["code"]]["name"] for c in hands[at][pid]]
    context, tab, errors = opened(browser, log, tmp_path, at)
    drawn = tab.locator(f'.v-player[data-player="{pid}"] [data-zone="hand"] .v-chip').all_inner_texts()
    assert drawn == want and all("object" not in text for text in drawn)
    assert errors == []
    context.close()


def test_a_link_past_the_last_step_shows_the_last_and_names_it_and_notes_past_it_are_not_drawn(
        browser: Any, tmp_path: Path) -> None:
    """The hash changed by hand to a step past the end: the last step is shown and the URL names it
    (it kept naming the step asked for). A note past the last step (an illegal step ended the replay
    first) puts no marker beyond the scrubber's end."""
    from replays.selfplay import play_game

    log = play_game("viewer-past-end", "AW-H", "AW-V", policy="heuristic").log
    data = viewer_json(log)
    last = len(data["steps"]) - 1
    data["annotations"] = [{"at": 1, "note": "shown"}, {"at": last + 5, "note": "past the end"}]
    context, tab, errors = opened_data(browser, data, tmp_path, 1)
    assert tab.locator(".v-mark.v-ann").count() == 1
    tab.evaluate(f"location.hash = '#step-{last + 40}'")
    tab.wait_for_function(f"document.getElementById('viewer').dataset.step === '{last}'")
    tab.wait_for_function(f"location.hash.indexOf('step-{last}') >= 0 && location.hash.indexOf('step-{last + 40}') < 0")
    tab.evaluate(f"location.hash = '#step-{last + 40}'")  # (asked again while at the last step)
    tab.wait_for_function(f"location.hash.indexOf('step-{last + 40}') < 0")
    assert tab.evaluate("document.getElementById('viewer').dataset.step") == str(last)
    assert errors == []
    context.close()


def test_a_relic_skill_test_names_its_target_and_a_confrontation_says_so_in_every_language() -> None:
    """A test has no enemies: it is worded with its target, never "against no" (a flag's value as a
    word), and a Confrontation's test says it is the scenario's."""
    from i18n import text
    from replays.viewer import Names, describe_event

    test = {"event": "contest-begins", "player": "p1", "contest": "test", "characteristic": "strength",
            "value": 9, "confrontation": False}
    for lang in ("en", "pl", "ru"):
        names = Names([{"id": "p1", "name": "Ana"}], {}, text(lang))
        plain = describe_event(test, names)
        scenario = describe_event({**test, "confrontation": True}, names)
        assert "9" in plain and "Ana" in plain and len(scenario) > len(plain), (lang, plain, scenario)
        for word in ("no", "yes", "nie", "tak", "нет", "да", "False", "True"):
            assert f" {word} " not in f" {plain} " and f" {word} " not in f" {scenario} ", (lang, word)
    en = Names([{"id": "p1", "name": "Ana"}], {}, text("en"))
    assert describe_event(test, en) == "Ana begins a test of strength, target 9"
    assert describe_event({**test, "confrontation": True}, en) == \
        "Ana begins a test of strength in the scenario's Confrontation, target 9"


def test_an_intercept_that_cannot_take_the_attack_names_the_unit_still_attacked() -> None:
    """swtcg.keywords.intercept-illegal-target: an Intercept whose unit may not be attacked leaves the
    attack where it was; the words say so rather than naming the defender as the interceptor."""
    from i18n import text
    from replays.viewer import Names, describe_event

    info = {"refs": {"p2.LS-RT": {"code": "LS-RT", "player": "p2"}, "p2.LS-TG": {"code": "LS-TG", "player": "p2"}},
            "cards": {"LS-RT": {"name": "Rebel Troopers"}, "LS-TG": {"name": "Jedi Temple Guard"}}}
    taken = {"event": "intercept", "player": "p2", "ability": "p2.LS-RT:intercept", "defender": "p2.LS-RT",
             "changed": True}
    kept = {**taken, "defender": "p2.LS-TG", "changed": False}
    for lang in ("en", "pl", "ru"):
        names = Names([{"id": "p2", "name": "Luke"}], info, text(lang))
        took, stayed = describe_event(taken, names), describe_event(kept, names)
        assert took.startswith("Rebel Troopers") and "Jedi Temple Guard" not in took, (lang, took)
        assert "Jedi Temple Guard" in stayed and not stayed.startswith("Jedi Temple Guard"), (lang, stayed)
    en = Names([{"id": "p2", "name": "Luke"}], info, text("en"))
    assert describe_event(kept, en) == \
        "Rebel Troopers (intercept) cannot take the attack: it stays on Jedi Temple Guard"


def test_every_reason_a_destiny_card_has_no_effect_is_worded_in_polish_and_russian() -> None:
    """``no-effect``'s ``why`` is a fixed English phrase of the card's code: each is a value the viewer
    words (VALUE_WORDS) and the catalogs translate."""
    import re
    from pathlib import Path

    from i18n import text
    from replays.viewer import VALUE_WORDS, Names, describe_event

    cards = Path(__file__).resolve().parents[2] / "judge" / "games" / "destiny" / "cards"
    whys = {m for f in cards.glob("*.py")
            for m in re.findall(r'NoEffectRecord\(\s*\w+,\s*"([^"]+)"', f.read_text(encoding="utf-8"))}
    assert len(whys) >= 4
    for why in sorted(whys):
        assert why in VALUE_WORDS, why
        for lang in ("pl", "ru"):
            words = describe_event({"event": "no-effect", "source": "p1.x", "why": why}, Names([], {}, text(lang)))
            assert why not in words, (lang, words)
