"""Swiss pairing as one maximum-weight perfect matching [tournament.swiss.objective].

Objective (docs/tournaments.md has the full argument). Write every active player in the
*pairing order*: match points descending, then a seeded random draw
``draw(seed, "order", round, player)`` [tournament.swiss.random-within-group]; ``pos(p)`` is the
index in that order. With an odd count, add one BYE vertex. A pairing is a perfect matching;
its cost is the tuple, compared lexicographically:

1. rematches: pairs that already met [tournament.swiss.no-rematch];
2. bye cost: for the player given the bye, ``n·[had a bye] + (n-1-rank)``, rank 0 = best in
   the standings [tournament.bye.once, tournament.bye.lowest-unbyed];
3. Σ (point difference)² over pairs — pair-downs few and small [tournament.swiss.pair-down];
4. Σ (pos difference)² over pairs — partners adjacent in the seeded order;
5. Σ noise(a, b), a seeded 10-bit value per pair, so that the optimum is unique in practice.

The tuple is packed into one integer per edge, ``w = L_card - (r·L_re + b·L_bye + d²·L_sq +
s²·L_spread + noise)`` with radices larger than any sum of the lower levels, and handed to
rustworkx's exact blossom (``max_cardinality=True``).

Restricted graph [tournament.swiss.restricted-graph]: with f(p) = number of active players p
already met, a pair (a, b) with |pos(a)-pos(b)| > 2·(f(a)+f(b)) + 3 never occurs in an optimal
pairing (exchange argument in the docs), so only pairs within that window and the bye edges are
built: about n·(4K+4) edges instead of n²/2 for K rounds played.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import rustworkx as rx

from .model import Pairing
from .prng import draw
from .standings import records, standings
from .state import EventState

NOISE_BITS = 10
BYE = None  # the bye vertex's player id


@dataclass(frozen=True)
class SwissInput:
    """Everything Swiss pairing depends on (a pure value; built by :func:`swiss_input`)."""

    seed: int
    round: int
    players: tuple[str, ...]  # active players, in standings order (best first)
    points: Mapping[str, int]
    opponents: Mapping[str, frozenset[str]]
    had_bye: frozenset[str]


@dataclass(frozen=True)
class Objective:
    rematches: int
    bye_cost: int
    pair_down_sq: int
    spread_sq: int
    noise: int
    pair_downs: int  # informative: pairs of different points (not a separate level)

    def key(self) -> tuple[int, int, int, int, int]:
        return (self.rematches, self.bye_cost, self.pair_down_sq, self.spread_sq, self.noise)


@dataclass(frozen=True)
class Edge:
    u: int  # vertex index in pairing order; n = the BYE vertex
    v: int
    cost: tuple[int, int, int, int, int]


@dataclass(frozen=True)
class SwissPlan:
    pairings: tuple[Pairing, ...]
    bye: str | None
    objective: Objective
    edges: int
    complete_graph: bool


def swiss_input(state: EventState, number: int) -> SwissInput:
    """The pairing input for Swiss round ``number`` (rounds below it count; dropped players
    are out [tournament.player.dropped])."""
    active = [pid for pid in state.players if pid not in state.dropped]
    order = [s.player_id for s in standings(state, before_round=number, only=active)]
    recs = records(state, before_round=number)
    return SwissInput(
        seed=state.config.seed,
        round=number,
        players=tuple(order),
        points={pid: recs[pid].points for pid in order},
        opponents={pid: frozenset(recs[pid].opponents()) for pid in order},
        had_bye=frozenset(pid for pid in order if recs[pid].byes),
    )


class _Frame:
    """Pairing order, positions and per-pair costs of one input."""

    def __init__(self, inp: SwissInput) -> None:
        self.inp = inp
        self.order = sorted(
            inp.players, key=lambda p: (-inp.points[p], draw(inp.seed, "order", inp.round, p))
        )
        self.pos = {p: i for i, p in enumerate(self.order)}
        self.n = len(self.order)
        self.odd = self.n % 2 == 1
        self.rank = {p: i for i, p in enumerate(inp.players)}
        active = set(self.order)
        self.met = [len(inp.opponents[p] & active) for p in self.order]

    def pair_cost(self, i: int, j: int) -> tuple[int, int, int, int, int]:
        a, b = self.order[i], self.order[j]
        inp = self.inp
        rematch = 1 if b in inp.opponents[a] else 0
        d = inp.points[a] - inp.points[b]
        x, y = (a, b) if a < b else (b, a)
        noise = draw(inp.seed, "noise", inp.round, x, y) >> (64 - NOISE_BITS)
        return (rematch, 0, d * d, (i - j) ** 2, noise)

    def bye_cost(self, i: int) -> tuple[int, int, int, int, int]:
        p = self.order[i]
        n = self.n
        return (0, (n if p in self.inp.had_bye else 0) + (n - 1 - self.rank[p]), 0, 0, 0)

    def edges(self, complete: bool) -> list[Edge]:
        n, met = self.n, self.met
        out: list[Edge] = []
        k = max(met, default=0)
        for i in range(n):
            # tournament.swiss.restricted-graph: window 2(f(a)+f(b))+3
            hi = n if complete else min(n, i + 2 * (met[i] + k) + 4)
            for j in range(i + 1, hi):
                if complete or j - i <= 2 * (met[i] + met[j]) + 3:
                    out.append(Edge(i, j, self.pair_cost(i, j)))
            if self.odd:
                out.append(Edge(i, n, self.bye_cost(i)))
        return out


def weights(edges: Sequence[Edge], vertices: int) -> list[int]:
    """Pack each edge's cost tuple into one positive integer; the radices exceed any sum of
    the lower levels over a matching, so the maximum-weight perfect matching is the
    lexicographic minimum of the cost tuple."""
    m = vertices // 2
    mx = [max((e.cost[k] for e in edges), default=0) for k in range(5)]
    radix = [1]
    for k in (4, 3, 2):  # noise, spread, pair-down: one edge each per pair
        radix.append(radix[-1] * (m * mx[k] + 1))
    radix.append(radix[-1] * (mx[1] + 1))  # bye: at most one bye edge
    # radix = [L_noise, L_spread, L_sq, L_bye, L_re]
    l_noise, l_spread, l_sq, l_bye, l_re = radix
    l_card = l_re * (m * mx[0] + 1)
    if l_card.bit_length() > 120:
        raise OverflowError("pairing weights exceed the matcher's 128-bit range")
    return [
        l_card - (c[0] * l_re + c[1] * l_bye + c[2] * l_sq + c[3] * l_spread + c[4] * l_noise)
        for c in (e.cost for e in edges)
    ]


def objective(inp: SwissInput, pairs: Sequence[tuple[str, str]], bye: str | None) -> Objective:
    """The cost tuple of any complete pairing of ``inp`` (used to compare engines)."""
    fr = _Frame(inp)
    tot = [0, 0, 0, 0, 0]
    downs = 0
    for a, b in pairs:
        i, j = sorted((fr.pos[a], fr.pos[b]))
        c = fr.pair_cost(i, j)
        downs += c[2] > 0
        tot = [x + y for x, y in zip(tot, c, strict=True)]
    if bye is not None:
        tot = [x + y for x, y in zip(tot, fr.bye_cost(fr.pos[bye]), strict=True)]
    return Objective(tot[0], tot[1], tot[2], tot[3], tot[4], pair_downs=downs)


def graph(inp: SwissInput, complete: bool = False) -> tuple[list[str], list[tuple[int, int, int]]]:
    """Vertices (player ids in pairing order; a final None is the bye) and weighted edges —
    exposed so benches and tests can hand the same graph to another exact matcher."""
    fr = _Frame(inp)
    es = fr.edges(complete)
    verts: list[str | None] = list(fr.order) + ([BYE] if fr.odd else [])
    ws = weights(es, len(verts))
    return verts, [(e.u, e.v, w) for e, w in zip(es, ws, strict=True)]  # type: ignore[return-value]


def _match(vertices: int, edges: list[tuple[int, int, int]]) -> set[tuple[int, int]]:
    g = rx.PyGraph()
    g.add_nodes_from(range(vertices))
    g.add_edges_from(edges)
    return rx.max_weight_matching(g, max_cardinality=True, weight_fn=lambda w: w)


def pairs_from_matching(
    verts: Sequence[str | None], matching: set[tuple[int, int]]
) -> tuple[list[tuple[str, str]], str | None]:
    pairs: list[tuple[str, str]] = []
    bye = None
    for u, v in matching:
        a, b = verts[u], verts[v]
        if a is None or b is None:
            bye = b if a is None else a
        else:
            pairs.append((a, b))
    return pairs, bye


def assign_tables(inp: SwissInput, pairs: Sequence[tuple[str, str]]) -> tuple[Pairing, ...]:
    """Table 1 to the best records [tournament.swiss.tables]: by the higher points of the pair,
    then the lower points, then standings rank; side 1 is the better-ranked player."""
    rank = {p: i for i, p in enumerate(inp.players)}
    pts = inp.points
    ordered = []
    for a, b in pairs:
        a, b = (a, b) if rank[a] < rank[b] else (b, a)
        ordered.append((-pts[a], -pts[b], rank[a], a, b))
    ordered.sort()
    return tuple(Pairing(t + 1, a, b) for t, (*_, a, b) in enumerate(ordered))


def pair_swiss(inp: SwissInput, complete: bool = False) -> SwissPlan:
    """Optimal pairings of one Swiss round (deterministic: same input, same pairings)."""
    verts, edges = graph(inp, complete)
    matching = _match(len(verts), edges)
    used_complete = complete
    if 2 * len(matching) != len(verts) and not complete:
        # Cannot happen by the window argument; kept as a guard [tournament.swiss.restricted-graph].
        verts, edges = graph(inp, True)
        matching = _match(len(verts), edges)
        used_complete = True
    if 2 * len(matching) != len(verts):
        raise AssertionError("no perfect pairing found")  # complete graph: impossible
    pairs, bye = pairs_from_matching(verts, matching)
    return SwissPlan(
        pairings=assign_tables(inp, pairs),
        bye=bye,
        objective=objective(inp, pairs, bye),
        edges=len(edges),
        complete_graph=used_complete,
    )
