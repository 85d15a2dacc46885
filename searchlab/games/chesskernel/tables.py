"""Precomputed tables of the compiled chess kernel (numpy, built once at import).

Squares are python-chess's (a1 = 0, b1 = 1, ..., h8 = 63); boards are numpy uint64. Leaper
tables (knight, king, pawn captures) are copied from python-chess's own constants. Sliders use
*hyperbola quintessence* (file, diagonal, anti-diagonal: a subtraction and a byte swap on the
masked occupancy) plus a 64 x 64 first-rank table for ranks, instead of magic bitboards: no
magic numbers to search for or trust, 36 KB of tables, and branch-free integer code that numba
compiles quickly; it is checked square by square against python-chess's attack masks in the
tests.

Zobrist: ``ZOBRIST`` is Polyglot's 781 random numbers (``chess.polyglot.POLYGLOT_RANDOM_ARRAY``);
piece ``pt`` (python-chess's 1..6) of colour ``c`` (0 White, 1 Black) on ``sq`` hashes
``ZOBRIST[64 * ((pt - 1) * 2 + 1 - c) + sq]``, castling rights 768..771 (White king-side,
White queen-side, Black king-side, Black queen-side), the en-passant file 772..779 (only when a
pawn of the side to move stands beside the pawn that just advanced two squares), White to move
780: exactly ``chess.polyglot.zobrist_hash``.
"""

from __future__ import annotations

import chess
import chess.polyglot
import numpy as np

U64 = np.uint64

#: 1 << sq
BIT = np.array([1 << s for s in range(64)], dtype=np.uint64)
KNIGHT_ATTACKS = np.array(chess.BB_KNIGHT_ATTACKS, dtype=np.uint64)
KING_ATTACKS = np.array(chess.BB_KING_ATTACKS, dtype=np.uint64)
#: PAWN_ATTACKS[c, sq]: squares a pawn of colour c (0 White, 1 Black) on sq attacks.
PAWN_ATTACKS = np.array([chess.BB_PAWN_ATTACKS[chess.WHITE], chess.BB_PAWN_ATTACKS[chess.BLACK]],
                        dtype=np.uint64)


def _line_mask(sq: int, df: int, dr: int) -> int:
    """Squares on the line through sq in direction (df, dr), both ways, sq excluded."""
    f0, r0 = sq % 8, sq // 8
    mask = 0
    for sign in (1, -1):
        f, r = f0 + sign * df, r0 + sign * dr
        while 0 <= f < 8 and 0 <= r < 8:
            mask |= 1 << (8 * r + f)
            f, r = f + sign * df, r + sign * dr
    return mask


FILE_MASK = np.array([_line_mask(s, 0, 1) for s in range(64)], dtype=np.uint64)
DIAG_MASK = np.array([_line_mask(s, 1, 1) for s in range(64)], dtype=np.uint64)
ANTI_MASK = np.array([_line_mask(s, 1, -1) for s in range(64)], dtype=np.uint64)
#: Empty-board slider rays of each square (sq excluded): what a bishop or rook on sq could
#: attack at most; a cheap filter before the slider arithmetic.
BISHOP_RAYS = DIAG_MASK | ANTI_MASK
ROOK_RAYS = FILE_MASK | np.array([(0xFF << (8 * (s // 8))) ^ (1 << s) for s in range(64)],
                                 dtype=np.uint64)
#: BIT[sq ^ 56]: the slider's bit in the byte-swapped (vertically mirrored) board.
BIT_SWAPPED = np.array([1 << (s ^ 56) for s in range(64)], dtype=np.uint64)


def _rank_table() -> np.ndarray:
    """RANK_ATTACKS[sq, inner]: rook attacks along sq's rank when ``inner`` (6 bits) holds the
    occupancy of files b..g of that rank."""
    table = np.zeros((64, 64), dtype=np.uint64)
    for sq in range(64):
        f, r = sq % 8, sq // 8
        for inner in range(64):
            occ = inner << 1
            att = 0
            for step in (1, -1):
                g = f + step
                while 0 <= g < 8:
                    att |= 1 << g
                    if occ >> g & 1:
                        break
                    g += step
            table[sq, inner] = att << (8 * r)
    return table


RANK_ATTACKS = _rank_table()

#: BETWEEN[a, b]: squares strictly between a and b on a line (0 if not on one line).
BETWEEN = np.array([[chess.between(a, b) for b in range(64)] for a in range(64)], dtype=np.uint64)
#: LINE[a, b]: the whole line through a and b, both included (0 if not on one line).
LINE = np.array([[chess.ray(a, b) for b in range(64)] for a in range(64)], dtype=np.uint64)

# Castling: rights are 4 bits (1 White king-side, 2 White queen-side, 4 Black king-side,
# 8 Black queen-side). A move from or to a square clears the rights that square carries.
CASTLE_WK, CASTLE_WQ, CASTLE_BK, CASTLE_BQ = 1, 2, 4, 8
_KEEP = np.full(64, 15, dtype=np.int64)
_KEEP[chess.E1] = 15 & ~(CASTLE_WK | CASTLE_WQ)
_KEEP[chess.H1] = 15 & ~CASTLE_WK
_KEEP[chess.A1] = 15 & ~CASTLE_WQ
_KEEP[chess.E8] = 15 & ~(CASTLE_BK | CASTLE_BQ)
_KEEP[chess.H8] = 15 & ~CASTLE_BK
_KEEP[chess.A8] = 15 & ~CASTLE_BQ
CASTLE_KEEP = _KEEP

ZOBRIST = np.array(chess.polyglot.POLYGLOT_RANDOM_ARRAY, dtype=np.uint64)


def _castle_hash() -> np.ndarray:
    out = np.zeros(16, dtype=np.uint64)
    for rights in range(16):
        h = 0
        for bit in range(4):
            if rights >> bit & 1:
                h ^= chess.polyglot.POLYGLOT_RANDOM_ARRAY[768 + bit]
        out[rights] = h
    return out


#: CASTLE_HASH[rights]: the Polyglot key part of a castling-rights set.
CASTLE_HASH = _castle_hash()


def _piece_hash() -> np.ndarray:
    out = np.zeros((12, 64), dtype=np.uint64)
    for c in range(2):
        for pt in range(1, 7):
            for sq in range(64):
                out[c * 6 + pt - 1, sq] = ZOBRIST[64 * ((pt - 1) * 2 + 1 - c) + sq]
    return out


#: PIECE_HASH[c * 6 + pt - 1, sq]: Polyglot key of piece type pt (1..6) of colour c on sq.
PIECE_HASH = _piece_hash()
EP_HASH = ZOBRIST[772:780].copy()
TURN_HASH = ZOBRIST[780]
