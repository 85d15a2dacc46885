"""Compiled Othello move generation and perft (private).

Private: call it through ``searchlab.games.othello.othello_perft``, which validates its
arguments. Definitions: docs/games.md, "Othello".

A position is two uint64 bitboards, ``p`` (discs of the side to move) and ``o`` (the
opponent's); bit i is square i with i = 8 * (row - 1) + column, a1 = 0, b1 = 1, ..., h1 = 7,
a2 = 8, ..., h8 = 63 (the same numbering as searchlab.games.othello).

Every constant is a numpy uint64 and every operand stays uint64: in numba (and numpy) uint64
combined with int64 silently becomes float64.

How (each chosen by measurement, gen+play per move in the compiled Othello search): legal moves
by parallel-prefix (Kogge-Stone) fills; both sides' move sets at once as one 8-lane LLVM vector
(``legal_moves_both``: the compiled search keeps both in its state); flips from a table of the
eight rays out of each square, the first square of a ray that is not the opponent's found by a
bit scan (lsb/msb), no fill at all.

Perft follows Aart Bik's pass convention (tests/data/othello/README.md): a pass is a ply
and uses one unit of depth; a position where neither side can move is one leaf at the depth
where it happens. Works unchanged (slowly) under NUMBA_DISABLE_JIT=1, on numpy uint64 scalars
(the caller silences numpy's overflow warning for the wrapping multiply of ``popcount``).
``bulk=True`` answers depth-1 nodes with a popcount of the move set instead
of visiting each child (same count, fewer make-moves).
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core.extending import intrinsic, overload

from searchlab.algorithms.kernels.bits import lsb, msb

FULL = np.uint64(0xFFFFFFFFFFFFFFFF)
ZERO = np.uint64(0)
ONE = np.uint64(1)
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


def legal_moves_both(b, w):
    """(legal_moves(b, w), legal_moves(w, b)): the move sets of both sides of a position.

    Compiled, one pass of ``_legal_moves_both_vector``; plain Python (NUMBA_DISABLE_JIT), the
    two calls.
    """
    return legal_moves(b, w), legal_moves(w, b)


_I32, _I64 = ir.IntType(32), ir.IntType(64)
_LANES = ir.VectorType(_I64, 8)


def _words(values) -> ir.Constant:
    return ir.Constant(_LANES, [ir.Constant(_I64, v) for v in values])


def _pick(lanes) -> ir.Constant:
    return ir.Constant(ir.VectorType(_I32, 8), [ir.Constant(_I32, k) for k in lanes])


@intrinsic
def _legal_moves_both_vector(typingctx, b, w):
    """legal_moves_both in LLVM vector code: the 4 directions x 2 sides of _line_moves are the
    8 lanes of one vector of uint64 (one AVX-512 register; LLVM splits it where the CPU has
    narrower vectors), so the 8 fills run at once instead of one after another (numba does
    not vectorize straight-line code: its SLP vectorizer is off). Lanes 0-3 are b's moves
    (shifts 1, 8, 9, 7), lanes 4-7 w's; the lanes are OR-ed together per side at the end."""
    if b != types.uint64 or w != types.uint64:
        return None
    sig = types.UniTuple(types.uint64, 2)(types.uint64, types.uint64)

    def codegen(context, builder, signature, args):
        b, w = args
        both, _and, _or = ir.Constant(_LANES, ir.Undefined), builder.and_, builder.or_
        both = builder.insert_element(both, b, ir.Constant(_I32, 0))
        both = builder.insert_element(both, w, ir.Constant(_I32, 4))
        p = builder.shuffle_vector(both, both, _pick([0, 0, 0, 0, 4, 4, 4, 4]))
        o = builder.shuffle_vector(both, both, _pick([4, 4, 4, 4, 0, 0, 0, 0]))
        s, s2 = _words([1, 8, 9, 7] * 2), _words([2, 16, 18, 14] * 2)
        om = _and(o, _words([int(INNER), int(FULL), int(INNER), int(INNER)] * 2))
        up = _and(om, builder.shl(p, s))
        down = _and(om, builder.lshr(p, s))
        up = _or(up, _and(om, builder.shl(up, s)))
        down = _or(down, _and(om, builder.lshr(down, s)))
        pairs_up = _and(om, builder.shl(om, s))
        pairs_down = builder.lshr(pairs_up, s)
        for _ in range(2):
            up = _or(up, _and(pairs_up, builder.shl(up, s2)))
            down = _or(down, _and(pairs_down, builder.lshr(down, s2)))
        m = _or(builder.shl(up, s), builder.lshr(down, s))
        m = _or(m, builder.shuffle_vector(m, m, _pick([2, 3, 0, 1, 6, 7, 4, 5])))
        m = _or(m, builder.shuffle_vector(m, m, _pick([1, 0, 3, 2, 5, 4, 7, 6])))
        empty = builder.not_(_or(b, w))
        moves_b = _and(builder.extract_element(m, ir.Constant(_I32, 0)), empty)
        moves_w = _and(builder.extract_element(m, ir.Constant(_I32, 4)), empty)
        return context.make_tuple(builder, signature.return_type, [moves_b, moves_w])
    return sig, codegen


@overload(legal_moves_both)
def _legal_moves_both_compiled(b, w):
    return lambda b, w: _legal_moves_both_vector(b, w)


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
    keeps msb's argument non-zero; square 0 then counts only if it is on the ray."""
    end = (ONE << np.uint64(msb((ray & not_o) | ONE))) & p & ray
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
        f = flips(p, o, lsb(bit))
        P[level + 1] = o ^ f
        O[level + 1] = p | bit | f
        PS[level + 1] = False
        level += 1
        descend = True
    return total
