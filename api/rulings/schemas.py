"""Schemas of the rulings resource."""

from __future__ import annotations

import re
from typing import Any, cast

import marshmallow as ma

from api.openapi import REPLAY_ID
from api.replays.schemas import LogSchema
from judge.limits import MAX_STEPS


class FullMatch(ma.validate.Regexp):
    """``Regexp`` over the whole value (``re.fullmatch``: no trailing newline slips past ``$``)."""

    def __call__(self, value: Any) -> Any:
        regex = cast("re.Pattern[str]", self.regex)
        if not isinstance(value, str) or regex.fullmatch(value) is None:
            raise ma.ValidationError(self._format_error(value))
        return value


class RulingRequestSchema(ma.Schema):
    class Meta:
        openapi = {"oneOf": [{"required": ["replay"]}, {"required": ["log"]}]}

    replay = ma.fields.String(validate=FullMatch(re.compile(REPLAY_ID), error="Not a replay ID: 64 hex digits."),
                              metadata={"description": "ID of a stored replay"})
    log = ma.fields.Nested(LogSchema, metadata={"description": "a log, stored first as by POST /v1/replays"})
    at = ma.fields.Integer(strict=True, validate=ma.validate.Range(min=1, max=MAX_STEPS), allow_none=True,
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
