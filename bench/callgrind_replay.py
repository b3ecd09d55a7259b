"""Replay cost in CPU instructions (valgrind's callgrind), beside python-chess: a figure that does
not move with the machine's load, unlike the wall-clock rates of bench_replay.py.

Each side is run once doing its work once and once doing it twice; the difference is the
instructions of one pass (imports, corpus building and start-up cancel out). Needs valgrind;
takes a few minutes. Not part of ``make bench``: run ``python bench/callgrind_replay.py`` (after
``make compiled`` to count the compiled engine too); ``--game swtcg`` counts SW TCG's replay of
its bench corpus (bench_swtcg.swtcg_corpus) instead of Destiny's, beside python-chess again.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

ARBITER = """
import json, sys
sys.path.insert(0, {root!r}); sys.path.insert(0, {bench!r})
import judge.games.destiny.engine
assert judge.games.destiny.engine.__file__.endswith({suffix!r})
from bench_replay import replay_all
logs = json.load(open({corpus!r}))
for _ in range(int(sys.argv[1])):
    replay_all(logs)
"""

SWTCG = """
import json, sys
sys.path.insert(0, {root!r}); sys.path.insert(0, {bench!r})
import judge.games.swtcg.engine
assert judge.games.swtcg.engine.__file__.endswith({suffix!r})
from bench_swtcg import replay_corpus
logs = json.load(open({corpus!r}))
for _ in range(int(sys.argv[1])):
    replay_corpus(logs)
"""

CHESS = """
import sys
sys.path.insert(0, {bench!r})
from bench_replay import pgn_corpus, replay_pgn
pgn = pgn_corpus({moves})
for _ in range(int(sys.argv[1])):
    replay_pgn(pgn)
"""


def instructions(script: str, passes: int, cwd: str = ROOT) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        out = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={tmp}/cg.out",
                              sys.executable, "-c", script, str(passes)], cwd=cwd,
                             capture_output=True, text=True, check=True, env={**os.environ, "PYTHONHASHSEED": "0"})
    m = re.search(r"Collected : (\d+)", out.stderr)
    if not m:
        raise RuntimeError(out.stderr[-2000:])
    return int(m.group(1))


def one_pass(script: str, cwd: str = ROOT) -> int:
    return instructions(script, 2, cwd) - instructions(script, 1, cwd)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("games", type=int, nargs="?", default=None,
                    help="self-play games in the corpus (Destiny: 60, SW TCG: 20)")
    ap.add_argument("--game", choices=("destiny", "swtcg"), default="destiny")
    args = ap.parse_args()
    if shutil.which("valgrind") is None:
        print("valgrind is not installed: no instruction counts")
        return
    sys.path.insert(0, ROOT)
    sys.path.insert(0, os.path.join(ROOT, "bench"))
    if args.game == "swtcg":
        from bench_swtcg import swtcg_corpus

        logs = swtcg_corpus(20 if args.games is None else args.games)
        script = SWTCG
    else:
        from bench_replay import corpus

        logs = corpus(60 if args.games is None else args.games)
        script = ARBITER
    steps = sum(len(log["steps"]) for log in logs)
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as fh:
        json.dump(logs, fh)
    sys.path.insert(0, os.path.join(ROOT, "tools"))
    from build_compiled import TREE, up_to_date

    tree = str(TREE)
    try:
        bench = os.path.join(ROOT, "bench")
        c = one_pass(CHESS.format(bench=bench, moves=steps))
        a = one_pass(script.format(root=ROOT, bench=bench, corpus=fh.name, suffix=".py"))
        m = (one_pass(script.format(root=tree, bench=os.path.join(tree, "bench"), corpus=fh.name, suffix=".so"),
                      cwd=tree) if up_to_date() else None)
    finally:
        os.unlink(fh.name)
    print(f"{args.game}: {steps} steps in {len(logs)} self-play games")
    print(f"instructions: python-chess {c / steps:,.0f} per PGN move ({steps} moves)")
    print(f"arbiter, pure Python: {a / steps:,.0f} per step; ratio of rates to python-chess {c / a:.2f}")
    if m is None:
        print("arbiter, compiled: not built, or built from older sources (make compiled)")
    else:
        goal = 2  # issue 17: every game compiled at least twice python-chess's rate (pure: at least once)
        print(f"arbiter, compiled (mypyc): {m / steps:,.0f} per step; ratio of rates to python-chess {c / m:.2f} "
              f"(goal >= {goal:.2f})")


if __name__ == "__main__":
    main()
