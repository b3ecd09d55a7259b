"""One JSON line per HTTP request, and a request ID for every request.

:func:`init_app` makes an app log, for each request, one line on stderr through the
``arbiter.request`` logger::

    {"ts": "2024-05-01T12:00:00.123+00:00", "level": "info", "event": "request", "method": "POST",
     "path": "/v1/replays", "status": 201, "duration_ms": 4.21, "request_id": "3f2a...",
     "remote_addr": "127.0.0.1"}

No bodies, headers or query strings are logged. The request ID is the client's ``X-Request-ID``
when it is a sane token (1 to 128 of ``A-Z a-z 0-9 . _ : -``, starting with a letter or digit),
otherwise a fresh one (32 hex digits); either way it is echoed in the response's ``X-Request-ID``
header and available to the views as :func:`request_id`. A 5xx answer is logged at ``error``
level, the rest at ``info``.
"""

from __future__ import annotations

import json
import logging
import math
import os
import re
import time
from json.encoder import encode_basestring_ascii

from flask import Flask, Response, g, request

from arbiter import jsonlog

HEADER = "X-Request-ID"
log = logging.getLogger("arbiter.request")

_TOKEN = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:-]{0,127}")
_EXTENSION = "arbiter.requestlog"
#: Longest path written to a log line (gunicorn refuses request lines over 4 KiB anyway).
MAX_PATH = 2048


def sane_request_id(value: str | None) -> str | None:
    """``value`` when it is acceptable as a request ID, else ``None``."""
    if value is not None and _TOKEN.fullmatch(value):
        return value
    return None


#: the environ key of the X-Request-ID header (what ``request.headers.get(HEADER)`` reads)
_ENVIRON_HEADER = "HTTP_" + HEADER.upper().replace("-", "_")


def new_request_id() -> str:
    """A fresh request ID: 32 hex digits (128 random bits)."""
    return os.urandom(16).hex()


def _request_id(ctx_g: object, environ: dict[str, object]) -> str:
    rid: str | None = getattr(ctx_g, "request_id", None)
    if rid is None:
        sent = environ.get(_ENVIRON_HEADER)
        rid = sane_request_id(sent if isinstance(sent, str) else None) or new_request_id()
        ctx_g.request_id = rid  # type: ignore[attr-defined]
    return rid


def request_id() -> str:
    """The current request's ID (the client's, when sane, else generated once)."""
    return _request_id(g._get_current_object(), request.environ)  # (a look through a proxy costs ~1 us)


def _json_number(value: float | None) -> str:
    if value is None:
        return "null"
    return float.__repr__(value) if math.isfinite(value) else json.dumps(value)


def line_text(ts: str, error: bool, method: str, path: str, status: int, duration_ms: float | None,
              rid: str, remote_addr: str | None) -> str:
    """The log line's JSON text: exactly ``json.dumps`` of the line's dict (its keys in this order,
    ensure_ascii: any path is written as plain ASCII), built without the encoder's walk of a dict."""
    remote = "null" if remote_addr is None else encode_basestring_ascii(remote_addr)
    return (f'{{"ts": {encode_basestring_ascii(ts)}, "level": "{"error" if error else "info"}", '
            f'"event": "request", "method": {encode_basestring_ascii(method)}, '
            f'"path": {encode_basestring_ascii(path)}, "status": {int.__repr__(status)}, '
            f'"duration_ms": {_json_number(duration_ms)}, "request_id": {encode_basestring_ascii(rid)}, '
            f'"remote_addr": {remote}}}')


class RequestLog:
    """The hooks of one app: ``begin`` (first of its ``before_request`` hooks) sets the request's ID
    and clock, ``end`` (``after_request``) echoes the ID and writes the line."""

    def __init__(self) -> None:
        self.stamps = jsonlog.Stamps()

    def begin(self) -> None:
        ctx_g = g._get_current_object()
        ctx_g.request_started = time.perf_counter()
        _request_id(ctx_g, request.environ)

    def end(self, response: Response) -> Response:
        ctx_g = g._get_current_object()
        req = request._get_current_object()  # type: ignore[attr-defined]
        rid = _request_id(ctx_g, req.environ)
        response.headers[HEADER] = rid
        started = getattr(ctx_g, "request_started", None)
        duration = round((time.perf_counter() - started) * 1000, 2) if started is not None else None
        status = response.status_code
        error = status >= 500
        text = line_text(self.stamps.now(), error, req.method, req.path[:MAX_PATH], status, duration, rid,
                         req.remote_addr)
        jsonlog.write(log, logging.ERROR if error else logging.INFO, text)
        return response


def init_app(app: Flask) -> None:
    """Log every request of ``app`` and give each an ID (calling it again changes nothing)."""
    if _EXTENSION in app.extensions:
        return
    hooks = app.extensions[_EXTENSION] = RequestLog()
    # First, so the ID and the clock are set before any other hook can refuse the request.
    app.before_request_funcs.setdefault(None, []).insert(0, hooks.begin)
    app.after_request(hooks.end)
    jsonlog.to_stderr(log)
