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
from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros
from numba.extending import overload

FULL = np.uint64(0xFFFFFFFFFFFFFFFF)
ZERO = np.uint64(0)
ONE = np.uint64(1)
TOP = np.uint64(1 << 63)
INNER = np.uint64(0x7E7E7E7E7E7E7E7E)       # files b..g: stops wrap-around of east/west rays

_M1 = np.uint64(0x5555555555555555)
_M2 = np.uint64(0x3333333333333333)
_M4 = np.uint64(0x0F0F0F0F0F0F0F0F)
_H01 = np.uint64(0x0101010101010101)
_S1 = np.uint64(1)
_S2 = np.uint64(2)
_S4 = np.uint64(4)
_S7, _S8, _S9 = np.uint64(7), np.uint64(8), np.uint64(9)
_S14, _S16, _S18 = np.uint64(14), np.uint64(16), np.uint64(18)
_S56 = np.uint64(56)


def _rays() -> np.ndarray:
    """RAYS[sq, k]: the squares from sq (excluded) to the board's edge in direction k; k = 0..3
    towards higher squares (east, north, north-east, north-west), 4..7 towards lower ones (west,
    south, south-west, south-east). One square's eight rays fill one 64-byte cache line."""
    steps = ((1, 0), (0, 1), (1, 1), (-1, 1), (-1, 0), (0, -1), (-1, -1), (1, -1))
    rays = np.zeros((64, 8), dtype=np.uint64)
    for sq in range(64):
        for k, (dc, dr) in enumerate(steps):
            c, r, ray = sq % 8 + dc, sq // 8 + dr, 0
            while 0 <= c < 8 and 0 <= r < 8:
                ray |= 1 << (8 * r + c)
                c, r = c + dc, r + dr
            rays[sq, k] = ray
    return rays


RAYS = _rays()


def lowest_square(x):
    """Index of the lowest set bit of a non-zero uint64 (as int64); compiled: one tzcnt."""
    return np.int64((int(x) & -int(x)).bit_length() - 1)


def highest_bit(x):
    """The highest set bit of a non-zero uint64, as a one-bit uint64; compiled: one lzcnt."""
    return ONE << np.uint64(int(x).bit_length() - 1)


# Under NUMBA_DISABLE_JIT the two plain functions above run; compiled code gets these.
@overload(lowest_square)
def _lowest_square_compiled(x):
    return lambda x: np.int64(trailing_zeros(x))


@overload(highest_bit)
def _highest_bit_compiled(x):
    return lambda x: TOP >> leading_zeros(x)


@njit("int64(uint64)", cache=True)
def popcount(x):
    """Number of set bits of a uint64 (SWAR)."""
    x = x - ((x >> _S1) & _M1)
    x = (x & _M2) + ((x >> _S2) & _M2)
    x = (x + (x >> _S4)) & _M4
    return np.int64((x * _H01) >> _S56)


@njit(cache=True)
def _line_moves(p, om, s, s2):
    """Squares one step beyond a run of discs of ``om`` that starts next to a disc of p, in
    both directions of shift ``s`` (= ``s2`` / 2): parallel-prefix (Kogge-Stone) fills, runs of
    up to 6 in four steps (dumb7fill takes six)."""
    up = om & (p << s)
    down = om & (p >> s)
    up |= om & (up << s)
    down |= om & (down >> s)
    pairs_up = om & (om << s)                # run squares whose neighbour below is in om too
    pairs_down = pairs_up >> s
    up |= pairs_up & (up << s2)
    down |= pairs_down & (down >> s2)
    up |= pairs_up & (up << s2)
    down |= pairs_down & (down >> s2)
    return (up << s) | (down >> s)


@njit("uint64(uint64, uint64)", cache=True)
def legal_moves(p, o):
    """Set of the squares where the side to move (discs p) can play against discs o."""
    oi = o & INNER
    moves = (_line_moves(p, oi, _S1, _S2) | _line_moves(p, o, _S8, _S16)
             | _line_moves(p, oi, _S9, _S18) | _line_moves(p, oi, _S7, _S14))
    return moves & ~(p | o)


@njit(cache=True)
def _flips_up(p, not_o, ray):
    """Flips along a ray towards higher squares: the discs of o below the ray's first square
    that is not o's, if that square is p's."""
    x = ray & not_o
    end = (x & (~x + ONE)) & p
    return (end - np.uint64(end != ZERO)) & ray


@njit(cache=True)
def _flips_down(p, not_o, ray):
    """Flips along a ray towards lower squares (its first square is its highest). ``| ONE``
    keeps highest_bit's argument non-zero; square 0 then counts only if it is on the ray."""
    end = highest_bit((ray & not_o) | ONE) & p & ray
    return ray & (~(end << ONE) + ONE)


@njit("uint64(uint64, uint64, int64)", cache=True)
def flips(p, o, sq):
    """Discs of o turned over when the side to move (p) plays on the empty square ``sq``."""
    r = RAYS[sq]
    no = ~o
    return (_flips_up(p, no, r[0]) | _flips_up(p, no, r[1]) | _flips_up(p, no, r[2])
            | _flips_up(p, no, r[3]) | _flips_down(p, no, r[4]) | _flips_down(p, no, r[5])
            | _flips_down(p, no, r[6]) | _flips_down(p, no, r[7]))


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
        f = flips(p, o, lowest_square(bit))
        P[level + 1] = o ^ f
        O[level + 1] = p | bit | f
        PS[level + 1] = False
        level += 1
        descend = True
    return total
