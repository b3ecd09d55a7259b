"""A light replay job's first transaction is sent and not waited for while the job runs
(``worker.workers._Sent``), and what the job reads first is read with the WATCH in one round trip
(``worker.workers._watch_and_read``): the transaction's writes land, in RQ's order, before the job's
last writes; its errors are raised as a pipeline raises them; connections go back to the pool."""

from __future__ import annotations

from typing import Any

import pytest
import redis
from rq.job import JobStatus

from arbiter import store
from tests.worker.test_light_jobs import _traces, queue_on, stored
from worker.queue import enqueue_replay
from worker.workers import ArbiterWorker, _Sent, _watch_and_read


def _stack(*commands: tuple[Any, ...]) -> list[tuple[tuple[Any, ...], dict[str, Any]]]:
    return [(command, {}) for command in commands]


def test_a_sent_transaction_is_applied_when_waited_for(redis_url: str, redis_db: redis.Redis) -> None:
    conn = redis.Redis.from_url(redis_url)
    sent = _Sent(conn, _stack(("SET", "t:a", "1"), ("INCR", "t:a"), ("RPUSH", "t:l", "x")))
    assert conn.connection_pool._created_connections == 1  # (its own connection, taken from the pool)
    sent.wait()
    assert redis_db.get("t:a") == "2" and redis_db.lrange("t:l", 0, -1) == ["x"]
    sent.wait()  # (once: a second wait reads nothing)
    assert conn.connection_pool._created_connections == 1 and len(conn.connection_pool._available_connections) == 1
    assert conn.ping()  # the connection read to its end: the next command reads its own reply
    conn.close()


def test_a_sent_transactions_error_is_raised_and_the_connection_stays_usable(
        redis_url: str, redis_db: redis.Redis) -> None:
    conn = redis.Redis.from_url(redis_url)
    redis_db.set("t:s", "text")
    # an error when run (INCR of a text): Redis applies the rest, the error is raised as execute() raises it
    sent = _Sent(conn, _stack(("SET", "t:b", "1"), ("INCR", "t:s"), ("SET", "t:c", "2")))
    with pytest.raises(redis.ResponseError, match="not an integer"):
        sent.wait()
    assert redis_db.get("t:b") == "1" and redis_db.get("t:c") == "2"
    # an error when queued (a wrong number of arguments): EXEC aborts, nothing is applied
    sent = _Sent(conn, _stack(("SET", "t:d", "1"), ("GET",), ("SET", "t:e", "2")))
    with pytest.raises(redis.ResponseError, match="wrong number of arguments"):
        sent.wait()
    assert redis_db.get("t:d") is None and redis_db.get("t:e") is None
    assert conn.get("t:b") == b"1"  # every reply read: the pooled connection answers its next command
    conn.close()


def test_a_watch_and_its_read_go_in_one_round_trip_and_guard_the_transaction(
        redis_url: str, redis_db: redis.Redis) -> None:
    conn = redis.Redis.from_url(redis_url)
    redis_db.set("w:a", "1")
    watcher = conn.pipeline()
    assert _watch_and_read(watcher, ["w:a", "w:none"]) == [b"1", None]
    watcher.multi()
    watcher.set("w:a", "2")
    assert watcher.execute() == [True]  # nothing changed the watched keys
    watcher.reset()
    assert _watch_and_read(watcher, ["w:a"]) == [b"2"]
    redis_db.set("w:a", "3")  # another client changes a watched key: the transaction is not applied
    watcher.multi()
    watcher.set("w:a", "4")
    with pytest.raises(redis.WatchError):
        watcher.execute()
    watcher.reset()
    assert redis_db.get("w:a") == "3"
    _watch_and_read(watcher, ["w:a"])
    watcher.reset()  # (unused: UNWATCH, the connection back to the pool)
    redis_db.set("w:a", "5")
    with conn.pipeline() as pipe:  # a connection of the pool watches nothing after the reset
        pipe.multi()
        pipe.set("w:a", "6")
        assert pipe.execute() == [True]
    assert len(conn.connection_pool._available_connections) == conn.connection_pool._created_connections
    conn.close()


def test_a_light_replay_job_that_raises_is_failed_after_its_start_is_written(
        redis_url: str, redis_db: redis.Redis, monkeypatch: Any) -> None:
    """The job raised while its first transaction was not yet waited for: RQ's start records are
    written before its failure (not in the started registry after, in the failed registry), the
    same records RQ leaves for a light job that raised on the waited path (another job function)."""
    from worker import jobs

    conn, cfg, queue = queue_on(redis_url, job_retries=0)
    worker = ArbiterWorker([queue], connection=conn)

    def boom(replay_id: str) -> Any:
        raise RuntimeError("failing on purpose")

    monkeypatch.setattr(jobs, "replay_stored", boom)
    rid, _ = stored(conn, "sent-1")
    job = enqueue_replay(queue, rid, cfg, light=True)
    assert conn.lpop(queue.key) == job.id.encode()  # (dequeued)
    assert worker.perform_light(job, queue) is False
    failed = queue.fetch_job(job.id)
    assert failed.get_status() == JobStatus.FAILED
    assert "failing on purpose" in (failed.latest_result().exc_string or "")
    traces = _traces(conn, job.id)
    assert traces["registries"] == ["rq:failed:arbiter"]
    assert not any(key.startswith("rq:execution:") for key in traces["keys"])  # the execution was ended
    assert store.get_result(conn, rid) is None
    assert len(conn.connection_pool._available_connections) == conn.connection_pool._created_connections
    conn.close()
