"""Self-play: complete games under a seeded policy, for any game of the registry.

The policy draws from its own ``sha256-ctr`` stream (seed ``"<seed>:policy"``); dice and
shuffles come from the log's ``rng`` (seed ``"<seed>"``), so the written log carries only the
seed, the steps and the choices the policy made, and replays to the same state hashes anywhere.

A policy is the game's (``Game.policy``), or one it names (``policies``: the game's policy offers
the others by name, ``named``). Each step is picked from the game's ``legal_actions`` (checked
apart from applying): a policy that ranks steps itself (``order``) gives them best first, and may
look ahead by applying a step to a copy of the state (``lookahead``: its dice drawn from a scratch
stream, ``"<seed>:lookahead:<step>"``, never from the game's); otherwise they are tried in the
order of ``_policy_order`` (a verb at random, then one of its actions; passing last). The first
one that also resolves without breaking a rule is played. A card whose text the engine does not
implement is never played, so a self-play log is always fully ruled.

``play_game`` and ``play`` use the game's own policy unless told otherwise: the golden corpus
(``tests/replays/golden.py``) and the hash ledger's self-play games were played with it, and so
they stay; ``arbiter selfplay`` asks for its default, the first name of ``policies``.
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


def policies(game: str = "destiny") -> tuple[str, ...]:
    """The names of the self-play policies ``game`` offers (its own policy's ``policies``), its
    preferred one first; empty when it offers only its own."""
    offered = getattr(registry.get(game).policy(Rng("policies")), "policies", ())
    return tuple(offered)


def policy_for(rules: Any, rng: Rng, name: str | None = None) -> Any:
    """The game's self-play policy drawing from ``rng``: its own (``name`` None), or the one it
    names ``name``; ValueError for a name it does not offer."""
    own = rules.policy(rng)
    if name is None:
        return own
    if name not in getattr(own, "policies", ()):
        offered = ", ".join(getattr(own, "policies", ())) or "none but its own"
        raise ValueError(f"{rules.name} has no self-play policy {name!r} (it offers {offered})")
    return own.named(name)


def new_log(seed: str, *sides: str, game: str = "destiny") -> dict[str, Any]:
    rules = registry.get(game)
    log: dict[str, Any] = rules.selfplay_log(seed, sides or rules.selfplay_sides()[:2])
    return log


def play_game(seed: str, hero: str = "LEG-H", villain: str = "LEG-V", cards: Any = None,
              max_steps: int = MAX_STEPS, game: str = "destiny", policy: str | None = None) -> Game:
    """A complete game between two decks (``hero``, ``villain``: the game's self-play sides),
    under the game's own policy or the one named ``policy``."""
    return play(new_log(seed, hero, villain, game=game), cards, max_steps, policy=policy)


def play(log: dict[str, Any], cards: Any = None, max_steps: int = MAX_STEPS,
         allow: Callable[[dict[str, Any], Any], bool] | None = None, checkpoint_every: int = 25,
         policy: str | None = None) -> Game:
    """Continue ``log`` (which must have an ``rng``) with policy moves until the game ends or
    ``max_steps``; ``allow`` can narrow the candidate steps (benchmarks use it for long games);
    ``policy`` names one of the game's policies (None: its own)."""
    seed = str(log["rng"]["seed"])
    parsed = parse_log(log, cards)
    rules = parsed.rules
    cards = cards if cards is not None else rules.default_cards()
    rng = Rng(seed, parsed.rng_drawn)
    policy_rng = Rng(f"{seed}:policy")
    bot = policy_for(rules, policy_rng, policy)
    ranks = getattr(bot, "order", None)
    setup = start(parsed, cards, rng, bot)
    if setup.error:
        raise RuntimeError(f"self-play setup failed: {setup.error.message}")
    if setup.written_choices:
        log["setup"]["choices"] = setup.written_choices
    if parsed.steps:
        raise ValueError("self-play continues a log's setup: give it a log without steps")
    state = setup.state
    while rules.actor(state) is not None and len(log["steps"]) < max_steps:
        legal = rules.legal_actions(state, cards)
        if ranks is None:
            cands = _policy_order(legal, policy_rng, allow, state)
        else:
            if allow is not None:
                legal = [a for a in legal if a.verb == "pass" or allow(a.to_json(), state)]
            cands = ranks(rules, state, legal, cards, _lookahead(rules, state, cards, bot,
                                                                 f"{seed}:lookahead:{len(log['steps']) + 1}"))
        chosen = None
        for action in cands:
            trial_state = state.copy()
            trial_rng = rng.copy()
            applied = rules.apply(trial_state, action, NO_INPUTS, cards, trial_rng, bot, None)
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


def _lookahead(rules: Any, state: Any, cards: Any, bot: Any, scratch: str) -> Callable[[Any], Any]:
    """A policy's look-ahead for this step: ``action`` applied to a copy of ``state`` (dice from
    a scratch stream, the same for every action tried), as ``(state after, Applied)``, or None
    when it breaks a rule."""

    def lookahead(action: Any) -> tuple[Any, Any] | None:
        after = state.copy()
        applied = rules.apply(after, action, NO_INPUTS, cards, Rng(scratch), bot, None)
        return None if applied.error is not None else (after, applied)

    return lookahead
