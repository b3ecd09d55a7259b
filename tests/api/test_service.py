"""Health, docs, and the problem format for routing errors and unexpected exceptions."""

from __future__ import annotations

import time

from flask.testing import FlaskClient

from tests.helpers import assert_problem, create_test_app


def test_healthz(client: FlaskClient) -> None:
    resp = client.get("/healthz")
    assert resp.status_code == 200
    assert resp.get_json() == {"status": "ok", "redis": "ok"}


def test_healthz_without_redis_is_503_problem(redis_url: str) -> None:
    app = create_test_app("redis://127.0.0.1:1/0")  # nothing listens on port 1
    t0 = time.monotonic()
    resp = app.test_client().get("/healthz")
    body = assert_problem(resp, 503)
    assert "Redis" in body["detail"] and "unavailable" in body["detail"]
    assert resp.headers["Retry-After"] == "1"
    assert time.monotonic() - t0 < 3


def test_any_view_without_redis_is_503_problem_not_500(redis_url: str) -> None:
    app = create_test_app("redis://127.0.0.1:1/0")
    client = app.test_client()
    for resp in (client.get("/v1/replays/" + "0" * 64), client.post("/v1/tournaments", json={"name": "x"}),
                 client.get("/v1/tournaments/0123456789abcdef/standings")):
        body = assert_problem(resp, 503)
        assert body["detail"] == "The data store is unavailable; try again shortly."
        assert resp.headers["Retry-After"] == "1"


def test_openapi_and_docs(client: FlaskClient) -> None:
    spec = client.get("/openapi.json").get_json()
    paths = spec["paths"]
    for path in ("/v1/replays", "/v1/replays/{replay_id}", "/v1/replays/{replay_id}/timeline",
                 "/v1/rulings", "/v1/rulings/{ruling_id}", "/healthz"):
        assert path in paths, sorted(paths)
    docs = client.get("/docs")
    assert docs.status_code == 200
    assert b"swagger" in docs.data.lower()


def test_404_and_405_are_problems(client: FlaskClient) -> None:
    assert_problem(client.get("/v1/nothing"), 404)
    resp = client.delete("/v1/replays")
    body = assert_problem(resp, 405)
    assert "POST" in resp.headers["Allow"]
    assert "DELETE" in body["detail"]


def test_unexpected_exception_is_500_problem_without_internals(redis_url: str) -> None:
    app = create_test_app(redis_url)

    @app.route("/boom")
    def boom() -> str:
        raise RuntimeError("secret internals")

    resp = app.test_client().get("/boom")
    body = assert_problem(resp, 500)
    assert "secret" not in resp.get_data(as_text=True)
    assert body["instance"] == "/boom"
