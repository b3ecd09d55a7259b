"""The annotated timeline (replays/timeline.py, docs/replay-format.md section 7): one entry per
step plus the setup, with what happened, the rules applied, the notes and the state hash."""

from __future__ import annotations

from typing import Any

import pytest

from replays.service import timeline_json
from tests.replays.samples import STEPS, Recorder, corpus, cut, example, final_hash, golden, run, six_steps

N = len(STEPS)
CORPUS = corpus()


@pytest.mark.parametrize(("name", "log"), CORPUS, ids=[n for n, _ in CORPUS])
def test_one_entry_per_step_plus_the_setup_with_the_replays_hashes(name: str, log: dict[str, Any]) -> None:
    rec = Recorder()
    result = run(log, rec)
    tl = timeline_json(log)
    assert tl["valid"] == result.valid and tl["outcome"] == result.outcome()
    entries = tl["steps"]
    assert [e["at"] for e in entries] == list(range(result.steps + 1))
    assert entries[0]["do"] == "setup" and entries[0]["by"] is None and entries[0]["summary"] == "setup"
    for e in entries[1:]:
        step = log["steps"][e["at"] - 1]
        assert (e["by"], e["do"]) == (step["by"], step["do"])
    # the hash of each entry is the one the replay's visitors saw for that step
    assert [e["state_hash"] for e in entries] == [h for kind, _, h in rec.calls if kind != "end"]


def test_the_header_names_the_game_meta_and_players() -> None:
    log = golden(2)
    tl = timeline_json(log)
    assert tl["game"] == "destiny" and tl["meta"] == log.get("meta", {})
    assert tl["players"] == [{"id": p["id"], "name": p["name"]} for p in log["players"]]


def test_each_entry_summarizes_its_step() -> None:
    """One readable line per step, made of the step itself (and the faces its activation rolled)."""
    summaries = [e["summary"] for e in timeline_json(six_steps())["steps"]]
    assert summaries == [
        "setup",
        "p1 uses p1.05031",
        "p2 activates p2.05013, rolling 1RD",
        "p1 plays 05102",
        "p1 passes",
        "p2 resolves p2.05013/1 at p1.05031",
        "p1 claims the battlefield",
    ]


def test_a_seeded_activation_is_summarized_with_what_it_rolled() -> None:
    log = golden(1)
    tl = timeline_json(log)
    activations = [e for e in tl["steps"] if e["do"] == "activate"]
    assert activations
    for e in activations:
        rolled = next(ev["rolled"] for ev in e["events"] if ev["event"] == "activate")
        assert e["summary"] == f"{e['by']} activates {log['steps'][e['at'] - 1]['card']}, rolling " \
            + " ".join(rolled.values())


def test_each_entry_lists_the_rules_of_its_events_and_decisions_once() -> None:
    tl = timeline_json(example("simultaneous-after-abilities"))
    entry = tl["steps"][1]
    seen: list[str] = []
    for item in [*entry["events"], *entry["decisions"]]:
        for r in item.get("rules", []):
            if r not in seen:
                seen.append(r)
    assert entry["rules"] == seen
    assert "destiny.timing.simultaneous-battlefield-controller" in entry["rules"]
    assert all("answer" in d for d in entry["decisions"]) and len(entry["decisions"]) == 3


def test_notes_and_disputes_are_carried_where_they_are() -> None:
    log = six_steps()
    log["steps"][1]["note"] = "Ben rolls his only die."
    log["steps"][4]["dispute"] = "Does a shield block the 1 ranged?"
    log["steps"][4]["note"] = "Luke has 3 shields."
    entries = timeline_json(log)["steps"]
    assert [(e["at"], e.get("note"), e.get("dispute")) for e in entries if "note" in e or "dispute" in e] == [
        (2, "Ben rolls his only die.", None),
        (5, "Luke has 3 shields.", "Does a shield block the 1 ranged?"),
    ]


def test_an_illegal_step_is_the_last_entry_with_its_error() -> None:
    foreign = {"by": "p2", "do": "activate", "card": "p1.05031", "roll": ["1RD", "1RD"]}
    log = six_steps([STEPS[0], foreign, *STEPS[1:]])
    tl = timeline_json(log)
    assert tl["valid"] is False
    assert tl["error"]["at"] == 2 and tl["error"]["rule"] == "destiny.terms.controller"
    entries = tl["steps"]
    assert [e["at"] for e in entries] == [0, 1, 2]
    assert "error" not in entries[1] and entries[2]["error"] == tl["error"]
    assert "rejected_as_expected" not in entries[2]
    assert entries[2]["state_hash"] == entries[1]["state_hash"] == final_hash(cut(log, 1))


def test_a_step_rejected_as_expected_is_marked_and_the_timeline_goes_on() -> None:
    log = example("modifier-alone")
    log["steps"].append({"by": "p1", "do": "pass"})
    tl = timeline_json(log)
    assert tl["valid"] is True and tl["error"] is None
    rejected = tl["steps"][1]
    assert rejected["rejected_as_expected"] is True
    assert rejected["error"]["rule"] == "destiny.dice.modifier-needs-base"
    assert rejected["state_hash"] == tl["steps"][0]["state_hash"]
    assert [e["at"] for e in tl["steps"]] == [0, 1, 2] and "error" not in tl["steps"][2]


def test_a_checkpoint_mismatch_is_the_timelines_error_and_every_step_has_its_entry() -> None:
    log = six_steps()
    log["steps"][2]["expect"] = {"hash": final_hash(cut(log, 0))}
    tl = timeline_json(log)
    assert tl["valid"] is False and tl["error"]["kind"] == "checkpoint-mismatch" and tl["error"]["at"] == 3
    assert len(tl["steps"]) == N + 1
    assert all("error" not in e for e in tl["steps"])  # no step failed: a checkpoint did
