"""Importing the community SW TCG catalog: keyword text into engine abilities, every other text
marks the card not implemented, and such a card stops a replay where it matters."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from arbiter.cli import main
from judge.games.swtcg import importer
from judge.games.swtcg.cards import default_pool
from judge.games.swtcg.model import CardPool, Keyword, Static, X
from tests.judge.swtcg.table import Table, play

ROOT = Path(__file__).resolve().parents[3]


def _shared() -> Path:
    """The full catalog in the shared folder beside the repository (as tests/judge/destiny/swdb.py)."""
    for parent in ROOT.parents:
        if (parent / "shared" / "data" / "swtcg" / "cards.json").is_file():
            return parent / "shared" / "data" / "swtcg" / "cards.json"
    return ROOT / ".." / "shared" / "data" / "swtcg" / "cards.json"


def entry(**kw: Any) -> dict[str, Any]:
    base = {"card-id": "0123456789ab", "set-code": "ANH", "number": 7, "name": "Test Unit", "type": "Space",
            "side": "D", "cost": 3, "speed": 40, "power": 3, "health": 3, "subtype": "Imperial Starfighter",
            "text": ""}
    return {**base, **kw}


@pytest.mark.parametrize(("text", "keyword"), [
    ("Accuracy 1", Keyword("accuracy", 1)),
    ("Armor", Keyword("armor")),
    ("Critical Hit 2", Keyword("critical-hit", 2)),
    ("Lucky 3", Keyword("lucky", 3)),
    ("Shields 2", Keyword("shields", 2)),
    ("Stun 1", Keyword("stun", 1)),
    ("Overkill (When this unit attacks, you may divide hits...)", Keyword("overkill")),
    ("Intercept", Keyword("intercept")),
    ("Pay 2 Force -> Evade 1", Keyword("evade", 1, cost=2)),
    ("Pay X Force -> Evade X", Keyword("evade", X, cost=X)),
    ("Pay 1 Force -> Deflect 2", Keyword("deflect", 2, cost=1)),
    ("Pay 2 Force -> Intercept", Keyword("intercept", cost=2)),
    ("Pay 1 Force -> Retaliate 2", Keyword("retaliate", 2, cost=1)),
    ("Upkeep: Pay 1 build point or tap this unit.", Keyword("upkeep", options=(("build", 1), ("tap", 0)))),
    ("Upkeep: Pay 2 Force.", Keyword("upkeep", options=(("force", 2),))),
    ("Bounty: 1 build point.", Keyword("bounty", options=(("build", 1),))),
])
def test_keyword_text_becomes_an_ability(text: str, keyword: Keyword) -> None:
    card = importer.import_card(entry(text=text))
    assert card.implemented and card.keywords == (keyword,)


def test_pilot_text_becomes_the_pilot_bonuses() -> None:
    card = importer.import_card(entry(type="Character", subtype="Rebel Pilot", name="Ace (B)",
                                      text="Pay 1 Force -> Evade 1 | [Pilot] Speeder and Starfighter Pilot. "
                                           "The Speeder or Starfighter gets: * +20 speed. * Lucky 2."))
    assert card.implemented and card.version == "B" and card.name == "Ace"
    assert card.pilot is not None and card.pilot.kind == "Speeder/Starfighter" and card.pilot.speed == 20
    assert card.pilot.keywords == (Keyword("lucky", 2),) and card.keywords == (Keyword("evade", 1, cost=1),)


@pytest.mark.rules("swtcg.project.not-implemented")
def test_any_other_text_marks_the_card_not_implemented() -> None:
    card = importer.import_card(entry(text="Armor | When this unit is discarded, draw a card."))
    assert not card.implemented and card.unparsed == "When this unit is discarded, draw a card."
    assert not importer.import_card(entry(type="Battle", cost=None, text="Pay 1 Force -> Evade 1")).implemented
    assert not importer.import_card(entry(speed=None)).implemented  # variable stats
    assert importer.import_card(entry(text="")).implemented  # a unit with no text at all


def test_import_and_load_round_trip_on_inline_data() -> None:
    data = {"cards": [entry(), entry(number=8, name="Other (A)", text="Shields 1 | Draw a card."),
                      entry(number=7, name="Duplicate")]}
    result = importer.import_files({"mini.json": json.dumps(data).encode()})
    assert (result.cards, result.applied) == (2, 1)
    assert result.problems == ("ANH007: two cards with this code (the first is kept)",)
    pool = importer.load_cards(result.data)
    assert isinstance(pool, CardPool) and pool.cards["ANH008"].version == "A"
    assert "not implemented: Draw a card." in (importer.describe(pool, "ANH008") or "")
    bad = importer.import_files({"x.json": b"{not json"})
    assert bad.cards == 0 and bad.problems[0].startswith("x.json: not JSON")


@pytest.mark.rules("swtcg.project.not-implemented")
def test_a_card_the_engine_does_not_implement_stops_the_replay_where_it_matters() -> None:
    pool = CardPool(dict(default_pool().cards))
    odd = importer.import_card(entry(number=99, text="When this unit is discarded, draw a card."))
    pool.add(odd)
    t = (Table(step="build", arena=None, sentries=False).at(active="p1")
         .set("p1", hand=["DS-TIE"], build=3))
    t.pos["cards"]["p1.ANH099"] = {"code": "ANH099", "zone": "build", "counters": 3, "built": False}
    result, _ = play(t.log({"by": "p1", "do": "deploy", "card": "p1.ANH099"}), pool)
    assert result.error is not None and result.error.kind == "not-implemented"
    assert "draw a card" in result.error.message
    quiet, _ = play(t.log({"by": "p1", "do": "build", "card": "DS-TIE", "counters": 2}), pool)
    assert quiet.error is None  # partially built, its text does not matter yet


def test_the_catalog_imports_and_every_keyword_only_card_is_applied() -> None:
    path = _shared()
    if not path.is_file():
        pytest.fail(f"the SW TCG catalog is missing: no {path} (shared/data/swtcg beside the repository)",
                    pytrace=False)
    result = importer.import_files({"cards.json": path.read_bytes()})
    assert result.cards == 1324 and not result.problems
    keyword_only = 0
    for raw in json.loads(path.read_text(encoding="utf-8"))["cards"]:
        parts = [p.strip() for p in (raw["text"] or "").split(" | ") if p.strip()]
        unit = raw["type"] in ("Space", "Ground", "Character") and None not in (raw["speed"], raw["power"],
                                                                                raw["health"])
        if unit and parts and all(importer.parse_keyword(p) or importer.parse_upkeep(p) or importer.parse_bounty(p)
                                  for p in parts):
            keyword_only += 1
            assert importer.import_card(raw).implemented, raw["name"]
    assert keyword_only > 100
    assert result.applied >= keyword_only


def test_arbiter_cards_import_takes_the_catalog_file(tmp_path: Path) -> None:
    src = tmp_path / "catalog.json"
    src.write_text(json.dumps({"cards": [entry(), entry(number=8, text="Armor")]}))
    out = tmp_path / "cards.json"
    run = CliRunner().invoke(main, ["cards", "import", "--game", "swtcg", str(src), "--out", str(out)])
    assert run.exit_code == 0, run.output
    assert "2 cards" in run.output and "2 fully applied" in run.output
    shown = CliRunner().invoke(main, ["cards", "show", "--game", "swtcg", "--cards", str(out), "ANH008"])
    assert shown.exit_code == 0 and "Armor" in shown.output


def test_a_for_this_attack_ability_of_the_catalog_is_played_in_a_replay() -> None:
    raw = entry(number=50, type="Character", name="Duelist (A)", subtype="Jedi Knight", speed=60, power=2,
                health=3, text="Pay 1 Force -> Duelist gets +2 power for this attack. | Whenever this unit attacks, "
                                "gain 1 Force.")
    card = importer.import_card(raw)
    assert card.implemented and len(card.plays) == 1 and len(card.triggers) == 1
    pool = importer.load_cards(importer.import_files({"c.json": json.dumps({"cards": [raw]}).encode()}).data)
    assert pool.cards["ANH050"].plays == card.plays and pool.cards["ANH050"].triggers == card.triggers
    full = CardPool(dict(default_pool().cards))
    full.add(card)
    t = Table(arena="character").unit("p2.LS-SEN", tapped=True).set("p1", force=1)
    t.pos["cards"]["p1.ANH050"] = {"code": "ANH050", "zone": "character"}
    log = t.log({"by": "p1", "do": "attack", "card": "p1.ANH050", "target": "p2.LS-SEN"},
                {"by": "p1", "do": "use", "ability": "p1.ANH050:play", "roll": ["1", "1", "1", "1"]})
    result, seen = play(log, full)
    assert result.error is None, result.error
    assert len(seen.events(2, "roll")[0]["dice"]) == 4  # 2 + 2 for this attack
    assert result.state.players["p1"].force == 1  # paid 1, gained 1 when it attacked


@pytest.mark.rules("swtcg.keywords.overkill-then-double", "swtcg.base.location")
def test_a_location_that_doubles_an_arena_s_damage_is_read() -> None:
    text = "Double all damage that would be done by units in the Ground arena (before damage prevention)."
    card = importer.import_card(entry(type="Location", subtype="Ground", text=text, speed=None, power=None,
                                      health=None))
    assert card.implemented and card.statics == (Static(kind="double-damage", scope="ground", whose="all"),)
    odd = importer.import_card(entry(type="Location", subtype="Ground", speed=None, power=None, health=None,
                                     text="Double all damage that would be done by Jedi in the Ground arena."))
    assert not odd.implemented
