"""One readable line per Relic step, from its action and its events."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from judge.games.relic import actions as ac


def summarize(action: ac.RelicAction | None, events: Sequence[Mapping[str, Any]]) -> str:
    if action is None:
        return "setup: " + ", ".join(f"{e['player']} starts" for e in events if e.get("event") == "turn-begins")
    who = action.by or "?"
    parts: list[str] = []
    for e in events:
        kind = e.get("event")
        if kind in ("die-rolled", "die-exploded"):
            parts.append(f"{e['die']}={e['result']} ({e['side']} {e['score']})")
        elif kind == "die-rerolled":
            parts.append(f"{e['die']} {e['was']}->{e['result']} ({e['score']})")
        elif kind == "die-modified":
            parts.append(f"{e['die']} {e['by']:+d} ({e['score']})")
        elif kind == "contest-resolved":
            parts.append(f"{e['outcome']} {e['score']} vs {e['against']}")
        elif kind == "encounter-ended":
            parts.append("the Encounter phase is over")
        elif kind == "discarded":
            parts.append(f"{e['card']} discarded")
        elif kind == "game-over":
            parts.append(f"{e['winner']} wins")
    detail = {k: v for k, v in action.to_json().items() if k not in ("by", "do")}
    head = f"{who} {action.verb}" + (f" ({_words(detail)})" if detail else "")
    return head + (": " + ", ".join(parts) if parts else "")


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
