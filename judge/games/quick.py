"""A judge's quick position, shared by every game that offers one: a table set up by card names
and one question about it, read from JSON (a web form) or from a compact text (the command line),
written out as an ordinary replay log whose one step is the question. The members are listed in
``QuickPosition`` (``MEMBERS``); a game without them has no quick position.

Pure, like the rest of ``judge/``: text and JSON in, a log and faults (JSON Pointers) out.
"""

from __future__ import annotations

from typing import Any, Protocol

from i18n import N_, Msg
from judge.games.base import Faults

MEMBERS = ("quick_text", "quick_log", "quick_example")
#: optional members: ``quick_form`` (true: the web page has fields for the JSON; without it, the page
#: is the compact text alone) and ``quick_help()`` (the asked step's forms, as typed, and notes on
#: naming cards as ``i18n.Msg``, shown beside the compact text)
OPTIONAL = ("quick_form", "quick_help")


class QuickPosition(Protocol):
    def quick_text(self, text: str) -> tuple[dict[str, Any], Faults]:
        """The compact text as a quick position (JSON); faults point at ``/lines/<n>``."""
        ...

    def quick_log(self, spec: Any, cards: Any) -> tuple[dict[str, Any] | None, Faults]:
        """The replay log of a quick position (``setup.position`` and the asked step as step 1),
        or the faults found in it (JSON Pointers into ``spec``)."""
        ...

    def quick_example(self) -> str:
        """A compact text a judge can start from (the form and ``--help`` show it)."""
        ...


#: the bounds of a compact text, checked before any line is read (a request's work is bounded)
MAX_LINES = 200
MAX_TEXT = 400  # characters in a line, and in the asked step (``ask``)
FORMAT = "arbiter.replay/1"


def text_lines(text: str) -> tuple[list[tuple[str, str]], Faults]:
    """The lines of a compact text to read, each with its pointer (``/lines/<n>``, from 1), blank
    lines and ``#`` comments left out; none and the one fault when the text is out of bounds."""
    lines = text.splitlines()
    if len(lines) > MAX_LINES or any(len(line) > MAX_TEXT for line in lines):
        return [], [("/lines", Msg(N_("at most {lines} lines of at most {n} characters"), lines=MAX_LINES,
                                   n=MAX_TEXT))]
    return [(f"/lines/{n}", line) for n, raw in enumerate(lines, 1)
            if (line := raw.strip()) and not line.startswith("#")], []


def asked(spec: dict[str, Any], faults: Faults) -> str | None:
    """The quick position's ``ask`` when it is a step in words within bounds (else a fault at
    ``/ask`` when it is too long; None when missing or blank)."""
    ask = spec.get("ask")
    if isinstance(ask, str) and len(ask) > MAX_TEXT:
        faults.append(("/ask", Msg(N_("at most {n} characters"), n=MAX_TEXT)))
        return None
    return ask if isinstance(ask, str) and ask.strip() else None


def quick_replay(game: str, spec: dict[str, Any], ask: str, players: list[dict[str, Any]],
                 position: dict[str, Any], step: dict[str, Any]) -> dict[str, Any]:
    """The replay log of a quick position: ``setup.position`` and the asked ``step`` (step 1, with
    the spec's ``dispute``), titled by the spec's ``title``, its dispute or its step."""
    dispute = spec.get("dispute")
    if isinstance(dispute, str) and dispute.strip():
        step["dispute"] = dispute.strip()
    title_text = str(spec.get("title") or dispute or ask).strip()[:200]
    return {"format": FORMAT, "game": game, "meta": {"format": "sandbox", "title": title_text},
            "players": players, "setup": {"position": position}, "steps": [step]}
