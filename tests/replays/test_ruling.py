"""Rulings (replays/ruling.py, docs/replay-format.md section 6): what the rules say about one step."""

from __future__ import annotations

from typing import Any

import pytest

from replays.errors import StepOutOfRange
from replays.service import ruling_json, ruling_words_json
from tests.replays.samples import STEPS, cut, example, final_hash, golden, six_steps

N = len(STEPS)
# Ben activates Ana's Luke Skywalker: only a character's controller may (destiny.terms.controller)
FOREIGN = {"by": "p2", "do": "activate", "card": "p1.05031", "roll": ["1RD", "1RD"]}


def with_foreign_activation_at_step_2() -> dict[str, Any]:
    return six_steps([STEPS[0], FOREIGN, *STEPS[1:]])


def first_seen(ruling: dict[str, Any]) -> list[str]:
    """Every rule ID of the ruling's events, answered decisions, violation and pending decision,
    once each, in that order (what rules_cited promises)."""
    out: list[str] = []
    sources = [*ruling["events"], *ruling["decisions"], ruling["violation"] or {}, ruling["pending"] or {}]
    for item in sources:
        ids = ([item["rule"]] if item.get("rule") else []) + list(item.get("rules", []))
        for r in ids:
            if r not in out:
                out.append(r)
    return out


@pytest.mark.rules("destiny.actions.power-action")
def test_a_legal_step() -> None:
    log = six_steps()
    r = ruling_json(log, 1)
    assert r["at"] == 1 and r["step"] == log["steps"][0]
    assert r["legal"] is True and r["violation"] is None and r["pending"] is None and "error" not in r
    damage = [e for e in r["events"] if e["event"] == "damage"]
    assert [(e["source"], e["target"], e["amount"]) for e in damage] == [("p1.05031/1", "p2.05013", 4)]
    assert r["state_hash"] == final_hash(cut(log, 1))
    assert r["state"]["players"]["p2"]["characters"]["p2.05013"]["damage"] == 4
    assert r["outcome"] is None
    assert "destiny.actions.power-action" in r["rules_cited"]


def test_every_step_of_a_legal_game_is_ruled_legal_with_its_own_state() -> None:
    log = six_steps()
    for at in range(1, N + 1):
        r = ruling_json(log, at)
        assert r["legal"] is True, (at, r.get("violation"))
        assert r["state_hash"] == final_hash(cut(log, at))


@pytest.mark.rules("destiny.terms.controller")
def test_an_illegal_step_names_the_rule_it_breaks() -> None:
    log = with_foreign_activation_at_step_2()
    r = ruling_json(log, 2)
    assert r["legal"] is False and r["pending"] is None
    assert r["violation"]["rule"] == "destiny.terms.controller"
    assert "p1.05031" in r["violation"]["message"]
    assert r["state_hash"] == final_hash(cut(log, 1))  # the state before the illegal step
    assert r["rules_cited"][-1] == "destiny.terms.controller"


@pytest.mark.rules("destiny.timing.simultaneous-battlefield-controller")
def test_a_pending_decision_says_who_decides_what_and_why() -> None:
    """The example without its choices: both after-abilities trigger at once, and the battlefield's
    controller (Ben, p2, in the example's position) must order them."""
    log = example("simultaneous-after-abilities")
    del log["steps"][0]["choices"]
    assert log["setup"]["position"]["battlefield"]["controller"] == "p2"
    r = ruling_json(log, 1)
    assert r["legal"] is True and r["violation"] is None
    pending = r["pending"]
    assert pending["by"] == "p2" and pending["kind"] == "order"
    assert sorted(pending["options"]) == ["p1.01022", "p2.01021"]
    assert pending["rules"] == ["destiny.timing.simultaneous-battlefield-controller"]
    assert "p2 must decide" in r["message"]
    assert "destiny.timing.simultaneous-battlefield-controller" in r["rules_cited"]


def test_a_ruling_carries_the_dispute_and_the_note_of_its_step() -> None:
    log = example("simultaneous-after-abilities")
    r = ruling_json(log)  # the step marked "dispute" by default
    assert r["at"] == 1 and r["legal"] is True
    assert r["question"] == log["steps"][0]["dispute"] and r["annotation"] == log["steps"][0]["note"]
    # the decisions answered by the log's choices, each with who made it
    assert [(d["by"], d["kind"], d["answer"]) for d in r["decisions"]] == \
        [(c["by"], c["kind"], c["answer"]) for c in log["steps"][0]["choices"]]
    assert "question" not in ruling_json(six_steps(), 1) and "annotation" not in ruling_json(six_steps(), 1)


def test_the_default_step_is_the_disputed_one_else_the_last() -> None:
    log = six_steps()
    assert ruling_json(log)["at"] == N
    log["steps"][2]["dispute"] = "Can Heightened Awareness go on Luke?"
    r = ruling_json(log)
    assert r["at"] == 3 and r["question"] == "Can Heightened Awareness go on Luke?"


@pytest.mark.rules("destiny.setup.battlefield-roll", "destiny.setup.battlefield-compensation")
def test_step_0_of_a_log_from_the_beginning_is_the_setup() -> None:
    log = golden(1)
    r = ruling_json(log, 0)
    assert r["at"] == 0 and r["step"] == {"do": "setup"} and r["legal"] is True
    assert r["state_hash"] == final_hash(cut(log, 0))
    roll = next(e for e in r["events"] if e["event"] == "battlefield-roll")
    winner = max(roll["totals"], key=roll["totals"].get)
    # the roll's winner chose the battlefield; the other player was compensated with shields, both as
    # the log's setup choices say
    assert [(d["by"], d["kind"], d["answer"]) for d in r["decisions"]] == \
        [(c["by"], c["kind"], c["answer"]) for c in log["setup"]["choices"]]
    assert r["decisions"][0]["by"] == winner and r["decisions"][1]["by"] != winner
    chosen = next(p for p in log["players"] if p["id"] == r["decisions"][0]["answer"])
    assert r["state"]["battlefield"]["card"] == chosen["battlefield"]
    assert r["rules_cited"][:1] == first_seen(r)[:1] and "destiny.setup.battlefield-roll" in r["rules_cited"]


@pytest.mark.parametrize("at", [-1, N + 1, N + 40])
def test_a_step_the_log_does_not_have_is_out_of_range(at: int) -> None:
    with pytest.raises(StepOutOfRange) as exc:
        ruling_json(six_steps(), at)
    assert (exc.value.at, exc.value.steps) == (at, N)
    assert f"the log has {N} steps" in str(exc.value)


def test_step_0_of_a_log_from_a_position_is_out_of_range() -> None:
    """A position has no setup to rule on."""
    with pytest.raises(StepOutOfRange):
        ruling_json(six_steps(), 0)
    assert ruling_json(golden(1), 0)["at"] == 0  # but a log from the beginning has one


def test_a_step_after_an_earlier_failure_says_which_step_fails_first() -> None:
    log = with_foreign_activation_at_step_2()
    r = ruling_json(log, 5)
    assert r["legal"] is None and r["violation"] is None and r["events"] == []
    assert r["error"]["at"] == 2 and r["error"]["rule"] == "destiny.terms.controller"
    assert r["message"].startswith("the log cannot be replayed to step 5: step 2 fails first (illegal-action: ")
    assert r["state_hash"] == final_hash(cut(log, 1))
    assert r["rules_cited"] == ["destiny.terms.controller"]  # (the rule step 2 fails on: the page cites it)
    words = ruling_words_json(log, 5)["words"]
    assert [rule["id"] for rule in words["rules"]] == ["destiny.terms.controller"] and words["rules"][0]["summary"]


def test_a_step_after_a_failed_setup_says_the_setup_fails_first() -> None:
    """The self-play games seat starter decks of 20 cards; a standard deck has 30 (deck-building is
    checked before setup): the setup fails (at step 0), so no step can be ruled."""
    log = golden(1)
    assert {len(p["deck"]) for p in log["players"]} == {20}
    log["meta"] = {"format": "standard"}
    r = ruling_json(log, 3)
    assert r["legal"] is None and r["error"]["at"] == 0
    assert r["error"]["rule"] == "destiny.deckbuilding.deck-size"
    assert r["message"].startswith("the log cannot be replayed to step 3: the setup fails first")
    assert r["rules_cited"] == ["destiny.deckbuilding.deck-size"]


@pytest.mark.rules("destiny.dice.modifier-needs-base")
def test_a_step_rejected_as_expected_is_ruled_illegal_with_the_state_before_it() -> None:
    log = example("modifier-alone")
    r = ruling_json(log, 1)
    assert r["legal"] is False and r["violation"]["rule"] == "destiny.dice.modifier-needs-base"
    assert "expects this step to be rejected" in r["note"]
    assert r["state"]["players"]["p1"]["pool"] == log["setup"]["position"]["players"]["p1"]["pool"]


@pytest.mark.parametrize(("log", "at"), [
    (six_steps(), 1), (six_steps(), 6), (with_foreign_activation_at_step_2(), 2),
    (example("simultaneous-after-abilities"), 1), (golden(1), 0), (golden(2), 10), (golden(3), 40),
], ids=["power-action", "claim", "violation", "ordered-abilities", "setup", "golden-2-10", "golden-3-40"])
def test_rules_cited_holds_every_rule_once_in_order(log: dict[str, Any], at: int) -> None:
    r = ruling_json(log, at)
    assert r["rules_cited"] == first_seen(r)
    assert len(set(r["rules_cited"])) == len(r["rules_cited"]) > 0
    for item in [*r["events"], *r["decisions"]]:
        assert set(item.get("rules", [])) <= set(r["rules_cited"])


def test_a_step_in_words_names_a_card_once_where_its_reference_words_as_its_name() -> None:
    """SW TCG's summary writes ``NAME (REF)``; worded, the reference is the name again: said once."""
    from judge.games import registry
    from replays.ruling import _ECHO
    from replays.service import ruling_words_json

    game = registry.get("swtcg")
    spec, _ = game.quick_text(game.quick_example())
    log, faults = game.quick_log(spec, game.default_cards())
    assert log is not None and not faults
    step = ruling_words_json(log, 1)["words"]["step"]
    assert step == "Vera: TIE Bomber attacks Mon Calamari Cruiser; damage 3 to Mon Calamari Cruiser"
    assert _ECHO.sub(r"\g<name>", "Luke Skywalker (p1.05031) and Han (Solo); X-wing (X-wing)") == \
        "Luke Skywalker (p1.05031) and Han (Solo); X-wing"
    for kept in ("d1 2->6 (6)", "d2=6 (6)", "SuperTIE (TIE)", "Luke (Luke Skywalker)"):
        assert _ECHO.sub(r"\g<name>", kept) == kept
