"""Helpers shared by the shell tests (examples, app factory, problem assertions)."""

from __future__ import annotations

import copy
import json
import os
import subprocess
from pathlib import Path
from typing import Any

from flask import Flask

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES_DIR = ROOT / "replays" / "examples"
#: ../shared beside the project (the seeds, the shared example logs); from the compiled tree
#: (var/compiled/tree, tools/build_compiled.py) it is beside the project that tree was built from
SHARED = next((p / "shared" for p in ROOT.parents if (p / "shared" / "seeds").is_dir()), ROOT.parent / "shared")
PROBLEM = "application/problem+json"


def create_test_app(redis_url: str, **config: Any) -> Flask:
    from api import create_app

    return create_app({"TESTING": True, "REDIS_URL": redis_url, "RETRY_INTERVAL": 0, **config})


def load_example(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((EXAMPLES_DIR / name).read_text(encoding="utf-8"))
    return data


# every example log: Destiny's at the top of replays/examples, each other game's in its own folder
# (``relic/six-six-two.json``)
EXAMPLE_NAMES = sorted(p.relative_to(EXAMPLES_DIR).as_posix() for p in EXAMPLES_DIR.rglob("*.json"))



def assert_problem(resp: Any, status: int) -> dict[str, Any]:
    """``resp`` is an RFC 9457 problem with ``status``; returns its body."""
    assert resp.status_code == status, resp.get_data(as_text=True)
    assert resp.mimetype == PROBLEM
    body: dict[str, Any] = json.loads(resp.get_data(as_text=True))
    assert body["status"] == status
    assert {"type", "title", "detail", "instance"} <= body.keys()
    return body


def malformed_log() -> dict[str, Any]:
    """shields-cap.json with a wrong format and a step without ``by``."""
    log = copy.deepcopy(load_example("shields-cap.json"))
    log["format"] = "arbiter.replay/0"
    del log["steps"][0]["by"]
    return log


def stop_process(proc: subprocess.Popen[Any], timeout: float = 20.0) -> None:
    """SIGTERM ``proc`` and wait for it; SIGKILL it when it does not exit within ``timeout``."""
    proc.terminate()
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def screenshot(page: Any, tmp_path: Path, name: str, env: str, min_bytes: int = 10_000,
               full_page: bool = False) -> Path:
    """A screenshot of ``page`` under ``tmp_path`` (checked not empty); also to ``ROOT/$env`` when
    that variable names a file (how the docs' pictures are taken)."""
    shot = tmp_path / name
    page.screenshot(path=str(shot), full_page=full_page)
    assert shot.stat().st_size > min_bytes
    target = os.environ.get(env)
    if target:
        page.screenshot(path=str(ROOT / target), full_page=False)
    return shot


class StateCollector:
    """A replay visitor keeping a copy of the state after setup and after every step, and the final one."""

    def __init__(self) -> None:
        self.states: list[Any] = []

    def begin(self, log: Any, setup: Any) -> None:
        self.states.append(setup.state.copy())

    def visit_step(self, record: Any) -> None:
        self.states.append(record.state.copy())

    def end(self, result: Any) -> None:
        self.states.append(result.state)
