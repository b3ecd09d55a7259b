"""``arbiter serve``: the HTTP API on gunicorn (loopback by default).

gunicorn's master process loads the app once (``api.wsgi:app``) and forks ``--workers``
processes of ``--threads`` threads each (the ``gthread`` worker); a worker is replaced after about
``--max-requests`` requests (with jitter, so they do not all restart at once), and on SIGTERM each
finishes its requests for up to ``--graceful-timeout`` seconds. gunicorn's access log is off: the
app writes one JSON line per request itself (``api.requestlog``).

The listening socket is opened here before anything else, so a busy port is reported at once; with
``--fd`` (what ``arbiter run`` does) the socket is one the caller opened and passed down, and stays
open across restarts of this process. ``--dev`` serves on Werkzeug's development server instead.

The settings are read before gunicorn starts (:func:`check_settings`): a value that cannot be used,
a ``REDIS_URL`` redis-py cannot read or a data directory that cannot be used is one line
(``Error: ...``), not a traceback from gunicorn's master. A Redis that does not answer is not
refused: the API answers 503 until it does.
"""

from __future__ import annotations

import errno
import json
import os
import signal
import socket
import sys
from typing import Any

import click

#: 2 processes x 4 threads suits a 2-core machine: requests wait mostly on Redis.
DEFAULT_WORKERS = 2
DEFAULT_THREADS = 4
BACKLOG = 2048


class PortInUse(click.ClickException):
    """The address is taken by another process."""


def listen(host: str, port: int, backlog: int = BACKLOG) -> socket.socket:
    """A TCP socket bound to ``host:port`` and listening; a clear error when that is impossible."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as exc:
        raise click.ClickException(f"cannot listen on {host}:{port}: {exc.strerror}") from exc
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    try:
        # Lets a restart bind while old connections linger in TIME_WAIT; another process
        # listening on the port still makes bind fail.
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(backlog)
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            raise PortInUse(f"port {port} is in use by another process "
                            f"(cannot listen on {host}:{port})") from exc
        raise click.ClickException(f"cannot listen on {host}:{port}: {exc.strerror}") from exc
    return sock


def check_settings() -> None:
    """What ``api.create_app`` would fail on, as :class:`~arbiter.settings.SettingError`: the
    settings, ``REDIS_URL`` (read, not reached) and, with no URL, the embedded Redis's data
    directory."""
    from arbiter import settings
    from arbiter.redis_conn import check_url

    cfg = settings.load()
    if cfg.redis_url is not None:
        check_url(cfg.redis_url)
    else:
        settings.check_data_dir(cfg.data_dir)


def gunicorn_options(fd: int, workers: int, threads: int, timeout: int, graceful_timeout: int,
                     max_requests: int) -> dict[str, Any]:
    """gunicorn settings for serving on the listening socket ``fd``."""
    return {
        "bind": [f"fd://{fd}"],
        "worker_class": "gthread",
        "workers": workers,
        "threads": threads,
        "timeout": timeout,
        "graceful_timeout": graceful_timeout,
        "keepalive": 5,
        "max_requests": max_requests,
        "max_requests_jitter": max_requests // 10,
        "preload_app": True,  # loaded once in the master: a broken app fails before any fork
        "accesslog": None,  # api.requestlog writes one JSON line per request
        "errorlog": "-",
        "loglevel": "warning",
        "proc_name": "arbiter-api",
        "control_socket_disable": True,  # its default path is per user: two servers would share it
    }


#: the detail of a refusal gunicorn makes before the app reads the request, by status (else its own words)
_REFUSALS: dict[int, str] = {
    414: "The request line (method, path and query string) is longer than 4094 bytes.",
    431: "The request's header fields are too many or too large.",
    500: "The server could not handle the request.",
}
_MAX_DETAIL = 200


def write_problem(sock: Any, status: int, reason: str, mesg: str) -> None:
    """gunicorn's answer to a request it refuses before the app reads it (a malformed request line or
    header, a request line over 4 KiB): an RFC 9457 ``application/problem+json`` document like the
    app's own (``api.problems``), where gunicorn writes an HTML page (``gunicorn.util.write_error``,
    whose place this takes). No pointer: the fault is in the request line or a header, not a body."""
    from gunicorn import util

    detail = _REFUSALS.get(status) or f"The request is not valid HTTP: {mesg}"
    if len(detail) > _MAX_DETAIL:
        detail = detail[:_MAX_DETAIL - 1] + "\u2026"
    body = json.dumps({"type": "about:blank", "title": reason, "status": status, "detail": detail,
                       "instance": ""}).encode("ascii")
    head = (f"HTTP/1.1 {status} {reason}\r\nConnection: close\r\n"
            f"Content-Type: application/problem+json\r\nContent-Length: {len(body)}\r\n\r\n")
    util.write_nonblock(sock, head.encode("latin-1") + body)


def run_gunicorn(options: dict[str, Any]) -> None:
    from gunicorn import util
    from gunicorn.app.base import BaseApplication

    # (in this process, which becomes gunicorn's master, before its workers are forked: the one
    # place gunicorn writes its own refusals, gunicorn.workers.base.Worker.handle_error, calls this)
    util.write_error = write_problem

    class App(BaseApplication):
        def load_config(self) -> None:
            for key, value in options.items():
                self.cfg.set(key, value)

        def load(self) -> Any:
            from api.wsgi import app

            return app

    App().run()


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=5000, show_default=True, type=click.IntRange(0, 65535))
@click.option("--fd", type=click.IntRange(min=0), default=None,
              help="Serve on this listening socket (opened by the caller) instead of --host/--port.")
@click.option("--workers", default=DEFAULT_WORKERS, show_default=True,
              type=click.IntRange(min=1, max=64), help="gunicorn worker processes.")
@click.option("--threads", default=DEFAULT_THREADS, show_default=True,
              type=click.IntRange(min=1, max=256), help="Threads per worker process.")
@click.option("--timeout", default=30, show_default=True, type=click.IntRange(min=1),
              help="A worker silent for this many seconds is killed and replaced.")
@click.option("--graceful-timeout", default=10, show_default=True, type=click.IntRange(min=1),
              help="Seconds a stopping worker has to finish its requests.")
@click.option("--max-requests", default=2000, show_default=True, type=click.IntRange(min=0),
              help="Replace a worker after about this many requests (0: never).")
@click.option("--redis-url", default=None, metavar="URL",
              help="Redis to use (overrides REDIS_URL; default: embedded, data under var/).")
@click.option("--dev", is_flag=True, help="Werkzeug's development server instead of gunicorn.")
def serve(host: str, port: int, fd: int | None, workers: int, threads: int, timeout: int,
          graceful_timeout: int, max_requests: int, redis_url: str | None, dev: bool) -> None:
    """Serve the API (REDIS_URL, or the embedded Redis under var/)."""
    if redis_url is not None:
        from arbiter.commands.worker import check_redis_url

        os.environ["REDIS_URL"] = check_redis_url(redis_url)  # read by create_app
    check_settings()
    if fd is None:
        fd = listen(host, port).detach()  # from here on the server owns (and closes) the socket
    if dev:
        from werkzeug.serving import make_server

        from api.wsgi import app

        server = make_server(host, port, app, threaded=True, fd=fd)
        # SIGTERM stops it as Ctrl-C does (exit handlers run: an embedded Redis is shut down).
        signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(0))
        click.echo(f"Werkzeug development server on http://{host}:{port} (not for production)")
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            pass
        finally:
            server.server_close()
    else:
        run_gunicorn(gunicorn_options(fd, workers, threads, timeout, graceful_timeout,
                                      max_requests))
