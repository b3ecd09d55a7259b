"""/v1/tournaments against a real Redis: auth, pairing flow, errors, idempotent reports, audit."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.helpers import assert_problem

BASE = "/v1/tournaments"


def create(client: FlaskClient, players: int = 0, **body: Any) -> tuple[str, dict[str, str]]:
    resp = client.post(BASE, json={"name": "Regional", "seed": 5, "public": True, **body})
    assert resp.status_code == 201, resp.get_data(as_text=True)
    data = resp.get_json()
    tid, auth = data["id"], {"Authorization": f"Bearer {data['token']}"}
    for i in range(players):
        r = client.post(f"{BASE}/{tid}/players", json={"name": f"Player {i + 1}"}, headers=auth)
        assert r.status_code == 201
    return tid, auth


def report_round(client: FlaskClient, tid: str, auth: dict[str, str], rnd: dict[str, Any]) -> None:
    for m in rnd["matches"]:
        r = client.put(
            f"{BASE}/{tid}/rounds/{rnd['number']}/matches/{m['table']}",
            json={"p1_wins": 1, "p2_wins": 0},
            headers=auth,
        )
        assert r.status_code == 200, r.get_data(as_text=True)


def test_create_returns_token_once_and_stores_only_its_hash(client: FlaskClient, redis_db: Any) -> None:
    resp = client.post(
        BASE, json={"name": "Store Champs", "profile": "mtg", "rounds": 4, "cut": 8, "best_of": 3}
    )
    assert resp.status_code == 201
    body = resp.get_json()
    assert resp.headers["Location"] == f"{BASE}/{body['id']}"
    assert body["token"] and body["profile"] == "mtg" and body["stage"] == "registration"
    assert client.get(f"{BASE}/{body['id']}").status_code == 404  # private unless the organizer says public
    assert body["id"] not in [e["id"] for e in client.get(BASE).get_json()["items"]]
    again = client.get(f"{BASE}/{body['id']}", headers={"Authorization": f"Bearer {body['token']}"}).get_json()
    assert "token" not in again and again["rounds"] == 4 and again["best_of"] == 3 and again["public"] is False
    stored = [redis_db.get(k) for k in redis_db.scan_iter("arbiter:tournament:*:token")]
    assert body["token"] not in stored and len(stored[0]) == 64


def test_changes_need_the_organizer_token(client: FlaskClient) -> None:
    tid, auth = create(client)
    other_tid, other_auth = create(client)
    body = {"name": "Anakin"}
    p = assert_problem(client.post(f"{BASE}/{tid}/players", json=body), 401)
    assert p["title"] == "Unauthorized"
    assert client.post(f"{BASE}/{tid}/players", json=body).headers["WWW-Authenticate"].startswith("Bearer")
    assert_problem(client.post(f"{BASE}/{tid}/players", json=body, headers=other_auth), 403)
    assert_problem(client.get(f"{BASE}/{tid}/audit", headers=other_auth), 403)
    assert_problem(client.get(f"{BASE}/{tid}/audit"), 401)
    assert client.get(f"{BASE}/{tid}/players").get_json() == []  # nothing changed
    assert client.post(f"{BASE}/{tid}/players", json=body, headers=auth).status_code == 201
    assert_problem(client.get(f"{BASE}/nope"), 404)


WRITES = [
    ("POST", "/players", {"name": "Mallory"}),
    ("POST", "/players/p1/drop", None),
    ("POST", "/rounds", None),
    ("POST", "/rounds/1/repair", None),
    ("PUT", "/rounds/1/pairings", {"pairings": []}),
    ("PUT", "/rounds/1/matches/1", {"p1_wins": 1, "p2_wins": 0}),
    ("POST", "/cut", {}),
    ("GET", "/audit", None),
]


@pytest.mark.parametrize("method, sub, body", WRITES)
def test_without_the_token_an_unknown_id_answers_as_a_known_one(
        client: FlaskClient, method: str, sub: str, body: Any) -> None:
    tid, auth = create(client, players=2)
    _, other_auth = create(client)
    unknown = "0123456789abcdef" if tid != "0123456789abcdef" else "fedcba9876543210"
    answers = []
    for target in (tid, unknown, "not-an-id"):
        url = f"{BASE}/{target}{sub}"
        no_token = client.open(url, method=method, json=body)
        wrong = client.open(url, method=method, json=body, headers=other_auth)
        bad_body = client.open(url, method=method, json={"bogus": [1]} if body is not None else None,
                               headers=other_auth)
        a = assert_problem(no_token, 401)
        assert no_token.headers["WWW-Authenticate"].startswith("Bearer")
        b = assert_problem(wrong, 403)
        c = assert_problem(bad_body, 403)  # the token is checked before the body
        answers.append([{k: v for k, v in p.items() if k != "instance"} for p in (a, b, c)])
    assert answers[0] == answers[1] == answers[2]
    # reads are public: a known tournament is there, an unknown one is a 404
    assert client.get(f"{BASE}/{tid}").status_code == 200
    assert_problem(client.get(f"{BASE}/{unknown}"), 404)
    assert_problem(client.get(f"{BASE}/{unknown}/standings"), 404)
    assert client.get(f"{BASE}/{tid}/audit", headers=auth).status_code == 200


@pytest.mark.rules("tournament.config.profile", "tournament.config.cut", "tournament.config.name")
def test_bad_config_names_the_field(client: FlaskClient) -> None:
    p = assert_problem(client.post(BASE, json={"name": "x", "profile": "chess", "cut": 3}), 422)
    pointers = {e["pointer"]: e["rule"] for e in p["errors"]}
    assert pointers == {"/profile": "tournament.config.profile", "/cut": "tournament.config.cut"}
    p = assert_problem(client.post(BASE, json={"profile": "mtg"}), 422)
    assert p["errors"][0]["pointer"] == "/name"


@pytest.mark.rules("tournament.round.results-missing", "tournament.swiss.no-rematch", "tournament.bye.once")
def test_pairing_flow_with_409_while_results_missing(client: FlaskClient) -> None:
    tid, auth = create(client, players=9, rounds=3)
    r1 = client.post(f"{BASE}/{tid}/rounds", headers=auth)
    assert r1.status_code == 201
    rnd = r1.get_json()
    assert len(rnd["matches"]) == 4 and rnd["bye"] and rnd["objective"]["rematches"] == 0
    assert [m["table"] for m in rnd["matches"]] == [1, 2, 3, 4]
    p = assert_problem(client.post(f"{BASE}/{tid}/rounds", headers=auth), 409)
    assert p["type"] == "urn:arbiter:rule:tournament.round.results-missing"
    assert client.get(f"{BASE}/{tid}/pairings").get_json()["number"] == 1
    report_round(client, tid, auth, rnd)
    r2 = client.post(f"{BASE}/{tid}/rounds", headers=auth).get_json()
    met = {frozenset((m["p1"], m["p2"])) for m in rnd["matches"]}
    assert not met & {frozenset((m["p1"], m["p2"])) for m in r2["matches"]}
    assert r2["bye"] != rnd["bye"]
    rounds = client.get(f"{BASE}/{tid}/rounds").get_json()
    assert [r["number"] for r in rounds] == [1, 2] and rounds[0]["complete"] is True


@pytest.mark.rules("tournament.result.conflict")
def test_report_is_idempotent_and_a_different_one_needs_a_correction(client: FlaskClient) -> None:
    tid, auth = create(client, players=4, best_of=3)
    client.post(f"{BASE}/{tid}/rounds", headers=auth)
    url = f"{BASE}/{tid}/rounds/1/matches/1"
    first = client.put(url, json={"p1_wins": 2, "p2_wins": 1}, headers=auth)
    assert first.status_code == 200 and first.get_json()["result"]["winner"] == first.get_json()["p1"]
    version = client.get(f"{BASE}/{tid}").get_json()["version"]
    assert client.put(url, json={"p1_wins": 2, "p2_wins": 1}, headers=auth).status_code == 200
    assert client.get(f"{BASE}/{tid}").get_json()["version"] == version  # nothing appended
    p = assert_problem(client.put(url, json={"p1_wins": 0, "p2_wins": 2}, headers=auth), 409)
    assert p["errors"][0]["rule"] == "tournament.result.conflict"
    fixed = client.put(url, json={"p1_wins": 0, "p2_wins": 2, "correction": True}, headers=auth)
    assert fixed.get_json()["result"]["winner"] == fixed.get_json()["p2"]


@pytest.mark.rules(
    "tournament.result.games",
    "tournament.result.table-unknown",
    "tournament.pairing.duplicate-player",
    "tournament.player.unknown",
    "tournament.round.not-current",
)
def test_bad_input_is_rejected_and_nothing_changes(client: FlaskClient) -> None:
    tid, auth = create(client, players=4, best_of=3)
    rnd = client.post(f"{BASE}/{tid}/rounds", headers=auth).get_json()
    version = client.get(f"{BASE}/{tid}").get_json()["version"]
    p = assert_problem(
        client.put(f"{BASE}/{tid}/rounds/1/matches/1", json={"p1_wins": -1, "p2_wins": 2}, headers=auth), 422
    )
    assert p["errors"][0] == {
        "pointer": "/p1_wins",
        "detail": "p1_wins must not be negative",
        "rule": "tournament.result.games",
    }
    p = assert_problem(
        client.put(f"{BASE}/{tid}/rounds/1/matches/7", json={"p1_wins": 2, "p2_wins": 0}, headers=auth), 422
    )
    assert p["errors"][0]["pointer"] == "/path/table"  # the URL's {table}: no body member names it
    ids = [x for m in rnd["matches"] for x in (m["p1"], m["p2"])]
    twice = {"pairings": [{"p1": ids[0], "p2": ids[1]}, {"p1": ids[0], "p2": ids[2]}]}
    p = assert_problem(client.put(f"{BASE}/{tid}/rounds/1/pairings", json=twice, headers=auth), 422)
    assert {
        "pointer": "/pairings/1/p1",
        "detail": f"player {ids[0]!r} appears twice",
        "rule": "tournament.pairing.duplicate-player",
    } in p["errors"]
    unknown = {"pairings": [{"p1": ids[0], "p2": "p77"}, {"p1": ids[2], "p2": ids[3]}]}
    p = assert_problem(client.put(f"{BASE}/{tid}/rounds/1/pairings", json=unknown, headers=auth), 422)
    assert (
        p["errors"][0]["rule"] == "tournament.player.unknown"
        and p["errors"][0]["pointer"] == "/pairings/0/p2"
    )
    assert_problem(client.post(f"{BASE}/{tid}/players/p77/drop", headers=auth), 404)
    assert client.get(f"{BASE}/{tid}").get_json()["version"] == version
    # a result for a round not paired
    p = assert_problem(
        client.put(f"{BASE}/{tid}/rounds/2/matches/1", json={"p1_wins": 2, "p2_wins": 0}, headers=auth), 422
    )
    assert p["errors"][0]["rule"] == "tournament.round.not-current"
    assert client.get(f"{BASE}/{tid}").get_json()["version"] == version


@pytest.mark.rules("tournament.round.repair-after-results", "tournament.player.dropped")
def test_override_repair_drop_late_entry(client: FlaskClient) -> None:
    tid, auth = create(client, players=6)
    rnd = client.post(f"{BASE}/{tid}/rounds", headers=auth).get_json()
    ids = sorted(x for m in rnd["matches"] for x in (m["p1"], m["p2"]))
    mine = {
        "pairings": [{"p1": ids[0], "p2": ids[5]}, {"p1": ids[1], "p2": ids[4]}, {"p1": ids[2], "p2": ids[3]}]
    }
    got = client.put(f"{BASE}/{tid}/rounds/1/pairings", json=mine, headers=auth)
    assert got.status_code == 200
    assert [(m["p1"], m["p2"]) for m in got.get_json()["matches"]] == [
        (ids[0], ids[5]),
        (ids[1], ids[4]),
        (ids[2], ids[3]),
    ]
    late = client.post(f"{BASE}/{tid}/players", json={"name": "Late", "missed_rounds": "none"}, headers=auth)
    assert late.get_json()["joined_after"] == 1
    rep = client.post(f"{BASE}/{tid}/rounds/1/repair", headers=auth).get_json()
    assert rep["bye"] is not None and len(rep["matches"]) == 3
    dropped = client.post(f"{BASE}/{tid}/players/p1/drop", headers=auth)
    assert dropped.get_json()["dropped"] is True
    assert client.post(f"{BASE}/{tid}/players/p1/drop", headers=auth).status_code == 200  # harmless again
    report_round(client, tid, auth, rep)
    p = assert_problem(client.post(f"{BASE}/{tid}/rounds/1/repair", headers=auth), 409)
    assert p["errors"][0]["rule"] == "tournament.round.repair-after-results"
    r2 = client.post(f"{BASE}/{tid}/rounds", headers=auth).get_json()
    assert "p1" not in {x for m in r2["matches"] for x in (m["p1"], m["p2"])} | {r2["bye"]}
    table = client.get(f"{BASE}/{tid}/standings").get_json()
    assert any(row["player_id"] == "p1" and row["dropped"] for row in table)


def test_standings_json_and_csv(client: FlaskClient) -> None:
    tid, auth = create(client, players=8, profile="mtg", best_of=3)
    rnd = client.post(f"{BASE}/{tid}/rounds", headers=auth).get_json()
    report_round(client, tid, auth, rnd)
    js = client.get(f"{BASE}/{tid}/standings").get_json()
    assert [r["rank"] for r in js] == list(range(1, 9))
    assert set(js[0]["tiebreaks"]) == {"omw", "gw", "ogw"} and js[0]["points"] == 3
    resp = client.get(f"{BASE}/{tid}/standings", headers={"Accept": "text/csv"})
    assert resp.status_code == 200 and resp.mimetype == "text/csv"
    rows = list(csv.DictReader(io.StringIO(resp.get_data(as_text=True))))
    assert [r["player_id"] for r in rows] == [r["player_id"] for r in js]
    assert rows[0]["omw"] == f"{js[0]['tiebreaks']['omw']:.6f}"


@pytest.mark.rules("tournament.result.past-round", "tournament.result.conflict")
def test_an_earlier_round_is_corrected_until_the_cut(client: FlaskClient) -> None:
    tid, auth = create(client, players=4, rounds=2, cut=2)
    r1 = client.post(f"{BASE}/{tid}/rounds", headers=auth).get_json()
    report_round(client, tid, auth, r1)
    r2 = client.post(f"{BASE}/{tid}/rounds", headers=auth).get_json()
    m = r1["matches"][0]
    url = f"{BASE}/{tid}/rounds/1/matches/{m['table']}"
    points = {r["player_id"]: r["points"] for r in client.get(f"{BASE}/{tid}/standings").get_json()}
    assert points[m["p1"]] == 3 and points[m["p2"]] == 0
    version = client.get(f"{BASE}/{tid}").get_json()["version"]
    # the same report again changes nothing; a different one is a conflict until sent as a correction
    assert client.put(url, json={"p1_wins": 1, "p2_wins": 0}, headers=auth).status_code == 200
    assert client.get(f"{BASE}/{tid}").get_json()["version"] == version
    p = assert_problem(client.put(url, json={"p1_wins": 0, "p2_wins": 1}, headers=auth), 409)
    assert p["type"] == "urn:arbiter:rule:tournament.result.conflict"
    got = client.put(url, json={"p1_wins": 0, "p2_wins": 1, "correction": True}, headers=auth)
    assert got.status_code == 200 and got.get_json()["result"]["p2_wins"] == 1
    points = {r["player_id"]: r["points"] for r in client.get(f"{BASE}/{tid}/standings").get_json()}
    assert points[m["p1"]] == 0 and points[m["p2"]] == 3
    assert client.get(f"{BASE}/{tid}/rounds/2").get_json()["matches"] == r2["matches"]  # pairings stand
    report_round(client, tid, auth, r2)
    assert client.post(f"{BASE}/{tid}/cut", json={}, headers=auth).status_code == 201
    p = assert_problem(client.put(url, json={"p1_wins": 1, "p2_wins": 0, "correction": True}, headers=auth), 409)
    assert p["errors"][0]["rule"] == "tournament.result.past-round" and p["errors"][0]["pointer"] == "/path/number"


@pytest.mark.rules("tournament.cut.seeding", "tournament.result.cut-no-draw")
def test_top_cut_through_the_api(client: FlaskClient) -> None:
    tid, auth = create(client, players=10, rounds=3, cut=4)
    for _ in range(3):
        report_round(client, tid, auth, client.post(f"{BASE}/{tid}/rounds", headers=auth).get_json())
    assert_problem(client.post(f"{BASE}/{tid}/rounds", headers=auth), 409)
    seeds = [r["player_id"] for r in client.get(f"{BASE}/{tid}/standings").get_json()][:4]
    cut = client.post(f"{BASE}/{tid}/cut", json={}, headers=auth)
    assert cut.status_code == 201
    assert [(m["p1"], m["p2"]) for m in cut.get_json()["matches"]] == [
        (seeds[0], seeds[3]),
        (seeds[1], seeds[2]),
    ]
    p = assert_problem(
        client.put(
            f"{BASE}/{tid}/rounds/4/matches/1", json={"p1_wins": 0, "p2_wins": 0, "draws": 1}, headers=auth
        ),
        422,
    )
    assert p["errors"][0]["rule"] == "tournament.result.cut-no-draw"
    report_round(client, tid, auth, cut.get_json())
    final = client.post(f"{BASE}/{tid}/rounds", headers=auth).get_json()
    assert final["stage"] == "cut" and [(m["p1"], m["p2"]) for m in final["matches"]] == [
        (seeds[0], seeds[1])
    ]
    report_round(client, tid, auth, final)
    t = client.get(f"{BASE}/{tid}").get_json()
    assert t["stage"] == "finished" and t["champion"] == seeds[0]


def test_audit_log_lists_every_change(client: FlaskClient) -> None:
    tid, auth = create(client, players=2)
    client.post(f"{BASE}/{tid}/rounds", headers=auth)
    client.put(f"{BASE}/{tid}/rounds/1/matches/1", json={"p1_wins": 1, "p2_wins": 0}, headers=auth)
    log = client.get(f"{BASE}/{tid}/audit", headers=auth).get_json()
    assert [e["action"]["kind"] for e in log] == [
        "create",
        "add_player",
        "add_player",
        "pair_round",
        "report_result",
    ]
    assert [e["seq"] for e in log] == [1, 2, 3, 4, 5] and all(e["at"] for e in log)


def test_openapi_lists_the_tournament_paths(client: FlaskClient) -> None:
    paths = client.get("/openapi.json").get_json()["paths"]
    for p in (
        "/v1/tournaments",
        "/v1/tournaments/{tid}/standings",
        "/v1/tournaments/{tid}/rounds",
        "/v1/tournaments/{tid}/rounds/{number}/matches/{table}",
        "/v1/tournaments/{tid}/cut",
        "/v1/tournaments/{tid}/players/{pid}/drop",
    ):
        assert p in paths
    assert "text/csv" in paths["/v1/tournaments/{tid}/standings"]["get"]["responses"]["200"]["content"]
