"""Plain-text renderings of the engine's JSON (replay result, ruling, timeline) for the CLI.

Pure functions from the spec's JSON shapes to lines of text; unknown keys are ignored and missing
ones shown as absent, so the text keeps working as the engine grows. The timeline is written for a
person (``timeline_lines``): players and cards by name, one line per step in words.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import i18n


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


def outcome_line(outcome: Any, t: i18n.Text | None = None) -> str:
    t = t or i18n.text()
    if not outcome:
        return t.gettext("Outcome: none (the game goes on)")
    winner = outcome.get("winner")
    who = t.gettext("{winner} wins", winner=winner) if winner else t.gettext("no winner")
    reason = f" ({outcome['reason']})" if outcome.get("reason") else ""
    return t.gettext("Outcome: {outcome}", outcome=f"{who}{reason}") + rules_of(outcome)


def words_of(value: Any) -> str:
    """A JSON value as plain words (no JSON punctuation, no Python values)."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "none"
    if isinstance(value, dict):
        return ", ".join(f"{k} {words_of(v)}" for k, v in value.items()) or "nothing"
    if isinstance(value, list):
        return ", ".join(words_of(v) for v in value) or "nothing"
    return str(value)


def step_text(step: Any) -> str:
    if not isinstance(step, dict):
        return words_of(step)
    head = f"{step.get('by', '-')} {step.get('do', '?')}"
    rest = {k: v for k, v in step.items() if k not in ("by", "do", "expect", "note", "dispute")}
    return f"{head}: {words_of(rest)}" if rest else head


def event_text(event: Any) -> str:
    if not isinstance(event, dict):
        return words_of(event)
    name = event.get("event", "?")
    fields = "; ".join(f"{k} {words_of(v)}" for k, v in event.items() if k not in ("event", "rules", "rule"))
    return f"{name} {fields}".rstrip() + rules_of(event)


def decision_text(decision: Any) -> str:
    if not isinstance(decision, dict):
        return words_of(decision)
    parts = [f"{decision.get('by', '?')} decides {decision.get('kind', '?')}"]
    if "options" in decision:
        parts.append(f"between {words_of(decision['options'])}")
    if "answer" in decision:
        parts.append(f"chose {words_of(decision['answer'])}")
    return ", ".join(parts) + rules_of(decision)


def pending_text(pending: Any) -> str:
    if not isinstance(pending, dict):
        return words_of(pending)
    who = pending.get("by") or pending.get("player") or pending.get("who") or "?"
    text = f"{who} must decide: {pending.get('kind', '?')}"
    if "options" in pending:
        text += f", between {words_of(pending['options'])}"
    if pending.get("message"):
        text += f" ({pending['message']})"
    return text + rules_of(pending)


def _count(value: Any) -> int:
    """Checkpoints are lists of step numbers (or, in older shapes, counts)."""
    return len(value) if isinstance(value, list) else int(value or 0)


def replay_lines(name: str, result: dict[str, Any], lang: str = "en") -> list[str]:
    """A replay's result (``replays.service.replay_json``) in lines, the labels in ``lang``."""
    t = i18n.text(lang)
    verdict = t.gettext("valid") if result.get("valid") else t.gettext("INVALID")
    lines = [f"{name}: {verdict}",
             t.gettext("Steps replayed: {n}", n=result.get("steps")),
             outcome_line(result.get("outcome"), t)]
    cp = result.get("checkpoints") or {}
    passed, failed = cp.get("passed") or [], cp.get("failed") or []
    line = t.gettext("Checkpoints: {passed} passed, {failed} failed", passed=_count(passed), failed=_count(failed))
    if isinstance(failed, list) and failed:
        line += " " + t.gettext("(failed at step {steps})", steps=", ".join(str(f) for f in failed))
    lines.append(line)
    err = result.get("error")
    if err:
        rule = f" [{err['rule']}]" if err.get("rule") else ""
        lines.append(t.gettext("Error at step {at}: {kind}{rule}: {message}", at=err.get("at"), kind=err.get("kind"),
                               rule=rule, message=t.words(err.get("message"))))
    for fault in result.get("faults") or []:
        lines.append(t.gettext("Fault {path}: {message}", path=fault.get("path") or "/",
                               message=t.words(fault.get("message"))))
    if result.get("final_state_hash"):
        lines.append(t.gettext("Final state hash: {hash}", hash=result["final_state_hash"]))
    return lines


def ruling_lines(ruling: dict[str, Any], words: Mapping[str, Any] | None = None, lang: str = "en") -> list[str]:
    """A ruling as a judge reads it aloud: the step, what was asked, the answer (legal, not legal
    and the rule broken, who decides now and between what), what happened, what changed on the
    table, the outcome and the rules applied with their summaries. ``words`` is
    ``replays.ruling.ruling_words``'s (card and player names); without it the ruling's own
    references are shown as they are. No JSON and no Python values in the text. The labels and
    the rule summaries are in ``lang``; ``words`` should be in the same language."""
    t = i18n.text(lang)
    w: Mapping[str, Any] = words or {}
    at = ruling.get("at")
    step = w.get("step") or (step_text(ruling.get("step")) if at else t.gettext("the setup"))
    lines = [t.gettext("Step {at}: {step}", at=at, step=step)]
    if ruling.get("question"):
        lines.append(t.gettext("Asked: {question}", question=ruling["question"]))
    lines.append(t.gettext("Answer: {answer}", answer=w.get("answer") or _plain_answer(ruling)))
    decides = w.get("decides")
    if isinstance(decides, Mapping):
        between = [str(b) for b in decides.get("between") or []]
        who = t.gettext("{who}, {what}, between {options}", who=decides.get("who"), what=decides.get("what"),
                        options=t.either(between)) if between else f"{decides.get('who')}, {decides.get('what')}"
        lines.append(t.gettext("Who decides now: {who}", who=who) + rules_of(decides))
    elif ruling.get("pending"):
        lines.append(t.gettext("Who decides now: {who}", who=pending_text(ruling["pending"])))
    events = w.get("events") if words is not None else [event_text(e) for e in ruling.get("events") or []]
    lines.append(t.gettext("What happened:") if events else t.gettext("What happened: nothing"))
    lines.extend(f"  {e}" for e in events or [])
    decisions = w.get("decisions") if words is not None else [decision_text(d) for d in ruling.get("decisions") or []]
    if decisions:
        lines.append(t.gettext("Decisions in the log:"))
        lines.extend(f"  {d}" for d in decisions)
    if words is not None:
        changed = w.get("changes") or []
        lines.append(t.gettext("What changed:") if changed else t.gettext("What changed: nothing on the table"))
        lines.extend(f"  {c}" for c in changed)
    outcome = w.get("outcome")
    lines.append(t.gettext("Outcome: {outcome}", outcome=outcome) + rules_of(ruling.get("outcome")) if outcome
                 else outcome_line(ruling.get("outcome"), t))
    cited = ruling.get("rules_cited") or []
    if cited:
        lines.append(t.gettext("Rules applied:"))
        lines.extend(f"  {rid}: {_summary(rid, t)}" for rid in cited)
    if ruling.get("state_hash"):
        lines.append(t.gettext("State hash: {hash}", hash=ruling["state_hash"]))
    return lines


def _plain_answer(ruling: Mapping[str, Any]) -> str:
    if ruling.get("legal") is None:
        err = ruling.get("error") or {}
        return (f"no ruling ({err.get('kind', 'error')}): "
                f"{ruling.get('message') or err.get('message', '')}").rstrip(": ")
    if ruling.get("legal"):
        return "legal"
    v = ruling.get("violation") or {}
    return f"not legal, breaks {v.get('rule', 'a rule')}: {v.get('message', '')}".rstrip(": ")


def _summary(rule_id: str, t: i18n.Text | None = None) -> str:
    t = t or i18n.text()
    try:
        from judge.rules.index import summary

        return summary(rule_id, t.lang)
    except (ImportError, KeyError, LookupError):
        return t.gettext("(not in the rule index)")


# ---------------------------------------------------------------------------------- the timeline
# A card's name from its code (the game's card pool), or None when the pool has no such card.
CardName = Callable[[str], "str | None"]

# a word of a summary or an event that may name a card (docs/replay-format.md, "References"):
# ``p1`` a player, ``p1.05031`` a card in play (``#2`` a copy, ``/2`` a die, ``:guardian`` an
# ability of it), ``05116`` a card in a pile
_WORD = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.#/:-]*")
_REF = re.compile(r"^(?P<card>[^#/:]+)(?:#(?P<serial>[0-9]+))?(?:/(?P<die>[0-9]+))?(?::(?P<ability>[\\w-]+))?$")


class Names:
    """Players and cards of one log by name: ``p2.05019/2`` reads "Ben's Boba Fett's die 2" (the
    owner left out when the step is their own)."""

    def __init__(self, players: Mapping[str, str], card_name: CardName | None = None) -> None:
        self.players = {pid: name or pid for pid, name in players.items()}
        self._card_name = card_name
        self._cards: dict[str, str | None] = {}

    def card(self, code: str) -> str | None:
        if code not in self._cards:
            name = None
            if self._card_name is not None:
                try:
                    name = self._card_name(code)
                except (LookupError, TypeError, ValueError, AttributeError):
                    name = None
            self._cards[code] = name
        return self._cards[code]

    def player(self, pid: Any) -> str:
        return self.players.get(pid, str(pid)) if isinstance(pid, str) else str(pid)

    def ref(self, word: str, actor: str | None = None) -> str | None:
        """``word`` in words, or None when it names no player or card the log knows."""
        if word in self.players:
            return self.players[word]
        m = _REF.match(word)
        if m is None:
            return None
        owner, _, code = m.group("card").rpartition(".")
        if owner and owner not in self.players:
            return None
        name = self.card(code)
        if name is None:
            return None
        serial = int(m.group("serial") or 1)
        text = name + (f" #{serial}" if serial > 1 else "")
        if owner and owner != actor:
            text = f"{self.players[owner]}'s {text}"
        if m.group("die"):
            text += f"'s die {m.group('die')}"
        return text

    def text(self, text: Any, actor: str | None = None) -> str:
        """Every reference in ``text`` replaced by its name."""
        return _WORD.sub(lambda m: self.ref(m.group(0), actor) or m.group(0), str(text))

    def many(self, words: Iterable[Any], actor: str | None = None) -> str:
        return ", ".join(self.text(w, actor) for w in words)


def _plural(n: Any, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def _faces(rolled: Any) -> str:
    return " ".join(str(f) for f in rolled.values()) if isinstance(rolled, dict) else ""


def event_words(event: Mapping[str, Any], names: Names, actor: str | None = None) -> str | None:
    """``_event_words``, or the event's plain form when its kind is another game's with other keys
    (a Destiny phrase would print a missing key as "None")."""
    text = _event_words(event, names, actor)
    if text is not None and "None" in text and not any(isinstance(v, str) and "None" in v for v in event.values()):
        return plain_event(event, names, actor)
    return text


def _plain_value(value: Any, names: Names, actor: str | None) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (list, tuple)):
        return ", ".join(_plain_value(v, names, actor) for v in value) if value else "nothing"
    if isinstance(value, Mapping):
        return ", ".join(f"{k} {_plain_value(v, names, actor)}" for k, v in value.items()) if value else "nothing"
    return names.text(value, actor)


def plain_event(event: Mapping[str, Any], names: Names, actor: str | None = None) -> str:
    """``kind: key value; ...`` with names, for an event without words of its own."""
    rest = "; ".join(f"{k} {_plain_value(v, names, actor)}" for k, v in event.items() if k not in ("event", "rules"))
    return f"{event.get('event')}: {rest}" if rest else str(event.get("event"))


def _event_words(event: Mapping[str, Any], names: Names, actor: str | None = None) -> str | None:
    """What an event changed, in words with names, or None for the bookkeeping a step's summary
    already says (the action itself, costs, queueing) and for kinds without words here. The kinds
    and their keys are those of docs/events.md; a kind not listed here is left out of the text
    (``--json`` has every event)."""
    kind = event.get("event")
    t = names.text
    g = event.get
    if kind == "damage":
        taken, blocked = g("taken", g("amount")), g("blocked") or 0
        if not taken and blocked:
            return f"{t(g('target'), actor)}'s shields block {blocked}"
        return f"{t(g('target'), actor)} takes {taken} damage" + (f" ({blocked} blocked)" if blocked else "")
    if kind == "defeat":
        return f"{t(g('target'), actor)} is defeated"
    if kind == "shields":
        return f"{t(g('target'), actor)} gains {_plural(g('given'), 'shield')}" if g("given") else None
    if kind == "remove-shields":
        return f"{t(g('target'), actor)} loses {_plural(g('removed'), 'shield')}" if g("removed") else None
    if kind == "heal":
        return f"{t(g('target'), actor)} heals {g('healed')}" if g("healed") else None
    if kind == "gain-resources":
        return f"{names.player(g('player'))} gains {_plural(g('amount'), 'resource')}"
    if kind == "lose-resources":
        return f"{names.player(g('player'))} loses {_plural(g('lost'), 'resource')}" if g("lost") else None
    if kind == "draw":
        return f"{names.player(g('player'))} draws {_plural(g('drawn'), 'card')}"
    if kind == "discard":
        if isinstance(g("source"), str) and g("source") in names.players:  # a cost the summary names (a reroll's)
            return None
        return f"{names.player(g('player'))} discards {t(g('card'))}"
    if kind == "reroll":
        return f"rerolled: {_faces(g('rolled'))}"
    if kind == "claim":
        return f"{t(g('battlefield'))} changes hands" if g("from") and g("from") != g("player") else None
    if kind == "claim-ability":
        return f"{t(g('card'))}: \"{g('text')}\""
    if kind == "redeploy":
        return f"{t(g('upgrade'), actor)} moves to {t(g('to'), actor)}"
    if kind in ("discard-upgrade", "discarded-from-play"):
        return f"{t(g('upgrade') or g('card'), actor)} is discarded"
    if kind == "remove-die":
        return f"{t(g('die'), actor)} is removed"
    if kind == "turn":
        return f"{t(g('die'), actor)} is turned to {g('face')}"
    if kind == "into-pool":
        return f"{t(g('die'), actor)} joins the pool showing {g('face')}"
    if kind == "move-damage":
        return f"{g('amount')} damage moves from {t(g('from'), actor)} to {t(g('to'), actor)}"
    if kind == "special":
        return f"{t(g('card'))}'s special ability"
    if kind == "extra-action":
        return f"{names.player(g('player'))} takes an extra action"
    if kind == "look-at":
        return f"{names.player(g('player'))} looks at {names.many(g('cards') or ())}"
    if kind == "reveal":
        return f"{names.player(g('player'))} reveals {t(g('card'))}"
    if kind == "mulligan":
        return f"{names.player(g('player'))} mulligans {_plural(len(g('returned') or ()), 'card')}"
    if kind == "battlefield-chosen":
        return (f"{names.player(g('by'))} chooses {t(g('battlefield'))} as the battlefield, "
                f"controlled by {names.player(g('controller'))}")
    if kind == "compensation":
        shields = g("shields") or {}
        return f"{names.player(g('player'))} places " + ", ".join(
            f"{_plural(n, 'shield')} on {t(ref, g('player'))}" for ref, n in shields.items())
    if kind == "eliminated":
        return f"{names.player(g('player'))} is eliminated ({g('why')})"
    if kind == "game-over":
        return f"{names.player(g('winner'))} wins ({g('reason')})"
    if kind == "no-effect":
        return f"{t(g('source'), actor)} has no effect ({t(g('why'), actor)})"
    if kind == "not-implemented":
        return f"{t(g('card'))}: not applied by the engine"
    if kind == "then-not-resolved":
        return f"{t(g('source'), actor)}: its 'then' part does not resolve"
    return None


# events after which the rest of a step is the end of the round (shown by the round separator),
# but for what ends a player's game or the whole game
_ROUND_END = ("action-phase-ends",)
_AT_ROUND_END = ("eliminated", "game-over")


def step_words(entry: Mapping[str, Any], names: Names, effects: bool = True) -> str:
    """One step in words: the game's summary with names, then what its events changed (unless
    ``effects`` is false)."""
    actor = entry.get("by")
    actor = actor if isinstance(actor, str) else None
    summary = entry.get("summary")
    if entry.get("at") == 0:
        head = "Setup"
        events = entry.get("events") or []
        if any(isinstance(e, dict) and e.get("event") == "position" for e in events):
            head = f"Setup from a position (round {entry.get('round')}, {entry.get('phase')} phase)"
    else:
        text = names.text(summary, actor) if summary else f"{actor or '-'} {entry.get('do', '?')}"
        if actor and text.startswith(f"{actor} "):
            text = names.player(actor) + text[len(actor):]
        head = text
    changes: list[str] = []
    round_over = False
    for event in (entry.get("events") or []) if effects else ():
        if not isinstance(event, dict):
            continue
        if event.get("event") in _ROUND_END:
            changes.append(f"round {event.get('round')} ends")
            round_over = True
        if round_over and event.get("event") not in _AT_ROUND_END:
            continue
        words = event_words(event, names, actor)
        if words and words not in changes:
            changes.append(words)
    return head + (": " + "; ".join(changes) if changes else "")


def _rule_brief(rule_id: Any) -> str:
    if not rule_id:
        return ""
    text = _summary(str(rule_id))
    return f" ({text})" if text and not text.startswith("(not in") else ""


def _player_setup(entry: Mapping[str, Any], position: Mapping[str, Any] | None, names: Names) -> str:
    """A player's characters, battlefield and deck, as the log gives them (its player entry, or
    the position it starts from)."""
    pid = entry.get("id")
    parts: list[str] = []
    chars: list[str] = []
    for ch in entry.get("characters") or []:
        code = ch.get("card") if isinstance(ch, dict) else ch
        if not isinstance(code, str):
            continue
        dice = ch.get("dice") if isinstance(ch, dict) else None
        name = names.card(code) or code
        chars.append(f"{name} ({code}" + (f", {dice} {'die' if dice == 1 else 'dice'}" if dice else "") + ")")
    seats = position.get("players") if isinstance(position, dict) else None
    seat = seats.get(pid) if isinstance(seats, dict) else None
    if isinstance(seat, dict) and isinstance(seat.get("characters"), dict):
        for ref in seat["characters"]:
            chars.append(names.text(ref, pid))
    if chars:
        parts.append(", ".join(chars))
    battlefield = entry.get("battlefield")
    if isinstance(battlefield, str):
        parts.append(f"battlefield {names.card(battlefield) or battlefield} ({battlefield})")
    plot = entry.get("plot")
    if isinstance(plot, str):
        parts.append(f"plot {names.card(plot) or plot} ({plot})")
    deck = entry.get("deck")
    if deck is None and isinstance(seat, dict):
        deck = seat.get("deck")
    if isinstance(deck, list):
        parts.append(f"deck of {_plural(len(deck), 'card')}")
    elif isinstance(deck, dict) and isinstance(deck.get("unknown"), int):
        parts.append(f"deck of {_plural(deck['unknown'], 'card')} (unknown)")
    head = f"  {pid} {names.player(pid)}" if names.player(pid) != pid else f"  {pid}"
    return head + (": " + "; ".join(parts) if parts else "")


def _battlefield_line(timeline: Mapping[str, Any], position: Mapping[str, Any] | None, names: Names) -> str | None:
    steps = timeline.get("steps") or []
    setup = steps[0] if steps and isinstance(steps[0], dict) else {}
    for event in setup.get("events") or []:
        if isinstance(event, dict) and event.get("event") == "battlefield-chosen":
            return (f"Battlefield: {names.text(event.get('battlefield'))}, controlled by "
                    f"{names.player(event.get('controller'))} (chosen by {names.player(event.get('by'))})")
    bf = (position or {}).get("battlefield") if isinstance(position, dict) else None
    if isinstance(bf, dict) and bf.get("card"):
        code = str(bf["card"])
        return (f"Battlefield: {names.card(code) or code}"
                + (f", controlled by {names.player(bf['controller'])}" if bf.get("controller") else ""))
    return None


def timeline_header(timeline: Mapping[str, Any], log: Mapping[str, Any] | None, names: Names,
                    game_name: str | None = None) -> list[str]:
    raw_meta = timeline.get("meta")
    meta: Mapping[str, Any] = raw_meta if isinstance(raw_meta, dict) else {}
    steps = [e for e in timeline.get("steps") or [] if isinstance(e, dict)]
    lines = [str(meta.get("title") or "Untitled log")]
    game = timeline.get("game")
    about = [f"Game: {game_name} ({game})" if game_name and game_name != game else f"Game: {game}"]
    if meta.get("format"):
        about.append(f"format {meta['format']}")
    about.append(_plural(max(len(steps) - 1, 0), "step"))
    about.append("valid" if timeline.get("valid") else "INVALID")
    lines.append(", ".join(about))
    if meta.get("note"):
        lines.append(f"Note: {meta['note']}")
    setup = (log or {}).get("setup") if isinstance(log, dict) else None
    position = setup.get("position") if isinstance(setup, dict) else None
    entries = [p for p in (log or {}).get("players") or [] if isinstance(p, dict)] if isinstance(log, dict) else []
    if not entries:
        entries = [p for p in timeline.get("players") or [] if isinstance(p, dict)]
    lines.append("Players:")
    lines.extend(_player_setup(p, position, names) for p in entries)
    bf = _battlefield_line(timeline, position, names)
    if bf:
        lines.append(bf)
    outcome = timeline.get("outcome")
    if isinstance(outcome, dict) and outcome:
        last = steps[-1] if steps else {}
        lines.append(f"Outcome: {names.player(outcome.get('winner')) if outcome.get('winner') else 'no one'} wins "
                     f"by {outcome.get('reason')} in round {last.get('round')}, step {last.get('at')}"
                     + rules_of(outcome))
    else:
        lines.append("Outcome: none (the game goes on)")
    err = timeline.get("error")
    if isinstance(err, dict) and err:
        rule = f" [{err['rule']}]" if err.get("rule") else ""
        lines.append(f"Stopped at step {err.get('at')}: {err.get('kind')}{rule}: {names.text(err.get('message'))}")
    return lines


def timeline_lines(timeline: dict[str, Any], log: Mapping[str, Any] | None = None,
                   card_name: CardName | None = None, game_name: str | None = None) -> list[str]:
    """The timeline as a person reads it: a header (title, game, players with their characters,
    battlefield and deck where the log gives them, the outcome with its rule), then one line per
    step in words with card names and the rule IDs applied in brackets, the rounds as separators,
    the note and the dispute (with the ruling: legal, or the rule broken) under their step.
    ``log`` is the log itself (for the players' decks); ``card_name`` names a card code."""
    steps = timeline.get("steps")
    if not isinstance(steps, list):
        return [json.dumps(timeline, indent=2, ensure_ascii=False)]
    players = {p["id"]: str(p.get("name") or "") for p in timeline.get("players") or []
               if isinstance(p, dict) and isinstance(p.get("id"), str)}
    names = Names(players, card_name)
    lines = timeline_header(timeline, log, names, game_name)
    lines.append("")
    before: tuple[Any, Any] = (None, None)  # round and phase the next step is taken in
    shown: tuple[Any, Any] = (None, None)  # the last separator's
    for i, entry in enumerate(steps):
        if not isinstance(entry, dict):
            lines.append(f"{i:>4}. {words_of(entry)}")
            continue
        at = entry.get("at", i)
        if at != 0 and before[0] is not None and before != shown:
            lines.append(_separator(*before))
            shown = before
        # a step the engine rejected changes nothing: what it did before it failed is not shown
        failed = isinstance(entry.get("error"), dict) and bool(entry["error"])
        words = step_words(entry, names, effects=not failed)
        lines.append(f"{at:>4}. {_mark(entry)}{words}{'' if failed else rules_of({'rules': entry.get('rules')})}")
        indent = " " * 6
        if entry.get("note"):
            lines.append(f"{indent}note: {entry['note']}")
        if entry.get("dispute"):
            lines.append(f"{indent}dispute: {entry['dispute']}")
            lines.append(f"{indent}ruling: {_ruling(entry, names)}")
        elif isinstance(entry.get("error"), dict):
            lines.append(f"{indent}{_ruling(entry, names)}")
        before = (entry.get("round"), entry.get("phase"))
    return lines


def worded_timeline_lines(data: Mapping[str, Any], lang: str) -> list[str]:
    """The timeline in ``lang`` from the replay viewer's data (``replays.viewer.viewer_json``, its
    words already in that language): the title, the players, the outcome, then one line per step
    (the step, what happened, the rule IDs), the rounds as separators, notes and disputes under
    their step. ``timeline_lines`` is the English one (with the games' own summaries)."""
    t = i18n.text(lang)
    players = [str(p.get("name") or p.get("id")) for p in data.get("players") or [] if isinstance(p, Mapping)]
    lines = [str(data.get("title") or t.gettext("Replay")), t.gettext("Players: {players}", players=", ".join(players))]
    outcome = data.get("outcome")
    lines.append(t.gettext("Outcome: {outcome}", outcome=outcome["text"]) if isinstance(outcome, Mapping)
                 else t.gettext("Outcome: none (the game goes on)"))
    lines.append("")
    shown: tuple[Any, Any] = (None, None)
    for step in data.get("steps") or []:
        at = step.get("at")
        here = (step.get("round"), step.get("phase"))
        if at and here != shown and here[0] is not None:
            label = t.gettext("Round {round}, {phase}", round=here[0], phase=_phase_words(here[1], t))
            lines.append(f"---- {label} " + "-" * max(4, 60 - len(label)))
            shown = here
        happened = "; ".join(e["text"] for e in step.get("events") or [])
        words = f"{step.get('summary')}: {happened}" if happened else str(step.get("summary"))
        mark = ""
        if step.get("error"):
            mark = t.gettext("REJECTED (as the log expects)") + " " if step.get("rejected_as_expected") else \
                t.gettext("ILLEGAL") + " "
        lines.append(f"{at:>4}. {mark}{words}{rules_of({'rules': step.get('rules')})}")
        if step.get("note"):
            lines.append("      " + t.gettext("note: {note}", note=step["note"]))
        if step.get("dispute"):
            lines.append("      " + t.gettext("dispute: {question}", question=step["dispute"]))
        if step.get("error"):
            lines.append("      " + str(step["error"].get("text") or ""))
    return lines


def _phase_words(phase: Any, t: i18n.Text) -> str:
    from replays.viewer import VALUE_WORDS

    return t.pgettext("value", phase) if phase in VALUE_WORDS else str(phase)


def _separator(round_: Any, phase: Any) -> str:
    label = f"Round {round_}" + (f", {phase} phase" if phase and phase != "action" else "")
    return f"---- {label} " + "-" * max(4, 60 - len(label))


def _mark(entry: Mapping[str, Any]) -> str:
    err = entry.get("error")
    if not isinstance(err, dict) or not err:
        return ""
    if entry.get("rejected_as_expected"):
        return "REJECTED (as the log expects) "
    return "ILLEGAL " if err.get("kind") == "illegal-action" else f"STOPPED ({err.get('kind')}) "


def _ruling(entry: Mapping[str, Any], names: Names) -> str:
    """The ruling on a step: legal, or the rule it breaks with that rule's summary."""
    err = entry.get("error")
    if not isinstance(err, dict) or not err:
        return "legal"
    from replays.ruling import plain_message

    actor = entry.get("by") if isinstance(entry.get("by"), str) else None
    message = plain_message(names.text(err.get("message") or "", actor))
    if err.get("kind") != "illegal-action" or not err.get("rule"):
        return f"cannot go on ({err.get('kind')}): {message}"
    return f"illegal, breaks {err['rule']}{_rule_brief(err['rule'])}: {message}"


# ---------------------------------------------------------------------------------- cards and rules
def card_line(info: Mapping[str, Any]) -> str:
    """One card on one line: code, title, type, and a mark when the engine does not apply it all."""
    mark = "" if info.get("status") != "not-implemented" else "  (not all applied by the engine)"
    return f"{info.get('code')}  {info.get('title') or info.get('name')}  [{info.get('type')}]{mark}"


def card_lines(info: Mapping[str, Any]) -> list[str]:
    """A card as a judge reads it (``Game.card_info``'s JSON): only what the card has."""
    unique = "unique " if info.get("unique") else ""
    star = "* " if info.get("unique") else ""  # the printed mark of a unique card
    lines = [f"{info.get('code')}  {star}{info.get('title') or info.get('name')}"]
    kind = " ".join(str(info[k]) for k in ("affiliation", "color") if info.get(k))
    subtypes = info.get("subtypes") or []
    lines.append(f"  {unique}{kind} {info.get('type')}".rstrip() + (f" ({', '.join(subtypes)})" if subtypes else ""))
    if info.get("points"):
        lines.append(f"  points: {'/'.join(str(p) for p in info['points'])}")
    for key in ("cost", "health"):
        if info.get(key) is not None:
            lines.append(f"  {key}: {info[key]}")
    faces = info.get("faces") or []
    if faces:
        words = info.get("face_words") or []
        lines.append(f"  die: {' '.join(faces)}" + (f"  ({'; '.join(words)})" if words else ""))
    if info.get("keywords"):
        lines.append(f"  keywords: {', '.join(info['keywords'])}")
    for text in info.get("text") or []:
        lines.append(f"  text: {text}")
    if info.get("status") == "not-implemented":
        lines.append("  status: not all applied by the engine; not applied: "
                     + str(info.get("not_applied") or "").replace("\n", " "))
    else:
        lines.append("  status: applied by the engine")
    return lines
