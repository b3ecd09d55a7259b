"""Build a log from a position in a few lines: for tests, examples and judges scripting a table.

    t = Table()                                   # p1 (Ana) and p2 (Ben); 05178 held by p1
    t.character("p1", "05031", dice=2)
    t.character("p2", "05019", dice=2, damage=3)
    t.pool("p1", {"p1.05031/1": "2RD"})
    log = t.log([{"by": "p1", "do": "resolve", "dice": [{"die": "p1.05031/1", "target": "p2.05019"}]}])
"""

from __future__ import annotations

import copy
from typing import Any


class Table:
    def __init__(self, players: tuple[str, ...] = ("p1", "p2"), battlefield: str = "05178",
                 controller: str | None = None, turn: str | None = None, round: int = 1):
        self.ids = players
        self.names = {"p1": "Ana", "p2": "Ben", "p3": "Cleo", "p4": "Dev"}
        self.position: dict[str, Any] = {
            "round": round,
            "phase": "action",
            "turn": turn or controller or players[0],
            "claimed_by": None,
            "battlefield": {"card": battlefield, "controller": controller or players[0]},
            "players": {pid: {"resources": 2, "hand": [], "deck": {"unknown": 10}, "discard": [], "passed": False,
                              "characters": {}, "supports": {}, "pool": {}} for pid in players},
        }
        self.rng: dict[str, str] | None = None

    def player(self, pid: str) -> dict[str, Any]:
        return self.position["players"][pid]

    def character(self, pid: str, code: str, dice: int = 1, serial: int | None = None,
                  upgrades: list[str] | None = None, **state: Any) -> str:
        ref = f"{pid}.{code}" + (f"#{serial}" if serial and serial > 1 else "")
        entry = {"dice": dice, "damage": 0, "shields": 0, "defeated": False, "exhausted": False,
                 "upgrades": [u if "." in u else f"{pid}.{u}#1" for u in (upgrades or [])]}
        entry.update(state)
        self.player(pid)["characters"][ref] = entry
        return ref

    def support(self, pid: str, code: str, serial: int = 1, exhausted: bool = False) -> str:
        ref = f"{pid}.{code}#{serial}"
        self.player(pid)["supports"][ref] = {"exhausted": exhausted}
        return ref

    def pool(self, pid: str, dice: dict[str, str]) -> Table:
        self.player(pid)["pool"].update(dice)
        return self

    def set(self, pid: str, **fields: Any) -> Table:
        self.player(pid).update(fields)
        return self

    def with_rng(self, seed: str) -> Table:
        self.rng = {"algorithm": "sha256-ctr", "seed": seed}
        return self

    def log(self, steps: list[dict[str, Any]] | None = None, fmt: str = "sandbox") -> dict[str, Any]:
        out: dict[str, Any] = {
            "format": "arbiter.replay/1",
            "game": "destiny",
            "meta": {"format": fmt},
            "players": [{"id": pid, "name": self.names.get(pid, pid)} for pid in self.ids],
            "setup": {"position": copy.deepcopy(self.position)},
            "steps": steps or [],
        }
        if self.rng:
            out["rng"] = dict(self.rng)
        return out
