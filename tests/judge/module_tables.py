"""What the memo-owner tests of each game compare before and after a replay."""

from __future__ import annotations

import sys


def module_tables() -> dict[tuple[str, str], int]:
    """The sizes of the mutable containers at the top level of the project's modules."""
    out: dict[tuple[str, str], int] = {}
    for name, module in list(sys.modules.items()):
        if module is None or not name.startswith(("judge.", "replays.")):
            continue
        for attr, value in list(vars(module).items()):
            if type(value) in (dict, list, set):
                out[(name, attr)] = len(value)
    return out
