"""Batch replay: many log files at once, on every core of this machine or on RQ workers anywhere.

- :func:`find_logs` turns a directory (every ``*.json`` under it) or a glob into a sorted list of
  files, refusing more than ``MAX_BATCH_FILES``.
- :func:`replay_file` reads one file and replays it: a small JSON summary (``file``, ``valid``,
  ``steps``, ``outcome``, ``error``: the first fault or the broken rule), never an exception, so
  one bad file never stops a batch.
- :func:`run_local` replays the files in ``jobs`` processes (chunks of files per task, results in
  file order); a process that dies (killed, out of memory) costs only the file it was replaying,
  whose line says so: the files of the tasks lost with it are replayed again (:func:`_recover`).
- :func:`run_queued` stages each new log in Redis under its content address and queues its replay
  job (:func:`worker.jobs.replay_stored`) for the RQ workers of every machine on that Redis, then
  gathers the results as they are stored. The job's replay checks the log (this process does not
  parse it): a well-formed log is stored with its result, a malformed one never is (its faults come
  back as its line). Re-run safe: a log already replayed is not queued again (same content, same
  ID, its result is read back), and a job queued twice is run once. A job that ends with no answer
  stored gives its log a line, and one never queued (its claim lapsed) is queued again
  (``_check_jobs``): the wait ends. While no worker is alive on the queue (a look every CHECK_JOBS
  seconds, :func:`worker.liveness.live_workers`), it says so once through ``notice`` and how to
  start one, and waits on.
- :func:`summarize` counts valid and invalid logs and the outcomes.
"""

from __future__ import annotations

import contextlib
import fnmatch
import gc
import glob
import hashlib
import itertools
import json
import os
import signal
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

import orjson

from judge.games.jsonbounds import count_values
from judge.limits import MAX_BODY_BYTES, MAX_NODES

#: files one batch may name (a glob or folder naming more is refused, not truncated)
MAX_BATCH_FILES = 1_000_000
#: files per task sent to a worker process (fewer round trips than one per file)
CHUNK = 32
#: seconds ``run_queued`` waits between looks at the stored results, and logs looked at per MGET: the
#: first MGET of a look GATHER_FIRST, then twice as many each, up to GATHER
POLL = 0.2
GATHER = 500
GATHER_FIRST = 32
#: logs read and submitted to Redis per round of pipelined requests (``run_queued``)
SUBMIT = 200
#: the first chunk's files (then four times as many each chunk, up to SUBMIT)
FIRST_SUBMIT = 8
#: seconds between two looks of ``run_queued`` at the jobs of the logs still waiting, and how many of the
#: first waiting (in file order: the rest finish after them) a look reads: a job that ended without an
#: answer stored (failed for good, or gone, its claim lapsed) gives its log a line, or is queued again
CHECK_JOBS = 5.0
CHECK_FIRST = 256

Progress = Callable[[int], None]


class BatchError(Exception):
    """The batch cannot start (nothing matched, too many files)."""


def _globbed(pattern: str) -> Iterator[str]:
    """``glob.iglob(pattern, recursive=True)``, except that ``**`` goes into no symlinked folder (glob
    follows them: a link to a folder above made a loop, whose paths grew without end, and each file
    was found once per path to it), as a folder given whole (``Path.rglob``) does not either. The part
    before the first ``**`` is globbed as it is; below it, folders are walked without following links
    and each path is matched against the rest of the pattern, a segment at a time."""
    parts = pattern.split(os.sep)
    if "**" not in parts:
        yield from glob.iglob(pattern)
        return
    cut = parts.index("**")
    head, rest = os.sep.join(parts[:cut]), parts[cut:]
    roots = (glob.iglob(head) if glob.has_magic(head) else [head]) if head else [""]
    for root in roots:
        if not os.path.isdir(root or "."):
            continue
        for folder, dirs, names in os.walk(root or ".", followlinks=False):
            dirs.sort()
            rel = os.path.relpath(folder, root or ".")
            below = [] if rel == "." else rel.split(os.sep)
            for name in sorted(names):
                if _match_segments([*below, name], rest):
                    yield os.path.join(root, *below, name)  # (as glob names it: below the root as given)


def _match_segments(path: list[str], pattern: list[str]) -> bool:
    """Whether the path segments ``path`` match the pattern segments ``pattern`` (``**``: any number
    of folders, none included; a segment: ``fnmatch``, a leading dot matched only by a dot, as glob)."""
    if not pattern:
        return not path
    first, rest = pattern[0], pattern[1:]
    if first == "**":
        return any(_match_segments(path[k:], rest) for k in range(len(path) + 1)
                   if all(not seg.startswith(".") for seg in path[:k]))
    if not path or (path[0].startswith(".") and not first.startswith(".")):
        return False
    return fnmatch.fnmatchcase(path[0], first) and _match_segments(path[1:], rest)


def find_logs(pattern: str) -> list[Path]:
    """A directory (every ``*.json`` below it) or a glob (``logs/**/*.json``), sorted."""
    path = Path(pattern)
    if path.is_dir():
        found: Iterable[str] = (str(p) for p in path.rglob("*.json"))
    else:
        found = _globbed(pattern)
    files: list[Path] = []
    seen: set[str] = set()
    for name in found:
        if os.path.isfile(name) and (real := os.path.realpath(name)) not in seen:  # (each file once)
            seen.add(real)
            files.append(Path(name))
        elif os.path.islink(name) and not os.path.exists(name) and name not in seen:
            seen.add(name)  # a link to nothing (or a loop of links): its line says it cannot be read
            files.append(Path(name))
            if len(files) > MAX_BATCH_FILES:
                raise BatchError(f"{pattern} names more than {MAX_BATCH_FILES:,} files")
    if not files:
        raise BatchError(f"no log files match {pattern}")
    return sorted(files)


def _error_of(result: dict[str, Any]) -> str | None:
    if result.get("valid"):
        return None
    faults = result.get("faults") or []
    if faults:
        first = faults[0]
        return f"malformed: {first.get('path') or '/'}: {first.get('message')}"
    err = result.get("error") or {}
    failed = (result.get("checkpoints") or {}).get("failed") or []
    if err:
        rule = f" [{err['rule']}]" if err.get("rule") else ""
        message = str(err.get("message"))
        message = message.removeprefix(f"step {err.get('at')}: ")  # (the step said once)
        return f"step {err.get('at')}: {err.get('kind')}: {message}{rule}"
    if failed:
        return f"checkpoint failed at step {failed[0]}"
    return "invalid"


def summary_of(name: str, result: dict[str, Any]) -> dict[str, Any]:
    """The batch's line for one replay result (spec section 4)."""
    outcome = result.get("outcome")
    return {"file": name, "valid": bool(result.get("valid")), "steps": result.get("steps"),
            "outcome": None if not outcome else {"winner": outcome.get("winner"), "reason": outcome.get("reason")},
            "error": _error_of(result)}


def replay_file(path: str) -> dict[str, Any]:
    """Read and replay one file; a file that cannot be read is an invalid line, not an exception."""
    from replays.service import replay_json

    try:
        if os.path.getsize(path) > MAX_BODY_BYTES:
            return {"file": path, "valid": False, "steps": None, "outcome": None,
                    "error": f"unreadable: larger than {MAX_BODY_BYTES:,} bytes (MAX_BODY_BYTES)"}
        data = Path(path).read_bytes()
        if (too_many := _too_many_values(path, data)) is not None:
            return too_many
        log = json.loads(data.decode("utf-8"))
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as exc:
        return {"file": path, "valid": False, "steps": None, "outcome": None, "error": f"unreadable: {exc}"}
    try:
        return summary_of(path, replay_json(log))
    except Exception as exc:  # noqa: BLE001 -- an engine's fault on one log is that log's line, not the batch's end
        return {"file": path, "valid": False, "steps": None, "outcome": None,
                "error": f"engine error: {type(exc).__name__}: {exc}"}


def _too_many_values(name: str, data: bytes) -> dict[str, Any] | None:
    """The line of a file holding more JSON values than a log may (``MAX_NODES``), counted on its
    bytes before ``json.loads`` builds them (a file of a few MB of empty objects would take hundreds
    of MB once read), as the API refuses such a body; None for any other file."""
    n = count_values(data)
    if n <= MAX_NODES:
        return None
    return {"file": name, "valid": False, "steps": 0, "outcome": None,
            "error": f"malformed: /: the log holds {n:,} JSON values; the limit is {MAX_NODES:,} (MAX_NODES)"}


def _replay_chunk(paths: Sequence[str]) -> list[dict[str, Any]]:
    return [replay_file(p) for p in paths]


def _chunks(items: Sequence[str], size: int) -> Iterator[Sequence[str]]:
    for i in range(0, len(items), size):
        yield items[i:i + size]


def run_local(files: Sequence[Path], jobs: int, progress: Progress | None = None) -> list[dict[str, Any]]:
    """Replay ``files`` in ``jobs`` processes (1: in this one); the lines in file order."""
    names = [str(f) for f in files]
    out: list[dict[str, Any]] = []
    if jobs <= 1:
        for name in names:
            out.append(replay_file(name))
            if progress:
                progress(1)
        return out
    from replays.service import warm

    warm(engine=False)  # every game and its cards loaded once here, before the workers fork (not once per worker)
    size = max(1, min(CHUNK, len(names) // (jobs * 4) or 1))
    tasks = list(_chunks(names, size))
    lines, lost = _pooled(tasks, jobs, progress)
    if lost:  # a worker process died (killed, out of memory): its pool's unfinished tasks are lost
        _recover(lost, tasks, jobs, lines, progress)
    for i in range(len(tasks)):
        out.extend(lines[i])
    return out


def _pooled(tasks: Sequence[Sequence[str]], jobs: int,
            progress: Progress | None) -> tuple[dict[int, list[dict[str, Any]]], list[int]]:
    """Each of ``tasks`` (files) replayed in a pool of ``jobs`` processes: the lines of the tasks that
    finished, by index, and the indexes of those lost when a process of the pool died (in order)."""
    lines: dict[int, list[dict[str, Any]]] = {}
    lost: list[int] = []
    with ProcessPoolExecutor(max_workers=jobs, initializer=_ignore_interrupt) as pool:
        futures = [pool.submit(_replay_chunk, task) for task in tasks]
        try:
            for i, future in enumerate(futures):
                try:
                    lines[i] = future.result()
                except BrokenProcessPool:
                    lost.append(i)
                    continue
                if progress:
                    progress(len(lines[i]))
        except KeyboardInterrupt:  # Ctrl-C: the chunks not begun are dropped, those under way end (CHUNK files)
            pool.shutdown(wait=False, cancel_futures=True)
            raise
    return lines, lost


def _ignore_interrupt() -> None:
    """A pool process leaves Ctrl-C to the batch (which stops handing out work): the terminal sends
    SIGINT to the whole process group."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _recover(lost: list[int], tasks: list[Sequence[str]], jobs: int, lines: dict[int, list[dict[str, Any]]],
             progress: Progress | None) -> None:
    """The files of the ``lost`` tasks replayed again, one a task, into ``lines``: when a process dies
    again, the first of the tasks lost with it (those a process may have begun: the pool hands out at
    most twice ``jobs`` plus one at a time, in order) go again each in a process of its own, where a
    file whose process dies is that file's line; the others go on in a pool. Each round settles at
    least one file, so the batch ends, every other file replayed."""
    singles = [(i, name) for i in lost for name in tasks[i]]
    got: dict[tuple[int, str], dict[str, Any]] = {}
    while singles:
        done, again = _pooled([[name] for _, name in singles], jobs, progress)
        for k, line in done.items():
            got[singles[k]] = line[0]
        suspects, rest = again[:2 * jobs + 1], again[2 * jobs + 1:]
        for k in suspects:
            alone, died = _pooled([[singles[k][1]]], 1, progress)
            got[singles[k]] = alone[0][0] if not died else _died(singles[k][1])
            if died and progress:
                progress(1)
        singles = [singles[k] for k in rest]
    for i in lost:
        lines[i] = [got[(i, name)] for name in tasks[i]]


def _died(path: str) -> dict[str, Any]:
    """The line of a file whose replay took its process down (killed, out of memory, crashed)."""
    return {"file": path, "valid": False, "steps": None, "outcome": None,
            "error": "the process replaying it died (killed, out of memory or crashed); the other files were "
                     "replayed"}


def run_queued(files: Sequence[Path], conn: Any, progress: Progress | None = None,
               timeout: float | None = None, notice: Callable[[str], None] | None = None) -> list[dict[str, Any]]:
    """Replay ``files`` on the RQ workers of ``conn``'s Redis (see the module's docstring);
    ``notice`` is given a line to show whenever the wait finds no worker alive on the queue
    (once, and again only after a worker was seen)."""
    from arbiter import settings as settings_mod
    from worker.queue import make_queue

    began = time.monotonic()
    cfg = settings_mod.load()
    queue = make_queue(conn, cfg)
    lines: dict[int, dict[str, Any]] = {}
    waiting: dict[int, tuple[str, str]] = {}  # index -> (file, replay id)
    for start, end in _submit_chunks(len(files)):
        with _cyclic_gc_paused():  # (see _cyclic_gc_paused)
            _submit(files, start, end, conn, queue, cfg, lines, waiting)
    if progress and lines:
        progress(len(lines))
    deadline = None if timeout is None else time.monotonic() + timeout
    queued = len(waiting)
    next_check = time.monotonic() + CHECK_JOBS
    told = False  # whether notice was told that no worker is alive (since one was last seen)
    while waiting:
        # one MGET per GATHER waiting logs (each one's result and error): a look
        # costs a few round trips, not two per log, and leaves the CPU to the workers. The jobs were
        # queued in file order and finish in about that order, so a look reads the first GATHER
        # waiting and goes on to the next GATHER only while a chunk had some finished (the last
        # look before the deadline reads them all): not every waiting log's keys on every look
        final = deadline is not None and time.monotonic() > deadline
        done = _gather(conn, waiting, lines, every=final)
        if waiting and not final and time.monotonic() >= next_check:  # jobs that ended with no answer
            done += _check_jobs(conn, queue, cfg, waiting, lines)
            next_check = time.monotonic() + CHECK_JOBS
            if notice is not None:
                told = _tell_no_worker(queue, notice, told, len(waiting) - len(done), queued,
                                       time.monotonic() - began)
        for i in done:
            del waiting[i]
        if progress and done:
            progress(len(done))
        if waiting:
            if final:
                for i, (name, replay_id) in waiting.items():
                    lines[i] = {"file": name, "valid": False, "steps": None, "outcome": None, "replayed": False,
                                "error": f"not replayed within {timeout} s (queued as {replay_id}: "
                                         "is a worker running?)"}
                break
            time.sleep(_pause(queued, len(waiting), time.monotonic() - began))
    return [lines[i] for i in range(len(files))]


def _submit(files: Sequence[Path], start: int, end: int, conn: Any, queue: Any, cfg: Any,
            lines: dict[int, dict[str, Any]], waiting: dict[int, tuple[str, str]]) -> None:
    """Files ``start`` to ``end`` of ``run_queued``: their lines when known at once (unreadable,
    malformed), else their logs stored and their replay jobs queued (``waiting``)."""
    from arbiter import store
    from replays.service import MalformedLog

    # a chunk of files read, then asked about in one round trip each (stored? replayed?), the new
    # logs staged in one, the claims of those still to queue in one, their jobs queued in one:
    # a few round trips per chunk rather than several per log, so this process leaves the CPU
    # (and Redis's) to the workers
    # (index, file, replay id, canonical text, light: whether its replay fits a request); the log itself
    # is not kept: a chunk's memory is its canonical texts, not their parsed values
    read: list[tuple[int, str, str, bytes, bool]] = []
    for i in range(start, end):
        path = files[i]
        name = str(path)
        try:
            if path.stat().st_size > MAX_BODY_BYTES:
                raise ValueError(f"larger than {MAX_BODY_BYTES:,} bytes (MAX_BODY_BYTES)")
            data = path.read_bytes()
            if (too_many := _too_many_values(name, data)) is not None:
                lines[i] = too_many
                continue
            log, rid, canon = read_canonical(data.decode("utf-8"))
            read.append((i, name, rid, canon if canon is not None else store.dumps(log).encode("utf-8"),
                         store.replays_in_request(log)))
            del log
        except MalformedLog as exc:  # its text cannot be written: no content address
            lines[i] = _malformed_line(name, exc)
        except (OSError, UnicodeDecodeError, ValueError, RecursionError) as exc:
            lines[i] = {"file": name, "valid": False, "steps": None, "outcome": None, "error": f"unreadable: {exc}"}
    known = store.logs_known(conn, [rid for _, _, rid, _, _ in read])
    # a new log is not checked here: it is staged (its canonical text, under the ID that text hashes)
    # and its replay job checks it, as its replay parses it anyway (arbiter.store: a malformed one is
    # never stored, its faults come back as its replay error), so a log is parsed once, not twice;
    # a log its job found malformed is neither staged nor queued again while that answer lasts
    new = {rid: canon for (_, _, rid, canon, _), (stored, _, malformed) in zip(read, known, strict=True)
           if not stored and not malformed}
    if new:
        store.stage_logs(conn, list(new.items()))
    unreplayed: dict[str, bool] = {}  # replay ids without a result, in file order, each once: light?
    for (i, name, rid, _, light), (_, replayed, malformed) in zip(read, known, strict=True):
        if not replayed and not malformed:
            unreplayed[rid] = light
        waiting[i] = (name, rid)
    if unreplayed:
        _claim_and_queue(conn, queue, cfg, unreplayed)


def _claim_and_queue(conn: Any, queue: Any, cfg: Any, replays: dict[str, bool]) -> None:
    """Claim the replay jobs of ``replays`` (replay id -> light) and queue those claimed. A claimed
    log's replay error that is not its answer (a ceiling passed, which a later run may pass, not a
    malformed log's faults, whose logs are not claimed) is dropped with the claim: the line is the
    new job's, not the old error read back before the job ran."""
    from arbiter import store
    from worker.queue import enqueue_replays

    claims = store.claim_replay_jobs(conn, list(replays), cfg.job_timeout)
    claimed = [(rid, light) for (rid, light), ok in zip(replays.items(), claims, strict=True) if ok]
    if claimed:
        conn.delete(*(store.replay_error_key(rid) for rid, _ in claimed))
        enqueue_replays(queue, claimed, cfg)


def _check_jobs(conn: Any, queue: Any, cfg: Any, waiting: dict[int, tuple[str, str]],
                lines: dict[int, dict[str, Any]]) -> list[int]:
    """One look at the replay jobs of the first CHECK_FIRST logs still waiting (``run_queued``), whose
    answers ``_gather`` did not find: a job that ended for good with no answer stored (failed with
    RQ's retries spent, stopped or canceled: its worker killed, say; or finished without finding the
    log, whose staged copy expired) gives its log a line saying so, instead of a wait with no end; a
    job that is gone (never queued, as the run that claimed it stopped first, or its hash expired)
    and whose claim lapsed is claimed and queued again. Returns the indexes given a line."""
    from arbiter import store
    from worker.queue import fetch_job, replay_job_id

    by_replay: dict[str, list[int]] = {}
    for i, (_, rid) in itertools.islice(waiting.items(), CHECK_FIRST):
        by_replay.setdefault(rid, []).append(i)
    rids = list(by_replay)
    pipe = conn.pipeline(transaction=False)
    for rid in rids:
        pipe.hget(queue.job_class.key_for(replay_job_id(rid)), "status")
        pipe.exists(store.replay_claim_key(rid))
        pipe.exists(store.result_key(rid), store.replay_error_key(rid))
    replies = pipe.execute()
    done: list[int] = []
    gone: dict[str, bool] = {}
    for k, rid in enumerate(rids):
        raw, claimed, answered = replies[3 * k:3 * k + 3]
        status = raw.decode() if isinstance(raw, bytes) else raw
        if answered:  # (since the look: the next one reads it)
            continue
        if status is None:
            if not claimed:
                gone[rid] = False  # (its work unknown here: a job in a work horse, which any log fits)
            continue
        if status not in ("failed", "stopped", "canceled", "finished"):
            continue
        job = fetch_job(conn, replay_job_id(rid))
        if job is None:
            continue
        if status == "finished":
            value = job.return_value()
            outcome = value.get("outcome") if isinstance(value, dict) else None
            why = ("not-found: the log was neither staged nor stored when its job ran (its staged copy "
                   "expired): run the batch again") if outcome == "not-found" else \
                f"the replay job finished with no answer stored (outcome {outcome})"
        else:
            latest = job.latest_result()
            last = (latest.exc_string or "").strip().splitlines()[-1:] if latest is not None else []
            why = f"the replay job {status} with no answer stored" + (f": {last[0]}" if last else "")
        for i in by_replay[rid]:
            lines[i] = {"file": waiting[i][0], "valid": False, "steps": None, "outcome": None, "error": why}
            done.append(i)
    if gone:
        _claim_and_queue(conn, queue, cfg, gone)
    return done


def _tell_no_worker(queue: Any, notice: Callable[[str], None], told: bool, waiting: int, queued: int,
                    elapsed: float) -> bool:
    """One look of ``run_queued`` at the workers alive on ``queue``: when there is none, and
    ``notice`` was not told so since one was last seen, a line saying so and how to start one;
    returns whether notice now knows that no worker is alive."""
    from worker.liveness import live_workers

    if live_workers(queue):
        return False
    if not told:
        what = ("no worker has taken a job yet" if waiting >= queued else
                f"no worker is running now ({queued - waiting:,} of {queued:,} jobs done)")
        logs = f"{waiting:,} log{'' if waiting == 1 else 's'} wait{'s' if waiting == 1 else ''}"
        notice(f"{what} after {elapsed:.0f} s: {logs} on the queue {queue.name!r}; start "
               "a worker on the same Redis with `arbiter worker` (same REDIS_URL or ARBITER_DATA_DIR). "
               "Still waiting; Ctrl-C stops, and running the batch again is safe.")
    return True


def _pause(queued: int, waiting: int, elapsed: float) -> float:
    """Seconds ``run_queued`` waits before its next look, ``waiting`` of the ``queued`` jobs unfinished
    ``elapsed`` seconds after it began: POLL / 4 once the rest would finish within POLL at the rate
    seen so far (a short wait for the last few), else POLL: a look costs this process's and Redis's
    CPU, which the workers could use (looks every POLL / 4 from the last GATHER logs on were ten
    seconds of 20 looks a second at 50 logs a second)."""
    finished = queued - waiting
    return POLL / 4 if waiting * elapsed <= max(finished, 1) * POLL else POLL


def _gather(conn: Any, waiting: dict[int, tuple[str, str]], lines: dict[int, dict[str, Any]], *,
            every: bool) -> list[int]:
    """One look at the stored results of ``waiting`` (index -> (file, replay id), in file order):
    the line of each log whose result (or replay error) is stored goes into ``lines``; returns their
    indexes. Reads GATHER_FIRST logs, then twice as many at a time up to GATHER, the next chunk only
    while a chunk had some finished (``every``: all of them): a look while a few jobs a second finish
    reads a few dozen logs' keys, not GATHER's (bench: 2.7 -> 1.0 ms of CPU a look with ten
    finished), each chunk's results and errors in one MGET."""
    from arbiter import store

    done: list[int] = []
    pending = iter(waiting.items())  # (not changed here: the caller drops the done ones afterwards)
    size = min(GATHER_FIRST, GATHER)
    while chunk := list(itertools.islice(pending, size)):
        size = min(2 * size, GATHER)
        keys: list[str] = []
        for _, (_, rid) in chunk:
            keys += (store.result_key(rid), store.replay_error_key(rid))
        values = conn.mget(keys)  # (each log's result and error: one round trip a chunk, not two)
        found = len(done)
        for n, (i, (name, _)) in enumerate(chunk):
            if (result := values[2 * n]) is not None:
                lines[i] = summary_of(name, json.loads(result))
            elif (error := values[2 * n + 1]) is not None:
                lines[i] = _error_line(name, json.loads(error))
            else:
                continue
            done.append(i)
        if len(done) == found and not every:
            break  # nothing of this chunk finished: the later ones were queued after it
    return done


@contextlib.contextmanager
def _cyclic_gc_paused() -> Iterator[None]:
    """No cyclic garbage collection while a chunk of files is read, checked and queued (at most
    SUBMIT files: what it leaves for the collector is bounded by a chunk), then as before. Reading
    a chunk allocates a few hundred thousand containers (the logs, their checks), which set off
    collections that walk this process's whole heap (the games' tables and cards): about 0.13 ms of
    CPU a log (bench: driver 0.96 -> 0.82 ms a job)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def unchecked_canonical(log: Any) -> tuple[str, bytes | None]:
    """``store.log_id(log)`` and the canonical text it hashes (UTF-8), without ``log_id``'s look at the
    log's JSON bounds when that text can be written (``log_id`` scans them first; a new log's replay
    job scans them when its replay parses the log): the same ID for every log within its bounds. A
    log outside them gets the hash of its text all the same, which no stored log has (a stored log
    was checked), so it counts as new and its replay job finds the fault ``log_id`` would have
    raised. A log whose text cannot be written (NaN, a lone surrogate, nested too deeply for the
    encoder) goes to ``log_id``, which raises ``MalformedLog`` for it as before (no text: None)."""
    from arbiter import store

    try:
        canon = json.dumps(log, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                           allow_nan=False).encode("utf-8")
    except (ValueError, TypeError, RecursionError):
        return store.log_id(log), None
    return hashlib.sha256(canon).hexdigest(), canon


def read_canonical(text: str) -> tuple[Any, str, bytes | None]:
    """The log ``text`` holds (``json.loads``), with its ID and canonical text as
    :func:`unchecked_canonical` gives them. The canonical text is written by orjson (sorted keys, no
    spaces, UTF-8: about a tenth of ``json.dumps``'s CPU, which was a third of the batch's CPU a log)
    when the log has no number with a fraction or an exponent and no NaN or Infinity: the two write
    every other JSON value alike (strings, keys and their order, integers), where their floats are
    written apart (``1e-05`` against ``1e-5``). A log orjson cannot write (an integer past 64 bits,
    nested past its depth, a lone surrogate) goes to ``unchecked_canonical`` as before. Raises what
    ``json.loads`` raises for a text that is not JSON."""
    fractions: list[str] = []  # (the float and constant literals read: any one sends the log to json.dumps)

    def literal(value: str) -> float:
        fractions.append(value)
        return float(value)

    log = json.loads(text, parse_float=literal, parse_constant=literal)
    if not fractions:
        try:
            canon = orjson.dumps(log, option=orjson.OPT_SORT_KEYS)
        except orjson.JSONEncodeError:
            pass
        else:
            return log, hashlib.sha256(canon).hexdigest(), canon
    rid, canon_or_none = unchecked_canonical(log)
    return log, rid, canon_or_none


def _submit_chunks(n: int) -> Iterator[tuple[int, int]]:
    """The (start, end) of each chunk of ``n`` files ``run_queued`` submits: a few first, so the
    workers start while this process reads the rest, then SUBMIT at a time."""
    start, size = 0, FIRST_SUBMIT
    while start < n:
        end = min(start + size, n)
        yield start, end
        start, size = end, min(SUBMIT, size * 4)


def _error_line(name: str, error: dict[str, Any]) -> dict[str, Any]:
    """The line of a log whose replay job stored an error instead of a result: a staged log found
    malformed (its faults: the line of a replay that found them), or a ceiling passed."""
    if error.get("kind") == "malformed" and error.get("faults"):
        return summary_of(name, {"valid": False, "steps": 0, "outcome": None, "faults": error["faults"]})
    return {"file": name, "valid": False, "steps": None, "outcome": None,
            "error": f"{error.get('kind')}: {error.get('message')}"}


def _malformed_line(name: str, exc: Any) -> dict[str, Any]:
    first = exc.faults[0]
    return {"file": name, "valid": False, "steps": 0, "outcome": None,
            "error": f"malformed: {first.path or '/'}: {first.message}"}


def summarize(lines: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Counts: logs, valid, invalid, not replayed (``--timeout`` passed: neither valid nor invalid),
    steps, outcomes by reason."""
    valid = [ln for ln in lines if ln["valid"]]
    unknown = sum(1 for ln in lines if ln.get("replayed") is False)
    outcomes = Counter(ln["outcome"]["reason"] if ln["outcome"] else "unfinished" for ln in valid)
    return {"logs": len(lines), "valid": len(valid), "invalid": len(lines) - len(valid) - unknown,
            "not_replayed": unknown, "steps": sum(ln["steps"] or 0 for ln in lines),
            "outcomes": dict(sorted(outcomes.items()))}
