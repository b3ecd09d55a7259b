"""Self-play: complete games under a seeded random-but-legal policy, for any game of the registry.

The policy draws from its own ``sha256-ctr`` stream (seed ``"<seed>:policy"``); dice and
shuffles come from the log's ``rng`` (seed ``"<seed>"``), so the written log carries only the
seed, the steps and the choices the policy made, and replays to the same state hashes anywhere.

Each step is picked from the game's ``legal_actions`` (checked apart from applying), in an order
the policy shuffles, passing last; the first one that also resolves without breaking a rule is
played. A card whose text the engine does not implement is never played, so a self-play log is
always fully ruled.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from judge.games import registry
from judge.games.inputs import NO_INPUTS
from judge.kernel.rng import Rng
from replays.format import parse_log
from replays.replayer import record, start

MAX_STEPS = 2_000


@dataclass
class Game:
    log: dict[str, Any]
    state: Any
    steps: int
    finished: bool


def new_log(seed: str, *sides: str, game: str = "destiny") -> dict[str, Any]:
    rules = registry.get(game)
    log: dict[str, Any] = rules.selfplay_log(seed, sides or rules.selfplay_sides()[:2])
    return log


def play_game(seed: str, hero: str = "LEG-H", villain: str = "LEG-V", cards: Any = None,
              max_steps: int = MAX_STEPS, game: str = "destiny") -> Game:
    """A complete game between two decks (``hero``, ``villain``: the game's self-play sides)."""
    return play(new_log(seed, hero, villain, game=game), cards, max_steps)


def play(log: dict[str, Any], cards: Any = None, max_steps: int = MAX_STEPS,
         allow: Callable[[dict[str, Any], Any], bool] | None = None, checkpoint_every: int = 25) -> Game:
    """Continue ``log`` (which must have an ``rng``) with policy moves until the game ends or
    ``max_steps``; ``allow`` can narrow the candidate steps (benchmarks use it for long games)."""
    seed = str(log["rng"]["seed"])
    parsed = parse_log(log, cards)
    rules = parsed.rules
    cards = cards if cards is not None else rules.default_cards()
    rng = Rng(seed, parsed.rng_drawn)
    policy_rng = Rng(f"{seed}:policy")
    policy = rules.policy(policy_rng)
    setup = start(parsed, cards, rng, policy)
    if setup.error:
        raise RuntimeError(f"self-play setup failed: {setup.error.message}")
    if setup.written_choices:
        log["setup"]["choices"] = setup.written_choices
    if parsed.steps:
        raise ValueError("self-play continues a log's setup: give it a log without steps")
    state = setup.state
    while rules.actor(state) is not None and len(log["steps"]) < max_steps:
        legal = rules.legal_actions(state, cards)
        passes = [a for a in legal if a.verb == "pass"]
        cands = [a for a in legal if a.verb != "pass"]
        if allow is not None:
            cands = [a for a in cands if allow(a.to_json(), state)]
        policy_rng.shuffle(cands)
        cands += passes  # passing is always legal; last, so that games progress
        chosen = None
        for action in cands:
            trial_state = state.copy()
            trial_rng = rng.copy()
            applied = rules.apply(trial_state, action, NO_INPUTS, cards, trial_rng, policy, None)
            if applied.error is None:
                chosen = (action, record(len(log["steps"]) + 1, action.to_json(), action, trial_state, applied,
                                         trial_rng), trial_state, trial_rng)
                break
        assert chosen is not None, "passing is always legal"
        action, rec, state, rng = chosen
        step = action.to_json()
        if rec.written_choices:
            step["choices"] = rec.written_choices
        if checkpoint_every and len(log["steps"]) % checkpoint_every == 0:
            step["expect"] = {"hash": state.state_hash()}
        log["steps"].append(step)
    if log["steps"]:
        log["steps"][-1]["expect"] = {"hash": state.state_hash()}
    return Game(log=log, state=state, steps=len(log["steps"]), finished=state.phase == "over")
