"""Attack sets and attack tests of the compiled chess kernel (numba).

Boards are numpy uint64; every constant is a uint64 too, because numba turns uint64 mixed with
int64 into float64. See tables.py for the slider scheme (hyperbola quintessence + rank table).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from searchlab.games.chesskernel.tables import (ANTI_MASK, BIT, BIT_SWAPPED, DIAG_MASK, FILE_MASK,
                                                KING_ATTACKS, KNIGHT_ATTACKS, PAWN_ATTACKS,
                                                RANK_ATTACKS)

_S8 = np.uint64(8)
_S16 = np.uint64(16)
_S32 = np.uint64(32)
_M8 = np.uint64(0x00FF00FF00FF00FF)
_M16 = np.uint64(0x0000FFFF0000FFFF)
_INNER = np.uint64(63)


@njit(inline="always")
def bswap(x):
    """Byte swap = vertical mirror of a board."""
    x = ((x >> _S8) & _M8) | ((x & _M8) << _S8)
    x = ((x >> _S16) & _M16) | ((x & _M16) << _S16)
    return (x >> _S32) | (x << _S32)


@njit(inline="always")
def _line_attacks(occ, sq, mask):
    forward = occ & mask
    reverse = bswap(forward)
    forward = forward - BIT[sq]
    reverse = reverse - BIT_SWAPPED[sq]
    return (forward ^ bswap(reverse)) & mask


@njit(inline="always")
def rank_attacks(occ, sq):
    return RANK_ATTACKS[sq, np.int64((occ >> np.uint64((sq & 56) + 1)) & _INNER)]


@njit(inline="always")
def rook_attacks(sq, occ):
    """Squares a rook on sq attacks given the occupancy occ (blockers included)."""
    return rank_attacks(occ, sq) | _line_attacks(occ, sq, FILE_MASK[sq])


@njit(inline="always")
def bishop_attacks(sq, occ):
    """Squares a bishop on sq attacks given the occupancy occ (blockers included)."""
    return _line_attacks(occ, sq, DIAG_MASK[sq]) | _line_attacks(occ, sq, ANTI_MASK[sq])


@njit(inline="always")
def knight_attacks(sq):
    return KNIGHT_ATTACKS[sq]


@njit(inline="always")
def king_attacks(sq):
    return KING_ATTACKS[sq]


@njit(inline="always")
def pawn_attacks(color, sq):
    return PAWN_ATTACKS[color, sq]
