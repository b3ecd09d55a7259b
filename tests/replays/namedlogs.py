"""A log rewritten with card names where it has codes (tests of judge.games.cardnames): every
string that is a code of the pool, or a reference holding one, is written with the card's name
(its full title when a plain name is shared), wherever the log's reader resolves names."""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from typing import Any

SKIP = frozenset(("expect", "choices", "roll", "random", "note", "dispute", "meta", "name", "id", "rng", "format",
                  "game", "by", "do"))


def rename_strings(value: Any, rename: Callable[[str], str], key: str | None = None) -> Any:
    """A deep copy of ``value`` with each string and object key passed through ``rename``, except
    under the keys of ``SKIP`` (annotations, inputs, player IDs)."""
    if key in SKIP:
        return copy.deepcopy(value)
    if isinstance(value, str):
        return rename(value)
    if isinstance(value, list):
        return [rename_strings(v, rename) for v in value]
    if isinstance(value, dict):
        return {(rename(k) if key not in ("players", "decks", "mulligan", "mulligan_decks", "shields") else k):
                rename_strings(v, rename, k) for k, v in value.items()}
    return value


def with_names(log: dict[str, Any], titles: dict[str, str], code: str, ref: str) -> dict[str, Any]:
    """``log`` with each code (regex ``code``) and each reference (regex ``ref``, groups: player,
    code, the rest) written with ``titles[code]``."""
    code_re, ref_re = re.compile(code), re.compile(ref)

    def rename(text: str) -> str:
        if code_re.match(text) and text in titles:
            return titles[text]
        m = ref_re.match(text)
        if m and m.group(2) in titles:
            return f"{m.group(1)}.{titles[m.group(2)]}{m.group(3) or ''}"
        head, colon, tail = text.rpartition(":")  # an ability's ID in an answer: its card's reference, then the ability
        if colon and head and rename(head) != head:
            return f"{rename(head)}:{tail}"
        return text

    def rename_refs(text: str) -> str:  # a checkpoint's state: references only (its codes stay codes)
        return text if code_re.match(text) else rename(text)

    out = dict(log)
    out["players"] = [{k: (v if k in ("id", "name") else rename_strings(v, rename, k)) for k, v in p.items()}
                      if isinstance(p, dict) else p for p in log["players"]]
    out["setup"] = rename_strings(log["setup"], rename)
    if "position" in log["setup"]:
        pos = out["setup"]["position"]
        pos["players"] = {pid: rename_strings(s, rename) for pid, s in log["setup"]["position"]["players"].items()}
    out["steps"] = [{k: (_answers(v, rename) if k == "choices" else _expected(v, rename_refs) if k == "expect"
                         else v if k in SKIP else rename_strings(v, rename, k))
                     for k, v in s.items()} for s in log["steps"]]
    return out


def _expected(expect: Any, rename: Callable[[str], str]) -> Any:
    """A checkpoint's expected state with its references written with names (its hash and error as
    they are)."""
    if not isinstance(expect, dict) or "state" not in expect:
        return copy.deepcopy(expect)
    return {**copy.deepcopy(expect), "state": rename_strings(expect["state"], rename)}


def _answers(choices: Any, rename: Callable[[str], str]) -> Any:
    """The decisions' answers written with names too (their ``by`` and ``kind`` as they are)."""
    if not isinstance(choices, list):
        return copy.deepcopy(choices)
    return [{**ch, "answer": rename_strings(ch["answer"], rename)} if isinstance(ch, dict) and "answer" in ch
            else copy.deepcopy(ch) for ch in choices]
