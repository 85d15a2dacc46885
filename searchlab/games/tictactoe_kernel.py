"""Tic-tac-toe's numba code: the win table (``WIN``, ``LINES``, ``FULL``; the compiled game's
primitives in tictactoe_compiled.py use it too) and a dedicated search, full minimax and
fail-soft alpha-beta in natural order.

Call the search through ``searchlab.games.tictactoe.kernel_search``, which validates the
position and packages a SearchResult. Definitions: docs/games.md, "Tic-tac-toe". Why a search
of its own beside the compiled engine: it is faster on the same searches (3.4x on full minimax,
1.6x on alpha-beta from the empty board; benchmarks/tictactoe_kernel_vs_engine.py).

A position is two 9-bit ints, ``me`` (stones of the side to move) and ``opp``; bit i is cell i
(row by row, 0 = top left). The search is negamax (values from the side to move), which visits
exactly the nodes of the minimax form; the wrapper flips the sign into MAX's view, and MAX is
the side to move at the root. Counting happens in one place, the top of ``_negamax`` /
``_alphabeta``: every call is a node (root and leaves included); a terminal position is a leaf
(a win for the side that just moved, or a full board); a cutoff is a return before all
children were searched.

``stats`` layout (int64): [0] nodes, [1] leaves, [2] cutoffs, [3 + ply] nodes at that ply.
Values are int64 (-1, 0, +1); the alpha-beta root window is (-2, 2), which no value reaches,
so it behaves exactly as (-inf, +inf).

Works unchanged (slowly) under NUMBA_DISABLE_JIT=1.
"""

from __future__ import annotations

import numpy as np
from numba import njit

FULL = 511
LINES = (0b000000111, 0b000111000, 0b111000000,      # rows
         0b001001001, 0b010010010, 0b100100100,      # columns
         0b100010001, 0b001010100)                   # diagonals
STATS_LEN = 3 + 10


def _win_table() -> np.ndarray:
    """WIN[bits] is True when the 9-bit set of one player's cells contains a line."""
    table = np.zeros(512, dtype=np.bool_)
    for bits in range(512):
        table[bits] = any((bits & line) == line for line in LINES)
    return table


WIN = _win_table()


# Recursive kernels carry explicit signatures: numba's on-disk cache of a recursive function
# whose call sites are typed differently segfaults on reload (numba issues #6061, #6713).
@njit("int64(int64, int64, int64, boolean[::1], int64[::1])", cache=True)
def _negamax(me, opp, ply, win, stats):
    """Plain negamax (= minimax node for node): value for the side to move."""
    stats[0] += 1
    stats[3 + ply] += 1
    if win[opp]:                      # the side that just moved completed a line
        stats[1] += 1
        return -1
    occ = me | opp
    if occ == FULL:
        stats[1] += 1
        return 0
    best = -2
    for i in range(9):
        bit = 1 << i
        if (occ & bit) == 0:
            v = -_negamax(opp, me | bit, ply + 1, win, stats)
            if v > best:
                best = v
    return best


@njit("int64(int64, int64, int64, int64, int64, boolean[::1], int64[::1])", cache=True)
def _alphabeta(me, opp, ply, alpha, beta, win, stats):
    """Fail-soft alpha-beta in negamax form, natural order: value for the side to move."""
    stats[0] += 1
    stats[3 + ply] += 1
    if win[opp]:
        stats[1] += 1
        return -1
    occ = me | opp
    if occ == FULL:
        stats[1] += 1
        return 0
    best = -2
    for i in range(9):
        bit = 1 << i
        if (occ & bit) == 0:
            v = -_alphabeta(opp, me | bit, ply + 1, -beta, -alpha, win, stats)
            if v > best:
                best = v
                if v >= beta:
                    # a cutoff only if some move is left unsearched
                    if (occ | ((1 << (i + 1)) - 1)) != FULL:
                        stats[2] += 1
                    return best
                if v > alpha:
                    alpha = v
    return best


@njit(cache=True)
def _root(me, opp, use_alphabeta, win, stats):
    """Search the root; returns (value, best_move, tied_mask) for the side to move.

    best_move is the first move (natural order) whose value strictly improved the root value;
    tied_mask has bit i set for every root move whose proven value equals the root value
    (minimax only: alpha-beta proves just the best move's value; -1 when there are no moves).
    """
    stats[0] += 1
    stats[3] += 1
    if win[opp]:
        stats[1] += 1
        return -1, -1, 0
    occ = me | opp
    if occ == FULL:
        stats[1] += 1
        return 0, -1, 0
    best = -2
    best_move = -1
    alpha = -2
    values = np.full(9, -3, dtype=np.int64)
    for i in range(9):
        bit = 1 << i
        if (occ & bit) == 0:
            if use_alphabeta:
                v = -_alphabeta(opp, me | bit, 1, -2, -alpha, win, stats)
            else:
                v = -_negamax(opp, me | bit, 1, win, stats)
            values[i] = v
            if v > best:
                best = v
                best_move = i
                if v > alpha:
                    alpha = v
    tied = 0
    for i in range(9):
        if values[i] == best:
            tied |= 1 << i
    return best, best_move, tied
