"""Tournament state survives a restart of Redis (AOF) and of the API; concurrent changes are
never lost."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import redis
from flask import Flask
from flask.testing import FlaskClient

from arbiter.redis_conn import EmbeddedRedis
from tests.helpers import create_test_app

BASE = "/v1/tournaments"


def _disconnect(app: Flask) -> None:
    for value in app.extensions["arbiter"].values():
        if isinstance(value, redis.Redis):
            value.connection_pool.disconnect()


def test_event_survives_an_embedded_redis_restart(tmp_path: Path) -> None:
    server = EmbeddedRedis(tmp_path / "redis", appendonly=True)
    url = server.start()
    try:
        app = create_test_app(url)
        c = app.test_client()
        body = c.post(BASE, json={"name": "Durable", "seed": 3, "cut": 2, "public": True}).get_json()
        tid, auth = body["id"], {"Authorization": f"Bearer {body['token']}"}
        for i in range(5):
            c.post(f"{BASE}/{tid}/players", json={"name": f"P{i}"}, headers=auth)
        rnd = c.post(f"{BASE}/{tid}/rounds", headers=auth).get_json()
        c.put(f"{BASE}/{tid}/rounds/1/matches/1", json={"p1_wins": 1, "p2_wins": 0}, headers=auth)
        before = {p: c.get(f"{BASE}/{tid}{p}").get_json() for p in ("", "/players", "/rounds", "/standings")}
        _disconnect(app)
    finally:
        server.stop()
    assert not server.running

    again = EmbeddedRedis(tmp_path / "redis", appendonly=True)
    url2 = again.start()
    try:
        app2 = create_test_app(url2)  # a fresh API process: nothing cached
        c2 = app2.test_client()
        after = {p: c2.get(f"{BASE}/{tid}{p}").get_json() for p in ("", "/players", "/rounds", "/standings")}
        assert after == before
        assert [(m["p1"], m["p2"]) for m in after["/rounds"][0]["matches"]] == [
            (m["p1"], m["p2"]) for m in rnd["matches"]
        ]
        assert after["/rounds"][0]["matches"][0]["result"]["p1_wins"] == 1
        # the organizer token still works, and the event goes on
        ok = c2.put(f"{BASE}/{tid}/rounds/1/matches/2", json={"p1_wins": 0, "p2_wins": 1}, headers=auth)
        assert ok.status_code == 200
        assert c2.get(f"{BASE}/{tid}/audit", headers=auth).get_json()[-1]["action"]["table"] == 2
        _disconnect(app2)
    finally:
        again.stop()


def _hammer(
    clients: list[FlaskClient], calls: list[tuple[str, dict[str, Any]]], headers: dict[str, str]
) -> list[int]:
    statuses: list[int] = [0] * len(calls)
    barrier = threading.Barrier(len(calls))

    def run(i: int) -> None:
        url, body = calls[i]
        barrier.wait()
        statuses[i] = clients[i % len(clients)].put(url, json=body, headers=headers).status_code

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return statuses


def test_concurrent_reports_from_two_api_processes_are_never_lost(redis_url: str, redis_db: Any) -> None:
    # Two apps = two API processes with separate caches, sharing one Redis.
    a, b = create_test_app(redis_url), create_test_app(redis_url)
    ca, cb = a.test_client(), b.test_client()
    body = ca.post(BASE, json={"name": "Race", "seed": 1, "public": True}).get_json()
    tid, auth = body["id"], {"Authorization": f"Bearer {body['token']}"}
    for i in range(16):
        cb.post(f"{BASE}/{tid}/players", json={"name": f"P{i}"}, headers=auth)
    ca.post(f"{BASE}/{tid}/rounds", headers=auth)
    calls = [(f"{BASE}/{tid}/rounds/1/matches/{t}", {"p1_wins": 1, "p2_wins": 0}) for t in range(1, 9)]
    assert _hammer([ca, cb], calls, auth) == [200] * 8
    rnd = cb.get(f"{BASE}/{tid}/rounds/1").get_json()
    assert rnd["complete"] is True
    assert len(ca.get(f"{BASE}/{tid}/audit", headers=auth).get_json()) == 1 + 16 + 1 + 8

    # the same match reported two different ways at once: exactly one wins, the other is a 409
    ca.post(f"{BASE}/{tid}/rounds", headers=auth)
    url = f"{BASE}/{tid}/rounds/2/matches/1"
    statuses = _hammer(
        [ca, cb], [(url, {"p1_wins": 1, "p2_wins": 0}), (url, {"p1_wins": 0, "p2_wins": 1})], auth
    )
    assert sorted(statuses) == [200, 409]
    winner = ca.get(url.rsplit("/matches", 1)[0]).get_json()["matches"][0]["result"]
    expected = {"p1_wins": 1, "p2_wins": 0} if statuses[0] == 200 else {"p1_wins": 0, "p2_wins": 1}
    assert {k: winner[k] for k in expected} == expected
    # both reported identically at once: both succeed, one action recorded
    url3 = f"{BASE}/{tid}/rounds/2/matches/2"
    n = len(ca.get(f"{BASE}/{tid}/audit", headers=auth).get_json())
    assert _hammer([ca, cb], [(url3, {"p1_wins": 1, "p2_wins": 0})] * 2, auth) == [200, 200]
    assert len(cb.get(f"{BASE}/{tid}/audit", headers=auth).get_json()) == n + 1
