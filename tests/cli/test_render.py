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
    assert text.startswith("Step 17: p2 resolve: dice die p2.05019/1")
    assert "Answer: not legal, breaks destiny.dice.modifier-needs-base: no base" in text
    assert "damage target p1.05046; amount 3  [destiny.damage.shields-block]" in text
    assert "p1 decides order, between a, b, chose b, a  [destiny.timing.simultaneous]" in text
    assert "Who decides now: p2 must decide: target, between p1.05046" in text
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
    assert "Asked: Can Ana resolve the +2 ranged die" in text
    assert "Answer: not legal, breaks destiny.dice.modifier-needs-base" in text
    assert "  destiny.dice.modifier-needs-base: A modifier" in text


def test_ruling_text_says_when_it_cannot_rule() -> None:
    from arbiter.render import ruling_lines

    text = "\n".join(ruling_lines({"at": 3, "step": {"by": "p1", "do": "pass"}, "legal": None,
                                   "error": {"kind": "illegal-action"}, "message": "step 2 fails first"}))
    assert "Answer: no ruling (illegal-action): step 2 fails first" in text and "not legal" not in text


# ------------------------------------------------------------------ the timeline a person reads
NAMES = {"05031": "Rey", "05019": "Boba Fett", "05072": "Hidden Blaster", "01002": "Stormtrooper", "05178": "Echo Base"}


def _timeline(**over: object) -> dict:
    timeline = {
        "game": "destiny", "meta": {"title": "A sample", "format": "starter"},
        "players": [{"id": "p1", "name": "Ana"}, {"id": "p2", "name": "Ben"}],
        "valid": True, "outcome": {"winner": "p1", "reason": "all-defeated", "rules": ["destiny.victory.all-defeated"]},
        "error": None,
        "steps": [
            {"at": 0, "by": None, "do": "setup", "round": 1, "phase": "action", "summary": "setup", "rules": [],
             "events": [{"event": "battlefield-chosen", "by": "p2", "battlefield": "05178", "controller": "p1"}]},
            {"at": 1, "by": "p1", "do": "resolve", "round": 1, "phase": "action",
             "summary": "p1 resolves p1.05031/2 at p2.05019", "rules": ["destiny.dice.symbol"],
             "events": [{"event": "resolve", "player": "p1", "dice": ["p1.05031/2"]},
                        {"event": "damage", "source": "p1.05031/2", "target": "p2.05019", "amount": 3,
                         "blocked": 1, "taken": 2, "rules": ["destiny.damage.tokens"]}],
             "note": "p1.05031 is Rey: notes stay as written"},
            {"at": 2, "by": "p2", "do": "pass", "round": 2, "phase": "action", "summary": "p2 passes",
             "rules": ["destiny.round.pass"], "events": [{"event": "action-phase-ends", "round": 1},
                                                         {"event": "draw", "player": "p1", "drawn": 2}]},
            {"at": 3, "by": "p2", "do": "play", "round": 2, "phase": "action",
             "summary": "p2 plays 05072 on p2.01002#2",
             "rules": ["destiny.x"], "events": [{"event": "defeat", "target": "p2.01002#2"}],
             "dispute": "May Ben play it there?",
             "error": {"at": 3, "kind": "illegal-action", "rule": "destiny.upgrades.attach",
                       "message": "p2.01002#2 is defeated"}},
        ],
    }
    timeline.update(over)
    return timeline


def test_timeline_header_names_players_cards_battlefield_and_outcome_with_its_rule() -> None:
    log = {"players": [{"id": "p1", "name": "Ana", "characters": [{"card": "05031", "dice": 2}], "battlefield": "05178",
                        "deck": ["05072"] * 20},
                       {"id": "p2", "name": "Ben", "characters": [{"card": "05019", "dice": 1}], "deck": []}]}
    lines = render.timeline_lines(_timeline(), log, NAMES.get, "Star Wars Destiny")
    assert lines[0] == "A sample"
    assert lines[1].startswith("Game: Star Wars Destiny (destiny), format starter, 3 steps, valid")
    assert "  p1 Ana: Rey (05031, 2 dice); battlefield Echo Base (05178); deck of 20 cards" in lines
    assert "  p2 Ben: Boba Fett (05019, 1 die); deck of 0 cards" in lines
    assert "Battlefield: Echo Base, controlled by Ana (chosen by Ben)" in lines
    assert "Outcome: Ana wins by all-defeated in round 2, step 3  [destiny.victory.all-defeated]" in lines
    without = render.timeline_lines(_timeline(outcome=None), log, NAMES.get)
    assert "Outcome: none (the game goes on)" in without


def test_timeline_steps_in_words_with_names_rounds_rules_notes_disputes_and_illegal_steps() -> None:
    lines = render.timeline_lines(_timeline(), None, NAMES.get)
    text = "\n".join(lines)
    step1 = next(line for line in lines if line.startswith("   1. "))
    assert step1 == ("   1. Ana resolves Rey's die 2 at Ben's Boba Fett: Ben's Boba Fett takes 2 damage (1 blocked)"
                     "  [destiny.dice.symbol]")
    assert "      note: p1.05031 is Rey: notes stay as written" in lines
    # the round a step is taken in: step 2 ends round 1, so round 2's separator comes after it
    rounds = [i for i, line in enumerate(lines) if line.startswith("---- Round")]
    assert [lines[i].split()[2] for i in rounds] == ["1", "2"]
    assert lines[rounds[1] - 1].startswith("   2. Ben passes: round 1 ends")
    assert lines[rounds[1] + 1].startswith("   3. ")
    # an illegal step: marked, the rule it breaks and its message with names, nothing it did before failing
    step3 = next(line for line in lines if line.startswith("   3. "))
    assert step3 == "   3. ILLEGAL Ben plays Hidden Blaster on Stormtrooper #2"
    assert "      dispute: May Ben play it there?" in lines
    ruling = next(line for line in lines if line.startswith("      ruling: "))
    assert ruling.startswith("      ruling: illegal, breaks destiny.upgrades.attach")
    assert ruling.endswith(": Stormtrooper #2 is defeated")
    assert "{" not in text and "sha256" not in text  # no raw JSON, no hashes


def test_names_read_references_and_leave_other_words_alone() -> None:
    names = render.Names({"p1": "Ana", "p2": "Ben"}, NAMES.get)
    assert names.text("p1 rolls 2RD on p1.05031/1 against p2.05019#1, 05072 and 99999", actor="p1") == \
        "Ana rolls 2RD on Rey's die 1 against Ben's Boba Fett, Hidden Blaster and 99999"
    assert names.text("p1.05031") == "Ana's Rey"  # the owner, unless it is the step's own player
    assert names.text("p2.05019/2", actor="p1") == "Ben's Boba Fett's die 2"
    assert names.text("p3.05019 p2.77777") == "p3.05019 p2.77777"  # no such player, no such card
    assert render.Names({"p1": ""}).text("p1 plays 05031") == "p1 plays 05031"  # no card pool: codes


def test_a_step_that_ends_the_round_says_so_and_who_won_not_the_upkeep() -> None:
    names = render.Names({"p1": "Ana", "p2": "Ben"}, NAMES.get)
    entry = {"at": 9, "by": "p2", "summary": "p2 passes",
             "events": [{"event": "pass", "player": "p2"}, {"event": "action-phase-ends", "round": 4},
                        {"event": "gain-resources", "player": "p1", "amount": 2, "source": "upkeep"},
                        {"event": "draw", "player": "p1", "drawn": 2},
                        {"event": "game-over", "winner": "p1", "reason": "deck-out"}]}
    assert render.step_words(entry, names) == "Ben passes: round 4 ends; Ana wins (deck-out)"
    assert render.step_words(entry, names, effects=False) == "Ben passes"


def test_ruling_words_name_cards_and_say_what_changed() -> None:
    import json as _json

    from arbiter.render import ruling_lines
    from replays.service import ruling_words_json
    from tests.helpers import EXAMPLES_DIR

    log = _json.loads((EXAMPLES_DIR / "shields-cap.json").read_text())
    result = ruling_words_json(log)
    lines = ruling_lines(result["ruling"], result["words"])
    assert lines[0] == ("Step 1: Ana resolves Luke Skywalker's die at Luke Skywalker, "
                        "Luke Skywalker's die 2 at Luke Skywalker")
    assert "Answer: Legal." in lines
    # before and after, only what differs: the second shield is over the cap
    assert "  Luke Skywalker gains 1 shield (2 → 3)" in lines and "  turn: Ana → Ben" in lines
    assert not any("resources" in line for line in lines[lines.index("What changed:"):])
    assert "  destiny.shields.max-three: Three shields per character at most; extras are lost." in lines
