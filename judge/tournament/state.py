"""The event's state, recomputed from its log: players, rounds, results, the cut.

Its own module, below the rules that read it (pairing, standings, places) and the one that changes
it (:mod:`judge.tournament.event`: ``check`` / ``apply``), so none of them imports another through it.
"""

from __future__ import annotations

from .cut import recommended_rounds
from .model import Config, Match, Player, Result, Round, name_key


class EventState:
    """Mutable builder of one event's state; only ``apply`` changes it."""

    def __init__(self) -> None:
        self.config: Config = Config(name="")
        self.created = False
        self.players: dict[str, Player] = {}
        self.dropped: set[str] = set()
        self.rounds: list[Round] = []
        self.results: dict[tuple[int, int], Result] = {}
        self.cut_seeds: tuple[str, ...] = ()
        self.version = 0  # number of actions applied
        self.entrants_at_round_one = 0  # players registered when round 1 was paired
        self.archived = False
        self.names: dict[str, str] = {}  # name_key -> player id [tournament.player.name-unique]
        # player id -> the rounds paired when the player last re-entered [tournament.player.undrop]: the
        # rounds up to it that they missed are losses, whether or not they dropped again since
        self.back_after: dict[str, int] = {}

    # ----------------------------------------------------------- queries
    def current(self) -> Round | None:
        return self.rounds[-1] if self.rounds else None

    def round(self, number: int) -> Round | None:
        return self.rounds[number - 1] if 1 <= number <= len(self.rounds) else None

    def reported(self, number: int) -> int:
        rnd = self.round(number)
        return 0 if rnd is None else sum((number, p.table) in self.results for p in rnd.pairings)

    def complete(self, number: int) -> bool:
        rnd = self.round(number)
        return rnd is not None and self.reported(number) == len(rnd.pairings)

    def active(self) -> list[str]:
        return [pid for pid in self.players if pid not in self.dropped]

    def swiss_paired(self) -> int:
        return sum(1 for r in self.rounds if r.stage == "swiss")

    def planned_rounds(self) -> int:
        """The configured Swiss rounds, or the recommended number for the players registered when
        round 1 was paired [tournament.rounds.recommended]: late entries do not add rounds to an
        event already announced."""
        if self.config.rounds:
            return self.config.rounds
        return recommended_rounds(self.entrants_at_round_one or len(self.players))

    def matches(self, number: int) -> list[Match]:
        rnd = self.round(number)
        if rnd is None:
            return []
        return [
            Match(number, rnd.stage, p.table, p.p1, p.p2, self.results.get((number, p.table)))
            for p in rnd.pairings
        ]

    def champion(self) -> str | None:
        cur = self.current()
        if cur is None or cur.stage != "cut" or len(cur.pairings) != 1 or not self.complete(cur.number):
            return None
        p = cur.pairings[0]
        return p.p1 if self.results[(cur.number, p.table)].outcome() > 0 else p.p2

    def swiss_over(self) -> bool:
        """Every planned Swiss round is paired and fully reported [tournament.swiss.rounds-complete]."""
        cur = self.current()
        return (cur is not None and cur.stage == "swiss" and self.swiss_paired() >= self.planned_rounds()
                and self.complete(cur.number))

    def stage(self) -> str:
        """registration | swiss | cut | finished: an event with no top cut is finished when its last
        Swiss round is reported [tournament.swiss.rounds-complete]; one with a cut, when the cut has a
        champion."""
        if self.champion() is not None:
            return "finished"
        if self.cut_seeds:
            return "cut"
        if self.rounds:
            return "finished" if not self.config.cut and self.swiss_over() else "swiss"
        return "registration"

    def named(self, name: str) -> str | None:
        """The player whose name clashes with ``name`` [tournament.player.name-unique], if any."""
        return self.names.get(name_key(name))

    def next_player_id(self) -> str:
        return f"p{len(self.players) + 1}"
