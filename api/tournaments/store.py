"""Redis storage of tournaments: the append-only action log (also the audit log) and the
organizer token's SHA-256. The event state is recomputed from the log by the pure core
(judge.tournament) and cached per app, caught up from Redis on every access.

Keys (prefix ``arbiter:tournament:``):

- ``arbiter:tournament:{id}:log``   list of JSON envelopes ``{"seq", "at", "action"}``
- ``arbiter:tournament:{id}:token`` hex SHA-256 of the organizer token
- ``arbiter:tournaments:listed``    sorted set of the public, unarchived events (score: creation
  time in ms), and ``arbiter:tournaments:archived`` of the public archived ones: what
  ``GET /v1/tournaments`` pages through. Membership follows the state after each change of
  visibility or archive (and is re-checked against the state when listed).

Appends are atomic compare-and-set on the log length (a Lua script): an action checked against
version *n* is appended only if the log still has *n* entries; otherwise the caller catches up
and checks again, so two concurrent changes are both applied or cleanly rejected, never lost.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import redis

import judge.tournament as T

PREFIX = "arbiter:tournament:"
MAX_ATTEMPTS = 50

# KEYS[1] = log; ARGV[1] = expected length; ARGV[2] = envelope. Returns the new length or -1.
_CAS_APPEND = """
if redis.call('LLEN', KEYS[1]) ~= tonumber(ARGV[1]) then return -1 end
return redis.call('RPUSH', KEYS[1], ARGV[2])
"""
# KEYS[1] = log, KEYS[2] = token, KEYS[3] = listed set; ARGV[1] = token hash, ARGV[2] = envelope,
# ARGV[3] = creation time (ms), ARGV[4] = "1" when public. 0 if the id is taken.
_CREATE = """
if redis.call('EXISTS', KEYS[1]) == 1 or redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
redis.call('SET', KEYS[2], ARGV[1])
redis.call('RPUSH', KEYS[1], ARGV[2])
if ARGV[4] == '1' then redis.call('ZADD', KEYS[3], ARGV[3], ARGV[5]) end
return 1
"""
LISTED = "arbiter:tournaments:listed"
ARCHIVED = "arbiter:tournaments:archived"


def log_key(tid: str) -> str:
    return f"{PREFIX}{tid}:log"


def token_key(tid: str) -> str:
    return f"{PREFIX}{tid}:token"


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def token_matches(r: redis.Redis, tid: str, token: str) -> bool:
    stored = r.get(token_key(tid))
    return stored is not None and hmac.compare_digest(str(stored), hash_token(token))


def envelope(seq: int, action: T.Action) -> str:
    at = datetime.now(UTC).isoformat(timespec="milliseconds")
    return json.dumps({"seq": seq, "at": at, "action": action.to_json()}, separators=(",", ":"))


class Conflict(Exception):
    """The log kept changing under us (MAX_ATTEMPTS lost compare-and-set races)."""


@dataclass
class _Entry:
    state: T.EventState
    lock: threading.Lock = field(default_factory=threading.Lock)


class TournamentStore:
    """Per-app access to tournaments; thread-safe within a process, atomic across processes."""

    def __init__(self) -> None:
        self._cache: dict[str, _Entry] = {}
        self._guard = threading.Lock()

    def create(self, r: redis.Redis, action: T.CreateTournament) -> tuple[str, str, T.EventState]:
        """Store a new tournament; returns (id, organizer token, state). The token is returned once."""
        token = secrets.token_urlsafe(32)
        for _ in range(5):
            tid = secrets.token_hex(8)
            now_ms = int(datetime.now(UTC).timestamp() * 1000)
            public = "1" if action.config.public else "0"
            if r.eval(_CREATE, 3, log_key(tid), token_key(tid), LISTED, hash_token(token), envelope(1, action),
                      now_ms, public, tid):
                state = T.EventState()
                T.apply(state, action)
                with self._guard:
                    self._cache[tid] = _Entry(state)
                return tid, token, state
        raise Conflict("could not allocate a tournament id")

    def exists(self, r: redis.Redis, tid: str) -> bool:
        return bool(r.exists(log_key(tid)))

    def _entry(self, tid: str) -> _Entry:
        with self._guard:
            entry = self._cache.get(tid)
            if entry is None:
                entry = self._cache[tid] = _Entry(T.EventState())
            return entry

    @staticmethod
    def _catch_up(r: redis.Redis, tid: str, entry: _Entry) -> T.EventState:
        if r.llen(log_key(tid)) < entry.state.version:  # the log was lost or replaced: rebuild
            entry.state = T.EventState()
        for raw in r.lrange(log_key(tid), entry.state.version, -1):
            T.apply(entry.state, T.action_from_json(json.loads(raw)["action"]))
        return entry.state

    def read(self, r: redis.Redis, tid: str, view: Callable[[T.EventState], Any]) -> Any:
        """Call ``view`` on the up-to-date state (under the tournament's lock)."""
        entry = self._entry(tid)
        with entry.lock:
            return view(self._catch_up(r, tid, entry))

    def change(
        self,
        r: redis.Redis,
        tid: str,
        decide: Callable[[T.EventState], T.Action | None],
        after: Callable[[T.EventState, T.Action | None], Any],
    ) -> Any:
        """Decide an action on the current state, append it atomically and apply it.

        ``decide`` raises to refuse, returns None for "nothing to do" (an identical repeat) or
        the action, which must pass :func:`judge.tournament.check` (it raises
        :class:`judge.tournament.Rejected` otherwise). ``after`` renders the outcome.
        """
        entry = self._entry(tid)
        for _ in range(MAX_ATTEMPTS):
            with entry.lock:
                state = self._catch_up(r, tid, entry)
                action = decide(state)
                if action is None:
                    return after(state, None)
                bad = T.check(state, action)
                if bad:
                    raise T.Rejected(bad)
                n = state.version
                if r.eval(_CAS_APPEND, 1, log_key(tid), n, envelope(n + 1, action)) != -1:
                    T.apply(state, action)
                    if isinstance(action, T.SetVisibility | T.ArchiveEvent):
                        self.relist(r, tid, state)
                    return after(state, action)
            # another process appended first: catch up and decide again
        raise Conflict(f"tournament {tid} changed {MAX_ATTEMPTS} times while we tried")

    @staticmethod
    def created_ms(r: redis.Redis, tid: str) -> int:
        """When the event was created (ms since the epoch), from its first log entry."""
        first = r.lindex(log_key(tid), 0)
        if first is None:
            return 0
        return int(datetime.fromisoformat(json.loads(first)["at"]).timestamp() * 1000)

    def relist(self, r: redis.Redis, tid: str, state: T.EventState) -> None:
        """Put ``tid`` in the list its state says (public: listed or archived; private: none)."""
        score = self.created_ms(r, tid)
        pipe = r.pipeline()
        pipe.zrem(LISTED, tid)
        pipe.zrem(ARCHIVED, tid)
        if state.config.public:
            pipe.zadd(ARCHIVED if state.archived else LISTED, {tid: score})
        pipe.execute()

    def page(self, r: redis.Redis, archived: bool, start: int, count: int) -> tuple[list[str], int]:
        """IDs of one page of public events, newest first, and how many there are."""
        key = ARCHIVED if archived else LISTED
        return list(r.zrevrange(key, start, start + count - 1)), int(r.zcard(key))

    def delete(self, r: redis.Redis, tid: str) -> None:
        """Remove the event: its log, token and list entries (the cache entry goes too)."""
        r.delete(log_key(tid), token_key(tid))
        r.zrem(LISTED, tid)
        r.zrem(ARCHIVED, tid)
        with self._guard:
            self._cache.pop(tid, None)

    def audit(self, r: redis.Redis, tid: str) -> list[dict[str, Any]]:
        return [json.loads(raw) for raw in r.lrange(log_key(tid), 0, -1)]
