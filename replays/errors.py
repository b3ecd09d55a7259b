"""Errors raised by the replay layer.

A malformed log is reported with every fault found, each with a JSON Pointer (RFC 6901) to the
place in the log where it is, as python-chess collects ``Game.errors`` rather than stopping at the
first.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol


class _Text(Protocol):
    def gettext(self, message: str, /, **params: Any) -> str: ...


@dataclass(frozen=True)
class Fault:
    """One fault in a log: where it is (a JSON Pointer such as ``/steps/3/by``) and what is wrong.

    ``message`` is English. A fault made by :meth:`of` also keeps its ``template`` (a string marked
    for translation) and ``params``, so that a shell can word it in the reader's language
    (:meth:`text`); the others (the games' own step faults) read in English in every language."""

    path: str
    message: str
    template: str = field(default="", compare=False)
    params: Mapping[str, Any] = field(default_factory=dict, compare=False, hash=False)

    @classmethod
    def of(cls, path: str, template: str, **params: Any) -> Fault:
        return cls(path, template.format(**params), template, params)

    def text(self, t: _Text) -> str:
        """The message in ``t``'s language (``i18n.Text``)."""
        return t.gettext(self.template, **self.params) if self.template else self.message

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
