"""The one shape every Arbiter process logs in: one JSON object per line on stderr, each with
``ts`` (UTC, milliseconds) and ``level``, then the fields of its event (HTTP requests:
api/requestlog.py; jobs: worker/joblog.py; the supervisor of ``arbiter run``: arbiter/supervise.py).
"""

from __future__ import annotations

import logging
import sys
import time
from datetime import UTC, datetime
from typing import Any


def now() -> str:
    """The ``ts`` of a line: the current UTC time, ISO 8601 to the millisecond."""
    return datetime.now(UTC).isoformat(timespec="milliseconds")


class Stamps:
    """:func:`now` for a process that writes many lines a second (the API's request log): the text
    of the current second is kept (one second's, so bounded) and only the milliseconds are written
    for each line. The same text as ``now()`` at the same clock reading (both take the system clock
    in nanoseconds and drop what is below the millisecond)."""

    def __init__(self) -> None:
        self._second: tuple[int, str] = (-1, "")

    def now(self) -> str:
        return self.at(time.time_ns())

    def at(self, ns: int) -> str:
        """The ``ts`` of the clock reading ``ns`` (nanoseconds since the epoch)."""
        second, rest = divmod(ns, 1_000_000_000)
        kept = self._second  # (one read: another thread may replace it meanwhile)
        if kept[0] != second:
            kept = (second, datetime.fromtimestamp(second, UTC).isoformat(timespec="seconds")[:-6])
            self._second = kept
        return f"{kept[1]}.{rest // 1_000_000:03d}+00:00"


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

    def emit(self, record: logging.LogRecord) -> None:
        """The message and a newline, flushed (what StreamHandler does with this handler's formatter,
        ``%(message)s``, without formatting the record first: one line per HTTP request)."""
        try:
            stream = sys.stderr
            stream.write(record.getMessage() + "\n")
            stream.flush()
        except RecursionError:
            raise
        except Exception:
            self.handleError(record)


def write(logger: logging.Logger, level: int, line: str) -> None:
    """Log ``line`` on ``logger`` at ``level``: ``logger.log(level, line)`` without looking up the
    calling frame (no handler here writes where a line came from: the line says it), which costs
    more than the rest of a request's log line."""
    if logger.isEnabledFor(level):
        logger.handle(logger.makeRecord(logger.name, level, "(unknown file)", 0, line, (), None))


def to_stderr(logger: logging.Logger) -> None:
    """Send ``logger``'s lines to stderr, once however often it is called, at level INFO unless set."""
    if not any(isinstance(h, StderrHandler) for h in logger.handlers):
        logger.addHandler(StderrHandler())
    if logger.level == logging.NOTSET:
        logger.setLevel(logging.INFO)
