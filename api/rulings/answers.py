"""Finished rulings' answers, kept by one API process so that reading one again costs no Redis read.

A finished ruling never changes: its record is written once (``arbiter.store.put_ruling``) and only
expires (``ARBITER_RULING_TTL``). So the bytes of its answer to ``GET /v1/rulings/{id}`` can be kept
and served again, as a cache in front of Redis would, within these bounds:

- an answer is kept no longer than its record has left to live in Redis (read with the record, in
  the same round trip), and never longer than ``max_age`` seconds (60), so a record removed from
  Redis by hand (FLUSHDB) stops being served within a minute;
- at most ``max_bytes`` (16 MiB) of answers per process, the least recently read dropped first; an
  answer larger than a sixteenth of that is not kept.

Only finished rulings are kept: a queued or running one is read from Redis every time.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable

MAX_BYTES = 16 * 1024 * 1024
MAX_AGE = 60.0


class FinishedAnswers:
    """The answers' bytes by ruling ID, each with the clock time it stops being served."""

    def __init__(self, max_bytes: int = MAX_BYTES, max_age: float = MAX_AGE,
                 clock: Callable[[], float] = time.monotonic):
        self.max_bytes = max_bytes
        self.max_age = max_age
        self.clock = clock
        self.size = 0
        self._items: OrderedDict[str, tuple[bytes, float]] = OrderedDict()
        self._lock = threading.Lock()  # gunicorn's gthread serves a process's requests in threads

    def get(self, ruling_id: str) -> bytes | None:
        with self._lock:
            item = self._items.get(ruling_id)
            if item is None:
                return None
            if self.clock() >= item[1]:
                self._drop(ruling_id)
                return None
            self._items.move_to_end(ruling_id)
            return item[0]

    def put(self, ruling_id: str, body: bytes, ttl_ms: int) -> None:
        """Keep ``body`` for at most ``ttl_ms`` milliseconds (what its record has left in Redis;
        negative: the record does not expire) and ``max_age`` seconds."""
        if len(body) > self.max_bytes // 16 or ttl_ms == 0 or ttl_ms == -2:  # -2: the record is gone
            return
        age = self.max_age if ttl_ms < 0 else min(self.max_age, ttl_ms / 1000)
        with self._lock:
            if ruling_id in self._items:
                self._drop(ruling_id)
            self._items[ruling_id] = (body, self.clock() + age)
            self.size += len(body)
            while self.size > self.max_bytes:
                self._drop(next(iter(self._items)))

    def __len__(self) -> int:
        return len(self._items)

    def _drop(self, ruling_id: str) -> None:
        body, _ = self._items.pop(ruling_id)
        self.size -= len(body)
