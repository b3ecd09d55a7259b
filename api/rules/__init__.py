"""The rules resource: every rule ID of the project's rule index (``judge.rules.index``) with its
one-line summary in the project's own words and its source (the seed section or reference
document), by game or one at a time."""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from flask import url_for
from flask_smorest import Blueprint

import i18n
from api.i18n import request_lang
from api.problems import ProblemError
from judge.rules import index

blp = Blueprint("rules", __name__, description="The rule index: IDs, summaries, sources")

RULE_GAMES = (*index.GAMES, "tournament")


class LangQuerySchema(ma.Schema):
    lang = ma.fields.String(validate=ma.validate.OneOf(i18n.LANGS), metadata={
        "description": "language of `summary` (en, pl, ru); default: the Accept-Language header, "
                       "else English. `summaries` always carries all three."})


class RulesQuerySchema(LangQuerySchema):
    game = ma.fields.String(validate=ma.validate.OneOf(RULE_GAMES),
                            metadata={"description": "only this game's rules (default: every rule)"})


class HeadingSchema(ma.Schema):
    seed = ma.fields.String(required=True, metadata={"description": "the seed document's number, e.g. 000"})
    heading = ma.fields.String(required=True, metadata={"description": "the section heading exactly as printed"})


class RuleSchema(ma.Schema):
    id = ma.fields.String(required=True)
    game = ma.fields.String(required=True)
    section = ma.fields.String(metadata={"description": "the section of the seed digest it is filed under"})
    summary = ma.fields.String(required=True, metadata={"description": "one line, in the project's own words, "
                                                                       "in the language asked for"})
    summaries = ma.fields.Dict(keys=ma.fields.String(), values=ma.fields.String(),
                               metadata={"description": "the summary in every language: en, pl, ru"})
    headings = ma.fields.List(ma.fields.Nested(HeadingSchema), metadata={
        "description": "the seed sections the rule comes from, headings verbatim (empty for a reference "
                       "document or a project assumption)"})
    source = ma.fields.String(metadata={"description": "where the rule comes from: seed sections, a reference "
                                                       "document, or the module that defines it"})
    status = ma.fields.String(metadata={"description": "applied | not-applicable"})
    reason = ma.fields.String(metadata={"description": "why a rule is not applicable"})
    links = ma.fields.Dict(keys=ma.fields.String(), values=ma.fields.String(),
                           metadata={"description": "self, and page: the rule's anchor on the rules page"})


class RuleListSchema(ma.Schema):
    game = ma.fields.String(allow_none=True)
    lang = ma.fields.String()
    total = ma.fields.Integer()
    rules = ma.fields.List(ma.fields.Nested(RuleSchema))


def rule_json(rule: index.Rule, lang: str = "en") -> dict[str, Any]:
    return {**rule.to_json(lang), "links": {"self": url_for("rules.get_rule", rule_id=rule.id),
                                        "page": f"/rules/{rule.game}#{rule.id}"}}


@blp.route("")
@blp.arguments(RulesQuerySchema, location="query")
@blp.response(200, RuleListSchema)
def list_rules(args: dict[str, Any]) -> dict[str, Any]:
    """Every rule ID of the index (digest order, then the project's own IDs), or one game's."""
    game = args.get("game")
    lang = request_lang()
    rules = [rule_json(r, lang) for r in index.rules(game)]
    return {"game": game, "lang": lang, "total": len(rules), "rules": rules}


@blp.route("/<string:rule_id>")
@blp.arguments(LangQuerySchema, location="query")
@blp.response(200, RuleSchema)
def get_rule(args: dict[str, Any], rule_id: str) -> dict[str, Any]:
    """One rule: its summary (in the language asked for), section, source, headings and status."""
    if not index.is_known(rule_id):
        raise ProblemError(404, "Not Found", f"No rule {rule_id!r} in the rule index.")
    return rule_json(index.get(rule_id), request_lang())
