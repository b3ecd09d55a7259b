"""``arbiter serve``: the HTTP API on Werkzeug's threaded server (loopback by default)."""

from __future__ import annotations

import click


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=5000, show_default=True, type=int)
def serve(host: str, port: int) -> None:
    """Serve the API (REDIS_URL, or the embedded Redis under var/)."""
    from api import create_app

    app = create_app()
    app.run(host=host, port=port, threaded=True, use_reloader=False)
