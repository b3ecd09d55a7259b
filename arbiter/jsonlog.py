"""The one shape every Arbiter process logs in: one JSON object per line on stderr, each with
``ts`` (UTC, milliseconds) and ``level``, then the fields of its event (HTTP requests:
api/requestlog.py; jobs: worker/joblog.py; the supervisor of ``arbiter run``: arbiter/supervise.py).
"""

from __future__ import annotations

import logging
import sys
from datetime import UTC, datetime
from typing import Any


def now() -> str:
    """The ``ts`` of a line: the current UTC time, ISO 8601 to the millisecond."""
    return datetime.now(UTC).isoformat(timespec="milliseconds")


class StderrHandler(logging.StreamHandler):  # type: ignore[type-arg]
    """Writes each message as it is to whatever ``sys.stderr`` is at the time (a test or a server may
    replace it after set-up)."""

    def __init__(self) -> None:
        super().__init__()
        self.setFormatter(logging.Formatter("%(message)s"))

    @property
    def stream(self) -> Any:
        return sys.stderr

    @stream.setter
    def stream(self, value: Any) -> None:
        pass


def to_stderr(logger: logging.Logger) -> None:
    """Send ``logger``'s lines to stderr, once however often it is called, at level INFO unless set."""
    if not any(isinstance(h, StderrHandler) for h in logger.handlers):
        logger.addHandler(StderrHandler())
    if logger.level == logging.NOTSET:
        logger.setLevel(logging.INFO)
