"""What the OpenAPI document says beyond each view's success answer, written once for every view.

- **Problem responses.** :class:`ProblemsPlugin` (an apispec plugin given to flask-smorest) adds to
  every operation the RFC 9457 problems it can answer, each ``application/problem+json`` with the
  ``Problem`` schema: 503 (the store is away, with ``Retry-After``) everywhere; 404 where the path
  names a resource; 400, 413, 415 and 422 where a body is read; 413 and 415 on every POST/PUT/PATCH;
  422 for query arguments; 401 and 403 where the organizer's token is needed (``security``). A view
  with answers of its own adds them with :func:`problems` (e.g. ``@problems(409)``); views whose
  module cannot carry the decorator are listed in :data:`EXTRA_PROBLEMS`.
- **Path parameters.** :data:`PATH_PARAMETERS` gives each path parameter name its pattern: the
  document shows it and :func:`check_path_parameters` answers 404 for any other value before a
  view runs, whichever blueprint the route is in.
- **Schema keywords.** A marshmallow schema may carry ``Meta.openapi``, a dict of JSON Schema
  keywords merged into its component (``required``, ``additionalProperties``, ``oneOf``,
  ``example``, ...) where the schema documents what another layer checks.
- **Swagger UI without a CDN.** :func:`register_swagger_assets` serves the files of the installed
  ``swagger-ui-bundle`` package under ``/docs/assets/``.
"""

from __future__ import annotations

import copy
import functools
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from apispec import APISpec, BasePlugin
from flask import Flask, current_app, request, send_from_directory
from flask_smorest import Blueprint
from flask_smorest.utils import deepupdate

from api.problems import PROBLEM_JSON, ProblemError, ProblemSchema

RETRY_AFTER_SECONDS = 1
SECURITY_SCHEME = "organizerToken"
CREATOR_SCHEME = "creatorToken"
SWAGGER_ASSETS = "/docs/assets/"

# ---------------------------------------------------------------- identifiers

REPLAY_ID = r"^[0-9a-f]{64}$"
RULING_ID = r"^[0-9a-f]{32}$"
TOURNAMENT_ID = r"^[0-9a-f]{16}$"
PLAYER_ID = r"^p[1-9][0-9]*$"
GAME_ID = r"^[a-z][a-z0-9-]{0,31}$"
CARD_REF = r"^[^/]{1,200}$"
RULE_ID = r"^[a-z][a-z0-9._-]{0,99}$"


@dataclass(frozen=True)
class PathParameter:
    pattern: str
    description: str

    def matches(self, value: str) -> bool:
        return self.regex.fullmatch(value) is not None

    @functools.cached_property
    def regex(self) -> re.Pattern[str]:
        return re.compile(self.pattern)


#: path parameter name -> its pattern, documented and enforced (404 for any other value)
PATH_PARAMETERS: dict[str, PathParameter] = {
    "replay_id": PathParameter(REPLAY_ID, "replay ID: SHA-256 (hex) of the log's canonical JSON"),
    "ruling_id": PathParameter(RULING_ID, "ruling ID: 32 hex digits (also the job ID)"),
    "tid": PathParameter(TOURNAMENT_ID, "tournament ID: 16 hex digits"),
    "pid": PathParameter(PLAYER_ID, "player ID: p1, p2, ... in entry order"),
    "set_id": PathParameter(r"^[0-9a-f]{16}$", "annotation set ID: 16 hex digits"),
    "game": PathParameter(GAME_ID, "game ID: a log's `game` (destiny, ...)"),
    "card": PathParameter(CARD_REF, "a card's code, or its name when only one card has it"),
    "rule_id": PathParameter(RULE_ID, "rule ID of the rule index (destiny.shields.max-three)"),
}


#: a view function with this attribute set checks the client's token before anything else (a
#: malformed ID then gets the same 401/403 as any other ID: no answer tells IDs apart before that)
AUTH_FIRST = "auth_first"


def check_path_parameters() -> None:
    """``before_request``: a path parameter outside its pattern names nothing (404 problem).

    Views marked :data:`AUTH_FIRST` are left to their own guard, which answers 401/403 first.
    """
    req = request._get_current_object()  # type: ignore[attr-defined]
    args = req.view_args
    if not args:
        return
    view = current_app.view_functions.get(req.endpoint or "")
    if getattr(view, AUTH_FIRST, False):
        return
    for name, value in args.items():
        param = PATH_PARAMETERS.get(name)
        if param is not None and isinstance(value, str) and not param.matches(value):
            raise ProblemError(404, "Not Found",
                               f"Nothing at {req.path}: a {param.description} matches {param.pattern}.")


# ---------------------------------------------------------------- problem responses

#: status -> (when it is answered, headers it always carries)
PROBLEMS: dict[int, tuple[str, dict[str, dict[str, Any]]]] = {
    400: ("The body is not valid JSON (not UTF-8, NaN/Infinity, nested too deeply).", {}),
    401: ("The bearer token (the organizer's, or an annotation set's creator token) is missing.",
          {"WWW-Authenticate": {"description": "Bearer realm=\"arbiter\"", "required": True,
                                "schema": {"type": "string"}}}),
    403: ("The bearer token is not this tournament's organizer token, or not this annotation set's "
          "creator token (the same answer whether or not the tournament or the set exists).", {}),
    404: ("Nothing has this ID (or the ID is not of the documented form).", {}),
    405: ("The method is not allowed on this path.",
          {"Allow": {"description": "the allowed methods", "required": True, "schema": {"type": "string"}}}),
    409: ("Not now: the tournament's state does not allow this change yet (or any more); `type` "
          "names the rule.", {}),
    413: ("The body is larger than the limit (MAX_BODY_BYTES), with or without Content-Length.", {}),
    415: ("The body is not application/json (or */*+json).", {}),
    422: ("The body, a query argument or a log does not meet the schema or the rules; "
          "`errors[].pointer` is the JSON Pointer of each fault.", {}),
    503: ("The data store (Redis) is unavailable; try again after Retry-After seconds.",
          {"Retry-After": {"description": "seconds to wait before trying again", "required": True,
                           "schema": {"type": "integer", "minimum": 1}}}),
}

#: operations whose views cannot carry :func:`problems`: (method, path) -> extra statuses
EXTRA_PROBLEMS: dict[tuple[str, str], tuple[int, ...]] = {
    ("post", "/v1/rulings"): (404,),  # {"replay": id} names a replay that is not stored
}

BODY_METHODS = frozenset({"post", "put", "patch"})


def response_name(status: int) -> str:
    return f"Problem{status}"


def problems(*statuses: int) -> Callable[[Any], Any]:
    """Decorator: the view also answers these problems (documented with the ``Problem`` schema)."""
    unknown = [s for s in statuses if s not in PROBLEMS]
    if unknown:
        raise ValueError(f"no documented problem for {unknown}")
    return Blueprint.doc(responses={str(s): response_name(s) for s in statuses})


def statuses_for(method: str, path: str, operation: dict[str, Any]) -> set[int]:
    """The problems one operation can answer (the extras it declares aside)."""
    codes = {503}
    if "{" in path:
        codes.add(404)
    if method in BODY_METHODS:
        codes |= {413, 415}
    if "requestBody" in operation:
        codes |= {400, 422}
    if any(isinstance(p, dict) and p.get("in") == "query" for p in operation.get("parameters", [])):
        codes.add(422)
    if operation.get("security"):
        codes |= {401, 403}
    codes.update(EXTRA_PROBLEMS.get((method, path), ()))
    return codes


class ProblemsPlugin(BasePlugin):
    """apispec plugin: problem responses, path parameter patterns, the bearer scheme, Meta.openapi."""

    def init_spec(self, spec: APISpec) -> None:
        spec.components.schema("Problem", schema=ProblemSchema)
        for status, (description, headers) in PROBLEMS.items():
            response: dict[str, Any] = {
                "description": description,
                "content": {PROBLEM_JSON: {"schema": {"$ref": "#/components/schemas/Problem"}}},
            }
            if headers:
                response["headers"] = headers
            spec.components.response(response_name(status), response)
        spec.components.security_scheme(
            SECURITY_SCHEME,
            {"type": "http", "scheme": "bearer",
             "description": "The organizer token returned once by POST /v1/tournaments."})
        spec.components.security_scheme(
            CREATOR_SCHEME,
            {"type": "http", "scheme": "bearer",
             "description": "The creator token returned once by POST /v1/replays/{replay_id}/annotations."})

    def schema_helper(self, name: str, definition: dict[str, Any], **kwargs: Any) -> dict[str, Any] | None:
        schema = kwargs.get("schema")
        extra = getattr(getattr(schema, "Meta", None), "openapi", None)
        return dict(extra) if extra else None

    def path_helper(self, path: str | None = None, operations: dict[str, Any] | None = None,
                    parameters: list[dict[str, Any]] | None = None, **kwargs: Any) -> None:
        for param in parameters or []:
            spec = PATH_PARAMETERS.get(param.get("name", "")) if param.get("in") == "path" else None
            if spec is not None:
                param["schema"] = {"type": "string", "pattern": spec.pattern}
                param["description"] = spec.description
        return None

    def operation_helper(self, path: str | None = None, operations: dict[str, Any] | None = None,
                         **kwargs: Any) -> None:
        for method, operation in (operations or {}).items():
            responses: dict[str, Any] = {}
            for key, value in operation.get("responses", {}).items():
                # flask-smorest keys a view's responses by int, @blp.doc's by str: merge the two
                old = responses.get(str(key))
                both = isinstance(old, dict) and isinstance(value, dict)
                responses[str(key)] = deepupdate(copy.deepcopy(old), value) if both else value
            declared = {int(k) for k in responses if k.isdigit() and int(k) >= 400}
            for status in declared | statuses_for(method, path or "", operation):
                responses[str(status)] = self._problem_response(status, responses.get(str(status)))
            responses.pop("default", None)
            operation["responses"] = responses

    @staticmethod
    def _problem_response(status: int, declared: Any) -> Any:
        """The component for ``status``; a view's own description of it (a dict) is kept."""
        if status not in PROBLEMS or not isinstance(declared, dict):
            return response_name(status) if status in PROBLEMS else declared
        description, headers = PROBLEMS[status]
        merged = copy.deepcopy(headers)
        for name, header in declared.get("headers", {}).items():
            merged[name] = {**merged.get(name, {}), **header}
        return {
            **declared,
            "description": declared.get("description") or description,
            "content": {PROBLEM_JSON: {"schema": {"$ref": "#/components/schemas/Problem"}}},
            "headers": merged,
        }


# ---------------------------------------------------------------- swagger-ui assets


def register_swagger_assets(app: Flask) -> None:
    """Serve the installed swagger-ui-bundle under /docs/assets/ and point flask-smorest at it."""
    from swagger_ui_bundle import swagger_ui_path

    def swagger_asset(filename: str) -> Any:
        return send_from_directory(swagger_ui_path, filename, max_age=86400)

    app.add_url_rule(SWAGGER_ASSETS + "<path:filename>", "swagger_asset", swagger_asset)
