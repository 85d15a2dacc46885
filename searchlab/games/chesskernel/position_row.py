"""The compiled chess position: one row of a uint64 array, copy-make, keys, repetition.

Layout of a position row (``ROW`` uint64 words; a search keeps a 2-D ``stack`` with the
position after ply p in row p, so undoing a move is free and the game history is the rows
below):

    0..11   piece boards, index c * 6 + pt - 1 (c: 0 White, 1 Black; pt: python-chess's
            1 pawn .. 6 king)
    OCC_W, OCC_B, OCC    occupancy of White, Black, both
    STM     side to move (0 White, 1 Black)
    CASTLE  castling rights, 4 bits (tables.CASTLE_*); always "clean" (king and rook at home)
    EP      python-chess's ``ep_square`` (set after every double push, whatever can capture),
            NO_SQUARE (64) when none
    HALF, FULL           half-move clock and full-move number
    KEY     Polyglot Zobrist key (== chess.polyglot.zobrist_hash), kept incrementally
    EP_KEY  the part of KEY due to the en-passant file (0 or tables.EP_HASH[file])
    REP_KEY the repetition key: KEY without the en-passant part when no *legal* en-passant
            capture exists, i.e. python-chess's transposition key (``is_repetition``) in key form
    SPARE   copied along, never read (for the row's owner)

A row depends on the position only (not on the moves that led to it): the row after a move
equals the row loaded from the resulting FEN (tests check this).

Moves are int64 (see movegen.py for the bit fields and the generation order).

Repetition (``repetitions``): how many earlier rows of the stack, at the same side to move and
within the half-move clock (no pawn move or capture in between), hold the same REP_KEY;
python-chess's ``board.is_repetition(count)`` is ``repetitions(...) >= count - 1``.
"""

from __future__ import annotations

import chess
import chess.polyglot
import numpy as np
from numba import njit

from searchlab.games.chesskernel.attacks import (bishop_attacks, king_attacks, knight_attacks,
                                                 pawn_attacks, rook_attacks)
from searchlab.algorithms.kernels.bits import lsb
from searchlab.games.chesskernel.tables import (BIT, CASTLE_HASH, CASTLE_KEEP, EP_HASH, PIECE_HASH,
                                                TURN_HASH)

OCC_W, OCC_B, OCC, STM, CASTLE, EP, HALF, FULL, KEY, EP_KEY, REP_KEY = range(12, 23)
#: Words of a row. The last word (SPARE) is the position's owner's: the kernel copies it along
#: and never reads it (the compiled game keeps MAX's colour there).
ROW = 24
SPARE = 23
NO_SQUARE = 64

PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING = 1, 2, 3, 4, 5, 6

# Move bit fields (movegen.py documents them).
KIND_NORMAL, KIND_EP, KIND_CASTLE, KIND_DOUBLE = 0, 1, 2, 3

_Z = np.uint64(0)
_FILE_A = np.uint64(chess.BB_FILE_A)
_FILE_H = np.uint64(chess.BB_FILE_H)
_S1 = np.uint64(1)


# --- decoding moves ---------------------------------------------------------------------------
@njit(inline="always")
def move_from(m):
    return m & 63


@njit(inline="always")
def move_to(m):
    return (m >> 6) & 63


@njit(inline="always")
def move_promo(m):
    return (m >> 12) & 7


@njit(inline="always")
def move_kind(m):
    return (m >> 15) & 3


@njit(inline="always")
def move_piece(m):
    return (m >> 17) & 7


@njit(inline="always")
def move_captured(m):
    return (m >> 20) & 7


@njit(inline="always")
def encode(frm, to, promo, kind, piece, captured):
    return frm | (to << 6) | (promo << 12) | (kind << 15) | (piece << 17) | (captured << 20)


# --- queries --------------------------------------------------------------------------------
@njit(inline="always")
def piece_type_at(pos, color, sq):
    """python-chess piece type (1..6) of colour ``color`` on sq, 0 if none."""
    b = BIT[sq]
    base = color * 6
    for i in range(6):
        if pos[base + i] & b:
            return i + 1
    return 0


@njit
def attackers(pos, color, sq, occ):
    """Pieces of ``color`` attacking sq, sliders seeing through the given occupancy."""
    base = color * 6
    queens = pos[base + 4]
    return ((pawn_attacks(1 - color, sq) & pos[base])
            | (knight_attacks(sq) & pos[base + 1])
            | (bishop_attacks(sq, occ) & (pos[base + 2] | queens))
            | (rook_attacks(sq, occ) & (pos[base + 3] | queens))
            | (king_attacks(sq) & pos[base + 5]))


@njit
def king_square(pos, color):
    return lsb(pos[color * 6 + 5])


@njit
def in_check(pos):
    """Whether the side to move is in check."""
    us = np.int64(pos[STM])
    return attackers(pos, 1 - us, king_square(pos, us), pos[OCC]) != _Z


# --- keys -----------------------------------------------------------------------------------
@njit
def ep_key_part(pos):
    """The en-passant part of the Polyglot key: the ep file when a pawn of the side to move
    stands beside the pawn that just advanced (legality irrelevant, as in Polyglot)."""
    ep = np.int64(pos[EP])
    if ep == NO_SQUARE:
        return _Z
    us = np.int64(pos[STM])
    pawn_sq = ep + 8 if us == 1 else ep - 8        # the pawn that advanced two squares
    b = BIT[pawn_sq]
    beside = ((b << _S1) & ~_FILE_A) | ((b >> _S1) & ~_FILE_H)
    if beside & pos[us * 6]:
        return EP_HASH[ep & 7]
    return _Z


@njit
def legal_ep_exists(pos):
    """Whether the side to move has a legal en-passant capture."""
    ep = np.int64(pos[EP])
    if ep == NO_SQUARE:
        return False
    us = np.int64(pos[STM])
    them = 1 - us
    captured_sq = ep - 8 if us == 0 else ep + 8
    capturers = pawn_attacks(them, ep) & pos[us * 6]
    king = king_square(pos, us)
    while capturers:
        frm = lsb(capturers)
        capturers &= capturers - _S1
        occ = (pos[OCC] ^ BIT[frm] ^ BIT[captured_sq]) | BIT[ep]
        if (attackers(pos, them, king, occ) & ~BIT[captured_sq]) == _Z:
            return True
    return False


@njit
def full_key(pos):
    """The Polyglot key computed from scratch (the incremental KEY must always equal it)."""
    k = _Z
    for p in range(12):
        b = pos[p]
        while b:
            k ^= PIECE_HASH[p, lsb(b)]
            b &= b - _S1
    k ^= CASTLE_HASH[np.int64(pos[CASTLE])]
    k ^= ep_key_part(pos)
    if pos[STM] == _Z:
        k ^= TURN_HASH
    return k


# --- making moves ---------------------------------------------------------------------------
@njit(inline="always")
def make_board(src, dst, m):
    """Write the position after legal move m (movegen.py's encoding) of row src into row dst,
    without its keys: pieces, occupancy, side to move, castling rights, en-passant square and
    clocks as make_move writes them; KEY, EP_KEY and REP_KEY are src's, i.e. stale (perft's
    make: nothing it calls reads them)."""
    for i in range(ROW):
        dst[i] = src[i]
    us = np.int64(src[STM])
    them = 1 - us
    frm = move_from(m)
    to = move_to(m)
    promo = move_promo(m)
    kind = move_kind(m)
    piece = move_piece(m)
    captured = move_captured(m)
    fb = BIT[frm]
    tb = BIT[to]
    occ_us = OCC_W + us
    mine = us * 6 + piece - 1
    if captured:
        cap_sq = to
        if kind == KIND_EP:
            cap_sq = to - 8 if us == 0 else to + 8
        cb = BIT[cap_sq]
        dst[them * 6 + captured - 1] ^= cb
        dst[OCC_W + them] ^= cb
    dst[mine] ^= fb | tb
    dst[occ_us] ^= fb | tb
    if promo:
        dst[mine] ^= tb
        dst[us * 6 + promo - 1] ^= tb
    elif kind == KIND_CASTLE:
        if to > frm:
            rb = BIT[frm + 3] | BIT[frm + 1]
        else:
            rb = BIT[frm - 4] | BIT[frm - 1]
        dst[us * 6 + 3] ^= rb
        dst[occ_us] ^= rb
    dst[OCC] = dst[OCC_W] | dst[OCC_B]
    dst[CASTLE] = src[CASTLE] & np.uint64(CASTLE_KEEP[frm] & CASTLE_KEEP[to])
    dst[STM] = np.uint64(them)
    if kind == KIND_DOUBLE:
        dst[EP] = np.uint64((frm + to) >> 1)
    else:
        dst[EP] = np.uint64(NO_SQUARE)
    if piece == PAWN or captured:
        dst[HALF] = _Z
    else:
        dst[HALF] = src[HALF] + _S1
    if us == 1:
        dst[FULL] = src[FULL] + _S1


@njit
def make_move(src, dst, m):
    """Write the position after legal move m (movegen.py's encoding) of row src into row dst
    (copy-make: src is unchanged), keys included: make_board, then the Polyglot key updated by
    every (piece, square) that changed, the side, the castling rights and the en-passant
    file."""
    make_board(src, dst, m)
    key = src[KEY] ^ src[EP_KEY] ^ TURN_HASH
    for p in range(12):
        changed = src[p] ^ dst[p]
        while changed:
            key ^= PIECE_HASH[p, lsb(changed)]
            changed &= changed - _S1
    if dst[CASTLE] != src[CASTLE]:
        key ^= CASTLE_HASH[np.int64(src[CASTLE])] ^ CASTLE_HASH[np.int64(dst[CASTLE])]
    ep_part = _Z
    rep_key = key
    if move_kind(m) == KIND_DOUBLE:
        ep_part = ep_key_part(dst)
        key ^= ep_part
        if ep_part != _Z and legal_ep_exists(dst):
            rep_key = key
    dst[KEY] = key
    dst[EP_KEY] = ep_part
    dst[REP_KEY] = rep_key


@njit
def make_null(src, dst):
    """Row dst = row src with the side to move passing (python-chess's null move: the
    en-passant square is cleared, the half-move clock advances)."""
    for i in range(ROW):
        dst[i] = src[i]
    key = src[KEY] ^ src[EP_KEY] ^ TURN_HASH
    dst[KEY] = key
    dst[REP_KEY] = key
    dst[EP_KEY] = _Z
    dst[EP] = np.uint64(NO_SQUARE)
    dst[STM] = src[STM] ^ _S1
    dst[HALF] = src[HALF] + _S1
    if src[STM] == _S1:
        dst[FULL] = src[FULL] + _S1


@njit
def repetitions(stack, ply, first):
    """Earlier rows first..ply-2 (same side to move, within the half-move clock) whose
    position equals row ply's (python-chess's transposition key)."""
    pos = stack[ply]
    key = pos[REP_KEY]
    lowest = max(first, ply - np.int64(pos[HALF]))
    count = 0
    p = ply - 2
    while p >= lowest:
        if stack[p, REP_KEY] == key:
            count += 1
        p -= 2
    return count


# --- loading from python-chess --------------------------------------------------------------
def row_from_board(board: chess.Board) -> np.ndarray:
    """The row of a python-chess board (standard chess; validated by the caller).

    Plain Python, no compiled code (a process that only loads positions and runs a cached
    compiled search compiles nothing): the keys come from python-chess, KEY being
    ``chess.polyglot.zobrist_hash`` (the tests check it against ``full_key``), EP_KEY what the
    en-passant file adds to it, REP_KEY without that part unless an en-passant capture is
    legal (``Board.has_legal_en_passant``)."""
    pos = np.zeros(ROW, dtype=np.uint64)
    for c, color in enumerate((chess.WHITE, chess.BLACK)):
        for pt in range(1, 7):
            pos[c * 6 + pt - 1] = np.uint64(board.pieces_mask(pt, color))
        pos[OCC_W + c] = np.uint64(board.occupied_co[color])
    pos[OCC] = np.uint64(board.occupied)
    pos[STM] = np.uint64(0 if board.turn == chess.WHITE else 1)
    rights = board.clean_castling_rights()
    bits = 0
    for sq, bit in ((chess.H1, 1), (chess.A1, 2), (chess.H8, 4), (chess.A8, 8)):
        if rights & chess.BB_SQUARES[sq]:
            bits |= bit
    pos[CASTLE] = np.uint64(bits)
    pos[EP] = np.uint64(NO_SQUARE if board.ep_square is None else board.ep_square)
    pos[HALF] = np.uint64(board.halfmove_clock)
    pos[FULL] = np.uint64(board.fullmove_number)
    hasher = chess.polyglot.ZobristHasher(chess.polyglot.POLYGLOT_RANDOM_ARRAY)
    key = hasher(board)
    ep_part = hasher.hash_ep_square(board)
    pos[KEY] = np.uint64(key)
    pos[EP_KEY] = np.uint64(ep_part)
    pos[REP_KEY] = np.uint64(key if board.has_legal_en_passant() else key ^ ep_part)
    return pos


_PROMO = {2: "n", 3: "b", 4: "r", 5: "q"}


def uci(move: int) -> str:
    """The UCI string of a kernel move (castling as king e1g1 etc., as python-chess)."""
    frm, to, promo = move & 63, (move >> 6) & 63, (move >> 12) & 7
    return chess.SQUARE_NAMES[frm] + chess.SQUARE_NAMES[to] + _PROMO.get(promo, "")
