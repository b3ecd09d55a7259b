"""Plain-text renderings of the engine's JSON (replay result, ruling, timeline) for the CLI.

Pure functions from the spec's JSON shapes to lines of text; unknown keys are ignored and missing
ones shown as absent, so the text keeps working as the engine grows.
"""

from __future__ import annotations

import json
from typing import Any


def compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def rules_of(item: Any) -> str:
    if not isinstance(item, dict):
        return ""
    rules = item.get("rules")
    if rules is None and item.get("rule"):
        rules = [item["rule"]]
    if isinstance(rules, str):
        rules = [rules]
    return f"  [{', '.join(str(r) for r in rules)}]" if rules else ""


def outcome_line(outcome: Any) -> str:
    if not outcome:
        return "Outcome: none (the game goes on)"
    winner = outcome.get("winner")
    who = f"{winner} wins" if winner else "no winner"
    return f"Outcome: {who} ({outcome.get('reason')}){rules_of(outcome)}"


def step_text(step: Any) -> str:
    if not isinstance(step, dict):
        return compact(step)
    head = f"{step.get('by', '-')} {step.get('do', '?')}"
    rest = {k: v for k, v in step.items() if k not in ("by", "do", "expect", "note", "dispute")}
    return f"{head} {compact(rest)}" if rest else head


def event_text(event: Any) -> str:
    if not isinstance(event, dict):
        return compact(event)
    name = event.get("event", "?")
    fields = " ".join(f"{k}={compact(v) if isinstance(v, dict | list) else v}"
                      for k, v in event.items() if k not in ("event", "rules", "rule"))
    return f"{name} {fields}".rstrip() + rules_of(event)


def decision_text(decision: Any) -> str:
    if not isinstance(decision, dict):
        return compact(decision)
    parts = [f"{decision.get('by', '?')} decides {decision.get('kind', '?')}"]
    if "options" in decision:
        parts.append(f"options {compact(decision['options'])}")
    if "answer" in decision:
        parts.append(f"answer {compact(decision['answer'])}")
    return ", ".join(parts) + rules_of(decision)


def pending_text(pending: Any) -> str:
    if not isinstance(pending, dict):
        return compact(pending)
    who = pending.get("by") or pending.get("player") or pending.get("who") or "?"
    text = f"{who} must decide: {pending.get('kind', '?')}"
    if "options" in pending:
        text += f"; options {compact(pending['options'])}"
    if pending.get("message"):
        text += f" ({pending['message']})"
    return text + rules_of(pending)


def _count(value: Any) -> int:
    """Checkpoints are lists of step numbers (or, in older shapes, counts)."""
    return len(value) if isinstance(value, list) else int(value or 0)


def replay_lines(name: str, result: dict[str, Any]) -> list[str]:
    lines = [f"{name}: {'valid' if result.get('valid') else 'INVALID'}",
             f"Steps replayed: {result.get('steps')}",
             outcome_line(result.get("outcome"))]
    cp = result.get("checkpoints") or {}
    passed, failed = cp.get("passed") or [], cp.get("failed") or []
    line = f"Checkpoints: {_count(passed)} passed, {_count(failed)} failed"
    if isinstance(failed, list) and failed:
        line += f" (failed at step {', '.join(str(f) for f in failed)})"
    lines.append(line)
    err = result.get("error")
    if err:
        rule = f" [{err['rule']}]" if err.get("rule") else ""
        lines.append(f"Error at step {err.get('at')}: {err.get('kind')}{rule}: {err.get('message')}")
    for fault in result.get("faults") or []:
        lines.append(f"Fault {fault.get('path') or '/'}: {fault.get('message')}")
    if result.get("final_state_hash"):
        lines.append(f"Final state hash: {result['final_state_hash']}")
    return lines


def ruling_lines(ruling: dict[str, Any]) -> list[str]:
    lines = [f"Step {ruling.get('at')}: {step_text(ruling.get('step'))}"]
    if ruling.get("question"):
        lines.append(f"Question: {ruling['question']}")
    if ruling.get("legal"):
        lines.append("Legal: yes")
    elif ruling.get("legal") is None:
        err = ruling.get("error") or {}
        lines.append(f"Legal: cannot rule ({err.get('kind', 'error')}): "
                     f"{ruling.get('message') or err.get('message', '')}")
    else:
        v = ruling.get("violation") or {}
        lines.append(f"Legal: NO, breaks {v.get('rule', '?')}: {v.get('message', '')}".rstrip(": "))
    events = ruling.get("events") or []
    lines.append("Events:" if events else "Events: none")
    lines.extend(f"  {event_text(e)}" for e in events)
    decisions = ruling.get("decisions") or []
    if decisions:
        lines.append("Decisions:")
        lines.extend(f"  {decision_text(d)}" for d in decisions)
    if ruling.get("pending"):
        lines.append(f"Pending decision: {pending_text(ruling['pending'])}")
    lines.append(outcome_line(ruling.get("outcome")))
    cited = ruling.get("rules_cited") or []
    if cited:
        lines.append("Rules:")
        lines.extend(f"  {rid}: {_summary(rid)}" for rid in cited)
    if ruling.get("state_hash"):
        lines.append(f"State hash: {ruling['state_hash']}")
    return lines


def _summary(rule_id: str) -> str:
    try:
        from judge.rules.index import summary

        return summary(rule_id)
    except (ImportError, KeyError, LookupError):
        return "(not in the rule index)"


def timeline_lines(timeline: dict[str, Any]) -> list[str]:
    steps = timeline.get("steps")
    if not isinstance(steps, list):
        return [json.dumps(timeline, indent=2, ensure_ascii=False)]
    lines: list[str] = []
    for i, entry in enumerate(steps, start=1):
        if not isinstance(entry, dict):
            lines.append(f"{i:>3}. {compact(entry)}")
            continue
        at = entry.get("at", i)
        step = entry.get("step", entry)
        lines.append(f"{at:>3}. {step_text(step)}")
        if entry.get("note"):
            lines.append(f"     note: {entry['note']}")
        for event in entry.get("events") or []:
            lines.append(f"     {event_text(event)}")
        if entry.get("state_hash"):
            lines.append(f"     {entry['state_hash']}")
    return lines
