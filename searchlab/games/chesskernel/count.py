"""Counting the legal moves of a position without listing them (perft's bulk counting).

``count_moves(pos)`` equals ``generate(pos, out)`` (movegen.py) for every position row, but
counts with population counts of target sets instead of writing moves: pawns set-wise (a shift
per direction, promotions counted four times), pieces one popcount each, the king's steps and
castling with one attack test per square. This is where perft spends most of its time (a perft
of depth d lists the moves of the nodes above depth d - 1 and only counts at the last ply).

Pins and checks as in movegen.py, found the way Stockfish finds its blockers: every enemy
slider on an empty-board ray from our king either checks (nothing between), pins (exactly one of
our pieces between) or neither. Legality is then decided by masks: a pinned piece moves along
its pin line, in check every piece but the king moves onto the check line (the checker or a
square between), in double check only the king moves; en passant keeps movegen.py's test (the
king looked at after the capture), being the one move that removes two pieces from a line.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from searchlab.algorithms.kernels.bits import lsb, popcount
from searchlab.games.chesskernel.attacks import (bishop_attacks, king_attacks, knight_attacks,
                                                 pawn_attacks, rook_attacks)
from searchlab.games.chesskernel.movegen import castle_target
from searchlab.games.chesskernel.position_row import (CASTLE, EP, NO_SQUARE, OCC, OCC_W, STM,
                                                  attackers)
from searchlab.games.chesskernel.tables import (BETWEEN, BISHOP_RAYS, BIT, LINE, ROOK_RAYS)

_Z = np.uint64(0)
_ALL = np.uint64(0xFFFFFFFFFFFFFFFF)
_S1 = np.uint64(1)
_S7 = np.uint64(7)
_S8 = np.uint64(8)
_S9 = np.uint64(9)
_NOT_A = np.uint64(0xFEFEFEFEFEFEFEFE)
_NOT_H = np.uint64(0x7F7F7F7F7F7F7F7F)
_BACKRANKS = np.uint64(0xFF000000000000FF)
_RANK_3 = np.uint64(0xFF << 16)
_RANK_6 = np.uint64(0xFF << 40)


@njit(inline="always")
def attacked(pos, them, sq, occ):
    """Whether a piece of colour ``them`` attacks sq, sliders seeing through occ (the boolean
    of position.attackers, the slider arithmetic skipped when no slider is on sq's rays)."""
    base = them * 6
    if ((knight_attacks(sq) & pos[base + 1]) | (pawn_attacks(1 - them, sq) & pos[base])
            | (king_attacks(sq) & pos[base + 5])):
        return True
    queens = pos[base + 4]
    diagonal = (pos[base + 2] | queens) & BISHOP_RAYS[sq]
    if diagonal and (bishop_attacks(sq, occ) & diagonal):
        return True
    straight = (pos[base + 3] | queens) & ROOK_RAYS[sq]
    return bool(straight and (rook_attacks(sq, occ) & straight))


@njit(inline="always")
def _ep_count(pos, us, king, ep):
    """Legal en-passant captures onto ep (movegen._ep_moves, counted)."""
    them = 1 - us
    cb = BIT[ep - 8 if us == 0 else ep + 8]
    capturers = pawn_attacks(them, ep) & pos[us * 6]
    n = 0
    while capturers:
        frm = lsb(capturers)
        capturers &= capturers - _S1
        occ = (pos[OCC] ^ BIT[frm] ^ cb) | BIT[ep]
        if (attackers(pos, them, king, occ) & ~cb) == _Z:
            n += 1
    return n


@njit(inline="always")
def _promoting(targets):
    """Moves onto ``targets`` counted with each promotion four times."""
    return popcount(targets) + 3 * popcount(targets & _BACKRANKS)


@njit
def count_moves(pos):
    """The number of legal moves of the side to move (== movegen.generate's count)."""
    us = np.int64(pos[STM])
    them = 1 - us
    occ = pos[OCC]
    own = pos[OCC_W + us]
    enemy = pos[OCC_W + them]
    mine = us * 6
    theirs = them * 6
    king_bb = pos[mine + 5]
    king = lsb(king_bb)
    # Checkers and pinned pieces: leapers by table, sliders by rays and the squares between.
    checkers = ((knight_attacks(king) & pos[theirs + 1])
                | (pawn_attacks(us, king) & pos[theirs]))
    pinned = _Z
    queens = pos[theirs + 4]
    snipers = (((pos[theirs + 2] | queens) & BISHOP_RAYS[king])
               | ((pos[theirs + 3] | queens) & ROOK_RAYS[king]))
    while snipers:
        s = lsb(snipers)
        snipers &= snipers - _S1
        between = BETWEEN[king, s] & occ
        if between == _Z:
            checkers |= BIT[s]
        elif (between & (between - _S1)) == _Z:
            pinned |= between & own
    # King steps onto squares not attacked once the king has left its square.
    n = 0
    steps = king_attacks(king) & ~own
    occ_no_king = occ ^ king_bb
    while steps:
        to = lsb(steps)
        steps &= steps - _S1
        if not attacked(pos, them, to, occ_no_king):
            n += 1
    ep = np.int64(pos[EP])
    if checkers:
        if checkers & (checkers - _S1):
            return n                                   # double check: only the king moves
        checker = lsb(checkers)
        target = (BETWEEN[king, checker] | checkers) & ~own
        # En passant onto a square off the check line: only the capture of the checking pawn.
        if ep != NO_SQUARE and not (BIT[ep] & target) and (ep - 8 if us == 0 else ep + 8) == checker:
            n += _ep_count(pos, us, king, ep)
    else:
        target = ~own
        if pos[CASTLE]:
            for side in range(2):
                if castle_target(pos, us, king, side) >= 0:
                    n += 1
    # Knights: a pinned knight never moves.
    knights = pos[mine + 1] & ~pinned
    while knights:
        sq = lsb(knights)
        knights &= knights - _S1
        n += popcount(knight_attacks(sq) & target)
    queens = pos[mine + 4]
    diagonal = pos[mine + 2] | queens
    while diagonal:
        sq = lsb(diagonal)
        diagonal &= diagonal - _S1
        t = bishop_attacks(sq, occ) & target
        if pinned & BIT[sq]:
            t &= LINE[king, sq]
        n += popcount(t)
    straight = pos[mine + 3] | queens
    while straight:
        sq = lsb(straight)
        straight &= straight - _S1
        t = rook_attacks(sq, occ) & target
        if pinned & BIT[sq]:
            t &= LINE[king, sq]
        n += popcount(t)
    # Pawns: unpinned ones set-wise, pinned ones along their pin line.
    pawns = pos[mine]
    free = pawns & ~pinned
    empty = ~occ
    if us == 0:
        single = (free << _S8) & empty
        double = ((single & _RANK_3) << _S8) & empty
        west = ((free & _NOT_A) << _S7) & enemy
        east = ((free & _NOT_H) << _S9) & enemy
    else:
        single = (free >> _S8) & empty
        double = ((single & _RANK_6) >> _S8) & empty
        west = ((free & _NOT_A) >> _S9) & enemy
        east = ((free & _NOT_H) >> _S7) & enemy
    n += (_promoting(single & target) + popcount(double & target)
          + _promoting(west & target) + _promoting(east & target))
    stuck = pawns & pinned
    while stuck:
        frm = lsb(stuck)
        stuck &= stuck - _S1
        line = LINE[king, frm] & target
        n += _promoting(pawn_attacks(us, frm) & enemy & line)
        one = frm + 8 if us == 0 else frm - 8
        if not (occ & BIT[one]):
            n += _promoting(BIT[one] & line)
            two = one + 8 if us == 0 else one - 8
            if (frm >> 3) == (1 if us == 0 else 6) and not (occ & BIT[two]):
                n += popcount(BIT[two] & line)
    if ep != NO_SQUARE and (BIT[ep] & target) and not (BIT[ep] & occ):
        n += _ep_count(pos, us, king, ep)
    return n
