"""The arbiter's RQ workers: prompt heartbeats, a frequent sweep, a ceiling in the horse, a log line.

RQ 3's defaults suit long jobs on a stable fleet; with them, a ruling whose worker was SIGKILLed
stays ``started`` for up to ~14 minutes: the job's entry in the queue's StartedJobRegistry lives
until 60 s past the last heartbeat (sent every ``job_monitoring_interval`` = 30 s), and the sweep
that re-queues abandoned entries (``StartedJobRegistry.cleanup``, in ``clean_registries``) runs
every ``maintenance_interval`` = 10 minutes, and only between two blocking dequeues of up to
``worker_ttl - 15`` = 405 s. Here:

- a busy worker beats every :data:`HEARTBEAT_EVERY` seconds, and its job's entry outlives a beat by
  :data:`HEARTBEAT_GRACE` seconds (:meth:`ArbiterWorker.get_heartbeat_ttl`);
- an idle worker wakes every ``WORKER_TTL - 15`` seconds (it beats and may sweep then);
- every worker may sweep every :data:`SWEEP_EVERY` seconds; a lock that expires by itself (it is
  never released, so no dead worker holds it) lets one sweep run per period among all the workers
  (:meth:`ArbiterWorker.clean_registries`). The sweep re-queues an abandoned job while it has
  retries left (``ARBITER_JOB_RETRIES``), after ``ARBITER_JOB_RETRY_INTERVAL`` via RQ's scheduler.

So a job whose worker died is running again within HEARTBEAT_EVERY + HEARTBEAT_GRACE +
2 * SWEEP_EVERY + a few seconds (~45 s), well inside two minutes, when another worker runs. If the
killed worker also ran RQ's scheduler, another worker takes the scheduler over when its lock
expires (61 s), which bounds a retry delay at about 80 s. A job the killed worker had taken ahead of
its run (ArbiterWorker._finish_in), in the queue's intermediate list and not yet started, waits longer:
RQ's sweep of that list fails it as stuck a minute after a sweep first saw it there, then
it is retried as above. Re-running a job is safe: records are written once (:mod:`arbiter.store`).

The forking worker sets the memory ceiling (:func:`worker.ceiling.limit_memory`) in each work horse
right after the fork. Both worker kinds log one JSON line per job (:mod:`worker.joblog`).
"""

from __future__ import annotations

import sys
import time
from typing import Any

import redis
from rq import SimpleWorker, Worker, worker_registration
from rq.exceptions import NoSuchJobError
from rq.executions import Execution
from rq.job import Job, JobStatus, Retry
from rq.queue import Queue
from rq.registry import clean_registries
from rq.suspension import WORKERS_SUSPENDED
from rq.timeouts import JobTimeoutException
from rq.utils import as_text, get_version, now
from rq.worker import WorkerStatus

from arbiter import store
from worker import ceiling, joblog, jobs
from worker.queue import LIGHT, REPLAY_JOB

#: seconds between two heartbeats of a worker whose work horse runs a job (RQ: 30)
HEARTBEAT_EVERY = 5
#: a running job's registry entry expires this many seconds after its worker's last heartbeat (RQ: 60)
HEARTBEAT_GRACE = 15
#: seconds between two sweeps of the queue's registries, among all workers (RQ: 600)
SWEEP_EVERY = 10
#: RQ's worker_ttl: an idle worker blocks on the queue for WORKER_TTL - 15 s between heartbeats (RQ: 420)
WORKER_TTL = 20
#: a heartbeat outside a pipeline is skipped when one with the same TTL went less than this many seconds
#: ago (RQ beats three times around every job, each beat three round trips to Redis)
HEARTBEAT_MIN_GAP = 1.0

SWEEP_LOCK = "arbiter:sweep:{queue}"

#: a job is taken ahead (held while the worker runs another: ArbiterWorker._finish_in) only while the
#: queue holds at least this many, so that one at least is left for a worker that comes free meanwhile
AHEAD_MIN_QUEUED = 2

# The next job, taken in the transaction that finishes a light job (ArbiterWorker._finish_in) as RQ's
# dequeue takes it (LMOVE from the queue to its intermediate list, then the job's hash), unless the
# workers are suspended or the queue holds fewer than ARGV[2] jobs. KEYS: the queue, its intermediate
# list, RQ's suspension flag; ARGV: the prefix of job hashes, the least queue length. Answers false, or
# the job's ID and its hash's fields and values, flat.
_TAKE_NEXT = """
if redis.call('EXISTS', KEYS[3]) == 1 then return false end
if redis.call('LLEN', KEYS[1]) < tonumber(ARGV[2]) then return false end
local id = redis.call('LMOVE', KEYS[1], KEYS[2], 'LEFT', 'RIGHT')
if not id then return false end
return {id, redis.call('HGETALL', ARGV[1] .. id)}
"""


class _Upkeep:
    """What both worker kinds share: the sweep and the log line. Mixed into an RQ worker class."""

    name: str
    queues: list[Queue]
    connection: Any
    maintenance_interval: int
    _exc_handlers: list[Any]
    last_cleaned_at: Any
    log: Any
    _state: str
    worker_ttl: int
    _beat: tuple[float, int] | None = None  # (monotonic time, TTL) of the last beat sent on its own
    _sent_state: str | None = None  # the state last set outside a pipeline, while no pipeline set one since

    def heartbeat(self, timeout: int | None = None, pipeline: Any = None) -> None:
        """RQ's heartbeat (the worker's last_heartbeat and the TTL of its keys), sent in one round trip
        instead of three, and not again within HEARTBEAT_MIN_GAP seconds with the same TTL (RQ beats
        before and after every dequeue and after every job: a few jobs a second would cost a dozen round
        trips each). A beat in RQ's own pipeline always goes (the pipeline's round trip is paid anyway)."""
        if pipeline is not None:
            super().heartbeat(timeout, pipeline)  # type: ignore[misc]
            return
        ttl = timeout or self.worker_ttl + 60  # (RQ's default, as RQ computes it)
        last, at = self._beat, time.monotonic()
        if last is not None and last[1] == ttl and at - last[0] < HEARTBEAT_MIN_GAP:
            return
        with self.connection.pipeline(transaction=False) as pipe:
            super().heartbeat(timeout, pipe)  # type: ignore[misc]
            pipe.execute()
        self._beat = (at, ttl)

    def set_state(self, state: str, pipeline: Any = None) -> None:
        """RQ's set_state, without a second round trip setting the state it set last on its own (RQ
        sets ``idle`` after a job and again before the next dequeue)."""
        if pipeline is None:
            if state == self._sent_state:
                self._state = state
                return
            self._sent_state = state
        else:
            self._sent_state = None
        super().set_state(state, pipeline)  # type: ignore[misc]

    def clean_registries(self) -> None:
        """RQ's sweep of each queue (abandoned jobs re-queued, stale workers dropped), at most once per
        SWEEP_EVERY among all workers. Unlike RQ's maintenance lock (899 s, released after the sweep),
        this lock is never released, so a worker killed mid-sweep blocks no one for long."""
        for queue in self.queues:
            lock = SWEEP_LOCK.format(queue=queue.name)
            if self.connection.set(lock, self.name, nx=True, ex=max(int(self.maintenance_interval), 1)):
                self.log.debug("Worker %s: sweeping the registries of queue %s", self.name, queue.name)
                clean_registries(queue, self._exc_handlers)
                worker_registration.clean_worker_registry(queue)
                queue.intermediate_queue.cleanup(self, queue)  # type: ignore[arg-type]
        self.last_cleaned_at = now()

    def execute_job(self, job: Job, queue: Queue) -> None:
        started = time.monotonic()
        try:
            super().execute_job(job, queue)  # type: ignore[misc]
        finally:
            joblog.emit(job, self.name, time.monotonic() - started)


def _light(job: Job) -> bool:
    return bool((job.meta or {}).get(LIGHT))


def _replay_of(job: Job) -> str | None:
    """The replay ID of a replay job (``worker.jobs.replay_stored(replay_id)``), else None."""
    try:
        if job.func_name != REPLAY_JOB:
            return None
        args = job.args
    except Exception:  # a payload that does not deserialize: RQ fails the job when it runs it
        return None
    if len(args) == 1 and not job.kwargs and isinstance(args[0], str):
        return args[0]
    return None


def _plain(job: Job) -> bool:
    """Whether RQ's success handling of ``job`` reduces to recording its value, unless the value is a
    ``Retry`` (no callback, repeat, rate limit or webhook to act on)."""
    return job.success_callback is None and not job.repeats_left and not job.has_rate_limit and not job.webhooks


def _watch_and_read(watcher: Any, keys: list[str]) -> list[Any]:
    """WATCH ``keys`` on the pipeline ``watcher`` (its later MULTI/EXEC and its reset go on the same
    connection, as after ``watcher.watch(*keys)``) and read their values after the WATCH, both in one
    round trip (``watch`` then ``mget`` would make two: a watching pipeline runs each command at once)."""
    conn = watcher.connection_pool.get_connection()
    watcher.connection = conn  # (reset() releases it, with an UNWATCH while watching)
    conn.send_packed_command(conn.pack_commands([("WATCH", *keys), ("MGET", *keys)]))
    conn.read_response()  # (OK)
    watcher.watching = True
    values: list[Any] = conn.read_response()
    return values


class _Sent:
    """A transaction (MULTI, ``commands`` as a pipeline holds them, EXEC) sent at once on a connection
    of its own, its replies read by :meth:`wait`. A light replay job's first transaction (what RQ writes
    before a job runs) goes so, its job running meanwhile: under ``appendfsync always`` Redis answers a
    write after its fsync, which the job's run now covers instead of the worker waiting on it (one fsync
    a job waited for, not two). What the job reads first was read before it (``_watch_and_read``), in a
    round trip of reads only that no fsync of this worker's holds up. Its replies are read before the
    worker writes anything else for the job (so Redis applies RQ's writes in RQ's order), and an error
    in them is raised then, as ``pipe.execute()`` raises it."""

    def __init__(self, client: Any, commands: list[tuple[tuple[Any, ...], dict[str, Any]]]):
        self._pool = client.connection_pool
        self._count = len(commands)
        conn = self._pool.get_connection()
        try:
            conn.send_packed_command(conn.pack_commands([("MULTI",), *(args for args, _ in commands), ("EXEC",)]))
        except BaseException:
            conn.disconnect()
            self._pool.release(conn)
            raise
        self._conn: Any = conn

    def wait(self) -> list[Any]:
        """Read the transaction's replies (once; [] after that) and return them; raise its first error."""
        conn, self._conn = self._conn, None
        if conn is None:
            return []
        first: redis.ResponseError | None = None
        replies: Any = None
        try:
            for _ in range(self._count + 1):  # MULTI's OK, then each command's QUEUED
                try:
                    conn.read_response()
                except redis.ResponseError as exc:  # (a command refused as queued: EXEC aborts)
                    first = first or exc
            try:
                replies = conn.read_response()
            except redis.ResponseError as exc:
                first = first or exc
        except BaseException:
            conn.disconnect()  # (replies may be left unread: not for another command to read)
            raise
        finally:
            self._pool.release(conn)
        if first is None and replies is None:
            first = redis.ResponseError("the transaction was not applied")
        first = first or next((r for r in replies if isinstance(r, redis.ResponseError)), None)
        if first is not None:
            raise first
        return list(replies)


class ArbiterWorker(_Upkeep, Worker):
    """A forking worker: each job runs in a work horse under the time and memory ceilings, except a
    light one (a replay whose work fits ``MAX_STEPS_IN_REQUEST``, which the API does in a request
    itself, with no memory ceiling either): that runs in the worker's own process under the time
    ceiling, as a simple worker runs it. A horse costs more than such a job's replay: its fork, then
    a copy of every page the replay touches (copy-on-write, Python's reference counts write to each
    object read), then its exit; about 6-10 ms of CPU a job (bench_batch)."""

    def __init__(self, *args: Any, memory_mb: int = 0, **kwargs: Any):
        kwargs.setdefault("job_monitoring_interval", HEARTBEAT_EVERY)
        kwargs.setdefault("maintenance_interval", SWEEP_EVERY)
        kwargs.setdefault("worker_ttl", WORKER_TTL)
        super().__init__(*args, **kwargs)
        self.memory_mb = memory_mb
        self._not_suspended = False  # the last light job's transaction found the workers not suspended
        self._taken: tuple[bytes, list[bytes]] | None = None  # the next job, taken in that transaction
        # the next job, taken earlier and started in that transaction (its start written: _start_in)
        self._ahead: tuple[Job, Queue, Execution] | None = None
        self._running_ahead: Execution | None = None  # the execution of the job run now, if started so

    def get_heartbeat_ttl(self, job: Job, working_time: float = 0.0) -> int:
        """A running job's registry entry lives HEARTBEAT_GRACE past the next beat due.

        RQ shortens it as the job nears its timeout; not here: the worker itself kills a horse that
        overruns (at timeout + 60 s), and until then the job is not abandoned. A light job, run in
        the worker's own process (no beats while it runs), holds its entry as a simple worker's
        does: its time ceiling plus 60 s."""
        if _light(job):
            return SimpleWorker.get_heartbeat_ttl(self, job, working_time)  # type: ignore[arg-type]
        return self.job_monitoring_interval + HEARTBEAT_GRACE

    def execute_job(self, job: Job, queue: Queue) -> None:
        """A light job in this process (:meth:`perform_light`), any other in a work horse."""
        if not _light(job):
            super().execute_job(job, queue)
            return
        started = time.monotonic()
        finished = False
        try:
            finished = self.perform_light(job, queue)
            if self._ahead is None:  # (else busy: the next job was started in the job's last transaction)
                self.set_state(WorkerStatus.IDLE)
        finally:
            if finished:  # its value is at hand (Job.perform keeps it): not read back from Redis
                joblog.emit(job, self.name, time.monotonic() - started, job._result)
            else:
                joblog.emit(job, self.name, time.monotonic() - started)

    def perform_light(self, job: Job, queue: Queue) -> bool:
        """RQ's ``prepare_execution`` then ``perform_job`` (as ``SimpleWorker.execute_job`` runs a job),
        for a light job in three round trips to Redis instead of eight (two for a job started ahead, see
        below): what RQ writes before the job runs goes in one transaction (RQ: two), and what it writes
        after a job that returned a plain value in one (RQ: a job heartbeat, then WATCH and SMEMBERS of
        the job's dependents, then the transaction, then the worker's idle state). The writes are RQ's
        own, in RQ's order. A replay job's first read (its stored result, else its log, else the log the
        batch staged: ``store.result_or_log_keys``) is read by the worker, and the job takes it from there
        (``worker.jobs.PREFETCHED``) instead of asking Redis again; its result (and a staged log's move
        to its stored place, or its faults) is written in the last transaction
        (``worker.jobs.ResultOffer``: one write a job, one fsync under ``appendfsync always``, where the
        job's own write made two), on a connection that watched those keys before the job read them.
        For a plain replay job the WATCH and that read go in one round trip of reads, then the first
        transaction is sent and the job runs without waiting for its answer (``_Sent``: its fsync
        under ``appendfsync always`` is covered by the job's run; its answer is read before anything
        else is written for the job); for any other light job the read ends the first transaction.

        A light job has no dependents to release: only ``enqueue_replays`` queues light jobs, and
        nothing is queued to depend on a replay job. A job with a success callback, repeats, a rate
        limit or webhooks, or one that returned ``Retry``, finishes through RQ's own path; so does a
        job that raised (its failure, the time ceiling included, is RQ's to record).

        The last transaction also takes the next job, as RQ's dequeue would take it next (``_TAKE_NEXT``:
        LMOVE to the intermediate list, then the job's hash; RQ: two round trips, the first one more
        write and fsync): the next loop runs it (``dequeue_job_and_maintain_ttl``), and a worker that
        stops first puts it back at the head of its queue (``teardown``). With one worker, 2,000 light
        jobs ran at 150-155 logs/s instead of 126-135 (bench_batch's logs, same minutes).

        A plain replay job's last transaction also starts the next job when that one was taken while
        the job ran (its first transaction takes it, or the last job's transaction, while the queue holds
        AHEAD_MIN_QUEUED jobs or more: one is left for a worker that comes free meanwhile): what RQ
        writes before that job runs goes in this transaction (``_start_in``) and the one after is taken,
        so that each job costs one write transaction, one fsync under ``appendfsync always``, not two:
        Redis's fsyncs held both workers up with the cores idle (bench_batch, two workers: 1.37-1.44x one
        worker with each job's start a transaction of its own, 1.55-1.61x with no start at all). The
        WATCH covers RQ's suspension flag too, so a suspension made while the job ran aborts the
        transaction (then the job finishes on its own and the next is not started). A worker that stops
        before it runs the job started ahead undoes its start and puts it back at the head of its queue
        (``teardown``)."""
        replay_id = _replay_of(job)
        ahead, self._running_ahead = self._running_ahead, None  # (this job started ahead: its execution)
        offer = watcher = read = None
        suspended = True
        if replay_id is not None and _plain(job):
            watcher = self.connection.pipeline()
            read = _watch_and_read(watcher, [*store.result_or_log_keys(replay_id), WORKERS_SUSPENDED])
            suspended = read.pop() is not None
            offer = jobs.ResultOffer(replay_id)
        try:
            return self._perform_light(job, queue, replay_id, offer, watcher, read, ahead, suspended)
        finally:
            if watcher is not None:
                watcher.reset()  # (the connection back to the pool; UNWATCH when the offer went unused)

    def _start_in(self, pipe: Any, job: Job, queue: Queue) -> Execution:
        """What RQ writes before ``job`` runs (``prepare_execution``, ``prepare_job_execution``), added to
        the transaction ``pipe``; the job's execution."""
        ttl = self.get_heartbeat_ttl(job)
        execution = Execution.create(job, ttl, pipeline=pipe, worker_name=self.name)
        self.executions[execution.id] = execution
        self.set_state(WorkerStatus.BUSY, pipeline=pipe)
        self.heartbeat(ttl, pipeline=pipe)
        job.heartbeat(now(), ttl, pipeline=pipe)
        job.prepare_for_execution(self.name, pipeline=pipe)
        pipe.persist(job.key)
        if len(self.queues) == 1:
            pipe.lrem(queue.intermediate_queue_key, 1, job.id)
        return execution

    def _perform_light(self, job: Job, queue: Queue, replay_id: str | None, offer: jobs.ResultOffer | None,
                       watcher: Any, read: list[Any] | None, ahead: Execution | None, suspended: bool) -> bool:
        sent: _Sent | None = None
        take = False
        if ahead is not None:  # started in the last job's transaction
            execution = ahead
        else:
            with self.connection.pipeline() as pipe:  # prepare_execution + prepare_job_execution
                execution = self._start_in(pipe, job, queue)
                if read is not None:  # (read with the WATCH: this transaction is not waited for)
                    take = not suspended and self._may_take_next()
                    if take:  # the next job, to start in this one's last transaction
                        self._take_in(pipe, AHEAD_MIN_QUEUED)
                    sent = _Sent(self.connection, pipe.command_stack)
                else:
                    if replay_id is not None:  # what the job reads first, read in this round trip instead
                        pipe.mget(store.result_or_log_keys(replay_id))
                    replies = pipe.execute()
                    read = replies[-1] if replay_id is not None else None
        if replay_id is not None:
            setattr(job, jobs.PREFETCHED, (replay_id, read))
        if offer is not None:
            setattr(job, jobs.RESULT_OFFER, offer)
        try:
            job.started_at = now()
            timeout = job.timeout or self.queue_class.DEFAULT_TIMEOUT
            with self.death_penalty_class(timeout, JobTimeoutException, job_id=job.id):
                value = job.perform()
            if sent is not None:  # (what RQ wrote before the job, written before what it writes after)
                self._took(sent.wait(), take)
                sent = None
            if offer is not None and offer.taken:  # (a plain job that returned its value)
                self._finish_light(job, execution, value, offer, watcher, ahead=not suspended)
            elif _plain(job) and not isinstance(value, Retry):
                self._finish_light(job, execution, value)
            else:
                self._finalize_success(job, queue, execution, value)
        except:  # noqa: E722 -- as RQ's perform_job: whatever the job raised is its failure
            failure = sys.exc_info()
            if sent is not None:
                self._took(sent.wait(), take)
            self._finalize_failure(job, queue, execution, failure)
            return False
        return True

    def _take_in(self, pipe: Any, least: int) -> None:
        """The next job taken in the transaction ``pipe`` (its reply last), while the queue holds
        ``least`` jobs or more (``_TAKE_NEXT``)."""
        queue = self.queues[0]
        pipe.eval(_TAKE_NEXT, 3, queue.key, queue.intermediate_queue_key, WORKERS_SUSPENDED,
                  self.job_class.redis_job_namespace_prefix, least)

    def _took(self, replies: list[Any], take: bool) -> None:
        """The job a transaction's last reply took (``_take_in``), kept for the next loop."""
        if take and replies:
            taken = replies[-1]
            self._taken = (taken[0], taken[1]) if taken else None

    def _finish_light(self, job: Job, execution: Execution, value: Any, offer: jobs.ResultOffer | None = None,
                      watcher: Any = None, *, ahead: bool = False) -> None:
        """RQ's ``handle_job_success`` for a job without dependents, the worker's idle state with it, and
        the writes ``offer`` took first (on ``watcher``, which watches the keys the job read and RQ's
        suspension flag: see ``perform_light``; ``ahead``: the flag was not set then, and the job taken
        next may be started in the same transaction)."""
        if offer is not None and offer.taken:
            try:
                watcher.multi()
                offer.queue(watcher, watched=True)
                self._finish_in(watcher, job, execution, value, ahead=ahead)
                return
            except redis.WatchError:  # a key the job read changed since: nothing of this went
                if not offer.write(self.connection):
                    value = offer.lost  # (put_result's own answer: another run wrote it)
        with self.connection.pipeline() as pipe:
            self._finish_in(pipe, job, execution, value)

    def _finish_in(self, pipe: Any, job: Job, execution: Execution, value: Any, *, ahead: bool = False) -> None:
        """``_finish_light``'s commands, in the transaction ``pipe``, sent; with ``ahead``, the start of
        the job taken next when it is a plain replay job (``_start_in``), and another taken."""
        job.ended_at = ended = now()
        started = job.started_at
        assert started is not None  # (set before the job ran)
        job._result = value
        job._status = JobStatus.FINISHED
        result_ttl = job.get_result_ttl(self.default_result_ttl)
        self.increment_successful_job_count(pipeline=pipe)
        self.increment_total_working_time(ended - started, pipe)
        if result_ttl != 0:
            job._handle_success(result_ttl, pipeline=pipe, worker_name=self.name, execution_id=execution.id,
                                execution_started_at=execution.created_at, execution_ended_at=ended)
        job.cleanup(result_ttl, pipeline=pipe, remove_from_queue=False)
        self.cleanup_execution(job, pipeline=pipe, execution=execution)
        # the worker's idle state, as RQ's set_state writes it, but not taken as the state here yet: until
        # the job's writes are applied the worker is busy with it, and a shutdown asked meanwhile (SIGTERM)
        # waits for the job as RQ's own waits (it raises StopRequested at once in an idle worker, which
        # the job's failure handling would take for the job's own failure); execute_job sets it after
        pipe.hset(self.key, "state", WorkerStatus.IDLE)
        self._sent_state = None
        self.heartbeat(pipeline=pipe)  # what RQ's suspension check before the next dequeue sends...
        pipe.exists(WORKERS_SUSPENDED)  # ...and reads
        suspended_at = len(pipe.command_stack) - 1
        taken = self._taken
        following = self._startable(taken) if ahead and taken is not None else None
        started_next: Execution | None = None
        if following is not None:  # the job taken next, started here (what RQ writes before it runs)
            self._taken = None
            started_next = self._start_in(pipe, *following)
        take = self._may_take_next()
        if take:  # ...and the next job, as RQ's dequeue would take it next (held a while when one starts)
            self._take_in(pipe, AHEAD_MIN_QUEUED if following is not None else 1)
        try:
            replies = pipe.execute()
        except BaseException:
            if started_next is not None:  # (nothing of it went: the job stays taken, not started)
                self._taken = taken
                self.executions.pop(started_next.id, None)
            raise
        self._not_suspended = not replies[suspended_at]
        self._took(replies, take)
        if following is not None and started_next is not None:
            self._ahead = (following[0], following[1], started_next)
            self._sent_state = WorkerStatus.BUSY  # (the next job's state, sent)
        else:
            self._sent_state = WorkerStatus.IDLE  # (sent: the set_state after the job need not send it again)

    def _startable(self, taken: tuple[bytes, list[bytes]]) -> tuple[Job, Queue] | None:
        """The job ``taken`` (its ID and hash), when it may be started ahead: a plain light replay job,
        on a worker with one queue not asked to stop; else None (it runs as a taken job does)."""
        job_id, fields = taken
        if not fields or len(self.queues) != 1 or self._stop_requested:
            return None
        try:
            job = self._restored(job_id, fields)
        except NoSuchJobError:  # (a hash without the job's data: the next dequeue skips it, as RQ's does)
            return None
        if not (_light(job) and _plain(job) and _replay_of(job) is not None):
            return None
        return job, self.queues[0]

    def _restored(self, job_id: bytes, fields: list[bytes]) -> Job:
        """A job read from the hash fields taken with it, as RQ's dequeue reads it (``Job.fetch``)."""
        job = self.job_class(as_text(job_id), connection=self.connection, serializer=self.serializer)
        job.restore(dict(zip(fields[::2], fields[1::2], strict=True)))
        job.redis_server_version = self.get_redis_server_version()
        return job

    def _may_take_next(self) -> bool:
        """Whether the transaction that finishes a light job takes the next job too: one queue (RQ's
        dequeue with several lists pops from the first that has a job, with no intermediate list), a
        Redis that has LMOVE (6.2), the worker not asked to stop."""
        return (len(self.queues) == 1 and not self._stop_requested and self._taken is None
                and get_version(self.connection) >= (6, 2, 0))

    def dequeue_job_and_maintain_ttl(self, timeout: int | None,
                                     max_idle_time: int | None = None) -> tuple[Job, Queue] | None:
        """The job the last light job's transaction started (``_finish_in``: it runs on the execution
        written there), else the one a transaction took, else RQ's dequeue. A taken job is read from
        the hash taken with it, as RQ's dequeue reads it (``Job.fetch``); a job whose hash is gone is
        skipped, as RQ skips it (its ID left in the intermediate list, which RQ's sweep clears)."""
        ahead, self._ahead = self._ahead, None
        if ahead is not None:
            job, queue, execution = ahead
            self._running_ahead = execution
        else:
            taken, self._taken = self._taken, None
            job_ = None
            if taken is not None and taken[1]:
                try:
                    job_ = self._restored(*taken)
                except NoSuchJobError:  # (its hash holds no job: skipped, as RQ's dequeue skips it)
                    job_ = None
            if job_ is None:
                found: tuple[Job, Queue] | None = super().dequeue_job_and_maintain_ttl(timeout, max_idle_time)
                return found
            job, queue = job_, self.queues[0]
            # busy from here (RQ: once its start is written): a shutdown asked before the start waits for
            # the job, which is no longer in the queue, rather than stopping with it taken
            self._state = WorkerStatus.BUSY
        self.reorder_queues(reference_queue=queue)
        self.log.info("Worker %s: %s: %s", self.name, queue.name, job.id)
        return job, queue

    def teardown(self) -> None:
        """RQ's teardown, after the jobs taken or started but not run (the worker stopped first) are put
        back at the head of their queue, the one started first (its start undone: its execution ended,
        its status ``queued`` again)."""
        ahead, self._ahead = self._ahead, None
        taken, self._taken = self._taken, None
        if (ahead is not None or taken is not None) and not self.is_horse:
            queue = self.queues[0]
            try:
                with self.connection.pipeline() as pipe:
                    if taken is not None:
                        pipe.lrem(queue.intermediate_queue_key, 1, taken[0])
                        pipe.lpush(queue.key, taken[0])
                    if ahead is not None:
                        job, _, execution = ahead
                        self.cleanup_execution(job, pipeline=pipe, execution=execution)
                        job.set_status(JobStatus.QUEUED, pipeline=pipe)
                        pipe.lpush(queue.key, job.id)
                    pipe.execute()
            except redis.RedisError as exc:  # (RQ's sweep fails it after a minute in the intermediate list,
                # or re-queues the one started once its registry entry expires)
                self.log.warning("Worker %s: could not put jobs %s back in their queue: %s", self.name,
                                 ", ".join(as_text(j) for j in (ahead[0].id if ahead else None,
                                                                taken[0] if taken else None) if j), exc)
        super().teardown()

    def check_for_suspension(self, burst: bool) -> None:
        """RQ's check (a beat, then whether ``rq suspend`` suspended the workers), unless the light job
        just finished made it in its last transaction and found the workers not suspended."""
        if self._not_suspended:
            self._not_suspended = False
            return
        super().check_for_suspension(burst)

    def main_work_horse(self, job: Job, queue: Queue) -> None:
        """In the forked horse: set the memory ceiling, then run the job as RQ does."""
        try:
            ceiling.limit_memory(self.memory_mb)
        except (OSError, ValueError) as exc:  # an OS that refuses RLIMIT_AS: run without it, say so
            self.log.warning("Worker %s: no memory ceiling for job %s: %s", self.name, job.id, exc)
        super().main_work_horse(job, queue)


class ArbiterSimpleWorker(_Upkeep, SimpleWorker):
    """Runs jobs in its own process (``arbiter worker --simple``, the tests' ``run_jobs``): the time
    ceiling holds, the memory ceiling does not (it would bind the worker itself)."""

    def __init__(self, *args: Any, **kwargs: Any):
        kwargs.setdefault("maintenance_interval", SWEEP_EVERY)
        kwargs.setdefault("worker_ttl", WORKER_TTL)
        super().__init__(*args, **kwargs)
