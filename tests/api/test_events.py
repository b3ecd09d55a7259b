"""Event pages over HTTP (no browser): the HTML, CSV and JSON of pairings, slips, standings and a
player's view agree with the API; private events need the token (header or page cookie); bad input
is a problem+json with a JSON Pointer."""

from __future__ import annotations

import csv
import io
import re
from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.helpers import assert_problem

from .test_tournaments import BASE, create, report_round


def rows(resp: Any) -> list[dict[str, str]]:
    assert resp.status_code == 200 and resp.mimetype == "text/csv", resp.get_data(as_text=True)
    return list(csv.DictReader(io.StringIO(resp.get_data(as_text=True))))


def names_for(client: FlaskClient, tid: str, auth: dict[str, str], names: list[str]) -> None:
    for n in names:
        assert client.post(f"{BASE}/{tid}/players", json={"name": n}, headers=auth).status_code == 201


NAMES = ["Zed", "anna", "Bob", "Élodie", "Chewie", "yoda", "Mara", "Kylo", "Han", "Leia", "Ben", "Rey", "Finn"]


def test_names_fold_without_accents_case_or_extra_spaces() -> None:
    from api.events.names import collation_key, fold

    assert fold("  Łukasz   ŻÓŁKIEWSKI ") == "lukasz zolkiewski"
    assert fold("Zażółć Gęślą Jaźń") == "zazolc gesla jazn"
    assert [fold(x) for x in ("Đorđe", "Søren", "Æsa", "Straße", "Þór", "Юлия Ёлкина", "Йошкар")] == \
        ["dorde", "soren", "aesa", "strasse", "thor", "юлия елкина", "йошкар"]
    names = ["Zoe", "Łukasz", "lukas", "Lukasz", "Élodie", "Eve", "ada"]
    assert sorted(names, key=collation_key) == ["ada", "Élodie", "Eve", "lukas", "Lukasz", "Łukasz", "Zoe"]


def test_the_by_name_order_and_its_csv_put_accented_names_among_their_letters(client: FlaskClient) -> None:
    tid, auth = create(client)
    names_for(client, tid, auth, ["Zygmunt", "Łukasz Żółkiewski", "Lena", "Mateusz", "Ąda", "Borys"])
    client.post(f"{BASE}/{tid}/rounds", headers=auth)
    want = ["Ąda", "Borys", "Lena", "Łukasz Żółkiewski", "Mateusz", "Zygmunt"]
    assert [x["name"] for x in client.get(f"/events/{tid}/pairings.json").get_json()["by_name"]] == want
    assert [r["name"] for r in rows(client.get(f"/events/{tid}/pairings.csv?order=name"))] == want


def test_pairings_by_table_and_by_name_agree_with_the_round(client: FlaskClient) -> None:
    tid, auth = create(client)
    names_for(client, tid, auth, NAMES)
    rnd = client.post(f"{BASE}/{tid}/rounds", headers=auth).get_json()
    view = client.get(f"/events/{tid}/pairings.json").get_json()
    assert [(t["table"], t["p1"], t["p2"]) for t in view["tables"]] == \
        [(m["table"], m["p1"], m["p2"]) for m in rnd["matches"]]
    assert view["bye"]["player_id"] == rnd["bye"]
    # by name: every player once, alphabetical without case or accents ("Élodie" among the E's), with
    # their table and opponent
    by_name = view["by_name"]
    assert [x["name"] for x in by_name] == ["anna", "Ben", "Bob", "Chewie", "Élodie", "Finn", "Han", "Kylo", "Leia",
                                            "Mara", "Rey", "yoda", "Zed"]
    table_of = {x: m["table"] for m in rnd["matches"] for x in (m["p1"], m["p2"])}
    for x in by_name:
        assert x["table"] == table_of.get(x["player_id"])
    by_table_csv = rows(client.get(f"/events/{tid}/pairings.csv"))
    assert [r["table"] for r in by_table_csv] == [str(m["table"]) for m in rnd["matches"]] + [""]
    assert by_table_csv[-1]["p2_name"] == "BYE"
    by_name_csv = rows(client.get(f"/events/{tid}/pairings.csv?order=name"))
    assert [r["name"] for r in by_name_csv] == [x["name"] for x in by_name]
    html = client.get(f"/events/{tid}/pairings").get_data(as_text=True)
    assert html.count('<tr data-table="') == len(rnd["matches"])
    assert all(n in html for n in NAMES) and "by name" in html and "by table" in html
    # slips: one per table
    slips = client.get(f"/events/{tid}/slips.json").get_json()
    assert [(s["table"], s["p1_name"], s["p2_name"]) for s in slips] == \
        [(m["table"], m["p1_name"], m["p2_name"]) for m in rnd["matches"]]
    assert len(rows(client.get(f"/events/{tid}/slips.csv"))) == len(slips)
    assert client.get(f"/events/{tid}/slips").get_data(as_text=True).count('class="slip"') == len(slips)
    # an older round by number, and the points before it
    report_round(client, tid, auth, rnd)
    client.post(f"{BASE}/{tid}/rounds", headers=auth)
    again = client.get(f"/events/{tid}/pairings.json?round=1").get_json()
    assert again["round"] == 1 and all(t["result"] == "1-0" for t in again["tables"])
    now = client.get(f"/events/{tid}/pairings.json").get_json()
    assert now["round"] == 2 and max(t["p1_points"] for t in now["tables"]) == 3


def test_names_are_text_never_markup(client: FlaskClient) -> None:
    tid, auth = create(client)
    names_for(client, tid, auth, ["<script>alert(1)</script>", "Bob & <b>Co</b>"])
    client.post(f"{BASE}/{tid}/rounds", headers=auth)
    for page in ("pairings", "slips", "standings", "players/p1", "results", ""):
        html = client.get(f"/events/{tid}/{page}".rstrip("/")).get_data(as_text=True)
        assert "<script>alert" not in html and "<b>Co</b>" not in html, page
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html, page


@pytest.mark.rules("tournament.cut.placings")
def test_standings_after_a_cut_list_places(client: FlaskClient) -> None:
    tid, auth = create(client, players=10, rounds=3, cut=4)
    for _ in range(3):
        report_round(client, tid, auth, client.post(f"{BASE}/{tid}/rounds", headers=auth).get_json())
    assert client.get(f"/events/{tid}/standings.json").get_json()["placings"] == []
    semis = client.post(f"{BASE}/{tid}/cut", json={}, headers=auth).get_json()
    during = client.get(f"/events/{tid}/standings.json").get_json()["placings"]
    assert [p["place"] for p in during] == [None] * 4 + list(range(5, 11))
    report_round(client, tid, auth, semis)
    final = client.post(f"{BASE}/{tid}/rounds", headers=auth).get_json()
    report_round(client, tid, auth, final)
    view = client.get(f"/events/{tid}/standings.json").get_json()
    winner = final["matches"][0]["p1"]
    assert view["champion"] == winner
    assert [(p["place"], p["reached"]) for p in view["placings"][:4]] == \
        [(1, "champion"), (2, "final"), (3, "semi-final"), (4, "semi-final")]
    table = rows(client.get(f"/events/{tid}/standings.csv"))
    assert [r["place"] for r in table] == [str(i) for i in range(1, 11)]
    assert table[0]["player_id"] == winner and table[0]["reached"] == "champion"
    assert {"sos", "esos", "rank", "points"} <= table[0].keys()
    html = client.get(f"/events/{tid}/standings").get_data(as_text=True)
    assert "Final standings" in html and html.index("champion") < html.index("Swiss standings")


@pytest.mark.rules("tournament.event.visibility")
def test_private_event_pages_need_the_token_or_its_cookie(client: FlaskClient) -> None:
    tid, auth = create(client, players=4, public=False)
    for page in ("", "/pairings", "/slips", "/standings", "/players/p1", "/results"):
        resp = client.get(f"/events/{tid}{page}")
        assert resp.status_code == 404 and resp.mimetype == "text/html", page
        assert 'id="signin"' in resp.get_data(as_text=True)
        assert "Player 1" not in resp.get_data(as_text=True)
    for page in ("/pairings.json", "/standings.csv", "/slips.json", "/players/p1.json"):
        assert_problem(client.get(f"/events/{tid}{page}"), 404)
    assert client.get(f"/events/{tid}/standings.csv", headers=auth).status_code == 200
    assert_problem(client.get(f"/events/{tid}/standings.csv", headers={"Authorization": "Bearer nope"}), 403)
    # the sign-in sets an HttpOnly, SameSite=Strict cookie for this event's pages only
    assert_problem(client.post(f"/events/{tid}/session"), 401)
    assert_problem(client.post(f"/events/{tid}/session", headers={"Authorization": "Bearer x"}), 403)
    signed = client.post(f"/events/{tid}/session", headers=auth)
    assert signed.status_code == 204
    cookie = signed.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie and f"Path=/events/{tid}" in cookie
    page = client.get(f"/events/{tid}/standings")
    assert page.status_code == 200 and "Player 1" in page.get_data(as_text=True)
    # the cookie opens pages, never the API's changes
    assert_problem(client.post(f"{BASE}/{tid}/players", json={"name": "Sneaky"}), 401)
    client.delete(f"/events/{tid}/session")
    assert client.get(f"/events/{tid}/standings").status_code == 404
    # a stale cookie is ignored, not an error
    client.set_cookie("arbiter_event", "stale", path=f"/events/{tid}")
    assert client.get(f"/events/{tid}/standings").status_code == 404


def test_bad_input_is_a_problem_with_a_pointer(client: FlaskClient) -> None:
    tid, auth = create(client, players=4)
    client.post(f"{BASE}/{tid}/rounds", headers=auth)
    for query, pointer in (("round=0", "/query/round"), ("round=abc", "/query/round"),
                           ("round=-1", "/query/round"), ("round=99999999999", "/query/round"),
                           ("round=%C2%B2", "/query/round"), ("round=%D9%A3", "/query/round"),
                           ("order=seat", "/query/order"), ("refresh=5", "/query/refresh"),
                           ("refresh=3601", "/query/refresh")):
        p = assert_problem(client.get(f"/events/{tid}/pairings.csv?{query}"), 422)
        assert p["errors"][0]["pointer"] == pointer, query
        assert_problem(client.get(f"/events/{tid}/pairings?{query}"), 422)
    assert_problem(client.get(f"/events/{tid}/pairings.json?round=5"), 404)
    shown = client.get(f"/events/{tid}/standings?refresh=60").get_data(as_text=True)
    assert '<meta http-equiv="refresh" content="60">' in shown
    assert "http-equiv" not in client.get(f"/events/{tid}/standings").get_data(as_text=True)
    assert_problem(client.get(f"/events/{tid}/slips.pdf"), 404)
    assert_problem(client.get(f"/events/{tid}/players/p9.json"), 404)
    assert_problem(client.get(f"/events/{tid}/players/p1.csv"), 404)
    assert_problem(client.get("/events/nothex/pairings"), 404)
    assert_problem(client.get(f"/events/{tid}/players/x1"), 404)
    assert client.get(f"/events/{tid}/players/p9").status_code == 404  # an HTML page


def test_player_page_shows_table_and_record(client: FlaskClient) -> None:
    tid, auth = create(client, players=6)
    rnd = client.post(f"{BASE}/{tid}/rounds", headers=auth).get_json()
    m = rnd["matches"][-1]
    mine = client.get(f"/events/{tid}/players/{m['p1']}.json").get_json()
    assert mine == client.get(f"{BASE}/{tid}/players/{m['p1']}").get_json()
    html = client.get(f"/events/{tid}/players/{m['p1']}").get_data(as_text=True)
    assert f"Table {m['table']}" in html and m["p2_name"] in html


def test_results_page_offers_the_right_one_click_results(client: FlaskClient) -> None:
    tid, auth = create(client, players=4, best_of=3)
    client.post(f"{BASE}/{tid}/rounds", headers=auth)
    html = client.get(f"/events/{tid}/results").get_data(as_text=True)
    clicks = re.findall(r'class="r" data-p1="(\d)" data-p2="(\d)" data-d="(\d)">([^<]*)<', html)
    assert len(clicks) == 2 * 6  # 2 tables
    assert [c[3] for c in clicks[:6]] == ["2-0", "2-1", "1-2", "0-2", "1-1-1", "1-1"]
    assert all(f"{a}-{b}" + (f"-{d}" if d != "0" else "") == label for a, b, d, label in clicks)


def test_standings_printed_mid_round_are_those_after_the_round_their_heading_names(client: FlaskClient) -> None:
    """While round 2 is being reported, the standings page (its heading: after round 1) lists the
    records after round 1: no result of round 2 yet, as the heading says (they were mixed in)."""
    tid, auth = create(client, players=8, rounds=3)
    report_round(client, tid, auth, client.post(f"{BASE}/{tid}/rounds", headers=auth).get_json())
    second = client.post(f"{BASE}/{tid}/rounds", headers=auth).get_json()
    report_round(client, tid, auth, {**second, "matches": second["matches"][:2]})  # half of round 2 in
    view = client.get(f"/events/{tid}/standings.json").get_json()
    assert view["after_round"] == 1 and view["current_round"] == 2
    assert all(r["wins"] + r["losses"] + r["draws"] + r["byes"] == 1 for r in view["standings"]), view["standings"]
    report_round(client, tid, auth, {**second, "matches": second["matches"][2:]})
    view = client.get(f"/events/{tid}/standings.json").get_json()
    assert view["after_round"] == 2
    assert all(r["wins"] + r["losses"] + r["draws"] + r["byes"] == 2 for r in view["standings"])
