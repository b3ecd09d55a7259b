"""Errors raised by the replay layer.

A malformed log is reported with every fault found, each with a JSON Pointer (RFC 6901) to the
place in the log where it is, as python-chess collects ``Game.errors`` rather than stopping at the
first.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from i18n import Msg, Text


@dataclass(frozen=True)
class Fault:
    """One fault in a log: where it is (a JSON Pointer such as ``/steps/3/by``) and what is wrong.

    ``message`` reads in English; when it is an :class:`i18n.Msg` (the format's own faults, made by
    :meth:`of`, and the games' step faults) it also keeps its marked template and params, so that
    a shell can word it in the reader's language (:meth:`text`)."""

    path: str
    message: str

    @classmethod
    def of(cls, path: str, template: str, **params: Any) -> Fault:
        return cls(path, Msg(template, **params))

    def text(self, t: Text) -> str:
        """The message in ``t``'s language (``i18n.Text``)."""
        return self.message.text(t) if isinstance(self.message, Msg) else self.message

    def to_json(self) -> dict[str, str]:
        return {"path": self.path, "message": self.message}


class MalformedLog(ValueError):
    """The log is not a valid ``arbiter.replay/1`` document; ``faults`` lists every fault found."""

    def __init__(self, faults: list[Fault]):
        self.faults = faults
        first = faults[0] if faults else Fault("", "malformed log")
        more = f" (and {len(faults) - 1} more)" if len(faults) > 1 else ""
        super().__init__(f"{first.path or '/'}: {first.message}{more}")


class StepOutOfRange(ValueError):
    """A ruling was asked for a step the log does not have."""

    def __init__(self, at: object, steps: int):
        self.at = at
        self.steps = steps
        if type(at) is not int:  # a float, a string, ...: not a step number at all
            super().__init__(f"a step is named by a whole number from 1 to {steps}, not a {type(at).__name__}")
        else:
            super().__init__(f"step {at} does not exist: the log has {steps} steps (numbered from 1)")
