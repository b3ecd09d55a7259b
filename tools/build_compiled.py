"""Build the compiled engine (mypyc, see setup.py) in a copy of the tree, and test it.

The copy lives in var/compiled/tree and is built in place there, never in the working tree: an
extension module next to its ``.py`` would shadow every later edit of it. The copy is rebuilt only
when a source file changed (a digest of the copied files is kept beside it).

    python tools/build_compiled.py          build (or find up to date) and print where
    python tools/build_compiled.py --test   build, then run the engine and replay tests in the copy

The build is profile-guided: built once instrumented, run on training games of every game
(tools/pgo_training.py, seeds apart from the benchmarks'), then built again from what ran (setup.py).
``ARBITER_PGO=0`` builds once, without a profile (about half the time).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "var" / "compiled"
TREE = OUT / "tree"
DIGEST = OUT / "digest"
COPIED_DIRS = ("judge", "replays", "worker", "api", "arbiter", "tests", "bench")
COPIED_FILES = ("pyproject.toml", "setup.py", "tools/pgo_training.py")
SKIP_DIRS = {"__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache", ".hypothesis"}
TESTS = ("tests/judge", "tests/replays")


def sources() -> list[Path]:
    out = [ROOT / f for f in COPIED_FILES]
    for d in COPIED_DIRS:
        for dirpath, dirnames, filenames in os.walk(ROOT / d):
            dirnames[:] = sorted(n for n in dirnames if n not in SKIP_DIRS)
            out += [Path(dirpath) / f for f in sorted(filenames) if not f.endswith((".so", ".pyc", ".c"))]
    return out


def pgo() -> bool:
    """Whether the build is profile-guided (``ARBITER_PGO``, default on; ``0`` turns it off)."""
    return os.environ.get("ARBITER_PGO", "1") != "0"


def digest(files: list[Path]) -> str:
    h = hashlib.sha256(b"pgo\0" if pgo() else b"plain\0")
    for f in files:
        h.update(str(f.relative_to(ROOT)).encode() + b"\0" + f.read_bytes() + b"\0")
    return h.hexdigest()


def up_to_date(want: str | None = None) -> bool:
    """The copy was built from the sources as they are now (``want``: their digest, if known)."""
    want = digest(sources()) if want is None else want
    return DIGEST.exists() and DIGEST.read_text() == want and (TREE / "setup.py").exists()


def build() -> Path:
    files = sources()
    want = digest(files)
    if up_to_date(want):
        return TREE
    shutil.rmtree(TREE, ignore_errors=True)
    for f in files:
        dest = TREE / f.relative_to(ROOT)
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(f, dest)
    if pgo():
        profile = OUT / "profile"
        shutil.rmtree(profile, ignore_errors=True)
        _setup({"ARBITER_PGO_GENERATE": str(profile)})
        check_compiled(TREE)
        _run("profile training", [sys.executable, str(TREE / "tools" / "pgo_training.py")])
        _setup({"ARBITER_PGO_USE": str(profile)}, "--force")
    else:
        _setup({})
    DIGEST.write_text(want)
    return TREE


def _setup(env: dict[str, str], *extra: str) -> None:
    """``setup.py build_ext --inplace`` in the copy, compiled, with ``env`` set."""
    _run("compiled build", [sys.executable, "setup.py", "-q", "build_ext", "--inplace", *extra],
         {"ARBITER_COMPILE": "1", **env})


def _run(what: str, cmd: list[str], env: dict[str, str] | None = None) -> None:
    done = subprocess.run(cmd, cwd=TREE, env={**os.environ, **(env or {})}, capture_output=True, text=True)
    if done.returncode != 0:
        sys.stderr.write(done.stdout[-4000:] + done.stderr[-4000:])
        raise SystemExit(f"{what} failed (exit {done.returncode})")


def check_compiled(tree: Path) -> None:
    """The copy imports the extension modules, not the ``.py`` files beside them."""
    code = ("import judge.games.destiny.engine as e, judge.games.swtcg.engine as s, judge.games.relic.engine as g, "
            "replays.replayer as r; files = [m.__file__ for m in (e, s, g, r)]; "
            "assert all(f.endswith('.so') for f in files), files; print(e.__file__)")
    subprocess.run([sys.executable, "-c", code], cwd=tree, check=True, capture_output=True, text=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--test", action="store_true", help="run the engine and replay tests against the build")
    args = ap.parse_args()
    tree = build()
    check_compiled(tree)
    print(f"compiled engine: {tree.relative_to(ROOT)}")
    if args.test:
        done = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *TESTS], cwd=tree)
        raise SystemExit(done.returncode)


if __name__ == "__main__":
    main()
