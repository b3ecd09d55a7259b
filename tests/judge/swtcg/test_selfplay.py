"""SW TCG self-play: complete games between the two decks, replayed to the same hashes in a fresh
process under another hash seed; positions round-trip at every step."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from judge.games.swtcg.cards import DARK_60, LIGHT_60, default_pool
from judge.games.swtcg.game import GAME
from replays.format import parse_log
from replays.replayer import replay
from replays.selfplay import play_game
from replays.service import replay_json

ROOT = Path(__file__).resolve().parents[3]
POOL = default_pool()


def test_the_two_decks_are_sixty_cards_of_opposing_sides() -> None:
    for deck, side in ((DARK_60, "dark"), (LIGHT_60, "light")):
        assert len(deck) == 60
        cards = [POOL.cards[c] for c in deck]
        assert {c.side for c in cards} <= {side, "neutral"} and all(c.implemented for c in cards)
        for kind in ("space", "ground", "character"):
            assert sum(1 for c in cards if c.type == kind) >= 12  # base.deck (fan rules)
        assert max(deck.count(c) for c in set(deck)) <= 4


@pytest.mark.parametrize("seed", ["t1", "t2", "t3"])
def test_selfplay_plays_complete_games_that_replay_valid(seed: str) -> None:
    game = play_game(seed, "DARK-60", "LIGHT-60", game="swtcg", max_steps=1500)
    assert game.finished and game.state.winner in ("p1", "p2")
    result = replay_json(game.log)
    assert result["valid"], result["error"]
    assert result["outcome"]["rules"] == ["swtcg.base.win"]
    assert result["final_state_hash"] == game.state.state_hash()
    verbs = {s["do"] for s in game.log["steps"]}
    assert {"deploy", "build", "attack", "pass"} <= verbs


def test_a_game_replays_to_the_same_hashes_in_a_fresh_process_under_another_hash_seed(tmp_path: Path) -> None:
    game = play_game("fresh", "DARK-60", "LIGHT-60", game="swtcg", max_steps=1500)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(game.log))
    code = ("import json,sys; from replays.service import replay_json; "
            "r = replay_json(json.load(open(sys.argv[1]))); print(r['valid'], r['final_state_hash'])")
    for seed in ("0", "12345"):
        out = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True, check=True,
                             cwd=ROOT, env={**os.environ, "PYTHONHASHSEED": seed})
        assert out.stdout.split() == ["True", game.state.state_hash()]


def test_positions_round_trip_at_every_step() -> None:
    game = play_game("round-trip", "DARK-60", "LIGHT-60", game="swtcg", max_steps=1500)
    log = parse_log(game.log, POOL)
    states = []

    class Keep:
        def begin(self, log: object, setup: object) -> None:
            pass

        def visit_step(self, record: object) -> None:
            states.append(record.state.copy())  # type: ignore[attr-defined]

        def end(self, result: object) -> None:
            pass

    replay(log, POOL, visitors=(Keep(),))
    assert len(states) == len(game.log["steps"])
    for st in states:
        back, faults = GAME.from_position(st.position(), game.log["players"], POOL)
        assert faults == [] and back is not None
        back.rng_drawn = st.rng_drawn
        assert back.position() == st.position() and back.state_hash() == st.state_hash()


def test_a_game_continued_from_a_position_replays_like_the_whole_game() -> None:
    game = play_game("continue", "DARK-60", "LIGHT-60", game="swtcg", max_steps=1500)
    half = len(game.log["steps"]) // 2
    first = dict(game.log, steps=game.log["steps"][:half])
    st = replay(parse_log(first, POOL), POOL).state
    rest = {"format": "arbiter.replay/1", "game": "swtcg", "players": game.log["players"],
            "rng": {"algorithm": "sha256-ctr", "seed": game.log["rng"]["seed"], "drawn": st.rng_drawn},
            "setup": {"position": st.position()}, "steps": game.log["steps"][half:]}
    assert replay_json(rest)["final_state_hash"] == game.state.state_hash()


def test_arbiter_selfplay_plays_swtcg_games(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from arbiter.cli import main

    run = CliRunner().invoke(main, ["selfplay", "--game", "swtcg", "--seed", "cli", "--games", "2",
                                    "--out", str(tmp_path)])
    assert run.exit_code == 0, run.output
    logs = sorted(tmp_path.glob("*.json"))
    assert len(logs) == 2 and "wins (arenas)" in run.output
    for path in logs:
        result = replay_json(json.loads(path.read_text()))
        assert result["valid"] and result["outcome"]["winner"] in ("p1", "p2")
