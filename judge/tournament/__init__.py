"""Tournaments: Swiss pairing, tie-breakers, byes, drops and top cut — a pure core.

Imports only the standard library and rustworkx. No I/O, no clock, no ``random``: the seeded
generator is :mod:`judge.tournament.prng`. See docs/tournaments.md.
"""

from .cut import bracket_order, recommended_rounds
from .event import EventState, Plan, Rejected, apply, check, plan_cut, plan_next_round, plan_repair, replay
from .model import (
    Action,
    AddPlayer,
    Config,
    CreateTournament,
    DropPlayer,
    Match,
    OverridePairings,
    Pairing,
    PairRound,
    Player,
    RepairRound,
    ReportResult,
    Result,
    Round,
    StartCut,
    Violation,
    action_from_json,
)
from .pairing import Objective, SwissInput, SwissPlan, objective, pair_swiss, swiss_input
from .rules import RULES, rule
from .standings import Standing, records, standings

__all__ = [
    "RULES",
    "Action",
    "AddPlayer",
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
    "Player",
    "Rejected",
    "RepairRound",
    "ReportResult",
    "Result",
    "Round",
    "Standing",
    "StartCut",
    "SwissInput",
    "SwissPlan",
    "Violation",
    "action_from_json",
    "apply",
    "bracket_order",
    "check",
    "objective",
    "pair_swiss",
    "plan_cut",
    "plan_next_round",
    "plan_repair",
    "recommended_rounds",
    "records",
    "replay",
    "rule",
    "standings",
    "swiss_input",
]
