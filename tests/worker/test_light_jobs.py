"""Light replay jobs (a replay whose work fits MAX_STEPS_IN_REQUEST, the work a request does itself)
run in a real forking ``arbiter worker``'s own process, under the time ceiling; every other job in a
forked work horse. The batch queues its logs as light or not by their replay work."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest
import redis
from rq.job import JobStatus

from arbiter import batch, store
from arbiter import settings as settings_mod
from judge.limits import MAX_STEPS_IN_REQUEST
from replays.selfplay import new_log, play, play_game
from replays.service import replay_json
from tests.worker.live import start_worker
from tests.worker.test_ceiling import job_lines
from worker.queue import LIGHT, REPLAY_JOB, enqueue_replay, make_queue

HEAVY = "tests.worker.heavy_jobs."


def stored(conn: redis.Redis, seed: str) -> tuple[str, dict]:
    log = play_game(seed, "AW-H", "AW-V", policy="heuristic").log
    return store.put_log(conn, log, replay=False).replay_id, log


def queue_on(redis_url: str, **settings: Any) -> tuple[redis.Redis, Any, Any]:
    """A connection, the settings (``settings`` changed) and the queue of a test."""
    conn = redis.Redis.from_url(redis_url)
    cfg = dataclasses.replace(settings_mod.load(), **settings)
    return conn, cfg, make_queue(conn, cfg)


def burst(redis_url: str, tmp_path: Path) -> tuple[Path, int]:
    """Run a real forking ``arbiter worker --burst`` until the queue is empty: its stderr's path, its pid."""
    err = tmp_path / "worker.err"
    worker = start_worker(redis_url, err, burst=True)
    assert worker.wait(timeout=90) == 0, err.read_text()
    return err, worker.pid


def test_a_light_job_runs_in_the_worker_and_others_in_a_horse(redis_url: str, redis_db: redis.Redis,
                                                              tmp_path: Path) -> None:
    conn, cfg, queue = queue_on(redis_url, job_timeout=2)
    light, light_log = stored(conn, "light-1")
    forked, forked_log = stored(conn, "light-2")
    slow, _ = stored(conn, "light-3")
    enqueue_replay(queue, light, cfg, function=HEAVY + "pid_replay", light=True)
    enqueue_replay(queue, forked, cfg, function=HEAVY + "pid_replay")
    enqueue_replay(queue, slow, cfg, function=HEAVY + "slow_replay", light=True)

    stderr, pid = burst(redis_url, tmp_path)

    assert int(conn.get(f"arbiter:test:pid:{light}")) == pid
    assert int(conn.get(f"arbiter:test:pid:{forked}")) != pid
    # both replayed in full, as the request would have
    for rid, log in ((light, light_log), (forked, forked_log)):
        assert store.get_result(conn, rid) == json.loads(json.dumps(replay_json(log)))
    # the time ceiling holds in the worker's own process: an answer, and the worker went on
    error = store.get_replay_error(conn, slow)
    assert error is not None and error["kind"] == "ceiling" and error["ceiling"] == "time"
    assert store.get_result(conn, slow) is None
    lines = {line["replay"]: line for line in job_lines(stderr).values()}
    assert lines[light]["outcome"] == "ok" and lines[forked]["outcome"] == "ok"
    assert lines[slow]["outcome"] == "ceiling"
    conn.close()


def test_the_batch_queues_a_log_as_light_by_its_replay_work(redis_url: str, redis_db: redis.Redis,
                                                           tmp_path: Path) -> None:
    short = play_game("light-short", "AW-H", "AW-V", policy="heuristic").log
    calm = lambda step, _state: step["do"] not in ("attack", "play", "use", "prevent", "reroll")  # noqa: E731
    long = play(new_log("light-long", "DARK-60", "LIGHT-60", game="swtcg"), max_steps=MAX_STEPS_IN_REQUEST + 40,
                allow=calm, checkpoint_every=0).log
    assert store.replay_work(short) <= MAX_STEPS_IN_REQUEST < store.replay_work(long)
    files = []
    for name, log in (("short", short), ("long", long)):
        files.append(tmp_path / f"{name}.json")
        files[-1].write_text(json.dumps(log), encoding="utf-8")
    conn = redis.Redis.from_url(redis_url)
    lines = batch.run_queued(files, conn, timeout=0)  # no worker: queued, not replayed
    assert [line["valid"] for line in lines] == [False, False]
    jobs = {job.meta["replay"]: job for job in make_queue(conn).jobs}
    assert jobs[store.log_id(short)].meta.get(LIGHT) is True
    assert LIGHT not in jobs[store.log_id(long)].meta
    conn.close()


def _traces(conn: redis.Redis, job_id: str) -> dict[str, Any]:
    """What RQ left in Redis of a job: each key naming it (the ID replaced by ``*``) with its type,
    the job hash's field names, its status, and the registries holding it."""
    keys = {key.decode().replace(job_id, "*"): conn.type(key).decode() for key in conn.scan_iter(f"*{job_id}*")}
    fields = sorted(field.decode() for field in conn.hkeys(f"rq:job:{job_id}"))
    registries = sorted(key.decode() for key in conn.scan_iter("rq:*:arbiter")
                        if conn.type(key) == b"zset" and any(m.decode().startswith(job_id)
                                                             for m in conn.zrange(key, 0, -1)))
    return {"keys": keys, "fields": fields, "status": conn.hget(f"rq:job:{job_id}", "status"),
            "registries": registries}


def test_a_light_job_leaves_what_rqs_own_path_leaves(redis_url: str, redis_db: redis.Redis,
                                                    tmp_path: Path) -> None:
    """The light path writes RQ's records in fewer round trips: the same keys, fields, status,
    registries and result as a job run by RQ's own path (in a horse); the worker's counts."""
    conn, cfg, queue = queue_on(redis_url, job_retries=0)
    light, light_log = stored(conn, "lean-1")
    forked, _ = stored(conn, "lean-2")
    failing, _ = stored(conn, "lean-3")
    jobs = [enqueue_replay(queue, light, cfg, light=True), enqueue_replay(queue, forked, cfg),
            enqueue_replay(queue, failing, cfg, function=HEAVY + "failing_replay", light=True)]
    burst(redis_url, tmp_path)

    light_job, forked_job, failing_job = (queue.fetch_job(job.id) for job in jobs)
    assert light_job.get_status() == JobStatus.FINISHED == forked_job.get_status()
    assert light_job.return_value() == {"replay": light, "ok": True, "outcome": "ok", "delivered": True,
                                        "valid": True}
    assert store.get_result(conn, light) == json.loads(json.dumps(replay_json(light_log)))
    traces = _traces(conn, light_job.id)
    assert traces == _traces(conn, forked_job.id)
    assert "rq:finished:arbiter" in traces["registries"] and "rq:wip:arbiter" not in traces["registries"]
    assert not any(key.startswith("rq:execution:") for key in traces["keys"])  # the execution was ended
    # a light job that raised is failed as RQ fails it: its error recorded, in the failed registry
    assert failing_job.get_status() == JobStatus.FAILED
    assert "failing on purpose" in (failing_job.latest_result().exc_string or "")
    assert "rq:failed:arbiter" in _traces(conn, failing_job.id)["registries"]
    worker = {k.decode(): v.decode() for k, v in conn.hgetall(conn.keys("rq:worker:*")[0]).items()} \
        if conn.keys("rq:worker:*") else None
    if worker is not None:  # (a burst worker's record may be gone once it stops)
        assert worker["successful_job_count"] == "2" and worker["failed_job_count"] == "1"
    conn.close()


def test_a_light_job_that_sees_the_workers_suspended_stops_the_next_dequeue(
        redis_url: str, redis_db: redis.Redis, tmp_path: Path) -> None:
    """The light path reads ``rq suspend``'s flag in its last transaction: a suspension made while the
    job ran holds before the next job (a burst worker stops, the next job stays queued)."""
    conn, cfg, queue = queue_on(redis_url)
    first, _ = stored(conn, "suspend-1")
    second, _ = stored(conn, "suspend-2")
    enqueue_replay(queue, first, cfg, function=HEAVY + "suspending_replay", light=True)
    after = enqueue_replay(queue, second, cfg, light=True)
    burst(redis_url, tmp_path)
    assert store.get_result(conn, first) is not None
    assert queue.fetch_job(after.id).get_status() == JobStatus.QUEUED
    assert store.get_result(conn, second) is None
    conn.close()


def test_a_replay_job_given_its_first_read_answers_as_when_it_reads_it(
        redis_url: str, redis_db: redis.Redis, monkeypatch: Any) -> None:
    """worker.jobs.PREFETCHED: the values a worker read for a replay job in the transaction that
    started it give the same answer and the same stored result as the job's own read; values read
    for another replay are not used, and they are used once."""
    import rq.job

    from worker import jobs

    conn, _, queue = queue_on(redis_url)
    rid, log = stored(conn, "prefetch-1")
    other, _ = stored(conn, "prefetch-2")

    def run(prefetch: Any) -> dict:
        job = queue.enqueue(REPLAY_JOB, rid)
        if prefetch is not None:
            setattr(job, jobs.PREFETCHED, prefetch)
        token = rq.job._current_job.set(job)  # (what RQ's Job.perform sets while the job runs)
        try:
            return jobs.replay_stored(rid)
        finally:
            rq.job._current_job.reset(token)
            assert getattr(job, jobs.PREFETCHED, None) is None  # used (or refused) once

    own = run(None)  # reads the keys itself: computes and stores the result
    stored_result = store.get_result(conn, rid)
    assert own["delivered"] is True and stored_result == json.loads(json.dumps(replay_json(log)))
    again = run(None)  # a second run: the result is there
    conn.delete(store.result_key(rid))
    keys = store.result_or_log_keys(rid)
    before = conn.mget(keys)  # (the log, no result)
    reads: list = []
    real = store.get_result_or_log
    monkeypatch.setattr(store, "get_result_or_log", lambda r, replay_id: reads.append(replay_id) or real(r, replay_id))
    assert run((rid, before)) == own and reads == []  # given: not read again, the same answer
    assert store.get_result(conn, rid) == stored_result
    assert run((rid, conn.mget(keys))) == again and reads == []  # given with the result: a second run
    assert run((other, conn.mget(store.result_or_log_keys(other)))) == again and reads == [rid]  # not its own
    conn.close()


def test_a_light_replay_jobs_result_written_with_its_end_answers_as_the_jobs_own_write(
        redis_url: str, redis_db: redis.Redis, monkeypatch: Any) -> None:
    """worker.jobs.ResultOffer: a light replay job's result written in the transaction that finishes
    it (a real ArbiterWorker's perform_light, in this process) is the result, the answer and RQ's
    record of the job's own write (worker.jobs.replay_stored without the offer); when another run
    writes a result while the job runs, that result stays, the job's answer says it did not deliver
    it, a stale replay error goes all the same, and the job finishes."""
    from worker import jobs
    from worker.workers import ArbiterWorker

    conn, cfg, queue = queue_on(redis_url, job_retries=0)
    worker = ArbiterWorker([queue], connection=conn)

    def perform(rid: str) -> Any:
        job = enqueue_replay(queue, rid, cfg, light=True)
        assert conn.lpop(queue.key) == job.id.encode()  # (dequeued)
        assert worker.perform_light(job, queue) is True
        return queue.fetch_job(job.id)

    import rq.job

    rid, _ = stored(conn, "offer-1")
    token = rq.job._current_job.set(queue.enqueue(REPLAY_JOB, rid))  # (as RQ's Job.perform sets it)
    try:  # the job's own write (no worker: no offer)
        own = jobs.replay_stored(rid)
    finally:
        rq.job._current_job.reset(token)
    own_result = conn.get(store.result_key(rid))
    assert own == {"replay": rid, "ok": True, "outcome": "ok", "delivered": True, "valid": True}
    queue.empty()
    conn.delete(store.result_key(rid))
    job = perform(rid)
    assert conn.get(store.result_key(rid)) == own_result
    assert job.get_status() == JobStatus.FINISHED
    assert job.return_value() == own

    raced, _ = stored(conn, "offer-2")
    other = {"valid": True, "steps": 0, "written": "by another run"}
    real = jobs.replay_json

    def racing(log: Any) -> dict:  # another run writes its result while this one replays
        result = real(log)
        other_conn = redis.Redis.from_url(redis_url)
        store.put_result(other_conn, raced, other)
        other_conn.set(store.replay_error_key(raced), json.dumps({"kind": "ceiling"}))  # (stale)
        other_conn.close()
        return result

    monkeypatch.setattr(jobs, "replay_json", racing)
    job = perform(raced)
    assert store.get_result(conn, raced) == other and store.get_replay_error(conn, raced) is None
    assert job.get_status() == JobStatus.FINISHED
    assert job.return_value() == {"replay": raced, "ok": True, "outcome": "ok", "delivered": False, "valid": True}
    assert conn.connection_pool._created_connections <= 3  # (the watching connection went back to the pool)
    conn.close()


def staged(conn: redis.Redis, log: Any) -> str:
    """``log`` staged as the batch stages a new one (unchecked); its ID."""
    rid, text = batch.unchecked_canonical(log)
    store.stage_logs(conn, [(rid, text)])
    return rid


def test_the_batchs_new_logs_are_checked_by_their_light_jobs(redis_url: str, redis_db: redis.Redis,
                                                            tmp_path: Path) -> None:
    """Through a real forking worker (light jobs, their records written with the job's end): a staged
    well-formed log is stored, listed and replayed, a malformed one dropped with its faults; the
    batch's lines are a replay's here, and the jobs' answers say so."""
    good = play_game("staged-1", "AW-H", "AW-V", policy="heuristic").log
    bad = {**good, "steps": [*good["steps"][:3], {"by": "p1"}]}
    files = []
    for name, log in (("good", good), ("bad", bad)):
        files.append(tmp_path / f"{name}.json")
        files[-1].write_text(json.dumps(log), encoding="utf-8")
    conn = redis.Redis.from_url(redis_url)
    batch.run_queued(files, conn, timeout=0)
    jobs = {job.meta["replay"]: job for job in make_queue(conn).jobs}
    assert all(job.meta.get(LIGHT) for job in jobs.values()) and len(jobs) == 2
    burst(redis_url, tmp_path)
    good_id, bad_id = (batch.unchecked_canonical(log)[0] for log in (good, bad))
    answers = {rid: make_queue(conn).fetch_job(job.id).return_value() for rid, job in jobs.items()}
    assert answers[good_id] == {"replay": good_id, "ok": True, "outcome": "ok", "delivered": True, "valid": True}
    assert answers[bad_id] == {"replay": bad_id, "ok": False, "outcome": "malformed", "delivered": True}
    assert store.get_log(conn, good_id) == good and conn.zscore(store.INDEX_KEY, good_id) is not None
    assert conn.ttl(store.log_key(good_id)) == -1  # (moved from the staged key: its TTL did not follow)
    assert store.get_result(conn, good_id) == json.loads(json.dumps(replay_json(good)))
    assert not conn.exists(store.log_key(bad_id)) and conn.zscore(store.INDEX_KEY, bad_id) is None
    assert store.get_replay_error(conn, bad_id)["faults"] == replay_json(bad)["faults"]
    assert conn.keys("arbiter:replay:*:staged") == []
    assert batch.run_queued(files, conn, timeout=5) == batch.run_local(files, 1)
    conn.close()


def test_a_staged_log_raced_by_another_write_is_stored_once(redis_url: str, redis_db: redis.Redis,
                                                           monkeypatch: Any) -> None:
    """A light job's staged log, while the job replays it: another run stores it with its result
    (that result stays, the job did not deliver it), or the batch stages it again (the job stores it
    all the same); either way the log is stored once, listed once, its staged copy gone. A staged
    log whose replay finds a fault its parse does not (a position that cannot be set up) is stored
    with that result, as the API stores it."""
    import rq.job

    from worker import jobs
    from worker.workers import ArbiterWorker

    conn, cfg, queue = queue_on(redis_url, job_retries=0)
    worker = ArbiterWorker([queue], connection=conn)
    real = jobs.replay_json

    def perform(rid: str, meanwhile: Any) -> Any:
        def racing(log: Any) -> dict:
            result = real(log)
            other = redis.Redis.from_url(redis_url)
            meanwhile(other, rid)
            other.close()
            return result

        monkeypatch.setattr(jobs, "replay_json", racing)
        job = enqueue_replay(queue, rid, cfg, light=True)
        assert conn.lpop(queue.key) == job.id.encode()
        assert worker.perform_light(job, queue) is True
        monkeypatch.setattr(jobs, "replay_json", real)
        return queue.fetch_job(job.id)

    other_result = {"valid": True, "steps": 0, "written": "by another run"}

    def another_run(other: redis.Redis, rid: str) -> None:  # (its job's own write)
        text = other.get(store.staged_key(rid))
        offer = jobs.ResultOffer(rid)
        offer.text, offer.staged = store.dumps(other_result), (json.loads(text), text)
        assert offer.write(other) is True

    def staged_again(other: redis.Redis, rid: str) -> None:  # (a re-run of the batch)
        store.stage_logs(other, [(rid, other.get(store.staged_key(rid)))])

    for n, (meanwhile, delivered) in enumerate(((another_run, False), (staged_again, True))):
        log = play_game(f"staged-race-{n}", "AW-H", "AW-V", policy="heuristic").log
        rid = staged(conn, log)
        job = perform(rid, meanwhile)
        assert job.get_status() == JobStatus.FINISHED
        assert job.return_value() == {"replay": rid, "ok": True, "outcome": "ok", "delivered": delivered,
                                      "valid": True}
        want = other_result if not delivered else json.loads(json.dumps(replay_json(log)))
        assert store.get_result(conn, rid) == want and store.get_log(conn, rid) == log
        assert conn.ttl(store.log_key(rid)) == -1 and not conn.exists(store.staged_key(rid))
        assert conn.zscore(store.INDEX_KEY, rid) is not None

    log = play_game("staged-position", "AW-H", "AW-V", policy="heuristic").log
    rid = staged(conn, log)
    fault = {"path": "/setup/position", "message": "cannot be set up"}
    token = rq.job._current_job.set(queue.enqueue(REPLAY_JOB, rid))
    try:
        answer = jobs.replay_job(rid, lambda lg: {**real(lg), "valid": False, "faults": [fault]})
    finally:
        rq.job._current_job.reset(token)
    assert answer["outcome"] == "ok" and answer["valid"] is False and answer["delivered"] is True
    assert store.get_log(conn, rid) == log and store.get_result(conn, rid)["faults"] == [fault]
    assert store.get_replay_error(conn, rid) is None and not conn.exists(store.staged_key(rid))
    conn.close()


def test_a_light_jobs_last_transaction_takes_the_next_job(redis_url: str, redis_db: redis.Redis,
                                                          tmp_path: Path) -> None:
    """The transaction that finishes a light job takes the next job as RQ's dequeue takes it (one
    round trip fewer a job, and one fsync fewer): every job runs once, in queue order, and nothing
    is left in the intermediate list; the last take finds the queue empty."""
    conn, cfg, queue = queue_on(redis_url)
    ids = [stored(conn, f"take-{i}")[0] for i in range(4)]
    queued = [enqueue_replay(queue, rid, cfg, light=True) for rid in ids]
    conn.config_resetstat()
    burst(redis_url, tmp_path)
    stats = conn.info("commandstats")
    assert stats.get("cmdstat_eval", {}).get("calls", 0) >= len(ids)  # one take a light job (the last finds nothing)
    finished = [queue.fetch_job(job.id) for job in queued]
    assert all(job.get_status() == JobStatus.FINISHED for job in finished)
    ended = [job.ended_at for job in finished]
    assert ended == sorted(ended)  # in queue order
    assert all(store.get_result(conn, rid) is not None for rid in ids)
    assert conn.llen(queue.intermediate_queue_key) == 0 and queue.count == 0
    conn.close()


def test_a_job_taken_but_not_run_goes_back_to_the_head_of_its_queue(redis_url: str, redis_db: redis.Redis) -> None:
    """A worker that stops after a light job (here: its last job, ``max_jobs``) puts the job its last
    transaction took back at the head of the queue, where the next worker dequeues it first."""
    from worker.run import make_worker

    conn, cfg, queue = queue_on(redis_url)
    ids = [stored(conn, f"back-{i}")[0] for i in range(3)]
    queued = [enqueue_replay(queue, rid, cfg, light=True) for rid in ids]
    worker = make_worker(conn, cfg)
    worker.work(burst=True, max_jobs=1)
    assert queue.fetch_job(queued[0].id).get_status() == JobStatus.FINISHED
    assert queue.get_job_ids() == [queued[1].id, queued[2].id]
    assert conn.llen(queue.intermediate_queue_key) == 0
    assert queue.fetch_job(queued[1].id).get_status() == JobStatus.QUEUED
    conn.close()


def test_a_taken_job_whose_hash_is_gone_is_skipped(redis_url: str, redis_db: redis.Redis, tmp_path: Path) -> None:
    """A job taken whose hash is gone (expired, deleted) is skipped, as RQ's dequeue skips it; the
    worker goes on with the next."""
    conn, cfg, queue = queue_on(redis_url)
    first, second, third = (stored(conn, f"gone-{i}")[0] for i in range(3))
    enqueue_replay(queue, first, cfg, function=HEAVY + "dropping_replay", light=True)
    gone = enqueue_replay(queue, second, cfg, light=True)
    last = enqueue_replay(queue, third, cfg, light=True)
    conn.set("arbiter:test:drop", gone.id)
    burst(redis_url, tmp_path)
    assert store.get_result(conn, first) is not None and store.get_result(conn, third) is not None
    assert store.get_result(conn, second) is None
    assert queue.fetch_job(last.id).get_status() == JobStatus.FINISHED
    conn.close()


def test_a_replay_jobs_last_transaction_starts_the_job_taken_next(redis_url: str, redis_db: redis.Redis,
                                                                  tmp_path: Path) -> None:
    """With jobs queued behind it, a plain replay job's last transaction also writes RQ's start of the
    job taken before it (one write transaction a job, where a start and an end made two): every job
    runs once, in queue order, each leaves what the first (started on its own) leaves, and nothing is
    left taken, started or queued."""
    conn, cfg, queue = queue_on(redis_url)
    ids = [stored(conn, f"ahead-{i}")[0] for i in range(9)]

    def transactions(jobs: list[Any]) -> int:
        conn.config_resetstat()
        burst(redis_url, tmp_path)
        assert all(queue.fetch_job(job.id).get_status() == JobStatus.FINISHED for job in jobs)
        calls: int = conn.info("commandstats").get("cmdstat_exec", {}).get("calls", 0)
        return calls

    alone = transactions([enqueue_replay(queue, ids[0], cfg, light=True)])  # (a worker's own ones beside)
    queued = [enqueue_replay(queue, rid, cfg, light=True) for rid in ids[1:]]
    more = transactions(queued) - alone
    assert more < 1.5 * (len(queued) - 1)  # (two a job more when each job's start is a transaction of its own)
    ids = ids[1:]
    finished = [queue.fetch_job(job.id) for job in queued]
    assert all(job.get_status() == JobStatus.FINISHED for job in finished)
    ended = [job.ended_at for job in finished]
    assert ended == sorted(ended)  # in queue order
    assert all(store.get_result(conn, rid) is not None for rid in ids)
    first = _traces(conn, queued[0].id)
    assert all(_traces(conn, job.id) == first for job in finished[1:])
    assert conn.llen(queue.intermediate_queue_key) == 0 and queue.count == 0
    assert queue.started_job_registry.count == 0 and not list(conn.scan_iter("rq:execution:*"))
    conn.close()


def test_a_job_started_ahead_but_not_run_goes_back_to_the_head_of_its_queue(redis_url: str,
                                                                             redis_db: redis.Redis) -> None:
    """A worker that stops after a light job (``max_jobs``) whose last transaction started the next job
    and took another undoes that start (no execution, not in the started registry, ``queued`` again)
    and puts both back at the head of the queue, in their order."""
    from worker.run import make_worker

    conn, cfg, queue = queue_on(redis_url)
    ids = [stored(conn, f"undo-{i}")[0] for i in range(4)]
    queued = [enqueue_replay(queue, rid, cfg, light=True) for rid in ids]
    worker = make_worker(conn, cfg)
    conn.config_resetstat()
    worker.work(burst=True, max_jobs=1)
    # (the first job's start took the second; its end started the second and took the third)
    assert conn.info("commandstats").get("cmdstat_eval", {}).get("calls", 0) == 2
    assert queue.fetch_job(queued[0].id).get_status() == JobStatus.FINISHED
    assert queue.get_job_ids() == [job.id for job in queued[1:]]
    assert all(queue.fetch_job(job.id).get_status() == JobStatus.QUEUED for job in queued[1:])
    assert conn.llen(queue.intermediate_queue_key) == 0
    assert queue.started_job_registry.count == 0 and not list(conn.scan_iter("rq:execution:*"))
    assert all(store.get_result(conn, rid) is None for rid in ids[1:])
    burst_worker = make_worker(conn, cfg)  # the next worker runs them, the first put back first
    burst_worker.work(burst=True)
    finished = [queue.fetch_job(job.id) for job in queued]
    assert all(job.get_status() == JobStatus.FINISHED for job in finished)
    ended = [job.ended_at for job in finished]
    assert ended == sorted(ended)
    conn.close()


def test_a_suspension_while_a_job_runs_holds_before_the_job_taken_next(redis_url: str, redis_db: redis.Redis,
                                                                        monkeypatch: Any) -> None:
    """A job taken while a replay job runs is not started in that job's last transaction when ``rq
    suspend`` suspended the workers meanwhile (the WATCH on the flag aborts it; the job then finishes
    on its own): it is never started (no worker name, no start time) and goes back to the head of the
    queue when the burst worker stops. Were it started, the start would be undone then, but a worker
    waiting out a suspension would hold it started, its registry entry left to expire."""
    from worker import jobs
    from worker.run import make_worker

    conn, cfg, queue = queue_on(redis_url)
    ids = [stored(conn, f"hold-{i}")[0] for i in range(4)]
    queued = [enqueue_replay(queue, rid, cfg, light=True) for rid in ids]
    replay_stored = jobs.replay_stored

    def suspending(replay_id: str) -> dict[str, Any]:  # (the second job, itself started ahead)
        if replay_id == ids[1]:
            conn.set("rq:suspended", 1)  # rq suspend
        return replay_stored(replay_id)

    monkeypatch.setattr(jobs, "replay_stored", suspending)
    make_worker(conn, cfg).work(burst=True)
    done, held = [queue.fetch_job(job.id) for job in queued[:2]], [queue.fetch_job(job.id) for job in queued[2:]]
    assert all(job.get_status() == JobStatus.FINISHED for job in done)
    assert all(store.get_result(conn, rid) is not None for rid in ids[:2])
    assert queue.get_job_ids() == [job.id for job in held]
    assert all(job.get_status() == JobStatus.QUEUED and job.started_at is None and not job.worker_name
               for job in held)
    assert queue.started_job_registry.count == 0 and conn.llen(queue.intermediate_queue_key) == 0
    assert not list(conn.scan_iter("rq:execution:*"))
    conn.close()


@pytest.mark.parametrize("count", [1, 2, 4])
def test_a_shutdown_asked_while_a_light_jobs_last_writes_go_waits_for_them(redis_url: str, redis_db: redis.Redis,
                                                                            monkeypatch: Any, count: int) -> None:
    """A warm shutdown (SIGTERM) asked while a light job's last transaction is on its way finds the
    worker busy, as RQ's own worker is until a job's writes are done: the job finishes (not failed, not
    run again), the worker stops after it, and the jobs taken or started meanwhile go back to the head
    of the queue. (Were the worker idle then, RQ would raise StopRequested inside that transaction's
    round trip, and the job's failure handling would take it for the job's own failure.) One job
    alone: its transaction starts none after it; two: it takes the next; four: it starts the next."""
    import signal

    from redis.client import Pipeline
    from rq.worker import WorkerStatus

    from worker.run import make_worker

    conn, cfg, queue = queue_on(redis_url)
    ids = [stored(conn, f"warm-{i}")[0] for i in range(count)]
    queued = [enqueue_replay(queue, rid, cfg, light=True) for rid in ids]
    worker = make_worker(conn, cfg)
    asked: list[str] = []
    execute = Pipeline.execute

    def executing(pipe: Any, *args: Any, **kwargs: Any) -> Any:
        idle = ("HSET", worker.key, "state", WorkerStatus.IDLE)
        if not asked and any(tuple(command) == idle for command, _ in pipe.command_stack):  # (the job's last)
            asked.append(worker.get_state())
            worker.request_stop(signal.SIGTERM, None)
        return execute(pipe, *args, **kwargs)

    handlers = signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)
    monkeypatch.setattr(Pipeline, "execute", executing)
    try:
        worker.work(burst=True)
    finally:
        signal.signal(signal.SIGINT, handlers[0])
        signal.signal(signal.SIGTERM, handlers[1])
    first = queue.fetch_job(queued[0].id)
    assert first.get_status() == JobStatus.FINISHED and store.get_result(conn, ids[0]) is not None
    assert worker._stop_requested and asked == [WorkerStatus.BUSY]
    assert first.return_value()["delivered"] is True
    assert queue.get_job_ids() == [job.id for job in queued[1:]]
    assert all(queue.fetch_job(job.id).get_status() == JobStatus.QUEUED for job in queued[1:])
    assert queue.started_job_registry.count == 0 and queue.failed_job_registry.count == 0
    assert conn.llen(queue.intermediate_queue_key) == 0 and not list(conn.scan_iter("rq:execution:*"))
    conn.close()


def test_a_taken_job_whose_hash_holds_no_job_is_skipped(redis_url: str, redis_db: redis.Redis) -> None:
    """A job taken ahead whose hash is there but holds no job (its data gone: a hash partly written
    again after it expired) is skipped, as RQ's dequeue skips it: the job before it finishes as it
    would (not failed for it), and the ones after run."""
    from worker.run import make_worker

    conn, cfg, queue = queue_on(redis_url)
    ids = [stored(conn, f"no-data-{i}")[0] for i in range(4)]
    queued = [enqueue_replay(queue, rid, cfg, light=True) for rid in ids]
    conn.hdel(queued[1].key, "data")
    make_worker(conn, cfg).work(burst=True)
    done = [queue.fetch_job(job.id) for job in (queued[0], *queued[2:])]
    assert all(job.get_status() == JobStatus.FINISHED for job in done)
    assert all(store.get_result(conn, rid) is not None for rid in (ids[0], *ids[2:]))
    assert store.get_result(conn, ids[1]) is None and queue.failed_job_registry.count == 0
    assert queue.started_job_registry.count == 0 and not list(conn.scan_iter("rq:execution:*"))
    conn.close()


def test_a_staged_copy_of_a_log_stored_meanwhile_is_dropped_by_its_job(redis_url: str, redis_db: redis.Redis,
                                                                       tmp_path: Path) -> None:
    """A batch that read a log as new while another run stored it stages it again beside its stored
    copy; the job queued for it finds the result and drops that staged copy (it was left a week,
    never listed), the result as it was."""
    conn, cfg, queue = queue_on(redis_url)
    rid, _ = stored(conn, "restaged")
    enqueue_replay(queue, rid, cfg, light=True)
    burst(redis_url, tmp_path)
    result = store.get_result(conn, rid)
    assert result is not None
    store.stage_logs(conn, [(rid, conn.get(store.log_key(rid)))])
    assert conn.exists(store.staged_key(rid))
    enqueue_replay(queue, rid, cfg, light=True)
    burst(redis_url, tmp_path)
    assert not conn.exists(store.staged_key(rid)) and store.get_result(conn, rid) == result
    conn.close()
