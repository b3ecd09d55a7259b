"""A judge's quick position, shared by every game that offers one: a table set up by card names
and one question about it, read from JSON (a web form) or from a compact text (the command line),
written out as an ordinary replay log whose one step is the question. The members are listed in
``QuickPosition`` (``MEMBERS``); a game without them has no quick position.

Pure, like the rest of ``judge/``: text and JSON in, a log and faults (JSON Pointers) out.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator
from typing import Any, Protocol

from i18n import N_, Msg
from judge.games.base import PLAYER, Faults

MEMBERS = ("quick_text", "quick_log", "quick_example")


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


# ------------------------------------------------------------------------ shared by the games' readers
MAX_LINES = 200
MAX_TEXT = 400  # characters in a line, in an asked step


def text_lines(text: str) -> tuple[list[tuple[str, str]], Faults]:
    """The lines of a compact text to read, each with its pointer (``/lines/<n>``, from 1): blank
    lines and ``#`` comments left out; none, and one fault at ``/lines``, when the text has more
    than ``MAX_LINES`` lines or a line longer than ``MAX_TEXT`` characters (checked before any work)."""
    lines = text.splitlines()
    if len(lines) > MAX_LINES or any(len(line) > MAX_TEXT for line in lines):
        return [], [("/lines", Msg(N_("at most {lines} lines of at most {n} characters"), lines=MAX_LINES,
                                   n=MAX_TEXT))]
    return [(f"/lines/{n}", line) for n, raw in enumerate(lines, 1)
            if (line := raw.strip()) and not line.startswith("#")], []


def asked(spec: dict[str, Any], faults: Faults) -> str | None:
    """The quick position's asked step (``ask``) as written, or None: missing, or longer than
    ``MAX_TEXT`` characters (a fault at ``/ask``)."""
    ask = spec.get("ask")
    if isinstance(ask, str) and len(ask) > MAX_TEXT:
        faults.append(("/ask", Msg(N_("at most {n} characters"), n=MAX_TEXT)))
        return None
    return ask if isinstance(ask, str) and ask.strip() else None


def quick_replay(game: str, spec: dict[str, Any], seats: list[dict[str, Any]], position: dict[str, Any],
                 step: dict[str, Any]) -> dict[str, Any]:
    """The replay log of a quick position read without a fault: ``setup.position`` and the asked
    step as step 1, with the position's ``dispute`` (also the log's title, unless it has one)."""
    dispute = spec.get("dispute")
    if isinstance(dispute, str) and dispute.strip():
        step["dispute"] = dispute.strip()
    title_text = str(spec.get("title") or dispute or spec.get("ask")).strip()[:200]
    return {"format": "arbiter.replay/1", "game": game, "meta": {"format": "sandbox", "title": title_text},
            "players": seats, "setup": {"position": position}, "steps": [step]}


def seated(raw_players: list[Any], faults: Faults) -> Iterator[tuple[str, str, dict[str, Any]]]:
    """``(pointer, ID, entry)`` of each player a quick position lists with a valid ID, the first time
    it is listed; a fault at ``/players/<i>/id`` for each other entry, in turn."""
    seen: set[str] = set()
    for i, raw in enumerate(raw_players):
        where = f"/players/{i}"
        if not isinstance(raw, dict) or not isinstance(raw.get("id"), str) or not PLAYER.match(raw["id"]):
            faults.append((f"{where}/id", Msg(N_("a player ID: a letter, then letters, digits, - or _ (p1, ana)"))))
        elif raw["id"] in seen:
            faults.append((f"{where}/id", Msg(N_("player {pid} is listed twice"), pid=raw["id"])))
        else:
            seen.add(raw["id"])
            yield where, raw["id"], raw


def lazy(module: str, name: str) -> Callable[..., Any]:
    """``module``'s function ``name``, imported when first called: a game's quick position members
    (``staticmethod(lazy(...))``), whose module only a judge's question loads."""

    def call(*args: Any) -> Any:
        return getattr(importlib.import_module(module), name)(*args)

    return call


def ask_words(ask: str, ids: list[str], faults: Faults) -> tuple[str, str, str] | None:
    """The asked step's player, verb and the rest (``p1 resolve ...``), or None and a fault at
    ``/ask`` when it does not start with a player of the position."""
    words = ask.strip().split(" ", 2)
    if len(words) < 2 or words[0] not in ids:
        faults.append(("/ask", Msg(N_("the step starts with the player who takes it ({players}), then the verb"),
                                  players=", ".join(ids))))
        return None
    return words[0], words[1], (words[2] if len(words) > 2 else "").strip()
