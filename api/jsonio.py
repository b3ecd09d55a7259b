"""Strict JSON for request bodies: ``NaN``/``Infinity`` and absurd nesting are invalid JSON (400)."""

from __future__ import annotations

import json
from typing import Any

from flask.json.provider import DefaultJSONProvider


def _no_constants(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


class StrictJSONProvider(DefaultJSONProvider):
    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        kwargs.setdefault("parse_constant", _no_constants)
        try:
            return json.loads(s, **kwargs)
        except RecursionError as exc:
            raise ValueError("JSON nested too deeply") from exc
