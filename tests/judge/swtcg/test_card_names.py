"""Cards named by name in a SW TCG log (judge.games.swtcg.names): the forms, the faults, and the
examples written with names replaying as written with codes."""

from __future__ import annotations

import json
from typing import Any

import pytest

from judge.games.swtcg.game import Swtcg
from judge.games.swtcg.names import card_names
from replays.errors import MalformedLog
from replays.format import parse_log
from replays.service import replay_json
from tests.helpers import EXAMPLES_DIR
from tests.replays.namedlogs import with_names

POOL = Swtcg().default_cards()
NAMES = sorted(p.stem for p in (EXAMPLES_DIR / "swtcg").glob("*.json"))


def titles() -> dict[str, str]:
    index = card_names(POOL).index
    out = {}
    for code, card in POOL.cards.items():
        for name in (card.name, card.display):
            if index.match(name).code == code:
                out[code] = name
                break
    return out


TITLES = titles()


def load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((EXAMPLES_DIR / "swtcg" / f"{name}.json").read_text(encoding="utf-8"))
    return data


def named(log: dict[str, Any]) -> dict[str, Any]:
    return with_names(log, TITLES, r"^[A-Z]{2}-[A-Z0-9]+$",
                      r"^([A-Za-z][A-Za-z0-9_-]*)\.([A-Z]{2}-[A-Z0-9]+)(\.[0-9]+)?$")


@pytest.mark.parametrize("name", NAMES)
def test_an_example_written_with_names_replays_as_with_codes(name: str) -> None:
    log = load(name)
    renamed = named(log)
    assert renamed != log
    assert replay_json(renamed) == replay_json(log)
    assert parse_log(renamed).steps == parse_log(log).steps


def test_the_forms() -> None:
    log = load("intercept")
    log["steps"][0]["card"] = "p1.Speeder Bike Scout"
    log["steps"][0]["target"] = "p2.jedi temple guard"
    log["steps"][1]["ability"] = "p2.Rebel Troopers:intercept"
    parsed = parse_log(log)
    assert parsed.actions[0].card == "p1.DS-SPB" and parsed.actions[0].target == "p2.LS-TG"
    assert parsed.actions[1].ability == "p2.LS-RT:intercept"
    play = load("chance-dark-side-first")
    play["steps"][0]["card"] = "Second Wind"
    play["steps"][0]["target"] = "p2.X-wing"
    assert parse_log(play).actions[0].card == "LS-SEC" and parse_log(play).actions[0].target == "p2.LS-XW"


def test_a_name_several_versions_share_and_an_unknown_name() -> None:
    log = load("held-trigger-yoda")
    log["steps"][0]["target"] = "p2.Yoda"
    with pytest.raises(MalformedLog) as exc:
        parse_log(log)
    fault = exc.value.faults[0]
    assert fault.path == "/steps/0/target"
    assert "'Yoda' names several cards" in str(fault.message) and "LS-YK Yoda (K)" in str(fault.message)
    log["steps"][0]["target"] = "p2.Yoda (K)"
    assert parse_log(log).actions[0].target == "p2.LS-YK"
    log["steps"][0]["target"] = "p2.Yoda (Q)"
    with pytest.raises(MalformedLog) as exc:
        parse_log(log)
    assert "no card is named 'Yoda (Q)'" in str(exc.value.faults[0].message)


def test_a_deck_written_with_names() -> None:
    log = load("selfplay-game")
    deck = log["players"][0]["deck"]
    log["players"][0]["deck"] = [TITLES[c] for c in deck]
    parsed = parse_log(log)
    assert parsed.players[0]["deck"] == deck
    log["players"][0]["deck"][3] = "Darth Vader"
    with pytest.raises(MalformedLog) as exc:
        parse_log(log)
    assert exc.value.faults[0].path == "/players/0/deck/3"


def test_a_one_word_name_in_a_reference() -> None:
    """``p1.Devastator`` looks like a reference (``p1.DS-DEV``): the reader faults on it as a name,
    and it is read with the code; a reference to no card and no name is left for the replay."""
    log = load("intercept")
    log["steps"][0]["target"] = "p2.Snowspeeder"
    assert parse_log(log).actions[0].target == "p2.LS-SS"
    log["steps"][0]["target"] = "p2.LS-NOPE"
    assert parse_log(log).actions[0].target == "p2.LS-NOPE"
