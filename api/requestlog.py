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
import re
import time
import uuid

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


def request_id() -> str:
    """The current request's ID (the client's, when sane, else generated once)."""
    ctx_g = g._get_current_object()  # (each look through a proxy costs about a microsecond)
    rid: str | None = ctx_g.get("request_id")
    if rid is None:
        rid = sane_request_id(request.headers.get(HEADER)) or uuid.uuid4().hex
        ctx_g.request_id = rid
    return rid


def _begin() -> None:
    g.request_started = time.perf_counter()
    request_id()


def _end(response: Response) -> Response:
    rid = request_id()
    response.headers[HEADER] = rid
    started = g.get("request_started")
    duration = (time.perf_counter() - started) * 1000 if started is not None else None
    error = response.status_code >= 500
    req = request._get_current_object()  # type: ignore[attr-defined]
    line = {
        "ts": jsonlog.now(),
        "level": "error" if error else "info",
        "event": "request",
        "method": req.method,
        "path": req.path[:MAX_PATH],
        "status": response.status_code,
        "duration_ms": round(duration, 2) if duration is not None else None,
        "request_id": rid,
        "remote_addr": req.remote_addr,
    }
    # ensure_ascii: any path is written as plain ASCII
    jsonlog.write(log, logging.ERROR if error else logging.INFO, json.dumps(line))
    return response


def init_app(app: Flask) -> None:
    """Log every request of ``app`` and give each an ID (calling it again changes nothing)."""
    if _EXTENSION in app.extensions:
        return
    app.extensions[_EXTENSION] = True
    # First, so the ID and the clock are set before any other hook can refuse the request.
    app.before_request_funcs.setdefault(None, []).insert(0, _begin)
    app.after_request(_end)
    jsonlog.to_stderr(log)
