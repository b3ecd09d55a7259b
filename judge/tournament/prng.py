"""Seeded, language-portable draws for the tournament core.

No ``random``, no clock. Every draw is a pure function of the event seed and a few labels:

    draw(seed, *parts) = first 8 bytes, big-endian, of
        SHA-256( "arbiter/tournament/v1" || 0x00 || seed || 0x00 || part1 || 0x00 || part2 ... )

where ``seed`` and every part are written as UTF-8 decimal/plain text. Any language with
SHA-256 reproduces it bit for bit. It is used for: the seeded order inside a score group
(``draw(seed, "order", round, player)``), the last-resort tie-break of the standings
(``draw(seed, "standing", player)``) and the tiny per-pair noise that makes the optimal
pairing unique (``draw(seed, "noise", round, a, b)`` with a < b).
"""

from __future__ import annotations

import hashlib

_DOMAIN = b"arbiter/tournament/v1"


def draw(seed: int | str, *parts: int | str) -> int:
    """A 64-bit unsigned integer, uniformly spread, determined by ``seed`` and ``parts``."""
    h = hashlib.sha256(_DOMAIN)
    h.update(b"\x00" + str(seed).encode("utf-8"))
    for part in parts:
        h.update(b"\x00" + str(part).encode("utf-8"))
    return int.from_bytes(h.digest()[:8], "big")
