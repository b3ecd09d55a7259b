"""/v1/tournaments for the organizer's day: unique names, rename, drop mid-round, re-entry, late
entry, a player's own view, the list of events with paging, visibility, archive and delete."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.helpers import assert_problem

from .test_tournaments import BASE, create, report_round


def add(client: FlaskClient, tid: str, auth: dict[str, str], name: str, **body: Any) -> Any:
    return client.post(f"{BASE}/{tid}/players", json={"name": name, **body}, headers=auth)


@pytest.mark.rules("tournament.player.name-unique")
def test_a_clashing_name_is_a_409_naming_the_other_player(client: FlaskClient) -> None:
    tid, auth = create(client)
    assert add(client, tid, auth, "Rey Skywalker").status_code == 201
    for clash in ("rey skywalker", "  REY   Skywalker "):
        p = assert_problem(add(client, tid, auth, clash), 409)
        assert p["type"] == "urn:arbiter:rule:tournament.player.name-unique"
        assert p["errors"] == [{"pointer": "/name", "rule": "tournament.player.name-unique",
                                "detail": f"the name {clash!r} is taken by p1 ('Rey Skywalker')"}]
    assert len(client.get(f"{BASE}/{tid}/players").get_json()) == 1
    assert add(client, tid, auth, "Rey Palpatine").status_code == 201


@pytest.mark.rules("tournament.player.rename", "tournament.player.name", "tournament.player.unknown")
def test_rename(client: FlaskClient) -> None:
    tid, auth = create(client, players=3)
    url = f"{BASE}/{tid}/players/p2"
    assert_problem(client.put(url, json={"name": "Ana"}), 401)
    r = client.put(url, json={"name": "Ana"}, headers=auth)
    assert r.status_code == 200 and r.get_json()["name"] == "Ana" and r.get_json()["id"] == "p2"
    assert client.put(url, json={"name": "Ana"}, headers=auth).status_code == 200  # the same: harmless
    p = assert_problem(client.put(f"{BASE}/{tid}/players/p3", json={"name": "ANA"}, headers=auth), 409)
    assert p["errors"][0]["pointer"] == "/name" and "p2" in p["errors"][0]["detail"]
    p = assert_problem(client.put(url, json={"name": " \t"}, headers=auth), 422)
    assert p["errors"][0]["pointer"] == "/name"
    p = assert_problem(client.put(url, json={"name": 7}, headers=auth), 422)
    assert p["errors"][0]["pointer"] == "/name"
    p = assert_problem(client.put(url, json={}, headers=auth), 422)
    assert p["errors"][0]["pointer"] == "/name"
    assert_problem(client.put(f"{BASE}/{tid}/players/p9", json={"name": "X"}, headers=auth), 404)
    names = [x["name"] for x in client.get(f"{BASE}/{tid}/players").get_json()]
    assert names == ["Player 1", "Ana", "Player 3"]


@pytest.mark.rules("tournament.player.drop-mid-round", "tournament.player.undrop")
def test_drop_mid_round_keeps_the_match_then_undrop(client: FlaskClient) -> None:
    tid, auth = create(client, players=8)
    rnd = client.post(f"{BASE}/{tid}/rounds", headers=auth).get_json()
    m = next(m for m in rnd["matches"] if "p4" in (m["p1"], m["p2"]))
    assert m["p1_name"] and m["p2_name"]  # pairings carry names
    dropped = client.post(f"{BASE}/{tid}/players/p4/drop", headers=auth).get_json()
    assert dropped["dropped"] and f"table {m['table']} stands" in dropped["note"]
    assert dropped["note"].endswith("[tournament.player.drop-mid-round]")
    # the match is still there and can be reported
    assert any(x["table"] == m["table"] for x in client.get(f"{BASE}/{tid}/pairings").get_json()["matches"])
    report_round(client, tid, auth, rnd)
    r2 = client.post(f"{BASE}/{tid}/rounds", headers=auth).get_json()
    assert "p4" not in {x for mm in r2["matches"] for x in (mm["p1"], mm["p2"])} | {r2["bye"]}
    report_round(client, tid, auth, r2)
    back = client.post(f"{BASE}/{tid}/players/p4/undrop", headers=auth)
    assert back.status_code == 200, back.get_data(as_text=True)
    body = back.get_json()
    assert not body["dropped"] and "round(s) 2 missed while out count as losses" in body["note"]
    again = assert_problem(client.post(f"{BASE}/{tid}/players/p4/undrop", headers=auth), 409)
    assert again["type"] == "urn:arbiter:rule:tournament.player.undrop"
    view = client.get(f"{BASE}/{tid}/players/p4").get_json()
    assert [x["kind"] for x in view["rounds"]] == ["match", "missed"]
    r3 = client.post(f"{BASE}/{tid}/rounds", headers=auth).get_json()
    assert "p4" in {x for mm in r3["matches"] for x in (mm["p1"], mm["p2"])} | {r3["bye"]}
    assert_problem(client.post(f"{BASE}/{tid}/players/p99/undrop", headers=auth), 404)


@pytest.mark.rules("tournament.player.late-entry", "tournament.player.late-entry-round-in-progress")
def test_late_entries_say_what_the_missed_rounds_count_for(client: FlaskClient) -> None:
    tid, auth = create(client, players=6)
    assert add(client, tid, auth, "Early").get_json()["note"] is None
    rnd = client.post(f"{BASE}/{tid}/rounds", headers=auth).get_json()
    during = add(client, tid, auth, "During").get_json()
    assert during["note"].startswith("Entered during round 1: sits it out")
    assert "count as losses" in during["note"]
    report_round(client, tid, auth, rnd)
    after = add(client, tid, auth, "After", missed_rounds="none").get_json()
    assert after["note"] == "Late entry: Swiss rounds 1-1 are not counted; paired from round 2. " \
        "[tournament.player.late-entry]"
    views = {p: client.get(f"{BASE}/{tid}/players/{p}").get_json() for p in (during["id"], after["id"])}
    assert views[during["id"]]["record"]["losses"] == 1 and views[during["id"]]["record"]["byes"] == 0
    rec = views[after["id"]]["record"]
    assert (rec["points"], rec["wins"], rec["losses"], rec["draws"], rec["byes"]) == (0, 0, 0, 0, 0)
    assert views[after["id"]]["rounds"] == []
    p = assert_problem(add(client, tid, auth, "Bad", missed_rounds="bye"), 422)
    assert p["errors"][0]["pointer"] == "/missed_rounds"


def test_a_players_own_view(client: FlaskClient) -> None:
    tid, auth = create(client, players=5)
    rnd = client.post(f"{BASE}/{tid}/rounds", headers=auth).get_json()
    m = rnd["matches"][0]
    view = client.get(f"{BASE}/{tid}/players/{m['p2']}").get_json()
    assert view["pairing"] == {"round": 1, "stage": "swiss", "table": m["table"], "seat": 2, "opponent": m["p1"],
                               "opponent_name": m["p1_name"], "reported": False, "bye": False}
    bye = client.get(f"{BASE}/{tid}/players/{rnd['bye']}").get_json()
    assert bye["pairing"]["bye"] and bye["pairing"]["table"] is None
    report_round(client, tid, auth, rnd)
    view = client.get(f"{BASE}/{tid}/players/{m['p1']}").get_json()
    assert view["record"]["wins"] == 1 and view["record"]["points"] == 3
    assert view["rounds"] == [{"round": 1, "kind": "match", "opponent": m["p2"], "opponent_name": m["p2_name"],
                               "outcome": "win", "games": "1-0-0"}]
    assert_problem(client.get(f"{BASE}/{tid}/players/p77"), 404)


@pytest.mark.rules("tournament.event.visibility")
def test_a_private_event_reads_only_with_its_token(client: FlaskClient) -> None:
    tid, auth = create(client, players=2, public=False)
    other, other_auth = create(client)
    for sub in ("", "/players", "/rounds", "/standings", "/players/p1"):
        hidden = assert_problem(client.get(f"{BASE}/{tid}{sub}"), 404)
        unknown = assert_problem(client.get(f"{BASE}/0123456789abcdef{sub}"), 404)
        assert hidden["detail"].replace(tid, "X") == unknown["detail"].replace("0123456789abcdef", "X")
        assert client.get(f"{BASE}/{tid}{sub}", headers=auth).status_code == 200, sub
        assert_problem(client.get(f"{BASE}/{tid}{sub}", headers=other_auth), 403)
    made = client.patch(f"{BASE}/{tid}", json={"public": True}, headers=auth)
    assert made.status_code == 200 and made.get_json()["public"] is True
    assert client.get(f"{BASE}/{tid}/players").status_code == 200
    assert_problem(client.patch(f"{BASE}/{tid}", json={"public": True}), 401)
    p = assert_problem(client.patch(f"{BASE}/{tid}", json={"public": "yes please"}, headers=auth), 422)
    assert p["errors"][0]["pointer"] == "/public"
    p = assert_problem(client.post(BASE, json={"name": "X", "game": "Star Wars"}), 422)
    assert p["errors"][0]["pointer"] == "/game"


@pytest.mark.rules("tournament.event.archived")
def test_list_pages_archive_and_delete(client: FlaskClient) -> None:
    made = [create(client, players=2, name=f"Event {i}", game="swtcg" if i % 2 else "destiny", cut=4 * (i % 2))
            for i in range(7)]
    create(client, name="Hidden", public=False)
    first = client.get(f"{BASE}?per_page=3").get_json()
    assert (first["total"], first["pages"], first["page"]) == (7, 3, 1)
    assert [x["name"] for x in first["items"]] == ["Event 6", "Event 5", "Event 4"]  # newest first
    assert first["items"][1] == {"id": made[5][0], "name": "Event 5", "game": "swtcg", "format": "swiss-3+top4",
                                 "round": None, "status": "registration", "players": 2,
                                 "url": f"{BASE}/{made[5][0]}"}
    last = client.get(f"{BASE}?per_page=3&page=3").get_json()
    assert [x["name"] for x in last["items"]] == ["Event 0"]
    assert client.get(f"{BASE}?per_page=3&page=4").get_json()["items"] == []
    for bad, pointer in (("per_page=0", "/query/per_page"), ("per_page=101", "/query/per_page"),
                         ("page=0", "/query/page"), ("page=x", "/query/page"), ("archived=maybe", "/query/archived")):
        p = assert_problem(client.get(f"{BASE}?{bad}"), 422)
        assert p["errors"][0]["pointer"] == pointer, bad
    tid, auth = made[3]
    archived = client.post(f"{BASE}/{tid}/archive", headers=auth)
    assert archived.status_code == 200 and archived.get_json()["status"] == "archived"
    p = assert_problem(client.post(f"{BASE}/{tid}/players", json={"name": "Late"}, headers=auth), 409)
    assert p["type"] == "urn:arbiter:rule:tournament.event.archived"
    assert_problem(client.post(f"{BASE}/{tid}/archive", headers=auth), 409)
    assert client.get(f"{BASE}/{tid}/standings").status_code == 200  # still readable
    names = [x["name"] for x in client.get(f"{BASE}?per_page=100").get_json()["items"]]
    assert "Event 3" not in names and len(names) == 6
    assert [x["name"] for x in client.get(f"{BASE}?archived=true").get_json()["items"]] == ["Event 3"]
    gone, gone_auth = made[0]
    assert_problem(client.delete(f"{BASE}/{gone}", headers=auth), 403)
    assert client.delete(f"{BASE}/{gone}", headers=gone_auth).status_code == 204
    assert_problem(client.get(f"{BASE}/{gone}"), 404)
    assert client.get(BASE).get_json()["total"] == 5


@pytest.mark.rules("tournament.player.undrop", "tournament.round.repair-after-results")
def test_back_during_a_round_paired_without_them_then_repaired(client: FlaskClient) -> None:
    tid, auth = create(client, players=6)
    report_round(client, tid, auth, client.post(f"{BASE}/{tid}/rounds", headers=auth).get_json())
    client.post(f"{BASE}/{tid}/players/p2/drop", headers=auth)
    r2 = client.post(f"{BASE}/{tid}/rounds", headers=auth).get_json()
    assert r2["bye"] is not None  # 5 active players
    note = client.post(f"{BASE}/{tid}/players/p2/undrop", headers=auth).get_json()["note"]
    assert note == ("Back in: paired from round 3 on; round 2, paired without them, counts as a loss unless "
                    "it is re-paired before any result. [tournament.player.undrop]")
    assert [x["kind"] for x in client.get(f"{BASE}/{tid}/players/p2").get_json()["rounds"]] == ["match", "missed"]
    repaired = client.post(f"{BASE}/{tid}/rounds/2/repair", headers=auth).get_json()
    assert repaired["bye"] is None and "p2" in {x for m in repaired["matches"] for x in (m["p1"], m["p2"])}
    assert [x["kind"] for x in client.get(f"{BASE}/{tid}/players/p2").get_json()["rounds"]] == ["match"]
