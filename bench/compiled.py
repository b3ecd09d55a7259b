"""The compiled engine's time on a corpus, for the benches that print it beside the pure Python one,
and the rounds that time each side of a comparison in turn.

The compiled tree (``make compiled``: mypyc, var/compiled/tree) runs in a subprocess on the same
logs (written to a temporary JSON file), kept open and timing one pass of the bench's own replay
function each time it is asked (:class:`CompiledPasses`). :func:`rounds` times every side once a
round, in a rotating order, and keeps each side's best: the sides of a ratio are timed under the same
conditions, not one after the other (on a shared machine a slow spell then fell on one side only).
Not a bench itself (bench/run.py runs bench_*.py only).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

PASSES = """
import json, sys, time
sys.path.insert(0, {tree!r}); sys.path.insert(0, {bench!r})
import {module} as compiled
assert compiled.__file__.endswith(".so"), compiled.__file__
from {bench_module} import {function} as replay_logs
logs = json.load(open({path!r}))
print("ready", flush=True)
for _ in sys.stdin:
    t = time.perf_counter()
    replay_logs(logs)
    print(time.perf_counter() - t, flush=True)
"""


class CompiledPasses:
    """``bench_module.function(logs)`` in the compiled tree, in a subprocess kept open: each call
    times one pass there and returns its seconds. ``module`` must be an extension module there."""

    def __init__(self, logs: list[dict], module: str, bench_module: str, function: str) -> None:
        sys.path.insert(0, os.path.join(ROOT, "tools"))
        from build_compiled import TREE

        tree = str(TREE)
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as fh:
            json.dump(logs, fh)
            self.path = fh.name
        code = PASSES.format(tree=tree, bench=os.path.join(tree, "bench"), module=module,
                             bench_module=bench_module, function=function, path=self.path)
        self.proc = subprocess.Popen([sys.executable, "-c", code], cwd=tree, text=True,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        if self._line() != "ready":
            self.close()
            raise RuntimeError("the compiled tree did not start")

    def _line(self) -> str:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"the compiled run stopped ({self.proc.wait()})")
        return line.strip()

    def __call__(self) -> float:
        assert self.proc.stdin is not None
        self.proc.stdin.write("\n")
        self.proc.stdin.flush()
        return float(self._line())

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        self.proc.wait(60)
        os.unlink(self.path)


def compiled_passes(logs: list[dict], module: str, bench_module: str, function: str) -> CompiledPasses | None:
    """:class:`CompiledPasses`, or None when the compiled tree is not built from the sources as they
    are now (``make compiled``)."""
    sys.path.insert(0, os.path.join(ROOT, "tools"))
    from build_compiled import up_to_date

    return CompiledPasses(logs, module, bench_module, function) if up_to_date() else None


def timed(fn: Callable[[], object]) -> Callable[[], float]:
    """``fn`` as a side of :func:`rounds`: a call runs it once and returns its seconds."""

    def run() -> float:
        t = time.perf_counter()
        fn()
        return time.perf_counter() - t

    return run


def rounds(sides: dict[str, Callable[[], float] | None], repeat: int) -> dict[str, float | None]:
    """Each side's best seconds over ``repeat`` rounds; a round times every side once, the side that
    goes first moving on by one each round. A side given as None (not built) stays None."""
    live = [name for name, fn in sides.items() if fn is not None]
    best: dict[str, float] = {}
    for r in range(repeat):
        k = r % len(live)
        for name in live[k:] + live[:k]:
            fn = sides[name]
            assert fn is not None
            t = fn()
            best[name] = min(best.get(name, t), t)
    return {name: best.get(name) for name in sides}


def rounds_with_compiled(sides: dict[str, Callable[[], float]], logs: list[dict], module: str, bench_module: str,
                         function: str, repeat: int = 7) -> dict[str, float | None]:
    """:func:`rounds` of ``sides`` and of ``bench_module.function(logs)`` in the compiled tree (its
    best under ``"compiled"``: None when the tree is not built from the sources as they are now)."""
    compiled = compiled_passes(logs, module, bench_module, function)
    try:
        return rounds({**sides, "compiled": compiled}, repeat)
    finally:
        if compiled is not None:
            compiled.close()
