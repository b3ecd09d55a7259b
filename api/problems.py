"""Every error the API returns is RFC 9457 ``application/problem+json``.

A problem has ``type``, ``title``, ``status``, ``detail``, ``instance`` (the request path) and,
where the client's input is at fault, ``errors``: one ``{"pointer", "detail"}`` per fault, the
pointer being a JSON Pointer (RFC 6901) into the request body ("" is the whole body).

Raise :class:`ProblemError` from a view; HTTP errors raised by Flask, Werkzeug or webargs (400 bad
JSON, 404, 405, 413, 415, 422 from marshmallow) and unexpected exceptions (500) are turned into
problems by :func:`register`. A Redis that cannot be reached (connection refused or lost, a time-out,
a server still loading its data) is a 503 with ``Retry-After``, never a 500: redis-py reconnects
by itself on the next request, so the service recovers as soon as Redis is back.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Mapping
from http import HTTPStatus
from itertools import chain, islice
from typing import Any

import marshmallow as ma
import redis
from flask import Flask, Response, current_app, json, request
from werkzeug.exceptions import HTTPException

from judge.limits import MAX_FAULTS

PROBLEM_JSON = "application/problem+json"
#: seconds a client should wait before trying again after a 503
RETRY_AFTER = 1
#: what Redis raises when it is away (BusyLoadingError, a ConnectionError, while it loads its data)
STORE_UNAVAILABLE: tuple[type[Exception], ...] = (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError)
log = logging.getLogger(__name__)


class ProblemError(Exception):
    """An error to send as a problem document."""

    def __init__(self, status: int, title: str, detail: str, pointer: str | None = None,
                 errors: list[dict[str, str]] | None = None, type: str = "about:blank",
                 headers: Mapping[str, str] | None = None):
        super().__init__(detail)
        self.status = status
        self.title = title
        self.detail = detail
        self.type = type
        self.errors = list(errors or [])
        if pointer is not None:
            self.errors.insert(0, {"pointer": pointer, "detail": detail})
        self.headers = dict(headers or {})
        if status == 503:
            self.headers.setdefault("Retry-After", str(RETRY_AFTER))

    def to_json(self) -> dict[str, Any]:
        body: dict[str, Any] = {"type": self.type, "title": self.title, "status": self.status,
                                "detail": self.detail, "instance": request.path}
        if self.errors:
            body["errors"] = self.errors
        return body


class ErrorItemSchema(ma.Schema):
    pointer = ma.fields.String(required=True, metadata={"description": "JSON Pointer into the request body"})
    detail = ma.fields.String(required=True)
    rule = ma.fields.String(metadata={"description": "the rule ID the fault breaks (tournaments)"})


class ProblemSchema(ma.Schema):
    """RFC 9457 problem details (documentation only)."""

    type = ma.fields.String(required=True, metadata={"description": "about:blank, or urn:arbiter:rule:<rule id>"})
    title = ma.fields.String(required=True)
    status = ma.fields.Integer(required=True)
    detail = ma.fields.String(required=True)
    instance = ma.fields.String(required=True, metadata={"description": "the request path"})
    errors = ma.fields.List(ma.fields.Nested(ErrorItemSchema),
                            metadata={"description": "one item per fault of the client's input"})


def escape(token: str) -> str:
    """One JSON Pointer reference token (RFC 6901: ``~`` as ``~0``, ``/`` as ``~1``)."""
    return token.replace("~", "~0").replace("/", "~1")


def pointers(messages: Any, base: str = "") -> Iterator[dict[str, str]]:
    """Flatten marshmallow's nested error messages into ``{"pointer", "detail"}`` items."""
    if isinstance(messages, Mapping):
        for key, value in messages.items():
            child = base if key == "_schema" else f"{base}/{escape(str(key))}"
            yield from pointers(value, child)
    elif isinstance(messages, list | tuple):
        for item in messages:
            yield from pointers(item, base)
    else:
        yield {"pointer": base, "detail": str(messages)}


def response(problem: ProblemError) -> Response:
    resp = current_app.response_class(json.dumps(problem.to_json()), status=problem.status,
                                      mimetype=PROBLEM_JSON)
    for name, value in problem.headers.items():
        resp.headers[name] = value
    return resp


def _title(code: int) -> str:
    try:
        return HTTPStatus(code).phrase
    except ValueError:
        return "Error"


def from_http_exception(error: HTTPException) -> ProblemError:
    """The problem for a Werkzeug/webargs HTTP error."""
    code = error.code or 500
    data = getattr(error, "data", None) or {}
    messages = data.get("errors") or data.get("messages")
    errors: list[dict[str, str]] = []
    detail = error.description or _title(code)
    if code == 400 and messages:
        detail = "The request body is not valid JSON."
        errors = [{"pointer": "", "detail": detail}]
    elif code == 422 and isinstance(messages, Mapping):
        # webargs nests messages under the location ("json", "query", ...); body pointers start at "".
        every = chain.from_iterable(
            pointers(inner, "" if location == "json" else f"/{escape(str(location))}")
            for location, inner in messages.items())
        errors = list(islice(every, MAX_FAULTS + 1))
        if len(errors) > MAX_FAULTS:  # (a long list of bad items: the first MAX_FAULTS, and a word)
            errors[MAX_FAULTS:] = [{"pointer": "", "detail": f"More faults follow; only the first {MAX_FAULTS} "
                                                             "are listed (MAX_FAULTS)."}]
        where = {str(location) for location in messages}
        detail = ("The request body does not match the schema." if where <= {"json"} else
                  f"The request's {' and '.join(sorted(where))} do not match the schema.")
    elif code == 413:
        limit = current_app.config.get("MAX_CONTENT_LENGTH")
        detail = f"The request body is larger than the limit of {limit} bytes."
    elif code == 405:
        detail = f"{request.method} is not allowed on {request.path}."
    elif code == 404:
        detail = f"Nothing at {request.path}."
    headers: dict[str, str] = {}
    valid_methods = getattr(error, "valid_methods", None)
    if code == 405 and valid_methods:
        headers["Allow"] = ", ".join(valid_methods)
    if isinstance(data.get("headers"), Mapping):
        headers.update(data["headers"])
    return ProblemError(code, _title(code), detail, errors=errors, headers=headers)


def handle_http_exception(error: HTTPException) -> Response:
    original = getattr(error, "original_exception", None)
    if (error.code or 500) >= 500:
        log.error("unhandled error on %s %s", request.method, request.path,
                  exc_info=original or error)
        if original is not None:
            return response(ProblemError(500, _title(500), "The server failed to handle the request."))
    return response(from_http_exception(error))


def handle_problem(error: ProblemError) -> Response:
    return response(error)


def handle_unexpected(error: Exception) -> Response:
    """Any other exception: logged, and a 500 problem that reveals nothing of it."""
    log.error("unhandled error on %s %s", request.method, request.path, exc_info=error)
    return response(ProblemError(500, _title(500), "The server failed to handle the request."))


def handle_store_unavailable(error: Exception) -> Response:
    """Redis is away: 503 with Retry-After; logged without a traceback (it is not a bug)."""
    log.warning("store unavailable on %s %s: %s", request.method, request.path, error)
    return response(ProblemError(503, _title(503), "The data store is unavailable; try again shortly."))


def register(app: Flask) -> None:
    app.register_error_handler(ProblemError, handle_problem)
    for exc in STORE_UNAVAILABLE:
        app.register_error_handler(exc, handle_store_unavailable)
    app.register_error_handler(HTTPException, handle_http_exception)
    app.register_error_handler(Exception, handle_unexpected)
