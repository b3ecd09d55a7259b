"""One readable line for a SW TCG step (the timeline's summaries)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

_PLACES = {"character": "the Character arena", "build": "the build zone"}  # (a pilot's ``onto`` naming no unit)


def _name(cards: Any, text: str | None) -> str:
    if not text:
        return ""
    base = text.split(":", 1)[0]
    code = base.split(".")[1] if "." in base else base
    card = cards.get(code) if cards is not None else None
    return f"{card.display} ({text})" if card is not None else text


def summarize(action: Any, events: Sequence[Mapping[str, Any]], cards: Any) -> str:
    if action is None:
        return "setup"
    by = action.by
    verb = action.verb
    if verb == "attack":
        line = f"{by}: {_name(cards, action.card)} attacks {_name(cards, action.target)}"
    elif verb in ("use", "prevent", "reroll"):
        line = f"{by}: uses {_name(cards, action.ability)}"
    elif verb == "pass":
        line = f"{by}: passes"
    elif verb == "pilot":
        place = _PLACES.get(action.onto)
        line = f"{by}: moves the pilot {_name(cards, action.card)} " + (
            f"off its unit to {place}" if place else f"onto {_name(cards, action.onto)}")
    elif verb == "equip":
        line = f"{by}: equips {_name(cards, action.card)} onto {_name(cards, action.onto)}"
    elif verb == "complete":
        line = f"{by}: completes {_name(cards, action.card)}" + (
            f" on {_name(cards, action.target)}" if action.target else "")
    else:
        line = f"{by}: {verb} {_name(cards, getattr(action, 'card', ''))}"
    damage = [e for e in events if e.get("event") == "damage"]
    if damage:
        line += "; damage " + ", ".join(f"{e['counters']} to {e['target']}" for e in damage)
    gone = [e["card"] for e in events if e.get("event") == "discard"]
    if gone:
        line += "; discarded " + ", ".join(gone)
    won = [e for e in events if e.get("event") == "victory"]
    if won:
        line += f"; {won[0]['winner']} wins"
    return line
