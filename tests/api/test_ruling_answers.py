"""Finished rulings' answers kept by the API process (api.rulings.answers): the same bytes served
again without a Redis read, never past what the record has left to live, bounded in size."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import redis
from flask.testing import FlaskClient

from api.rulings.answers import FinishedAnswers
from arbiter import store as store_mod
from tests.helpers import load_example
from tests.worker.live import registered_worker


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_an_answer_is_kept_until_its_record_would_expire_and_at_most_max_age() -> None:
    clock = Clock()
    answers = FinishedAnswers(max_bytes=1000, max_age=60, clock=clock)
    answers.put("a", b"short", ttl_ms=5_000)   # 5 s left in Redis
    answers.put("b", b"long", ttl_ms=-1)       # no expiry in Redis: max_age
    answers.put("c", b"gone", ttl_ms=-2)       # the record is gone: not kept
    answers.put("d", b"now", ttl_ms=0)
    assert answers.get("a") == b"short" and answers.get("b") == b"long"
    assert answers.get("c") is None and answers.get("d") is None
    clock.now += 5
    assert answers.get("a") is None and answers.get("b") == b"long"
    clock.now += 55
    assert answers.get("b") is None
    assert len(answers) == 0 and answers.size == 0


def test_answers_are_bounded_in_bytes_least_recently_read_dropped_first() -> None:
    answers = FinishedAnswers(max_bytes=160, clock=Clock())
    answers.put("big", b"x" * 11, ttl_ms=-1)  # over a sixteenth of the bound: never kept
    assert answers.get("big") is None
    for name in "abcdefghij":
        answers.put(name, b"y" * 10, ttl_ms=-1)
    assert answers.size == 100
    answers.get("a")  # read: now the most recent
    for name in "klmnopq":  # 170 bytes in all: over the bound by one answer
        answers.put(name, b"z" * 10, ttl_ms=-1)
    assert answers.size <= 160
    assert answers.get("a") == b"y" * 10  # kept, read lately
    assert answers.get("b") is None  # the least recently read went first
    answers.put("a", b"w" * 5, ttl_ms=-1)  # replaced, size follows
    assert answers.get("a") == b"w" * 5 and answers.size == sum(len(v[0]) for v in answers._items.values())


@pytest.fixture()
def worker_alive(redis_url: str, redis_db: redis.Redis) -> Iterator[Any]:
    with registered_worker(redis_url) as rq_worker:
        yield rq_worker


def test_a_finished_ruling_is_served_again_as_answered_and_not_past_its_expiry(
        client: FlaskClient, run_jobs: Callable[[], bool], worker_alive: Any, redis_db: redis.Redis) -> None:
    replay_id = client.post("/v1/replays", json=load_example("shields-cap.json")).get_json()["id"]
    resp = client.post("/v1/rulings", json={"replay": replay_id, "at": 1})
    location = resp.headers["Location"]
    ruling_id = resp.get_json()["id"]
    assert client.get(location).get_json()["status"] == "queued"  # not finished: not kept
    assert run_jobs()
    first = client.get(location)
    assert first.status_code == 200 and first.get_json()["status"] == "finished"
    assert first.mimetype == "application/json"
    key = store_mod.ruling_key(ruling_id)
    record = redis_db.get(key)
    assert record is not None
    # the record now has 300 ms left: the kept answer is served without Redis, then no longer
    redis_db.pexpire(key, 300)
    redis_db.delete(key)  # (a read of Redis would now find nothing)
    again = client.get(location)
    assert again.status_code == 200 and again.get_data() == first.get_data()
    assert again.headers["X-Request-ID"] != first.headers["X-Request-ID"]  # the hooks still run
    assert again.headers["Access-Control-Allow-Origin"] == "*"


def test_a_kept_answer_stops_when_its_record_expires(
        client: FlaskClient, run_jobs: Callable[[], bool], worker_alive: Any, redis_db: redis.Redis) -> None:
    replay_id = client.post("/v1/replays", json=load_example("shields-cap.json")).get_json()["id"]
    resp = client.post("/v1/rulings", json={"replay": replay_id, "at": 1})
    location, ruling_id = resp.headers["Location"], resp.get_json()["id"]
    assert run_jobs()
    redis_db.pexpire(store_mod.ruling_key(ruling_id), 200)  # read below with 200 ms left
    assert client.get(location).get_json()["status"] == "finished"
    time.sleep(0.4)
    gone = client.get(location)
    assert gone.status_code == 404 or gone.get_json()["status"] != "finished"  # not served past its expiry
