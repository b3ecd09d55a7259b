"""Batch replay benchmarks (issue 17): ``arbiter replay DIR`` on one core and on every core, and
``--queue`` on one and on two RQ workers (``python -m arbiter worker`` processes on an embedded
Redis), over the same folder of self-play logs. Prints logs/s and the ratios the issue asks for:
N cores at least 0.8 x N times one core; two workers at least 1.6 x one.

``BENCH_BATCH_LOGS`` (default 10,000) files are written: ``BENCH_BATCH_GAMES`` distinct heuristic
self-play games (default 250), each written again under other names and titles (replaying costs the
same; each file is a log of its own, one job each through the queue).
``BENCH_BATCH_QUEUED`` (default 2,000) of them go through the queue, in ``BENCH_BATCH_ROUNDS``
rounds (default 3) after one warm-up round that is printed but not counted, each round one worker
then two, back to back. The figure is the median of the rounds' own ratios: each ratio pairs the
two rates of one round (the same minutes of this shared machine), where the best rate of each side
paired rates from different rounds (one round's one-worker rate was 95 logs/s, a later round's
128, and each pairing moved the ratio). The best rate of each side is printed too.

Each counted round also prints where the time of a log went (Linux, from ``/proc``): the CPU
milliseconds a log of the workers, of Redis (its ``process_id``, from ``INFO``) and of this process
(the driver), and the share of the cores left idle while the round ran. With two workers the cores
are not all busy (the workers wait on Redis's answers, each given after its fsync under
``appendfsync always``): that idle share and the driver's and Redis's CPU are what keep the ratio
below 2.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import redis  # noqa: E402

from arbiter import batch  # noqa: E402
from arbiter.redis_conn import shared_url  # noqa: E402
from replays.selfplay import play_game  # noqa: E402
from worker.liveness import live_workers  # noqa: E402
from worker.queue import make_queue  # noqa: E402

LOGS = int(os.environ.get("BENCH_BATCH_LOGS", "10000"))
GAMES = int(os.environ.get("BENCH_BATCH_GAMES", "250"))
QUEUED = int(os.environ.get("BENCH_BATCH_QUEUED", "2000"))
ROUNDS = max(1, int(os.environ.get("BENCH_BATCH_ROUNDS", "3")))


def write_logs(folder: Path) -> list[Path]:
    """LOGS files: the GAMES games again and again, each copy titled apart (``meta.title``), so that
    each file is a log of its own (its own content address: one queued job per file, as in an
    event's folder of distinct logs) whose replay costs what its game's costs."""
    games = [play_game(f"batch-{i}", "AW-H" if i % 2 else "LEG-H", "AW-V" if i % 2 else "LEG-V",
                       policy="heuristic").log for i in range(GAMES)]
    for i in range(LOGS):
        log = games[i % GAMES]
        copy = {**log, "meta": {**log.get("meta", {}), "title": f"bench log {i}"}}
        (folder / f"log-{i:05}.json").write_text(json.dumps(copy), encoding="utf-8")
    return batch.find_logs(str(folder))


def _cpu_seconds(pid: int) -> float | None:
    """User plus system CPU seconds of process ``pid`` (None where /proc cannot tell)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _idle_ticks() -> tuple[int, int] | None:
    """(idle plus iowait, all) clock ticks of every core since boot (None where /proc cannot tell)."""
    try:
        ticks = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    except (OSError, ValueError):
        return None
    return ticks[3] + ticks[4], sum(ticks)


class Usage:
    """Where one queued round's time went: each process's CPU a log, the cores' idle share."""

    def __init__(self, pids: dict[str, list[int]]) -> None:
        self.pids = pids
        self.before = self._read()

    def _read(self) -> tuple[dict[str, float | None], tuple[int, int] | None]:
        cpu: dict[str, float | None] = {}
        for kind, pids in self.pids.items():
            seconds = [_cpu_seconds(pid) for pid in pids]
            cpu[kind] = None if None in seconds else sum(s for s in seconds if s is not None)
        return cpu, _idle_ticks()

    def finish(self, logs: int) -> str:
        (cpu0, idle0), (cpu1, idle1) = self.before, self._read()
        parts = []
        for kind in self.pids:
            a, b = cpu0[kind], cpu1[kind]
            parts.append(f"{kind} {'?' if a is None or b is None else f'{(b - a) / logs * 1e3:.2f}'}")
        idle = "?" if idle0 is None or idle1 is None or idle1[1] == idle0[1] else \
            f"{(idle1[0] - idle0[0]) / (idle1[1] - idle0[1]) * 100:.0f}%"
        return f"CPU ms a log: {', '.join(parts)}; cores idle {idle}"


def queued_rate(files: list[Path], url: str, workers: int, tmp: Path) -> tuple[float, str]:
    """Logs a second through the queue with ``workers`` workers, and where the time went (Usage)."""
    conn = redis.Redis.from_url(url)
    conn.flushdb()
    env = {**os.environ, "REDIS_URL": url, "ARBITER_DATA_DIR": str(tmp / "data"), "PYTHONUNBUFFERED": "1"}
    procs = [subprocess.Popen([sys.executable, "-m", "arbiter", "worker"], cwd=ROOT, env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for _ in range(workers)]
    try:
        deadline = time.monotonic() + 60
        while live_workers(make_queue(conn)) < workers:
            if time.monotonic() > deadline:
                raise RuntimeError("the workers did not start")
            time.sleep(0.1)
        redis_pid = int(conn.info("server")["process_id"])
        usage = Usage({"workers": [p.pid for p in procs], "Redis": [redis_pid], "driver": [os.getpid()]})
        t0 = time.perf_counter()
        lines = batch.run_queued(files, conn, timeout=1800)
        seconds = time.perf_counter() - t0
        used = usage.finish(len(files))
        assert all(ln["valid"] for ln in lines), [ln for ln in lines if not ln["valid"]][:3]
        return len(files) / seconds, used
    finally:
        for p in procs:
            p.terminate()
        for p in procs:
            p.wait(30)
        conn.flushdb()


def main() -> int:
    cores = os.cpu_count() or 1
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        folder = tmp / "logs"
        folder.mkdir()
        t0 = time.perf_counter()
        files = write_logs(folder)
        steps = sum(len(json.loads(files[i].read_text())["steps"]) for i in range(GAMES))
        print(f"{len(files):,} logs ({GAMES} distinct self-play games, {steps / GAMES:.0f} steps each on average) "
              f"written in {time.perf_counter() - t0:.1f} s; {cores} cores")
        rates = {}
        for jobs in sorted({1, cores}):
            t0 = time.perf_counter()
            lines = batch.run_local(files, jobs)
            rates[jobs] = len(files) / (time.perf_counter() - t0)
            assert all(ln["valid"] for ln in lines)
            print(f"local, {jobs} process{'es' if jobs > 1 else ''}: {rates[jobs]:,.0f} logs/s")
        if cores > 1:
            ratio = rates[cores] / rates[1]
            print(f"local: {cores} cores {ratio:.2f}x one core = {ratio / cores:.2f} x N (goal >= 0.80 x N)")
        url = shared_url(None, tmp / "redis")
        sub = files[:QUEUED]
        warm = (queued_rate(sub, url, 1, tmp)[0], queued_rate(sub, url, 2, tmp)[0])
        ones: list[float] = []
        twos: list[float] = []
        for n in range(ROUNDS):
            for workers, rates in ((1, ones), (2, twos)):
                rate, used = queued_rate(sub, url, workers, tmp)
                rates.append(rate)
                print(f"RQ round {n + 1}, {workers} worker{'s' if workers > 1 else ''}: {rate:,.0f} logs/s; {used}")
        ratios = [b / a for a, b in zip(ones, twos, strict=True)]
        rounds = ", ".join(f"{a:,.0f} -> {b:,.0f} ({r:.2f}x)" for a, b, r in zip(ones, twos, ratios, strict=True))
        print(f"RQ (--queue), {len(sub):,} logs: two workers {statistics.median(ratios):.2f}x one worker, the median "
              f"of {ROUNDS} rounds' ratios (goal >= 1.60x; the workers, Redis and this process share {cores} "
              f"cores); each round: {rounds}; best of each side {max(twos) / max(ones):.2f}x "
              f"({max(ones):,.0f} -> {max(twos):,.0f} logs/s); warm-up round, not counted: "
              f"{warm[0]:,.0f} -> {warm[1]:,.0f} ({warm[1] / warm[0]:.2f}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
