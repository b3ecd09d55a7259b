"""What the replay viewer reads through the API: the list of replays, the viewer's data (computed
by the timeline's worker job), ``timeline?at=N``, creators' annotation sets with their token, the
pages, and CORS for reads. Real engine, real Redis, a real RQ worker run in-process."""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable
from typing import Any

import pytest
import redis
from flask.testing import FlaskClient

from arbiter import store
from judge.limits import MAX_PAGE_SIZE
from replays.service import log_id, timeline_json
from replays.viewer import state_at, viewer_json
from tests.helpers import assert_problem, load_example


def stored(client: FlaskClient, name: str = "shields-cap.json", title: str | None = None) -> tuple[str, dict[str, Any]]:
    log = copy.deepcopy(load_example(name))
    if title is not None:
        log.setdefault("meta", {})["title"] = title
    resp = client.post("/v1/replays", json=log)
    assert resp.status_code in (200, 201), resp.get_data(as_text=True)
    return resp.get_json()["id"], log


def computed(client: FlaskClient, run_jobs: Callable[[], bool], url: str) -> Any:
    first = client.get(url)
    assert first.status_code == 202, first.get_data(as_text=True)
    assert first.headers["Retry-After"]
    assert first.headers["Location"] == url
    run_jobs()
    resp = client.get(url)
    assert resp.status_code == 200, resp.get_data(as_text=True)
    return resp.get_json()


# ------------------------------------------------------------------ the list
def test_the_list_shows_titles_and_players_last_stored_first_a_page_at_a_time(client: FlaskClient) -> None:
    ids = [stored(client, name, title=f"Game {i}")[0]
           for i, name in enumerate(["shields-cap.json", "deck-out-one.json", "modifier-alone.json"])]
    body = client.get("/v1/replays?page_size=2").get_json()
    assert body["total"] == 3
    assert [item["id"] for item in body["items"]] == [ids[2], ids[1]]
    first = body["items"][0]
    assert first["title"] == "Game 2"
    assert first["game"] == "destiny"
    log = load_example("modifier-alone.json")
    assert first["players"] == [{"id": p["id"], "name": p.get("name", p["id"])} for p in log["players"]]
    assert first["steps"] == len(log["steps"])
    assert first["links"]["view"] == f"/replays/{ids[2]}"
    assert body["links"]["next"] == "/v1/replays?page=2&page_size=2"
    second = client.get(body["links"]["next"]).get_json()
    assert [item["id"] for item in second["items"]] == [ids[0]]
    assert "next" not in second["links"] and second["links"]["prev"] == "/v1/replays?page=1&page_size=2"


def test_the_list_page_in_each_language(client: FlaskClient) -> None:
    ids = [stored(client, name, title=f"Game {i}")[0]
           for i, name in enumerate(["shields-cap.json", "deck-out-one.json"])]
    en = client.get("/replays").get_data(as_text=True)
    assert '<html lang="en">' in en and "2 replays stored" in en and "Stored (UTC)" in en
    assert all(f'href="/replays/{i}"' in en for i in ids)
    ru = client.get("/replays", headers={"Accept-Language": "ru"}).get_data(as_text=True)
    assert '<html lang="ru">' in ru and "<h1>Повторы</h1>" in ru and "2 повтора сохранено" in ru
    pl = client.get("/replays?lang=pl").get_data(as_text=True)
    assert '<html lang="pl">' in pl and "<h1>Powtórki</h1>" in pl and "2 powtórki zapisane" in pl  # Polish plural of 2
    assert "Stored" not in pl and "Players" not in pl and all(f'href="/replays/{i}"' in pl for i in ids)
    assert re.search(r"<td>\d{2}\.\d{2}\.\d{4}, \d{2}:\d{2}</td>", pl), pl  # the stored time as Poles write it


def test_storing_a_log_again_keeps_its_place_in_the_list(client: FlaskClient) -> None:
    a, _ = stored(client, "shields-cap.json")
    b, _ = stored(client, "deck-out-one.json")
    stored(client, "shields-cap.json")
    items = client.get("/v1/replays").get_json()["items"]
    assert [i["id"] for i in items] == [b, a]


@pytest.mark.parametrize("query, pointer", [("page=0", "/query/page"), ("page_size=0", "/query/page_size"),
                                            (f"page_size={MAX_PAGE_SIZE + 1}", "/query/page_size"),
                                            ("page=x", "/query/page")])
def test_a_bad_page_is_a_422_with_its_pointer(client: FlaskClient, query: str, pointer: str) -> None:
    body = assert_problem(client.get(f"/v1/replays?{query}"), 422)
    assert pointer in [e["pointer"] for e in body["errors"]]


# ------------------------------------------------------------------ the viewer's data and timeline?at
def test_the_viewer_data_is_computed_by_the_worker_and_matches_the_engine(
        client: FlaskClient, run_jobs: Callable[[], bool]) -> None:
    replay_id, log = stored(client, "choices-order-guardian-redeploy.json")
    data = computed(client, run_jobs, f"/v1/replays/{replay_id}/viewer")
    expected = json.loads(json.dumps(viewer_json(log)))
    assert data == {**expected, "id": replay_id}
    # the same job stored the timeline
    assert client.get(f"/v1/replays/{replay_id}/timeline").get_json()["timeline"] == json.loads(
        json.dumps(timeline_json(log)))


def test_timeline_at_a_step_gives_that_step_and_the_table_there(
        client: FlaskClient, run_jobs: Callable[[], bool]) -> None:
    replay_id, log = stored(client, "choices-order-guardian-redeploy.json")
    computed(client, run_jobs, f"/v1/replays/{replay_id}/timeline")
    full = json.loads(json.dumps(timeline_json(log)))
    data = json.loads(json.dumps(viewer_json(log)))
    for at in range(len(full["steps"])):
        body = client.get(f"/v1/replays/{replay_id}/timeline?at={at}").get_json()
        assert body["at"] == at
        assert body["timeline"]["steps"] == [full["steps"][at]]
        assert body["timeline"]["players"] == full["players"]
        assert body["state"] == state_at(data, at)
    last = len(full["steps"])
    problem = assert_problem(client.get(f"/v1/replays/{replay_id}/timeline?at={last}"), 404)
    assert problem["errors"][0]["pointer"] == "/query/at"
    assert_problem(client.get(f"/v1/replays/{replay_id}/timeline?at=-1"), 422)


def test_the_states_differ_between_steps(client: FlaskClient, run_jobs: Callable[[], bool]) -> None:
    """``?at`` is not the same state every time: the shields example changes the table at step 1."""
    replay_id, _ = stored(client, "shields-cap.json")
    computed(client, run_jobs, f"/v1/replays/{replay_id}/timeline")
    s0 = client.get(f"/v1/replays/{replay_id}/timeline?at=0").get_json()["state"]
    s1 = client.get(f"/v1/replays/{replay_id}/timeline?at=1").get_json()["state"]
    assert s0 != s1


def test_viewer_of_an_unknown_replay_is_404(client: FlaskClient) -> None:
    assert_problem(client.get("/v1/replays/" + "0" * 64 + "/viewer"), 404)
    assert_problem(client.get("/replays/" + "0" * 64), 404)
    assert_problem(client.get("/replays/nope"), 404)


# ------------------------------------------------------------------ annotations
def notes(client: FlaskClient, replay_id: str, annotations: list[dict[str, Any]],
          title: str = "My cut") -> dict[str, Any]:
    resp = client.post(f"/v1/replays/{replay_id}/annotations", json={"title": title, "annotations": annotations})
    assert resp.status_code == 201, resp.get_data(as_text=True)
    return dict(resp.get_json())


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_a_creator_annotates_without_changing_the_log_or_its_id(
        client: FlaskClient, run_jobs: Callable[[], bool], redis_db: redis.Redis) -> None:
    replay_id, log = stored(client, "choices-order-guardian-redeploy.json")
    before = redis_db.get(store.log_key(replay_id))
    created = notes(client, replay_id, [{"at": 2, "note": "Watch this", "highlight": "red"},
                                        {"at": 0, "note": "Start"}])
    set_id, token = created["id"], created["token"]
    assert created["annotations"] == [{"at": 0, "note": "Start"}, {"at": 2, "note": "Watch this", "highlight": "red"}]
    assert created["links"]["view"] == f"/replays/{replay_id}?notes={set_id}"
    assert "token" not in client.get(created["links"]["self"]).get_json()
    # edit one step, add another, remove one
    resp = client.put(f"/v1/replays/{replay_id}/annotations/{set_id}/steps/2", json={"note": "Now"},
                      headers=auth(token))
    assert resp.status_code == 200, resp.get_data(as_text=True)
    assert resp.get_json()["annotations"] == [{"at": 0, "note": "Start"}, {"at": 2, "note": "Now"}]
    resp = client.delete(f"/v1/replays/{replay_id}/annotations/{set_id}/steps/0", headers=auth(token))
    assert resp.get_json()["annotations"] == [{"at": 2, "note": "Now"}]
    # the viewer shows them; the log, its ID and the data without notes are unchanged
    data = computed(client, run_jobs, f"/v1/replays/{replay_id}/viewer?notes={set_id}")
    assert data["annotations"] == [{"at": 2, "note": "Now"}]
    assert data["notes"] == {"id": set_id, "title": "My cut"}
    assert client.get(f"/v1/replays/{replay_id}/viewer").get_json()["annotations"] == []
    assert redis_db.get(store.log_key(replay_id)) == before
    assert log_id(client.get(f"/v1/replays/{replay_id}").get_json()["log"]) == replay_id
    # the exported file carries them
    page = client.get(f"/replays/{replay_id}/export.html?notes={set_id}")
    assert page.status_code == 200
    assert "attachment" in page.headers["Content-Disposition"]
    assert '"note":"Now"' in page.get_data(as_text=True)


def test_changes_need_the_sets_own_creator_token(client: FlaskClient) -> None:
    replay_id, _ = stored(client)
    mine = notes(client, replay_id, [{"at": 1, "note": "a"}])
    other = notes(client, replay_id, [{"at": 1, "note": "b"}])
    url = f"/v1/replays/{replay_id}/annotations/{mine['id']}"
    body = {"annotations": [{"at": 1, "note": "hacked"}]}
    assert_problem(client.put(url, json=body), 401)
    assert client.put(url, json=body).headers["WWW-Authenticate"].startswith("Bearer")
    assert_problem(client.put(url, json=body, headers=auth(other["token"])), 403)
    assert_problem(client.delete(url, headers=auth(other["token"])), 403)
    # the token is checked before the body: a wrong body without the token is still a 401
    assert_problem(client.put(url, json={"nope": 1}), 401)
    # a set that does not exist looks the same as one of another creator
    assert_problem(client.put(f"/v1/replays/{replay_id}/annotations/{'0' * 16}", json=body,
                              headers=auth(mine["token"])), 403)
    assert client.get(url).get_json()["annotations"] == [{"at": 1, "note": "a"}]
    resp = client.put(url, json={"title": "T", "annotations": [{"at": 0, "note": "ok"}]}, headers=auth(mine["token"]))
    assert resp.status_code == 200
    assert resp.get_json()["title"] == "T"
    assert client.delete(url, headers=auth(mine["token"])).status_code == 204
    assert_problem(client.get(url), 404)


def test_a_deleted_or_wrong_notes_set_still_shows_the_game_and_says_the_notes_are_missing(
        client: FlaskClient, run_jobs: Callable[[], bool]) -> None:
    replay_id, _ = stored(client, "choices-order-guardian-redeploy.json")
    created = notes(client, replay_id, [{"at": 1, "note": "gone soon"}])
    assert client.delete(f"/v1/replays/{replay_id}/annotations/{created['id']}",
                         headers=auth(created["token"])).status_code == 204
    computed(client, run_jobs, f"/v1/replays/{replay_id}/viewer")
    for set_id in (created["id"], "0123456789abcdef"):
        resp = client.get(f"/v1/replays/{replay_id}/viewer?notes={set_id}")
        assert resp.status_code == 200, resp.get_data(as_text=True)
        data = resp.get_json()
        assert data["notes"] == {"id": set_id, "missing": True}
        assert data["annotations"] == [] and data["steps"]
        assert client.get(f"/replays/{replay_id}/export.html?notes={set_id}").status_code == 200
        assert client.get(f"/replays/{replay_id}?notes={set_id}").status_code == 200
        # the set itself is still not there
        assert_problem(client.get(f"/v1/replays/{replay_id}/annotations/{set_id}"), 404)


@pytest.mark.parametrize("annotations, pointer", [
    ([{"at": 99, "note": "x"}], "/annotations/0/at"),
    ([{"at": 0, "note": 5}], "/annotations/0/note"),
    ([{"at": 0, "note": "x"}, {"at": 0, "note": "y", "colour": "red"}], "/annotations/1/colour"),
    ([{"at": 0, "note": "x", "highlight": "Not A Colour"}], "/annotations/0/highlight"),
    ("notes", "/annotations"),
])
def test_bad_annotations_are_422_with_their_pointer(client: FlaskClient, annotations: Any, pointer: str) -> None:
    replay_id, _ = stored(client)
    body = assert_problem(client.post(f"/v1/replays/{replay_id}/annotations", json={"annotations": annotations}), 422)
    assert pointer in [e["pointer"] for e in body["errors"]], body


def test_a_step_note_past_the_last_step_is_404_and_a_bad_note_422(client: FlaskClient) -> None:
    replay_id, log = stored(client)
    created = notes(client, replay_id, [])
    base = f"/v1/replays/{replay_id}/annotations/{created['id']}/steps"
    token = auth(created["token"])
    assert_problem(client.put(f"{base}/{len(log['steps']) + 1}", json={"note": "x"}, headers=token), 404)
    body = assert_problem(client.put(f"{base}/1", json={"note": "x", "highlight": 7}, headers=token), 422)
    assert body["errors"][0]["pointer"] == "/highlight"


def test_renaming_a_set_keeps_its_notes(client: FlaskClient) -> None:
    """PUT replaces the whole set, so it wants both keys (a body with the title alone wiped the notes);
    PATCH changes what it is sent and keeps the rest."""
    replay_id, _ = stored(client)
    created = notes(client, replay_id, [{"at": 1, "note": "keep me"}])
    url, token = f"/v1/replays/{replay_id}/annotations/{created['id']}", auth(created["token"])
    for body, missing in (({"title": "Ep 2"}, "/annotations"), ({"annotations": []}, "/title"), ({}, "/title")):
        problem = assert_problem(client.put(url, json=body, headers=token), 422)
        assert missing in [e["pointer"] for e in problem["errors"]], problem
    assert client.get(url).get_json()["annotations"] == [{"at": 1, "note": "keep me"}]
    renamed = client.patch(url, json={"title": "Ep 2"}, headers=token)
    assert renamed.status_code == 200, renamed.get_data(as_text=True)
    assert renamed.get_json()["title"] == "Ep 2"
    assert renamed.get_json()["annotations"] == [{"at": 1, "note": "keep me"}]
    changed = client.patch(url, json={"annotations": [{"at": 0, "note": "new"}]}, headers=token).get_json()
    assert changed["title"] == "Ep 2" and changed["annotations"] == [{"at": 0, "note": "new"}]
    assert client.get(url).get_json() == changed
    # PATCH checks what it changes as PUT does, needs the token, and refuses an empty change
    problem = assert_problem(client.patch(url, json={"annotations": [{"at": 99, "note": "x"}]}, headers=token), 422)
    assert [e["pointer"] for e in problem["errors"]] == ["/annotations/0/at"]
    assert_problem(client.patch(url, json={"title": "x"}), 401)
    assert_problem(client.patch(url, json={}, headers=token), 422)
    assert_problem(client.patch(url, json={"colour": "red"}, headers=token), 422)
    assert client.get(url).get_json() == changed


def test_removing_a_note_past_the_last_step_is_404_as_setting_one_is(client: FlaskClient) -> None:
    replay_id, log = stored(client)
    created = notes(client, replay_id, [{"at": 0, "note": "a"}, {"at": len(log["steps"]), "note": "b"}])
    base, token = f"/v1/replays/{replay_id}/annotations/{created['id']}/steps", auth(created["token"])
    assert_problem(client.delete(f"{base}/{len(log['steps']) + 1}", headers=token), 404)
    last = client.delete(f"{base}/{len(log['steps'])}", headers=token)
    assert last.status_code == 200 and last.get_json()["annotations"] == [{"at": 0, "note": "a"}]


def test_a_stored_replay_links_its_viewer_page(client: FlaskClient) -> None:
    """What to share after an upload: the viewer page, in the answer to the POST and to the GET."""
    log = load_example("shields-cap.json")
    created = client.post("/v1/replays", json=log).get_json()
    assert created["links"]["view"] == f"/replays/{created['id']}"
    assert client.get(created["links"]["self"]).get_json()["links"]["view"] == created["links"]["view"]
    assert client.get(created["links"]["view"]).status_code == 200


def test_annotating_an_unknown_replay_is_404(client: FlaskClient) -> None:
    assert_problem(client.post("/v1/replays/" + "a" * 64 + "/annotations", json={"annotations": []}), 404)


# ------------------------------------------------------------------ pages and CORS
def test_the_viewer_page_fetches_the_stored_data_with_its_notes(client: FlaskClient) -> None:
    replay_id, _ = stored(client, title="A <b>bold</b> title")
    set_id = notes(client, replay_id, [])["id"]
    page = client.get(f"/replays/{replay_id}?notes={set_id}")
    assert page.status_code == 200 and page.mimetype == "text/html"
    text = page.get_data(as_text=True)
    assert f'data-src="/v1/replays/{replay_id}/viewer?notes={set_id}&amp;lang=en"' in text
    assert "<title>A &lt;b&gt;bold&lt;/b&gt; title" in text
    assert 'href="/viewer-assets/viewer.css"' in text and 'src="/viewer-assets/viewer.js"' in text
    for name in ("viewer.css", "viewer.js"):
        assert client.get(f"/viewer-assets/{name}").status_code == 200
    assert_problem(client.get("/viewer-assets/secret.py"), 404)
    assert_problem(client.get(f"/replays/{replay_id}?notes=zz"), 422)
    listing = client.get("/replays").get_data(as_text=True)
    assert f'href="/replays/{replay_id}"' in listing and "A &lt;b&gt;bold&lt;/b&gt; title" in listing


def test_reads_are_open_to_other_sites_and_changes_are_not(client: FlaskClient) -> None:
    replay_id, _ = stored(client)
    origin = {"Origin": "https://creator.example"}
    for url in ("/v1/replays", f"/v1/replays/{replay_id}", f"/v1/replays/{replay_id}/timeline"):
        resp = client.get(url, headers=origin)
        assert resp.headers["Access-Control-Allow-Origin"] == "*", url
        assert "Retry-After" in resp.headers["Access-Control-Expose-Headers"]
    pre = client.options(f"/v1/replays/{replay_id}", headers={**origin, "Access-Control-Request-Method": "GET"})
    assert pre.headers["Access-Control-Allow-Origin"] == "*"
    assert "GET" in pre.headers["Access-Control-Allow-Methods"]
    for method, headers in (("POST", {}), ("GET", {"Access-Control-Request-Headers": "authorization"})):
        pre = client.options("/v1/replays", headers={**origin, "Access-Control-Request-Method": method, **headers})
        assert "Access-Control-Allow-Origin" not in pre.headers, method
    posted = client.post(f"/v1/replays/{replay_id}/annotations", headers=origin)  # no body: an empty set
    assert posted.status_code == 201
    assert "Access-Control-Allow-Origin" not in posted.headers


# ------------------------------------------------------------------ languages
def test_the_viewer_data_comes_in_the_language_asked_for(
        client: FlaskClient, run_jobs: Callable[[], bool], redis_db: redis.Redis) -> None:
    replay_id, log = stored(client, "choices-order-guardian-redeploy.json")
    url = f"/v1/replays/{replay_id}/viewer"
    pl = computed(client, run_jobs, f"{url}?lang=pl")
    assert pl["lang"] == "pl"
    assert pl == {**json.loads(json.dumps(viewer_json(log, lang="pl"))), "id": replay_id}
    # one job stored every language: no 202 for the others; ?lang= on the API sets no cookie
    assert "arbiter_lang" not in client.get(f"{url}?lang=pl").headers.get("Set-Cookie", "")
    assert client.get(url, headers={"Accept-Language": "ru"}).get_json()["lang"] == "ru"
    client.set_cookie("arbiter_lang", "pl")  # a page's switch set it: the API follows it too
    assert client.get(url, headers={"Accept-Language": "ru"}).get_json()["lang"] == "pl"
    client.delete_cookie("arbiter_lang")
    by_header = client.get(url, headers={"Accept-Language": "pl-PL,pl;q=0.9,en;q=0.5"})
    assert by_header.status_code == 200 and by_header.get_json()["lang"] == "pl"
    assert "Accept-Language" in by_header.headers["Vary"]
    assert client.get(url, headers={"Accept-Language": "ru"}).get_json()["lang"] == "ru"
    assert client.get(f"{url}?lang=en", headers={"Accept-Language": "pl"}).get_json()["lang"] == "en"
    client.delete_cookie("arbiter_lang")
    assert client.get(url).get_json()["lang"] == "en"
    assert all(store.get_viewer(redis_db, replay_id, lang) is not None for lang in ("en", "pl", "ru"))


def test_a_language_missing_from_an_older_record_is_computed_again(
        client: FlaskClient, run_jobs: Callable[[], bool], redis_db: redis.Redis) -> None:
    replay_id, _ = stored(client)
    url = f"/v1/replays/{replay_id}/viewer"
    computed(client, run_jobs, url)
    # as stored by a worker before the languages, long ago (the job's claim has expired)
    redis_db.delete(store.viewer_key(replay_id, "ru"), store.timeline_claim_key(replay_id))
    assert computed(client, run_jobs, f"{url}?lang=ru")["lang"] == "ru"


@pytest.mark.parametrize("query", ["lang=de", "lang=", "lang=PL"])
def test_an_unknown_language_is_a_422_at_query_lang(client: FlaskClient, query: str) -> None:
    replay_id, _ = stored(client)
    body = assert_problem(client.get(f"/v1/replays/{replay_id}/viewer?{query}"), 422)
    assert "/query/lang" in [e["pointer"] for e in body["errors"]]


def test_the_pages_pass_the_language_on(client: FlaskClient, run_jobs: Callable[[], bool]) -> None:
    replay_id, _ = stored(client)
    text = client.get(f"/replays/{replay_id}?lang=pl").get_data(as_text=True)
    assert '<html lang="pl">' in text
    assert f'data-src="/v1/replays/{replay_id}/viewer?lang=pl"' in text
    assert 'hreflang="ru"' in text and f'href="/replays/{replay_id}?lang=ru"' in text
    client.delete_cookie("arbiter_lang")
    by_header = client.get(f"/replays/{replay_id}", headers={"Accept-Language": "ru-RU"}).get_data(as_text=True)
    assert f'data-src="/v1/replays/{replay_id}/viewer?lang=ru"' in by_header
    computed(client, run_jobs, f"/v1/replays/{replay_id}/viewer")
    export = client.get(f"/replays/{replay_id}/export.html?lang=pl")
    assert export.status_code == 200
    exported = export.get_data(as_text=True)
    assert '<html lang="pl">' in exported and '"lang":"pl"' in exported


def test_a_note_past_the_illegal_step_that_ends_a_replay_is_refused(client: FlaskClient) -> None:
    """A replay that an illegal step ends: its viewer stops at that step, so a note past it (which would
    never show) is refused, in a set (422 at its step number) and on its own (404), and one at that
    step is taken."""
    from replays.selfplay import play_game

    log = play_game("notes-past-illegal", "AW-H", "AW-V", policy="heuristic").log
    bad = 4
    log["steps"][bad - 1]["by"] = "p2" if log["steps"][bad - 1]["by"] == "p1" else "p1"  # out of turn
    resp = client.post("/v1/replays", json=log)
    assert resp.status_code in (200, 201), resp.get_data(as_text=True)
    replay_id = resp.get_json()["id"]
    result = client.get(f"/v1/replays/{replay_id}").get_json()["replay"]
    assert result["valid"] is False and result["steps"] == bad < len(log["steps"]), result
    url = f"/v1/replays/{replay_id}/annotations"
    body = assert_problem(client.post(url, json={"annotations": [{"at": bad + 1, "note": "never shown"}]}), 422)
    assert [e["pointer"] for e in body["errors"]] == ["/annotations/0/at"]
    created = notes(client, replay_id, [{"at": bad, "note": "the illegal step"}])
    assert created["annotations"] == [{"at": bad, "note": "the illegal step"}]
    steps = f"{url}/{created['id']}/steps"
    assert_problem(client.put(f"{steps}/{bad + 1}", json={"note": "x"}, headers=auth(created["token"])), 404)
    assert client.put(f"{steps}/{bad}", json={"note": "y"}, headers=auth(created["token"])).status_code == 200
