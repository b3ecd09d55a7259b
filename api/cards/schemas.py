"""Schemas of the cards resource."""

from __future__ import annotations

import marshmallow as ma

from judge.games import carddata, registry

#: cards in one page at most, and by default
MAX_PER_PAGE = 100
PER_PAGE = 25
MAX_QUERY = 200


def lookup_games() -> list[str]:
    """The written games that can look their cards up (``carddata.LOOKUP_MEMBERS``)."""
    return [g for g in registry.written()
            if all(hasattr(registry.get(g), m) for m in carddata.LOOKUP_MEMBERS)]


class CardsQuerySchema(ma.Schema):
    game = ma.fields.String(required=True, validate=ma.validate.OneOf(lookup_games()),
                            metadata={"description": "the game whose cards to search"})
    q = ma.fields.String(load_default="", validate=ma.validate.Length(max=MAX_QUERY),
                         metadata={"description": "words every card found holds in its code, name or text "
                                                  "(empty: every card)"})
    page = ma.fields.Integer(load_default=1, strict=False, validate=ma.validate.Range(min=1, max=10_000),
                             metadata={"description": "page number, from 1"})
    per_page = ma.fields.Integer(load_default=PER_PAGE, validate=ma.validate.Range(min=1, max=MAX_PER_PAGE),
                                 metadata={"description": "cards per page"})


class CardSchema(ma.Schema):
    """A card as the game describes it (``Game.card_info``); keys a card does not have are absent."""

    class Meta:
        openapi = {"required": ["game", "code", "name", "title", "type", "status"]}

    game = ma.fields.String()
    code = ma.fields.String()
    name = ma.fields.String()
    title = ma.fields.String(metadata={"description": "name and subtitle, as a judge says it"})
    type = ma.fields.String()
    subtitle = ma.fields.String()
    affiliation = ma.fields.String()
    color = ma.fields.String()
    unique = ma.fields.Boolean()
    set = ma.fields.String()
    subtypes = ma.fields.List(ma.fields.String())
    points = ma.fields.List(ma.fields.Integer(), metadata={"description": "points for one die, two dice"})
    keywords = ma.fields.List(ma.fields.String())
    cost = ma.fields.Integer()
    health = ma.fields.Integer()
    faces = ma.fields.List(ma.fields.String(), metadata={"description": "die faces in the game's notation"})
    face_words = ma.fields.List(ma.fields.String(), metadata={"description": "the die faces in words"})
    text = ma.fields.List(ma.fields.String(), metadata={"description": "the card's abilities, in the project's words"})
    status = ma.fields.String(metadata={"description": "implemented | not-implemented (by the engine)"})
    not_applied = ma.fields.String(metadata={"description": "the text the engine does not apply"})
    links = ma.fields.Dict(keys=ma.fields.String(), values=ma.fields.String())


class CardPageSchema(ma.Schema):
    game = ma.fields.String()
    q = ma.fields.String()
    page = ma.fields.Integer()
    per_page = ma.fields.Integer()
    total = ma.fields.Integer(metadata={"description": "cards found in all pages"})
    cards = ma.fields.List(ma.fields.Nested(CardSchema))
    links = ma.fields.Dict(keys=ma.fields.String(), values=ma.fields.String(),
                           metadata={"description": "self, and next / prev where there is such a page"})
