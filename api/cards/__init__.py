"""The cards resource: every written game's cards, searched (paged) and looked up by code or name.

Nothing here names a game: the game comes from the registry and answers through its card lookup
members (``judge.games.carddata.CardLookup``). Its own card pool is what is looked up.
"""

from __future__ import annotations

from typing import Any

from flask import url_for
from flask_smorest import Blueprint

from api.cards.schemas import CardPageSchema, CardSchema, CardsQuerySchema, lookup_games
from api.problems import ProblemError
from judge.games import registry

blp = Blueprint("cards", __name__, description="Cards of every written game, by code or name")


def with_links(game_id: str, info: dict[str, Any]) -> dict[str, Any]:
    return {"game": game_id, **info,
            "links": {"self": url_for("cards.get_card", game=game_id, card=info["code"])}}


@blp.route("")
@blp.arguments(CardsQuerySchema, location="query")
@blp.response(200, CardPageSchema)
def list_cards(args: dict[str, Any]) -> dict[str, Any]:
    """Cards whose code, name or text hold every word of ``q``: exact names first, then names
    holding the words, then the rest (by code in each group); ``page`` of ``per_page``."""
    game_id, q, page, per_page = args["game"], args["q"], args["page"], args["per_page"]
    game = registry.get(game_id)
    pool = game.default_cards()
    codes = game.find_cards(pool, q)
    start = (page - 1) * per_page
    chosen = codes[start:start + per_page]
    links = {"self": url_for("cards.list_cards", game=game_id, q=q, page=page, per_page=per_page)}
    if start + per_page < len(codes):
        links["next"] = url_for("cards.list_cards", game=game_id, q=q, page=page + 1, per_page=per_page)
    if page > 1:
        links["prev"] = url_for("cards.list_cards", game=game_id, q=q, page=page - 1, per_page=per_page)
    return {"game": game_id, "q": q, "page": page, "per_page": per_page, "total": len(codes),
            "cards": [with_links(game_id, game.card_info(pool, c)) for c in chosen], "links": links}


@blp.route("/<string:game>/<string:card>")
@blp.response(200, CardSchema)
def get_card(game: str, card: str) -> dict[str, Any]:
    """One card, by its code or by its name when only one card has that name (``Luke
    Skywalker``; ``Han Solo - Savvy Smuggler`` where two Han Solos exist). 404 for an unknown game
    or card, and for a name several cards share (the detail lists them)."""
    if game not in lookup_games():
        raise ProblemError(404, "Not Found", f"No game {game!r} with cards here; games: {', '.join(lookup_games())}.")
    rules = registry.get(game)
    pool = rules.default_cards()
    match = rules.card_code(pool, card)
    if match.code is None:
        near = "; ".join(f"{c} ({rules.card_info(pool, c)['title']})" for c in match.candidates[:10])
        raise ProblemError(404, "Not Found", f"{match.why(card)} in {rules.name}" + (f": {near}." if near else "."))
    return with_links(game, rules.card_info(pool, match.code))
