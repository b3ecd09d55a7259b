"""Deck legality: one test per deckbuilding rule, from a legal deck built of fixture cards."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from judge.games.destiny import importer
from judge.games.destiny.deckcheck import check_deck
from judge.games.destiny.decklists import parse_json
from judge.games.destiny.model import CardDef, CardPool, CardType
from tests.judge.destiny.swdb import import_directory, shared_data

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "swdestinydb"
FILLERS = [f"05{n:03d}" for n in range(101, 114)]  # 13 gray events, two copies each


@pytest.fixture(scope="module")
def pool() -> CardPool:
    pool = import_directory(FIXTURES).pool()
    for code in FILLERS:
        pool.add(CardDef(code=code, name=f"Filler {code}", type=CardType.EVENT, cost=1, set_code="LEG"))
    pool.add(CardDef(code="05120", name="Villain Trick", type=CardType.EVENT, affiliation="villain", cost=1))
    pool.add(CardDef(code="05121", name="Red Order", type=CardType.EVENT, color="red", cost=1))
    pool.add(
        CardDef(
            code="05122",
            name="Neutral Drifter",
            type=CardType.CHARACTER,
            points=(7,),
            health=7,
            faces=importer.card_from_json(
                {"code": "x", "name": "x", "type": "event", "faces": ["1RD"] * 6}
            ).faces,
        )
    )
    pool.add(
        CardDef(
            code="05123",
            name="Luke Skywalker",
            subtitle="Jedi Knight",
            type=CardType.CHARACTER,
            affiliation="hero",
            color="blue",
            unique=True,
            points=(10, 13),
            health=10,
        )
    )
    return pool


def legal() -> dict[str, Any]:
    return {
        "id": "p1",
        "name": "Ana",
        "characters": [{"card": "05031", "dice": 2}, {"card": "05030", "dice": 1}],
        "battlefield": "05178",
        "plot": "09113",
        "deck": ["05072", "05072", "05160", "05160"] + [c for c in FILLERS for _ in range(2)],
    }


def rules_of(entry: dict[str, Any], pool: CardPool, fmt: str = "standard") -> list[str]:
    return [v.rule for v in check_deck(entry, pool, fmt)]


@pytest.mark.rules(
    "destiny.deckbuilding.battlefield", "destiny.deckbuilding.plot", "destiny.deckbuilding.character-colors"
)
def test_legal_deck(pool: CardPool) -> None:
    assert check_deck(legal(), pool, "standard") == []


@pytest.mark.rules("destiny.deckbuilding.team-points", "destiny.characters.point-value")
def test_team_points(pool: CardPool) -> None:
    deck = legal()
    deck["characters"].append({"card": "05038", "dice": 1})  # 14 + 8 + 8 + plot 2 = 32
    [v] = check_deck(deck, pool)
    assert v.rule == "destiny.deckbuilding.team-points" and "32 points (with the plot)" in v.message
    deck["plot"] = None
    assert check_deck(deck, pool) == []  # 30 exactly


@pytest.mark.rules("destiny.characters.point-value")
def test_no_point_value_for_three_dice(pool: CardPool) -> None:
    deck = legal()
    deck["characters"][0]["dice"] = 3
    assert rules_of(deck, pool) == ["destiny.characters.point-value"]


@pytest.mark.rules("destiny.characters.non-unique-one-die")
def test_non_unique_one_die(pool: CardPool) -> None:
    deck = legal()
    deck["characters"][1]["dice"] = 2
    assert rules_of(deck, pool) == ["destiny.characters.non-unique-one-die"]


@pytest.mark.rules("destiny.deckbuilding.unique-characters")
def test_unique_character_twice(pool: CardPool) -> None:
    deck = legal()
    deck["characters"] = [{"card": "05031", "dice": 1}, {"card": "05031", "dice": 1}]
    deck["plot"] = None
    assert rules_of(deck, pool) == ["destiny.deckbuilding.unique-characters"]


@pytest.mark.rules("destiny.deckbuilding.unique-characters")
def test_non_unique_character_may_repeat(pool: CardPool) -> None:
    deck = legal()
    deck["characters"] = [{"card": "05030", "dice": 1}, {"card": "05030", "dice": 1}]
    assert check_deck(deck, pool) == []


@pytest.mark.rules("destiny.uniqueness.subtitle-irrelevant", "destiny.cards.subtitle")
def test_same_title_other_subtitle(pool: CardPool) -> None:
    deck = legal()
    deck["characters"] = [{"card": "05031", "dice": 1}, {"card": "05123", "dice": 1}]
    assert rules_of(deck, pool) == ["destiny.uniqueness.subtitle-irrelevant"]


@pytest.mark.rules("destiny.deckbuilding.hero-or-villain")
def test_heroes_and_villains(pool: CardPool) -> None:
    deck = legal()
    deck["characters"] = [{"card": "05031", "dice": 1}, {"card": "05019", "dice": 1}]
    deck["plot"] = None
    assert "destiny.deckbuilding.hero-or-villain" in rules_of(deck, pool)


@pytest.mark.rules("destiny.deckbuilding.neutral-characters")
def test_neutral_character_fits_a_hero_team(pool: CardPool) -> None:
    deck = legal()
    deck["characters"][1] = {"card": "05122", "dice": 1}
    assert check_deck(deck, pool) == []


@pytest.mark.rules("destiny.deckbuilding.min-one-character")
def test_no_characters(pool: CardPool) -> None:
    deck = legal()
    deck["characters"] = []
    assert "destiny.deckbuilding.min-one-character" in rules_of(deck, pool)


@pytest.mark.rules("destiny.deckbuilding.deck-size")
def test_deck_size(pool: CardPool) -> None:
    deck = legal()
    deck["deck"].pop()
    [v] = check_deck(deck, pool)
    assert v.rule == "destiny.deckbuilding.deck-size" and "29 cards, not 30" in v.message


@pytest.mark.rules("destiny.setup.starter-sets")
def test_starter_deck_size(pool: CardPool) -> None:
    deck = legal()
    assert rules_of(deck, pool, "starter") == ["destiny.setup.starter-sets"]
    deck["deck"] = deck["deck"][:20]
    assert check_deck(deck, pool, "starter") == []


@pytest.mark.rules("destiny.deckbuilding.copy-limit", "destiny.terms.copy")
def test_copy_limit_by_title(pool: CardPool) -> None:
    deck = legal()
    deck["deck"][0:3] = ["05160", "05160", "05160"]  # three Ice Storm, one Hidden Blaster left
    deck["deck"].insert(0, "05072")
    deck["deck"].pop()
    assert rules_of(deck, pool) == ["destiny.deckbuilding.copy-limit"]


@pytest.mark.rules("destiny.deckbuilding.affiliation-match")
def test_villain_card_in_hero_deck(pool: CardPool) -> None:
    deck = legal()
    deck["deck"][-1] = "05120"
    assert rules_of(deck, pool) == ["destiny.deckbuilding.affiliation-match"]


@pytest.mark.rules("destiny.deckbuilding.color-match")
def test_color_without_character(pool: CardPool) -> None:
    deck = legal()
    deck["deck"][-1] = "05121"
    assert rules_of(deck, pool) == ["destiny.deckbuilding.color-match"]


@pytest.mark.rules("destiny.deckbuilding.deck-card-types")
def test_character_in_deck(pool: CardPool) -> None:
    deck = legal()
    deck["deck"][-1] = "05038"
    assert "destiny.deckbuilding.deck-card-types" in rules_of(deck, pool)


@pytest.mark.rules("destiny.deckbuilding.battlefield")
def test_battlefield_missing_or_wrong(pool: CardPool) -> None:
    deck = legal()
    deck["battlefield"] = None
    assert rules_of(deck, pool) == ["destiny.deckbuilding.battlefield"]
    deck["battlefield"] = "05160"
    assert rules_of(deck, pool) == ["destiny.deckbuilding.battlefield"]
    deck = legal()
    deck["deck"][-1] = "05178"  # a second battlefield
    assert rules_of(deck, pool) == ["destiny.deckbuilding.battlefield"]


@pytest.mark.rules("destiny.deckbuilding.plot")
def test_plot_color_and_count(pool: CardPool) -> None:
    deck = legal()
    deck["characters"] = [{"card": "05038", "dice": 1}]  # red team, blue plot
    [v] = check_deck(deck, pool)
    assert v.rule == "destiny.deckbuilding.plot" and "blue" in v.message
    deck = legal()
    deck["deck"][-1] = "09113"
    assert rules_of(deck, pool) == ["destiny.deckbuilding.plot"]


@pytest.mark.rules("destiny.cards.identifier")
def test_unknown_cards_are_violations(pool: CardPool) -> None:
    deck = legal()
    deck["deck"][-1] = "99999"
    deck["characters"].append({"card": "99998", "dice": 1})
    deck["battlefield"] = "99997"
    found = check_deck(deck, pool)
    assert [v.rule for v in found] == ["destiny.cards.identifier"] * 3
    assert {v.card for v in found} == {"99999", "99998", "99997"}


def test_all_violations_at_once(pool: CardPool) -> None:
    deck = copy.deepcopy(legal())
    deck["characters"].append({"card": "05019", "dice": 3})
    deck["deck"] = deck["deck"][:10] + ["05120", "05121", "05121", "05121"]
    rules = rules_of(deck, pool)
    for rule in (
        "destiny.characters.point-value",
        "destiny.deckbuilding.team-points",
        "destiny.deckbuilding.hero-or-villain",
        "destiny.deckbuilding.deck-size",
        "destiny.deckbuilding.copy-limit",
        "destiny.deckbuilding.color-match",
    ):
        assert rule in rules


def test_sandbox_and_unknown_format(pool: CardPool) -> None:
    assert check_deck({"characters": []}, pool, "sandbox") == []
    with pytest.raises(ValueError):
        check_deck(legal(), pool, "eternal")


@pytest.mark.rules("destiny.setup.starter-sets")
def test_real_starter_decks_are_legal_starter_decks() -> None:
    result = import_directory(shared_data())
    pool = result.pool()
    packs = {p["code"]: p for p in result.starter_packs}
    for code in ("LEG-H", "LEG-V", "AW-V", "AW-H"):
        entry = parse_json(packs[code], pool).entry
        assert len(entry["characters"]) == 2 and entry["battlefield"] and len(entry["deck"]) == 20, code
        violations = check_deck(entry, pool, "starter")
        if code == "AW-H":
            # The shared data lists F-11D Rifle (01008, a red villain upgrade) in the Rey starter set;
            # the checker rightly refuses it. Everything else in that deck is legal.
            assert {(v.rule, v.card) for v in violations} == {
                ("destiny.deckbuilding.affiliation-match", "01008"),
                ("destiny.deckbuilding.color-match", "01008"),
            }
        else:
            assert violations == [], (code, violations)


def test_a_deck_checked_again_gets_the_same_answer_and_a_changed_pool_checks_anew(pool: CardPool) -> None:
    """Checks are kept per pool by the deck's content: the same deck gets an equal answer that the
    caller may change freely; a card replaced in the pool makes the pool check again."""
    pool = CardPool(dict(pool.cards))  # its own pool (its own kept checks), the same cards
    deck = legal()
    deck["deck"] = deck["deck"][:-1]  # 29 cards: one violation
    first = check_deck(deck, pool)
    assert [v.rule for v in first] == ["destiny.deckbuilding.deck-size"]
    first.clear()  # the caller's list, not the kept answer
    assert check_deck(copy.deepcopy(deck), pool) == check_deck(deck, pool) != []
    assert check_deck(deck, pool, "starter") != check_deck(deck, pool)  # the format is part of the key
    renamed = dict(deck, name="Someone else", id="p2")  # who plays it does not matter
    assert check_deck(renamed, pool) == check_deck(deck, pool)
    # the deck's battlefield replaced by a card that is not a battlefield: checked again, not kept
    bf = pool.cards[deck["battlefield"]]
    pool.add(CardDef(code=bf.code, name=bf.name, type=CardType.EVENT, cost=1), replace=True)
    assert "destiny.deckbuilding.battlefield" in [v.rule for v in check_deck(deck, pool)]
