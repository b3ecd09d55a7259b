"""Reading a log (docs/replay-format.md sections 1-3): every fault found, with its JSON Pointer.

``parse_log(data)`` returns a ``Log`` or raises ``MalformedLog`` listing all faults, as
python-chess collects a game's errors instead of stopping at the first.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from judge.games.destiny.actions import check_step_shape
from judge.games.destiny.model import CardPool
from judge.games.destiny.refs import PLAYER
from judge.games.destiny.setup import check_players
from judge.kernel.rng import ALGORITHM
from replays.errors import Fault, MalformedLog

FORMAT = "arbiter.replay/1"
SUPPORTED_FORMATS = (FORMAT,)
GAMES = ("destiny", "swtcg", "relic")
ENGINES = ("destiny",)  # games whose engine is written
DECK_FORMATS = ("standard", "starter", "sandbox")
TOP_KEYS = {"format", "game", "rules", "meta", "rng", "players", "setup", "steps"}
MAX_STEPS = 100_000


@dataclass
class Log:
    raw: dict[str, Any]
    game: str
    players: list[dict[str, Any]]
    setup: dict[str, Any]
    steps: list[dict[str, Any]]
    rng_seed: str | None = None
    rng_drawn: int = 0
    meta: dict[str, Any] = field(default_factory=dict)

    @property
    def player_ids(self) -> list[str]:
        return [p["id"] for p in self.players]

    @property
    def from_position(self) -> bool:
        return "position" in self.setup

    @property
    def deck_format(self) -> str:
        fmt = self.meta.get("format")
        return fmt if isinstance(fmt, str) else "sandbox"

    def dispute_step(self) -> int | None:
        for i, step in enumerate(self.steps, 1):
            if "dispute" in step:
                return i
        return None


def parse_log(data: Any, cards: CardPool) -> Log:
    faults: list[Fault] = []

    def bad(path: str, msg: str) -> None:
        faults.append(Fault(path, msg))

    if not isinstance(data, dict):
        raise MalformedLog([Fault("", "a log is a JSON object with format, game, players, setup and steps")])
    fmt = data.get("format")
    if fmt not in SUPPORTED_FORMATS:
        bad("/format", f"unsupported format {fmt!r}: this engine reads {', '.join(SUPPORTED_FORMATS)}")
    game = data.get("game")
    if game not in GAMES:
        bad("/game", f"'game' must be one of {', '.join(GAMES)}")
    elif game not in ENGINES:
        bad("/game", f"the {game} engine is not written yet: only {', '.join(ENGINES)} logs can be replayed")
    for key in data:
        if key not in TOP_KEYS:
            bad(f"/{key}", f"unknown top-level key '{key}'")
    if "rules" in data and not isinstance(data["rules"], str):
        bad("/rules", "'rules' names a rules edition (a string)")
    meta = data.get("meta", {})
    if not isinstance(meta, dict):
        bad("/meta", "'meta' must be an object")
        meta = {}
    elif "format" in meta and meta["format"] not in DECK_FORMATS:
        bad("/meta/format", f"'meta.format' must be one of {', '.join(DECK_FORMATS)}")
    seed: str | None = None
    rng_drawn = 0
    rng = data.get("rng")
    if rng is not None:
        if not isinstance(rng, dict):
            bad("/rng", "'rng' must be {\"algorithm\": \"sha256-ctr\", \"seed\": \"...\"}")
        else:
            if rng.get("algorithm") != ALGORITHM:
                bad("/rng/algorithm", f"unknown rng algorithm {rng.get('algorithm')!r}: the engine has {ALGORITHM}")
            if not isinstance(rng.get("seed"), str | int) or isinstance(rng.get("seed"), bool):
                bad("/rng/seed", "'seed' must be a string")
            else:
                seed = str(rng["seed"])
            drawn = rng.get("drawn", 0)
            if not isinstance(drawn, int) or isinstance(drawn, bool) or not 0 <= drawn <= 10**7:
                bad("/rng/drawn", "'drawn' is how many words of the stream were already used (0 or more)")
            else:
                rng_drawn = drawn
    players = data.get("players")
    ids: list[str] = []
    if not isinstance(players, list) or not 2 <= len(players) <= 4:
        bad("/players", "'players' must list 2 to 4 players")
        players = []
    for i, p in enumerate(players):
        if not isinstance(p, dict):
            bad(f"/players/{i}", "a player is an object with 'id' and 'name'")
            continue
        pid = p.get("id")
        if not isinstance(pid, str) or not PLAYER.match(pid):
            bad(f"/players/{i}/id", "'id' must be a short identifier such as p1")
        elif pid in ids:
            bad(f"/players/{i}/id", f"player ID '{pid}' is used twice")
        else:
            ids.append(pid)
        if "name" in p and not isinstance(p["name"], str):
            bad(f"/players/{i}/name", "'name' must be a string")
    setup = data.get("setup")
    if not isinstance(setup, dict):
        bad("/setup", "'setup' must be an object: {\"position\": ...} or the outcomes of setup")
        setup = {}
    elif "position" not in setup and not faults:
        for path, msg in check_players(players, cards):
            bad(path, msg)
    steps = data.get("steps", [])
    if not isinstance(steps, list):
        bad("/steps", "'steps' must be a list")
        steps = []
    elif len(steps) > MAX_STEPS:
        bad("/steps", f"a log has at most {MAX_STEPS} steps")
        steps = []
    for i, step in enumerate(steps):
        for path, msg in check_step_shape(step, f"/steps/{i}", ids):
            bad(path, msg)
    if faults:
        raise MalformedLog(faults)
    return Log(raw=data, game=str(game), players=players, setup=setup, steps=steps, rng_seed=seed, meta=meta,
               rng_drawn=rng_drawn)
