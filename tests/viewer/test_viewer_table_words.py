"""What the viewer's data says of a SW TCG and a Relic table, in plain words: a card that moves
from one zone to another (the build zone into play), one that pilots another, a tapped unit, a
declared bonus, a step's summary, each with card and player names and never an engine ID or a
whole record; and the words the page draws a game's table with (``words``), in the data's language."""

from __future__ import annotations

import json
import re
from functools import cache
from typing import Any

import pytest

from replays.format import parse_log
from replays.viewer import KEY_WORDS, VALUE_WORDS, viewer_data
from tests.helpers import EXAMPLES_DIR

SWTCG = sorted((EXAMPLES_DIR / "swtcg").glob("*.json"))
RELIC = sorted((EXAMPLES_DIR / "relic").glob("*.json"))
#: an engine ID in words: a SW TCG or Relic card reference (p1.DS-TIE, p1.NS-HE, LS-SEC#0 aside)
REF = re.compile(r"\bp\d\.[A-Za-z0-9-]+")


@cache
def data_of(name: str, lang: str = "en") -> dict[str, Any]:
    return viewer_data(parse_log(json.loads((EXAMPLES_DIR / name).read_text(encoding="utf-8"))), None, lang)


def test_a_card_built_then_deployed_moves_from_its_players_build_zone_into_play() -> None:
    steps = data_of("swtcg/selfplay-game.json")["steps"]
    assert "TIE Fighter goes to DARK-60's build zone" in steps[16]["changes"]
    assert steps[17]["changes"] == ["TIE Fighter moves from DARK-60's build zone into play (Space)"]


def test_a_pilot_pilots_its_unit_in_one_line_and_leaves_with_it() -> None:
    steps = data_of("swtcg/selfplay-game.json")["steps"]
    moved = [c for c in steps[18]["changes"] if "TIE" in c]
    assert moved == ["TIE Pilot pilots TIE Fighter"]
    assert "TIE Pilot no longer pilots TIE Fighter" in steps[31]["changes"]
    assert "TIE Fighter leaves play (Space)" in steps[31]["changes"]


def test_a_tapped_unit_is_said_to_be_tapped() -> None:
    changes = data_of("swtcg/selfplay-game.json")["steps"][40]["changes"]
    assert "Rebel Troopers is tapped" in changes
    assert not any("tapped:" in c for c in changes)


def test_a_mission_completed_from_the_build_zone_and_an_equipment_are_told_by_name() -> None:
    steps = data_of("swtcg/mission-location-equip.json")["steps"]
    assert "Han Enchained leaves Dark's build zone" in steps[2]["changes"]
    assert "Cloud City Battleground moves from Dark's build zone into play (Ground)" in steps[4]["changes"]
    assert "Stormtrooper Squad is equipped with Blaster Rifle" in steps[7]["changes"]


def test_a_declared_bonus_is_named_by_its_card_not_its_record() -> None:
    changes = data_of("relic/bonus-declared-late.json")["steps"][4]["changes"]
    assert "contest's declared + Bolt Pistol" in changes


@pytest.mark.parametrize("path", SWTCG + RELIC, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_what_changed_names_no_engine_id_and_dumps_no_record(path: Any) -> None:
    for step in data_of(f"{path.parent.name}/{path.name}")["steps"]:
        for line in step["changes"]:
            assert not REF.search(line), (step["at"], line)
            assert "code:" not in line and "'s's" not in line and "pilots's" not in line, (step["at"], line)


@pytest.mark.parametrize("path", SWTCG + RELIC, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_a_steps_summary_names_each_card_once(path: Any) -> None:
    data = data_of(f"{path.parent.name}/{path.name}")
    for step in data["steps"]:
        for card in data["cards"].values():
            name = re.escape(card["name"])
            assert not re.search(rf"{name} \({name}\)", step["summary"]), (step["at"], step["summary"])


def test_the_selfplay_summaries_read_plainly() -> None:
    steps = data_of("swtcg/selfplay-game.json")["steps"]
    assert steps[17]["summary"] == "DARK-60: deploy TIE Fighter"
    assert steps[30]["summary"] == "LIGHT-60: Millennium Falcon (A) attacks TIE Fighter"


def test_the_data_carries_the_words_of_the_tables_keys_and_values() -> None:
    en = data_of("swtcg/selfplay-game.json")["words"]
    assert en["keys"]["attacker"] == "attacker" and en["keys"]["purpose"] == "purpose"
    assert en["values"] == {}  # English values are shown as written
    pl = data_of("swtcg/selfplay-game.json", "pl")["words"]
    assert set(pl["keys"]) == set(KEY_WORDS) and set(pl["values"]) == set(VALUE_WORDS)
    assert {"use", "lucky", "red", "prepare"} <= set(VALUE_WORDS)


@pytest.mark.parametrize("lang", ["pl", "ru"])
def test_the_attack_under_way_and_the_may_words_are_translated(lang: str) -> None:
    # (the catalogs' words: fails until new-strings.json is merged into i18n/catalogs)
    words = data_of("swtcg/selfplay-game.json", lang)["words"]
    for key in ("attacker", "defender", "boosts", "purpose", "rolled", "attack"):
        assert words["keys"][key] != key, key
    for value in ("use", "lucky", "attack", "red", "prepare"):
        assert words["values"][value] != value, value


@pytest.mark.parametrize("lang", ["en", "pl", "ru"])
def test_the_battles_arena_is_named_once_in_the_top_bar(lang: str) -> None:
    """The SW TCG top bar reads ``battle_in`` then the arena's name ("bitwa na arenie" + "arena Space"
    said "arena" twice in Polish, "арене" + "арена" in Russian)."""
    from replays.viewer_words import ui_words

    words = ui_words(lang)
    for arena in ("arena_space", "arena_ground"):
        said = f"{words['battle_in']} {words[arena]}".lower().split()
        stems = [w[:4] for w in said if len(w) >= 4]
        assert len(stems) == len(set(stems)), said
