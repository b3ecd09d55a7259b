"""Bad input that once got through or answered badly: a lone surrogate in any JSON body (it cannot
be stored, shown or hashed: a 422 at its pointer, and the pages stay up), a set of notes that is
not written takes no place in the replay's count, a long list of bad items is one fault (and at
most MAX_FAULTS are listed), a page number in non-ASCII digits, the pointers of path parameters
and of refusals no body member names, a strict ``correction``, a compressed body, and the quick
position's bad JSON. Real Redis."""

from __future__ import annotations

import copy
from typing import Any

import pytest
import redis
from flask.testing import FlaskClient

from arbiter import store
from judge.limits import MAX_FAULTS, MAX_ITEMS
from tests.api.test_tournaments import BASE, create
from tests.helpers import assert_problem, load_example

SURROGATE = "\ud800"


def _replay(client: FlaskClient) -> str:
    resp = client.post("/v1/replays", json=copy.deepcopy(load_example("shields-cap.json")))
    assert resp.status_code in (200, 201), resp.get_data(as_text=True)
    return str(resp.get_json()["id"])


def test_a_lone_surrogate_in_a_tournament_name_is_refused_and_the_pages_stay_up(client: FlaskClient) -> None:
    p = assert_problem(client.post(BASE, json={"name": f"Bad {SURROGATE}", "public": True}), 422)
    assert p["errors"][0]["pointer"] == "/name" and "lone surrogate" in p["errors"][0]["detail"]
    tid, auth = create(client, players=2)
    p = assert_problem(client.put(f"{BASE}/{tid}/players/p1", json={"name": f"Ann {SURROGATE}"}, headers=auth), 422)
    assert p["errors"][0]["pointer"] == "/name"
    assert client.get("/").status_code == 200
    assert client.get(f"/events/{tid}/standings").status_code == 200
    assert client.get(f"{BASE}/{tid}/standings?format=csv").status_code == 200
    assert client.get(f"{BASE}/{tid}/players/p1").get_json()["name"] == "Player 1"


def test_a_surrogate_key_is_pointed_at_with_a_replacement_character(client: FlaskClient) -> None:
    p = assert_problem(client.post(BASE, json={"name": "Fine", f"k{SURROGATE}": 1}), 422)
    assert p["errors"][0]["pointer"] == "/k\ufffd" and "key" in p["errors"][0]["detail"]


def test_annotations_with_a_surrogate_are_refused_and_use_up_no_set(client: FlaskClient) -> None:
    replay_id = _replay(client)
    for body, pointer in (({"title": f"T {SURROGATE}"}, "/title"),
                          ({"annotations": [{"at": 0, "note": f"n {SURROGATE}"}]}, "/annotations/0/note")):
        p = assert_problem(client.post(f"/v1/replays/{replay_id}/annotations", json=body), 422)
        assert p["errors"][0]["pointer"] == pointer
    assert client.post(f"/v1/replays/{replay_id}/annotations", json={"title": "fine"}).status_code == 201


def test_a_set_that_fails_to_be_written_takes_no_place_in_the_count(redis_db: redis.Redis) -> None:
    r = redis.Redis(connection_pool=redis_db.connection_pool)
    with pytest.raises(UnicodeEncodeError):  # (what reaches the store when a caller skips the API's check)
        store.create_notes(r, "a" * 64, f"T {SURROGATE}", [], 1)
    set_id, token, record = store.create_notes(r, "a" * 64, "fine", [], 1)
    assert record["title"] == "fine" and token
    with pytest.raises(store.TooManySets):
        store.create_notes(r, "a" * 64, "one more", [], 1)


def test_a_page_in_other_digits_is_a_fault_of_the_query(client: FlaskClient) -> None:
    resp = client.get("/replays?page=%C2%B2")  # '²' is a digit to str.isdigit, not to int()
    assert resp.status_code == 422 and resp.get_json()["errors"][0]["pointer"] == "/query/page"


def test_a_list_over_its_limit_is_one_fault_before_its_items_are_read(client: FlaskClient) -> None:
    tid, auth = create(client, players=4)
    assert client.post(f"{BASE}/{tid}/rounds", headers=auth).status_code == 201
    p = assert_problem(client.put(f"{BASE}/{tid}/rounds/1/pairings", json={"pairings": [1] * (MAX_ITEMS + 1)},
                                  headers=auth), 422)
    assert p["errors"] == [{"pointer": "/pairings",
                            "detail": f"At most {MAX_ITEMS:,} items; this list has {MAX_ITEMS + 1:,}."}]
    replay_id = _replay(client)
    p = assert_problem(client.post(f"/v1/replays/{replay_id}/annotations",
                                   json={"annotations": [1] * (MAX_ITEMS + 1)}), 422)
    assert [e["pointer"] for e in p["errors"]] == ["/annotations"]


def test_at_most_max_faults_are_listed_and_a_last_error_says_more_follow(client: FlaskClient) -> None:
    tid, auth = create(client, players=4)
    assert client.post(f"{BASE}/{tid}/rounds", headers=auth).status_code == 201
    p = assert_problem(client.put(f"{BASE}/{tid}/rounds/1/pairings", json={"pairings": [1] * 500},
                                  headers=auth), 422)
    assert len(p["errors"]) == MAX_FAULTS + 1
    assert p["errors"][0]["pointer"] == "/pairings/0" and p["errors"][MAX_FAULTS - 1]["pointer"] == "/pairings/99"
    assert p["errors"][-1]["pointer"] == "" and "only the first 100" in p["errors"][-1]["detail"]


def test_refusals_point_at_the_path_parameter_or_the_whole_request(client: FlaskClient) -> None:
    tid, auth = create(client, players=4)
    p = assert_problem(client.post(f"{BASE}/{tid}/players/p1/undrop", headers=auth), 409)
    assert p["errors"][0]["pointer"] == "/path/pid"
    p = assert_problem(client.post(f"{BASE}/{tid}/rounds/1/repair", headers=auth), 422)
    assert p["errors"][0]["pointer"] == "/path/number"
    rnd = client.post(f"{BASE}/{tid}/rounds", headers=auth).get_json()
    p = assert_problem(client.put(f"{BASE}/{tid}/rounds/1/matches/9", json={"p1_wins": 1, "p2_wins": 0},
                                  headers=auth), 422)
    assert p["errors"][0]["pointer"] == "/path/table"
    p = assert_problem(client.post(f"{BASE}/{tid}/rounds", headers=auth), 409)  # results missing: no member says so
    assert p["errors"][0]["pointer"] == ""
    p = assert_problem(client.put(f"{BASE}/{tid}/rounds/1/matches/1", json={"p1_wins": 5, "p2_wins": 0},
                                  headers=auth), 422)
    assert p["errors"][0]["pointer"] == "/p1_wins"  # a member of the body stays as it was
    assert rnd["number"] == 1


def test_correction_is_a_json_boolean(client: FlaskClient) -> None:
    tid, auth = create(client, players=2)
    client.post(f"{BASE}/{tid}/rounds", headers=auth)
    for value in ("on", 1, "true"):
        p = assert_problem(client.put(f"{BASE}/{tid}/rounds/1/matches/1",
                                      json={"p1_wins": 1, "p2_wins": 0, "correction": value}, headers=auth), 422)
        assert p["errors"][0]["pointer"] == "/correction"


def test_a_compressed_body_is_an_unsupported_media_type(client: FlaskClient) -> None:
    p = assert_problem(client.post(BASE, data=b'{"name": "Gz"}', content_type="application/json",
                                   headers={"Content-Encoding": "gzip"}), 415)
    assert "Content-Encoding gzip" in p["detail"]


def test_a_query_fault_does_not_blame_the_body(client: FlaskClient) -> None:
    p = assert_problem(client.get(f"{BASE}?per_page=0"), 422)
    assert p["errors"][0]["pointer"] == "/query/per_page" and "query" in p["detail"] and "body" not in p["detail"]


@pytest.mark.parametrize(("data", "status", "words"), [
    (b"nul", 400, "not valid JSON"),
    (b"[" * 100_000 + b"]" * 100_000, 400, "not valid JSON"),
    (b'{"game": ["destiny"], "text": "x"}', 422, "'game' is one of destiny"),
])
def test_the_quick_positions_bad_json_is_a_problem_with_a_pointer(client: FlaskClient, data: bytes, status: int,
                                                                   words: str) -> None:
    p = assert_problem(client.post("/position", data=data, content_type="application/json"), status)
    assert words in p["detail"] and p["errors"][0]["pointer"] in ("", "/game")


def test_a_quick_position_of_too_many_values_is_refused_before_parsing(client: FlaskClient) -> None:
    body: Any = b'{"game": "destiny", "x": [' + b"0," * 300_000 + b"0]}"
    p = assert_problem(client.post("/position", data=body, content_type="application/json"), 422)
    assert "MAX_NODES" in p["detail"] and p["errors"][0]["pointer"] == ""
