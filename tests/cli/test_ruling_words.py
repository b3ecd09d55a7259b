"""A ruling in the words a judge reads aloud (replays.ruling.ruling_words, ``arbiter rule``): who
decides now and between what, the rule broken, what changed, and the JSON left as it was."""

from __future__ import annotations

import json

from click.testing import CliRunner

from arbiter.commands.logs import rule
from replays.service import ruling_json, ruling_words_json
from tests.helpers import EXAMPLES_DIR, load_example


def test_a_missing_choice_says_who_decides_now_and_between_what(tmp_path) -> None:
    log = load_example("claim-ability-choices.json")
    del log["steps"][2]["choices"]
    result = ruling_words_json(log, 3)
    assert result["ruling"] == ruling_json(log, 3)  # the spec's JSON is untouched
    decides = result["words"]["decides"]
    assert decides == {"who": "Ana", "what": "resolve which of your dice",
                       "between": ["Luke Skywalker's die", "Hunting Rifle's die"],
                       "rules": ["destiny.dice.resolve-via-card"]}
    path = tmp_path / "log.json"
    path.write_text(json.dumps(log))
    text = CliRunner().invoke(rule, [str(path), "--at", "3"]).output
    assert ("Answer: Legal so far; Ana decides now: resolve which of your dice, between Luke Skywalker's die "
            "and Hunting Rifle's die.") in text
    assert "Who decides now: Ana, resolve which of your dice, between Luke Skywalker's die and Hunting " \
           "Rifle's die  [destiny.dice.resolve-via-card]" in text


def test_an_illegal_step_names_the_rule_its_summary_and_the_cards() -> None:
    words = ruling_words_json(load_example("modifier-alone.json"))["words"]
    assert words["asked"].startswith("Can Ana resolve the +2 ranged die")
    assert words["answer"].startswith("Not legal: it breaks destiny.dice.modifier-needs-base. A modifier (+) face")
    assert "Hidden Blaster's die shows a modifier" in words["answer"] and "p1.05072" not in words["answer"]
    assert words["changes"] == [] and words["events"] == []


def test_what_changed_is_only_what_differs() -> None:
    words = ruling_words_json(load_example("replacement-stops-defeat.json"))["words"]
    assert "Han Solo loses 3 damage (8 → 5)" in words["changes"]
    assert "Second Chance leaves play" in words["changes"]
    # nothing that stayed the same: resources, hands, decks, the battlefield
    assert not any(w in c for c in words["changes"] for w in ("resources", "hand", "deck", "controlled"))
    text = CliRunner().invoke(rule, [str(EXAMPLES_DIR / "replacement-stops-defeat.json")]).output
    for change in words["changes"]:
        assert f"  {change}" in text


def test_json_stays_the_spec_shape() -> None:
    out = CliRunner().invoke(rule, [str(EXAMPLES_DIR / "shields-cap.json"), "--json"])
    assert json.loads(out.output) == ruling_json(load_example("shields-cap.json"))
