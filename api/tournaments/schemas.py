"""Schemas of the tournaments resource. Marshmallow checks types only; the rules (ranges,
players, results) are checked by judge.tournament so that every error cites a rule ID."""

from __future__ import annotations

import marshmallow as ma


class CreateSchema(ma.Schema):
    name = ma.fields.String(required=True)
    profile = ma.fields.String(load_default="destiny", metadata={"description": "destiny | mtg"})
    rounds = ma.fields.Integer(load_default=0, metadata={"description": "Swiss rounds; 0 = recommended"})
    cut = ma.fields.Integer(load_default=0, metadata={"description": "0, 2, 4, 8, 16 or 32"})
    best_of = ma.fields.Integer(load_default=1, metadata={"description": "1 or 3"})
    seed = ma.fields.Integer(
        load_default=None, allow_none=True, metadata={"description": "seed of the draws; random when omitted"}
    )


class PlayerInSchema(ma.Schema):
    name = ma.fields.String(required=True)
    missed_rounds = ma.fields.String(
        load_default="loss",
        validate=ma.validate.OneOf(["loss", "none"]),
        metadata={
            "description": "late entry: rounds already paired count as losses ('loss') or not at all ('none')"
        },
    )


class ResultInSchema(ma.Schema):
    p1_wins = ma.fields.Integer(required=True)
    p2_wins = ma.fields.Integer(required=True)
    draws = ma.fields.Integer(load_default=0)
    correction = ma.fields.Boolean(
        load_default=False, metadata={"description": "replace a different result already reported"}
    )


class PairInSchema(ma.Schema):
    p1 = ma.fields.String(required=True)
    p2 = ma.fields.String(required=True)


class OverrideInSchema(ma.Schema):
    pairings = ma.fields.List(
        ma.fields.Nested(PairInSchema),
        required=True,
        metadata={"description": "table numbers follow the list order"},
    )
    bye = ma.fields.String(load_default=None, allow_none=True)


class CutInSchema(ma.Schema):
    size = ma.fields.Integer(
        load_default=None, allow_none=True, metadata={"description": "defaults to the tournament's cut"}
    )


class StandingsQuerySchema(ma.Schema):
    format = ma.fields.String(
        load_default=None,
        allow_none=True,
        validate=ma.validate.OneOf(["json", "csv"]),
        metadata={"description": "csv or json; overrides the Accept header"},
    )


class PlayerSchema(ma.Schema):
    id = ma.fields.String()
    name = ma.fields.String()
    dropped = ma.fields.Boolean()
    joined_after = ma.fields.Integer(metadata={"description": "Swiss rounds paired before entry"})
    missed_rounds = ma.fields.String()


class ResultSchema(ma.Schema):
    p1_wins = ma.fields.Integer()
    p2_wins = ma.fields.Integer()
    draws = ma.fields.Integer()
    winner = ma.fields.String(allow_none=True)


class MatchSchema(ma.Schema):
    table = ma.fields.Integer()
    p1 = ma.fields.String()
    p2 = ma.fields.String()
    result = ma.fields.Nested(ResultSchema, allow_none=True)


class RoundSchema(ma.Schema):
    number = ma.fields.Integer()
    stage = ma.fields.String(metadata={"description": "swiss | cut"})
    complete = ma.fields.Boolean()
    bye = ma.fields.String(allow_none=True)
    matches = ma.fields.List(ma.fields.Nested(MatchSchema))
    objective = ma.fields.Dict(
        allow_none=True, metadata={"description": "pairing objective, when just paired"}
    )


class TournamentSchema(ma.Schema):
    id = ma.fields.String()
    name = ma.fields.String()
    profile = ma.fields.String()
    rounds = ma.fields.Integer(metadata={"description": "planned Swiss rounds"})
    cut = ma.fields.Integer()
    best_of = ma.fields.Integer()
    seed = ma.fields.Integer()
    stage = ma.fields.String(metadata={"description": "registration | swiss | cut | finished"})
    current_round = ma.fields.Integer(allow_none=True)
    players = ma.fields.Integer()
    active_players = ma.fields.Integer()
    champion = ma.fields.String(allow_none=True)
    version = ma.fields.Integer(metadata={"description": "number of actions in the audit log"})


class CreatedSchema(TournamentSchema):
    token = ma.fields.String(metadata={"description": "organizer bearer token; shown only once"})


class StandingSchema(ma.Schema):
    rank = ma.fields.Integer()
    player_id = ma.fields.String()
    name = ma.fields.String()
    points = ma.fields.Integer()
    wins = ma.fields.Integer()
    losses = ma.fields.Integer()
    draws = ma.fields.Integer()
    byes = ma.fields.Integer()
    dropped = ma.fields.Boolean()
    tiebreaks = ma.fields.Dict(keys=ma.fields.String(), values=ma.fields.Float())


class AuditEntrySchema(ma.Schema):
    seq = ma.fields.Integer()
    at = ma.fields.String()
    action = ma.fields.Dict()
