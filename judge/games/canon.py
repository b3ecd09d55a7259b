"""Canonical hashing, shared by every game: a state's position as canonical JSON, and its hash.

    canonical = JSON with keys sorted, no insignificant whitespace, ASCII only (\\u escapes),
    integers as decimal, lists in the order the game keeps them, no floats.
    state hash = "sha256:" + SHA-256 of the canonical bytes.

Two states with the same position (hidden information included) and the same count of random
words drawn have the same hash on every machine and Python version.
"""

from __future__ import annotations

import json
from json.encoder import encode_basestring_ascii
from typing import Any, Final

from judge.kernel.digest import sha256_bulk

# (Final: the compiled engine keeps it in a C static, not looked up by name in the module at each call)
_QUOTE: Final = encode_basestring_ascii
# the ASCII characters ``encode_basestring_ascii`` escapes: those outside space to tilde, the backslash
# and the quote (json_strs)
_ESCAPED: Final = bytes((*range(0x20), 0x7F)) + b'\\"'
_ENCODER = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def canonical(doc: Any) -> bytes:
    """The canonical JSON encoding of ``doc`` (a JSON value without floats)."""
    return _ENCODER.encode(doc).encode("ascii")


def state_hash(canonical_bytes: bytes) -> str:
    return "sha256:" + sha256_bulk(canonical_bytes).hexdigest()


# -- writing canonical JSON by hand: a game state that writes its own canonical bytes (every
# checkpoint hashes one, and building the position's dictionaries only to sort and encode them
# costs a replay a tenth of its time) writes its keys in sorted order and each value with these,
# which give what ``canonical`` gives for that value; a value of another type than expected is
# encoded by ``canonical`` itself
def json_doc(value: Any) -> str:
    """Any JSON value, as ``canonical`` writes it."""
    return canonical(value).decode("ascii")


def json_str(value: Any) -> str:
    """A string (or None)."""
    if type(value) is str:
        return _QUOTE(value)
    return "null" if value is None else json_doc(value)


def json_int(value: Any) -> str:
    """An integer. (``str`` of an exact ``int`` is its ``repr``; compiled, ``str`` is one C call where
    ``int.__repr__`` is a method looked up on the type at every call.)"""
    return str(value) if type(value) is int else json_doc(value)


def json_bool(value: Any) -> str:
    """A boolean."""
    return "true" if value is True else "false" if value is False else json_doc(value)


def json_strs(values: Any) -> str:
    """A list of strings (codes, references), each quoted. Most hold no character that JSON
    escapes (codes and references never do): then the list is written as ``["a","b"]``, one join,
    told so by deleting what JSON escapes from the join's bytes (only the separators' quotes go);
    else by ``encode_basestring_ascii`` of the join (an escape always writes more than the one
    character it stands for, so its output is exactly 2n characters longer, the two quotes around and
    the separators' 2(n - 1) quotes, each escaped, when no value needed one: a non-ASCII character
    that needs none); otherwise each is quoted by ``encode_basestring_ascii``. A list holding
    something else than strings is written by ``canonical``."""
    n = len(values)
    if not n:
        return "[]"
    try:
        body = '","'.join(values)
    except TypeError:  # not only strings
        return json_doc(list(values))
    # (no escape in any value, told without quoting the join: it is ASCII (a flag of the string, read
    # at once) and what JSON escapes there, a control character, DEL, a backslash or a quote, deleted from
    # its bytes, leaves all but the separators' 2(n - 1) quotes)
    if body.isascii() and len(body.encode().translate(None, _ESCAPED)) == len(body) - 2 * n + 2:
        return '["' + body + '"]'
    if len(_QUOTE(body)) != len(body) + 2 * n:
        return "[" + ",".join(map(_QUOTE, values)) + "]"
    return '["' + body + '"]'
