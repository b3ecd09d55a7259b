"""``arbiter run``: everything on one machine, kept up (what ``make run`` does).

It opens the API's listening socket first (a busy port is reported and nothing is started), starts
the embedded Redis (unless ``REDIS_URL`` is set; data and AOF under ``var/``, a unix socket whose
path never changes), RQ worker subprocesses and the API subprocess (``arbiter serve`` on gunicorn,
given the socket), loads the example logs through the same code as ``POST /v1/replays``, checks
that ``/healthz`` answers from its own API child, prints the URLs and supervises
(:mod:`arbiter.supervise`): a process that dies is restarted with backoff and logged as a JSON
line on stderr. SIGINT or SIGTERM stops every process it started -- API and workers, then Redis
-- and it exits.
"""

from __future__ import annotations

import json
import os
import secrets
import signal
import sys
import time
import urllib.error
import urllib.request
from importlib import resources
from types import FrameType
from typing import Any

import click

from arbiter import settings, store
from arbiter.commands.serve import DEFAULT_THREADS, DEFAULT_WORKERS, listen
from arbiter.redis_conn import EmbeddedRedis, check_reachable, connect, redact
from arbiter.supervise import Process, Redis, Service, Supervisor, log_to_stderr
from replays.service import MalformedLog

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)
INSTANCE_HEADER = "X-Arbiter-Instance"  # api.wsgi.INSTANCE_HEADER (not imported: no Flask here)
HEALTH_TIMEOUT = 60.0
POLL_INTERVAL = 0.1


class Stop(Exception):
    """Raised in the main thread by SIGINT/SIGTERM."""


def _on_signal(signum: int, frame: FrameType | None) -> None:
    raise Stop(signal.Signals(signum).name)


def load_examples(url: str) -> list[tuple[str, str]]:
    """Store every example log shipped in ``replays/examples``; returns ``(file, replay id)``."""
    r = connect(url, decode_responses=True)
    loaded = []
    try:
        root = resources.files("replays").joinpath("examples")
        # the examples of every game: Destiny's at the top, each other game's in its own folder
        entries = sorted((e for e in root.iterdir() if e.name.endswith(".json")), key=lambda p: p.name)
        for folder in sorted((e for e in root.iterdir() if e.is_dir()), key=lambda p: p.name):
            entries += sorted((e for e in folder.iterdir() if e.name.endswith(".json")), key=lambda p: p.name)
        for entry in entries:
            try:
                stored = store.put_log(r, json.loads(entry.read_text(encoding="utf-8")))
            except MalformedLog as exc:
                click.echo(f"skipped {entry.name}: {exc}", err=True)
                continue
            except Exception as exc:  # a broken engine must not keep the dev stack from starting
                click.echo(f"skipped {entry.name}: {type(exc).__name__}: {exc}", err=True)
                continue
            loaded.append((entry.name, stored.replay_id))
        for name, log in sample_games():
            try:
                loaded.append((name, store.put_log(r, log).replay_id))
            except Exception as exc:  # as above: a sample must not keep the stack from starting
                click.echo(f"skipped {name}: {type(exc).__name__}: {exc}", err=True)
    finally:
        r.close()
    return loaded


#: the complete games ``make run`` stores beside the examples, for the replay viewer (seeded: the
#: same games, and so the same IDs, on every machine)
SAMPLE_GAMES = (("sample-1", "AW-H", "AW-V"), ("sample-2", "LEG-H", "LEG-V"))


def sample_games() -> list[tuple[str, dict[str, Any]]]:
    """Self-play games under each game's own first policy, titled for the list of replays."""
    from replays.selfplay import play_game, policies

    out = []
    for seed, hero, villain in SAMPLE_GAMES:
        named = policies()
        log = play_game(seed, hero, villain, policy=named[0] if named else None).log
        log["meta"]["title"] = f"Sample game: {log['players'][0]['name']} v {log['players'][1]['name']} ({seed})"
        out.append((f"self-play {seed}", log))
    return out


def wait_healthy(url: str, api: Service, instance: str, timeout: float = HEALTH_TIMEOUT) -> None:
    """Wait until ``url`` answers 200 from the API child that was given ``instance``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        code = api.poll()
        if code is not None:
            raise click.ClickException(f"the API process exited with {code} before it answered")
        try:
            with urllib.request.urlopen(url, timeout=2) as resp:
                if resp.status == 200:
                    if resp.headers.get(INSTANCE_HEADER) != instance:
                        raise click.ClickException(
                            f"{url} is answered by another process, not by this API")
                    return
        except (urllib.error.URLError, OSError):
            pass
        time.sleep(POLL_INTERVAL)
    raise click.ClickException(f"the API did not become healthy within {timeout:.0f} s")


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=5000, show_default=True, type=click.IntRange(0, 65535))
@click.option("--workers", default=2, show_default=True, type=click.IntRange(min=0, max=16),
              help="RQ worker processes.")
@click.option("--api-workers", default=DEFAULT_WORKERS, show_default=True,
              type=click.IntRange(min=1, max=64), help="gunicorn worker processes of the API.")
@click.option("--api-threads", default=DEFAULT_THREADS, show_default=True,
              type=click.IntRange(min=1, max=256), help="Threads per API worker process.")
@click.option("--examples/--no-examples", default=True, show_default=True,
              help="Load replays/examples/*.json into Redis.")
def run(host: str, port: int, workers: int, api_workers: int, api_threads: int,
        examples: bool) -> None:
    """Redis (embedded unless REDIS_URL), RQ workers and the API, restarted when they die;
    Ctrl-C stops them all."""
    cfg = settings.load()  # (a value that cannot be used: one line, see arbiter.cli, nothing started)
    log_to_stderr()
    previous = {sig: signal.signal(sig, _on_signal) for sig in STOP_SIGNALS}
    supervisor = Supervisor()
    listener = None
    try:
        listener = listen(host, port)  # before anything starts: a busy port stops us here
        url = cfg.redis_url
        needs: tuple[str, ...] = ()
        if url is None:
            embedded = EmbeddedRedis(cfg.data_dir, appendfsync=cfg.redis_fsync)  # (settings.load checked it)
            supervisor.add(Redis(embedded))
            try:
                supervisor.start("redis")  # (a data dir that is a file, or not writable: SettingError)
            except RuntimeError as exc:  # the data dir is in use, or redis-server would not start
                raise click.ClickException(str(exc)) from exc
            url = embedded.url
            needs = ("redis",)
            click.echo(f"redis  {url} (embedded, pid {embedded.pid}, data in {cfg.data_dir})")
        else:
            check_reachable(url)  # before any worker starts: one line, not workers dying in a loop
            click.echo(f"redis  {redact(url)}")
        env = {**os.environ, "REDIS_URL": url, "PYTHONUNBUFFERED": "1"}
        python = [sys.executable, "-m", "arbiter"]
        for i in range(1, workers + 1):
            supervisor.add(Process(f"worker-{i}", [*python, "worker"], env), needs=needs)
            supervisor.start(f"worker-{i}")
        if examples:
            for name, replay_id in load_examples(url):
                click.echo(f"loaded {name} as {replay_id}")
        instance = secrets.token_hex(16)
        fd = listener.fileno()
        api = Process("api", [*python, "serve", "--fd", str(fd), "--workers", str(api_workers),
                              "--threads", str(api_threads)],
                      {**env, "ARBITER_INSTANCE": instance}, pass_fds=[fd])
        supervisor.add(api, needs=needs)
        supervisor.start("api")
        shown = f"[{host}]" if ":" in host else host
        base = f"http://{shown}:{port}"
        wait_healthy(f"{base}/healthz", api, instance)
        example = os.path.join("replays", "examples", "shields-cap.json")
        click.echo(f"\nPages   {base}/  (rules, quick position, replays, events)\nAPI     {base}/v1\n"
                   f"Replays {base}/replays  (the replay viewer)\nDocs    {base}/docs\n"
                   f"OpenAPI {base}/openapi.json\n"
                   f"Try:    curl -s -X POST -H 'Content-Type: application/json' "
                   f"--data @{example} {base}/v1/replays\n"
                   f"{workers} workers running; Ctrl-C stops everything.")
        while True:
            supervisor.check()
            time.sleep(POLL_INTERVAL)
    except Stop as stop:
        click.echo(f"\n{stop}: stopping")
    finally:
        for sig in STOP_SIGNALS:
            signal.signal(sig, signal.SIG_IGN)
        supervisor.stop()
        if listener is not None:
            listener.close()
        for sig, handler in previous.items():
            signal.signal(sig, handler)
