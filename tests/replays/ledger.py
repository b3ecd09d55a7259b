"""The hash ledger: every log the test suite replays must reach the same state hashes as before.

The engine's reshaping (one ``Game`` interface for every game) must not change Destiny by a single
state hash. The ledger (``tests/replays/golden/ledger.json``) maps each log the suite replays (its
content address plus the card pool it was replayed with) to the state hash after setup and after
each step, as the engine gave them when the ledger was recorded. While the suite runs, every call
of ``replays.replayer.replay`` is checked against it: a hash that differs fails the test that
replayed the log.

Record it again only when a change of behaviour is meant (and say why in the commit):

    ARBITER_LEDGER=record .venv/bin/python -m pytest
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

LEDGER = Path(__file__).resolve().parent / "golden" / "ledger.json"
_entries: dict[str, list[str]] = {}
_recording = os.environ.get("ARBITER_LEDGER") == "record"
_checked = [0]
UNWRAPPED: list[Any] = []  # the replayer's own replay, for tests of its path without visitors


def _key(log: Any, cards: Any) -> str:
    raw = getattr(log, "raw", log)
    canon = json.dumps(raw, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    table = getattr(cards, "cards", None) or {}
    # a card is told apart by its code, name and the texts of its abilities (a test may replace
    # a card in a pool by another of the same code); a SW TCG card (CardDef) has its text in one string,
    # a Relic card is told apart by its whole definition
    desc = "|".join(f"{code}:{c.name}:" + ("/".join(a.text for a in c.abilities) if hasattr(c, "abilities")
                                           else c.text if type(c).__name__ == "CardDef" else repr(c))
                    for code, c in sorted(table.items()))
    pool = hashlib.sha256(desc.encode("utf-8", "surrogatepass")).hexdigest()[:16]
    return hashlib.sha256(canon.encode("utf-8", "surrogatepass")).hexdigest()[:32] + ":" + pool


class _HashVisitor:
    def __init__(self) -> None:
        self.hashes: list[str] = []

    def begin(self, log: Any, setup: Any) -> None:
        self.hashes.append(setup.state.state_hash())

    def visit_step(self, record: Any) -> None:
        self.hashes.append(record.state.state_hash())

    def end(self, result: Any) -> None:
        pass


def _observe(key: str, hashes: list[str]) -> None:
    if _recording:
        _checked[0] += 1
        old = _entries.get(key, [])
        if len(hashes) > len(old):
            _entries[key] = hashes
        return
    want = _entries.get(key)
    if want is None:
        return
    _checked[0] += 1
    n = min(len(want), len(hashes))
    for i in range(n):
        if want[i] != hashes[i]:
            raise AssertionError(f"state hash changed at step {i} of a logged replay ({key}): the ledger has "
                                 f"{want[i]}, the engine now gives {hashes[i]} (tests/replays/ledger.py)")


def unwrapped_replay() -> Any:
    """``replays.replayer.replay`` itself, without the ledger's visitor: a replay of the suite made
    with it and no visitor of its own takes the replayer's path without visitors (the games'
    ``apply_unrecorded``), which the wrapped one, always visited, never takes."""
    import replays.replayer as replayer

    return UNWRAPPED[0] if UNWRAPPED else replayer.replay


def install() -> None:
    """Wrap ``replays.replayer.replay`` (before any module binds it by name)."""
    import replays.replayer as replayer

    if getattr(replayer.replay, "_ledger", False):
        return
    if not _recording and LEDGER.is_file():
        _entries.update(json.loads(LEDGER.read_text(encoding="utf-8")))
    original = replayer.replay
    UNWRAPPED.append(original)

    def replay(log: Any, cards: Any = None, visitors: tuple[Any, ...] = (), *args: Any, **kw: Any) -> Any:
        hv = _HashVisitor()
        result = original(log, cards, (*visitors, hv), *args, **kw)
        pool = cards if cards is not None else log.rules.default_cards()  # the game's own pool
        _observe(_key(log, pool), hv.hashes)
        return result

    replay._ledger = True  # type: ignore[attr-defined]
    replayer.replay = replay  # type: ignore[assignment]


def finish() -> None:
    if _recording:
        LEDGER.parent.mkdir(parents=True, exist_ok=True)
        LEDGER.write_text(json.dumps(_entries, sort_keys=True, indent=0) + "\n", encoding="utf-8")


def checked() -> int:
    """How many replays were checked against an entry of the ledger (or recorded into it)."""
    return _checked[0]
