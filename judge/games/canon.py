"""Canonical hashing, shared by every game: a state's position as canonical JSON, and its hash.

    canonical = JSON with keys sorted, no insignificant whitespace, ASCII only (\\u escapes),
    integers as decimal, lists in the order the game keeps them, no floats.
    state hash = "sha256:" + SHA-256 of the canonical bytes.

Two states with the same position (hidden information included) and the same count of random
words drawn have the same hash on every machine and Python version.
"""

from __future__ import annotations

import json
from typing import Any

from judge.kernel.digest import sha256

_ENCODER = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def canonical(doc: Any) -> bytes:
    """The canonical JSON encoding of ``doc`` (a JSON value without floats)."""
    return _ENCODER.encode(doc).encode("ascii")


def state_hash(canonical_bytes: bytes) -> str:
    return "sha256:" + sha256(canonical_bytes).hexdigest()
