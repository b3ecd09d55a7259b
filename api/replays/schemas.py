"""Schemas of the replays resource. The log itself is checked by the engine, not by marshmallow."""

from __future__ import annotations

import marshmallow as ma

from judge.games import registry


class LogSchema(ma.Schema):
    """A replay log (docs/replay-format.md). Fields are listed for the docs; the engine validates."""

    class Meta:
        unknown = ma.INCLUDE

    format = ma.fields.Raw(metadata={"description": "exactly arbiter.replay/1"})
    game = ma.fields.Raw(metadata={"description": " | ".join(registry.KNOWN)})
    rules = ma.fields.Raw()
    meta = ma.fields.Raw()
    rng = ma.fields.Raw()
    players = ma.fields.Raw()
    setup = ma.fields.Raw()
    steps = ma.fields.Raw()


class LinksSchema(ma.Schema):
    self = ma.fields.String()
    timeline = ma.fields.String()


class ReplayCreatedSchema(ma.Schema):
    id = ma.fields.String(metadata={"description": "SHA-256 of the log's canonical JSON"})
    created = ma.fields.Boolean(metadata={"description": "false when the log was already stored"})
    summary = ma.fields.Dict(metadata={"description": "replay result without final_state"})
    links = ma.fields.Nested(LinksSchema)


class ReplaySchema(ma.Schema):
    id = ma.fields.String()
    log = ma.fields.Dict()
    replay = ma.fields.Dict(metadata={"description": "replay result (spec section 4)"})
    links = ma.fields.Nested(LinksSchema)


class TimelineSchema(ma.Schema):
    id = ma.fields.String()
    timeline = ma.fields.Dict()
