"""Recommended Swiss rounds and the single-elimination top cut."""

from __future__ import annotations

from .model import Pairing


def recommended_rounds(players: int) -> int:
    """ceil(log2(players)), at least 3 [tournament.rounds.recommended]: enough rounds for one
    undefeated player in a field without draws (8 → 3, 300 → 9, 2000 → 11)."""
    return max(3, (max(players, 1) - 1).bit_length())


def bracket_order(size: int) -> list[int]:
    """Seeds in bracket order, so that seeds 1 and 2 can only meet in the final:
    8 → [1, 8, 4, 5, 2, 7, 3, 6] [tournament.cut.seeding]."""
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [x for s in order for x in (s, total - s)]
    return order


def first_cut_round(seeds: list[str]) -> tuple[Pairing, ...]:
    """Seed 1 meets seed N, 2 meets N-1, ... tables in bracket order; side 1 is the higher seed."""
    order = bracket_order(len(seeds))
    return tuple(
        Pairing(t + 1, seeds[order[2 * t] - 1], seeds[order[2 * t + 1] - 1]) for t in range(len(seeds) // 2)
    )


def next_cut_round(winners: list[str], seed_of: dict[str, int]) -> tuple[Pairing, ...]:
    """Winners of tables 1&2, 3&4, ... meet; side 1 is the better seed."""
    out = []
    for t in range(len(winners) // 2):
        a, b = winners[2 * t], winners[2 * t + 1]
        if seed_of[b] < seed_of[a]:
            a, b = b, a
        out.append(Pairing(t + 1, a, b))
    return tuple(out)
