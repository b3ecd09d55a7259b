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


#: what a step is, in words, by its verb (its fields by name; a list joined with "and")
_HEADS: dict[str, str] = {
    "reach": "{by} reaches the scenario space", "end-phase": "{by} ends the phase",
    "battle": "{by} battles {enemies}", "confront": "{by} takes on the Confrontation",
    "test": "{by} takes a test of {skill}, target {target}", "declare": "{by} declares the bonus of {card}",
    "use": "{by} uses {card}", "power": "{by} plays {card} for its power number", "roll": "{by} rolls",
    "resolve": "{by} settles the battle or test", "discard": "{by} discards {cards}", "buy": "{by} buys {card}",
}
#: what a field adds when it is set (a bonus other than the first, the die a reroll or a modifier changes)
_TAILS: dict[str, str] = {"bonus": " (bonus {bonus})", "die": " on die {die}"}


def _head(action: ac.RelicAction) -> str:
    """What the step is, in words."""
    fields = {k: _words(v) for k, v in action.to_json().items() if k != "do"}
    fields["by"] = action.by or "?"
    template = _HEADS.get(action.verb)
    if template is None:
        detail = {k: v for k, v in fields.items() if k != "by"}
        return f"{fields['by']} {action.verb}" + (f" ({_words(detail)})" if detail else "")
    tails = "".join(t for k, t in _TAILS.items() if action.to_json().get(k))
    return (template + tails).format(**fields)


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
