"""The project's one random generator: ``sha256-ctr``, documented so any language can repeat it.

Showdown's PRNG exists so that a seed plus the players' choices replays a game exactly
(STYLE.md section 2). Python's ``random`` is not portable across languages, so the engine never
uses it. The algorithm:

- block *i* (i = 0, 1, 2, ...) is ``SHA-256(utf8(seed) || b":" || ascii(decimal i))``;
- the stream of 64-bit words is each block's 32 bytes read as four big-endian unsigned 64-bit
  integers, in order;
- ``below(n)`` takes words until one is below ``floor(2**64 / n) * n`` (rejection, no modulo
  bias) and returns it modulo ``n``;
- ``shuffle(items)`` is Fisher-Yates from the last index down: for i = len-1 .. 1, j = below(i+1),
  swap items[i] and items[j];
- ``choice(items)`` is ``items[below(len(items))]``.

The generator's whole state is (seed, words drawn), so it can be written into a position.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import Final, TypeVar

from judge.kernel.digest import sha256

ALGORITHM = "sha256-ctr"
# a block read as eight big-endian unsigned 32-bit halves: each 64-bit word is two of them (high,
# low), small integers the compiled engine keeps unboxed, where a word from 2**62 up is a heap
# integer every operation allocates
_HALVES: Final = struct.Struct(">8L")
# (Final: the compiled engine keeps these in C statics, called without a look-up by name at each block)
_UNPACK: Final = _HALVES.unpack
_SHA256: Final = sha256
_HALF: Final = 1 << 32
_SMALL_BOUND: Final = 1 << 31  # below(n) for n up to this works on the halves (see below)
T = TypeVar("T")


class Rng:
    """A seeded, counter-based generator. ``drawn`` counts the 64-bit words consumed."""

    __slots__ = ("seed", "drawn", "_block", "_block_index")

    def __init__(self, seed: str, drawn: int = 0):
        if drawn < 0:
            raise ValueError("drawn counts words already used: 0 or more")
        self.seed = str(seed)
        self.drawn = drawn  # counter-based: any position in the stream is reached at once
        self._block: tuple[int, ...] = ()  # the current block's eight 32-bit halves
        self._block_index = -1

    def _load(self, index: int) -> None:
        digest = _SHA256(f"{self.seed}:{index}".encode()).digest()
        self._block = _UNPACK(digest)  # four big-endian 64-bit words, as (high, low) halves
        self._block_index = index

    def word(self) -> int:
        """The next unsigned 64-bit word of the stream."""
        block, offset = divmod(self.drawn, 4)
        if block != self._block_index:
            self._load(block)
        self.drawn += 1
        return (self._block[2 * offset] << 32) | self._block[2 * offset + 1]

    def below(self, n: int) -> int:
        """A uniform integer in [0, n)."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        if n > _SMALL_BOUND:
            limit = (2**64 // n) * n
            while True:
                w = self.word()
                if w < limit:
                    return w % n
        # The same, on the word's halves (hi, lo) with small integers only: the word w = hi * 2**32
        # + lo is rejected when w >= limit = 2**64 - r, r = 2**64 mod n < n <= 2**31, i.e. exactly
        # when hi = 2**32 - 1 and lo >= 2**32 - r; and w mod n = ((hi mod n) * (2**32 mod n) + lo)
        # mod n (tests/judge/kernel/test_rng.py compares it with the definition).
        m = _HALF % n  # 2**32 mod n
        while True:
            drawn = self.drawn
            if drawn >> 2 != self._block_index:  # (the block of word ``drawn``: drawn // 4)
                self._load(drawn >> 2)
            self.drawn = drawn + 1
            half = (drawn & 3) << 1  # (its high half: 2 * (drawn % 4))
            block = self._block
            hi = block[half]
            lo = block[half + 1]
            # (2**32 - r, the cut, is worked out only for the rare high half that needs it)
            if hi != 0xFFFFFFFF or lo < _HALF - (m * m) % n:
                return ((hi % n) * m + lo) % n

    def choice(self, items: Sequence[T]) -> T:
        if not items:
            raise ValueError("choice() from an empty sequence")
        return items[self.below(len(items))]

    def shuffle(self, items: list[T]) -> None:
        if len(items) > _SMALL_BOUND:
            for i in range(len(items) - 1, 0, -1):
                j = self.below(i + 1)
                items[i], items[j] = items[j], items[i]
            return
        # (below(i + 1) on the halves, inline: a method call less for each card of a deck shuffled;
        # tests/judge/kernel/test_rng.py compares it with below)
        for i in range(len(items) - 1, 0, -1):
            n = i + 1
            m = _HALF % n
            while True:
                drawn = self.drawn
                if drawn >> 2 != self._block_index:
                    self._load(drawn >> 2)
                self.drawn = drawn + 1
                half = (drawn & 3) << 1
                block = self._block
                hi = block[half]
                lo = block[half + 1]
                if hi != 0xFFFFFFFF or lo < _HALF - (m * m) % n:
                    j = ((hi % n) * m + lo) % n
                    break
            items[i], items[j] = items[j], items[i]

    def state(self) -> dict[str, object]:
        return {"algorithm": ALGORITHM, "seed": self.seed, "drawn": self.drawn}

    def copy(self) -> Rng:
        other = Rng(self.seed)
        other.drawn = self.drawn
        return other
