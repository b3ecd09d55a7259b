"""The SHA-256 the engine uses (judge.kernel.digest) is hashlib's, digest for digest."""

from __future__ import annotations

import hashlib

from hypothesis import given, settings
from hypothesis import strategies as hs

from judge.kernel.digest import sha256, sha256_bulk


@settings(max_examples=300, deadline=None)
@given(hs.binary(max_size=5000))
def test_the_digest_is_hashlib_s(data: bytes) -> None:
    assert sha256(data).hexdigest() == hashlib.sha256(data).hexdigest() == sha256_bulk(data).hexdigest()
    h = sha256()
    h.update(data[:7])
    h.update(data[7:])
    assert h.digest() == hashlib.sha256(data).digest()


def test_known_vectors() -> None:
    assert sha256(b"").hexdigest() == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    assert sha256(b"abc").hexdigest() == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
