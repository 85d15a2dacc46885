"""Chess as a game for the compiled search engine: numba primitives that repeat
searchlab.games.chess_game exactly (the contract: searchlab.contracts.compiled).

State: a position row (position.py, ``ROW`` words) whose SPARE word holds MAX's colour (0
White, 1 Black), then the history for repetitions as ChessState keeps it: ``N_HIST`` (how many
keys follow), ``N_BEFORE`` (how many of them lie before the root) and up to ``HIST_CAP`` repetition
keys (REP_KEY) of the earlier positions since the last pawn move or capture, oldest first.
Their number never exceeds the half-move clock, and a position whose clock reaches 150 is
terminal (the 75-move rule), so 150 slots hold every history a search can reach.

Move ids: ``from + 64 * to + 4096 * promotion`` (promotion: python-chess's piece type, 0 for
none), one-to-one with UCI strings; ``N_MOVE_IDS`` = 6 * 4096. ``gen_moves`` lists them in
python-chess's order, the Python game's natural order.

Values (MAX's point of view), bit for bit the Python game's:
    evaluate  ``float(evaluate_white)``, negated when MAX is Black (so a level position with
              MAX Black is -0.0, as ``-float(0)`` in Python)
    utility   +/-MATE_VALUE for checkmate, 0.0 for every draw
    terminal  checkmate, stalemate, python-chess's insufficient material, the 75-move rule
              (half-move clock >= 150), ``Board.outcome(claim_draw=False)``; and
              ChessState.is_repetition_draw: the position's REP_KEY occurs among the history
              once from the root on, or twice in all
Order key "captures" (code ORDER_CAPTURES): the tuple (class, -victim value, attacker value)
of chess_game._order_key packed into one exact float64 (ascending, ties in natural order).
"""

from __future__ import annotations

import chess
import numpy as np
from numba import njit

from searchlab.games.chess_values import (MATE_VALUE, PIECE_VALUES, PST, PST_KING_END,
                                          PST_KING_MIDDLE)
from searchlab.algorithms.kernels.bits import lsb, popcount
from searchlab.games.chesskernel.movegen import generate, has_legal_move
from searchlab.games.chesskernel.position_row import (EP, HALF, KEY, KIND_CASTLE, KIND_DOUBLE,
                                                  KIND_EP, KIND_NORMAL, KING, OCC_W, PAWN,
                                                  REP_KEY, ROW, SPARE, STM, encode, in_check,
                                                  make_move, make_null,
                                                  move_captured, move_from, move_piece,
                                                  move_promo, move_to, piece_type_at,
                                                  row_from_board, uci)

N_HIST = ROW
N_BEFORE = ROW + 1
HIST0 = ROW + 2
HIST_CAP = 150
STATE_SIZE = HIST0 + HIST_CAP
N_MOVE_IDS = 6 * 4096
#: Longer than any chess game (the 75-move rule and 16 pawns bound it by 8,848 plies).
MAX_PLIES = 8_849
ORDER_CAPTURES = 0
ORDERINGS = {"captures": ORDER_CAPTURES}
MAX_COLOR = SPARE

_Z = np.uint64(0)
_S1 = np.uint64(1)
_ID_MASK = 0x7FFF
_VALUES = np.array([0] + [PIECE_VALUES[pt] for pt in range(1, 7)], dtype=np.int64)
# _PST[pt] for pt 1..5 as printed (row 0 = rank 8); White reads sq ^ 56, Black sq.
_PST = np.zeros((7, 64), dtype=np.int64)
for _pt in range(1, 6):
    _PST[_pt] = PST[_pt]
_KING_MIDDLE = np.array(PST_KING_MIDDLE, dtype=np.int64)
_KING_END = np.array(PST_KING_END, dtype=np.int64)
_DARK = np.uint64(chess.BB_DARK_SQUARES)
_LIGHT = np.uint64(chess.BB_LIGHT_SQUARES)


# --- the position as the Python game sees it -------------------------------------------------
@njit
def _is_endgame(s):
    for c in range(2):
        b = c * 6
        if s[b + 4]:
            rooks = popcount(s[b + 3])
            minors = popcount(s[b + 1] | s[b + 2])
            if rooks or minors > 1:
                return False
    return True


@njit
def evaluate_white(s):
    """chess_game.evaluate_white: material + piece-square tables, centipawns, White's view."""
    score = 0
    end = _is_endgame(s)
    for c in range(2):
        flip = 56 if c == 0 else 0
        sign = 1 if c == 0 else -1
        for pt in range(1, 6):
            b = s[c * 6 + pt - 1]
            while b:
                sq = lsb(b)
                b &= b - _S1
                score += sign * (_VALUES[pt] + _PST[pt, sq ^ flip])
        b = s[c * 6 + 5]
        while b:
            sq = lsb(b)
            b &= b - _S1
            score += sign * (_KING_END[sq ^ flip] if end else _KING_MIDDLE[sq ^ flip])
    return score


@njit
def _insufficient(s, c):
    """python-chess's Board.has_insufficient_material(colour c)."""
    mine = s[OCC_W + c]
    theirs = s[OCC_W + 1 - c]
    if mine & (s[0] | s[6] | s[3] | s[9] | s[4] | s[10]):
        return False
    if mine & (s[1] | s[7]):
        return popcount(mine) <= 2 and not (theirs & ~(s[5] | s[11]) & ~(s[4] | s[10]))
    bishops = s[2] | s[8]
    if mine & bishops:
        same_color = (bishops & _DARK) == _Z or (bishops & _LIGHT) == _Z
        return same_color and (s[0] | s[6]) == _Z and (s[1] | s[7]) == _Z
    return True


# --- the primitives --------------------------------------------------------------------------
@njit
def max_to_move(s):
    return s[STM] == s[MAX_COLOR]


@njit
def repetition_draw(s):
    """ChessState.is_repetition_draw: REP_KEY among the same side's earlier positions of the
    history, once at or after the root or twice in all."""
    n = np.int64(s[N_HIST])
    if n < 4:                                 # a position recurs after 4 plies at the earliest
        return False
    key = s[REP_KEY]
    before = np.int64(s[N_BEFORE])
    earlier = 0
    for i in range(n - 4, -1, -2):
        if s[HIST0 + i] == key:
            if i >= before:
                return True
            earlier += 1
            if earlier == 2:
                return True
    return False


@njit
def is_terminal(s):
    if _insufficient(s, 0) and _insufficient(s, 1):
        return True
    if not has_legal_move(s):
        return True
    return np.int64(s[HALF]) >= 150 or repetition_draw(s)


@njit
def utility(s):
    if in_check(s) and not has_legal_move(s):      # checkmate: the side to move lost
        return -MATE_VALUE if max_to_move(s) else MATE_VALUE
    return 0.0


@njit
def evaluate(s):
    v = float(evaluate_white(s))
    return v if s[MAX_COLOR] == _Z else -v


@njit
def hash_key(s):
    return s[KEY]


@njit
def gen_moves(s, out):
    n = generate(s, out)
    for i in range(n):
        out[i] &= _ID_MASK
    return n


@njit
def full_move(s, m):
    """The kernel's encoding (movegen.py) of move id m in position s."""
    frm = move_from(m)
    to = move_to(m)
    promo = move_promo(m)
    us = np.int64(s[STM])
    piece = piece_type_at(s, us, frm)
    captured = piece_type_at(s, 1 - us, to)
    kind = KIND_NORMAL
    diff = to - frm
    if piece == PAWN:
        if to == np.int64(s[EP]) and diff != 8 and diff != -8:
            kind = KIND_EP
            captured = PAWN
        elif diff == 16 or diff == -16:
            kind = KIND_DOUBLE
    elif piece == KING and (diff == 2 or diff == -2):
        kind = KIND_CASTLE
    return encode(frm, to, promo, kind, piece, captured)


@njit
def play(s, m, out):
    """The child row: the position after m, the history with s's key appended (emptied after
    a pawn move or capture, as ChessState's)."""
    make_move(s, out, full_move(s, m))
    if out[HALF] == _Z:
        out[N_HIST] = _Z
        out[N_BEFORE] = _Z
        return
    n = np.int64(s[N_HIST])
    for i in range(HIST0, HIST0 + n):
        out[i] = s[i]
    out[HIST0 + n] = s[REP_KEY]
    out[N_HIST] = np.uint64(n + 1)
    out[N_BEFORE] = s[N_BEFORE]


@njit
def _captured(s, m):
    """Piece type m captures (a pawn for en passant), 0 for none."""
    frm = move_from(m)
    to = move_to(m)
    us = np.int64(s[STM])
    victim = piece_type_at(s, 1 - us, to)
    if victim == 0 and to == np.int64(s[EP]) and piece_type_at(s, us, frm) == PAWN \
            and ((to - frm) & 7) != 0:                 # a diagonal pawn step onto the ep square
        return PAWN
    return victim


@njit
def order_key(s, m, code):
    """"captures": (0, -victim, attacker) for captures, (1, 0, 0) non-capture promotions,
    (2, 0, 0) quiet moves, as 10^9 * class + 10^5 * (1000 - victim) + attacker (exact)."""
    victim = _captured(s, m)
    if victim:
        attacker = piece_type_at(s, np.int64(s[STM]), move_from(m))
        return 1e5 * (1000 - _VALUES[victim]) + _VALUES[attacker]
    if move_promo(m):
        return 1e9
    return 2e9


@njit
def capture_gain(s, m):
    """Chess.capture_gain: the victim's value (a pawn for en passant), plus the promoted
    piece's value minus a pawn's for a promotion, as float64 centipawns."""
    gain = _VALUES[_captured(s, m)]
    promo = move_promo(m)
    if promo:
        gain += _VALUES[promo] - _VALUES[PAWN]
    return float(gain)


@njit
def is_noisy(s, m):
    return _captured(s, m) != 0 or move_promo(m) != 0


@njit
def null_move(s, out):
    """The null move's row, its history cleared (as Chess.null_move's)."""
    make_null(s, out)
    out[N_HIST] = _Z
    out[N_BEFORE] = _Z


@njit
def null_move_allowed(s):
    if in_check(s):
        return False
    c = np.int64(s[STM])
    return (s[OCC_W + c] & ~(s[c * 6] | s[c * 6 + 5])) != _Z


@njit
def noisy_moves(s, out):
    """The legal captures in chess_game.capture_moves's order (MVV-LVA, stable): each capture
    is packed as (MVV-LVA rank, position in natural order, id) into one int64 and the packed
    values sorted. Piece values rise with the piece type, so the rank is
    8 * (7 - victim type) + attacker type."""
    n = generate(s, out)
    k = 0
    for i in range(n):
        m = out[i]
        victim = move_captured(m)
        if victim:
            rank = 8 * (7 - victim) + move_piece(m)
            out[k] = (rank << 23) | (i << 15) | (m & _ID_MASK)
            k += 1
    for i in range(1, k):                 # insertion sort; the packed values are distinct
        m = out[i]
        j = i - 1
        while j >= 0 and out[j] > m:
            out[j + 1] = out[j]
            j -= 1
        out[j + 1] = m
    for i in range(k):
        out[i] &= _ID_MASK
    return k


# --- Python side -----------------------------------------------------------------------------
def encode_state(state, max_white: bool) -> np.ndarray:
    """The row of a chess_game.ChessState with its history, MAX being White (max_white) or
    Black."""
    row = np.zeros(STATE_SIZE, dtype=np.uint64)
    row[:ROW] = row_from_board(state._board)
    row[MAX_COLOR] = np.uint64(0 if max_white else 1)
    hist = state.history
    if len(hist) > HIST_CAP:              # ChessState keeps at most the half-move clock's count
        raise ValueError(f"a chess history of {len(hist)} positions exceeds {HIST_CAP}")
    row[N_HIST] = np.uint64(len(hist))
    row[N_BEFORE] = np.uint64(state.n_before)
    row[HIST0:HIST0 + len(hist)] = np.array(hist, dtype=np.uint64)
    return row


def move_of(move_id: int) -> str:
    """The UCI string of a move id."""
    return uci(int(move_id))


def id_of(move: str | chess.Move) -> int:
    """The move id of a UCI string or chess.Move."""
    mv = move if isinstance(move, chess.Move) else chess.Move.from_uci(move)
    return mv.from_square + 64 * mv.to_square + 4096 * (mv.promotion or 0)
