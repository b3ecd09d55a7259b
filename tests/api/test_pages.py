"""The judges' pages served by the API: the rules page (one anchor per rule), a stored ruling read
aloud (/rulings/{id}), and the quick position's answer (POST /position). The browser tests of the
same pages are in tests/judge_pages."""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import redis
from flask.testing import FlaskClient

from api.pages import NOTHING_TO_RULE_ON
from judge.games import registry
from judge.rules import index
from tests.helpers import assert_problem, load_example
from tests.worker.live import registered_worker

REPR = re.compile(r"\bNone\b|\bFalse\b|\bTrue\b|\{'|\['")


@pytest.fixture()
def worker_alive(redis_url: str, redis_db: redis.Redis) -> Iterator[Any]:
    with registered_worker(redis_url) as rq_worker:
        yield rq_worker


def text_of(page: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", " ", page))


@pytest.mark.parametrize("game", [*index.GAMES, "tournament"])
def test_the_rules_page_has_one_anchor_per_rule(client: FlaskClient, game: str) -> None:
    resp = client.get(f"/rules/{game}")
    assert resp.status_code == 200 and resp.mimetype == "text/html"
    page = resp.get_data(as_text=True)
    anchors = re.findall(r'<section class="rule[^"]*" id="([^"]+)"', page)
    assert anchors == index.ids(game)
    text = text_of(page)
    for rule in index.rules(game):
        assert rule.summary in text and (rule.source or "the project") in text
    assert "cdn" not in page.lower() and "https://" not in page


def test_the_rules_index_and_unknown_games(client: FlaskClient) -> None:
    page = client.get("/rules").get_data(as_text=True)
    for game in index.GAMES:
        assert f'href="/rules/{game}"' in page
    assert_problem(client.get("/rules/chess"), 404)


def test_a_stored_ruling_is_read_aloud_with_names_rules_and_changes(
        client: FlaskClient, run_jobs: Callable[[], bool], worker_alive: Any) -> None:
    posted = client.post("/v1/rulings", json={"log": load_example("replacement-stops-defeat.json")})
    assert posted.status_code == 202, posted.get_data(as_text=True)
    ruling_id = posted.get_json()["id"]
    waiting = client.get(f"/rulings/{ruling_id}")
    assert waiting.status_code == 200 and "queued" in waiting.get_data(as_text=True)
    assert waiting.headers["Refresh"] == "2"
    run_jobs()
    page = client.get(f"/rulings/{ruling_id}").get_data(as_text=True)
    text = text_of(page)
    assert "Han Solo has 8 damage and Second Chance" in text  # what was asked
    assert "Ben resolves Boba Fett's die at Han Solo" in text  # the step, by name
    assert "Legal." in text and "Han Solo loses 3 damage (8 → 5)" in text  # the answer, what changed
    assert 'href="/rules/destiny#destiny.replacement.instead"' in page  # rules link to the rules page
    assert index.summary("destiny.replacement.instead") in text
    assert REPR.search(text) is None, REPR.search(text)


def test_an_illegal_ruling_page_names_the_rule(client: FlaskClient, run_jobs: Callable[[], bool],
                                               worker_alive: Any) -> None:
    posted = client.post("/v1/rulings", json={"log": load_example("modifier-alone.json")})
    run_jobs()
    text = text_of(client.get(f"/rulings/{posted.get_json()['id']}").get_data(as_text=True))
    assert "Not legal: it breaks destiny.dice.modifier-needs-base" in text and "Hidden Blaster's die" in text


def test_unknown_ruling_pages_are_404(client: FlaskClient) -> None:
    assert_problem(client.get("/rulings/" + "0" * 32), 404)
    assert_problem(client.get("/rulings/not-an-id"), 404)


def test_the_position_form_and_its_answer(client: FlaskClient) -> None:
    form = client.get("/position")
    assert form.status_code == 200
    page = form.get_data(as_text=True)
    assert 'id="qp"' in page and "<option value=\"Luke Skywalker - Unlikely Hero\">" in page
    example = registry.get("destiny").quick_example()
    answer = client.post("/position", json={"text": example})
    assert answer.status_code == 200, answer.get_data(as_text=True)
    body = answer.get_json()
    assert set(body) == {"log", "ruling", "words"}
    assert body["ruling"]["legal"] is True and body["log"]["setup"]["position"]["round"] == 5
    assert "Luke Skywalker gains 1 shield (2 → 3)" in body["words"]["changes"]


@pytest.mark.parametrize(("body", "pointer"), [
    ({"text": "p1 character Han Solo\np2 character Boba Fett\nask p1 pass"}, "/text/lines/1"),  # (its line)
    ({"text": "p1 character Luke Skywalker\nnonsense here\n"}, "/text/lines/2"),
    ({"text": 3}, "/text"),
    ({"players": [{"id": "p1", "characters": [{"card": "Luke Skywalker"}]},
                  {"id": "p2", "characters": [{"card": "Boba Fett"}], "hand": -1}], "ask": "p1 pass"},
     "/players/1/hand"),
    ({"game": "chess"}, "/game"),
    ({"players": [{"id": "p1", "characters": [{"card": "Luke Skywalker", "upgrades": ["Slave I"]}]},
                  {"id": "p2", "characters": [{"card": "Boba Fett"}], "supports": [{"card": "Nobody"}]}],
      "ask": "p1 pass"}, "/players/1/supports/0/card"),
    ({"text": "p1 character Luke Skywalker\np1 upgrade Jedi Robes on Rey\np2 character Boba Fett\nask p1 pass"},
     "/text/lines/2"),
])
def test_a_position_with_faults_is_422_with_pointers(client: FlaskClient, body: dict[str, Any],
                                                     pointer: str) -> None:
    problem = assert_problem(client.post("/position", json=body), 422)
    assert pointer in [e["pointer"] for e in problem["errors"]], problem


@pytest.mark.parametrize(("body", "pointer"), [
    ({"text": ""}, "/text"),
    ({"text": "  \n\n\t "}, "/text"),
    ({"text": "# a comment alone\n\n  # and another"}, "/text"),
    ({"game": "swtcg", "text": "\n"}, "/text"),
    ({"game": "relic", "text": " "}, "/text"),
    ({}, ""),
    ({"game": "relic"}, ""),
])
def test_an_empty_position_is_one_fault_nothing_to_rule_on(client: FlaskClient, body: dict[str, Any],
                                                           pointer: str) -> None:
    """Not the empty position's faults ("2 to 4 players" at line 1): one, at the text (or the body)."""
    problem = assert_problem(client.post("/position", json=body), 422)
    assert problem["errors"] == [{"pointer": pointer, "detail": NOTHING_TO_RULE_ON}], problem
    assert problem["detail"] == NOTHING_TO_RULE_ON


@pytest.mark.parametrize("lang", ["pl", "ru"])
@pytest.mark.parametrize("body", [{"text": " \n"}, {"game": "chess", "text": "x"}, {"text": 3}, []])
def test_the_positions_own_faults_are_in_the_requests_language(client: FlaskClient, body: Any, lang: str) -> None:
    """The page asks in its language (the cookie, or Accept-Language): the page's own checks answer in it,
    as the game's faults do (a blank position, an unknown game, a text that is no string, no object)."""
    english = assert_problem(client.post("/position", json=body), 422)
    worded = assert_problem(client.post("/position", json=body, headers={"Accept-Language": lang}), 422)
    assert worded["detail"] != english["detail"] and worded["title"] != english["title"], worded
    assert worded.get("errors", [{}])[0].get("pointer") == english.get("errors", [{}])[0].get("pointer")
    if lang == "ru":
        assert any("\u0400" <= ch <= "\u04ff" for ch in worded["detail"]), worded


@pytest.mark.parametrize(("headers", "cookie", "lang"), [
    ({"Accept-Language": "ru-RU,ru;q=0.9"}, None, "ru"),
    ({"Accept-Language": "pl"}, None, "pl"),
    ({"Accept-Language": "ru"}, "pl", "pl"),
    ({}, None, "en"),
])
def test_the_position_page_is_in_the_language_negotiated(client: FlaskClient, headers: dict[str, str],
                                                         cookie: str | None, lang: str) -> None:
    """As /rules: the header or the switch's cookie, not only ?lang= (the page said lang="None")."""
    if cookie:
        client.set_cookie("arbiter_lang", cookie)
    page = client.get("/position?game=relic", headers=headers).get_data(as_text=True)
    assert f'<html lang="{lang}">' in page
    assert re.findall(r'<b lang="(\w+)" aria-current="true">', page) == [lang]
    assert 'href="/position?game=destiny"' in page  # (the games' links add no lang= of their own)


def test_a_position_the_engine_refuses_points_at_the_line_of_the_text(client: FlaskClient) -> None:
    """Luke's die has no face 3Sh: the engine says so of the built log's pool, the judge reads the line."""
    example = registry.get("destiny").quick_example()
    problem = assert_problem(client.post("/position", json={"text": example.replace("1Sh\n", "3Sh\n", 1)}), 422)
    line = example.splitlines().index("p1 die Luke Skywalker/1: 1Sh") + 1
    assert [(e["pointer"], e["detail"]) for e in problem["errors"]] == \
        [(f"/text/lines/{line}", "Luke Skywalker's die has no face 3Sh")]


def test_a_step_fault_of_a_position_is_worded_in_the_request_language(client: FlaskClient) -> None:
    """A game's fault is an i18n.Msg: the position's answer words it in the language asked for."""
    example = registry.get("destiny").quick_example()
    text = "\n".join("ask p1 activate Luke Skywalker/1" if line.startswith("ask") else line
                     for line in example.splitlines())
    english_problem = assert_problem(client.post("/position", json={"text": text}), 422)
    polish_problem = assert_problem(client.post("/position?lang=pl", json={"text": text}), 422)
    english, polish = english_problem["errors"], polish_problem["errors"]
    assert english_problem["detail"].startswith("1 fault; the first: 'card'")
    assert polish_problem["detail"].startswith("1 błąd; pierwszy: 'card'") and polish_problem["type"] == \
        english_problem["type"]
    ask_line = next(n for n, line in enumerate(text.splitlines(), 1) if line.startswith("ask"))
    assert [e["pointer"] for e in english] == [e["pointer"] for e in polish] == [f"/text/lines/{ask_line}"]
    assert english[0]["detail"] == "'card' (a card in play) names a card, not a die: leave out '/1'"
    assert polish[0]["detail"] == "'card' (karta w grze) wskazuje kartę, nie kość: pomiń '/1'"


def test_an_upgrade_or_support_fault_is_worded_in_the_request_language(client: FlaskClient) -> None:
    body = {"players": [{"id": "p1", "characters": [{"card": "Luke Skywalker", "upgrades": ["Slave I"]}],
                         "supports": ["Hidden Blaster"]},
                        {"id": "p2", "characters": [{"card": "Boba Fett"}]}], "ask": "p1 pass"}
    words = {lang: {e["pointer"]: e["detail"] for e in assert_problem(
        client.post(f"/position?lang={lang}", json=body), 422)["errors"]} for lang in ("en", "pl", "ru")}
    assert words["en"] == {"/players/0/characters/0/upgrades/0": "Slave I is not an upgrade",
                           "/players/0/supports/0": "Hidden Blaster is not a support"}
    assert words["pl"] == {"/players/0/characters/0/upgrades/0": "Slave I nie jest ulepszeniem",
                           "/players/0/supports/0": "Hidden Blaster nie jest wsparciem"}
    assert words["ru"]["/players/0/supports/0"] == "Hidden Blaster — не поддержка"


def test_the_sw_tcg_position_page_is_its_compact_text(client: FlaskClient) -> None:
    page = client.get("/position?game=swtcg").get_data(as_text=True)
    example = registry.get("swtcg").quick_example()
    assert 'id="qp"' not in page and 'id="compact-text"' in page and 'data-game="swtcg"' in page
    assert "round 3\nphase battle" in page and "<code>P attack UNIT -&gt; TARGET rolling 4 5 6</code>" in page
    assert 'href="/position?game=destiny"' in page and 'aria-current="page">Star Wars Trading Card Game' in page
    assert 'href="/position?game=swtcg"' in client.get("/position").get_data(as_text=True)
    answer = client.post("/position", json={"game": "swtcg", "text": example})
    assert answer.status_code == 200, answer.get_data(as_text=True)
    body = answer.get_json()
    assert body["log"]["game"] == "swtcg" and body["ruling"]["legal"] is True
    assert "Mon Calamari Cruiser: 3 hits (needs 5), 3 damage" in body["words"]["events"]
    assert {r["id"] for r in body["words"]["rules"]} >= {"swtcg.keywords.accuracy", "swtcg.keywords.armor-threshold"}


SW = "p1 Dark:\np1 space TIE Fighter\np2 Light:\np2 space X-wing\n"


@pytest.mark.parametrize(("body", "pointer"), [
    ({"text": SW + "p1 space Darth Vader\nask p1 pass"}, "/text/lines/5"),  # (the fault of the card, at its line)
    ({"text": SW + "nonsense here\nask p1 pass"}, "/text/lines/5"),
    ({"text": SW + "p2 ground X-wing\nask p1 pass"}, "/text/lines/5"),
    ({"text": SW + "ask p1 attack TIE Fighter -> Y-wing"}, "/text/lines/5"),
    ({"text": SW + "before p1 fly TIE Fighter\nask p1 pass"}, "/text/lines/5"),
    ({"text": SW + "before p2 attack X-wing -> TIE Fighter\nask p1 pass"}, "/text/lines/5"),
    ({"before": "p1 pass", "ask": "p1 pass", "players": [{"id": "p1"}, {"id": "p2"}]}, "/before"),
    ({"text": ["p1 pass"]}, "/text"),
    ({"players": [{"id": "p1", "cards": [{"card": "X-wing", "zone": "pilot", "on": 5}]}, {"id": "p2"}],
      "ask": "p1 pass"}, "/players/0/cards/0/on"),
    ({"players": [{"id": "p1", "cards": "X-wing"}, {"id": "p2", "side": "grey", "force": "5"}], "ask": 5},
     "/players/0/cards"),
    ({"players": [1, 2], "ask": "p1 pass"}, "/players/0/id"),
    ({"players": {"p1": {}}, "ask": "p1 pass"}, "/players"),
    ({"players": [{"id": "p1", "cards": [{"card": "Hoth Battle Plains", "zone": "location", "at": "space"}]},
                  {"id": "p2"}], "ask": "p1 pass"}, "/players/0/cards/0/at"),
    ({"players": [{"id": "p1", "cards": [{"card": "Blaster Rifle", "zone": "equipped", "on": "X-wing"}]},
                  {"id": "p2", "cards": [{"card": "X-wing", "zone": "space"}]}], "ask": "p1 pass"},
     "/players/0/cards/0/on"),
])
def test_a_sw_tcg_position_with_faults_is_422_with_pointers(client: FlaskClient, body: dict[str, Any],
                                                            pointer: str) -> None:
    problem = assert_problem(client.post("/position", json={"game": "swtcg", **body}), 422)
    assert pointer in [e["pointer"] for e in problem["errors"]], problem
