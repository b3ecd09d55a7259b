"""Strict JSON for request bodies: ``NaN``/``Infinity`` and absurd nesting are invalid JSON (400).

The stdlib parser accepts ``NaN`` and ``Infinity`` (which then cannot be stored as JSON) and
raises ``RecursionError`` on deep nesting; both would otherwise surface as 500s. Flask's
``request.get_json`` goes through :class:`StrictJSONProvider`; webargs (flask-smorest's argument
parser) parses bodies itself, so :class:`StrictParser` replaces its loader and is installed as
the parser of every flask-smorest blueprint by :func:`install`.

Body size: :class:`BoundedBody` (WSGI middleware) reads a chunked body (no ``Content-Length``) up
to the limit plus one byte and hands the app a body of known length, so :func:`refuse_large_body`
answers 413 for it exactly as for a declared ``Content-Length`` over the limit; nothing beyond the
limit plus one byte is read either way. (Werkzeug alone would truncate a chunked body at the limit
and answer 400 for the cut JSON.)
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Callable, Iterable
from typing import Any

import flask
import flask_smorest
from flask.json.provider import DefaultJSONProvider
from webargs import core
from webargs.flaskparser import FlaskParser, is_json_request
from werkzeug.exceptions import RequestEntityTooLarge

from api.problems import ProblemError
from judge.games.jsonbounds import count_values, lone_surrogates
from judge.limits import MAX_NODES


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


# a JSON string, as an unrolled loop of possessive runs: one step per escape, not per character (a
# repeated group per character made the regex engine keep ~120 bytes per character of a long string)
def refuse_many_values(data: bytes) -> None:
    """422 at the whole body when it holds more than MAX_NODES values."""
    n = count_values(data)
    if n > MAX_NODES:
        raise ProblemError(422, "Too many values",
                           f"The body holds {n:,} JSON values; the limit is {MAX_NODES:,} (MAX_NODES).",
                           pointer="")


# a \\u escape of a surrogate (d800-dfff) in JSON text: only through one can a body (valid UTF-8)
# hold a lone surrogate, so a body without any is not walked
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def refuse_lone_surrogates(text: str, doc: Any) -> None:
    """422 with a pointer to each string or key of a parsed body (``text``) that holds a lone
    surrogate: it could not be stored, nor shown, nor hashed."""
    if _SURROGATE_ESCAPE.search(text) is None:
        return
    found = [{"pointer": at, "detail": str(fault)} for at, fault in lone_surrogates(doc)]
    if found:
        raise ProblemError(422, "Unprocessable Content",
                           "The request body is not valid Unicode: a string holds a lone surrogate.",
                           errors=found)


def parse_body(data: bytes, unicode: bool = True) -> Any:
    """A request body's JSON, strictly (see :func:`strict_loads`), bounded (``MAX_NODES`` values)
    and (``unicode``) valid Unicode; ``json.JSONDecodeError`` when it is not JSON, a 422 problem
    otherwise."""
    refuse_many_values(data)
    try:
        text = data.decode("utf-8")
        doc = strict_loads(text)
    except UnicodeDecodeError as exc:
        raise json.JSONDecodeError(f"not UTF-8: {exc.reason}", doc="<body>", pos=exc.start) from exc
    except json.JSONDecodeError:
        raise
    except ValueError as exc:
        raise json.JSONDecodeError(str(exc), doc="<body>", pos=0) from exc
    if unicode:
        refuse_lone_surrogates(text, doc)
    return doc


def request_json(req: flask.Request) -> Any:
    """The body of a request read without a schema (the quick position's form): as
    :func:`parse_body`, invalid JSON being a 400 problem at the whole body. A lone surrogate is
    left to the reader, which points at the line of the text that holds it."""
    try:
        return parse_body(req.get_data(cache=True), unicode=False)
    except json.JSONDecodeError as exc:
        raise ProblemError(400, "Bad Request", f"The request body is not valid JSON: {exc.msg}.",
                           pointer="") from exc


class StrictParser(FlaskParser):
    def _raw_load_json(self, req: flask.Request) -> Any:
        if not is_json_request(req):
            return core.missing
        return parse_body(req.get_data(cache=True))


PARSER = StrictParser()


def install() -> None:
    """Make every flask-smorest blueprint (ours and others') parse bodies strictly."""
    flask_smorest.Blueprint.ARGUMENTS_PARSER = PARSER


# at import too: a blueprint's views take the parser when their module is imported, and the ``api``
# package imports this module before any of its blueprints (one imported ahead of ``create_app``,
# e.g. by a test or a tool, would otherwise keep webargs' own parser and its 500 on deep JSON)
install()


BODY_METHODS = frozenset({"POST", "PUT", "PATCH"})
READ_CHUNK = 64 * 1024


class BoundedBody:
    """WSGI middleware: a chunked request body is read here, at most ``limit() + 1`` bytes.

    The app then sees the bytes read with their ``Content-Length``: within the limit, the body as
    sent; beyond it, a length of ``limit + 1`` that :func:`refuse_large_body` answers with 413.
    Only bodies of POST, PUT and PATCH are read; any other method's body is ignored, as before.
    """

    def __init__(self, app: Callable[..., Iterable[bytes]], limit: Callable[[], int | None]):
        self.app = app
        self.limit = limit

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        chunked = "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower()
        limit = self.limit()
        if (chunked and limit is not None and not environ.get("CONTENT_LENGTH")
                and environ.get("REQUEST_METHOD", "") in BODY_METHODS
                and environ.get("wsgi.input_terminated")):
            data = read_at_most(environ["wsgi.input"], limit + 1)
            environ["wsgi.input"] = io.BytesIO(data)
            environ["CONTENT_LENGTH"] = str(len(data))
            environ.pop("HTTP_TRANSFER_ENCODING", None)
        return self.app(environ, start_response)


def read_at_most(stream: Any, n: int) -> bytes:
    """Up to ``n`` bytes of ``stream`` (fewer when it ends first); never reads past ``n``."""
    out = bytearray()
    while len(out) < n:
        chunk = stream.read(min(READ_CHUNK, n - len(out)))
        if not chunk:
            break
        out += chunk
    return bytes(out)


def refuse_large_body() -> None:
    """``before_request``: 413 when the body of a POST/PUT/PATCH is over ``MAX_CONTENT_LENGTH``."""
    req = flask.request._get_current_object()  # type: ignore[attr-defined]
    if req.method not in BODY_METHODS:
        return  # (most requests: a GET's body is never read)
    limit = flask.current_app.config.get("MAX_CONTENT_LENGTH")
    length = req.content_length
    if limit is not None and length is not None and length > limit:
        raise RequestEntityTooLarge()
