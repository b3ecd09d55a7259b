"""Cards named by name in a Relic log (judge.games.relic.names): the forms, the faults, and the
examples written with names replaying as written with codes."""

from __future__ import annotations

import json
from typing import Any

import pytest

from judge.games.relic.game import Relic
from replays.errors import MalformedLog
from replays.format import parse_log
from replays.service import replay_json
from tests.helpers import EXAMPLES_DIR
from tests.replays.namedlogs import with_names

POOL = Relic().default_cards()
TITLES = {code: c.name for table in (POOL.cards, POOL.characters, POOL.scenarios) for code, c in table.items()}
NAMES = sorted(p.stem for p in (EXAMPLES_DIR / "relic").glob("*.json"))


def load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((EXAMPLES_DIR / "relic" / f"{name}.json").read_text(encoding="utf-8"))
    return data


def named(log: dict[str, Any]) -> dict[str, Any]:
    if "position" in log["setup"]:
        return log
    out = with_names(log, TITLES, r"^[a-z0-9][a-z0-9-]*$",
                     r"^([A-Za-z][A-Za-z0-9_-]*)\.([a-z0-9][a-z0-9-]*)(#[0-9]+)?$")
    out["setup"] = {k: (v if k != "scenario" else TITLES.get(v, v)) for k, v in log["setup"].items()}
    return out


@pytest.mark.parametrize("name", NAMES)
def test_an_example_written_with_names_replays_as_with_codes(name: str) -> None:
    log = load(name)
    renamed = named(log)
    assert replay_json(renamed) == replay_json(log)
    assert parse_log(renamed).steps == parse_log(log).steps
    assert parse_log(renamed).players == parse_log(log).players


def test_the_forms_and_the_faults() -> None:
    log = load("six-six-two")
    log["players"][0]["character"] = "Battle Sister"
    log["players"][0]["assets"] = ["needle rifle", "Bolt Pistol"]
    log["setup"]["scenario"] = "The Mystery Beyond"
    log["steps"][2]["enemies"] = ["Plague Zombie"]
    parsed = parse_log(log)
    assert parsed.players[0]["character"] == "battle-sister"
    assert parsed.players[0]["assets"] == ["needle-rifle", "bolt-pistol"]
    assert parsed.setup["scenario"] == "the-mystery-beyond"
    assert parsed.actions[2].enemies == ("plague-zombie",)
    log["steps"][2]["enemies"] = ["Plague Zombi"]
    with pytest.raises(MalformedLog) as exc:
        parse_log(log)
    fault = exc.value.faults[0]
    assert fault.path == "/steps/2/enemies/0" and "(nearest: Plague Zombie)" in str(fault.message)


def test_a_reference_written_with_a_name() -> None:
    from judge.games.relic.names import step_codes

    step = {"by": "p1", "do": "use", "card": "p1.Needle Rifle#2"}
    coded, faults = step_codes(step, "/steps/0", ["p1", "p2"], POOL)
    assert not faults and coded["card"] == "p1.needle-rifle#2"
    coded, faults = step_codes({"by": "p1", "do": "discard", "cards": ["p1.Auspex", "p1.Servo-skull#1"]},
                               "/steps/0", ["p1", "p2"], POOL)
    assert coded["cards"] == ["p1.auspex", "p1.servo-skull#1"] and not faults


def test_a_position_written_with_names_reads_as_with_codes() -> None:
    """Every state of a battle as a position, its held cards (code and ref), discards, trophies, spent
    cards and the contest's enemies written with names: read as the same position with codes."""
    from judge.games.relic.cards import default_pool
    from tests.judge.relic.helpers import battle, run, step

    data = battle(["ork-boy", "ork-nob"], step("declare", card="p1.needle-rifle"),
                  step("roll", roll=["6", "2", "6", "1"]), step("use", card="p1.auspex", die="d1", roll=["5"]),
                  assets=("needle-rifle", "auspex"), scenario="the-mystery-beyond")
    data["steps"][2]["choices"] = [{"by": "p1", "kind": "order", "answer": ["ork-boy", "ork-nob"]}]
    result, seen = run(data)
    assert result.error is None, result.error
    pool = default_pool()
    names = {code: c.name for code, c in pool.cards.items()}
    named_any = False

    def named_ref(ref: str) -> str:
        pid, rest = ref.split(".", 1)
        code, _, copy_ = rest.partition("#")
        return f"{pid}.{names[code]}" + (f"#{copy_}" if copy_ else "")
    for rec in [seen.setup, *seen.steps]:
        assert rec is not None
        position = json.loads(json.dumps(rec.state.position()))
        log = {"format": "arbiter.replay/1", "game": "relic", "players": data["players"],
               "setup": {"position": position}, "steps": []}
        renamed = json.loads(json.dumps(log))
        pos = renamed["setup"]["position"]
        for seat in pos["players"].values():
            for key in ("assets", "hand"):
                for held in seat.get(key, []):
                    held["code"] = names[held["code"]]
                    held["ref"] = named_ref(held["ref"])
                    named_any = True
            for key in ("discard", "trophies"):
                seat[key] = [names.get(c, c) for c in seat.get(key, [])]
            seat["spent"] = [named_ref(r) for r in seat.get("spent", [])]
        if pos.get("contest"):
            pos["contest"]["enemies"] = [names[e] for e in pos["contest"]["enemies"]]
        assert parse_log(renamed).setup == parse_log(log).setup
        assert replay_json(renamed) == replay_json(log)
    assert named_any


OWN = {"plain": {"name": "Plain Cultist", "class": "Threat", "type": "Enemy", "battle": {"color": "red", "value": 1}},
       "lucky-coin": {"name": "Lucky Coin", "class": "Wargear", "type": "Equipment", "charges": 1,
                      "effect": {"kind": "reroll", "timing": "during", "window": "battle", "charge": True}}}


def test_the_steps_name_the_cards_the_log_defines_itself_by_name() -> None:
    """A card of the log's own ``setup.cards`` named by name in a step (a reference and an enemy) and
    in a checkpoint's expected state reads as the same log with codes; a near miss is a fault that
    offers the log's own card."""
    from tests.judge.relic.helpers import battle, step

    coded = battle(["plain"], step("roll", roll=["1", "1"]),
                   {**step("use", card="p1.lucky-coin", die="d1", roll=["5"]),
                    "expect": {"state": {"players": {"p1": {"spent": ["p1.lucky-coin"]}}}}},
                   cards=OWN, assets=("lucky-coin",))
    named = json.loads(json.dumps(coded))
    named["steps"][2]["enemies"] = ["Plain Cultist"]
    named["steps"][4]["card"] = "p1.Lucky Coin"
    named["steps"][4]["expect"]["state"]["players"]["p1"]["spent"] = ["p1.Lucky Coin"]
    named["players"][0]["assets"] = ["Lucky Coin"]
    assert parse_log(named).steps == parse_log(coded).steps
    assert parse_log(named).actions == parse_log(coded).actions
    assert replay_json(named) == replay_json(coded)
    out = replay_json(coded)
    assert out["error"] is None and out["valid"] and out["steps"] == 5, out
    named["steps"][4]["card"] = "p1.Lucky Coins"
    with pytest.raises(MalformedLog) as exc:
        parse_log(named)
    fault = exc.value.faults[0]
    assert fault.path == "/steps/4/card" and "Lucky Coin" in str(fault.message)


def test_a_positions_own_cards_are_named_by_name_in_the_steps() -> None:
    from judge.games.relic.names import names_pool

    setup = {"position": {"cards": OWN}}
    pool = names_pool(setup, POOL)
    assert "lucky-coin" in pool.cards and "needle-rifle" in pool.cards
    assert names_pool({"cards": OWN}, POOL).cards.keys() == pool.cards.keys()
    assert names_pool({}, POOL) is POOL and names_pool({"cards": "x"}, POOL) is POOL
