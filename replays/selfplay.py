"""Self-play: complete games between starter decks under a seeded random-but-legal policy.

The policy draws from its own ``sha256-ctr`` stream (seed ``"<seed>:policy"``); dice and
shuffles come from the log's ``rng`` (seed ``"<seed>"``), so the written log carries only the
seed, the steps and the choices the policy made, and replays to the same state hashes anywhere.

Legal steps are found by trying candidates on a copy of the state (checking apart from applying:
the engine's ``IllegalAction`` says no, with its rule); a card whose text the engine does not
implement is never played, so a self-play log is always fully ruled.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from judge.games.destiny.cards import default_pool
from judge.games.destiny.engine import Ctx
from judge.games.destiny.model import CardPool, CardType
from judge.games.destiny.starters import STARTERS
from judge.games.destiny.state import GameState
from judge.kernel.core import Decision
from judge.kernel.rng import ALGORITHM, Rng
from replays.format import parse_log
from replays.replayer import run_step, start

MAX_STEPS = 2_000


class RandomPolicy:
    """Answers every decision with a uniformly drawn legal-looking option."""

    def __init__(self, rng: Rng):
        self.rng = rng

    def __call__(self, ctx: Ctx, d: Decision) -> Any:
        r = self.rng
        opts = list(d.options)
        if d.kind == "order":
            r.shuffle(opts)
            return opts
        if d.kind == "may":
            return r.below(2) == 0
        if d.kind in ("split", "shields"):
            n = d.count or 0
            out: dict[str, int] = {}
            for _ in range(n):
                k = r.choice(opts)
                out[k] = out.get(k, 0) + 1
            return out
        if d.kind == "turn":
            return {}
        return r.choice(opts) if opts else None


@dataclass
class Game:
    log: dict[str, Any]
    state: GameState
    steps: int
    finished: bool


def new_log(seed: str, hero: str = "LEG-H", villain: str = "LEG-V") -> dict[str, Any]:
    return {
        "format": "arbiter.replay/1",
        "game": "destiny",
        "meta": {"format": "starter", "title": f"self-play {hero} v {villain}, seed {seed}"},
        "rng": {"algorithm": ALGORITHM, "seed": seed},
        "players": [STARTERS[hero].player("p1", "Hero bot"), STARTERS[villain].player("p2", "Villain bot")],
        "setup": {},
        "steps": [],
    }


def candidates(state: GameState, pid: str, cards: CardPool, r: Rng) -> list[dict[str, Any]]:
    """Steps worth trying for ``pid`` now (not all legal; the engine decides)."""
    p = state.players[pid]
    opps = state.opponents(pid)
    enemies = [c.ref for o in opps for c in state.players[o].alive()]
    friends = [c.ref for c in p.alive()]
    out: list[dict[str, Any]] = []
    for ref, ch in p.characters.items():
        if not ch.defeated and not ch.exhausted:
            out.append({"by": pid, "do": "activate", "card": ref})
    for ref, su in p.supports.items():
        if not su.exhausted and su.dice:
            out.append({"by": pid, "do": "activate", "card": ref})
    bases = [(d, f) for d, f in p.pool.items() if not f.modifier and not f.is_blank]
    for die, face in bases:
        entry: dict[str, Any] = {"die": die}
        if face.symbol in ("MD", "RD") and enemies:
            entry["target"] = r.choice(enemies)
        elif face.symbol == "Sh" and friends:
            entry["target"] = r.choice(friends)
        entries = [entry]
        for mod, mface in p.pool.items():
            if mface.modifier and mface.symbol == face.symbol:
                entries.append({"die": mod, "modifies": die})
        out.append({"by": pid, "do": "resolve", "dice": entries})
    if p.pool and p.hand:
        dice = [d for d in p.pool if r.below(2) == 0] or [next(iter(p.pool))]
        out.append({"by": pid, "do": "reroll", "discard": r.choice(p.hand), "dice": dice})
    for code in sorted(set(p.hand)):
        card = cards.get(code)
        if card is None or not card.implemented:
            continue
        step: dict[str, Any] = {"by": pid, "do": "play", "card": code}
        if card.type == CardType.UPGRADE:
            if not friends:
                continue
            step["on"] = r.choice(friends)
        out.append(step)
    for ref in list(p.characters) + list(p.upgrades) + list(p.supports):
        card = cards.get(ref.split(".")[1].split("#")[0])
        if card and any(a.timing in ("action", "power") for a in card.abilities):
            out.append({"by": pid, "do": "use", "card": ref})
    if state.claimed_by is None:
        out.append({"by": pid, "do": "claim"})
    return out


def play_game(seed: str, hero: str = "LEG-H", villain: str = "LEG-V", cards: CardPool | None = None,
              max_steps: int = MAX_STEPS) -> Game:
    """A complete game between two starter decks from the beginning."""
    return play(new_log(seed, hero, villain), cards, max_steps)


def play(log: dict[str, Any], cards: CardPool | None = None, max_steps: int = MAX_STEPS,
         allow: Callable[[dict[str, Any], GameState], bool] | None = None, checkpoint_every: int = 25) -> Game:
    """Continue ``log`` (which must have an ``rng``) with policy moves until the game ends or
    ``max_steps``; ``allow`` can narrow the candidate steps (benchmarks use it for long games)."""
    cards = cards or default_pool()
    seed = str(log["rng"]["seed"])
    parsed = parse_log(log, cards)
    rng = Rng(seed, parsed.rng_drawn)
    policy_rng = Rng(f"{seed}:policy")
    policy = RandomPolicy(policy_rng)
    setup = start(parsed, cards, rng, policy)
    if setup.error:
        raise RuntimeError(f"self-play setup failed: {setup.error.message}")
    if setup.written_choices:
        log["setup"]["choices"] = setup.written_choices
    if parsed.steps:
        raise ValueError("self-play continues a log's setup: give it a log without steps")
    state = setup.state
    while state.phase != "over" and len(log["steps"]) < max_steps:
        pid = state.extra_action or state.turn
        assert pid is not None
        cands = candidates(state, pid, cards, policy_rng)
        if allow is not None:
            cands = [c for c in cands if allow(c, state)]
        policy_rng.shuffle(cands)
        # passing is always legal; make it less likely so games progress
        cands.append({"by": pid, "do": "pass"})
        chosen = None
        for cand in cands:
            trial_state = state.copy()
            trial_rng = rng.copy()
            rec = run_step(trial_state, cand, len(log["steps"]) + 1, cards, trial_rng, False, policy)
            if rec.error is None:
                chosen = (cand, rec, trial_state, trial_rng)
                break
        assert chosen is not None, "passing is always legal"
        cand, rec, state, rng = chosen
        step = dict(cand)
        if rec.written_choices:
            step["choices"] = rec.written_choices
        if checkpoint_every and len(log["steps"]) % checkpoint_every == 0:
            step["expect"] = {"hash": state.state_hash()}
        log["steps"].append(step)
    if log["steps"]:
        log["steps"][-1]["expect"] = {"hash": state.state_hash()}
    return Game(log=log, state=state, steps=len(log["steps"]), finished=state.phase == "over")
