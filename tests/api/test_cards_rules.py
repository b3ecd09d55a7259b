"""GET /v1/cards and /v1/rules: lookup by code and by name, paging, 404 problems for what is not
there and 422 problems (with a JSON Pointer) for a bad query."""

from __future__ import annotations

from urllib.parse import quote

import pytest
from flask.testing import FlaskClient

from judge.games import registry
from judge.rules import index
from tests.helpers import assert_problem


def test_a_card_by_code_and_by_name_is_the_same_card(client: FlaskClient) -> None:
    by_code = client.get("/v1/cards/destiny/05031")
    assert by_code.status_code == 200
    card = by_code.get_json()
    assert card["name"] == "Luke Skywalker" and card["title"] == "Luke Skywalker - Unlikely Hero"
    assert card["type"] == "character" and card["health"] == 11 and card["points"] == [11, 14]
    assert card["faces"] == ["1RD", "2RD", "1MD", "1Sh", "1R", "-"]
    assert card["face_words"][0] == "1 ranged damage" and card["status"] == "implemented"
    assert card["text"] and card["links"]["self"] == "/v1/cards/destiny/05031"
    for name in ("Luke Skywalker", "luke  skywalker", "Luke Skywalker - Unlikely Hero"):
        assert client.get("/v1/cards/destiny/" + quote(name)).get_json() == card, name


def test_a_name_two_cards_share_is_404_listing_both(client: FlaskClient) -> None:
    body = assert_problem(client.get("/v1/cards/destiny/" + quote("Han Solo")), 404)
    assert "names several cards" in body["detail"]
    assert "05046" in body["detail"] and "01046" in body["detail"]
    one = client.get("/v1/cards/destiny/" + quote("Han Solo - Savvy Smuggler"))
    assert one.status_code == 200 and one.get_json()["code"] == "05046"


@pytest.mark.parametrize("path", ["/v1/cards/destiny/99999", "/v1/cards/destiny/" + quote("Nobody At All"),
                                  "/v1/cards/chess/05031", "/v1/cards/Destiny/05031",
                                  "/v1/rules/destiny.nope.nope", "/v1/rules/Destiny.Shields"])
def test_unknown_cards_games_and_rules_are_404_problems(client: FlaskClient, path: str) -> None:
    assert_problem(client.get(path), 404)


def test_search_is_paged_and_ranks_names_first(client: FlaskClient) -> None:
    first = client.get("/v1/cards?game=destiny&q=han%20solo&per_page=1").get_json()
    assert first["total"] == 2 and [c["name"] for c in first["cards"]] == ["Han Solo"]
    assert "next" in first["links"] and "prev" not in first["links"]
    second = client.get(first["links"]["next"]).get_json()
    assert second["page"] == 2 and second["cards"][0]["name"] == "Han Solo"
    assert second["cards"][0]["code"] != first["cards"][0]["code"] and "next" not in second["links"]
    everything = client.get("/v1/cards?game=destiny&per_page=100").get_json()
    pool = registry.get("destiny").default_cards()
    assert everything["total"] == len(pool) and len(everything["cards"]) == min(100, len(pool))
    shields = client.get("/v1/cards?game=destiny&q=shield").get_json()
    assert shields["total"] > 0 and all("shield" in str(c).lower() for c in shields["cards"])
    assert client.get("/v1/cards?game=destiny&q=zzzqqq").get_json()["total"] == 0


@pytest.mark.parametrize(("query", "pointer"), [
    ("", "/query/game"), ("game=chess", "/query/game"), ("game=destiny&per_page=0", "/query/per_page"),
    ("game=destiny&per_page=101", "/query/per_page"), ("game=destiny&page=zero", "/query/page"),
    ("game=destiny&q=" + "x" * 201, "/query/q"),
])
def test_a_bad_card_query_is_422_with_its_pointer(client: FlaskClient, query: str, pointer: str) -> None:
    body = assert_problem(client.get(f"/v1/cards?{query}"), 422)
    assert [e["pointer"] for e in body["errors"]] == [pointer]


def test_rules_by_game_and_one_by_id(client: FlaskClient) -> None:
    relic = client.get("/v1/rules?game=relic").get_json()
    assert relic["total"] == len(index.ids("relic")) == len(relic["rules"])
    assert all(r["game"] == "relic" and r["summary"] for r in relic["rules"])
    everything = client.get("/v1/rules").get_json()
    assert everything["total"] == len(index.ids())
    one = client.get("/v1/rules/destiny.shields.max-three").get_json()
    rule = index.get("destiny.shields.max-three")
    assert one["summary"] == rule.summary and one["source"] == rule.source and one["section"] == rule.section
    assert one["links"]["page"] == "/rules/destiny#destiny.shields.max-three"
    destiny = client.get("/v1/rules?game=destiny&per_page=1000").get_json()["rules"]
    not_applicable = [r for r in destiny if r["status"] == "not-applicable"]
    assert not_applicable and all(r["reason"] for r in not_applicable)  # each says why
    tournament = client.get("/v1/rules?game=tournament").get_json()
    assert tournament["total"] > 0 and all(r["source"] for r in tournament["rules"])


def test_a_bad_rules_query_is_422_with_its_pointer(client: FlaskClient) -> None:
    body = assert_problem(client.get("/v1/rules?game=chess"), 422)
    assert [e["pointer"] for e in body["errors"]] == ["/query/game"]


def test_rules_in_the_language_asked_for(client: FlaskClient) -> None:
    rule = index.get("destiny.shields.max-three")
    english = client.get("/v1/rules/destiny.shields.max-three").get_json()
    polish = client.get("/v1/rules/destiny.shields.max-three?lang=pl").get_json()
    russian = client.get("/v1/rules/destiny.shields.max-three",
                         headers={"Accept-Language": "ru-RU,ru;q=0.9"}).get_json()
    by_header = client.get("/v1/rules/destiny.shields.max-three", headers={"Accept-Language": "pl-PL"}).get_json()
    assert english["summary"] == rule.summary
    assert polish["summary"] == by_header["summary"] == rule.summary_in("pl") != rule.summary
    assert russian["summary"] == rule.summary_in("ru") != rule.summary
    # only human text changes: the ID, the source, the headings and every other field stay as they are
    for body in (polish, russian):
        assert {k: v for k, v in body.items() if k != "summary"} == {k: v for k, v in english.items() if k != "summary"}
    assert english["summaries"] == {"en": rule.summary, "pl": rule.summary_in("pl"), "ru": rule.summary_in("ru")}
    assert english["headings"] == [{"seed": h.seed, "heading": h.heading} for h in rule.headings]
    assert {h["seed"] for h in english["headings"]} == {"000", "002"}
    listed = client.get("/v1/rules?game=relic&lang=ru").get_json()
    assert listed["lang"] == "ru"
    assert [r["summary"] for r in listed["rules"]] == [index.get(r["id"]).summary_in("ru") for r in listed["rules"]]


def test_an_unknown_language_is_422_with_its_pointer(client: FlaskClient) -> None:
    body = assert_problem(client.get("/v1/rules?lang=de"), 422)
    assert [e["pointer"] for e in body["errors"]] == ["/query/lang"]
