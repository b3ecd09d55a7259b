"""One readable line for a Destiny step (timelines and the viewer)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from judge.games.destiny import steps as st_


def summarize(action: st_.DestinyAction | None, events: Sequence[Mapping[str, Any]], cards: Any = None) -> str:
    if action is None:
        return "setup"
    by = action.by or ""
    if isinstance(action, st_.Activate):
        rolled = next((e.get("rolled") for e in events if e.get("event") == "activate"), None)
        faces = " ".join(rolled.values()) if rolled else ""
        return f"{by} activates {action.card}" + (f", rolling {faces}" if faces else "")
    if isinstance(action, st_.Resolve):
        return f"{by} resolves " + ", ".join(d.die + (f" at {d.target}" if d.target else "") for d in action.dice)
    if isinstance(action, st_.Play):
        return f"{by} plays {action.card}" + (f" on {action.on}" if action.on else "")
    if isinstance(action, st_.Reroll):
        return f"{by} discards {action.discard} to reroll {', '.join(action.dice)}"
    if isinstance(action, st_.Use):
        return f"{by} uses {action.card}"
    if isinstance(action, st_.Claim):
        return f"{by} claims the battlefield"
    if isinstance(action, st_.Pass):
        return f"{by} passes"
    if isinstance(action, st_.Upkeep):
        return "upkeep"
    return action.verb
