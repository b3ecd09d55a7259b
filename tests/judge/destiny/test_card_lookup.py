"""Destiny's card lookup members (judge.games.carddata.CardLookup): a card as JSON, a search, and a
card named by code or by an unambiguous name, on the game's own pool."""

from __future__ import annotations

from judge.games import carddata, registry

GAME = registry.get("destiny")
POOL = GAME.default_cards()


def test_every_card_of_the_pool_has_its_json_and_is_found_by_its_title() -> None:
    for code in POOL.cards:
        info = GAME.card_info(POOL, code)
        assert info is not None and info["code"] == code
        assert None not in info.values(), info
        assert info["status"] in ("implemented", "not-implemented")
        if info.get("faces"):
            assert len(info["faces"]) == len(info["face_words"]) == 6
        assert GAME.card_code(POOL, info["title"]).code == code  # a full title is never shared
        assert GAME.card_code(POOL, code).code == code
        assert code in GAME.find_cards(POOL, info["title"])
    assert GAME.card_info(POOL, "99999") is None


def test_names_are_compared_without_case_accents_or_punctuation() -> None:
    assert GAME.card_code(POOL, "  LUKE   skywalker ").code == "05031"
    assert GAME.card_code(POOL, "Luke Skywalker, Unlikely Hero").code == "05031"
    assert carddata.fold("Kylo Ren – Vader’s Disciple") == "kylo ren vader s disciple"
    assert carddata.fold("Padmé") == "padme"


def test_a_shared_name_is_ambiguous_and_a_partial_one_lists_near_names() -> None:
    shared = GAME.card_code(POOL, "Han Solo")
    assert shared.code is None and shared.ambiguous and set(shared.candidates) == {"05046", "01046"}
    assert "several" in shared.why("Han Solo")
    near = GAME.card_code(POOL, "stormtrooper")
    assert near.code is None and not near.ambiguous and "05013" in near.candidates
    nothing = GAME.card_code(POOL, "Nobody At All")
    assert nothing == carddata.CardMatch(None) and GAME.card_code(POOL, "  ").code is None


def test_search_holds_every_word_and_ranks_exact_names_first() -> None:
    found = GAME.find_cards(POOL, "han solo")
    assert set(found[:2]) == {"05046", "01046"}
    for code in GAME.find_cards(POOL, "shield character"):
        info = GAME.card_info(POOL, code)
        assert "shield" in str(info).lower() and "character" in str(info).lower()
    assert GAME.find_cards(POOL, "") == sorted(POOL.cards)


def test_face_words() -> None:
    from judge.games.destiny.cardtools import _face_words

    assert _face_words("+2MD") == "+2 melee damage"
    assert _face_words("3RD1") == "3 ranged damage (costs 1)"
    assert _face_words("XRD") == "X ranged damage"
    assert _face_words("Sp") == "special" and _face_words("-") == "blank"
