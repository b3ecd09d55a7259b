"""The OpenAPI document says what the service does: problems, patterns, ranges, limits; and the
swagger-ui page works without the internet."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask.testing import FlaskClient

from api.openapi import PATH_PARAMETERS, PROBLEMS, SECURITY_SCHEME
from judge import limits
from judge.tournament.event import MAX_NAME, MAX_ROUNDS
from tests.helpers import PROBLEM, ROOT, assert_problem

PROBLEM_REF = {"$ref": "#/components/schemas/Problem"}
METHODS = ("get", "post", "put", "patch", "delete")


@pytest.fixture()
def spec(client: FlaskClient) -> dict[str, Any]:
    doc: dict[str, Any] = client.get("/openapi.json").get_json()
    return doc


def operations(spec: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [(method, path, op) for path, item in spec["paths"].items()
            for method, op in item.items() if method in METHODS]


def response(spec: dict[str, Any], resp: dict[str, Any]) -> dict[str, Any]:
    if "$ref" in resp:
        name = resp["$ref"].rsplit("/", 1)[1]
        found: dict[str, Any] = spec["components"]["responses"][name]
        return found
    return resp


def test_every_operation_lists_its_problems(spec: dict[str, Any]) -> None:
    ops = operations(spec)
    assert len(ops) >= 20
    for method, path, op in ops:
        where = f"{method.upper()} {path}"
        codes = {int(c) for c in op["responses"] if int(c) >= 400}
        assert "default" not in op["responses"], where
        expected = {503}
        if "{" in path:
            expected.add(404)
        if method in ("post", "put", "patch"):
            expected |= {413, 415}
        if "requestBody" in op:
            expected |= {400, 422}
        if op.get("security"):
            expected |= {401, 403}
        assert expected <= codes, (where, sorted(codes))
        for code in codes:
            resp = response(spec, op["responses"][str(code)])
            assert resp["content"] == {PROBLEM: {"schema": PROBLEM_REF}}, (where, code)
            assert resp["description"], (where, code)
        retry_after = response(spec, op["responses"]["503"])["headers"]["Retry-After"]
        assert retry_after["required"] is True, where


def test_problem_schema_and_special_headers(spec: dict[str, Any]) -> None:
    problem = spec["components"]["schemas"]["Problem"]
    assert set(problem["required"]) == {"type", "title", "status", "detail", "instance"}
    assert "pointer" in spec["components"]["schemas"]["ErrorItem"]["properties"]
    responses = spec["components"]["responses"]
    assert set(responses) >= {f"Problem{code}" for code in PROBLEMS}
    assert "WWW-Authenticate" in responses["Problem401"]["headers"]
    assert "Allow" in responses["Problem405"]["headers"]
    assert spec["components"]["securitySchemes"][SECURITY_SCHEME] == {
        "type": "http", "scheme": "bearer", "description": spec["components"]["securitySchemes"][
            SECURITY_SCHEME]["description"]}


def test_tournament_writes_need_the_token_and_may_conflict(spec: dict[str, Any]) -> None:
    for method, path, op in operations(spec):
        if path.startswith("/v1/tournaments/{tid}") and method in ("post", "put") or path.endswith("/audit"):
            assert op.get("security") == [{SECURITY_SCHEME: []}], (method, path)
            if method != "get":
                assert "409" in op["responses"], (method, path)
        elif method == "get" or path == "/v1/tournaments":
            assert not op.get("security"), (method, path)


def test_path_parameters_document_their_pattern(spec: dict[str, Any]) -> None:
    seen = set()
    for path, item in spec["paths"].items():
        for param in item.get("parameters", []):
            if param["in"] == "path" and param["schema"].get("type") == "string":
                assert param["name"] in PATH_PARAMETERS, (path, param["name"])
                assert param["schema"]["pattern"] == PATH_PARAMETERS[param["name"]].pattern
                seen.add(param["name"])
            elif param["in"] == "path":
                # a step of a replay starts at 0 (the setup); rounds and the like at 1
                assert param["schema"] == {"type": "integer", "minimum": 0 if param["name"] == "at" else 1}, (
                    path, param)
    assert seen == set(PATH_PARAMETERS)


@pytest.mark.parametrize("path", [
    "/v1/replays/" + "A" * 64,
    "/v1/replays/" + "0" * 63 + "/timeline",
    "/v1/rulings/not-a-ruling",
    "/v1/tournaments/nothex",
    "/v1/tournaments/0123456789abcdef0/players",
    "/v1/tournaments/0123456789abcdef/rounds/0",
])
def test_an_id_outside_its_pattern_is_404(client: FlaskClient, path: str) -> None:
    assert_problem(client.get(path), 404)


def test_an_id_in_a_body_outside_its_pattern_is_422(client: FlaskClient) -> None:
    body = assert_problem(client.post("/v1/rulings", json={"replay": "0" * 64 + "\n"}), 422)
    assert [e["pointer"] for e in body["errors"]] == ["/replay"]
    body = assert_problem(client.post("/v1/rulings", json={"replay": "0" * 64, "at": limits.MAX_STEPS + 1}), 422)
    assert [e["pointer"] for e in body["errors"]] == ["/at"]
    body = assert_problem(client.post("/v1/rulings", json={"replay": "0" * 64, "at": 1.0}), 422)
    assert [e["pointer"] for e in body["errors"]] == ["/at"]


def test_ruling_request_documents_its_ranges(spec: dict[str, Any]) -> None:
    schema = spec["components"]["schemas"]["RulingRequest"]
    assert schema["properties"]["replay"]["pattern"] == PATH_PARAMETERS["replay_id"].pattern
    assert (schema["properties"]["at"]["minimum"], schema["properties"]["at"]["maximum"]) == (1, limits.MAX_STEPS)
    assert schema["oneOf"] == [{"required": ["replay"]}, {"required": ["log"]}]


def test_the_log_schema_lists_every_limit(spec: dict[str, Any]) -> None:
    log = spec["components"]["schemas"]["Log"]
    assert log["properties"]["steps"]["maxItems"] == limits.MAX_STEPS
    assert log["additionalProperties"] is False
    assert log["example"]["format"] == "arbiter.replay/1"
    for name, (value, _) in limits.LIMITS.items():
        assert re.search(rf"`{name}` = {value:,}\b", log["description"]) or (
            name == "MAX_BODY_BYTES" and f"{value:,} bytes" in log["description"]), name


def test_tournament_ranges_are_documented_and_enforced_at_their_bounds(
        spec: dict[str, Any], client: FlaskClient) -> None:
    create = spec["components"]["schemas"]["Create"]["properties"]
    assert (create["rounds"]["minimum"], create["rounds"]["maximum"]) == (0, MAX_ROUNDS)
    assert create["name"]["maxLength"] == MAX_NAME and create["name"]["minLength"] == 1
    assert create["cut"]["enum"] == [0, 2, 4, 8, 16, 32] and create["best_of"]["enum"] == [1, 3]
    assert create["seed"]["maximum"] == limits.MAX_SEED_INT
    fields = {"rounds": MAX_ROUNDS, "name": "x" * MAX_NAME, "seed": limits.MAX_SEED_INT}
    beyond = {"rounds": MAX_ROUNDS + 1, "name": "x" * (MAX_NAME + 1), "seed": limits.MAX_SEED_INT + 1}
    for field, value in fields.items():
        body = {"name": "Open", **{field: value}}
        assert client.post("/v1/tournaments", json=body).status_code == 201, field
        problem = assert_problem(client.post("/v1/tournaments", json={**body, field: beyond[field]}), 422)
        assert [e["pointer"] for e in problem["errors"]] == [f"/{field}"]
    for blank in (" ", "\t\u3000", "\x1c"):
        assert re.search(create["name"]["pattern"], blank) is None
        problem = assert_problem(client.post("/v1/tournaments", json={"name": blank}), 422)
        assert problem["errors"][0]["pointer"] == "/name"
    problem = assert_problem(client.post("/v1/tournaments", json={"name": "Open", "rounds": 3.0}), 422)
    assert problem["errors"][0]["pointer"] == "/rounds"  # an integer, not a float


# ---------------------------------------------------------------- swagger-ui


def test_docs_page_uses_only_local_assets(client: FlaskClient) -> None:
    page = client.get("/docs")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert "SwaggerUIBundle" in html
    assert not re.search(r"https?://", html), re.findall(r"https?://[^\s\"']+", html)
    assets = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert len(assets) == 3, assets
    types = {".css": "text/css", ".js": "text/javascript"}
    for asset in assets:
        resp = client.get(asset)
        assert resp.status_code == 200, asset
        assert resp.mimetype == types[asset[asset.rindex("."):]], (asset, resp.mimetype)
        assert len(resp.data) > 1000
    assert client.get("/docs/assets/nothing-here.js").status_code == 404


# ---------------------------------------------------------------- docs/api.md


def test_docs_list_every_limit_with_its_value() -> None:
    text = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    section = text[text.index("## Limits"):]
    rows = dict(re.findall(r"^\| `(MAX_[A-Z_]+)` \| ([0-9,]+) \|", section, flags=re.MULTILINE))
    assert rows == {name: f"{value:,}" for name, (value, _) in limits.LIMITS.items()}
    assert "Retry-After" in text and "| 503 |" in text and "| 413 |" in text
    assert all(f"| {code} |" in text for code in PROBLEMS)
    assert "swagger-ui-bundle" in text
