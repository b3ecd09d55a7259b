"""The WSGI application a server runs: ``api.wsgi:app`` (``arbiter serve`` gives it to gunicorn).

Configuration comes from the environment (``REDIS_URL``, ``ARBITER_*``: see ``api.create_app``).
``ARBITER_INSTANCE``, when set (``arbiter run`` sets it for the API process it starts), is sent
back in the ``X-Arbiter-Instance`` header of ``/healthz``: the supervisor then knows that the
health answer comes from its own child, not from whatever else might answer on the port.
"""

from __future__ import annotations

import os

from flask import Flask, Response, request

from api import create_app

INSTANCE_HEADER = "X-Arbiter-Instance"
HEALTH_PATH = "/healthz"


def build() -> Flask:
    app = create_app()
    instance = os.environ.get("ARBITER_INSTANCE")
    if instance:
        @app.after_request
        def _instance(response: Response) -> Response:
            if request.path == HEALTH_PATH:
                response.headers[INSTANCE_HEADER] = instance
            return response
    return app


app = build()
