"""Self-play: complete games under a seeded random-but-legal policy, for any game of the registry.

The policy draws from its own ``sha256-ctr`` stream (seed ``"<seed>:policy"``); dice and
shuffles come from the log's ``rng`` (seed ``"<seed>"``), so the written log carries only the
seed, the steps and the choices the policy made, and replays to the same state hashes anywhere.

Each step is picked from the game's ``legal_actions`` (checked apart from applying), in an order
the policy draws (a verb at random, then one of its actions; passing last); the first one that also
resolves without breaking a rule is played. A card whose text the engine does not implement is
never played, so a self-play log is always fully ruled.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from itertools import zip_longest
from typing import Any

from judge.games import registry
from judge.games.inputs import NO_INPUTS
from judge.kernel.rng import Rng
from replays.format import parse_log
from replays.replayer import record, start

MAX_STEPS = 2_000


def _policy_order(legal: list[Any], rng: Rng, allow: Callable[[dict[str, Any], Any], bool] | None,
                  state: Any) -> list[Any]:
    """The order in which self-play tries the legal actions: a verb drawn at random, then one of its
    actions at random, so that a verb with many variants (rerolling any of several dice) is not
    played more often for it; each verb's first pick before any second; passing last, so that games
    progress."""
    by_verb: dict[str, list[Any]] = {}
    for action in legal:
        if allow is None or action.verb == "pass" or allow(action.to_json(), state):
            by_verb.setdefault(action.verb, []).append(action)
    passes = by_verb.pop("pass", [])
    verbs = sorted(by_verb)
    rng.shuffle(verbs)
    groups = []
    for verb in verbs:
        group = by_verb[verb]
        rng.shuffle(group)
        groups.append(group)
    out = [a for rank in zip_longest(*groups) for a in rank if a is not None]
    return out + passes


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
        cands = _policy_order(rules.legal_actions(state, cards), policy_rng, allow, state)
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
