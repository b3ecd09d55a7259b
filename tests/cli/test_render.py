"""Text renderings of spec-shaped JSON (no engine needed)."""

from __future__ import annotations

from arbiter import render


def test_ruling_lines_show_rule_ids_decisions_and_who_must_decide() -> None:
    ruling = {
        "at": 17, "step": {"by": "p2", "do": "resolve", "dice": [{"die": "p2.05019/1"}]},
        "legal": False, "violation": {"rule": "destiny.dice.modifier-needs-base", "message": "no base"},
        "events": [{"event": "damage", "target": "p1.05046", "amount": 3,
                    "rules": ["destiny.damage.shields-block"]}],
        "decisions": [{"by": "p1", "kind": "order", "options": ["a", "b"], "answer": ["b", "a"],
                       "rules": ["destiny.timing.simultaneous"]}],
        "pending": {"by": "p2", "kind": "target", "options": ["p1.05046"], "rules": ["destiny.x"]},
        "outcome": {"winner": "p1", "reason": "deck-out", "rules": ["destiny.win.deck-out"]},
        "state_hash": "sha256:ab",
    }
    text = "\n".join(render.ruling_lines(ruling))
    assert text.startswith("Step 17: p2 resolve")
    assert "Legal: NO, breaks destiny.dice.modifier-needs-base: no base" in text
    assert "damage target=p1.05046 amount=3  [destiny.damage.shields-block]" in text
    assert "p1 decides order" in text and "[destiny.timing.simultaneous]" in text
    assert "Pending decision: p2 must decide: target" in text
    assert "Outcome: p1 wins (deck-out)  [destiny.win.deck-out]" in text


def test_replay_lines_for_an_invalid_log() -> None:
    lines = render.replay_lines("x.json", {
        "valid": False, "steps": 2, "outcome": None, "checkpoints": {"passed": [1], "failed": [2]},
        "error": {"at": 3, "kind": "illegal-action", "rule": "destiny.r", "message": "no"},
        "faults": [{"path": "/steps/2/by", "message": "unknown player"}]})
    assert lines[0] == "x.json: INVALID"
    assert "Error at step 3: illegal-action [destiny.r]: no" in lines
    assert "Fault /steps/2/by: unknown player" in lines
    assert "Checkpoints: 1 passed, 1 failed (failed at step 2)" in lines


def test_ruling_text_shows_the_question_and_summaries_of_the_rules_cited() -> None:
    import json as _json

    from arbiter.render import ruling_lines
    from replays.service import ruling_json
    from tests.helpers import EXAMPLES_DIR

    log = _json.loads((EXAMPLES_DIR / "modifier-alone.json").read_text())
    text = "\n".join(ruling_lines(ruling_json(log)))
    assert "Question: Can Ana resolve the +2 ranged die" in text
    assert "Legal: NO, breaks destiny.dice.modifier-needs-base" in text
    assert "  destiny.dice.modifier-needs-base: A modifier" in text


def test_ruling_text_says_when_it_cannot_rule() -> None:
    from arbiter.render import ruling_lines

    text = "\n".join(ruling_lines({"at": 3, "step": {"by": "p1", "do": "pass"}, "legal": None,
                                   "error": {"kind": "illegal-action"}, "message": "step 2 fails first"}))
    assert "Legal: cannot rule (illegal-action): step 2 fails first" in text and "NO" not in text
