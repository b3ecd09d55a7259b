"""Schemas of the tournaments resource. Marshmallow checks types (integers are JSON integers: 3.0
or "3" is refused); the rules (ranges, players, results) are checked by judge.tournament so that
every error cites a rule ID. What those rules enforce is *documented* here from the rules' own
constants (``metadata``: ``enum``, ``minimum``, ``maximum``, ``maxLength``, ``pattern``), so the
OpenAPI document says what the handler refuses without a second copy of the check."""

from __future__ import annotations

import marshmallow as ma

from api import fields
from api.openapi import PLAYER_ID
from judge.limits import MAX_ITEMS, MAX_SEED_INT
from judge.tournament.event import MAX_GAME, MAX_NAME, MAX_ROUNDS
from judge.tournament.model import BEST_OF, CUT_SIZES, PROFILES

#: what the rules' ``name.strip()`` leaves something of: one character Python does not count as
#: whitespace (str.isspace; JSON Schema's \\s differs on a few control characters, so they are listed)
_SPACE = "\\t\\n\\u000b\\f\\r\\u001c-\\u001f \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000"
NOT_BLANK = f"[^{_SPACE}]"
NAME = {"minLength": 1, "maxLength": MAX_NAME, "pattern": NOT_BLANK,
        "description": f"1 to {MAX_NAME} characters, not all blank"}
GAME = f"^[a-z0-9-]{{1,{MAX_GAME}}}$"
MAX_PER_PAGE = 100
#: game wins of one player in one match: at most 2 (best of 3), games in all at most 3
MAX_GAME_WINS = (max(BEST_OF) + 1) // 2


class StrictBoolean(ma.fields.Boolean):
    """A JSON true or false only (marshmallow's Boolean also takes 0, 1, "yes", ...)."""

    def _deserialize(self, value, attr, data, **kwargs):  # type: ignore[no-untyped-def]
        if not isinstance(value, bool):
            raise self.make_error("invalid", input=value)
        return value


class CreateSchema(ma.Schema):
    name = ma.fields.String(required=True, metadata=NAME)
    profile = ma.fields.String(load_default="destiny",
                               metadata={"enum": list(PROFILES), "description": " | ".join(PROFILES)})
    rounds = ma.fields.Integer(strict=True, load_default=0, metadata={
        "minimum": 0, "maximum": MAX_ROUNDS, "description": f"Swiss rounds, 0 (recommended) to {MAX_ROUNDS}"})
    cut = ma.fields.Integer(strict=True, load_default=0, metadata={
        "enum": list(CUT_SIZES), "description": "top cut size; 0: none"})
    best_of = ma.fields.Integer(strict=True, load_default=1, metadata={"enum": list(BEST_OF)})
    seed = ma.fields.Integer(
        strict=True, load_default=None, allow_none=True, validate=ma.validate.Range(0, MAX_SEED_INT),
        metadata={"description": "seed of the draws (a whole number); random when omitted"},
    )
    game = ma.fields.String(load_default="destiny", metadata={
        "pattern": GAME, "maxLength": MAX_GAME, "description": "what is played (a label shown in lists)"})
    public = StrictBoolean(load_default=False, metadata={
        "description": "true: anyone may read it and its event pages, and it is listed; false (the default): "
                       "reads and event pages need the organizer token, and the event is not listed"})


class SettingsInSchema(ma.Schema):
    public = StrictBoolean(required=True, metadata={"description": "true: anyone may read; false: token only"})


class RenameInSchema(ma.Schema):
    name = ma.fields.String(required=True, metadata=NAME)


class ListQuerySchema(ma.Schema):
    page = ma.fields.Integer(strict=False, load_default=1, validate=ma.validate.Range(1, 10**6),
                             metadata={"minimum": 1, "maximum": 10**6})
    per_page = ma.fields.Integer(strict=False, load_default=20, validate=ma.validate.Range(1, MAX_PER_PAGE),
                                 metadata={"minimum": 1, "maximum": MAX_PER_PAGE})
    archived = ma.fields.Boolean(load_default=False, metadata={"description": "list archived events instead"})


class PlayerInSchema(ma.Schema):
    name = ma.fields.String(required=True, metadata=NAME)
    missed_rounds = ma.fields.String(
        load_default="loss",
        validate=ma.validate.OneOf(["loss", "none"]),
        metadata={
            "description": "late entry: rounds already paired count as losses ('loss') or not at all ('none')"
        },
    )


class ResultInSchema(ma.Schema):
    p1_wins = ma.fields.Integer(strict=True, required=True, metadata={"minimum": 0, "maximum": MAX_GAME_WINS})
    p2_wins = ma.fields.Integer(strict=True, required=True, metadata={"minimum": 0, "maximum": MAX_GAME_WINS})
    draws = ma.fields.Integer(strict=True, load_default=0, metadata={"minimum": 0, "maximum": max(BEST_OF)})
    correction = StrictBoolean(
        load_default=False, metadata={"description": "replace a different result already reported"}
    )


class PairInSchema(ma.Schema):
    p1 = ma.fields.String(required=True, metadata={"pattern": PLAYER_ID})
    p2 = ma.fields.String(required=True, metadata={"pattern": PLAYER_ID})


class OverrideInSchema(ma.Schema):
    pairings = fields.List(
        ma.fields.Nested(PairInSchema),
        required=True,
        validate=ma.validate.Length(max=MAX_ITEMS),
        metadata={"description": "table numbers follow the list order"},
    )
    bye = ma.fields.String(load_default=None, allow_none=True, metadata={"pattern": PLAYER_ID})


class CutInSchema(ma.Schema):
    size = ma.fields.Integer(
        strict=True, load_default=None, allow_none=True,
        metadata={"enum": [s for s in CUT_SIZES if s] + [None], "description": "defaults to the tournament's cut"},
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
    note = ma.fields.String(allow_none=True, metadata={
        "description": "after an entry, drop or re-entry: what it means for the round in progress, with the rule"})


class ResultSchema(ma.Schema):
    p1_wins = ma.fields.Integer()
    p2_wins = ma.fields.Integer()
    draws = ma.fields.Integer()
    winner = ma.fields.String(allow_none=True)


class MatchSchema(ma.Schema):
    table = ma.fields.Integer()
    p1 = ma.fields.String()
    p2 = ma.fields.String()
    p1_name = ma.fields.String()
    p2_name = ma.fields.String()
    result = ma.fields.Nested(ResultSchema, allow_none=True)


class RoundSchema(ma.Schema):
    number = ma.fields.Integer()
    stage = ma.fields.String(metadata={"description": "swiss | cut"})
    complete = ma.fields.Boolean()
    bye = ma.fields.String(allow_none=True)
    bye_name = ma.fields.String(allow_none=True)
    matches = ma.fields.List(ma.fields.Nested(MatchSchema))
    objective = ma.fields.Dict(
        allow_none=True, metadata={"description": "pairing objective, when just paired"}
    )


class TournamentSchema(ma.Schema):
    id = ma.fields.String()
    name = ma.fields.String()
    game = ma.fields.String()
    format = ma.fields.String(metadata={"description": "swiss-<rounds>, and +top<N> with a cut"})
    public = ma.fields.Boolean()
    status = ma.fields.String(metadata={"description": "registration | swiss | cut | finished | archived"})
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


class EventSummarySchema(ma.Schema):
    id = ma.fields.String()
    name = ma.fields.String()
    game = ma.fields.String()
    format = ma.fields.String()
    round = ma.fields.Integer(allow_none=True, metadata={"description": "the current round"})
    status = ma.fields.String()
    players = ma.fields.Integer()
    url = ma.fields.String()


class EventListSchema(ma.Schema):
    items = ma.fields.List(ma.fields.Nested(EventSummarySchema))
    page = ma.fields.Integer()
    per_page = ma.fields.Integer()
    total = ma.fields.Integer()
    pages = ma.fields.Integer()


class PairingViewSchema(ma.Schema):
    round = ma.fields.Integer()
    stage = ma.fields.String()
    table = ma.fields.Integer(allow_none=True)
    seat = ma.fields.Integer(allow_none=True)
    opponent = ma.fields.String(allow_none=True)
    opponent_name = ma.fields.String(allow_none=True)
    reported = ma.fields.Boolean()
    bye = ma.fields.Boolean()


class RecordSchema(ma.Schema):
    rank = ma.fields.Integer()
    points = ma.fields.Integer()
    wins = ma.fields.Integer()
    losses = ma.fields.Integer()
    draws = ma.fields.Integer()
    byes = ma.fields.Integer()


class PlaceSchema(ma.Schema):
    place = ma.fields.Integer(allow_none=True)
    reached = ma.fields.String()


class PlayerRoundSchema(ma.Schema):
    round = ma.fields.Integer()
    kind = ma.fields.String(metadata={"description": "match | bye | missed"})
    opponent = ma.fields.String(allow_none=True)
    opponent_name = ma.fields.String(allow_none=True)
    outcome = ma.fields.String(metadata={"description": "win | draw | loss"})
    games = ma.fields.String(allow_none=True, metadata={"description": "won-lost-drawn"})


class PlayerViewSchema(PlayerSchema):
    event = ma.fields.String()
    pairing = ma.fields.Nested(PairingViewSchema, allow_none=True)
    record = ma.fields.Nested(RecordSchema)
    place = ma.fields.Nested(PlaceSchema, allow_none=True)
    rounds = ma.fields.List(ma.fields.Nested(PlayerRoundSchema))
