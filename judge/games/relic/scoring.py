"""Scores of a battle or a skill test, read from the state (never stored, so a reroll or a modifier
changes them at once), and the contest's view."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from judge.games.relic.cards import CHARACTERISTIC

if TYPE_CHECKING:
    from judge.games.relic.state import RelicState


def scenario_adjust(state: RelicState, kind: str) -> int:
    """A scenario's special rule that changes every battle (``enemy-score``) or every skill test
    (``difficulty``) for all players (relic.scenario.special-rules)."""
    if state.scenario is None:
        return 0
    total = 0
    for e in state.scenario.special:
        if e.kind == kind:
            total += e.value
    return total


def score(state: RelicState, side: str) -> int:
    """``side``'s score now: its counted dice, plus (the player) the characteristic, the declared
    bonuses and score effects, or (the enemy) the enemies' value and its adjustments."""
    c = state.contest
    assert c is not None and state.turn is not None
    dice = 0
    for d in c.dice:
        if d.side == side and not d.void:  # counted
            dice += d.result
    if side == "enemy":
        return dice + c.value + c.enemy_score + scenario_adjust(state, "enemy-score")
    p = state.players[state.turn]
    bonuses = 0
    for declared in c.declared:
        bonuses += int(declared["value"])
    return dice + p.characteristic(c.color) + bonuses + c.score


def target(state: RelicState) -> int:
    """A skill test's target number (its own, its adjustments, the scenario's)."""
    c = state.contest
    assert c is not None
    return c.value + c.enemy_score + scenario_adjust(state, "difficulty")


def against(state: RelicState) -> int:
    c = state.contest
    assert c is not None
    return score(state, "enemy") if c.kind == "battle" else target(state)


def contest_view(state: RelicState) -> dict[str, Any]:
    c = state.contest
    assert c is not None
    out = c.to_json()
    out["characteristic"] = CHARACTERISTIC[c.color]
    if c.enemies:
        out["enemies"] = []
        for code in c.enemies:
            card = state.card(code)
            entry: dict[str, Any] = {"code": code, "name": card.name if card else code}
            if card is not None and card.battle is not None:
                entry.update(color=card.battle[0], value=card.battle[1])
            out["enemies"].append(entry)
    out["dice"] = [{**d.to_json(), "base": d.base, "result": d.result, "exploded": d.explodes} for d in c.dice]
    out["player_score"] = score(state, "player")
    out["against"] = against(state)
    return out
