"""Cards named by name in a Destiny log (judge.games.cardnames, judge.games.destiny.names;
docs/replay-format.md section 3): each form, the faults of a name that names no one card, and a log
written with names replaying exactly as the same log written with codes."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from judge.games.carddata import TitleIndex, Titles
from judge.games.destiny.cards import default_pool
from judge.games.destiny.cardtools import title
from judge.games.destiny.names import card_names
from judge.games.destiny.steps import parse_step
from replays.errors import MalformedLog
from replays.format import parse_log
from replays.service import replay_json, ruling_json
from tests.helpers import EXAMPLES_DIR
from tests.replays import golden
from tests.replays.namedlogs import with_names

POOL = default_pool()
PLAYERS = ("p1", "p2")


def names_for(pool: Any) -> dict[str, str]:
    """Each code's shortest name that names it alone."""
    index = card_names(pool).index
    out = {}
    for code, card in pool.cards.items():
        for name in (card.name, title(card)):
            if index.match(name).code == code:
                out[code] = name
                break
    return out


TITLES = names_for(POOL)


def named(log: dict[str, Any]) -> dict[str, Any]:
    return with_names(log, TITLES, r"^[0-9]{5}[A-Z]?$",
                      r"^([A-Za-z][A-Za-z0-9_-]*)\.([0-9]{5}[A-Z]?)((?:#[0-9]+)?(?:/[0-9]+)?)$")


def step(**kw: Any) -> Any:
    action, faults = parse(kw)
    assert not faults, faults
    return action


def parse(raw: dict[str, Any]) -> tuple[Any, list[Any]]:
    """A step read as parse_log reads it (the names written as codes where the first reading faults)."""
    log = json.loads((EXAMPLES_DIR / "shields-cap.json").read_text(encoding="utf-8"))
    log["steps"] = [raw]
    try:
        parsed = parse_log(log, POOL)
    except MalformedLog as exc:
        return None, [(f.path, str(f.message)) for f in exc.faults if f.path.startswith("/steps")]
    return parsed.actions[0], []


# ---------------------------------------------------------------------------------------- forms
@pytest.mark.parametrize(("written", "code"), [
    ("p1.Luke Skywalker", "p1.05031"),
    ("p1.luke skywalker", "p1.05031"),
    ("p1.LUKE  SKYWALKER", "p1.05031"),
    ("p1.Luke Skywalker#2", "p1.05031#2"),
    ("p1.Luke Skywalker/1", "p1.05031/1"),
    ("p1.Luke Skywalker#2/1", "p1.05031#2/1"),
    ("p2.Han Solo - Savvy Smuggler/2", "p2.05046/2"),
    ("p2.han solo, savvy smuggler", "p2.05046"),
])
def test_reference_forms(written: str, code: str) -> None:
    die = "/" in code
    if die:
        action = step(by="p1", do="resolve", dice=[{"die": written}])
        assert action.dice[0].die == code
    else:
        action = step(by="p1", do="activate", card=written)
        assert action.card == code
        assert action.to_json() == {"by": "p1", "do": "activate", "card": code}  # written back with codes


def test_a_card_in_hand_and_every_reference_of_a_step() -> None:
    throw = next(c for c, card in POOL.cards.items() if card.name == "Force Throw")
    action = step(by="p1", do="play", card="Force Throw", target="p2.Boba Fett",
                  dice=[{"die": "p1.Luke Skywalker/1", "modifies": "p1.Luke Skywalker/2", "target": "p2.Boba Fett",
                         "turn": {"p1.Luke Skywalker/2": "2MD"}, "split": {"p2.Boba Fett": 1}}])
    assert action.card == throw
    assert action.target == "p2.05019"
    entry = action.dice[0]
    assert (entry.die, entry.modifies, entry.target) == ("p1.05031/1", "p1.05031/2", "p2.05019")
    assert entry.turn == {"p1.05031/2": "2MD"} and entry.split == {"p2.05019": 1}
    assert step(by="p1", do="reroll", discard="force throw", dice=["p1.Luke Skywalker/1"]).to_json() == \
        {"by": "p1", "do": "reroll", "discard": throw, "dice": ["p1.05031/1"]}
    assert step(do="upkeep", discard={"p1": ["Force Throw", "05116"]}).discard == {"p1": (throw, "05116")}


def test_codes_and_names_mixed_and_a_player_target() -> None:
    action = step(by="p1", do="resolve", dice=[{"die": "p1.05031/1", "target": "p2.Boba Fett"},
                                               {"die": "p1.Luke Skywalker/2", "target": "p2"}])
    assert [(d.die, d.target) for d in action.dice] == [("p1.05031/1", "p2.05019"), ("p1.05031/2", "p2")]


def test_a_code_only_step_is_not_looked_up() -> None:
    """The fast path: a step written with codes is read once, without the names."""
    raw = {"by": "p1", "do": "resolve", "dice": [{"die": "p1.05031/1", "target": "p2.05019"}]}
    action, faults = parse_step(raw, "/steps/0", PLAYERS, POOL)
    assert not faults and action.dice[0].die == "p1.05031/1"


# ---------------------------------------------------------------------------------------- faults
def test_a_name_two_cards_share_lists_them() -> None:
    _, faults = parse({"by": "p1", "do": "activate", "card": "p1.Han Solo"})
    assert len(faults) == 1
    path, message = faults[0]
    assert path == "/steps/0/card"
    assert "'Han Solo' names several cards" in message
    assert "05046 Han Solo - Savvy Smuggler" in message and "01046 Han Solo - Scoundrel" in message


def test_an_unknown_name_gives_the_nearest() -> None:
    _, faults = parse({"by": "p1", "do": "resolve", "dice": [{"die": "p1.Luke Skywalkr/1", "target": "p2.Boba Fett"}]})
    assert [p for p, _ in faults] == ["/steps/0/dice/0/die"]
    assert "no card is named 'Luke Skywalkr'" in faults[0][1] and "05031 Luke Skywalker" in faults[0][1]
    _, faults = parse({"by": "p1", "do": "play", "card": "Forse Throw"})
    assert faults[0][0] == "/steps/0/card" and "Force Throw" in faults[0][1]


def test_a_name_fault_in_the_setup_has_its_pointer() -> None:
    log = json.loads((EXAMPLES_DIR / "shields-cap.json").read_text(encoding="utf-8"))
    log["setup"]["position"]["players"]["p1"]["characters"] = {"p1.Han Solo": {"dice": 1}}
    log["setup"]["position"]["players"]["p1"]["hand"] = ["Nobody At All"]
    with pytest.raises(MalformedLog) as exc:
        parse_log(log, POOL)
    paths = [f.path for f in exc.value.faults]
    assert "/setup/position/players/p1/characters/p1.Han Solo" in paths
    assert "/setup/position/players/p1/hand/0" in paths
    assert any("names several cards" in str(f.message) for f in exc.value.faults)


def test_reprints_the_data_marks_name_the_card_reprinted() -> None:
    cards = [Titles("01002", ("Leia Organa",)), Titles("09002", ("Leia Organa",), same_as="01002"),
             Titles("05031", ("Luke Skywalker",)), Titles("07031", ("Luke Skywalker",))]
    index = TitleIndex(cards)
    assert index.match("leia organa").code == "01002"
    luke = index.match("Luke Skywalker")
    assert luke.code is None and luke.ambiguous and luke.candidates == ("05031", "07031")


# ---------------------------------------------------------------------------------------- equivalence
DESTINY_LOGS = [p.stem for p in sorted(EXAMPLES_DIR.glob("*.json"))] + ["selfplay-golden-1", "selfplay-golden-4"]


def _load(name: str) -> dict[str, Any]:
    path = EXAMPLES_DIR / f"{name}.json"
    if not path.exists():
        path = golden.LOGS / f"{name}.json"
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


@pytest.mark.parametrize("name", DESTINY_LOGS)
def test_a_log_written_with_names_replays_as_with_codes(name: str) -> None:
    log = _load(name)
    if name == "named-cards":  # the example written with names: its codes are what it reads as
        return
    renamed = named(log)
    assert renamed != log
    want, got = replay_json(log), replay_json(renamed)
    assert got == want
    parsed, coded = parse_log(renamed, POOL), parse_log(log, POOL)
    assert [a.to_json() if a else a for a in parsed.actions] == [a.to_json() if a else a for a in coded.actions]
    assert parsed.steps == coded.steps and parsed.setup == coded.setup and parsed.players == coded.players
    n = len(log["steps"])
    for at in sorted({1, n // 2, n} - {0}):
        assert ruling_json(renamed, at) == ruling_json(log, at)


def test_the_named_example_replays_as_its_code_twin() -> None:
    log = _load("named-cards")
    parsed = parse_log(log, POOL)
    read = json.dumps([parsed.players, parsed.setup, [{k: v for k, v in s.items() if k != "note"}
                                                      for s in parsed.steps]])
    assert "Luke Skywalker" in json.dumps(log["steps"]) and "Luke Skywalker" not in read
    assert parsed.steps[2]["card"] == "05073" and parsed.steps[2]["on"] == "p1.05031"
    twin = copy.deepcopy(log)
    twin["players"], twin["setup"], twin["steps"] = parsed.players, parsed.setup, parsed.steps
    assert replay_json(log) == replay_json(twin)


def test_a_log_written_with_codes_never_looks_names_up(monkeypatch: pytest.MonkeyPatch) -> None:
    """The fast path: no step of a code-only log goes to the names (and no name is looked up)."""
    from judge.games import cardnames
    from judge.games.destiny import names

    def no(*_: Any) -> Any:
        raise AssertionError("looked up")

    monkeypatch.setattr(names, "step_codes", no)
    monkeypatch.setattr(cardnames.CardNames, "code", no)
    for name in DESTINY_LOGS:
        if name != "named-cards":
            parse_log(_load(name), POOL)


def test_two_keys_that_name_one_card() -> None:
    log = _load("shields-cap")
    chars = log["setup"]["position"]["players"]["p1"]["characters"]
    chars["p1.Luke Skywalker"] = chars["p1.05031"]
    with pytest.raises(MalformedLog) as exc:
        parse_log(log, POOL)
    assert [f.path for f in exc.value.faults][0] == "/setup/position/players/p1/characters/p1.Luke Skywalker"
    assert "names the same card as the key 'p1.05031'" in str(exc.value.faults[0].message)


def test_decisions_answered_with_names_replay_as_with_codes() -> None:
    """A ``choices`` answer may name cards by name too: a die (``p2.Name/2``), a card in hand, a
    target, an ability in an order (``p2.Name#1:redeploy``); the log reads as its code twin."""
    log = _load("choices-order-guardian-redeploy")
    renamed = named(log)
    answers = [c["answer"] for s in renamed["steps"] for c in s.get("choices", [])]
    written = json.dumps(answers)
    assert "05098" not in written and "p2.05019/2" not in written and ":redeploy" in written
    assert any(isinstance(a, list) and all(":redeploy" in x and "#1" in x for x in a) for a in answers)
    parsed, coded = parse_log(renamed, POOL), parse_log(log, POOL)
    assert parsed.inputs == coded.inputs and parsed.steps == coded.steps
    assert replay_json(renamed) == replay_json(log)


def test_an_answer_that_names_no_card_is_kept_for_the_replay_to_judge() -> None:
    """Answers are never faulted when the log is read: a word of the decision stays as it is, and an
    answer naming no card (or an unknown one) reaches the replay, which says the decision cannot
    take it (an illegal answer, not a malformed log)."""
    log = _load("choices-order-guardian-redeploy")
    step = log["steps"][-1]  # the step that is legal as logged (the two before it are refused on purpose)
    choice = next(c for c in step["choices"] if c.get("kind") == "discard")
    choice["answer"] = "No Such Card Anywhere"
    parsed = parse_log(log, POOL)  # no MalformedLog
    assert any(c.answer == "No Such Card Anywhere" for i in parsed.inputs for c in i.choices)
    result = replay_json(log)
    assert result["valid"] is False and result["error"]["kind"] == "illegal-action"
    assert "No Such Card Anywhere" in result["error"]["message"]


def test_an_answer_of_counts_by_reference_is_plain_and_one_by_name_is_rewritten() -> None:
    """An answer mapping references to counts (``{"p1.05031": 2}``: how damage is split) is read as
    it is at a glance; a key written with a name makes the step go to the rewrite, which gives codes."""
    from judge.games.destiny.names import answer_codes
    from judge.games.destiny.steps import plain_answers

    step = {"by": "p1", "do": "pass", "choices": [{"answer": {"p1.05031": 2, "p1.05046": 1}}, {"answer": {}}]}
    assert plain_answers(step, ["p1", "p2"], POOL)
    assert answer_codes(step, ["p1", "p2"], POOL) is step
    named_key = {"by": "p1", "do": "pass", "choices": [{"answer": {"p1.Luke Skywalker": 2}}]}
    assert not plain_answers(named_key, ["p1", "p2"], POOL)
    assert answer_codes(named_key, ["p1", "p2"], POOL)["choices"][0]["answer"] == {"p1.05031": 2}
    word = {"by": "p1", "do": "pass", "choices": [{"answer": {"p1.05031": "all"}}]}
    assert not plain_answers(word, ["p1", "p2"], POOL)


def test_a_word_is_looked_up_by_exact_name_only() -> None:
    """``code_of`` is ``match(...).code`` without the near names a miss would list."""
    index = card_names(POOL).index
    for text in ("Luke Skywalker", "luke skywalker", "05031", "damage", "Luke", "", "   "):
        assert index.code_of(text) == index.match(text).code, text
    assert index.code_of("Luke Skywalker") == "05031" and index.code_of("damage") is None


def test_code_of_kept_answers_are_those_found_afresh() -> None:
    """``code_of`` keeps each text's answer (``TitleIndex._code_of``): asked again, and once the memo
    was emptied at MAX_CODE_OF, it says what a new index's ``match`` says."""
    from judge.games import carddata

    index = card_names(POOL).index
    texts = ("Luke Skywalker", "luke skywalker", "05031", "damage", "Luke", "", "   ", "p1:draw", "build:1")
    for _ in range(2):
        for text in texts:
            fresh = carddata.TitleIndex(index.cards)
            assert index.code_of(text) == fresh.match(text).code == fresh.code_of(text), text
    full = carddata.TitleIndex(index.cards)
    for i in range(carddata.MAX_CODE_OF):
        full.code_of(f"word {i}")
    assert len(full._code_of) == carddata.MAX_CODE_OF
    for text in texts * 2:
        assert full.code_of(text) == index.match(text).code, text
        assert len(full._code_of) <= len(texts)
