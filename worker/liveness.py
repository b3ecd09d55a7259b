"""Is any worker alive on the queue? Counted from the workers' heartbeats, not from their keys.

RQ keeps a worker's key for a while after the worker died (it expires ``worker_ttl + 60`` seconds
after its last heartbeat; a SIGKILLed worker never removes it), so the registered keys overstate
the workers. A worker counts as alive when its last heartbeat is at most :data:`LIVE_WITHIN`
seconds old: an :class:`~worker.workers.ArbiterWorker` beats every few seconds, idle or busy
(:data:`worker.workers.WORKER_TTL`, :data:`worker.workers.HEARTBEAT_EVERY`); a ``--simple`` worker
does not beat while it runs a job, which the job timeout bounds.

The clocks of the API's and the workers' machines are compared: they should agree within seconds.
"""

from __future__ import annotations

from datetime import timedelta

from rq import Queue, worker_registration
from rq.utils import as_text, now, utcparse

#: a worker whose last heartbeat is older than this many seconds counts as dead
LIVE_WITHIN = 60


def live_workers(queue: Queue) -> int:
    """How many workers listening on ``queue`` sent a heartbeat in the last :data:`LIVE_WITHIN` s."""
    keys = sorted(worker_registration.get_keys(queue=queue))
    if not keys:
        return 0
    with queue.connection.pipeline(transaction=False) as pipe:
        for key in keys:
            pipe.hmget(key, "last_heartbeat", "death")
        rows = pipe.execute()
    oldest = now() - timedelta(seconds=LIVE_WITHIN)
    alive = 0
    for beat, death in rows:
        if beat is None or death is not None:
            continue
        try:
            if utcparse(as_text(beat)) >= oldest:
                alive += 1
        except ValueError:
            continue
    return alive
