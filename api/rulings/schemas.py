"""Schemas of the rulings resource."""

from __future__ import annotations

from typing import Any

import marshmallow as ma


class RulingRequestSchema(ma.Schema):
    replay = ma.fields.String(validate=ma.validate.Regexp(r"^[0-9a-f]{64}$"),
                              metadata={"description": "ID of a stored replay"})
    log = ma.fields.Dict(metadata={"description": "a log, stored first as by POST /v1/replays"})
    at = ma.fields.Integer(strict=True, validate=ma.validate.Range(min=1), allow_none=True,
                           metadata={"description": "step (from 1); default: disputed, else last"})

    @ma.validates_schema
    def one_source(self, data: dict[str, Any], **kwargs: Any) -> None:
        if ("replay" in data) == ("log" in data):
            raise ma.ValidationError("Give exactly one of 'replay' and 'log'.")


class RulingAcceptedSchema(ma.Schema):
    id = ma.fields.String()
    status = ma.fields.String()
    replay = ma.fields.String()
    at = ma.fields.Integer(allow_none=True)
    links = ma.fields.Dict()


class RulingSchema(ma.Schema):
    id = ma.fields.String()
    status = ma.fields.String(metadata={"description": "queued | started | finished | failed"})
    replay = ma.fields.String(allow_none=True)
    at = ma.fields.Integer(allow_none=True)
    ruling = ma.fields.Dict(allow_none=True, metadata={"description": "spec section 6"})
    error = ma.fields.Dict(allow_none=True)
