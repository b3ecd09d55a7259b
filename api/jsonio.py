"""Strict JSON for request bodies: ``NaN``/``Infinity`` and absurd nesting are invalid JSON (400).

The stdlib parser accepts ``NaN`` and ``Infinity`` (which then cannot be stored as JSON) and
raises ``RecursionError`` on deep nesting; both would otherwise surface as 500s. Flask's
``request.get_json`` goes through :class:`StrictJSONProvider`; webargs (flask-smorest's argument
parser) parses bodies itself, so :class:`StrictParser` replaces its loader and is installed as
the parser of every flask-smorest blueprint by :func:`install`.
"""

from __future__ import annotations

import json
from typing import Any

import flask
import flask_smorest
from flask.json.provider import DefaultJSONProvider
from webargs import core
from webargs.flaskparser import FlaskParser, is_json_request


def _no_constants(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def strict_loads(s: str | bytes, **kwargs: Any) -> Any:
    """``json.loads`` without NaN/Infinity; too deep nesting is a ``ValueError``."""
    kwargs.setdefault("parse_constant", _no_constants)
    try:
        return json.loads(s, **kwargs)
    except RecursionError as exc:
        raise ValueError("JSON nested too deeply") from exc


class StrictJSONProvider(DefaultJSONProvider):
    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        return strict_loads(s, **kwargs)


class StrictParser(FlaskParser):
    def _raw_load_json(self, req: flask.Request) -> Any:
        if not is_json_request(req):
            return core.missing
        data = req.get_data(cache=True)
        try:
            text = data.decode("utf-8")
            return strict_loads(text)
        except UnicodeDecodeError as exc:
            raise json.JSONDecodeError(f"not UTF-8: {exc.reason}", doc="<body>", pos=exc.start) from exc
        except json.JSONDecodeError:
            raise
        except ValueError as exc:
            raise json.JSONDecodeError(str(exc), doc="<body>", pos=0) from exc


PARSER = StrictParser()


def install() -> None:
    """Make every flask-smorest blueprint (ours and others') parse bodies strictly."""
    flask_smorest.Blueprint.ARGUMENTS_PARSER = PARSER
