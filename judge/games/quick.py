"""A judge's quick position, shared by every game that offers one: a table set up by card names
and one question about it, read from JSON (a web form) or from a compact text (the command line),
written out as an ordinary replay log whose one step is the question. The members are listed in
``QuickPosition`` (``MEMBERS``); a game without them has no quick position.

Pure, like the rest of ``judge/``: text and JSON in, a log and faults (JSON Pointers) out.
"""

from __future__ import annotations

from typing import Any, Protocol

from judge.games.base import Faults

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
