"""Connect Four solver tables "bounds" (Pons' current solver, no book) and "dual" (searchlab's).

The compiled solver is checked node for node against a readable plain-Python statement of the
same search (below), under numba and with NUMBA_DISABLE_JIT=1, and its scores against Pons'
benchmark files (searchlab/data/connect4/).
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest

from searchlab.errors import InvalidParameterError
from searchlab.games.connect4 import (BOARD, BOTTOM, CELLS, COLUMN, SOLVER_TABLES,
                                      load_benchmark, parse_moves, solve, solve_many,
                                      winning_cells)
from tests.nojit import run_without_jit

DATA = Path(__file__).resolve().parents[2] / "searchlab" / "data" / "connect4"
SLOTS = 16777259                       # the table's size: slots collide as in the kernel
CENTRE_ORDER = (3, 2, 4, 1, 5, 0, 6)


def benchmark(name: str) -> list[tuple[str, int]]:
    data = load_benchmark(DATA / name)
    assert len(data) == 1000
    return data


class ReferenceSolver:
    """The bounds solver as prose-like Python: null-window probes narrowing the score; a
    negamax over the moves that do not hand the opponent a win, most threats created first
    (ties centre first); a table of SLOTS slots (slot = key mod SLOTS, always replace) whose
    entry holds the position's key and a lower or an upper bound, or with ``dual`` both bounds
    and the move that cut off (searched first next time). ``nodes`` counts negamax calls."""

    def __init__(self, dual: bool) -> None:
        self.dual = dual
        self.table: dict[int, tuple[int, int | None, int | None, int | None]] = {}
        self.nodes = 0

    def negamax(self, cur: int, mask: int, n: int, alpha: int, beta: int) -> int:
        self.nodes += 1
        opp_threats = winning_cells(cur ^ mask, mask)
        playable = (mask + BOTTOM) & BOARD
        forced = playable & opp_threats
        if forced & (forced - 1):
            return -((CELLS - n) // 2)              # two threats to block: lost
        candidates = (forced or playable) & ~(opp_threats >> 1)
        if not candidates:
            return -((CELLS - n) // 2)
        if n >= CELLS - 2:
            return 0
        alpha = max(alpha, -((CELLS - 2 - n) // 2))
        if alpha >= beta:
            return alpha
        beta = min(beta, (CELLS - 1 - n) // 2)
        if alpha >= beta:
            return beta
        key = cur + mask
        slot = key % SLOTS
        lower = upper = first = None
        if slot in self.table and self.table[slot][0] == key:
            _, lower, upper, first = self.table[slot]
            if lower is not None:
                alpha = max(alpha, lower)
                if alpha >= beta:
                    return alpha
            if upper is not None:
                beta = min(beta, upper)
                if alpha >= beta:
                    return beta
        if not self.dual:
            lower = upper = None                   # Pons' entry: one bound, no move
        moves = [c for c in CENTRE_ORDER if candidates & (COLUMN << (7 * c))]
        threats = {c: bin(winning_cells(cur | (candidates & (COLUMN << (7 * c))), mask)).count("1")
                   for c in moves}
        order = sorted((c for c in moves if c != first), key=lambda c: -threats[c])
        if first is not None:
            order.insert(0, first)
        for c in order:
            m = candidates & (COLUMN << (7 * c))
            score = -self.negamax(cur ^ mask, mask | m, n + 1, -beta, -alpha)
            if score >= beta:
                self.table[slot] = (key, score, upper, c if self.dual else None)
                return score
            alpha = max(alpha, score)
        self.table[slot] = (key, lower, alpha, first)
        return alpha

    def solve(self, moves: str) -> tuple[int, int]:
        """(score for the side to move, nodes) of a position whose side to move cannot win at
        once (every position of the benchmark files)."""
        cur, mask, n = parse_moves(moves)
        assert not winning_cells(cur, mask) & (mask + BOTTOM) & BOARD
        lo, hi = -((CELLS - n) // 2), (CELLS + 1 - n) // 2
        while lo < hi:
            med = lo + (hi - lo) // 2
            half_lo, half_hi = int(lo / 2), int(hi / 2)          # C's truncating division
            if med <= 0 and half_lo < med:
                med = half_lo
            elif med >= 0 and half_hi > med:
                med = half_hi
            r = self.negamax(cur, mask, n, med, med + 1)
            if r <= med:
                hi = r
            else:
                lo = r
        return lo, self.nodes


def sample() -> list[str]:
    """The first 40 positions of L3 and a seeded 12 of L2."""
    l2 = random.Random(5).sample(benchmark("Test_L2_R1"), 12)
    return [m for m, _ in benchmark("Test_L3_R1")[:40] + l2]


@pytest.mark.parametrize("table", ["bounds", "dual"])
def test_compiled_matches_the_readable_reference_node_for_node(table):
    positions = sample()
    scores, nodes = solve_many(positions, table=table)
    for m, s, k in zip(positions, scores, nodes):
        assert ReferenceSolver(dual=table == "dual").solve(m) == (s, k), m


def test_uncompiled_kernel_matches_the_compiled_one():
    positions = sample()[:25]
    compiled = {t: [list(map(int, a)) for a in solve_many(positions, table=t)]
                for t in ("bounds", "dual")}
    out = run_without_jit(
        "import json\nfrom searchlab.games.connect4 import solve_many\n"
        f"p = {positions!r}\n"
        "print(json.dumps({t: [list(map(int, a)) for a in solve_many(p, table=t)] "
        "for t in ('bounds', 'dual')}))")
    assert json.loads(out.strip().splitlines()[-1]) == compiled


@pytest.mark.parametrize("table", ["bounds", "dual"])
def test_exact_on_all_of_L3_and_seeded_samples(table):
    data = benchmark("Test_L3_R1")
    for name in ("Test_L2_R1", "Test_L1_R1"):
        data = data + random.Random(20240611).sample(benchmark(name), 50)
    scores, _ = solve_many([m for m, _ in data], table=table)
    assert (scores == np.array([s for _, s in data])).all()
    weak, _ = solve_many([m for m, _ in data[:300]], weak=True, table=table)
    assert (weak == np.sign([s for _, s in data[:300]])).all()
    assert solve("4455", table=table).score == 18
    assert solve("44455554221", table=table).score == -15


def test_lower_bounds_save_nodes_and_dual_never_costs_more_on_L3():
    positions = [m for m, _ in benchmark("Test_L3_R1")]
    nodes = {t: solve_many(positions, table=t)[1] for t in SOLVER_TABLES}
    assert nodes["bounds"].sum() < nodes["upper"].sum()
    assert (nodes["dual"] <= nodes["bounds"]).all()
    assert nodes["dual"].sum() < nodes["bounds"].sum()
    m = positions[0]
    assert solve(m, table="dual").nodes == solve(m, table="dual").nodes   # fresh table


def test_unknown_table_is_refused_by_name():
    with pytest.raises(InvalidParameterError, match="table must be one of upper, bounds, dual"):
        solve("4455", table="lower")
    with pytest.raises(InvalidParameterError, match="table"):
        solve_many(["4455"], table="")
