"""Small typed values of the tournament core: configuration, players, results, rounds,
organizer actions and violations. Every action writes itself to JSON and reads itself back
(``to_json`` / ``action_from_json``); the list of actions is the event."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

Profile = Literal["destiny", "mtg"]
Stage = Literal["swiss", "cut"]
PROFILES: tuple[str, ...] = ("destiny", "mtg")
CUT_SIZES: tuple[int, ...] = (0, 2, 4, 8, 16, 32)
BEST_OF: tuple[int, ...] = (1, 3)


@dataclass(frozen=True)
class Violation:
    """A broken rule: its stable ID, the input field (JSON pointer) and a message."""

    rule: str
    field: str
    message: str


@dataclass(frozen=True)
class Config:
    name: str
    profile: str = "destiny"
    rounds: int = 0  # planned Swiss rounds; 0 = recommended from the player count at round 1
    cut: int = 0
    best_of: int = 1
    seed: int = 0
    game: str = "destiny"  # what is played, a label [tournament.config.game]
    public: bool = True  # pages and reads without the organizer token [tournament.event.visibility]


@dataclass(frozen=True)
class Player:
    id: str
    name: str
    joined_after: int = 0  # Swiss rounds already paired when the player entered
    missed_as_loss: bool = True


@dataclass(frozen=True)
class Result:
    """Games won by table side 1 and side 2, and drawn games."""

    p1_wins: int
    p2_wins: int
    draws: int = 0

    @property
    def games(self) -> int:
        return self.p1_wins + self.p2_wins + self.draws

    def outcome(self) -> int:
        """+1 if side 1 won the match, -1 if side 2 did, 0 for a draw."""
        return (self.p1_wins > self.p2_wins) - (self.p1_wins < self.p2_wins)

    def to_json(self) -> dict[str, int]:
        return {"p1_wins": self.p1_wins, "p2_wins": self.p2_wins, "draws": self.draws}


@dataclass(frozen=True)
class Pairing:
    table: int
    p1: str
    p2: str

    def to_json(self) -> dict[str, Any]:
        return {"table": self.table, "p1": self.p1, "p2": self.p2}


@dataclass(frozen=True)
class Round:
    number: int
    stage: str
    pairings: tuple[Pairing, ...]
    bye: str | None = None

    def table(self, table: int) -> Pairing | None:
        for p in self.pairings:
            if p.table == table:
                return p
        return None

    def players(self) -> list[str]:
        out = [x for p in self.pairings for x in (p.p1, p.p2)]
        if self.bye is not None:
            out.append(self.bye)
        return out


@dataclass(frozen=True)
class Match:
    """A pairing of a round together with its result, if reported (a read-only view)."""

    round: int
    stage: str
    table: int
    p1: str
    p2: str
    result: Result | None


# ---------------------------------------------------------------- actions


def name_key(name: str) -> str:
    """What two names are compared by [tournament.player.name-unique]: case folded, runs of
    white space as one space, none at the ends ("  ana  LEE" and "Ana Lee" clash)."""
    return " ".join(name.split()).casefold()


def _pairings_json(pairings: tuple[Pairing, ...]) -> list[dict[str, Any]]:
    return [p.to_json() for p in pairings]


def _pairings_from(data: list[dict[str, Any]]) -> tuple[Pairing, ...]:
    return tuple(Pairing(int(p["table"]), str(p["p1"]), str(p["p2"])) for p in data)


@dataclass(frozen=True)
class CreateTournament:
    config: Config
    kind: str = field(default="create", init=False)

    def to_json(self) -> dict[str, Any]:
        c = self.config
        return {
            "kind": self.kind,
            "name": c.name,
            "profile": c.profile,
            "rounds": c.rounds,
            "cut": c.cut,
            "best_of": c.best_of,
            "seed": c.seed,
            "game": c.game,
            "public": c.public,
        }


@dataclass(frozen=True)
class AddPlayer:
    player_id: str
    name: str
    missed_as_loss: bool = True
    kind: str = field(default="add_player", init=False)

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "player_id": self.player_id,
            "name": self.name,
            "missed_as_loss": self.missed_as_loss,
        }


@dataclass(frozen=True)
class DropPlayer:
    player_id: str
    kind: str = field(default="drop_player", init=False)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "player_id": self.player_id}


@dataclass(frozen=True)
class RenamePlayer:
    """A new name for a registered player; id, record and pairings are unchanged."""

    player_id: str
    name: str
    kind: str = field(default="rename_player", init=False)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "player_id": self.player_id, "name": self.name}


@dataclass(frozen=True)
class UndropPlayer:
    """A dropped player re-enters: paired again from the next round on."""

    player_id: str
    kind: str = field(default="undrop_player", init=False)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "player_id": self.player_id}


@dataclass(frozen=True)
class SetVisibility:
    """Public (anyone may read the event and its pages) or private (the organizer token only)."""

    public: bool
    kind: str = field(default="set_visibility", init=False)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "public": self.public}


@dataclass(frozen=True)
class ArchiveEvent:
    """The event becomes read-only (and leaves the list of events unless archived ones are asked)."""

    kind: str = field(default="archive", init=False)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind}


@dataclass(frozen=True)
class PairRound:
    """Pairings of the next round, as computed when the organizer asked (logged as data, so
    replaying the log never re-pairs)."""

    number: int
    stage: str
    pairings: tuple[Pairing, ...]
    bye: str | None = None
    kind: str = field(default="pair_round", init=False)

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "number": self.number,
            "stage": self.stage,
            "pairings": _pairings_json(self.pairings),
            "bye": self.bye,
        }


@dataclass(frozen=True)
class _NewPairings:
    """New pairings for the current round, before any of its results is in."""

    number: int
    pairings: tuple[Pairing, ...]
    bye: str | None = None
    kind: str = field(default="", init=False)

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "number": self.number,
            "pairings": _pairings_json(self.pairings),
            "bye": self.bye,
        }


@dataclass(frozen=True)
class RepairRound(_NewPairings):
    """Fresh pairings for the current round, before any of its results is in."""

    kind: str = field(default="repair_round", init=False)


@dataclass(frozen=True)
class OverridePairings(_NewPairings):
    """The organizer's own pairings for the current round, before any result is in."""

    kind: str = field(default="override_pairings", init=False)


@dataclass(frozen=True)
class ReportResult:
    number: int
    table: int
    result: Result
    correction: bool = False
    kind: str = field(default="report_result", init=False)

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "number": self.number,
            "table": self.table,
            **self.result.to_json(),
            "correction": self.correction,
        }


@dataclass(frozen=True)
class StartCut:
    """Top cut: the seeds (best first) and the first elimination round's pairings."""

    size: int
    seeds: tuple[str, ...]
    number: int
    pairings: tuple[Pairing, ...]
    kind: str = field(default="start_cut", init=False)

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "size": self.size,
            "seeds": list(self.seeds),
            "number": self.number,
            "pairings": _pairings_json(self.pairings),
        }


Action = (
    CreateTournament
    | AddPlayer
    | DropPlayer
    | RenamePlayer
    | UndropPlayer
    | SetVisibility
    | ArchiveEvent
    | PairRound
    | RepairRound
    | OverridePairings
    | ReportResult
    | StartCut
)


def action_from_json(data: dict[str, Any]) -> Action:
    """Inverse of ``to_json`` for every action kind."""
    kind = data["kind"]
    if kind == "create":
        return CreateTournament(
            Config(
                name=data["name"],
                profile=data["profile"],
                rounds=int(data["rounds"]),
                cut=int(data["cut"]),
                best_of=int(data["best_of"]),
                seed=int(data["seed"]),
                game=str(data.get("game", "destiny")),
                public=bool(data.get("public", True)),
            )
        )
    if kind == "add_player":
        return AddPlayer(data["player_id"], data["name"], bool(data.get("missed_as_loss", True)))
    if kind == "drop_player":
        return DropPlayer(data["player_id"])
    if kind == "rename_player":
        return RenamePlayer(data["player_id"], data["name"])
    if kind == "undrop_player":
        return UndropPlayer(data["player_id"])
    if kind == "set_visibility":
        return SetVisibility(bool(data["public"]))
    if kind == "archive":
        return ArchiveEvent()
    if kind == "pair_round":
        return PairRound(
            int(data["number"]), data["stage"], _pairings_from(data["pairings"]), data.get("bye")
        )
    if kind == "repair_round":
        return RepairRound(int(data["number"]), _pairings_from(data["pairings"]), data.get("bye"))
    if kind == "override_pairings":
        return OverridePairings(int(data["number"]), _pairings_from(data["pairings"]), data.get("bye"))
    if kind == "report_result":
        return ReportResult(
            int(data["number"]),
            int(data["table"]),
            Result(int(data["p1_wins"]), int(data["p2_wins"]), int(data.get("draws", 0))),
            bool(data.get("correction", False)),
        )
    if kind == "start_cut":
        return StartCut(
            int(data["size"]), tuple(data["seeds"]), int(data["number"]), _pairings_from(data["pairings"])
        )
    raise ValueError(f"unknown tournament action kind {kind!r}")
