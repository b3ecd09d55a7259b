"""No hidden global state in the core: different logs replayed in parallel threads, many times,
give exactly the single-threaded results (every step's state hash, events and rulings).

The engine once kept its play generation in one process-wide counter, bumped without a lock; a
write going back over another thread's bump could leave a live-ability index stale. On CPython
with the GIL that interleaving cannot be forced from a test (the bump runs without a check for a
thread switch; this test passed on that engine too), so the counter's ownership is asserted
directly in tests/judge/destiny/test_play_generation.py; this test guards the whole replay path
against any state shared between threads (caches on card pools, memos, module globals)."""

from __future__ import annotations

import sys
import threading
from typing import Any

from replays.service import ruling_json, timeline_json
from tests.replays import golden

LOGS = [log for _, log in golden.corpus()]


def _result(log: dict[str, Any]) -> Any:
    tl = timeline_json(log)
    return ([(s["state_hash"], s["events"]) for s in tl["steps"]], ruling_json(log))


def test_parallel_replays_match_the_single_threaded_results() -> None:
    want = [_result(log) for log in LOGS]
    rounds = 3
    got: dict[tuple[int, int, int], Any] = {}
    errors: list[BaseException] = []

    def work(worker: int) -> None:
        try:
            for r in range(rounds):
                # each worker walks the logs in its own order, so different logs run side by side
                for k in range(len(LOGS)):
                    i = (k + worker) % len(LOGS)
                    got[(worker, r, i)] = _result(LOGS[i])
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as the interpreter can
    try:
        threads = [threading.Thread(target=work, args=(w,)) for w in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(old)
    assert not errors, errors[0]
    assert len(got) == 4 * rounds * len(LOGS)
    for (worker, r, i), result in got.items():
        assert result == want[i], f"log {i} replayed differently in thread {worker}, round {r}"
