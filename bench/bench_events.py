"""Event bench: an event of 10,000 players (and one of 256 for scale) through the API on an
embedded Redis: the time of each pairing call (``POST /v1/tournaments/<id>/rounds``, five Swiss
rounds) and of rendering round 5's pairings page (``GET /events/<id>/pairings``: 5,000 tables and
10,000 names by name) in HTML, CSV and JSON, with the size of each. Players and results are written
straight into the event's log (the API's store applies them on its next read), so the figures are
the pairing and rendering, not 25,000 other requests. Exits 1 if a goal is missed."""

from __future__ import annotations

import os

os.environ.setdefault("RAYON_NUM_THREADS", "1")  # one core for rustworkx

import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import redis  # noqa: E402

import judge.tournament as T  # noqa: E402
from api import create_app  # noqa: E402
from api.tournaments.store import envelope, log_key  # noqa: E402
from arbiter.redis_conn import EmbeddedRedis  # noqa: E402
from judge.tournament.prng import draw  # noqa: E402

ROUNDS = 5
#: seconds: each pairing call of 10,000 players, and the pairings page of round 5
GOALS = {"pair": 30.0, "html": 5.0, "csv": 5.0, "json": 5.0}
RESULTS = (T.Result(2, 0), T.Result(0, 2), T.Result(2, 1), T.Result(1, 2), T.Result(1, 1, 1))


def append(r: redis.Redis, tid: str, actions: list[T.Action]) -> None:
    start = r.llen(log_key(tid))
    pipe = r.pipeline(transaction=False)
    for i, a in enumerate(actions):
        pipe.rpush(log_key(tid), envelope(start + i + 1, a))
    pipe.execute()


def run(url: str, players: int) -> bool:
    app = create_app({"REDIS_URL": url, "TESTING": True})
    client = app.test_client()
    r = redis.Redis.from_url(url, decode_responses=True)
    made = client.post("/v1/tournaments", json={"name": f"Bench {players}", "seed": 7, "best_of": 3,
                                               "public": True}).get_json()
    tid, auth = made["id"], {"Authorization": f"Bearer {made['token']}"}
    append(r, tid, [T.AddPlayer(f"p{i + 1}", f"Player {i + 1:05d}") for i in range(players)])
    ok = True
    print(f"\n{players} players: each pairing call (POST .../rounds: standings, graph, blossom, log append)")
    print(f"{'round':>6} {'tables':>7} {'bye':>5} {'seconds':>9} {'goal':>7}")
    for n in range(1, ROUNDS + 1):
        t0 = time.perf_counter()
        resp = client.post(f"/v1/tournaments/{tid}/rounds", headers=auth)
        dt = time.perf_counter() - t0
        assert resp.status_code == 201, resp.get_data(as_text=True)
        rnd = resp.get_json()
        met = players < 10000 or dt < GOALS["pair"]
        ok &= met
        print(f"{n:>6} {len(rnd['matches']):>7} {'yes' if rnd['bye'] else 'no':>5} {dt:>9.3f} "
              f"{'<' + str(GOALS['pair']) if players >= 10000 else '-':>7}{'' if met else '  GOAL MISSED'}")
        append(r, tid, [T.ReportResult(n, m["table"], RESULTS[draw(7, "bench", n, m["table"]) % len(RESULTS)])
                        for m in rnd["matches"]])
    print(f"{players} players: round {ROUNDS}'s pairings page (by table and by name)")
    print(f"{'format':>7} {'bytes':>11} {'seconds':>9} {'goal':>7}")
    for fmt, path in (("html", "pairings"), ("csv", "pairings.csv"), ("json", "pairings.json")):
        client.get(f"/events/{tid}/{path}?round=1")  # the state is read once, outside the timing
        t0 = time.perf_counter()
        resp = client.get(f"/events/{tid}/{path}")
        dt = time.perf_counter() - t0
        assert resp.status_code == 200
        body = resp.get_data()
        met = players < 10000 or dt < GOALS[fmt]
        ok &= met
        print(f"{fmt:>7} {len(body):>11,} {dt:>9.3f} {'<' + str(GOALS[fmt]) if players >= 10000 else '-':>7}"
              f"{'' if met else '  GOAL MISSED'}")
    r.close()
    return ok


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        server = EmbeddedRedis(Path(tmp) / "redis")
        url = server.start()
        try:
            ok = run(url, 256) & run(url, 10000)
        finally:
            server.stop()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
