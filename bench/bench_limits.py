"""The worst-case request of at most the body limit: time and memory, in the API and in the worker.

The heaviest requests we could think of that stay under ``MAX_BODY_BYTES`` (judge/limits.py) are
built here, each as one JSON body:

- valid logs that replay: ``MAX_STEPS`` cheap steps (passes and upkeeps) from a position at every
  bound (4 players; ``MAX_IN_PLAY`` characters, upgrades, supports and pool dice each;
  ``MAX_ZONE_CARDS`` cards in hand, deck and discard; ``MAX_COUNTER`` resources), each step with a
  checkpoint (``expect.hash`` and ``expect.state``) so that every step hashes and views the whole
  table; the same with every other step an illegal one expected to fail (a state copy each);
- the same table and steps, each with a failing ``expect.state`` (the replay goes on after a
  failed checkpoint and words each failure);
- logs at the JSON bounds: ``MAX_NODES`` tiny values, ``MAX_DEPTH`` nesting, strings of
  ``MAX_STRING`` characters; and bodies of the same size beyond them (too many values, too deep,
  one string too long);
- invalid logs with as many faults as fit (unknown keys; card codes near known ones, each fault
  looking for the nearest code); the 1 KB log of issue 11 (``"deck": {"unknown": 10**8}``) and
  numbers out of range;
- ``POST /v1/rulings`` with the heaviest valid log and with the faulty one inline.

Each request is measured in a fresh process forked from a warmed-up one (the app created, an example
posted, the engine loaded: the way RQ forks a work horse from a warmed worker): ``POST`` through the
Flask test client (the full WSGI app, no network), and for every log the API stored, the worker's
side in-process: ``json.loads`` of the stored text, ``replays.service.ruling_json`` (the default
step: the disputed or the last) or ``timeline_json``, and the result's ``json.dumps``. For an
inline ruling accepted with 202, the real RQ worker's job is awaited and its time reported too.
Memory is the peak RSS growth of that process (Linux ``VmHWM`` reset through ``/proc/self/clear_refs``
before the call, minus ``VmRSS`` before it; ``ru_maxrss`` if the reset is not available). Each
measurement is killed after ``BENCH_CASE_TIMEOUT`` seconds (10) and may grow its address space by
``BENCH_CASE_MEMORY_MB`` (2048) before allocations fail.

Exit status 1 when a request answered 5xx, a measurement was killed or hit the memory cap: the
worst case is then not bounded as the issue requires, and the table says where.

Environment: ``REDIS_URL`` (default: an embedded server in a temp dir, no append-only file),
``BENCH_CASE_TIMEOUT``, ``BENCH_CASE_MEMORY_MB``, ``BENCH_ONLY`` (comma-separated words: only the
requests whose line holds one of them, e.g. ``BENCH_ONLY="rulings inline"``).
"""

from __future__ import annotations

import copy
import gc
import itertools
import json
import os
import re
import resource
import select
import signal
import string
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from judge.limits import (  # noqa: E402
    MAX_BODY_BYTES,
    MAX_COUNTER,
    MAX_DEPTH,
    MAX_IN_PLAY,
    MAX_ITEMS,
    MAX_NODES,
    MAX_SEED_CHARS,
    MAX_STEPS,
    MAX_STRING,
    MAX_ZONE_CARDS,
)

CASE_TIMEOUT = float(os.environ.get("BENCH_CASE_TIMEOUT", "10"))
CASE_MEMORY_MB = int(os.environ.get("BENCH_CASE_MEMORY_MB", "2048"))
# the worker's side runs under the job's own ceilings, as a real job does: passing one is the designed
# answer (the job stores a 'ceiling' error and the worker lives on), reported as such, not as unbounded
JOB_KINDS = ("ruling", "timeline")


def _job_ceilings() -> tuple[float, int]:
    from arbiter import settings

    cfg = settings.load()
    return float(cfg.job_timeout), int(cfg.job_memory_mb)


def limits_for(cmd: dict[str, Any]) -> tuple[float, int, bool]:
    """(seconds, MB of address space, is a worker job) for one measurement."""
    if cmd.get("kind") in JOB_KINDS:
        seconds, mb = _job_ceilings()
        return seconds, mb, True
    return CASE_TIMEOUT, CASE_MEMORY_MB, False
ONLY = [w.strip() for w in os.environ.get("BENCH_ONLY", "").split(",") if w.strip()]
STARTUP_TIMEOUT = 60.0
EXAMPLE = ROOT / "replays" / "examples" / "shields-cap.json"
PLAYERS = ("p1", "p2", "p3", "p4")
MB = 1024 * 1024


def compact(value: Any) -> bytes:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


# ------------------------------------------------------------------ the requests


def example(nonce: str) -> dict[str, Any]:
    log = json.loads(EXAMPLE.read_text())
    log["meta"]["bench"] = nonce  # a new content address each run: the API replays it again
    return log


def face_text(face: Any) -> str:
    return "-" if face.symbol == "-" else f"{'+' if face.modifier else ''}{face.value}{face.symbol}" + (
        str(face.cost) if face.cost else "")


def max_table_log(nonce: str) -> dict[str, Any]:
    """4 players, each with every kind of card in play and every zone at its bound; no steps."""
    from judge.games.destiny.cards import default_pool
    from judge.games.destiny.table import Table

    pool = default_pool()
    kinds: dict[str, list[str]] = {}
    for code, card in sorted(pool.cards.items()):
        kinds.setdefault(card.type, []).append(code)
    zone_codes = [c for c in sorted(pool.cards) if pool.cards[c].type != "battlefield"]
    zone = [zone_codes[i % len(zone_codes)] for i in range(MAX_ZONE_CARDS)]
    t = Table(players=PLAYERS)
    t.rng = {"algorithm": "sha256-ctr", "seed": ("worst-case-" + nonce + "-" * MAX_SEED_CHARS)[:MAX_SEED_CHARS]}

    # each card once (a unique title once: a unique card has one copy in play a player, whatever its
    # subtitle, destiny.uniqueness.one-copy-in-play), then more copies of the non-unique ones
    titles: set[str] = set()
    once: dict[str, list[str]] = {}
    for kind, codes in kinds.items():
        for code in codes:
            card = pool.cards[code]
            if card.unique and card.name in titles:
                continue
            once.setdefault(kind, []).append(code)
            if card.unique:
                titles.add(card.name)

    def nth(kind: str, i: int) -> tuple[str, int]:
        codes = once[kind]
        if i < len(codes):
            return codes[i], 1
        plain = [c for c in codes if not pool.cards[c].unique]
        j = i - len(codes)
        return plain[j % len(plain)], j // len(plain) + 2

    for pid in PLAYERS:
        chars = []
        for i in range(MAX_IN_PLAY):
            code, serial = nth("character", i)
            chars.append(t.character(pid, code, dice=1, serial=serial))
        player = t.player(pid)
        upgrades = {}
        for i in range(MAX_IN_PLAY):  # three on each of the first 20 characters
            code, serial = nth("upgrade", i)
            ref, on = f"{pid}.{code}#{serial}", chars[i // 3]
            player["characters"][on]["upgrades"].append(ref)
            upgrades[ref] = {"on": on, "exhausted": False}
        player["upgrades"] = upgrades
        for i in range(MAX_IN_PLAY):
            code, serial = nth("support", i)
            t.support(pid, code, serial=serial)
        dice = {}
        for ref in chars[:MAX_IN_PLAY]:
            card = pool.cards[ref.split(".")[1].split("#")[0]]
            dice[f"{ref}/1"] = face_text(card.faces[0])
        t.pool(pid, dice)
        t.set(pid, hand=list(zone), deck=list(zone), discard=list(zone), resources=MAX_COUNTER)
    log = t.log()
    log["meta"]["bench"] = nonce
    return log


def pass_round_steps(n: int) -> list[dict[str, Any]]:
    """``n`` steps: every player passes, then the upkeep; again and again (legal from max_table_log)."""
    steps: list[dict[str, Any]] = []
    while len(steps) < n:
        steps += [{"by": pid, "do": "pass"} for pid in PLAYERS] + [{"do": "upkeep"}]
    return steps[:n]


def with_checkpoints(log: dict[str, Any]) -> dict[str, Any]:
    """Every step gets ``expect.hash`` and ``expect.state.round``, as the engine computes them."""
    from replays.service import timeline_json

    entries = timeline_json(log)["steps"][1:]
    if len(entries) != len(log["steps"]):
        raise RuntimeError("the generated log does not replay to its end")
    for step, entry in zip(log["steps"], entries, strict=True):
        step["expect"] = {"hash": entry["state_hash"], "state": {"round": entry["round"]}}
    return log


def expected_error_steps(n: int) -> list[dict[str, Any]]:
    """Before each pass, a pass by the next player: illegal, expected to fail (kept as a state copy)."""
    steps: list[dict[str, Any]] = []
    while len(steps) < n:
        for i, pid in enumerate(PLAYERS):
            steps.append({"by": PLAYERS[(i + 1) % len(PLAYERS)], "do": "pass",
                          "expect": {"error": {"kind": "illegal-action"}}})
            steps.append({"by": pid, "do": "pass"})
        steps.append({"do": "upkeep"})
    return steps[:n]


def fill(log: dict[str, Any], key: str, make: Any, unit: int) -> dict[str, Any]:
    """``meta[key]`` grown by ``make(count)`` to the largest count (a multiple of ``unit``) that
    keeps the body within MAX_BODY_BYTES."""
    lo, hi = 0, MAX_BODY_BYTES // max(1, unit)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        log["meta"][key] = make(mid)
        if len(compact(log)) <= MAX_BODY_BYTES:
            lo = mid
        else:
            hi = mid - 1
    log["meta"][key] = make(lo)
    return log


def nodes(value: Any) -> int:
    if isinstance(value, dict):
        return 1 + sum(nodes(v) for v in value.values())
    if isinstance(value, list):
        return 1 + sum(nodes(v) for v in value)
    return 1


def nested(depth: int) -> Any:
    value: Any = 0
    for _ in range(depth):
        value = [value]
    return value


def chunks(count: int, item: Any) -> list[list[Any]]:
    """``count`` copies of ``item`` in arrays of at most MAX_ITEMS."""
    return [[item] * min(MAX_ITEMS, count - i) for i in range(0, count, MAX_ITEMS)]


@dataclass
class Case:
    name: str
    path: str  # /v1/replays or /v1/rulings
    body: bytes
    log: dict[str, Any] | None  # a log built to be stored: what the worker would load


def build_cases(nonce: str) -> list[Case]:
    cases: list[Case] = []

    def add(name: str, log: Any, path: str = "/v1/replays", raw: bytes | None = None,
            valid: bool = True) -> None:
        body = raw if raw is not None else compact({"log": log} if path == "/v1/rulings" else log)
        if len(body) > MAX_BODY_BYTES:
            raise RuntimeError(f"{name}: {len(body)} bytes, over MAX_BODY_BYTES")
        cases.append(Case(name, path, body, log if valid else None))

    table = max_table_log(nonce)

    checked = copy.deepcopy(table)
    checked["steps"] = pass_round_steps(MAX_STEPS)
    checked = with_checkpoints(checked)
    add(f"{MAX_STEPS} steps, max table, checkpoints", checked)

    refused = copy.deepcopy(table)
    refused["meta"]["bench"] = nonce + "-refused"
    refused["steps"] = expected_error_steps(MAX_STEPS)
    add(f"{MAX_STEPS} steps, max table, every other one refused", refused)

    echo = copy.deepcopy(table)
    echo["meta"]["bench"] = nonce + "-echo"
    echo["steps"] = [dict(s, expect={"state": {"players": 0}}) for s in pass_round_steps(MAX_STEPS)]
    add(f"{MAX_STEPS} steps, max table, every checkpoint failing", echo)

    keys = ["".join(k) for k in itertools.product(string.ascii_letters, repeat=3)]
    faulty = example(nonce + "-keys")  # unknown keys in die entries, as many as MAX_NODES allows
    faulty["steps"] = []
    left = MAX_NODES - nodes(faulty) - 10
    while left > 10 and len(faulty["steps"]) < MAX_STEPS:
        n = min(MAX_ITEMS - 1, left - 10)
        faulty["steps"].append({"by": "p1", "do": "resolve",
                                "dice": [{"die": "p1.05031/1", **{k: 0 for k in keys[:n]}}]})
        left -= n + 8
    add("invalid: unknown keys (one fault each)", faulty, valid=False)

    near = example(nonce + "-near")
    entry = {"die": "p1.05032/1", "target": "p2.05018"}  # unknown codes one digit from known ones
    per_step = min(MAX_ITEMS, MAX_IN_PLAY)
    step = {"by": "p1", "do": "resolve", "dice": [entry] * per_step}
    room = (MAX_BODY_BYTES - len(compact(near)) - 100) // (len(compact(step)) + 1)
    near["steps"] = [step] * min(room, MAX_STEPS, (MAX_NODES - nodes(near)) // nodes(step))
    add("invalid: card codes near known ones (2 per die)", near, valid=False)

    small = example(nonce + "-nodes")
    budget = MAX_NODES - nodes(small) - 1 - 2 * (MAX_NODES // MAX_ITEMS + 1)
    small["meta"]["pad"] = chunks(budget, 0)
    add(f"MAX_NODES values ({MAX_NODES})", small)

    many = fill(example(nonce + "-many"), "pad", lambda n: [{}] * n, 3)
    add(f"over MAX_NODES: {len(many['meta']['pad'])} empty objects", many, valid=False)

    deep = example(nonce + "-deep")
    inner = nested(MAX_DEPTH - 4)  # root object, meta, pad and a chunk are the first four levels
    deep["meta"]["pad"] = chunks((MAX_NODES - nodes(deep) - 100) // nodes(inner), inner)
    add(f"MAX_DEPTH nesting ({MAX_DEPTH}), MAX_NODES values", deep)

    too_deep = example(nonce + "-too-deep")
    too_deep["meta"]["pad"] = "@"
    head, tail = compact(too_deep).split(b'"@"')
    depth = MAX_BODY_BYTES - len(head) - len(tail) - 4
    add(f"over MAX_DEPTH: {depth // 2} nested arrays", None,
        raw=head + b"[" * (depth // 2) + b"]" * (depth // 2) + tail)

    strings = fill(example(nonce + "-strings"), "pad",
                   lambda n: {f"k{i:05d}": string.ascii_letters[i % 52] * MAX_STRING for i in range(n)}, MAX_STRING)
    add(f"MAX_STRING strings: {len(strings['meta']['pad'])} of {MAX_STRING} chars", strings)

    long = fill(example(nonce + "-long"), "pad", lambda n: "x" * n, 1)
    add(f"over MAX_STRING: one string of {len(long['meta']['pad'])} chars", long, valid=False)

    unknown = example(nonce + "-unknown")  # the 1 KB attack of issue 11
    for pid in ("p1", "p2"):
        unknown["setup"]["position"]["players"][pid]["deck"] = {"unknown": 100_000_000}
    add('issue 11: "deck": {"unknown": 10**8}', unknown, valid=False)

    numbers = compact(example(nonce + "-numbers"))  # JSON numbers Python reads as inf and a big int
    numbers = numbers.replace(b'"resources":2', b'"resources":1e400', 1).replace(
        b'"round":5', b'"round":9223372036854775808', 1)
    add("numbers out of range (1e400, 2**63)", None, raw=numbers)

    inline = copy.deepcopy(checked)
    inline["meta"]["bench"] = nonce + "-inline"
    add(f"POST /v1/rulings inline: {MAX_STEPS} steps, max table, checkpts", inline, path="/v1/rulings")
    near_inline = copy.deepcopy(near)
    near_inline["meta"]["bench"] = nonce + "-near-inline"
    near_inline["steps"] = near_inline["steps"][:-1]  # room for the {"log": ...} envelope
    add("POST /v1/rulings inline: card codes near known ones", near_inline, path="/v1/rulings", valid=False)
    return cases


# ------------------------------------------------------------------ measuring in a forked process


def _status_kib(pid: int | str = "self") -> dict[str, int]:
    try:
        text = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return {}
    return {k: int(m.group(1)) for k in ("VmRSS", "VmHWM", "VmSize")
            if (m := re.search(rf"^{k}:\s+(\d+) kB", text, re.M))}


def _reset_peak() -> bool:
    try:
        Path("/proc/self/clear_refs").write_text("5")
        return True
    except OSError:
        return False


class Zygote:
    """Runs in its own process: loads the app and the engine once, then forks a child per
    measurement (commands on stdin, one JSON line of figures per command on stdout)."""

    def __init__(self, url: str):
        from api import create_app

        self.app = create_app({"REDIS_URL": url})
        self.client = self.app.test_client()
        warm = example("warm-" + uuid.uuid4().hex)
        resp = self.client.post("/v1/replays", json=warm)
        if resp.status_code not in (200, 201):
            raise RuntimeError(f"warm-up POST /v1/replays: {resp.status_code} {resp.get_data(as_text=True)}")
        self.client.get("/healthz")
        from replays.service import ruling_json, timeline_json

        ruling_json(warm)
        timeline_json(warm)
        gc.collect()

    def call(self, cmd: dict[str, Any]) -> dict[str, Any]:
        """In the forked child: the measured call. Returns its figures."""
        body = Path(cmd["file"]).read_bytes()
        kind = cmd["kind"]
        if kind == "api":
            resp = self.client.post(cmd["path"], data=body, content_type="application/json")
            data = resp.get_data()
            out: dict[str, Any] = {"status": resp.status_code, "answer_bytes": len(data)}
            try:
                answer = json.loads(data)
            except ValueError:
                answer = None
            if isinstance(answer, dict):
                out["id"] = answer.get("id")
                out["title"] = answer.get("title")
                errors = answer.get("errors")
                if isinstance(errors, list):
                    out["errors"] = len(errors)
                    if errors and isinstance(errors[0], dict):
                        out["first"] = f"{errors[0].get('pointer')}: {str(errors[0].get('detail'))[:120]}"
                elif answer.get("detail"):
                    out["first"] = str(answer.get("detail"))[:160]
                summary = answer.get("summary")
                if isinstance(summary, dict):
                    out["valid"] = summary.get("valid")
                    err = summary.get("error")
                    if isinstance(err, dict):
                        out["first"] = f"replay: {err.get('kind')}: {str(err.get('message'))[:120]}"
            return out
        from replays.service import MalformedLog, StepOutOfRange, ruling_json, timeline_json

        log = json.loads(body)  # as the job reads the stored text
        try:
            result = ruling_json(log) if kind == "ruling" else timeline_json(log)
        except (MalformedLog, StepOutOfRange) as exc:
            return {"status": "error", "first": f"{type(exc).__name__}: {str(exc)[:120]}"}
        text = json.dumps(result, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
        return {"status": "ok", "answer_bytes": len(text.encode("utf-8"))}

    def measure(self, cmd: dict[str, Any]) -> dict[str, Any]:
        """Fork, run :meth:`call` in the child, return its figures (killed after CASE_TIMEOUT).

        The child writes two lines to a pipe: its RSS before the call, then the figures; a child
        killed at the time limit is measured from outside (its ``VmHWM`` just before the kill)."""
        read_fd, write_fd = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(read_fd)
            os._exit(self._child(cmd, write_fd))
        os.close(write_fd)
        data = b""
        timeout, memory_mb, job = limits_for(cmd)
        deadline = time.monotonic() + timeout
        killed_hwm = None
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                killed_hwm = _status_kib(pid).get("VmHWM")
                os.kill(pid, signal.SIGKILL)
                break
            ready, _, _ = select.select([read_fd], [], [], left)
            if ready:
                chunk = os.read(read_fd, 65536)
                if not chunk:
                    break
                data += chunk
        os.close(read_fd)
        _, wait_status = os.waitpid(pid, 0)
        lines = data.decode().splitlines()
        before = int(lines[0].split()[1]) if lines and lines[0].startswith("before ") else None
        if killed_hwm is not None or len(lines) < 2:
            figures: dict[str, Any] = {"killed": True}
            if killed_hwm is not None:
                figures.update(status="killed", seconds=timeout)
            else:
                figures.update(status=f"died ({wait_status})", seconds=float("nan"))
            if killed_hwm is not None and before is not None:
                figures.update(growth_mb=max(0, killed_hwm - before) / 1024, memory="VmHWM")
                figures["cap_hit"] = figures["growth_mb"] >= 0.9 * memory_mb
            return _as_ceiling(figures) if job and killed_hwm is not None else figures
        figures = dict(json.loads(lines[1]))
        return _as_ceiling(figures) if job and figures.get("cap_hit") else figures

    def _child(self, cmd: dict[str, Any], fd: int) -> int:
        try:
            gc.collect()
            reset = _reset_peak()
            before = _status_kib()
            base_max = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
            os.write(fd, f"before {before.get('VmRSS', 0)}\n".encode())
            memory_mb = limits_for(cmd)[1]
            cap = before.get("VmSize", 0) * 1024 + memory_mb * MB
            resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
            t0 = time.perf_counter()
            try:
                figures = self.call(cmd)
            except MemoryError:
                figures = {"status": "MemoryError"}
            except Exception as exc:  # noqa: BLE001 - reported: the service would crash on it
                figures = {"status": "crash", "first": f"{type(exc).__name__}: {str(exc)[:160]}"}
            figures["seconds"] = time.perf_counter() - t0
            after = _status_kib()
            if reset and "VmHWM" in after:
                figures["growth_mb"] = max(0, after["VmHWM"] - before["VmRSS"]) / 1024
                figures["memory"] = "VmHWM"
            else:
                peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
                figures["growth_mb"] = max(0, peak - max(base_max, before.get("VmRSS", 0))) / 1024
                figures["memory"] = "ru_maxrss"
            figures["cap_hit"] = figures["growth_mb"] >= 0.9 * memory_mb or figures["status"] == "MemoryError"
            os.write(fd, (json.dumps(figures) + "\n").encode())
            return 0
        except BaseException:  # noqa: BLE001 - the parent reports a child that died
            return 1


def _as_ceiling(figures: dict[str, Any]) -> dict[str, Any]:
    """A worker job stopped by its time or memory ceiling: the designed answer, not a failure."""
    which = "memory" if figures.get("cap_hit") else "time"
    return {**figures, "status": f"ceiling ({which})", "ceiling": which, "killed": False, "cap_hit": False}


def zygote_main(url: str) -> None:
    zygote = Zygote(url)
    print("ready", flush=True)
    for line in sys.stdin:
        if not line.strip():
            continue
        print(json.dumps(zygote.measure(json.loads(line))), flush=True)


# ------------------------------------------------------------------ the bench


@dataclass
class Row:
    request: str
    body: int
    figures: dict[str, Any]
    notes: list[str] = field(default_factory=list)


class Measurer:
    def __init__(self, url: str, tmp: Path, env: dict[str, str]):
        self.tmp = tmp
        self.err = open(tmp / "zygote.log", "wb")  # noqa: SIM115 - closed in stop()
        self.proc = subprocess.Popen([sys.executable, __file__, "--zygote", url], cwd=ROOT, env=env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.err,
                                     start_new_session=True)
        self.files = 0

    def ready(self) -> None:
        line = self._line(STARTUP_TIMEOUT)
        if line.strip() != "ready":
            raise RuntimeError(f"the measuring process did not start: {line!r}\n{self.tail()}")

    def tail(self) -> str:
        return (self.tmp / "zygote.log").read_text(errors="replace")[-3000:]

    def _line(self, timeout: float) -> str:
        assert self.proc.stdout is not None
        ready, _, _ = select.select([self.proc.stdout], [], [], timeout)
        if not ready:
            raise RuntimeError(f"the measuring process did not answer within {timeout:.0f} s\n{self.tail()}")
        line = self.proc.stdout.readline().decode()
        if not line:
            raise RuntimeError(f"the measuring process exited ({self.proc.poll()})\n{self.tail()}")
        return line

    def measure(self, kind: str, body: bytes, path: str = "") -> dict[str, Any]:
        self.files += 1
        file = self.tmp / f"body-{self.files}.json"
        file.write_bytes(body)
        assert self.proc.stdin is not None
        self.proc.stdin.write((json.dumps({"kind": kind, "file": str(file), "path": path}) + "\n").encode())
        self.proc.stdin.flush()
        figures = json.loads(self._line(max(CASE_TIMEOUT, _job_ceilings()[0]) + 60))
        file.unlink()
        return dict(figures)

    def stop(self) -> None:
        try:
            if self.proc.stdin:
                self.proc.stdin.close()
            self.proc.wait(timeout=10)
        except (subprocess.TimeoutExpired, OSError):
            pass
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()
        self.err.close()


def wait_job(url: str, job_id: str) -> dict[str, Any]:
    """Poll the real worker's job for an inline ruling until it is done (or its time ceiling, plus a
    margin for the queue, has passed)."""
    import redis

    from worker.queue import fetch_job

    conn = redis.Redis.from_url(url)
    t0 = time.perf_counter()
    try:
        limit = _job_ceilings()[0] + 15
        while time.perf_counter() - t0 < limit:
            job = fetch_job(conn, job_id)
            status = job.get_status(refresh=True) if job is not None else None
            value = getattr(status, "value", status)
            if value in ("finished", "failed", "stopped", "canceled"):
                out: dict[str, Any] = {"status": value, "seconds": time.perf_counter() - t0}
                if value != "finished" and job is not None:
                    result = job.latest_result()
                    exc = getattr(result, "exc_string", None) if result is not None else None
                    if exc:
                        out["first"] = exc.strip().splitlines()[-1][:160]
                else:
                    from arbiter import store

                    record = store.get_ruling(conn, job_id) or {}
                    error = record.get("error")
                    if isinstance(error, dict):
                        out["first"] = f"ruling error {error.get('kind')}: {str(error.get('message'))[:120]}"
                return out
            time.sleep(0.05)
        return {"status": "not done", "seconds": limit, "killed": True}
    finally:
        conn.connection_pool.disconnect()


def fmt_row(row: Row) -> str:
    f = row.figures
    secs = f.get("seconds", float("nan"))
    time_s = f"> {secs:.0f}" if f.get("killed") else f"{secs:8.2f}"
    mem = f.get("growth_mb")
    mem_s = "     -" if mem is None else f"{mem:7.1f}" + ("!" if f.get("cap_hit") else " ")
    answer = f.get("answer_bytes")
    answer_s = "" if answer is None else f"{answer / 1024:,.0f} KiB"
    extra = []
    if f.get("errors") is not None:
        extra.append(f"{f['errors']} errors")
    if f.get("valid") is not None:
        extra.append(f"valid={f['valid']}")
    if f.get("first"):
        extra.append(str(f["first"]))
    return (f"  {row.request:72.72s} {row.body / 1024:8,.0f} {str(f.get('status')):>11s} {time_s:>8s} "
            f"{mem_s:>8s} {answer_s:>10s}  {'; '.join(extra)[:150]}")


def bench(url: str, tmp: Path, embedded: bool) -> int:
    import redis
    from rq import Worker

    from worker.queue import make_queue

    env = {**os.environ, "REDIS_URL": url, "ARBITER_DATA_DIR": str(tmp / "data"), "PYTHONUNBUFFERED": "1"}
    nonce = uuid.uuid4().hex[:12]
    conn = redis.Redis.from_url(url)
    queue = make_queue(conn)
    workers_before = len(Worker.all(queue=queue))
    worker_log = open(tmp / "worker.log", "wb")  # noqa: SIM115
    worker = subprocess.Popen([sys.executable, "-m", "arbiter", "worker"], cwd=ROOT, env=env,
                              stdout=worker_log, stderr=subprocess.STDOUT, start_new_session=True)
    measurer = Measurer(url, tmp, env)
    rows: list[Row] = []
    t_start = time.perf_counter()
    try:
        t0 = time.perf_counter()
        cases = build_cases(nonce)
        built = time.perf_counter() - t0
        if ONLY:
            cases = [c for c in cases if any(w in f"POST {c.path}: {c.name}" for w in ONLY)]
        measurer.ready()
        deadline = time.monotonic() + STARTUP_TIMEOUT
        while len(Worker.all(queue=queue)) <= workers_before:
            if worker.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("the RQ worker did not start:\n"
                                   + (tmp / "worker.log").read_text(errors="replace")[-2000:])
            time.sleep(0.1)
        print(f"worst-case requests of at most MAX_BODY_BYTES = {MAX_BODY_BYTES:,} bytes "
              f"({len(cases)} requests, built in {built:.1f} s); Redis "
              + ("embedded" if embedded else "at REDIS_URL (the logs stored by this run stay there)"))
        print("each call in a fresh process forked from a warmed-up one; memory = peak RSS growth "
              "(VmHWM after the call - VmRSS before); API = Flask test client, no network;")
        print(f"worker = json.loads + ruling_json/timeline_json + json.dumps in-process; killed after "
              f"{CASE_TIMEOUT:g} s, address space capped at +{CASE_MEMORY_MB} MB ('!' = cap reached)")
        print(f"  {'request':72s} {'body KiB':>8s} {'status':>11s} {'time s':>8s} {'RSS MB':>8s} "
              f"{'answer':>10s}  notes")
        for case in cases:
            figures = measurer.measure("api", case.body, case.path)
            row = Row(f"POST {case.path}: {case.name}" if case.path == "/v1/replays"
                      else case.name, len(case.body), figures)
            rows.append(row)
            print(fmt_row(row), flush=True)
            status = figures.get("status")
            if case.path == "/v1/rulings" and status == 202 and figures.get("id"):
                job = wait_job(url, str(figures["id"]))
                row = Row("  real RQ worker: the queued ruling job, 202 to done", len(case.body), job)
                rows.append(row)
                print(fmt_row(row), flush=True)
            elif case.path == "/v1/replays" and case.log is not None \
                    and not (isinstance(status, int) and 400 <= status < 500):
                # a log built to be stored: what the worker would do with it (unless the API refused it)
                stored = compact(case.log)
                for kind in ("ruling", "timeline"):
                    row = Row(f"  worker {kind}: {case.name}", len(stored), measurer.measure(kind, stored))
                    rows.append(row)
                    print(fmt_row(row), flush=True)
    finally:
        measurer.stop()
        try:
            queue.empty()  # nothing of this bench is left for a worker
        except redis.RedisError as exc:
            print(f"could not empty the queue: {exc}")
        for sig, wait in ((signal.SIGTERM, 15), (signal.SIGKILL, 5)):
            try:
                os.killpg(worker.pid, sig)
            except ProcessLookupError:
                break
            try:
                worker.wait(timeout=wait)
                os.killpg(worker.pid, signal.SIGKILL)  # a work horse left behind, if any
            except (subprocess.TimeoutExpired, ProcessLookupError):
                continue
            break
        worker_log.close()
        conn.connection_pool.disconnect()

    def brief(row: Row) -> str:
        f = row.figures
        secs = f.get("seconds", float("nan"))
        mem = f.get("growth_mb")
        return (f"{row.request.strip()} {'> ' if f.get('killed') else ''}{secs:.2f} s, "
                + ("? MB" if mem is None else f"{'>= ' if f.get('killed') or f.get('cap_hit') else ''}{mem:.1f} MB")
                + (f" ({f.get('status')})" if f.get("killed") or f.get("cap_hit") or f.get("ceiling") else ""))

    def failed(f: dict[str, Any]) -> bool:
        status = f.get("status")
        return bool(f.get("killed") or f.get("cap_hit") or (isinstance(status, int) and status >= 500)
                    or status in ("crash", "MemoryError", "failed", "stopped", "not done"))

    print(f"bench time {time.perf_counter() - t_start:.0f} s; load average at the end "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs (other processes slow every figure)")
    for row in rows:
        if failed(row.figures):
            print(f"NOT BOUNDED: {brief(row)}")
    measured = [r for r in rows if r.figures.get("seconds") == r.figures.get("seconds")]  # not NaN
    biggest = max(rows, key=lambda r: r.figures.get("growth_mb") or 0.0)
    slowest = max(measured, key=lambda r: (r.figures["seconds"], r.figures.get("growth_mb") or 0.0))
    print(f"largest memory: {brief(biggest)}")
    api_rows = [r for r in measured if not r.request.startswith("  ")]
    job_rows = [r for r in rows if r.request.startswith("  worker")]
    if api_rows:
        worst_api = max(api_rows, key=lambda r: (r.figures["seconds"], r.figures.get("growth_mb") or 0.0))
        print(f"worst case of a request (the API's own work): {brief(worst_api)}")
    ceilings = [r for r in job_rows if r.figures.get("ceiling")]
    seconds, mb = _job_ceilings()
    print(f"worker jobs: {len(ceilings)} of {len(job_rows)} stopped at their ceiling ({seconds:g} s, {mb} MB: "
          "ARBITER_JOB_TIMEOUT, ARBITER_JOB_MEMORY_MB), each storing a 'ceiling' answer")
    print(f"worst case: {brief(slowest)}")
    return 1 if any(failed(r.figures) for r in rows) else 0


def main() -> int:
    if len(sys.argv) == 3 and sys.argv[1] == "--zygote":
        zygote_main(sys.argv[2])
        return 0
    url = os.environ.get("REDIS_URL")
    with tempfile.TemporaryDirectory(prefix="bench-limits-") as name:
        tmp = Path(name)
        if url:
            return bench(url, tmp, embedded=False)
        from arbiter.redis_conn import EmbeddedRedis

        server = EmbeddedRedis(tmp / "redis", appendonly=False)
        try:
            return bench(server.start(), tmp, embedded=True)
        finally:
            server.stop()


if __name__ == "__main__":
    sys.exit(main())
