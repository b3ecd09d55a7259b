"""A Flask hello-world: the baseline bench/bench_api.py serves on the same gunicorn settings as the API.

``GET /`` answers a short JSON object, as the API does, so the two differ only by what the API
does per request (routing through flask-smorest, Redis, the queue), not by the server or framework.
Served as ``python -m gunicorn --chdir bench hello_app:app``.
"""

from __future__ import annotations

from flask import Flask

app = Flask(__name__)


@app.get("/")
def hello() -> dict[str, str]:
    return {"hello": "world"}
