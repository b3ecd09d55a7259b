"""The compiled engine's time on a corpus, for the benches that print it beside the pure Python one.

The compiled tree (``make compiled``: mypyc, var/compiled/tree) runs in a subprocess on the same
logs (written to a temporary JSON file), timed there with the bench's own replay function, as
bench_replay.py does for Destiny. Not a bench itself (bench/run.py runs bench_*.py only).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

RATE = """
import json, sys
sys.path.insert(0, {tree!r}); sys.path.insert(0, {bench!r})
import {module} as compiled
assert compiled.__file__.endswith(".so"), compiled.__file__
from bench_replay import best_of
from {bench_module} import {function} as replay_logs
logs = json.load(open({path!r}))
print(best_of(lambda: replay_logs(logs), repeat={repeat}))
"""


def compiled_seconds(logs: list[dict], module: str, bench_module: str, function: str, repeat: int) -> float | None:
    """Best time of ``bench_module.function(logs)`` in the compiled tree, asserting that ``module``
    is an extension module there; None when the tree is not built from the sources as they are now."""
    sys.path.insert(0, os.path.join(ROOT, "tools"))
    from build_compiled import TREE, up_to_date

    if not up_to_date():
        return None
    tree = str(TREE)
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as fh:
        json.dump(logs, fh)
        path = fh.name
    try:
        code = RATE.format(tree=tree, bench=os.path.join(tree, "bench"), module=module, bench_module=bench_module,
                           function=function, path=path, repeat=repeat)
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=tree)
    finally:
        os.unlink(path)
    return float(out.stdout.strip())
