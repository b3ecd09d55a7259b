"""CORS for reading: every ``GET``/``HEAD`` under ``/v1/`` (and ``/openapi.json``) may be read by a
page on another site (``Access-Control-Allow-Origin: *``), so a replay viewer or an event page
hosted elsewhere can fetch replays, timelines and standings. Changes are not opened: a cross-site
``POST``/``PUT``/``DELETE`` gets no CORS headers, and a preflight is answered only for ``GET`` and
``HEAD`` without an ``Authorization`` header (a token never travels cross-site from a browser).
"""

from __future__ import annotations

from flask import Flask, Response, request

READ_METHODS = frozenset({"GET", "HEAD"})
#: headers a cross-site page may read from an answer (202's Retry-After and Location above all)
EXPOSE = "Location, Retry-After, Content-Disposition"
#: request headers a cross-site GET may send
ALLOW_HEADERS = "Accept, Accept-Language, Content-Type"
PREFLIGHT_MAX_AGE = "600"


def _readable(path: str) -> bool:
    return path.startswith("/v1/") or path == "/v1" or path == "/openapi.json"


def add_headers(resp: Response) -> Response:
    """``after_request``: the CORS headers of a read (or of a preflight asking to read)."""
    req = request._get_current_object()  # type: ignore[attr-defined]
    if not _readable(req.path):
        return resp
    if req.method in READ_METHODS:
        headers = resp.headers
        headers["Access-Control-Allow-Origin"] = "*"
        headers["Access-Control-Expose-Headers"] = EXPOSE
    elif req.method == "OPTIONS" and req.headers.get("Access-Control-Request-Method") in READ_METHODS:
        asked = {h.strip().lower() for h in req.headers.get("Access-Control-Request-Headers", "").split(",")
                 if h.strip()}
        if asked <= {h.strip().lower() for h in ALLOW_HEADERS.split(",")}:
            resp.headers["Access-Control-Allow-Origin"] = "*"
            resp.headers["Access-Control-Allow-Methods"] = "GET, HEAD"
            resp.headers["Access-Control-Allow-Headers"] = ALLOW_HEADERS
            resp.headers["Access-Control-Max-Age"] = PREFLIGHT_MAX_AGE
    return resp


def init_app(app: Flask) -> None:
    app.after_request(add_headers)
