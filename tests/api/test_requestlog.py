"""One JSON line per request, with a request ID echoed in ``X-Request-ID``; no bodies logged."""

from __future__ import annotations

import json
import logging
import re
from typing import Any

import pytest
from flask import Flask

from api import requestlog
from tests.helpers import create_test_app, load_example


@pytest.fixture()
def logged_app(redis_url: str, redis_db: Any) -> Flask:
    app = create_test_app(redis_url)
    requestlog.init_app(app)
    requestlog.init_app(app)  # twice: still one line per request
    return app


def lines(caplog: pytest.LogCaptureFixture) -> list[dict[str, Any]]:
    return [json.loads(r.getMessage()) for r in caplog.records if r.name == "arbiter.request"]


def test_one_line_per_request_with_a_generated_id(
        logged_app: Flask, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="arbiter.request")
    resp = logged_app.test_client().get("/healthz", environ_base={"REMOTE_ADDR": "10.1.2.3"})
    assert resp.status_code == 200
    rid = resp.headers["X-Request-ID"]
    assert re.fullmatch(r"[0-9a-f]{32}", rid)
    [line] = lines(caplog)
    assert line["event"] == "request" and line["level"] == "info"
    assert {k: line[k] for k in ("method", "path", "status", "request_id", "remote_addr")} == {
        "method": "GET", "path": "/healthz", "status": 200, "request_id": rid,
        "remote_addr": "10.1.2.3"}
    assert isinstance(line["duration_ms"], float) and 0 <= line["duration_ms"] < 10_000
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00", line["ts"])
    again = logged_app.test_client().get("/healthz")
    assert again.headers["X-Request-ID"] != rid  # a fresh one per request


@pytest.mark.parametrize("sent", ["abc", "0f8fad5b-d9cb-469f-a165-70867728950e",
                                  "req.42:edge_7-x", "A" * 128])
def test_a_sane_incoming_id_is_kept(logged_app: Flask, caplog: pytest.LogCaptureFixture,
                                    sent: str) -> None:
    caplog.set_level(logging.INFO, logger="arbiter.request")
    resp = logged_app.test_client().get("/healthz", headers={"X-Request-ID": sent})
    assert resp.headers["X-Request-ID"] == sent
    assert lines(caplog)[-1]["request_id"] == sent


@pytest.mark.parametrize("sent", ["", "A" * 129, "has space", "-leading", "x\"y", "a/b",
                                  "é", "<script>", "a\tb"])
def test_an_insane_incoming_id_is_replaced(logged_app: Flask, caplog: pytest.LogCaptureFixture,
                                           sent: str) -> None:
    caplog.set_level(logging.INFO, logger="arbiter.request")
    resp = logged_app.test_client().get("/healthz", headers={"X-Request-ID": sent})
    rid = resp.headers["X-Request-ID"]
    assert rid != sent and re.fullmatch(r"[0-9a-f]{32}", rid)
    assert lines(caplog)[-1]["request_id"] == rid


def test_errors_are_logged_with_their_status_and_no_body(
        logged_app: Flask, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="arbiter.request")
    c = logged_app.test_client()
    secret = "do-not-log-this-body-7d1e"
    log = load_example("shields-cap.json")
    log["meta"]["title"] = secret
    assert c.post("/v1/replays", json=log).status_code == 201
    assert c.get("/v1/nowhere").status_code == 404
    # refused by a before_request hook (415): still logged, still given an ID
    unsupported = c.post("/v1/replays", data=secret, content_type="text/plain",
                         headers={"X-Request-ID": "mine-1"})
    assert unsupported.status_code == 415 and unsupported.headers["X-Request-ID"] == "mine-1"
    assert c.post("/v1/replays", data="{" + secret, content_type="application/json").status_code == 400
    got = lines(caplog)
    assert [(x["method"], x["path"], x["status"]) for x in got] == [
        ("POST", "/v1/replays", 201), ("GET", "/v1/nowhere", 404), ("POST", "/v1/replays", 415),
        ("POST", "/v1/replays", 400)]
    assert got[2]["request_id"] == "mine-1"
    assert not any(secret in r.getMessage() for r in caplog.records)


def test_a_server_error_is_logged_at_error_level(
        logged_app: Flask, caplog: pytest.LogCaptureFixture) -> None:
    @logged_app.get("/boom")
    def boom() -> str:
        raise RuntimeError("boom")

    caplog.set_level(logging.INFO, logger="arbiter.request")
    resp = logged_app.test_client().get("/boom")
    assert resp.status_code == 500 and resp.headers["X-Request-ID"]
    [record] = [r for r in caplog.records if r.name == "arbiter.request"]
    assert record.levelno == logging.ERROR
    assert json.loads(record.getMessage())["status"] == 500


def test_any_path_makes_one_ascii_json_line(
        logged_app: Flask, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="arbiter.request")
    logged_app.test_client().get("/v1/replays/%C3%A9%0A%22x%ED%A0%80" + "y" * 5000)
    [record] = [r for r in caplog.records if r.name == "arbiter.request"]
    text = record.getMessage()
    assert text.isascii() and "\n" not in text
    line = json.loads(text)
    assert line["status"] == 404
    assert line["path"].startswith("/v1/replays/é\n\"x") and len(line["path"]) == requestlog.MAX_PATH


def test_lines_go_to_stderr(logged_app: Flask, capsys: pytest.CaptureFixture[str]) -> None:
    logged_app.test_client().get("/healthz", headers={"X-Request-ID": "to-stderr"})
    err = capsys.readouterr().err
    [line] = [json.loads(x) for x in err.splitlines() if '"event": "request"' in x]
    assert line["request_id"] == "to-stderr"


# ---------------------------------------------------------------- the fast paths, equal to what they replace

from datetime import UTC, datetime  # noqa: E402

from hypothesis import given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from api import ArbiterFlask  # noqa: E402
from arbiter import jsonlog  # noqa: E402


@given(ts=st.text(), error=st.booleans(), method=st.text(), path=st.text(),
       status=st.integers(min_value=100, max_value=599),
       duration=st.none() | st.floats(allow_nan=True, allow_infinity=True).map(lambda x: round(x, 2)),
       rid=st.text(), remote=st.none() | st.text())
def test_the_line_text_is_json_dumps_of_the_line(ts: str, error: bool, method: str, path: str, status: int,
                                                  duration: float | None, rid: str, remote: str | None) -> None:
    line = {"ts": ts, "level": "error" if error else "info", "event": "request", "method": method,
            "path": path, "status": status, "duration_ms": duration, "request_id": rid, "remote_addr": remote}
    assert requestlog.line_text(ts, error, method, path, status, duration, rid, remote) == json.dumps(line)


@given(ns=st.integers(min_value=0, max_value=4_102_444_800 * 10**9))
def test_stamps_write_what_now_writes_at_the_same_reading(ns: int) -> None:
    expected = datetime.fromtimestamp(ns // 10**9, UTC).replace(
        microsecond=ns % 10**9 // 1000).isoformat(timespec="milliseconds")
    stamps = jsonlog.Stamps()
    assert stamps.at(ns) == expected
    assert stamps.at(ns) == expected  # again, from the kept second
    assert stamps.at(ns + 10**9) != expected  # the next second is not the kept one


def test_stamps_now_has_the_form_of_now() -> None:
    before = jsonlog.now()
    got = jsonlog.Stamps().now()
    after = jsonlog.now()
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00", got)
    assert before <= got <= after


def test_ensure_sync_answers_as_flask_does_and_keeps_a_bounded_table() -> None:
    app = ArbiterFlask(__name__)
    plain = Flask(__name__)

    def hook() -> None:
        pass

    async def coro() -> None:
        pass

    assert app.ensure_sync(hook) is hook is plain.ensure_sync(hook)
    assert app.ensure_sync(hook) is hook  # from the table
    for flask_app in (app, plain):  # a coroutine goes to Flask's async_to_sync (here without asgiref)
        with pytest.raises(RuntimeError, match="async"):
            flask_app.ensure_sync(coro)
    assert coro not in app._sync
    app.SYNC_TABLE_SIZE = 5
    funcs = [lambda: None for _ in range(20)]
    assert [app.ensure_sync(f) for f in funcs] == funcs
    assert len(app._sync) == 5
