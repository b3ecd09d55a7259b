"""The viewer's data (replays.viewer): tables rebuilt from keyframes and patches, words with card
names, rules with their summaries, illegal steps, annotations, the standalone page and
``arbiter export-html``."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from arbiter.cli import main
from judge.games import registry
from judge.rules import index
from replays import viewer
from tests.helpers import EXAMPLES_DIR, ROOT, load_example
from tests.viewer.views import views_of

GOLDEN = ROOT / "tests" / "replays" / "golden" / "logs"
LOGS = [EXAMPLES_DIR / "choices-order-guardian-redeploy.json", EXAMPLES_DIR / "shields-cap.json",
        GOLDEN / "selfplay-golden-5.json", GOLDEN / "selfplay-golden-1.json"]
RAW_REF = re.compile(r"\bp\d+\.\d{5}")  # a Destiny card reference written out instead of named


def read(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


@pytest.mark.parametrize("path", LOGS, ids=lambda p: p.name)
def test_every_step_rebuilds_to_the_state_view(path: Path) -> None:
    log = read(path)
    data = viewer.viewer_json(log)
    expected = views_of(log)
    assert len(data["steps"]) == len(expected.views)
    for at, step in enumerate(data["steps"]):
        assert step["at"] == at
        assert ("state" in step) == (at % viewer.KEYFRAME_EVERY == 0), at
        state = viewer.state_at(data, at)
        hands = {pid: p.pop("hand_cards") for pid, p in state["players"].items()}
        assert state == expected.views[at], at
        assert hands == expected.hands[at], at
    json.dumps(data, allow_nan=False)  # JSON-ready


def test_a_long_game_is_keyframes_and_patches() -> None:
    data = viewer.viewer_json(read(GOLDEN / "selfplay-golden-5.json"))
    full = sum(len(json.dumps(viewer.state_at(data, at))) for at in range(len(data["steps"])))
    stored = sum(len(json.dumps(s.get("state", s.get("patch")))) for s in data["steps"])
    assert stored * 2 < full  # patches between keyframes carry far less than a table per step


@given(st.recursive(st.dictionaries(st.sampled_from("abcde"), st.integers() | st.none() | st.booleans()
                                    | st.lists(st.integers(), max_size=3), max_size=4),
                    lambda inner: st.dictionaries(st.sampled_from("abcde"), inner, max_size=4), max_leaves=20),
       st.data())
@settings(max_examples=200, deadline=None)
def test_patch_of_diff_gives_the_new_state(old: dict[str, Any], data: st.DataObject) -> None:
    new = data.draw(st.recursive(st.dictionaries(st.sampled_from("abcdef"), st.integers() | st.none()
                                                 | st.booleans(), max_size=4),
                                 lambda inner: st.dictionaries(st.sampled_from("abcdef"), inner, max_size=4),
                                 max_leaves=20))
    before = copy.deepcopy(old)
    ops = viewer.diff(old, new)
    assert old == before
    assert viewer.patch(copy.deepcopy(old), ops) == new
    assert viewer.diff(new, new) == []


@pytest.mark.parametrize("path", LOGS, ids=lambda p: p.name)
def test_words_name_cards_and_players(path: Path) -> None:
    log = read(path)
    data = viewer.viewer_json(log)
    player_ids = {p["id"] for p in log["players"]}
    for step in data["steps"]:
        texts = [step["summary"], *[e["text"] for e in step["events"]], *[d["text"] for d in step["decisions"]],
                 *step["changes"]]
        for text in texts:
            assert not RAW_REF.search(text), (step["at"], text)
            assert not any(re.search(rf"\b{re.escape(pid)}\b", text) for pid in player_ids), (step["at"], text)
        assert [e["kind"] for e in step["events"]] == [e["kind"] for e in step["events"] if e["kind"]]


def test_a_step_in_words() -> None:
    data = viewer.viewer_json(load_example("choices-order-guardian-redeploy.json"))
    step = data["steps"][3]
    assert step["summary"] == "Ana activates Tusken Raider, rolling 3MD1"
    events = [e["text"] for e in step["events"]]
    assert "Kylo Ren is defeated by Tusken Raider's die; upgrades discarded: F-11D Rifle, Lightsaber" in events
    assert "Boba Fett's die 2 deals 2 damage to Tusken Raider" in events
    assert "Lightsaber redeploys from Kylo Ren to Boba Fett" in events
    assert "Ana spends 1 resource for the face of Tusken Raider's die" in events
    assert "Ben chose Boba Fett (move the upgrade to)" in [d["text"] for d in step["decisions"]]
    assert {"Kylo Ren takes 3 damage (8 → 11)", "Kylo Ren is defeated", "Tusken Raider is exhausted",
            "Ana's resources: 2 → 1", "Ana's discard + Take Flight", "Boba Fett's die 2 (2MD) leaves the pool",
            "Lightsaber moves from Kylo Ren to Boba Fett", "turn: Ana → Ben"} <= set(step["changes"])
    assert step["ruling"] == {"legal": True}
    assert step["dispute"].startswith("Ana activates her Tusken Raider")


def test_rules_carry_their_summaries() -> None:
    data = viewer.viewer_json(read(GOLDEN / "selfplay-golden-5.json"))
    cited = {r for s in data["steps"] for r in s["rules"]}
    assert cited and set(data["rules"]) == cited
    for rule_id in cited:
        assert data["rules"][rule_id] == index.summary(rule_id)
    for step in data["steps"]:
        for event in step["events"]:
            assert set(event["rules"]) <= set(step["rules"])


def test_cards_table_names_every_card() -> None:
    data = viewer.viewer_json(read(GOLDEN / "selfplay-golden-5.json"))
    pool = registry.get("destiny").default_cards()
    for ref, entry in data["refs"].items():
        card = pool.get(entry["code"])
        assert data["cards"][entry["code"]]["name"] == card.name, ref
    for code, info in data["cards"].items():
        card = pool.get(code)
        assert info["type"] == str(card.type)
        assert info.get("faces", []) == [f.notation() for f in card.faces]
        assert info.get("health") == card.health
    characters = {ref for s in range(len(data["steps"])) for p in viewer.state_at(data, s)["players"].values()
                  for ref in p["characters"]}
    assert characters <= set(data["refs"])


def illegal_log() -> dict[str, Any]:
    """choices-order-guardian-redeploy.json whose first (wrong) step is no longer expected to fail."""
    log = copy.deepcopy(load_example("choices-order-guardian-redeploy.json"))
    del log["steps"][0]["expect"]
    return log


def test_an_illegal_step_is_marked_with_its_rule() -> None:
    data = viewer.viewer_json(illegal_log())
    assert data["valid"] is False
    last = data["steps"][-1]
    assert last["at"] == 1 and len(data["steps"]) == 2
    assert last["error"]["kind"] == "illegal-action"
    assert last["error"]["rule"] == "destiny.abilities.resolve-fully"
    assert "destiny.abilities.resolve-fully" in data["rules"]
    assert data["error"]["at"] == 1
    expected = viewer.viewer_json(load_example("choices-order-guardian-redeploy.json"))["steps"][1]
    assert expected["rejected_as_expected"] is True and expected["error"]["rule"] == last["error"]["rule"]


def test_annotations_are_checked_with_pointers() -> None:
    good = [{"at": 2, "note": "look"}, {"at": 0, "note": "start", "highlight": True},
            {"at": 1, "note": "x", "highlight": "red"}]
    assert [a["at"] for a in viewer.check_annotations(good, 3)] == [0, 1, 2]
    bad = [
        ({"at": 1}, r"/: annotations are a JSON list"),
        ([{"at": 4, "note": "x"}], r"^/0/at: a step number from 0 to 3"),
        ([{"at": True, "note": "x"}], r"^/0/at"),
        ([{"at": 1, "note": 5}], r"^/0/note"),
        ([{"at": 1, "note": "x" * (viewer.MAX_NOTE + 1)}], r"^/0/note"),
        ([{"at": 1, "note": "x"}, {"at": 1, "note": "y", "colour": "red"}], r"^/1/colour: unknown key"),
        ([{"at": 1, "note": "x", "highlight": "<b>"}], r"^/0/highlight"),
        (["x"], r"^/0: an annotation is an object"),
        ([{"at": 0, "note": ""}] * (viewer.MAX_ANNOTATIONS + 1), r"^/: at most"),
    ]
    for value, message in bad:
        with pytest.raises(ValueError, match=message):
            viewer.check_annotations(value, 3)


def embedded(page: str) -> Any:
    m = re.search(r'<script type="application/json" id="arbiter-viewer-data">(.*?)</script>', page, re.S)
    assert m is not None
    return json.loads(m.group(1))


def test_page_inlines_everything_and_escapes_script_ends() -> None:
    data = viewer.viewer_json(load_example("shields-cap.json"),
                              annotations=[{"at": 1, "note": "</script><script>alert(1)</script><!-- & \u2028"}])
    text = viewer.page(data)
    assert embedded(text) == json.loads(json.dumps(data))
    # the data's, the page's words, the viewer's and each game renderer's, nothing from the note
    assert text.count("</script>") == 3 + len(viewer.RENDERERS)
    assert "<!--" not in text
    assert all(viewer.asset(name) in text for name in ("viewer.css", "viewer.js", *viewer.RENDERERS))
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", text)  # no CDN, no external font
    assert "@import" not in text and "url(" not in text
    assert "@@" not in text


def test_page_can_fetch_its_data_instead() -> None:
    text = viewer.page(data_src="/v1/replays/abc/viewer?x=1&y=2", asset_url="/viewer/")
    assert 'data-src="/v1/replays/abc/viewer?x=1&amp;y=2"' in text
    assert '<link rel="stylesheet" href="/viewer/viewer.css">' in text
    assert '<script src="/viewer/viewer.js"></script>' in text
    assert 'id="arbiter-viewer-data"' not in text and "<style>" not in text
    with pytest.raises(ValueError):
        viewer.page()
    with pytest.raises(ValueError):
        viewer.page({"steps": []}, data_src="/x")


def invoke(*args: str) -> Any:
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_export_html(tmp_path: Path) -> None:
    notes = tmp_path / "notes.json"
    notes.write_text(json.dumps([{"at": 3, "note": "the ten answers", "highlight": True}]))
    out = tmp_path / "game.html"
    log = EXAMPLES_DIR / "choices-order-guardian-redeploy.json"
    result = invoke("export-html", str(log), "-o", str(out), "--annotations", str(notes), "--start", "2")
    assert result.exit_code == 0, result.output
    assert f"{out}: 3 steps, valid" in result.output
    data = embedded(out.read_text(encoding="utf-8"))
    assert data["start"] == 2
    assert data["annotations"] == [{"at": 3, "note": "the ten answers", "highlight": True}]
    assert data == json.loads(json.dumps(viewer.viewer_json(read(log), annotations=data["annotations"], start=2)))


def test_export_html_takes_an_annotation_set_as_the_api_gives_it(tmp_path: Path) -> None:
    """What ``GET /v1/replays/{id}/annotations/{set}`` answers, saved to a file, exports with its notes
    and its title (it wanted a bare list and refused the set)."""
    notes = tmp_path / "set.json"
    notes.write_text(json.dumps({"id": "3f2a", "replay": "x", "title": "Episode <4>", "created": "t", "updated": "t",
                                 "annotations": [{"at": 1, "note": "here"}], "links": {}}))
    out = tmp_path / "game.html"
    log = EXAMPLES_DIR / "choices-order-guardian-redeploy.json"
    result = invoke("export-html", str(log), "-o", str(out), "--annotations", str(notes))
    assert result.exit_code == 0, result.output
    data = embedded(out.read_text(encoding="utf-8"))
    assert data["annotations"] == [{"at": 1, "note": "here"}]
    assert data["notes"] == {"id": "3f2a", "title": "Episode <4>"}
    # the set's faults are pointed at within its list, as a list's are
    notes.write_text(json.dumps({"title": "T", "annotations": [{"at": 99, "note": "x"}]}))
    wrong = invoke("export-html", str(log), "-o", str(out), "--annotations", str(notes))
    assert wrong.exit_code == 1 and "/0/at: a step number from 0 to" in wrong.output


def test_export_html_errors(tmp_path: Path) -> None:
    log = str(EXAMPLES_DIR / "shields-cap.json")
    out = str(tmp_path / "x.html")
    missing = invoke("export-html", str(tmp_path / "none.json"), "-o", out)
    assert missing.exit_code == 2 and "cannot read" in missing.output
    bad_log = tmp_path / "bad.json"
    bad_log.write_text(json.dumps({**load_example("shields-cap.json"), "format": "arbiter.replay/0"}))
    malformed = invoke("export-html", str(bad_log), "-o", out)
    assert malformed.exit_code == 1 and "Malformed log" in malformed.output
    notes = tmp_path / "notes.json"
    notes.write_text(json.dumps([{"at": 99, "note": "x"}]))
    wrong = invoke("export-html", log, "-o", out, "--annotations", str(notes))
    assert wrong.exit_code == 1 and "/0/at: a step number from 0 to" in wrong.output
    notes.write_text("{not json")
    unreadable = invoke("export-html", log, "-o", out, "--annotations", str(notes))
    assert unreadable.exit_code == 2 and "cannot read" in unreadable.output
    past = invoke("export-html", log, "-o", out, "--start", "99")
    assert past.exit_code == 2 and "past the last step" in past.output
    assert not Path(out).exists()


def test_what_changed_tells_fields_a_state_view_leaves_out_once_unset() -> None:
    """A state view omits a flag or a record that is not set (Relic's ``ended``, ``confronted``):
    its going is told too, as its setting is."""
    names = viewer.Names([{"id": "p1", "name": "Ana"}], {})
    before = {"round": 1, "phase": "encounter", "ended": "lost", "confronted": True,
              "contest": {"kind": "battle", "stage": "rolled", "declared": ["x"]},
              "players": {"p1": {"life": 3, "spent": ["a"], "vanquished": True}}}
    after = {"round": 1, "phase": "encounter", "contest": {"kind": "battle", "stage": "rolled"},
             "players": {"p1": {"life": 3}}}
    words = viewer.changes(before, after, names)
    assert "Encounter phase ended: lost → none" in words
    assert "Confrontation taken this phase: yes → no" in words
    assert "contest's declared − x" in words
    assert "Ana's charges spent this turn − a" in words
    assert viewer.changes(after, before, names)  # (and the other way, as before: each is told set)
    assert viewer.changes(after, after, names) == []
