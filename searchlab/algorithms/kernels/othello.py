"""Compiled Othello move generation and perft (private).

Private: call it through ``searchlab.games.othello.othello_perft``, which validates its
arguments. Definitions: docs/games.md, "Othello".

A position is two uint64 bitboards, ``p`` (discs of the side to move) and ``o`` (the
opponent's); bit i is square i with i = 8 * (row - 1) + column, a1 = 0, b1 = 1, ..., h1 = 7,
a2 = 8, ..., h8 = 63 (the same numbering as searchlab.games.othello).

Every constant is a numpy uint64 and every operand stays uint64: in numba (and numpy) uint64
combined with int64 silently becomes float64.

Perft follows Aart Bik's pass convention (tests/data/othello/README.md): a pass is a ply
and uses one unit of depth; a position where neither side can move is one leaf at the depth
where it happens. Works unchanged (slowly) under NUMBA_DISABLE_JIT=1, on numpy uint64 scalars
(the caller silences numpy's overflow warning for the wrapping multiply of ``popcount``).
``bulk=True`` answers depth-1 nodes with a popcount of the move set instead
of visiting each child (same count, fewer make-moves).
"""

from __future__ import annotations

import numpy as np
from numba import njit

FULL = np.uint64(0xFFFFFFFFFFFFFFFF)
ZERO = np.uint64(0)
ONE = np.uint64(1)
INNER = np.uint64(0x7E7E7E7E7E7E7E7E)       # files b..g: stops wrap-around of east/west rays
# The four shift amounts: 1 (east/west), 8 (north/south), 9 and 7 (diagonals). For each, the
# mask applied to the opponent's discs along that ray.
SHIFTS = np.array([1, 8, 9, 7], dtype=np.uint64)
OMASKS = np.array([0x7E7E7E7E7E7E7E7E, 0xFFFFFFFFFFFFFFFF,
                   0x7E7E7E7E7E7E7E7E, 0x7E7E7E7E7E7E7E7E], dtype=np.uint64)

_M1 = np.uint64(0x5555555555555555)
_M2 = np.uint64(0x3333333333333333)
_M4 = np.uint64(0x0F0F0F0F0F0F0F0F)
_H01 = np.uint64(0x0101010101010101)
_S1 = np.uint64(1)
_S2 = np.uint64(2)
_S4 = np.uint64(4)
_S56 = np.uint64(56)


@njit("int64(uint64)", cache=True)
def popcount(x):
    """Number of set bits of a uint64 (SWAR)."""
    x = x - ((x >> _S1) & _M1)
    x = (x & _M2) + ((x >> _S2) & _M2)
    x = (x + (x >> _S4)) & _M4
    return np.int64((x * _H01) >> _S56)


@njit("uint64(uint64, uint64)", cache=True)
def legal_moves(p, o):
    """Set of the squares where the side to move (discs p) can play against discs o."""
    empty = ~(p | o)
    moves = ZERO
    for k in range(4):
        s = SHIFTS[k]
        om = o & OMASKS[k]
        # towards higher squares
        x = (p << s) & om
        x |= (x << s) & om
        x |= (x << s) & om
        x |= (x << s) & om
        x |= (x << s) & om
        x |= (x << s) & om
        moves |= (x << s) & empty
        # towards lower squares
        x = (p >> s) & om
        x |= (x >> s) & om
        x |= (x >> s) & om
        x |= (x >> s) & om
        x |= (x >> s) & om
        x |= (x >> s) & om
        moves |= (x >> s) & empty
    return moves


@njit("uint64(uint64, uint64, uint64)", cache=True)
def flips(p, o, bit):
    """Discs of o turned over when the side to move (p) plays on the one-bit set ``bit``."""
    f = ZERO
    for k in range(4):
        s = SHIFTS[k]
        om = o & OMASKS[k]
        x = (bit << s) & om
        x |= (x << s) & om
        x |= (x << s) & om
        x |= (x << s) & om
        x |= (x << s) & om
        x |= (x << s) & om
        if (x << s) & p:
            f |= x
        x = (bit >> s) & om
        x |= (x >> s) & om
        x |= (x >> s) & om
        x |= (x >> s) & om
        x |= (x >> s) & om
        x |= (x >> s) & om
        if (x >> s) & p:
            f |= x
    return f


# Iterative (an explicit stack), not recursive: numba's on-disk cache of a recursive function
# segfaulted on reload here (numba issues #6061, #6713).
@njit("int64(uint64, uint64, int64, boolean)", cache=True)
def perft(p0, o0, depth, bulk):
    """Leaf count of the tree of ``depth`` plies below (p0 to move, o0), Bik's convention.

    Level L of the stack holds the node at ply L: its discs (P, O), its not yet searched moves
    (MV, a bit set, visited in ascending square order) and whether the ply into it was a pass.
    """
    if depth <= 0:
        return 1
    P = np.empty(depth + 1, dtype=np.uint64)
    O = np.empty(depth + 1, dtype=np.uint64)
    MV = np.zeros(depth + 1, dtype=np.uint64)
    PS = np.zeros(depth + 1, dtype=np.bool_)
    P[0] = p0
    O[0] = o0
    total = 0
    level = 0
    descend = True
    while level >= 0:
        if descend:                       # first visit of the node at this level
            if level == depth:
                total += 1
                level -= 1
                descend = False
                continue
            mv = legal_moves(P[level], O[level])
            if mv == ZERO:
                if PS[level]:
                    total += 1            # neither side can move: one leaf, here
                    level -= 1
                    descend = False
                    continue
                MV[level] = ZERO          # the pass is the only child
                P[level + 1] = O[level]
                O[level + 1] = P[level]
                PS[level + 1] = True
                level += 1
                continue
            if bulk and level == depth - 1:
                total += popcount(mv)
                level -= 1
                descend = False
                continue
            MV[level] = mv
        mv = MV[level]                    # the next child, or back up
        if mv == ZERO:
            level -= 1
            descend = False
            continue
        bit = mv & (~mv + ONE)            # lowest set bit
        MV[level] = mv ^ bit
        p = P[level]
        o = O[level]
        f = flips(p, o, bit)
        P[level + 1] = o ^ f
        O[level + 1] = p | bit | f
        PS[level + 1] = False
        level += 1
        descend = True
    return total
