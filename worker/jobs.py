"""RQ jobs: thin functions that take IDs, load the log from Redis, call the engine, store the result.

Each job returns a small dict that survives a strict JSON round trip (:func:`_json_result`): RQ
would otherwise store a value its serializer cannot encode as a placeholder string and still report
success. A malformed log, a step the log does not have, or a computation that passes its time or
memory ceiling (:mod:`worker.ceiling`) is an *answer* (a stored error), not a crash, so RQ never
retries it; only unexpected exceptions fail the job (and are retried).

A ruling's, a timeline's or a replay's record is written once (:func:`arbiter.store.put_ruling`,
:func:`arbiter.store.put_timeline`, :func:`arbiter.store.put_result`): when RQ runs a job a second
time (its worker was presumed dead and the job re-queued), the first record written stays the answer.
The result's ``delivered`` says whether this run wrote it; ``outcome`` is ``ok`` or the error's kind.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from typing import Any

import redis
from rq import get_current_job

import i18n
from arbiter import settings as settings_mod
from arbiter import store
from arbiter.redis_conn import connect, shared_url
from replays.service import MalformedLog, StepOutOfRange, replay_json, ruling_json, timeline_json, validate
from replays.viewer import viewer_json_langs
from worker.ceiling import CeilingExceeded, bounded, message

Rule = Callable[[Any, "int | None"], dict[str, Any]]
Build = Callable[[Any], dict[str, Any]]


def _connection() -> redis.Redis:
    job = get_current_job()
    if job is not None:
        return job.connection
    cfg = settings_mod.load()  # called outside a worker (tests, the CLI)
    return connect(shared_url(cfg.redis_url, cfg.data_dir, cfg.redis_fsync))


def _json_result(value: dict[str, Any]) -> dict[str, Any]:
    """``value`` after a strict JSON round trip; raises ``TypeError``/``ValueError`` if not JSON."""
    result = json.loads(store.dumps(value))
    if not isinstance(result, dict):
        raise TypeError("a job result must be a JSON object")
    return result


def _malformed(exc: MalformedLog) -> dict[str, Any]:
    return {"kind": "malformed", "message": str(exc), "faults": [f.to_json() for f in exc.faults]}


def _put(put: Callable[[dict[str, Any]], bool], record: dict[str, Any],
         what: str) -> tuple[bool, dict[str, Any]]:
    """``put(record)``: whether it was written, and the record. A record too large to write within
    the memory ceiling (its JSON text is built in the work horse too) is replaced by the ceiling's
    error."""
    try:
        return put(record), record
    except MemoryError:
        pass
    error = CeilingExceeded("memory", message(what, "memory")).to_json()
    record = {k: v for k, v in record.items() if k in ("replay", "at")} | {"error": error}
    return put(record), record


def compute_ruling(ruling_id: str, replay_id: str, at: int | None) -> dict[str, Any]:
    """Rule on step ``at`` (None: the disputed step, else the last) of stored replay ``replay_id``."""
    return ruling_job(ruling_id, replay_id, at, ruling_json)


def ruling_job(ruling_id: str, replay_id: str, at: int | None, rule: Rule) -> dict[str, Any]:
    """The ruling job with the engine call ``rule(log, at)`` given (tests give slow or hungry ones)."""
    r = _connection()
    record: dict[str, Any] = {"replay": replay_id, "at": at}
    log = store.get_log(r, replay_id)
    if log is None:
        record["error"] = {"kind": "not-found", "message": f"no stored replay {replay_id}"}
    else:
        try:
            record["ruling"] = bounded("The ruling", rule, log, at)
        except MalformedLog as exc:
            record["error"] = _malformed(exc)
        except StepOutOfRange as exc:
            record["error"] = {"kind": "step-out-of-range", "message": str(exc)}
        except CeilingExceeded as exc:
            record["error"] = exc.to_json()
    ttl = settings_mod.load().ruling_ttl
    delivered, record = _put(lambda rec: store.put_ruling(r, ruling_id, rec, ttl), record, "The ruling")
    outcome = record["error"]["kind"] if "error" in record else "ok"
    return _json_result({"ruling": ruling_id, "replay": replay_id, "at": at, "ok": outcome == "ok",
                         "outcome": outcome, "delivered": delivered})


def compute_timeline(replay_id: str) -> dict[str, Any]:
    """Compute the annotated timeline of stored replay ``replay_id`` and what the replay viewer
    draws of it, and store both beside the log."""
    return timeline_job(replay_id, timeline_json, viewer_json_langs)


def _computed(what: str, build: Build, log: Any) -> dict[str, Any]:
    key = what.split()[-1]
    try:
        return {key: bounded(what, build, log)}
    except MalformedLog as exc:  # stored logs were validated; only an engine change gets here
        return {"error": _malformed(exc)}
    except CeilingExceeded as exc:
        return {"error": exc.to_json()}


def _put_viewer(r: redis.Redis, replay_id: str, lang: str, failure_ttl: int, record: dict[str, Any]) -> bool:
    return store.put_viewer(r, replay_id, record, failure_ttl if "error" in record else 0, lang)


def timeline_job(replay_id: str, build: Build, build_viewer: Build | None = None) -> dict[str, Any]:
    """The timeline job with the engine calls given (tests give slow or hungry ones):
    ``build(log)`` the timeline, ``build_viewer(log)`` the viewer's data in every language
    (``{lang: data}`` for each of ``i18n.LANGS``; None: the viewer's is not computed, as for a job
    queued by an older API).

    The viewer's records (one per language, the English one last) are written before the
    timeline's, so a stored timeline means all are there. A record that cannot be computed
    (malformed, past a ceiling) is stored as an error that expires after ``ARBITER_FAILURE_TTL``,
    so that a later request (say, after the operator raised the ceiling) computes it again; the
    records themselves do not expire, like the replay result.
    """
    r = _connection()
    cfg = settings_mod.load()
    need_viewer = build_viewer is not None and any(store.get_viewer(r, replay_id, lang) is None
                                                   for lang in i18n.LANGS)
    if store.get_timeline(r, replay_id) is not None and not need_viewer:  # a second run: nothing to do
        return _json_result({"replay": replay_id, "ok": True, "outcome": "ok", "delivered": False})
    log = store.get_log(r, replay_id)
    if log is None:
        return _json_result({"replay": replay_id, "ok": False, "outcome": "not-found", "delivered": False})
    if need_viewer and build_viewer is not None:
        computed = _computed("The viewer", build_viewer, log)
        for lang in sorted(i18n.LANGS, key=lambda lang: lang == i18n.DEFAULT):  # English last
            _put(functools.partial(_put_viewer, r, replay_id, lang, cfg.failure_ttl),
                 computed if "error" in computed else {"viewer": computed["viewer"][lang]}, "The viewer")
    record = store.get_timeline(r, replay_id)
    if record is not None:
        return _json_result({"replay": replay_id, "ok": True, "outcome": "ok", "delivered": False})
    delivered, record = _put(
        lambda rec: store.put_timeline(r, replay_id, rec, cfg.failure_ttl if "error" in rec else 0),
        _computed("The timeline", build, log), "The timeline")
    outcome = record["error"]["kind"] if "error" in record else "ok"
    return _json_result({"replay": replay_id, "ok": outcome == "ok", "outcome": outcome,
                         "delivered": delivered})


#: the attribute of a running RQ job (the Job object, in the worker's process: never stored) where a
#: worker that read a replay job's keys before it ran (worker.workers.ArbiterWorker.perform_light: with
#: the WATCH for a plain replay job, else in the transaction that starts the job) leaves ``(replay id,
#: the MGET's values)`` for the job to use
PREFETCHED = "arbiter_prefetched"


def _taken(attribute: str) -> Any:
    """What the worker left at ``attribute`` of the running job (taken once: None after), or None."""
    job = get_current_job()
    found = getattr(job, attribute, None) if job is not None else None
    if found is not None:
        setattr(job, attribute, None)
    return found


def _prefetched(replay_id: str) -> list[Any] | None:
    """The values of ``store.result_or_log_keys(replay_id)`` read for the running job before it ran
    (taken once), or None: the job reads them itself."""
    found = _taken(PREFETCHED)
    if found is None:
        return None
    read_for, values = found
    return list(values) if read_for == replay_id else None


#: the attribute of a running replay job where a worker that finishes the job in a transaction of its
#: own (worker.workers.ArbiterWorker.perform_light) offers to write the job's records in it: a
#: ResultOffer, which the job fills instead of writing them itself (one write to Redis a job, one
#: fsync under ``appendfsync always``, instead of two)
RESULT_OFFER = "arbiter_result_offer"


class ResultOffer:
    """What a replay job writes (its result; for a staged log, the log moved to its stored place, or
    the log dropped and its faults stored): in the transaction that finishes the job when a worker
    offers it (``queue``, ``watched``), else on its own (``write``).

    A worker that offers it watched the keys the job reads first (``store.result_or_log_keys``: the
    result's, the log's, the staged log's) before the job read them, so the transaction fails if
    another run (or a request, or the batch staging the log again) changed one since: the worker then
    writes them on their own and, if this run did not write the result, records the job's value
    ``lost`` (``delivered`` false) instead."""

    def __init__(self, replay_id: str) -> None:
        self.replay_id = replay_id
        #: the result's JSON text, once the job took the offer
        self.text: str | None = None
        #: the job's value should the result not be this run's to write
        self.lost: dict[str, Any] | None = None
        #: a staged log found well-formed: (its value, its staged text), stored with the result
        self.staged: tuple[Any, Any] | None = None
        #: a staged log found malformed: (its replay error's JSON text, the error's TTL); no result
        self.fault: tuple[str, int] | None = None

    @property
    def taken(self) -> bool:
        """Whether the job filled it (else the worker finishes the job without it)."""
        return self.text is not None or self.fault is not None

    def queue(self, pipe: Any, *, watched: bool = False) -> None:
        """The writes added to ``pipe``, a transaction; the first reply says whether the result was
        written (``watched``: see ``store.queue_staged_result``)."""
        if self.fault is not None:
            store.queue_staged_fault(pipe, self.replay_id, *self.fault)
        elif self.staged is not None:
            assert self.text is not None
            store.queue_staged_result(pipe, self.replay_id, self.staged[0], self.staged[1], self.text,
                                      watched=watched)
        else:
            assert self.text is not None
            store.queue_result(pipe, self.replay_id, self.text)

    def write(self, r: redis.Redis) -> bool:
        """The writes on their own, in one round trip (a staged log's in one transaction): whether
        this run wrote the result (a fault: always, see ``store.queue_staged_fault``)."""
        with r.pipeline(transaction=self.text is None or self.staged is not None) as pipe:
            self.queue(pipe)
            written = pipe.execute()[0]
        return self.fault is not None or bool(written)


def _offer(replay_id: str) -> ResultOffer | None:
    """The worker's offer to write the running job's result (taken once), or None: the job writes it."""
    found = _taken(RESULT_OFFER)
    return found if isinstance(found, ResultOffer) and found.replay_id == replay_id else None


def replay_stored(replay_id: str) -> dict[str, Any]:
    """Replay stored log ``replay_id`` and store its result beside it (a log too heavy for the
    request that stored it: ``MAX_STEPS_IN_REQUEST``, or an inline ruling's; a log the batch staged)."""
    return replay_job(replay_id, replay_json)


def replay_job(replay_id: str, build: Build) -> dict[str, Any]:
    """The replay job with the engine call ``build(log)`` given (tests give slow or hungry ones).

    The result is written once (:func:`arbiter.store.put_result`, or by the worker when it offers to:
    :class:`ResultOffer`). A replay past the time or memory
    ceiling stores no result but the ceiling's error (:func:`arbiter.store.put_replay_error`), which
    expires after ``ARBITER_FAILURE_TTL`` so that a later request (say, after the operator raised the
    ceiling) queues it again: not ``valid: false``, which would say the log breaks a rule.

    A log the batch staged (no stored log, a staged one: see :mod:`arbiter.store`) is checked by its
    replay, which parses it: well-formed (its replay found no fault, or a fault its parse,
    ``validate``, does not find: a position that cannot be set up, as for a log posted to the API),
    it is stored with its result in one transaction; malformed, it is dropped and its faults are
    stored as its replay error (outcome ``malformed``), for ``ARBITER_FAILURE_TTL`` seconds.
    """
    r = _connection()
    read = _prefetched(replay_id)
    found = store.result_or_log(read) if read is not None else store.get_result_or_log(r, replay_id)
    if found.result is not None:  # a second run of the job: nothing to do but drop a staged copy left
        if found.staged is not None:
            r.delete(store.staged_key(replay_id))
        return _json_result({"replay": replay_id, "ok": True, "outcome": "ok", "delivered": False})
    log = found.log
    if log is None:
        return _json_result({"replay": replay_id, "ok": False, "outcome": "not-found", "delivered": False})
    error: dict[str, Any] | None = None
    offer = _offer(replay_id)
    mine = offer or ResultOffer(replay_id)
    try:
        result = bounded("The replay", build, log)
        faults = validate(log) if found.staged is not None and result.get("faults") else []  # (see above)
        if faults:
            mine.fault = (store.dumps(_malformed(MalformedLog(faults))), settings_mod.load().failure_ttl)
        else:
            mine.text = store.dumps(result)
            if found.staged is not None:
                mine.staged = (log, found.staged)
    except CeilingExceeded as exc:
        error = exc.to_json()
    except MemoryError:  # the result's JSON text did not fit beside it
        error = CeilingExceeded("memory", message("The replay", "memory")).to_json()
    if error is not None:  # (the settings read only here: about 20 us a job otherwise)
        if offer is not None:
            offer.text = offer.fault = None  # (nothing for the worker to write)
        delivered = store.put_replay_error(r, replay_id, error, settings_mod.load().failure_ttl)
        return _json_result({"replay": replay_id, "ok": False, "outcome": error["kind"], "delivered": delivered})
    delivered = True if offer is not None else mine.write(r)  # (the worker writes it, with the job's end)
    if mine.fault is not None:
        return _json_result({"replay": replay_id, "ok": False, "outcome": "malformed", "delivered": delivered})
    value = _json_result({"replay": replay_id, "ok": True, "outcome": "ok", "delivered": delivered,
                          "valid": bool(result.get("valid"))})
    if offer is not None:
        offer.lost = {**value, "delivered": False}
    return value


def noop() -> dict[str, Any]:
    """Does nothing; measures the queue's own latency."""
    return {"ok": True}
