"""Rolit's compiled primitives: searchlab.games.rolit on numba uint64 bitboards.

A position is a row of 5 uint64: the four colours' bitboards (bit i = square i, as
RolitState.discs) and the player to move. Every function repeats searchlab/games/rolit.py
exactly: the same legal moves in the same (ascending square) order, the same flips, and the
same payoff vectors (integers, so the float vectors are equal bit for bit). Move generation
and flips are Othello's kernel (searchlab.games.othello_kernel) with the mover's discs
against every other colour. They are the primitives of the compiled n-player engine (the
contract: searchlab.contracts.compiled_nplayer; ``P`` = [players]); ``compiled_nplayer_game``
hands them to it (tests/games/test_rolit_compiled.py).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from searchlab.contracts.compiled_nplayer import CompiledNPlayerGame, NPlayerPrimitives
from searchlab.games.othello_kernel import flips, legal_moves, popcount

CORNER_WEIGHT = 4                 # the evaluation's corner weight (searchlab.games.rolit uses it)

STATE_SIZE = 5
MOVER = 4
ZERO, ONE = np.uint64(0), np.uint64(1)
FULL = np.uint64(0xFFFFFFFFFFFFFFFF)
NOT_A, NOT_H = np.uint64(0xFEFEFEFEFEFEFEFE), np.uint64(0x7F7F7F7F7F7F7F7F)
CORNER_SQUARES = np.array([0, 7, 56, 63], dtype=np.uint64)
S1, S7, S8, S9 = np.uint64(1), np.uint64(7), np.uint64(8), np.uint64(9)


@njit(cache=True)
def occupied(s):
    return s[0] | s[1] | s[2] | s[3]


@njit(cache=True)
def is_terminal(s, P):
    """The board is full (Rolit has no passes: the game lasts exactly 60 plies)."""
    return occupied(s) == FULL


@njit(cache=True)
def to_move(s, P):
    return np.int64(s[MOVER])


@njit(cache=True)
def adjacent(occ):
    """Empty squares 8-adjacent to an occupied one (rolit._adjacent)."""
    o = occ
    nb = (((o << S1) & NOT_A) | ((o >> S1) & NOT_H) | (o << S8) | (o >> S8)
          | ((o << S9) & NOT_A) | ((o << S7) & NOT_H) | ((o >> S7) & NOT_A) | ((o >> S9) & NOT_H))
    return nb & ~occ


@njit(cache=True)
def gen_moves_for(s, mover, P, out):
    """Player ``mover``'s moves in ascending square order into ``out``; their number. Captures
    if there are any, else every empty square next to a disc (Rolit.legal_moves)."""
    own = s[mover]
    occ = occupied(s)
    sq = legal_moves(own, occ & ~own)
    if sq == ZERO:
        sq = adjacent(occ)
    n = 0
    while sq != ZERO:
        low = sq & (~sq + ONE)
        out[n] = popcount(low - ONE)
        sq ^= low
        n += 1
    return n


@njit(cache=True)
def play_for(s, mover, m, P, out):
    """``out`` = the position after player ``mover`` plays square ``m`` (Rolit.play with the
    mover set to ``mover``); the next player is mover + 1 (mod n_players)."""
    own = s[mover]
    occ = occupied(s)
    bit = ONE << np.uint64(m)
    f = flips(own, occ & ~own, m)
    for c in range(4):
        if c == mover:
            out[c] = s[c] | f | bit
        else:
            out[c] = s[c] & ~f
    out[MOVER] = np.uint64((mover + 1) % P[0])


@njit(cache=True)
def payoffs(s, P, horizon, out):
    """``out[:players]`` = the utility vector (terminal) or, with ``horizon``, the evaluation
    vector (Rolit.utility_vector / evaluate_vector, as floats of exact integers)."""
    n_players = P[0]
    neutral = popcount(s[3]) if n_players == 3 else 0
    free = 4
    for i in range(n_players):
        held = 0
        if horizon:
            for k in range(4):
                held += np.int64((s[i] >> CORNER_SQUARES[k]) & ONE)
        free -= held
        out[i] = np.float64(n_players * popcount(s[i]) + neutral + CORNER_WEIGHT * n_players * held)
    if horizon:
        for i in range(n_players):
            out[i] += np.float64(CORNER_WEIGHT * free)


PRIMITIVES = NPlayerPrimitives(is_terminal, to_move, gen_moves_for, play_for, payoffs)


def encode(state: Any) -> np.ndarray:
    """The row of a RolitState."""
    return np.array([*state.discs, state.mover], dtype=np.uint64)


def compiled_nplayer_game(game: Any) -> CompiledNPlayerGame:
    """Rolit's CompiledNPlayerGame (a game lasts 60 plies; at most 60 moves per player)."""
    return CompiledNPlayerGame(
        prims=PRIMITIVES, state_dtype=np.uint64, encode=encode,
        params=np.array([game.n_players], np.int64), n_players=game.n_players, max_moves=64, max_plies=64)
