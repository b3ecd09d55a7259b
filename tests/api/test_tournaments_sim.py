"""A whole simulated event of 300 players through the API, results reported at random."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from flask.testing import FlaskClient

BASE = "/v1/tournaments"


@pytest.mark.rules(
    "tournament.rounds.recommended",
    "tournament.swiss.all-paired",
    "tournament.swiss.no-rematch",
    "tournament.bye.once",
    "tournament.player.dropped",
    "tournament.cut.seeding",
)
def test_300_player_event_with_drops_late_entries_and_cut(client: FlaskClient) -> None:
    rng = random.Random(20240)  # the test's own dice; the engine uses its seed
    body = client.post(BASE, json={"name": "Worlds", "seed": 99, "best_of": 3, "cut": 8, "public": True}).get_json()
    tid, auth = body["id"], {"Authorization": f"Bearer {body['token']}"}
    for i in range(300):
        assert (
            client.post(f"{BASE}/{tid}/players", json={"name": f"Player {i}"}, headers=auth).status_code
            == 201
        )
    planned = client.get(f"{BASE}/{tid}").get_json()["rounds"]
    assert planned == 9
    seen_pairs: Counter[frozenset[str]] = Counter()
    byes: Counter[str] = Counter()
    dropped: set[str] = set()
    for n in range(1, planned + 1):
        rnd = client.post(f"{BASE}/{tid}/rounds", headers=auth)
        assert rnd.status_code == 201, rnd.get_data(as_text=True)
        data = rnd.get_json()
        assert data["objective"]["rematches"] == 0
        players = [x for m in data["matches"] for x in (m["p1"], m["p2"])] + (
            [data["bye"]] if data["bye"] else []
        )
        active = {p["id"] for p in client.get(f"{BASE}/{tid}/players").get_json() if not p["dropped"]}
        assert sorted(players) == sorted(active) and not dropped & set(players)
        if data["bye"]:
            byes[data["bye"]] += 1
        order = list(data["matches"])
        rng.shuffle(order)
        for m in order:
            seen_pairs[frozenset((m["p1"], m["p2"]))] += 1
            res = rng.choice([(2, 0), (2, 1), (0, 2), (1, 2), (1, 1)])
            r = client.put(
                f"{BASE}/{tid}/rounds/{n}/matches/{m['table']}",
                json={"p1_wins": res[0], "p2_wins": res[1], "draws": 1 if res == (1, 1) else 0},
                headers=auth,
            )
            assert r.status_code == 200, r.get_data(as_text=True)
        for pid in rng.sample(sorted(active), 3):  # a few drops every round
            client.post(f"{BASE}/{tid}/players/{pid}/drop", headers=auth)
            dropped.add(pid)
        if n == 2:  # a late entry
            client.post(f"{BASE}/{tid}/players", json={"name": "Late"}, headers=auth)
    assert max(seen_pairs.values()) == 1  # no rematch in the whole event
    assert max(byes.values(), default=0) <= 1
    table = client.get(f"{BASE}/{tid}/standings").get_json()
    assert len(table) == 301
    assert [r["points"] for r in table] == sorted((r["points"] for r in table), reverse=True)
    cut = client.post(f"{BASE}/{tid}/cut", json={}, headers=auth).get_json()
    top8 = [r["player_id"] for r in table if not r["dropped"]][:8]
    assert [m["p1"] for m in cut["matches"]] == [top8[0], top8[3], top8[1], top8[2]]
    while True:
        cur = client.get(f"{BASE}/{tid}/pairings").get_json()
        for m in cur["matches"]:
            client.put(
                f"{BASE}/{tid}/rounds/{cur['number']}/matches/{m['table']}",
                json={"p1_wins": 2, "p2_wins": rng.choice([0, 1])},
                headers=auth,
            )
        if len(cur["matches"]) == 1:
            break
        assert client.post(f"{BASE}/{tid}/rounds", headers=auth).status_code == 201
    final = client.get(f"{BASE}/{tid}").get_json()
    assert final["stage"] == "finished" and final["champion"] == top8[0]


@pytest.mark.rules(
    "tournament.player.drop-mid-round",
    "tournament.player.undrop",
    "tournament.player.name-unique",
    "tournament.cut.placings",
    "tournament.swiss.no-rematch",
)
def test_256_players_8_rounds_and_a_top_8_as_an_organizer_runs_it(client: FlaskClient) -> None:
    """256 players, 8 Swiss rounds, top 8, with the organizer's day: a clashing name refused and a
    rename, drops in the middle of rounds, a re-entry, the posted pairings and slips of each round,
    the final standings with places."""
    rng = random.Random(256)
    body = client.post(BASE, json={"name": "Galactic Open", "seed": 256, "rounds": 8, "cut": 8, "public": True,
                                   "best_of": 3, "game": "destiny"}).get_json()
    tid, auth = body["id"], {"Authorization": f"Bearer {body['token']}"}
    for i in range(256):
        r = client.post(f"{BASE}/{tid}/players", json={"name": f"Player {i:03d}"}, headers=auth)
        assert r.status_code == 201
    assert client.post(f"{BASE}/{tid}/players", json={"name": "player 007"}, headers=auth).status_code == 409
    assert client.put(f"{BASE}/{tid}/players/p8", json={"name": "Bond"}, headers=auth).status_code == 200
    seen: Counter[frozenset[str]] = Counter()
    out: set[str] = set()
    for n in range(1, 9):
        rnd = client.post(f"{BASE}/{tid}/rounds", headers=auth)
        assert rnd.status_code == 201, rnd.get_data(as_text=True)
        data = rnd.get_json()
        paired = [x for m in data["matches"] for x in (m["p1"], m["p2"])] + ([data["bye"]] if data["bye"] else [])
        assert len(paired) == len(set(paired)) == 256 - len(out) and not out & set(paired)
        posted = client.get(f"/events/{tid}/pairings.json").get_json()
        assert len(posted["by_name"]) == len(paired) and len(posted["tables"]) == len(data["matches"])
        assert len(client.get(f"/events/{tid}/slips.json").get_json()) == len(data["matches"])
        # two drops in the middle of the round: their matches stand and are reported
        for pid in rng.sample(sorted(set(paired) - {data["bye"]}), 2):
            note = client.post(f"{BASE}/{tid}/players/{pid}/drop", headers=auth).get_json()["note"]
            assert "stands" in note
            out.add(pid)
        if n == 4:  # one of them comes back
            back = sorted(out)[0]
            assert client.post(f"{BASE}/{tid}/players/{back}/undrop", headers=auth).status_code == 200
            out.discard(back)
        for m in data["matches"]:
            seen[frozenset((m["p1"], m["p2"]))] += 1
            res = rng.choice([(2, 0, 0), (2, 1, 0), (0, 2, 0), (1, 2, 0), (1, 1, 1)])
            r = client.put(f"{BASE}/{tid}/rounds/{n}/matches/{m['table']}",
                           json={"p1_wins": res[0], "p2_wins": res[1], "draws": res[2]}, headers=auth)
            assert r.status_code == 200
    assert max(seen.values()) == 1
    assert client.post(f"{BASE}/{tid}/rounds", headers=auth).status_code == 409  # 8 rounds played
    swiss = client.get(f"{BASE}/{tid}/standings").get_json()
    top8 = [r["player_id"] for r in swiss if not r["dropped"]][:8]
    rnd = client.post(f"{BASE}/{tid}/cut", json={}, headers=auth).get_json()
    while True:
        for m in rnd["matches"]:
            a, b = rng.choice([(2, 0), (2, 1), (0, 2), (1, 2)])
            r = client.put(f"{BASE}/{tid}/rounds/{rnd['number']}/matches/{m['table']}",
                           json={"p1_wins": a, "p2_wins": b}, headers=auth)
            assert r.status_code == 200
        if len(rnd["matches"]) == 1:
            break
        rnd = client.post(f"{BASE}/{tid}/rounds", headers=auth).get_json()
    final = client.get(f"/events/{tid}/standings.json").get_json()
    places = final["placings"]
    assert final["champion"] and places[0]["player_id"] == final["champion"]
    assert [p["place"] for p in places] == list(range(1, 257))
    assert {p["player_id"] for p in places[:8]} == set(top8)
    assert [p["reached"] for p in places[:8]] == ["champion", "final"] + ["semi-final"] * 2 + ["quarter-final"] * 4
    listed = client.get(f"{BASE}?per_page=100").get_json()["items"]
    assert {"id": tid, "status": "finished", "round": 11, "format": "swiss-8+top8"}.items() <= \
        next(x for x in listed if x["id"] == tid).items()
