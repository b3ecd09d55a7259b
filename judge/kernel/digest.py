"""SHA-256 for the random generator and the state hashes, from CPython's own small implementation.

``hashlib.sha256`` goes through OpenSSL, whose generic digest machinery runs several thousand
instructions of set-up per call, over code large enough to push the engine's own code out of the
processor's instruction cache: a replay draws a block of random words every few steps and hashes a
position at every checkpoint, so that cost is paid thousands of times per log. CPython ships its
own SHA-256 (the module ``hashlib`` falls back on: ``_sha256`` up to 3.11, ``_sha2`` from 3.12);
the digest is the same, by definition (tests/judge/kernel/test_digest.py checks it against
hashlib's). Where neither is built, hashlib's is used.

``sha256_bulk`` is hashlib's own, for long inputs hashed rarely (a position's canonical bytes, a
kilobyte or more, at each checkpoint): there OpenSSL's faster rounds repay its set-up (a 1.5 kB
position costs about 50k instructions where CPython's costs 79k).
"""

from __future__ import annotations

import hashlib
import importlib
from collections.abc import Callable
from typing import Any

__all__ = ["sha256", "sha256_bulk"]


def _builtin_sha256() -> Callable[..., Any]:
    for name in ("_sha256", "_sha2"):  # CPython up to 3.11; from 3.12
        try:
            return importlib.import_module(name).sha256
        except (ImportError, AttributeError):
            continue
    return hashlib.sha256  # pragma: no cover - a Python without its own SHA-256


sha256: Callable[..., Any] = _builtin_sha256()
sha256_bulk: Callable[..., Any] = hashlib.sha256
