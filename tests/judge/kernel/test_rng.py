"""The random generator (judge/kernel/rng.py) against its documented definition: words, below (its
rejection included, forced with chosen words), shuffle."""

from __future__ import annotations

import hashlib
import struct

import pytest

from judge.kernel.rng import Rng


def words(seed: str, count: int) -> list[int]:
    """The stream as the module's docstring defines it."""
    out: list[int] = []
    i = 0
    while len(out) < count:
        out += struct.unpack(">4Q", hashlib.sha256(f"{seed}:{i}".encode()).digest())
        i += 1
    return out[:count]


def below(stream: list[int], n: int) -> tuple[int, int]:
    """``below(n)`` by the definition, over ``stream``: (value, words used)."""
    limit = (2**64 // n) * n
    for used, w in enumerate(stream, 1):
        if w < limit:
            return w % n, used
    raise AssertionError("stream too short")


BOUNDS = [1, 2, 3, 5, 6, 7, 20, 52, 1000, 2**31 - 1, 2**31, 2**31 + 1, 3 * 2**30, 2**32 - 1, 2**32, 2**32 + 1,
          10**12, 2**63 - 1, 2**63, 2**64 - 1, 2**64]


@pytest.mark.parametrize("seed", ["s", "bench-3", "0"])
def test_words_and_below_follow_the_definition(seed: str) -> None:
    stream = words(seed, 4000)
    rng = Rng(seed)
    assert [rng.word() for _ in range(9)] == stream[:9]
    at = 9
    for k in range(600):
        n = BOUNDS[k % len(BOUNDS)]
        want, used = below(stream[at:], n)
        assert rng.below(n) == want
        at += used
        assert rng.drawn == at


@pytest.mark.parametrize("n", BOUNDS)
def test_below_rejects_exactly_the_words_the_definition_rejects(n: int) -> None:
    top = 2**64 - 1
    limit = (2**64 // n) * n
    chosen = [w for w in (top, limit - 1, limit, top - 1, 2**64 - 2**32, 2**63, 12345) if 0 <= w <= top]
    for first in chosen:
        for second in chosen:
            stream = [first, second, 0, 0]  # (0 is below every limit)
            want = below(stream, n)
            rng = Rng("x")
            rng._block = struct.unpack(">8L", struct.pack(">4Q", *stream))
            rng._block_index = 0
            assert (rng.below(n), rng.drawn) == want, (first, second)


def test_shuffle_is_fisher_yates_over_below() -> None:
    items = list(range(30))
    rng, ref = Rng("deck"), Rng("deck")
    rng.shuffle(items)
    expected = list(range(30))
    for i in range(29, 0, -1):
        j = ref.below(i + 1)
        expected[i], expected[j] = expected[j], expected[i]
    assert items == expected and rng.drawn == ref.drawn


@pytest.mark.parametrize(("seed", "size"), [("deck", 0), ("deck", 1), ("bench-0", 2), ("s", 52), ("0", 200)])
def test_shuffle_draws_what_below_draws(seed: str, size: int) -> None:
    """``shuffle`` works ``below`` out inline: the same order and the same words used as
    Fisher-Yates over ``below``, from any point of the stream."""
    for start in (0, 3, 5):
        items = list(range(size))
        rng, ref = Rng(seed, start), Rng(seed, start)
        rng.shuffle(items)
        expected = list(range(size))
        for i in range(size - 1, 0, -1):
            j = ref.below(i + 1)
            expected[i], expected[j] = expected[j], expected[i]
        assert items == expected and rng.drawn == ref.drawn


def test_shuffle_rejects_as_below_does() -> None:
    """A word at or above ``below``'s limit is passed over by ``shuffle`` too (forced: the top word
    is rejected by ``below(3)``, whose limit is 2**64 - 1)."""
    top = 2**64 - 1
    stream = [top, 7, top, 11]
    rng, ref = Rng("x"), Rng("x")
    for r in (rng, ref):
        r._block = struct.unpack(">8L", struct.pack(">4Q", *stream))
        r._block_index = 0
    items = ["a", "b", "c"]
    rng.shuffle(items)
    expected = ["a", "b", "c"]
    for i in (2, 1):
        j = ref.below(i + 1)
        expected[i], expected[j] = expected[j], expected[i]
    assert items == expected and rng.drawn == ref.drawn == 3  # two swaps, one word passed over
