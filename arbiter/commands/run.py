"""``arbiter run``: everything on one machine, for development and demos (what ``make run`` does).

With ``REDIS_URL`` unset it starts the embedded Redis (data and AOF under ``var/``), then RQ worker
subprocesses and the API subprocess, loads the example logs into Redis through the same code as
``POST /v1/replays``, prints the URLs, and waits. SIGINT or SIGTERM stops every process it
started -- API, workers, then Redis -- and it exits.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from importlib import resources
from types import FrameType

import click
import redis

from arbiter import settings, store
from arbiter.redis_conn import EmbeddedRedis
from replays.service import MalformedLog

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


class Stop(Exception):
    """Raised in the main thread by SIGINT/SIGTERM."""


def _on_signal(signum: int, frame: FrameType | None) -> None:
    raise Stop(signal.Signals(signum).name)


def load_examples(url: str) -> list[tuple[str, str]]:
    """Store every example log shipped in ``replays/examples``; returns ``(file, replay id)``."""
    r = redis.Redis.from_url(url, decode_responses=True)
    loaded = []
    try:
        for entry in sorted(resources.files("replays").joinpath("examples").iterdir(),
                            key=lambda p: p.name):
            if not entry.name.endswith(".json"):
                continue
            try:
                stored = store.put_log(r, json.loads(entry.read_text(encoding="utf-8")))
            except MalformedLog as exc:
                click.echo(f"skipped {entry.name}: {exc}", err=True)
                continue
            except Exception as exc:  # a broken engine must not keep the dev stack from starting
                click.echo(f"skipped {entry.name}: {type(exc).__name__}: {exc}", err=True)
                continue
            loaded.append((entry.name, stored.replay_id))
    finally:
        r.close()
    return loaded


def wait_healthy(url: str, proc: subprocess.Popen[bytes], timeout: float = 30.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            with urllib.request.urlopen(url, timeout=1) as resp:
                if resp.status == 200:
                    return True
        except (urllib.error.URLError, OSError):
            pass
        time.sleep(0.1)
    return False


def stop_children(children: list[subprocess.Popen[bytes]], timeout: float = 10.0) -> None:
    """SIGTERM each child, wait, then SIGKILL whatever is left."""
    for proc in children:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
    deadline = time.monotonic() + timeout
    for proc in children:
        try:
            proc.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=5000, show_default=True, type=int)
@click.option("--workers", default=2, show_default=True, type=click.IntRange(min=0, max=16))
@click.option("--examples/--no-examples", default=True, show_default=True,
              help="Load replays/examples/*.json into Redis.")
def run(host: str, port: int, workers: int, examples: bool) -> None:
    """Redis (embedded unless REDIS_URL), RQ workers and the API; Ctrl-C stops them all."""
    cfg = settings.load()
    previous = {sig: signal.signal(sig, _on_signal) for sig in STOP_SIGNALS}
    embedded: EmbeddedRedis | None = None
    children: list[subprocess.Popen[bytes]] = []
    try:
        url = cfg.redis_url
        if url is None:
            embedded = EmbeddedRedis(cfg.data_dir)
            url = embedded.start()
            click.echo(f"redis  {url} (embedded, pid {embedded.pid}, data in {cfg.data_dir})")
        else:
            click.echo(f"redis  {url}")
        env = {**os.environ, "REDIS_URL": url, "PYTHONUNBUFFERED": "1"}
        python = [sys.executable, "-m", "arbiter"]
        for _ in range(workers):
            children.append(subprocess.Popen([*python, "worker"], env=env))
        if examples:
            for name, replay_id in load_examples(url):
                click.echo(f"loaded {name} as {replay_id}")
        api = subprocess.Popen([*python, "serve", "--host", host, "--port", str(port)], env=env)
        children.append(api)
        base = f"http://{host}:{port}"
        if not wait_healthy(f"{base}/healthz", api):
            raise click.ClickException("the API did not become healthy")
        example = os.path.join("replays", "examples", "shields-cap.json")
        click.echo(f"\nAPI     {base}/v1\nDocs    {base}/docs\nOpenAPI {base}/openapi.json\n"
                   f"Try:    curl -s -X POST -H 'Content-Type: application/json' "
                   f"--data @{example} {base}/v1/replays\n"
                   f"{workers} workers running; Ctrl-C stops everything.", )
        while True:
            for proc in children:
                if proc.poll() is not None:
                    raise click.ClickException(f"process {proc.args!r} exited with {proc.returncode}")
            time.sleep(0.2)
    except Stop as stop:
        click.echo(f"\n{stop}: stopping")
    finally:
        for sig in STOP_SIGNALS:
            signal.signal(sig, signal.SIG_IGN)
        stop_children(children)
        if embedded is not None:
            embedded.stop()
        for sig, handler in previous.items():
            signal.signal(sig, handler)
