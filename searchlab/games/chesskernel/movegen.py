"""Legal move generation of the compiled chess kernel, in python-chess's order.

``generate(pos, out)`` writes the legal moves of a position row into ``out`` (int64, at least
``MAX_MOVES`` long) and returns how many. The moves come in exactly the order of python-chess's
``board.legal_moves`` (``Board.generate_legal_moves``), so the compiled game has the same
natural order as searchlab.games.chess_game:

- not in check: for each piece other than a pawn, highest square first, its targets highest
  square first (the king's among them); then castling (king-side, i.e. the h-rook, first);
  pawn captures (pawns highest square first, targets highest first); single pushes (highest
  target first); double pushes (highest target first); en passant (capturers highest first).
  Promotions come as queen, rook, bishop, knight.
- in check: king moves first (highest target first); with a single checker, then the moves of
  the other pieces that capture the checker or block, in the order above; then an en-passant
  capture of the checking pawn.

Move encoding (int64): bits 0-5 from, 6-11 to, 12-14 promotion piece type (0 none), 15-16
kind (0 normal, 1 en passant, 2 castling, 3 pawn double push), 17-19 moving piece type,
20-22 captured piece type (0 none; a pawn for en passant). Piece types are python-chess's
(1 pawn .. 6 king). ``move & 0x7FFF`` identifies a move (from, to, promotion) as UCI does.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from searchlab.games.chesskernel.attacks import (bishop_attacks, king_attacks, knight_attacks,
                                                 pawn_attacks, rook_attacks)
from searchlab.algorithms.kernels.bits import msb
from searchlab.games.chesskernel.position_row import (BISHOP, CASTLE, EP, KIND_CASTLE, KIND_DOUBLE,
                                                  KIND_EP, KIND_NORMAL, KING, KNIGHT, NO_SQUARE,
                                                  OCC, OCC_W, PAWN, QUEEN, ROOK, STM, attackers,
                                                  encode, piece_type_at)
from searchlab.games.chesskernel.tables import BETWEEN, BIT, LINE

#: More than the legal moves of any chess position (218 is the known maximum).
MAX_MOVES = 256

_Z = np.uint64(0)
_ALL = np.uint64(0xFFFFFFFFFFFFFFFF)
_S1 = np.uint64(1)
_S8 = np.uint64(8)
_BACKRANKS = np.uint64(0xFF000000000000FF)
_RANK_3 = np.uint64(0xFF << 16)
_RANK_6 = np.uint64(0xFF << 40)
_E1, _E8 = 4, 60               # the kings' home squares (castling)


@njit(inline="always")
def _push_promotions(out, n, frm, to, captured):
    out[n] = encode(frm, to, QUEEN, KIND_NORMAL, PAWN, captured)
    out[n + 1] = encode(frm, to, ROOK, KIND_NORMAL, PAWN, captured)
    out[n + 2] = encode(frm, to, BISHOP, KIND_NORMAL, PAWN, captured)
    out[n + 3] = encode(frm, to, KNIGHT, KIND_NORMAL, PAWN, captured)
    return n + 4


@njit(inline="always")
def _victim(pos, them, enemy, to):
    """Type of the enemy piece on ``to``, 0 for an empty square (checked first: most are)."""
    if enemy & BIT[to]:
        return piece_type_at(pos, them, to)
    return 0


@njit(inline="always")
def _piece_targets(pos, pt, sq, occ):
    if pt == KNIGHT:
        return knight_attacks(sq)
    if pt == BISHOP:
        return bishop_attacks(sq, occ)
    if pt == ROOK:
        return rook_attacks(sq, occ)
    if pt == QUEEN:
        return bishop_attacks(sq, occ) | rook_attacks(sq, occ)
    return king_attacks(sq)


@njit
def _pinned(pos, us, king, occ):
    """Our pieces pinned to our king."""
    them = 1 - us
    base = them * 6
    queens = pos[base + 4]
    snipers = ((rook_attacks(king, pos[OCC_W + them]) & (pos[base + 3] | queens))
               | (bishop_attacks(king, pos[OCC_W + them]) & (pos[base + 2] | queens)))
    pinned = _Z
    own = pos[OCC_W + us]
    while snipers:
        s = msb(snipers)
        snipers ^= BIT[s]
        b = BETWEEN[king, s] & occ
        if b and (b & (b - _S1)) == _Z and (b & own):
            pinned |= b
    return pinned


@njit
def _ep_moves(pos, out, n, us, king, ep):
    """En-passant captures onto ep that leave our king safe, capturers highest square first."""
    them = 1 - us
    captured_sq = ep - 8 if us == 0 else ep + 8
    cb = BIT[captured_sq]
    capturers = pawn_attacks(them, ep) & pos[us * 6]
    while capturers:
        frm = msb(capturers)
        capturers ^= BIT[frm]
        occ = (pos[OCC] ^ BIT[frm] ^ cb) | BIT[ep]
        if (attackers(pos, them, king, occ) & ~cb) == _Z:
            out[n] = encode(frm, ep, 0, KIND_EP, PAWN, PAWN)
            n += 1
    return n


@njit
def _piece_moves(pos, out, n, us, king, pinned, to_mask, with_king):
    """Moves of the pieces other than pawns onto to_mask, highest from-square first, legal
    w.r.t. pins; the king's (onto unattacked squares) only ``with_king`` (not in check)."""
    them = 1 - us
    occ = pos[OCC]
    own = pos[OCC_W + us]
    enemy = pos[OCC_W + them]
    non_pawns = own & ~pos[us * 6]
    while non_pawns:
        frm = msb(non_pawns)
        non_pawns ^= BIT[frm]
        pt = piece_type_at(pos, us, frm)
        targets = _piece_targets(pos, pt, frm, occ) & ~own & to_mask
        if pt == KING:
            if not with_king:
                continue
            while targets:
                to = msb(targets)
                targets ^= BIT[to]
                if attackers(pos, them, to, occ) == _Z:
                    out[n] = encode(frm, to, 0, KIND_NORMAL, KING, _victim(pos, them, enemy, to))
                    n += 1
            continue
        if pinned & BIT[frm]:
            targets &= LINE[king, frm]
        while targets:
            to = msb(targets)
            targets ^= BIT[to]
            out[n] = encode(frm, to, 0, KIND_NORMAL, pt, _victim(pos, them, enemy, to))
            n += 1
    return n


@njit
def _pawn_moves(pos, out, n, us, king, pinned, to_mask):
    """Pawn moves onto to_mask in python-chess's order (captures, single pushes, double
    pushes, en passant), legal w.r.t. pins (en passant: the king is tested after the capture)."""
    them = 1 - us
    occ = pos[OCC]
    enemy = pos[OCC_W + them]
    pawns = pos[us * 6]
    if pawns == _Z:
        return n
    capturers = pawns
    while capturers:
        frm = msb(capturers)
        capturers ^= BIT[frm]
        targets = pawn_attacks(us, frm) & enemy & to_mask
        if pinned & BIT[frm]:
            targets &= LINE[king, frm]
        while targets:
            to = msb(targets)
            targets ^= BIT[to]
            victim = piece_type_at(pos, them, to)
            if BIT[to] & _BACKRANKS:
                n = _push_promotions(out, n, frm, to, victim)
            else:
                out[n] = encode(frm, to, 0, KIND_NORMAL, PAWN, victim)
                n += 1
    if us == 0:
        single = (pawns << _S8) & ~occ
        double = (single << _S8) & ~occ & (_RANK_3 << _S8)
        step = -8
    else:
        single = (pawns >> _S8) & ~occ
        double = (single >> _S8) & ~occ & (_RANK_6 >> _S8)
        step = 8
    single &= to_mask
    double &= to_mask
    while single:
        to = msb(single)
        single ^= BIT[to]
        frm = to + step
        if (pinned & BIT[frm]) and not (LINE[king, frm] & BIT[to]):
            continue
        if BIT[to] & _BACKRANKS:
            n = _push_promotions(out, n, frm, to, 0)
        else:
            out[n] = encode(frm, to, 0, KIND_NORMAL, PAWN, 0)
            n += 1
    while double:
        to = msb(double)
        double ^= BIT[to]
        frm = to + 2 * step
        if (pinned & BIT[frm]) and not (LINE[king, frm] & BIT[to]):
            continue
        out[n] = encode(frm, to, 0, KIND_DOUBLE, PAWN, 0)
        n += 1
    ep = np.int64(pos[EP])
    if ep != NO_SQUARE and (BIT[ep] & to_mask) and not (BIT[ep] & occ):
        n = _ep_moves(pos, out, n, us, king, ep)
    return n


@njit
def castle_target(pos, us, king, side):
    """The king's target square of castling on ``side`` (0 king-side, 1 queen-side) when that
    castling is legal (python-chess's rules), else -1."""
    rights = np.int64(pos[CASTLE])
    home = _E1 if us == 0 else _E8
    if king != home or not (rights >> (2 * us + side)) & 1:
        return -1
    them = 1 - us
    occ = pos[OCC]
    occ_no_king = occ ^ BIT[king]
    if side == 0:
        king_to, rook_from, rook_to = home + 2, home + 3, home + 1
    else:
        king_to, rook_from, rook_to = home - 2, home - 4, home - 1
    path = BETWEEN[king, rook_from] | BIT[king_to] | BIT[rook_to]
    if (occ ^ BIT[king] ^ BIT[rook_from]) & path:
        return -1
    # The king's square and the squares it crosses, seen without the king; its target seen
    # after the rook has moved (python-chess's test).
    crossed = BETWEEN[king, king_to] | BIT[king]
    while crossed:
        s = msb(crossed)
        crossed ^= BIT[s]
        if attackers(pos, them, s, occ_no_king):
            return -1
    occ_after = occ_no_king ^ BIT[rook_from] ^ BIT[rook_to]
    if attackers(pos, them, king_to, occ_after):
        return -1
    return king_to


@njit
def _castling(pos, out, n, us, king):
    """Castling moves, king-side first (python-chess's order: the h-rook's square is higher)."""
    if not pos[CASTLE]:
        return n
    for side in range(2):           # 0 king-side, 1 queen-side
        king_to = castle_target(pos, us, king, side)
        if king_to >= 0:
            out[n] = encode(king, king_to, 0, KIND_CASTLE, KING, 0)
            n += 1
    return n


@njit
def generate(pos, out):
    """Write the legal moves of ``pos`` into ``out`` in python-chess's order; return the count."""
    us = np.int64(pos[STM])
    them = 1 - us
    occ = pos[OCC]
    own = pos[OCC_W + us]
    enemy = pos[OCC_W + them]
    king_bb = pos[us * 6 + 5]
    king = msb(king_bb)
    checkers = attackers(pos, them, king, occ)
    pinned = _pinned(pos, us, king, occ)
    occ_no_king = occ ^ king_bb
    if checkers == _Z:
        n = _piece_moves(pos, out, 0, us, king, pinned, _ALL, True)
        n = _castling(pos, out, n, us, king)
        return _pawn_moves(pos, out, n, us, king, pinned, _ALL)
    # In check: king moves (seen without the king, so it cannot step back along a checking
    # ray), then captures of / blocks against a single checker, then en passant on the checker.
    n = 0
    targets = king_attacks(king) & ~own
    while targets:
        to = msb(targets)
        targets ^= BIT[to]
        if attackers(pos, them, to, occ_no_king) == _Z:
            out[n] = encode(king, to, 0, KIND_NORMAL, KING, _victim(pos, them, enemy, to))
            n += 1
    if checkers & (checkers - _S1):
        return n
    checker = msb(checkers)
    target = BETWEEN[king, checker] | checkers
    n = _piece_moves(pos, out, n, us, king, pinned, target, False)
    n = _pawn_moves(pos, out, n, us, king, pinned, target)
    ep = np.int64(pos[EP])
    if ep != NO_SQUARE and not (BIT[ep] & target):
        last_double = ep - 8 if us == 0 else ep + 8
        if last_double == checker:
            n = _ep_moves(pos, out, n, us, king, ep)
    return n


@njit
def has_legal_move(pos):
    """Whether the side to move has a legal move: ``generate(...) > 0`` decided on bitboards
    without listing the moves or allocating (the compiled engine runs without numba's
    reference counting). Usually the first king step or piece looked at decides. Castling
    need not be looked at: when it is legal, so is the king's step towards the rook."""
    us = np.int64(pos[STM])
    them = 1 - us
    occ = pos[OCC]
    own = pos[OCC_W + us]
    enemy = pos[OCC_W + them]
    king_bb = pos[us * 6 + 5]
    king = msb(king_bb)
    targets = king_attacks(king) & ~own
    while targets:
        to = msb(targets)
        targets ^= BIT[to]
        if attackers(pos, them, to, occ ^ king_bb) == _Z:
            return True
    checkers = attackers(pos, them, king, occ)
    if checkers & (checkers - _S1):
        return False                                   # double check: only the king moves
    target = _ALL
    if checkers:
        target = BETWEEN[king, msb(checkers)] | checkers
    pinned = _pinned(pos, us, king, occ)
    pieces = own & ~pos[us * 6] & ~king_bb
    while pieces:
        frm = msb(pieces)
        pieces ^= BIT[frm]
        t = _piece_targets(pos, piece_type_at(pos, us, frm), frm, occ) & ~own & target
        if pinned & BIT[frm]:
            t &= LINE[king, frm]
        if t:
            return True
    pawns = pos[us * 6]
    while pawns:
        frm = msb(pawns)
        pawns ^= BIT[frm]
        allowed = target
        if pinned & BIT[frm]:
            allowed &= LINE[king, frm]
        if pawn_attacks(us, frm) & enemy & allowed:
            return True
        one = frm + 8 if us == 0 else frm - 8
        if not (occ & BIT[one]):
            if allowed & BIT[one]:
                return True
            two = one + 8 if us == 0 else one - 8
            if (frm >> 3) == (1 if us == 0 else 6) and not (occ & BIT[two]) and (allowed & BIT[two]):
                return True
    ep = np.int64(pos[EP])
    if ep != NO_SQUARE and not (BIT[ep] & occ):
        # The king is tested after the capture, which covers pins, the horizontal pin, and
        # whether the capture removes (or blocks) a check.
        captured_sq = ep - 8 if us == 0 else ep + 8
        cb = BIT[captured_sq]
        capturers = pawn_attacks(them, ep) & pos[us * 6]
        while capturers:
            frm = msb(capturers)
            capturers ^= BIT[frm]
            after = (occ ^ BIT[frm] ^ cb) | BIT[ep]
            if (attackers(pos, them, king, after) & ~cb) == _Z:
                return True
    return False
