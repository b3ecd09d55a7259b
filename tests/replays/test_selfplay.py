"""Self-play logs are complete, legal games that replay to the same hashes, here and in a fresh
process; every state round-trips through the position format."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from judge.games.destiny.cards import default_pool
from judge.games.destiny.setup import from_position
from replays.format import parse_log
from replays.replayer import replay
from replays.selfplay import play_game
from replays.service import replay_json


class _Hashes:
    def __init__(self) -> None:
        self.hashes: list[str] = []
        self.positions: list[tuple[dict, int | None, str]] = []

    def begin(self, log, setup) -> None:  # noqa: ANN001
        self.hashes.append(setup.state.state_hash())

    def visit_step(self, rec) -> None:  # noqa: ANN001
        self.hashes.append(rec.state.state_hash())
        self.positions.append((rec.state.position(), rec.state.rng_drawn, rec.state.state_hash()))

    def end(self, result) -> None:  # noqa: ANN001
        pass


def _hashes(log: dict) -> _Hashes:
    pool = default_pool()
    v = _Hashes()
    replay(parse_log(log, pool), pool, visitors=(v,))
    return v


@pytest.mark.rules("destiny.victory.all-defeated", "destiny.victory.deck-out", "destiny.round.upkeep")
def test_selfplay_game_finishes_and_replays_valid() -> None:
    game = play_game("unit-1")
    assert game.finished and game.state.winner in ("p1", "p2")
    result = replay_json(game.log)
    assert result["valid"], result["error"]
    assert result["final_state_hash"] == game.state.state_hash()
    assert result["outcome"]["winner"] == game.state.winner
    assert not result["checkpoints"]["failed"] and len(result["checkpoints"]["passed"]) >= 2


@settings(max_examples=12, deadline=None)
@given(seed=st.text(alphabet="abcdefghij0123456789", min_size=1, max_size=8),
       decks=st.sampled_from([("LEG-H", "LEG-V"), ("AW-H", "AW-V"), ("LEG-H", "AW-V"), ("AW-H", "LEG-V")]))
def test_replaying_twice_gives_the_same_hashes_and_positions_round_trip(seed: str, decks: tuple[str, str]) -> None:
    game = play_game(seed, *decks, max_steps=400)
    first, second = _hashes(game.log), _hashes(game.log)
    assert first.hashes == second.hashes
    assert len(set(first.hashes)) > len(first.hashes) // 3  # the game really moves
    pool = default_pool()
    players = [{"id": p["id"], "name": p["name"]} for p in game.log["players"]]
    checked = 0
    for position, drawn, expected in first.positions:
        if position["phase"] != "action":
            continue
        state, faults = from_position(json.loads(json.dumps(position)), players, pool)
        assert not faults, faults[:3]
        assert state is not None
        state.rng_drawn = drawn  # the rng counter travels in the log's "rng", not in the position
        assert state.position() == position
        assert state.state_hash() == expected
        checked += 1
    assert checked


def test_a_fresh_process_replays_to_the_same_final_hash(tmp_path) -> None:  # noqa: ANN001
    game = play_game("fresh-process")
    path = tmp_path / "game.json"
    path.write_text(json.dumps(game.log))
    code = ("import json,sys; from replays.service import replay_json; "
            "r = replay_json(json.load(open(sys.argv[1]))); print(r['final_state_hash'])")
    out = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True, check=True,
                         env={"PYTHONHASHSEED": "12345", "PATH": ""})
    assert out.stdout.strip() == game.state.state_hash()


def test_changing_a_logged_choice_or_seed_changes_the_game() -> None:
    game = play_game("mutate")
    log = json.loads(json.dumps(game.log))
    log["rng"]["seed"] = "another seed"
    result = replay_json(log)
    assert not result["valid"] or result["final_state_hash"] != game.state.state_hash()


# ------------------------------------------------------------------ the heuristic policy
PAIRS = [("LEG-H", "LEG-V"), ("AW-H", "AW-V"), ("LEG-H", "AW-V"), ("AW-H", "LEG-V")]
DEFEAT = ("all-defeated", "eliminated")
# what playing an event does without any effect: pay for it, set it aside, discard it
BOOKKEEPING = {"spend", "play", "limbo", "discarded", "pass", "cost-reduced", "queued", "resolving", "declined",
               "triggered", "extra-action", "decline-extra-action", "no-effect"}


def _endings(games: list) -> dict[str, int]:  # noqa: ANN001
    out: dict[str, int] = {}
    for game in games:
        key = game.state.reason if game.finished else "step-cap"
        out[key] = out.get(key, 0) + 1
    return out


def _idle_events(timeline: dict) -> int:
    """Event cards played in a game that did nothing."""
    idle = 0
    for entry in timeline["steps"][1:]:
        kinds = {e["event"] for e in entry["events"]}
        if entry["do"] == "play" and "limbo" in kinds and not kinds - BOOKKEEPING:
            idle += 1
    return idle


def test_the_heuristic_policy_ends_most_games_by_defeat_and_every_game_replays_valid() -> None:
    from replays.service import timeline_json

    games = [play_game(f"heuristic-{i}", *PAIRS[i % 4], policy="heuristic") for i in range(50)]
    endings = _endings(games)
    assert sum(endings.get(r, 0) for r in DEFEAT) > len(games) // 2, endings
    idle = 0
    for game in games:
        replayed = timeline_json(game.log)
        assert replayed["valid"], replayed["error"]
        assert replayed["steps"][-1]["state_hash"] == game.state.state_hash()
        assert replayed["outcome"]["reason"] == game.state.reason
        idle += _idle_events(replayed)
    # it plays no event card to no effect, where the random policy does
    assert idle == 0
    randomly = [play_game(f"heuristic-{i}", *PAIRS[i % 4], policy="random") for i in range(8)]
    assert sum(_idle_events(timeline_json(g.log)) for g in randomly) > 0


def test_the_heuristic_policy_is_seeded_and_the_games_own_stays_the_default() -> None:
    first = play_game("seeded", "AW-H", "LEG-V", policy="heuristic")
    assert play_game("seeded", "AW-H", "LEG-V", policy="heuristic").log == first.log
    assert play_game("seeded-2", "AW-H", "LEG-V", policy="heuristic").log["steps"] != first.log["steps"]
    # play_game without a policy is the game's own (random) one, as the golden corpus was played
    own = play_game("seeded", "AW-H", "LEG-V")
    assert own.log == play_game("seeded", "AW-H", "LEG-V", policy="random").log
    assert own.log["steps"] != first.log["steps"]


def test_an_unknown_policy_is_refused() -> None:
    from replays.selfplay import policies

    assert policies("destiny") == ("heuristic", "random")
    with pytest.raises(ValueError, match="no self-play policy 'clever'.*heuristic, random"):
        play_game("x", policy="clever")


def _table() -> tuple:
    """The position of choices-order-guardian-redeploy: Ana's Tusken Raider against Ben's Kylo Ren
    (8 damage of 11), Boba Fett and a First Order Stormtrooper."""
    from types import SimpleNamespace

    from tests.helpers import load_example

    log = load_example("choices-order-guardian-redeploy.json")
    pool = default_pool()
    state, faults = from_position(log["setup"]["position"], log["players"], pool)
    assert state is not None and not faults
    return state, SimpleNamespace(state=state, cards=pool)


def test_heuristic_decisions_hurt_the_opponent_and_help_oneself() -> None:
    from judge.games.destiny.selfplay import HeuristicPolicy
    from judge.kernel.core import Decision
    from judge.kernel.rng import Rng

    state, ctx = _table()
    bot = HeuristicPolicy(Rng("decisions"))
    everyone = ("p1.01022", "p2.01011", "p2.05019", "p2.01002")
    # damage goes to the opponent's character nearest defeat (Kylo Ren, 3 health left)
    hurt = Decision(by="p1", kind="target", options=everyone, rules=("r",), prompt="deal 2 damage to a character")
    assert bot(ctx, hurt) == "p2.01011"
    # a shield goes on one's own character
    shield = Decision(by="p1", kind="target", options=everyone, rules=("r",), prompt="give a shield to a character")
    assert bot(ctx, shield) == "p1.01022"
    # an opponent's die to remove: the one showing the most
    from judge.games.destiny.dice import parse_face

    state.players["p2"].pool["p2.05019/2"] = parse_face("1RD")
    die = Decision(by="p1", kind="die", options=("p2.05019/1", "p2.05019/2"), rules=("r",), prompt="remove a die")
    assert bot(ctx, die) == "p2.05019/1"  # 2RD
    # indirect damage taken is spread on the characters with the most health left
    split = Decision(by="p2", kind="split", options=("p2.01011", "p2.05019"), rules=("r",), count=3, multiple=True)
    assert bot(ctx, split) == {"p2.05019": 3}
    # a "may" that costs a card is declined when it is the last card of an empty deck
    may = Decision(by="p1", kind="may", options=(True, False), rules=("r",), prompt="you may discard a card to draw")
    assert bot(ctx, may) is True
    state.players["p1"].hand[:] = ["05116"]
    state.players["p1"].deck.clear()
    assert bot(ctx, may) is False
