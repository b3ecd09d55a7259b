"""SWDestinyDB import: fixture cards written by hand in tests/fixtures/swdestinydb/."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from judge.games.destiny import importer
from judge.games.destiny.model import CardPool, CardType
from tests.judge.destiny.swdb import import_directory, shared_data
from tests.judge.destiny.tablehelp import Table, final, player, pool_with

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "swdestinydb"


@pytest.fixture(scope="module")
def result() -> importer.ImportResult:
    return import_directory(FIXTURES)


def faces(card: object) -> list[str]:
    return [f.notation() for f in card.faces]  # type: ignore[attr-defined]


@pytest.mark.rules("destiny.characters.point-value", "destiny.cards.subtitle")
def test_unique_character_with_two_point_values(result: importer.ImportResult) -> None:
    luke = result.pool().get("05031")
    assert luke is not None
    assert (luke.name, luke.subtitle, luke.type) == ("Luke Skywalker", "Unlikely Hero", CardType.CHARACTER)
    assert (luke.affiliation, luke.color, luke.unique) == ("hero", "blue", True)
    assert luke.points == (11, 14) and luke.health == 11 and luke.cost is None
    assert faces(luke) == ["1RD", "2RD", "1MD", "1Sh", "1R", "-"]
    assert luke.subtypes == ("apprentice",) and luke.set_code == "LEG"
    assert not luke.implemented
    assert luke.unimplemented.startswith("Power Action - Spend 2 resources")


@pytest.mark.rules("destiny.characters.non-unique-one-die", "destiny.keywords.guardian")
def test_non_unique_character_with_only_a_keyword_is_implemented(result: importer.ImportResult) -> None:
    guard = result.pool().get("05030")
    assert guard is not None
    assert not guard.unique and guard.points == (8,)
    assert guard.keywords == frozenset({"guardian"})
    assert guard.implemented and guard.unimplemented == ""


def test_character_without_text(result: importer.ImportResult) -> None:
    trooper = result.pool().get("05038")
    assert trooper is not None and trooper.implemented and trooper.keywords == frozenset()


@pytest.mark.rules("destiny.dice.modifier-needs-base", "destiny.keywords.ambush")
def test_upgrade_with_modifier_faces(result: importer.ImportResult) -> None:
    blaster = result.pool().get("05072")
    assert blaster is not None and blaster.type is CardType.UPGRADE and blaster.cost == 2
    assert [f.modifier for f in blaster.faces] == [False, True, True, False, False, False]
    assert blaster.keywords == frozenset({"ambush"})
    assert blaster.unimplemented == "After you play this upgrade, you may remove 1 shield from a character."


def test_support_event_battlefield_plot(result: importer.ImportResult) -> None:
    pool = result.pool()
    r2 = pool.get("05035")
    assert r2 is not None and r2.type is CardType.SUPPORT and r2.has_die and r2.cost == 1
    storm = pool.get("05160")
    assert storm is not None and storm.type is CardType.EVENT and storm.cost == 0 and not storm.has_die
    assert storm.unimplemented == "Remove 1 shield from each character."  # tags stripped
    field = pool.get("05178")
    assert field is not None and field.type is CardType.BATTLEFIELD and field.subtitle == "Nal Hutta"
    plot = pool.get("09113")
    assert plot is not None and plot.type is CardType.PLOT and plot.points == (2,)


def test_bad_face_is_reported_not_raised(result: importer.ImportResult) -> None:
    assert [str(e) for e in result.errors] == [
        "set/LEG.json[8] 05098 sides[1]: Broken Test Droid: side 2: "
        "'2QQ' is not a die face (expected e.g. 2RD, +2RD, 3MD1, 1Sh, Sp, -)"
    ]
    droid = result.pool().get("05098")
    assert droid is not None and not droid.has_die and not droid.implemented
    assert "unreadable side(s) '2QQ'" in droid.unimplemented
    assert droid.keywords == frozenset({"redeploy", "guardian"})


def test_zero_value_means_x() -> None:
    assert importer.swdb_face("0RD") == "XRD"
    assert importer.swdb_face("+0MD") == "+XMD"
    assert importer.swdb_face("0Sh1") == "XSh1"
    assert importer.swdb_face("Sp") == "Sp" and importer.swdb_face("-") == "-"


@pytest.mark.parametrize(
    ("raw", "points"),
    [("11/14", (11, 14)), ("9", (9,)), ("-2", (-2,)), ("14/18/22", (14, 18, 22)), (7, (7,))],
)
def test_parse_points(raw: object, points: tuple[int, ...]) -> None:
    assert importer.parse_points(raw) == points


@pytest.mark.parametrize("raw", ["", "x/2", None, "11/"])
def test_bad_points(raw: object) -> None:
    with pytest.raises(ValueError):
        importer.parse_points(raw)


def test_keyword_lines() -> None:
    kws, rest = importer.split_text("<b>Ambush</b>.\nRedeploy. Guardian.\nPiloting.\nBlue character only.")
    assert kws == frozenset({"ambush", "redeploy", "guardian"})
    assert rest == "Piloting.\nBlue character only."


def test_bad_records_collected() -> None:
    card, errors = importer.card_from_swdb(
        {"code": "99001", "name": "X", "type_code": "relic"}, "set/X.json[0]"
    )
    assert card is None and "unknown type_code" in errors[0].message
    card, errors = importer.card_from_swdb(
        {"code": "99002", "name": "Y", "type_code": "character", "cost": "two", "sides": ["1RD"]}, "w"
    )
    assert card is not None and not card.has_die
    assert {e.where for e in errors} == {"w 99002 points", "w 99002 cost", "w 99002 sides"}


def test_downgrade_is_imported_as_upgrade_with_a_note() -> None:
    card, errors = importer.card_from_swdb(
        {
            "code": "09005",
            "name": "D",
            "type_code": "downgrade",
            "cost": 2,
            "text": "Attached character loses.",
        },
        "w",
    )
    assert not errors and card is not None and card.type is CardType.UPGRADE
    assert card.unimplemented.startswith("Downgrade:")


def test_missing_directory_is_an_error(tmp_path: Path) -> None:
    result = import_directory(tmp_path)
    assert {e.where for e in result.errors} == {"sets.json", "set/"}


def test_import_takes_files_already_read() -> None:
    """The importer reads no files: paths relative to the data folder map to their content."""
    card = {"code": "99001", "name": "Test Event", "type_code": "event", "cost": 1, "set_code": "TST"}
    result = importer.import_files({
        "sets.json": json.dumps([{"code": "TST", "name": "Test", "position": 99}]).encode(),
        "set/TST.json": json.dumps([card]),
        "set/nested/skipped.json": b"not read",
        "starterPacks.json": b"[{]",
    })
    assert [c.code for c in result.cards] == ["99001"] and result.sets == [importer.SetInfo("TST", "Test", 99)]
    assert [e.where for e in result.errors] == ["starterPacks.json"]
    assert str(result.errors[0]).startswith("starterPacks.json: cannot read:")


def test_card_json_round_trip(result: importer.ImportResult) -> None:
    for card in result.cards:
        data = importer.card_to_json(card)
        assert importer.card_from_json(json.loads(json.dumps(data))) == card
    dumped = importer.dump(result.cards, result.sets)
    pool, sets = importer.load(json.loads(json.dumps(dumped)))
    assert len(pool) == len(result.cards) and sets == result.sets
    with pytest.raises(ValueError):
        importer.load({"format": "other"})


def test_card_number() -> None:
    assert importer.card_number("05031") == (5, 31)
    assert importer.card_number("13005B") == (13, 5)
    assert importer.card_number("nope") is None


def test_full_swdestinydb_data_imports_cleanly() -> None:
    result = import_directory(shared_data())
    assert not [e for e in result.errors if "sides" in e.where]
    assert not result.errors
    pool = result.pool()
    assert len(pool) > 1500
    luke = pool.get("05031")
    assert luke is not None and luke.health == 11 and luke.points == (11, 14)
    assert faces(luke) == ["1RD", "2RD", "1MD", "1Sh", "1R", "-"]
    boba = pool.get("05019")
    assert boba is not None and boba.affiliation == "villain" and boba.points == (12, 16)


# ---------------------------------------------------------------------- imported keywords in play
# Keyword-only cards written in the SWDestinyDB format, imported, then played through a replay: the
# importer must store the keyword names the engine tests for, or the cards would be marked implemented
# while their keywords never apply.
KEYWORD_CARDS = [
    {
        "affiliation_code": "villain", "code": "99701", "faction_code": "red", "has_die": True,
        "health": 9, "is_unique": False, "name": "Imported Guard", "points": "9", "set_code": "TST",
        "sides": ["1RD", "2RD", "1MD", "1R", "-", "-"], "text": "<b>Guardian</b>.", "type_code": "character",
    },
    {
        "affiliation_code": "neutral", "code": "99702", "cost": 1, "faction_code": "gray", "has_die": False,
        "is_unique": False, "name": "Imported Ambusher", "set_code": "TST", "text": "Ambush.",
        "type_code": "upgrade",
    },
    {
        "affiliation_code": "neutral", "code": "99703", "cost": 1, "faction_code": "gray", "has_die": False,
        "is_unique": False, "name": "Imported Redeployer", "set_code": "TST", "text": "Redeploy.",
        "type_code": "upgrade",
    },
]


@pytest.fixture
def keyword_pool(tmp_path: Path) -> CardPool:
    (tmp_path / "sets.json").write_text(json.dumps([{"code": "TST", "name": "Test", "position": 99}]))
    (tmp_path / "set").mkdir()
    (tmp_path / "set" / "TST.json").write_text(json.dumps(KEYWORD_CARDS))
    result = import_directory(tmp_path)
    assert result.errors == []
    assert all(card.implemented for card in result.cards)
    return pool_with(*result.cards)


@pytest.mark.rules("destiny.keywords.guardian")
def test_an_imported_guardian_takes_an_opponents_damage_die(keyword_pool: CardPool) -> None:
    t = Table(turn="p2")
    t.character("p1", "05031", dice=2)
    t.character("p2", "99701")
    t.pool("p1", {"p1.05031/1": "2RD", "p1.05031/2": "1R"})
    log = t.log([{"by": "p2", "do": "activate", "card": "p2.99701", "roll": ["1R"],
                  "choices": [{"by": "p2", "kind": "may", "answer": True}]}])
    state = final(log, keyword_pool)
    assert player(state, "p2")["characters"]["p2.99701"]["damage"] == 2
    assert player(state, "p1")["pool"] == {"p1.05031/2": "1R"}


@pytest.mark.rules("destiny.keywords.ambush")
def test_an_imported_ambush_upgrade_grants_an_extra_action(keyword_pool: CardPool) -> None:
    t = Table()
    t.character("p1", "05031", dice=2)
    t.character("p2", "05013")
    t.set("p1", hand=["99702"], resources=1)
    state = final(t.log([{"by": "p1", "do": "play", "card": "99702", "on": "p1.05031"}]), keyword_pool)
    assert player(state, "p1")["characters"]["p1.05031"]["upgrades"] == ["p1.99702#1"]
    assert state["turn"] == "p1" and state.get("extra_action") == "p1"


@pytest.mark.rules("destiny.keywords.redeploy")
def test_an_imported_redeploy_upgrade_moves_off_a_defeated_character(keyword_pool: CardPool) -> None:
    t = Table(turn="p2")
    t.character("p1", "05031", dice=2, damage=9, upgrades=["99703"])
    t.character("p1", "05046", dice=2)
    t.character("p2", "05019", dice=2)
    t.pool("p2", {"p2.05019/1": "2RD"})
    log = t.log([{"by": "p2", "do": "resolve", "dice": [{"die": "p2.05019/1", "target": "p1.05031"}],
                  "choices": [{"by": "p1", "kind": "may", "answer": True}]}])
    p1 = player(final(log, keyword_pool), "p1")
    assert p1["characters"]["p1.05031"]["defeated"] is True
    # the moved upgrade is a new object in play (next serial) and never reached the discard pile
    assert p1["characters"]["p1.05046"]["upgrades"] == ["p1.99703#1"] and p1["discard"] == []


def test_card_json_from_before_the_fix_reads_capitalised_keywords_as_engine_names() -> None:
    card = importer.card_from_json({"code": "99704", "name": "Old", "type": "upgrade", "keywords": ["Guardian"]})
    assert card.keywords == frozenset({"guardian"})
