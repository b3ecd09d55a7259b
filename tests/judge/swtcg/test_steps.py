"""Reading SW TCG steps: typed actions that write themselves back, faults with JSON Pointers, and
check apart from apply (legal actions pass ``check`` and apply without breaking a rule)."""

from __future__ import annotations

import pytest

from judge.games.inputs import NO_INPUTS
from judge.games.swtcg import steps as st_
from judge.games.swtcg.cards import default_pool
from judge.games.swtcg.game import GAME
from judge.games.swtcg.steps import VERBS, parse_step
from judge.kernel.rng import Rng
from replays.errors import MalformedLog
from replays.format import parse_log
from tests.judge.swtcg.table import Table, play

POOL = default_pool()
PLAYERS = ["p1", "p2"]

GOOD = [
    {"by": "p1", "do": "deploy", "card": "DS-TIE"},
    {"by": "p1", "do": "deploy", "card": "p1.DS-TIE.2"},
    {"by": "p1", "do": "build", "card": "DS-ISD", "counters": 3},
    {"by": "p1", "do": "pilot", "card": "p1.DS-TP", "onto": "character"},
    {"by": "p2", "do": "retreat", "card": "p2.LS-XW"},
    {"by": "p1", "do": "attack", "card": "p1.DS-TIE", "target": "p2.LS-XW", "roll": ["4", "6"]},
    {"by": "p1", "do": "skip", "card": "p1.DS-TIE"},
    {"by": "p1", "do": "play", "card": "DS-VV", "target": "p1.DS-VK", "pay": 3},
    {"by": "p2", "do": "play", "card": "LS-EM", "option": 1, "target": "p2.LS-XW"},
    {"by": "p2", "do": "use", "ability": "p2.LS-RT:intercept"},
    {"by": "p2", "do": "prevent", "ability": "p2.LS-JK:deflect", "to": "p1.DS-ST"},
    {"by": "p2", "do": "reroll", "ability": "p2.LS-ANP:lucky@p2.LS-AJ", "dice": [0, 1]},
    {"by": "p2", "do": "pass"},
]


@pytest.mark.parametrize("step", GOOD)
def test_a_step_parses_to_a_typed_action_that_writes_it_back(step: dict[str, object]) -> None:
    action, faults = parse_step(step, "/steps/0", PLAYERS, POOL)
    assert faults == [] and action is not None
    plain = {k: v for k, v in step.items() if k not in ("roll",)}
    assert action.to_json() == plain
    again, _ = parse_step(action.to_json(), "/steps/0", PLAYERS, POOL)
    assert again == action


def test_actions_are_immutable_values() -> None:
    action, _ = parse_step(GOOD[11], "/steps/0", PLAYERS, POOL)
    assert isinstance(action, st_.Reroll) and action.dice == (0, 1)
    with pytest.raises(AttributeError):  # slots: nothing can be added to an action
        action.colour = "red"  # type: ignore[attr-defined]
    if st_.__file__.endswith(".so"):  # compiled, the Final attributes are read-only at run time too
        with pytest.raises(AttributeError):
            action.ability = "p2.LS-XW:lucky"  # type: ignore[misc]
    # (in pure Python the type checker holds them: `make lint` runs mypy, which refuses the assignment)
    same = st_.Reroll("p2", ability="p2.LS-ANP:lucky@p2.LS-AJ", dice=(0, 1))
    assert same == action and hash(same) == hash(action) and same is not action
    assert action != st_.Reroll("p2", ability="p2.LS-ANP:lucky@p2.LS-AJ", dice=(1,))
    assert st_.Deploy("p1", card="DS-TIE") != st_.Retreat("p1", card="DS-TIE")  # the verb counts
    assert len({st_.Pass("p1"), st_.Pass("p1"), st_.Pass("p2")}) == 2


@pytest.mark.parametrize(("step", "path"), [
    ({"by": "p3", "do": "pass"}, "/steps/4/by"),
    ({"by": "p1", "do": "atack", "card": "p1.X", "target": "p2.Y"}, "/steps/4/do"),
    ({"by": "p1", "do": "attack", "card": "p1.DS-TIE"}, "/steps/4/target"),
    ({"by": "p1", "do": "build", "card": "DS-NOPE", "counters": 1}, "/steps/4/card"),
    ({"by": "p1", "do": "build", "card": "DS-TIE", "counters": -1}, "/steps/4/counters"),
    ({"by": "p1", "do": "reroll", "ability": "p1.DS-TIE:lucky", "dice": [0, 0]}, "/steps/4/dice"),
    ({"by": "p1", "do": "use", "ability": "evade"}, "/steps/4/ability"),
    ({"by": "p1", "do": "pass", "colour": "red"}, "/steps/4/colour"),
])
def test_each_fault_names_where_it_is(step: dict[str, object], path: str) -> None:
    action, faults = parse_step(step, "/steps/4", PLAYERS, POOL)
    assert action is None and path in [p for p, _ in faults]


def test_a_malformed_log_lists_every_fault() -> None:
    log = Table().unit("p1.DS-TIE").unit("p2.LS-XW").log({"by": "p1", "do": "dance"}, {"by": "p9", "do": "pass"})
    log["setup"]["position"]["cards"]["p1.DS-TIE"]["zone"] = "ground"
    with pytest.raises(MalformedLog) as err:
        parse_log(log, POOL)
    paths = [f.path for f in err.value.faults]
    assert "/setup/position/cards/p1.DS-TIE/zone" in paths


def test_the_game_offers_every_verb() -> None:
    assert set(VERBS) == set(GAME.verbs)


def test_legal_actions_pass_check_and_apply_without_breaking_a_rule() -> None:
    t = (Table().unit("p1.DS-TIE").unit("p2.LS-XW", tapped=True).unit("p2.LS-AW", tapped=True)
         .set("p1", hand=["DS-FL", "DS-VV"]))
    result, _ = play(t.log())
    state = result.state
    legal = GAME.legal_actions(state, POOL)
    assert {a.verb for a in legal} == {"attack", "skip"}
    assert {getattr(a, "target", None) for a in legal} == {"p2.LS-XW", "p2.LS-AW", None}
    for action in legal:
        assert GAME.check(state, action, POOL) is None
        trial = state.copy()
        applied = GAME.apply(trial, action, NO_INPUTS, POOL, Rng("x"), GAME.policy(Rng("p")), None)
        assert applied.error is None
    wrong = parse_step({"by": "p2", "do": "pass"}, "", PLAYERS, POOL)[0]
    assert GAME.check(state, wrong, POOL) == ("swtcg.base.battle.order", "p1 has the unit to act now, not p2")


def test_reading_a_position_never_changes_the_log() -> None:
    import copy

    from replays.service import replay_json

    log = Table(arena=None).at(step="battle").unit("p1.DS-TIE").unit("p2.LS-XW").log()
    log["setup"]["position"]["frames"] = [{"f": "turn-end"}, {"f": "arena", "a": "space"}]
    before = copy.deepcopy(log)
    first = replay_json(log)  # reading the position runs the turn on from there: its own copy
    assert log == before and replay_json(log) == first


def test_the_state_view_has_what_a_renderer_draws() -> None:
    t = (Table().unit("p1.DS-TIE", damage=1).unit("p2.LS-XW", tapped=True)
         .unit("p2.LS-SP", zone="pilot", on="p2.LS-XW").unit("p1.DS-ISD", zone="build", built=False, counters=2)
         .set("p1", hand=["DS-FL"], force=3, build=1))
    view = play(t.log())[0].state.view()
    assert {"round", "phase", "step", "arena", "active", "turn", "wait", "acting", "may", "players", "arenas",
            "build_zone", "pilots", "pilot_cards", "chance", "attack", "roll", "damage", "later", "held", "mods",
            "winner", "reason"} <= view.keys()
    assert view["arenas"]["space"]["p1.DS-TIE"] == {"code": "DS-TIE", "tapped": False, "damage": 1}
    assert view["arenas"]["space"]["p2.LS-XW"]["pilot"] == "p2.LS-SP" and view["pilots"] == {"p2.LS-SP": "p2.LS-XW"}
    assert view["build_zone"]["p1"]["p1.DS-ISD"] == {"code": "DS-ISD", "tapped": False, "damage": 0, "built": False,
                                                     "counters": 2}
    assert view["players"]["p1"]["hand"] == 1 and view["players"]["p1"]["force"] == 3
    assert view["players"]["p1"]["build"] == 1 and view["players"]["p1"]["deck"] == 10
    assert (view["turn"], view["wait"], view["acting"]) == ("p1", "act", ["p1.DS-TIE"])
    assert "hand" in view["players"]["p2"] and isinstance(view["players"]["p2"]["hand"], int)
