"""Tournaments: Swiss pairing, tie-breakers, byes, drops and top cut — a pure core.

Imports only the standard library and rustworkx. No I/O, no clock, no ``random``: the seeded
generator is :mod:`judge.tournament.prng`. See docs/tournaments.md.
"""

from .cut import bracket_order, recommended_rounds
from .event import EventState, Plan, Rejected, apply, check, plan_cut, plan_next_round, plan_repair, replay
from .model import (
    Action,
    AddPlayer,
    ArchiveEvent,
    Config,
    CreateTournament,
    DropPlayer,
    Match,
    OverridePairings,
    Pairing,
    PairRound,
    Player,
    RenamePlayer,
    RepairRound,
    ReportResult,
    Result,
    Round,
    SetVisibility,
    StartCut,
    UndropPlayer,
    Violation,
    action_from_json,
    name_key,
)
from .pairing import Objective, SwissInput, SwissPlan, objective, pair_swiss, swiss_input
from .placings import Placing, placings
from .rules import RULES, rule
from .standings import Standing, records, standings

__all__ = [
    "RULES",
    "Action",
    "AddPlayer",
    "ArchiveEvent",
    "Config",
    "CreateTournament",
    "DropPlayer",
    "EventState",
    "Match",
    "Objective",
    "OverridePairings",
    "PairRound",
    "Pairing",
    "Plan",
    "Placing",
    "Player",
    "Rejected",
    "RenamePlayer",
    "RepairRound",
    "ReportResult",
    "Result",
    "Round",
    "SetVisibility",
    "Standing",
    "StartCut",
    "SwissInput",
    "SwissPlan",
    "UndropPlayer",
    "Violation",
    "action_from_json",
    "apply",
    "bracket_order",
    "check",
    "name_key",
    "objective",
    "pair_swiss",
    "plan_cut",
    "plan_next_round",
    "placings",
    "plan_repair",
    "recommended_rounds",
    "records",
    "replay",
    "rule",
    "standings",
    "swiss_input",
]
