"""Test-only jobs: the real ruling and timeline jobs (worker.jobs.ruling_job / timeline_job: loading,
ceilings, the write-once store) with the engine call replaced by one that is slow, hungry, or held
at a gate. Workers import them by name (``tests.worker.heavy_jobs.<name>``): an ``arbiter worker``
subprocess runs in the repository root, where ``tests`` is importable.
"""

from __future__ import annotations

import os
import time
from typing import Any

import psutil
from rq import get_current_job

from replays.service import ruling_json
from worker import jobs

MB = 1024 * 1024
HELD = "arbiter:test:held"


def _slow(*_: Any) -> dict[str, Any]:
    time.sleep(600)  # the job's time ceiling interrupts this
    raise AssertionError("the time ceiling did not stop the job")


def _hungry(*_: Any) -> dict[str, Any]:
    blocks = [bytearray(MB) for _ in range(512)]  # 512 MB of address space, one MB at a time
    raise AssertionError(f"the memory ceiling let {len(blocks)} MB through")


def _bloated(*_: Any) -> dict[str, Any]:
    return {"blob": "x" * (40 * MB)}  # fits under a 64 MB ceiling; its JSON text does not fit beside it


def bloated_ruling(ruling_id: str, replay_id: str, at: int | None) -> dict[str, Any]:
    return jobs.ruling_job(ruling_id, replay_id, at, _bloated)


def slow_ruling(ruling_id: str, replay_id: str, at: int | None) -> dict[str, Any]:
    return jobs.ruling_job(ruling_id, replay_id, at, _slow)


def hungry_ruling(ruling_id: str, replay_id: str, at: int | None) -> dict[str, Any]:
    return jobs.ruling_job(ruling_id, replay_id, at, _hungry)


def slow_timeline(replay_id: str) -> dict[str, Any]:
    return jobs.timeline_job(replay_id, _slow)


def hungry_timeline(replay_id: str) -> dict[str, Any]:
    return jobs.timeline_job(replay_id, _hungry)


def limits_ruling(ruling_id: str, replay_id: str, at: int | None) -> dict[str, Any]:
    """A real ruling that also records the address-space limits of the horse and of its worker."""
    job = get_current_job()
    assert job is not None
    me, parent = psutil.Process(), psutil.Process(os.getppid())
    job.connection.hset(f"arbiter:test:limits:{ruling_id}", mapping={
        "horse": str(me.rlimit(psutil.RLIMIT_AS)[0]), "worker": str(parent.rlimit(psutil.RLIMIT_AS)[0]),
        "unlimited": str(psutil.RLIM_INFINITY)})
    return jobs.compute_ruling(ruling_id, replay_id, at)


def held_key(ruling_id: str, name: str) -> str:
    return f"{HELD}:{ruling_id}:{name}"


def held_ruling(ruling_id: str, replay_id: str, at: int | None) -> dict[str, Any]:
    """A real ruling that first notes its pid, counts its run, and waits until the test opens its gate
    (the key ``held_key(ruling_id, "gate")``): the test kills its worker in between."""
    job = get_current_job()
    assert job is not None
    r = job.connection

    def rule(log: Any, step: int | None) -> dict[str, Any]:
        r.rpush(held_key(ruling_id, "pids"), os.getpid())  # first: a test that sees the run sees the pid
        r.incr(held_key(ruling_id, "runs"))
        deadline = time.monotonic() + 110
        while not r.exists(held_key(ruling_id, "gate")):
            if time.monotonic() > deadline:
                raise TimeoutError("the test never opened the gate")
            time.sleep(0.05)
        return ruling_json(log, step)

    return jobs.ruling_job(ruling_id, replay_id, at, rule)


def other_ruling(ruling_id: str, replay_id: str, at: int | None) -> dict[str, Any]:
    """A second run of a ruling whose engine call answers differently (the store keeps the first)."""
    return jobs.ruling_job(ruling_id, replay_id, at, lambda _log, _at: {"other": "answer"})


def pid_replay(replay_id: str) -> dict[str, Any]:
    """The real replay job, noting first the pid of the process that runs it (worker or horse)."""
    job = get_current_job()
    assert job is not None
    job.connection.set(f"arbiter:test:pid:{replay_id}", os.getpid())
    return jobs.replay_stored(replay_id)


def slow_replay(replay_id: str) -> dict[str, Any]:
    return jobs.replay_job(replay_id, _slow)


def failing_replay(replay_id: str) -> dict[str, Any]:
    """A replay job that raises (a fault of the job, not a ceiling)."""
    raise RuntimeError(f"failing on purpose: {replay_id}")


def suspending_replay(replay_id: str) -> dict[str, Any]:
    """The real replay job, run while ``rq suspend`` suspends the workers."""
    job = get_current_job()
    assert job is not None
    job.connection.set("rq:suspended", 1)
    return jobs.replay_stored(replay_id)


def dropping_replay(replay_id: str) -> dict[str, Any]:
    """The real replay job, deleting first the hash of the job queued right after it (its ID noted
    under ``arbiter:test:drop``), as an expired or deleted job's hash is gone."""
    job = get_current_job()
    assert job is not None
    dropped = job.connection.get("arbiter:test:drop")
    assert dropped is not None
    job.connection.delete(b"rq:job:" + dropped)
    return jobs.replay_stored(replay_id)
