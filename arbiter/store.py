"""Stored replays and rulings in Redis: the one place that knows the key layout.

Keys (all values are JSON text):

- ``arbiter:replay:<id>:log``: the log as posted; ``<id>`` is :func:`replays.service.log_id`. Only a
  log found well-formed (:func:`replays.service.validate`, or the parse of its replay) is stored
  here, listed and served. A log the batch stored keeps the canonical text that ID hashes instead:
  the same JSON value, its keys sorted (a replay does not depend on the order of a log's keys: its
  ID does not either).
- ``arbiter:replay:<id>:staged``: a log the batch (``arbiter replay --queue``) read but has not
  checked, as its canonical text (``<id>`` is the SHA-256 of that text), waiting for its replay job:
  never listed nor served. The job's replay parses it, which is the check: a well-formed log moves
  to ``:log`` (listed, with its meta) in the transaction that writes its result; a malformed one is
  dropped and its faults stored as its replay error (``{"kind": "malformed", "message", "faults"}``,
  which expires like any replay error). A staged log expires after ``STAGED_TTL`` seconds when no
  job takes it (its batch stopped before queuing it; a re-run stages it again).
- ``arbiter:replay:<id>:result``: its replay result (spec section 4), written with the log when the
  request replayed it, else by the replay job (:func:`worker.jobs.replay_stored`).
- ``arbiter:replay:<id>:result:error``: why the replay job stored no result
  (``{"kind": "ceiling", "ceiling", "message"}``); it expires, so that a later request tries again.
- ``arbiter:replay:<id>:result:queued``: a short-lived claim taken by the request that queues the
  replay job, so that two API processes do not queue it twice.
- ``arbiter:replay:<id>:timeline``: its annotated timeline, computed by a worker job, as
  ``{"timeline": ...}``, or ``{"error": {"kind", "message", ...}}`` when it could not be computed
  (an error expires, so that a later request tries again).
- ``arbiter:replay:<id>:timeline:queued``: the same claim for the timeline job.
- ``arbiter:replay:<id>:viewer``: what the replay viewer draws (``replays.viewer.viewer_json``),
  computed by the timeline job beside the timeline, as ``{"viewer": ...}`` or ``{"error": ...}``;
  its text in English. ``arbiter:replay:<id>:viewer:<lang>``: the same in another of
  ``i18n.LANGS`` (pl, ru), written by the same job just before the English one.
- ``arbiter:replays``: the list of stored replays, a sorted set of IDs scored by the time each was
  first stored (ms); ``arbiter:replay:<id>:meta`` holds each one's title, game, players and steps.
- ``arbiter:replay:<id>:notes:<set id>``: a creator's annotation set, ``{"title", "annotations",
  "token", "created", "updated"}`` (``token``: the SHA-256 of its creator token, never the token);
  ``arbiter:replay:<id>:notes`` counts the sets made for the replay (at most
  ``MAX_ANNOTATION_SETS``). Annotations sit beside the log: the log, and so its ID, never changes.
- ``arbiter:ruling:<ruling id>``: a finished ruling job's record, ``{"replay", "at", "ruling"}``
  or ``{"replay", "at", "error"}``; it expires after ``ruling_ttl`` seconds.
- ``arbiter:ruling:<ruling id>:deliveries``: how many times a record was written for the ruling.

Records computed by jobs are written once (``SET NX``): a job that RQ runs twice (its worker was
presumed dead and it was re-queued, yet the first run finished too) cannot replace the answer a
client may already have read. The deliveries counter is raised in the same atomic step as the
write, so it reads 1 for every delivered ruling.

The API's ``POST /v1/replays`` and ``POST /v1/rulings``, ``arbiter run`` (loading the examples) and
the tests store logs through :func:`put_log`, which replays a log itself only when its replay work
(:func:`replay_work`) fits ``MAX_STEPS_IN_REQUEST`` (judge/limits.py). The batch stages its new logs
(:func:`stage_logs`) and leaves the check to their replay jobs (:func:`queue_staged_result`,
:func:`queue_staged_fault`), so that a log is parsed once, by the worker that replays it, not a
first time by the batch too.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import redis

from judge.limits import MAX_STEPS_IN_REQUEST
from replays.service import MalformedLog, log_id, replay_json, validate

PREFIX = "arbiter"


def log_key(replay_id: str) -> str:
    return f"{PREFIX}:replay:{replay_id}:log"


def result_key(replay_id: str) -> str:
    return f"{PREFIX}:replay:{replay_id}:result"


def replay_error_key(replay_id: str) -> str:
    return f"{PREFIX}:replay:{replay_id}:result:error"


def staged_key(replay_id: str) -> str:
    return f"{PREFIX}:replay:{replay_id}:staged"


#: seconds a staged log waits for its replay job (see the module's docstring)
STAGED_TTL = 7 * 86400


def replay_claim_key(replay_id: str) -> str:
    return f"{PREFIX}:replay:{replay_id}:result:queued"


def timeline_key(replay_id: str) -> str:
    return f"{PREFIX}:replay:{replay_id}:timeline"


def timeline_claim_key(replay_id: str) -> str:
    return f"{PREFIX}:replay:{replay_id}:timeline:queued"


def ruling_key(ruling_id: str) -> str:
    return f"{PREFIX}:ruling:{ruling_id}"


def deliveries_key(ruling_id: str) -> str:
    return f"{PREFIX}:ruling:{ruling_id}:deliveries"


def dumps(value: Any) -> str:
    """Strict JSON text: raises ``TypeError``/``ValueError`` for anything not JSON (NaN included)."""
    return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))


@dataclass(frozen=True)
class Stored:
    replay_id: str
    #: the replay result; None when the log was stored without replaying it (a job computes it)
    result: dict[str, Any] | None
    created: bool


def summary(result: dict[str, Any]) -> dict[str, Any]:
    """The short form of a replay result: everything but the final state view."""
    return {k: result.get(k) for k in ("valid", "steps", "final_state_hash", "outcome", "checkpoints",
                                       "error")}


def replay_work(log: Any) -> int:
    """The work of replaying a (validated) log, in the unit of ``MAX_STEPS_IN_REQUEST``: its steps,
    each step with a checkpoint (``expect``: a state hash and view, or an expected error's state
    copy) counting twice. On a table at every bound either costs about a millisecond."""
    steps = log.get("steps") if isinstance(log, dict) else None
    if not isinstance(steps, list):
        return 0
    return len(steps) + sum(1 for step in steps if isinstance(step, dict) and "expect" in step)


def replays_in_request(log: Any) -> bool:
    """Whether a request may replay ``log`` itself (else a worker job does): ``replay_work(log) <=
    MAX_STEPS_IN_REQUEST``, its checkpoints counted only when the answer depends on them (a log of
    at most half as many steps fits with a checkpoint on each; one of more steps does not fit)."""
    steps = log.get("steps") if isinstance(log, dict) else None
    if isinstance(steps, list):  # (its work is between len(steps) and twice that)
        if 2 * len(steps) <= MAX_STEPS_IN_REQUEST:
            return True
        if len(steps) > MAX_STEPS_IN_REQUEST:
            return False
    return replay_work(log) <= MAX_STEPS_IN_REQUEST


def put_log(r: redis.Redis, log: Any, *, replay: bool | None = None) -> Stored:
    """Validate and store a log; raises ``MalformedLog`` (nothing stored) for a bad one.

    The log is replayed here, its result stored with it in one transaction, when ``replay`` is true,
    or by default when :func:`replays_in_request`; otherwise it is stored alone (``result`` None)
    and the replay job computes its result. Storing the same log twice keeps the first copy and
    reports ``created=False`` (with the stored result, if any).
    """
    faults = validate(log)
    if faults:
        raise MalformedLog(faults)
    replay_id = log_id(log)
    existing = r.get(result_key(replay_id))
    if existing is not None and r.exists(log_key(replay_id)):
        index_log(r, replay_id, log)  # a log stored before the list existed joins it
        return Stored(replay_id, json.loads(existing), created=False)
    if replay is None:
        replay = replays_in_request(log)
    if not replay:
        created = bool(r.set(log_key(replay_id), dumps(log), nx=True))
        index_log(r, replay_id, log)
        return Stored(replay_id, None, created=created)
    result = replay_json(log)
    with r.pipeline(transaction=True) as pipe:
        pipe.set(log_key(replay_id), dumps(log), nx=True)
        pipe.set(result_key(replay_id), dumps(result))
        created, _ = pipe.execute()
    index_log(r, replay_id, log)
    return Stored(replay_id, result, created=bool(created))


def stage_logs(r: redis.Redis, logs: Sequence[tuple[str, bytes]], ttl: int = STAGED_TTL) -> None:
    """Stage each (ID, canonical text) of ``logs`` (the batch's new logs, not checked) for its replay
    job, in one round trip; staging one again sets its text and its time to live again."""
    pipe = r.pipeline(transaction=False)
    for replay_id, text in logs:
        pipe.set(staged_key(replay_id), text, ex=max(ttl, 1))
    pipe.execute()


def queue_staged_result(pipe: Any, replay_id: str, log: dict[str, Any], text: Any, result_text: str, *,
                        watched: bool = False) -> None:
    """The commands that store a staged log found well-formed (``log``, staged as ``text``) with its
    replay result (``result_text``) added to ``pipe``, a caller's transaction: the result as
    :func:`queue_result` writes it (the first reply says whether this call wrote it), then the log
    under ``:log``, listed with its meta, the staged copy gone. ``watched``: the caller watched the
    result's, the log's and the staged log's keys before it read the staged log and no log (so the
    staged key is there at EXEC, or nothing of it runs): the staged key is renamed, its text not sent
    again; else the log's text is written unless one is stored."""
    now = int(time.time() * 1000)
    queue_result(pipe, replay_id, result_text)
    if watched:
        pipe.rename(staged_key(replay_id), log_key(replay_id))
        pipe.persist(log_key(replay_id))
    else:
        pipe.set(log_key(replay_id), text, nx=True)
        pipe.delete(staged_key(replay_id))
    pipe.zadd(INDEX_KEY, {replay_id: now}, nx=True)
    pipe.set(meta_key(replay_id), dumps(replay_meta(replay_id, log, now)), nx=True)


def queue_staged_fault(pipe: Any, replay_id: str, error_text: str, ttl: int) -> None:
    """The commands that drop a staged log found malformed and store why (``error_text``: its replay
    error, kind ``malformed``, for ``ttl`` seconds; 0: for good) added to ``pipe``. The same log
    gives the same faults, so the error replaces one stored before (a stale ceiling's, another run's
    same faults) rather than being written once."""
    pipe.set(replay_error_key(replay_id), error_text, ex=ttl if ttl > 0 else None)
    pipe.delete(staged_key(replay_id))


def get_log(r: redis.Redis, replay_id: str) -> Any | None:
    raw = r.get(log_key(replay_id))
    return None if raw is None else json.loads(raw)


def has_log(r: redis.Redis, replay_id: str) -> bool:
    return bool(r.exists(log_key(replay_id)))


def get_result(r: redis.Redis, replay_id: str) -> dict[str, Any] | None:
    raw = r.get(result_key(replay_id))
    return None if raw is None else json.loads(raw)


def result_or_log_keys(replay_id: str) -> list[str]:
    """The keys :func:`get_result_or_log` reads (in one MGET), for a caller that reads them itself:
    the result's, the log's, the staged log's."""
    return [result_key(replay_id), log_key(replay_id), staged_key(replay_id)]


@dataclass(frozen=True)
class ResultOrLog:
    """What :func:`get_result_or_log` read: the stored result, else the stored log, else the staged
    log (``staged``: its text, as read; ``log`` is then its value, not checked yet). With a result,
    ``staged`` is the text of a staged copy left beside it (staged again by a batch that read the log
    as new while another run stored it), for the job to drop."""

    result: dict[str, Any] | None
    log: Any | None
    staged: bytes | None = None


def get_result_or_log(r: redis.Redis, replay_id: str) -> ResultOrLog:
    """The stored result, else the stored log, else the staged one, in one round trip."""
    return result_or_log(r.mget(result_or_log_keys(replay_id)))


def result_or_log(values: Sequence[Any]) -> ResultOrLog:
    """:func:`get_result_or_log` of the values of ``result_or_log_keys`` read by an MGET."""
    raw_result, raw_log, raw_staged = values
    if raw_result is not None:
        return ResultOrLog(json.loads(raw_result), None, raw_staged)
    if raw_log is not None:
        return ResultOrLog(None, json.loads(raw_log))
    if raw_staged is not None:
        return ResultOrLog(None, json.loads(raw_staged), raw_staged)
    return ResultOrLog(None, None)


def put_result(r: redis.Redis, replay_id: str, result: dict[str, Any]) -> bool:
    """Store a replay result unless one is stored (the replay job's); True when this call wrote it.
    A replay error left by an earlier run goes with it."""
    return put_result_text(r, replay_id, dumps(result))


def put_result_text(r: redis.Redis, replay_id: str, text: str) -> bool:
    """:func:`put_result` of the result's JSON text (``dumps``), in one round trip."""
    pipe = r.pipeline(transaction=False)
    queue_result(pipe, replay_id, text)
    written, _ = pipe.execute()
    return bool(written)


def queue_result(pipe: Any, replay_id: str, text: str) -> None:
    """:func:`put_result_text`'s commands added to ``pipe`` (a caller's transaction): the first
    replies whether it wrote the result. The error goes whether this call wrote the result or an
    earlier run did (a stored result is the answer; an error beside it would only be stale)."""
    pipe.set(result_key(replay_id), text, nx=True)
    pipe.delete(replay_error_key(replay_id))


def put_replay_error(r: redis.Redis, replay_id: str, error: dict[str, Any], ttl: int) -> bool:
    """Store why the replay job stored no result, for ``ttl`` seconds (0: for good), unless an
    error is stored already; True when this call wrote it."""
    return bool(r.set(replay_error_key(replay_id), dumps(error), nx=True, ex=ttl if ttl > 0 else None))


def get_replay_error(r: redis.Redis, replay_id: str) -> dict[str, Any] | None:
    raw = r.get(replay_error_key(replay_id))
    return None if raw is None else json.loads(raw)


def claim_replay_job(r: redis.Redis, replay_id: str, seconds: int) -> bool:
    """True for the one caller (among concurrent ones) that should queue the replay job now."""
    return claim_replay_jobs(r, [replay_id], seconds)[0]


def claim_replay_jobs(r: redis.Redis, replay_ids: Sequence[str], seconds: int) -> list[bool]:
    """``claim_replay_job`` for each of ``replay_ids``, in one round trip."""
    pipe = r.pipeline(transaction=False)
    for replay_id in replay_ids:
        pipe.set(replay_claim_key(replay_id), "1", nx=True, ex=max(seconds, 1))
    return [bool(claimed) for claimed in pipe.execute()]


def logs_known(r: redis.Redis, replay_ids: Sequence[str]) -> list[tuple[bool, bool, bool]]:
    """For each of ``replay_ids``: whether its log is stored (``has_log``), whether its result is
    (``get_result`` is not None), and whether its replay error says it is malformed (a staged log
    its job dropped: its faults are its answer until the error expires), in one round trip."""
    pipe = r.pipeline(transaction=False)
    for replay_id in replay_ids:
        pipe.exists(log_key(replay_id))
        pipe.exists(result_key(replay_id))
        pipe.get(replay_error_key(replay_id))
    flags = pipe.execute()
    return [(bool(flags[3 * k]), bool(flags[3 * k + 1]),
             flags[3 * k + 2] is not None and json.loads(flags[3 * k + 2]).get("kind") == "malformed")
            for k in range(len(replay_ids))]


# KEYS: record, counter; ARGV: JSON text, ttl (seconds, 0: none). 1 when written, 0 when one was there.
_WRITE_ONCE = """
local ttl = tonumber(ARGV[2])
local written
if ttl > 0 then
  written = redis.call('SET', KEYS[1], ARGV[1], 'NX', 'EX', ttl)
else
  written = redis.call('SET', KEYS[1], ARGV[1], 'NX')
end
if not written then
  return 0
end
redis.call('INCR', KEYS[2])
if ttl > 0 then
  redis.call('EXPIRE', KEYS[2], ttl)
end
return 1
"""


def put_ruling(r: redis.Redis, ruling_id: str, record: dict[str, Any], ttl: int) -> bool:
    """Store a ruling's record unless one is stored already; True when this call wrote it."""
    written = r.eval(_WRITE_ONCE, 2, ruling_key(ruling_id), deliveries_key(ruling_id), dumps(record),
                     max(ttl, 0))
    return bool(written)


def deliveries(r: redis.Redis, ruling_id: str) -> int:
    """How many times a record was written for ``ruling_id`` (1 once delivered, 0 before)."""
    raw = r.get(deliveries_key(ruling_id))
    return int(raw) if raw is not None else 0


def get_ruling(r: redis.Redis, ruling_id: str) -> dict[str, Any] | None:
    raw = r.get(ruling_key(ruling_id))
    return None if raw is None else json.loads(raw)


def get_ruling_ttl(r: redis.Redis, ruling_id: str) -> tuple[dict[str, Any] | None, int]:
    """A ruling's record and the milliseconds it has left to live (-1: no expiry), in one round trip."""
    pipe = r.pipeline(transaction=False)
    pipe.get(ruling_key(ruling_id))
    pipe.pttl(ruling_key(ruling_id))
    raw, ttl = pipe.execute()
    return (None if raw is None else json.loads(raw)), int(ttl)


def put_timeline(r: redis.Redis, replay_id: str, record: dict[str, Any], ttl: int = 0) -> bool:
    """Store a timeline record (``{"timeline"}`` or ``{"error"}``) unless one is stored; True if written."""
    return bool(r.set(timeline_key(replay_id), dumps(record), nx=True, ex=ttl if ttl > 0 else None))


def get_timeline(r: redis.Redis, replay_id: str) -> dict[str, Any] | None:
    raw = r.get(timeline_key(replay_id))
    return None if raw is None else json.loads(raw)


def claim_timeline_job(r: redis.Redis, replay_id: str, seconds: int) -> bool:
    """True for the one caller (among concurrent ones) that should queue the timeline job now."""
    return bool(r.set(timeline_claim_key(replay_id), "1", nx=True, ex=max(seconds, 1)))


def viewer_key(replay_id: str, lang: str = "en") -> str:
    """The viewer record's key in ``lang`` (English: ``...:viewer``, the others ``...:viewer:<lang>``)."""
    return f"{PREFIX}:replay:{replay_id}:viewer" + ("" if lang == "en" else f":{lang}")


def put_viewer(r: redis.Redis, replay_id: str, record: dict[str, Any], ttl: int = 0, lang: str = "en") -> bool:
    """Store the viewer record (``{"viewer"}`` or ``{"error"}``) in ``lang`` unless one is stored;
    True if written."""
    return bool(r.set(viewer_key(replay_id, lang), dumps(record), nx=True, ex=ttl if ttl > 0 else None))


def get_viewer(r: redis.Redis, replay_id: str, lang: str = "en") -> dict[str, Any] | None:
    raw = r.get(viewer_key(replay_id, lang))
    return None if raw is None else json.loads(raw)


# ------------------------------------------------------------------ the list of stored replays
INDEX_KEY = f"{PREFIX}:replays"


def meta_key(replay_id: str) -> str:
    return f"{PREFIX}:replay:{replay_id}:meta"


def replay_meta(replay_id: str, log: dict[str, Any], stored_ms: int) -> dict[str, Any]:
    """What the list of replays shows of one (``log`` is a validated log)."""
    raw_meta = log.get("meta")
    meta: dict[str, Any] = raw_meta if isinstance(raw_meta, dict) else {}
    title = meta.get("title") if isinstance(meta.get("title"), str) else ""
    players = [{"id": p["id"], "name": p.get("name") if isinstance(p.get("name"), str) else p["id"]}
               for p in log.get("players", []) if isinstance(p, dict) and isinstance(p.get("id"), str)]
    steps = log.get("steps")
    return {"id": replay_id, "title": title, "game": log.get("game"), "players": players,
            "steps": len(steps) if isinstance(steps, list) else 0,
            "stored": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(stored_ms / 1000))}


def index_log(r: redis.Redis, replay_id: str, log: dict[str, Any]) -> None:
    """Add a stored log to the list of replays (idempotent: the first time stored is kept)."""
    now = int(time.time() * 1000)
    with r.pipeline(transaction=True) as pipe:
        pipe.zadd(INDEX_KEY, {replay_id: now}, nx=True)
        pipe.set(meta_key(replay_id), dumps(replay_meta(replay_id, log, now)), nx=True)
        pipe.execute()


def list_replays(r: redis.Redis, offset: int, limit: int) -> tuple[int, list[dict[str, Any]]]:
    """``limit`` stored replays from ``offset``, the last stored first, and how many there are."""
    total = int(r.zcard(INDEX_KEY))
    ids = [i.decode() if isinstance(i, bytes) else str(i)
           for i in r.zrevrange(INDEX_KEY, offset, offset + limit - 1)] if limit > 0 else []
    metas = r.mget([meta_key(i) for i in ids]) if ids else []
    items = [json.loads(m) if m is not None else {"id": i, "title": "", "game": None, "players": [], "steps": 0}
             for i, m in zip(ids, metas, strict=True)]
    return total, items


# ------------------------------------------------------------------ creators' annotation sets
def notes_key(replay_id: str, set_id: str) -> str:
    return f"{PREFIX}:replay:{replay_id}:notes:{set_id}"


def notes_count_key(replay_id: str) -> str:
    return f"{PREFIX}:replay:{replay_id}:notes"


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class TooManySets(Exception):
    """The replay has ``MAX_ANNOTATION_SETS`` annotation sets already."""


def create_notes(r: redis.Redis, replay_id: str, title: str, annotations: list[dict[str, Any]],
                 max_sets: int) -> tuple[str, str, dict[str, Any]]:
    """A new annotation set: its ID, its creator token (returned only here) and its public record.
    Raises ``TooManySets`` when the replay has ``max_sets`` already. A set that is not written (its
    record cannot be encoded, Redis fails) takes no place in the count."""
    token = secrets.token_urlsafe(32)
    now = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    record = {"title": title, "annotations": annotations, "token": hash_token(token), "created": now,
              "updated": now}
    payload = dumps(record)  # (before the count: a record that cannot be encoded fails here)
    if int(r.incr(notes_count_key(replay_id))) > max_sets:
        r.decr(notes_count_key(replay_id))
        raise TooManySets(replay_id)
    try:
        while True:
            set_id = secrets.token_hex(8)
            if r.set(notes_key(replay_id, set_id), payload, nx=True):
                return set_id, token, public_notes(record)
    except BaseException:
        r.decr(notes_count_key(replay_id))
        raise


def public_notes(record: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in record.items() if k != "token"}


def get_notes(r: redis.Redis, replay_id: str, set_id: str) -> dict[str, Any] | None:
    """An annotation set's public record (no token hash), or None."""
    raw = r.get(notes_key(replay_id, set_id))
    return None if raw is None else public_notes(json.loads(raw))


def notes_token_matches(r: redis.Redis, replay_id: str, set_id: str, token: str) -> bool:
    raw = r.get(notes_key(replay_id, set_id))
    if raw is None:
        return False
    return hmac.compare_digest(str(json.loads(raw).get("token", "")), hash_token(token))


def update_notes(r: redis.Redis, replay_id: str, set_id: str,
                 change: Callable[[dict[str, Any]], dict[str, Any]]) -> dict[str, Any] | None:
    """Apply ``change`` (the set's public record -> the new one; it may raise to refuse) to an
    annotation set atomically (optimistic: WATCH, retried when another writer got in first). The
    new public record, or None when there is no such set."""
    key = notes_key(replay_id, set_id)
    while True:
        with r.pipeline(transaction=True) as pipe:
            try:
                pipe.watch(key)
                raw = pipe.get(key)
                if raw is None:
                    return None
                record = json.loads(raw)
                new = change(public_notes(record))
                new = {**new, "token": record["token"], "created": record["created"],
                       "updated": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
                pipe.multi()
                pipe.set(key, dumps(new))
                pipe.execute()
                return public_notes(new)
            except redis.WatchError:
                continue


def delete_notes(r: redis.Redis, replay_id: str, set_id: str) -> bool:
    """Delete an annotation set (its slot in ``MAX_ANNOTATION_SETS`` stays used)."""
    return bool(r.delete(notes_key(replay_id, set_id)))
