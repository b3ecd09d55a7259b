"""Looking SW TCG cards up (the Game's card_info / find_cards / card_code, as `arbiter cards show`
and `/v1/cards/swtcg/...` use them): every card of the project's pool by its code and its name."""

from __future__ import annotations

from judge.games import registry


def test_every_card_is_found_by_code_and_by_its_full_name() -> None:
    game = registry.get("swtcg")
    pool = game.default_cards()
    assert pool.cards
    for code, card in pool.cards.items():
        info = game.card_info(pool, code)
        assert info is not None and info["code"] == code and info["name"] == card.display
        assert info["status"] == ("implemented" if card.implemented else "not-implemented")
        assert None not in info.values()
        assert game.card_code(pool, code).code == code
        match = game.card_code(pool, card.display)
        assert match.code == code or code in match.candidates  # a shared name lists every card with it
        assert code in game.find_cards(pool, card.display)
    assert game.card_info(pool, "NO-SUCH") is None
