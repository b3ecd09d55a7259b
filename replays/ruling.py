"""Rulings (docs/replay-format.md section 6): what the rules say about one step of a log, and
(``ruling_words``) the same ruling in the words a judge reads aloud."""

from __future__ import annotations

import re
from typing import Any

from i18n import N_, Text, text
from judge.rules import index
from replays.errors import StepOutOfRange
from replays.format import Log
from replays.replayer import ReplayResult, StepRecord, replay

# a summary's "NAME (REF)" whose reference words as the same name ("TIE Bomber (TIE Bomber)"): the
# name once (where the reference words as another text, both stay: "Luke Skywalker (p1.05031)"); a
# name starts with a letter at a word's start, so a number and its total ("d1 2->6 (6)") stay
_ECHO = re.compile(r"\b(?P<name>[^\W\d_][^,;:()]*?) \((?P=name)\)")


class _Collector:
    def __init__(self, at: int):
        self.at = at
        self.record: StepRecord | None = None
        self.setup: StepRecord | None = None
        self.before: dict[str, Any] | None = None  # the state view before step ``at``

    def begin(self, log: Log, setup: StepRecord) -> None:
        self.setup = setup
        if self.at == 1:
            self.before = setup.state.view()

    def visit_step(self, record: StepRecord) -> None:
        if record.at == self.at:
            self.record = record
        elif record.at == self.at - 1:
            self.before = record.state.view()

    def end(self, result: ReplayResult) -> None:
        pass


def rule(log: Log, cards: Any, at: int | None = None) -> dict[str, Any]:
    """The ruling on step ``at`` (1-based; default: the step marked ``dispute``, else the last;
    0 is the setup)."""
    return _rule(log, cards, at)[0]


def _rule(log: Log, cards: Any, at: int | None) -> tuple[dict[str, Any], _Collector]:
    if at is None:
        at = log.dispute_step() or len(log.steps)
    if at < 0 or at > len(log.steps) or (at == 0 and log.from_position):
        raise StepOutOfRange(at, len(log.steps))
    collector = _Collector(at)
    result = replay(log, cards, visitors=(collector,), stop_after=at)
    rec = collector.setup if at == 0 else collector.record
    out: dict[str, Any] = {
        "at": at,
        "step": log.steps[at - 1] if at else {"do": "setup"},
        "legal": None,
        "violation": None,
        "events": [],
        "decisions": [],
        "pending": None,
        "outcome": None,
        "state": None,
        "state_hash": None,
    }
    if at and log.steps[at - 1].get("dispute"):
        out["question"] = log.steps[at - 1]["dispute"]
    if rec is None:
        err = result.error
        out["error"] = err.to_json() if err else None
        where = f"step {err.at}" if err and err.at else "the setup"
        out["message"] = (f"the log cannot be replayed to step {at}: {where} fails first"
                          + (f" ({err.kind}: {err.message})" if err else ""))
        out["rules_cited"] = [err.rule] if err is not None and err.rule else []  # (the rule it fails on)
        if result.state is not None:
            out["state"] = result.state.view()
            out["state_hash"] = result.state.state_hash()
        return out, collector
    out["events"] = rec.events
    out["decisions"] = [d for d in rec.decisions if "answer" in d]
    err = rec.error
    if err is None:
        out["legal"] = True
    elif err.kind == "illegal-action":
        out["legal"] = False
        out["violation"] = {"rule": err.rule, "message": err.message}
    elif err.kind == "pending-decision":
        out["legal"] = True
        out["pending"] = err.pending
        out["message"] = err.message
    else:
        out["error"] = err.to_json()
    if rec.rejected_as_expected:
        out["note"] = N_("the log expects this step to be rejected; the state is the state before it")
    if at and "note" in log.steps[at - 1]:
        out["annotation"] = log.steps[at - 1]["note"]
    state = rec.state
    out["outcome"] = log.rules.outcome(state)
    out["state"] = state.view()
    out["state_hash"] = state.state_hash()
    out["rules_cited"] = _rules_cited(out)
    return out, collector


def _rules_cited(ruling: dict[str, Any]) -> list[str]:
    seen: list[str] = []
    for item in list(ruling["events"]) + list(ruling["decisions"]):
        for r in item.get("rules", []):
            if r not in seen:
                seen.append(r)
    for extra in (ruling.get("violation") or {}, ruling.get("pending") or {}):
        for r in ([extra.get("rule")] if extra.get("rule") else []) + list(extra.get("rules", [])):
            if isinstance(r, str) and r not in seen:
                seen.append(r)
    return seen


# ------------------------------------------------------------------------------ in words
def ruling_words(log: Log, cards: Any = None, at: int | None = None, lang: str = "en") -> dict[str, Any]:
    """The ruling on step ``at`` (``rule``, unchanged, under ``ruling``) and, under ``words``, what
    a judge reads aloud, in sentences with player and card names (the viewer's ``Names``):

    - ``asked``: the question the log asks about the step (its ``dispute``), or None;
    - ``step``: what the step does (the game's summary);
    - ``answer``: legal, not legal and why, who decides now and between what, or why there is no
      ruling; ``decides``: the pending decision's ``who``, ``what`` and ``between`` (or None);
    - ``rules``: each rule applied, ``{id, summary}``;
    - ``events`` and ``decisions``: what happened, one sentence each;
    - ``changes``: what differs on the table between before and after the step (only that);
    - ``outcome``: who won and how, or None.

    The words are in ``lang`` (``i18n.LANGS``; the rule summaries too); the ruling itself, every
    JSON field name and rule ID, is the same in every language (the engine's own messages in it in
    English); the words give those messages (why a step is illegal, what a decision asks) in
    ``lang`` too.
    """
    from replays.viewer import Names, changes, describe_decision, describe_event, outcome_words, step_words

    t = text(lang)

    game = log.rules
    if cards is None:
        cards = game.default_cards()
    ruling, collector = _rule(log, cards, at)
    before, after = collector.before, ruling.get("state")
    strings: set[str] = set()
    for part in (before, after, ruling.get("events"), ruling.get("decisions"), ruling.get("pending"),
                 ruling.get("step"), ruling.get("violation"), ruling.get("outcome")):
        strings.update(_strings(part))
    names = Names(log.players, game.viewer_cards(sorted(strings), cards), t)
    rec = collector.setup if ruling["at"] == 0 else collector.record
    if ruling["at"] == 0:
        step = t.gettext("the setup")
    elif t.lang != "en":  # the games' summaries are English: the step's own fields, worded
        step = step_words(ruling["step"], names)
    else:
        step = _ECHO.sub(r"\g<name>", names.text(game.summarize(rec.action, rec.events, cards) if rec is not None
                                                 else _step_plain(ruling["step"], t)))
    decides = _decides(ruling.get("pending"), names)
    rules = [{"id": r, "summary": index.summary(r, t.lang) if index.is_known(r) else ""}
             for r in ruling.get("rules_cited") or _rules_cited(ruling)]
    outcome = ruling.get("outcome")
    words = {
        "asked": ruling.get("question"),
        "step": step,
        "answer": _answer(ruling, names, decides, t),
        "decides": decides,
        "rules": rules,
        "events": [describe_event(e, names) for e in ruling.get("events") or []],
        "decisions": [describe_decision(d, names) for d in ruling.get("decisions") or []],
        "changes": changes(before, after, names) if before is not None and after is not None else [],
        "outcome": outcome_words(outcome, names) if outcome else None,
    }
    return {"ruling": ruling, "words": words}


_LIST_REPR = re.compile(r"\[((?:'[^'\[\]]*'(?:, )?)+)\]")


def plain_message(text: str) -> str:
    """An engine message as words: a list written as Python writes it (``['Ana', 'Cleo']``) becomes
    ``Ana, Cleo`` (the engine's messages are stored as they are; only the words change)."""
    return _LIST_REPR.sub(lambda m: ", ".join(re.findall(r"'([^']*)'", m.group(1))), text)


def _strings(value: Any) -> list[str]:
    out: list[str] = []
    if isinstance(value, str):
        out.append(value)
    elif isinstance(value, dict):
        for k, v in value.items():
            out.append(str(k))
            out.extend(_strings(v))
    elif isinstance(value, list):
        for v in value:
            out.extend(_strings(v))
    return out


def _step_plain(step: Any, t: Text) -> str:
    if not isinstance(step, dict):
        return t.gettext("a step")
    who = step.get("by") or t.gettext("someone")
    does = step.get("do") or t.gettext("acts")
    return f"{who} {does}"


def _decides(pending: Any, names: Any) -> dict[str, Any] | None:
    if not isinstance(pending, dict):
        return None
    options = pending.get("options")
    return {
        "who": names.name(pending.get("by")),
        "what": names.text(names.t.words(pending.get("prompt") or pending.get("kind")
                                         or names.t.gettext("a decision"))),
        "between": [names.name(o) for o in options] if isinstance(options, list) else [],
        "rules": [r for r in pending.get("rules") or [] if isinstance(r, str)],
    }


def _answer(ruling: dict[str, Any], names: Any, decides: dict[str, Any] | None, t: Text) -> str:
    legal = ruling.get("legal")
    if legal is False:
        v = ruling.get("violation") or {}
        rule_id = v.get("rule")
        why = f" {index.summary(rule_id, t.lang)}" if isinstance(rule_id, str) and index.is_known(rule_id) else ""
        message = plain_message(names.text(t.words(v.get("message"))))
        return t.gettext("Not legal: it breaks {rule}.{why} {message}", rule=rule_id, why=why, message=message).strip()
    if legal is None:
        err = ruling.get("error") or {}
        if ruling.get("message") and err:  # the log cannot be replayed to the step: where it fails first
            where = t.gettext("step {at}", at=err["at"]) if err.get("at") else t.gettext("the setup")
            why = t.gettext("the log cannot be replayed to step {at}: {where} fails first ({kind}: {message})",
                            at=ruling.get("at"), where=where, kind=err.get("kind"),
                            message=t.words(err.get("message")))
        else:
            why = t.words(ruling.get("message") or err.get("message")) or t.gettext("the log cannot be replayed")
        return t.gettext("No ruling: {why}", why=plain_message(names.text(why)))
    if decides is not None:
        if decides["between"]:
            return t.gettext("Legal so far; {who} decides now: {what}, between {options}.", who=decides["who"],
                             what=decides["what"], options=t.either(decides["between"]))
        return t.gettext("Legal so far; {who} decides now: {what}.", who=decides["who"], what=decides["what"])
    note = ruling.get("note")
    if note:
        return t.gettext("Rejected, as the log expects: {note}.", note=t.gettext(note))
    return t.gettext("Legal.")
