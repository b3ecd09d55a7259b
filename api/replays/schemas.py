"""Schemas of the replays resource. The log itself is checked by the engine, not by marshmallow.

:class:`LogSchema` loads the body as it came (its fields are ``Raw`` and unknown keys are kept,
so the content address is that of the posted log) and *documents* what the engine enforces: the
keys, their types, the formats and games it reads, 2 to 4 players, at most ``MAX_STEPS`` steps,
and every bound of judge/limits.py in its description.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

import marshmallow as ma

from judge import limits
from judge.games import registry
from judge.games.base import PLAYER
from judge.kernel.rng import ALGORITHM

LOG_FORMAT = "arbiter.replay/1"
EXAMPLE_LOG = "modifier-alone.json"
#: the limits that bound a log (all but the body's, which is the request's)
#: bounds on the service's work, not on a log: past them a log is queued (202) or refused for now (503)
SERVICE_LIMITS = ("MAX_BODY_BYTES", "MAX_STEPS_IN_REQUEST", "MAX_QUEUED_JOBS")
LOG_LIMITS = [name for name in limits.LIMITS if name not in SERVICE_LIMITS]


def _example_log() -> Any:
    return json.loads((resources.files("replays") / "examples" / EXAMPLE_LOG).read_text(encoding="utf-8"))


def limits_description(names: Any = LOG_LIMITS) -> str:
    """Bounds from judge.limits.LIMITS, one line each (Markdown)."""
    return "\n".join(f"- `{name}` = {limits.LIMITS[name][0]:,}: {limits.LIMITS[name][1]}" for name in names)


class EngineChecked(ma.fields.Raw):
    """Any JSON value, null included, passed on unchanged: the engine checks it, with its own
    faults and pointers (the OpenAPI keywords in ``metadata`` document what it accepts)."""

    def deserialize(self, value: Any, attr: str | None = None, data: Any = None, **kwargs: Any) -> Any:
        return None if value is None else super().deserialize(value, attr, data, **kwargs)


class LogSchema(ma.Schema):
    """A replay log (docs/replay-format.md). Fields are listed for the docs; the engine validates."""

    class Meta:
        unknown = ma.INCLUDE
        openapi = {
            "description": (
                "A replay log (docs/replay-format.md), validated by the engine: every fault is "
                "a 422 problem with its JSON Pointer. Bounds (judge/limits.py), each a 422 beyond "
                f"it (the whole body: 413 beyond {limits.MAX_BODY_BYTES:,} bytes):\n\n"
                + limits_description()
                + "\n\nBounds on the service's work, not on the log: a log whose replay work is over "
                "`MAX_STEPS_IN_REQUEST` is stored and replayed by a worker (202), and past "
                "`MAX_QUEUED_JOBS` waiting jobs a request that would queue one is a 503 with Retry-After:\n\n"
                + limits_description([n for n in SERVICE_LIMITS if n != "MAX_BODY_BYTES"])
            ),
            "required": ["format", "game", "players", "setup"],
            "additionalProperties": False,
            "example": _example_log(),
        }

    format = EngineChecked(metadata={"type": "string", "enum": [LOG_FORMAT],
                                     "description": f"exactly {LOG_FORMAT}"})
    game = EngineChecked(metadata={"type": "string", "enum": list(registry.KNOWN),
                                   "description": " | ".join(registry.KNOWN)})
    rules = EngineChecked(metadata={"type": "string", "maxLength": limits.MAX_STRING,
                                    "description": "edition name (default: the seed documents)"})
    meta = EngineChecked(metadata={"type": "object", "description": "free-form; meta.format: standard | "
                                                                    "starter | sandbox (deck checks)"})
    rng = EngineChecked(metadata={
        "type": "object",
        "nullable": True,
        "required": ["algorithm", "seed"],
        "properties": {
            "algorithm": {"type": "string", "enum": [ALGORITHM]},
            "seed": {"anyOf": [{"type": "string", "maxLength": limits.MAX_SEED_CHARS},
                               {"type": "integer", "minimum": 0, "maximum": limits.MAX_SEED_INT}]},
            "drawn": {"type": "integer", "minimum": 0, "maximum": limits.MAX_RNG_DRAWN},
        },
        "description": "the seeded generator (docs/replay-format.md); null or absent: none; "
                       "a float seed is an error",
    })
    players = EngineChecked(metadata={
        "type": "array", "minItems": 2, "maxItems": 4,
        "items": {"type": "object", "required": ["id"],
                  "properties": {"id": {"type": "string", "pattern": PLAYER.pattern},
                                 "name": {"type": "string", "maxLength": limits.MAX_STRING}}},
        "description": "2 to 4 players, each {id, name}",
    })
    setup = EngineChecked(metadata={"type": "object",
                                    "description": "a position ({\"position\": ...}) or the outcomes of setup"})
    steps = EngineChecked(metadata={
        "type": "array", "maxItems": limits.MAX_STEPS, "items": {"type": "object"},
        "description": f"the inputs, at most {limits.MAX_STEPS:,} (MAX_STEPS)",
    })


class LinksSchema(ma.Schema):
    self = ma.fields.String()
    timeline = ma.fields.String()
    view = ma.fields.String(metadata={"description": "the replay viewer's page: the link to share (add "
                                                     "#step-N to open it at step N)"})


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
    at = ma.fields.Integer(metadata={"description": "with ?at=N: the step asked for"})
    state = ma.fields.Dict(metadata={"description": "with ?at=N: the table's state view after step N"})
