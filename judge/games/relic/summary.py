"""One readable line per Relic step, from its action and its events."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from judge.games.relic import actions as ac


def summarize(action: ac.RelicAction | None, events: Sequence[Mapping[str, Any]]) -> str:
    """The step in plain English (what it is, then what its dice and its outcome did): "p1 uses
    p1.auspex on die d1: d1 rerolled 2 → 6 (total 12), d2 explodes from d1: 3 (total 15)"; card refs
    and player IDs are named by the reader (replays.viewer.Names.text)."""
    if action is None:
        return "setup: " + ", ".join(f"{e['player']} starts" for e in events if e.get("event") == "turn-begins")
    parts: list[str] = []
    for e in events:
        kind = e.get("event")
        if kind == "die-rolled":
            parts.append(f"{e['die']} rolls {e['result']} ({e['side']} total {e['score']})")
        elif kind == "die-exploded":
            parts.append(f"{e['die']} explodes from {e['parent']}: {e['result']} ({e['side']} total {e['score']})")
        elif kind == "die-rerolled":
            parts.append(f"{e['die']} rerolled {e['was']} \u2192 {e['result']} (total {e['score']})")
        elif kind == "die-modified":
            parts.append(f"{e['die']} {e['by']:+d} (total {e['score']})")
        elif kind == "contest-resolved":
            parts.append(f"{e['outcome']}, {e['score']} against {e['against']}")
        elif kind == "encounter-ended":
            parts.append("the Encounter phase is over")
        elif kind == "discarded":
            parts.append(f"{e['card']} discarded")
        elif kind == "game-over":
            parts.append(f"{e['winner']} wins")
    head = _head(action)
    return head + (": " + ", ".join(parts) if parts else "")


def _head(action: ac.RelicAction) -> str:
    """What the step is, in words."""
    who = action.by or "?"
    if isinstance(action, ac.Reach):
        return f"{who} reaches the scenario space"
    if isinstance(action, ac.EndPhase):
        return f"{who} ends the phase"
    if isinstance(action, ac.Battle):
        return f"{who} battles {_words(list(action.enemies))}"
    if isinstance(action, ac.Confront):
        return f"{who} takes on the Confrontation"
    if isinstance(action, ac.Test):
        return f"{who} takes a test of {action.skill}, target {action.target}"
    if isinstance(action, ac.Declare):
        return f"{who} declares the bonus of {action.card}" + (f" (bonus {action.bonus})" if action.bonus else "")
    if isinstance(action, ac.Use):
        return f"{who} uses {action.card}" + (f" on die {action.die}" if action.die else "")
    if isinstance(action, ac.Power):
        return f"{who} plays {action.card} for its power number"
    if isinstance(action, ac.Roll):
        return f"{who} rolls"
    if isinstance(action, ac.Resolve):
        return f"{who} settles the battle or test"
    if isinstance(action, ac.Discard):
        return f"{who} discards {_words(list(action.cards))}"
    if isinstance(action, ac.Buy):
        return f"{who} buys {action.card}"
    detail = {k: v for k, v in action.to_json().items() if k not in ("by", "do")}
    return f"{who} {action.verb}" + (f" ({_words(detail)})" if detail else "")


def _words(value: Any) -> str:
    """A step's fields in words (``card Auspex, die d1``), never a Python repr."""
    if isinstance(value, Mapping):
        return ", ".join(f"{k} {_words(v)}" for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return " and ".join(_words(v) for v in value) if value else "none"
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)
