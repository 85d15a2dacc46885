"""Othello's compiled primitives (the contract: searchlab.contracts.compiled).

State row (uint64, 6 words): the Black and White bitboards (bit i = square i, as OthelloState),
Black to move (0/1), MAX is Black (0/1), and the squares where Black and where White could play
(their legal-move sets, computed once by ``play``/``encode``: the terminal test, the move
generator and the evaluation's mobility all read them, instead of each generating the moves of
both sides again). Move id = the square 0..63, or PASS = 64. Every function repeats
searchlab.games.othello exactly (evaluate bit for bit, the Zobrist key equal); move generation
is the perft kernel's (searchlab.games.othello_kernel).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from numba import njit

from searchlab.contracts.compiled import CompiledGame, Primitives
from searchlab.contracts.compiled_stubs import (never_noisy, no_noisy_moves, no_null_move,
                                                null_move_never)
from searchlab.algorithms.kernels.bits import lsb
from searchlab.games.othello_kernel import flips, legal_moves, legal_moves_both, popcount
from searchlab.hashing import GOLDEN, MASK64, mix64

STATE_SIZE = 6
PASS = 64
ZOBRIST_SEED = 0x6F74_6865_6C6C_6F21           # "othello!"
ZOBRIST_KEYS = [mix64((ZOBRIST_SEED + (k + 1) * GOLDEN) & MASK64) for k in range(129)]
CORNERS = (0, 7, 56, 63)                       # a1, h1, a8, h8
X_SQUARES = (9, 14, 49, 54)                    # b2, g2, b7, g7
_CORNER_MASK = sum(1 << i for i in CORNERS)
_EDGE_MASK = 0xFF000000000000FF | 0x8181818181818181
_X_MASK = sum(1 << i for i in X_SQUARES)
MAX_PLIES = 128                 # 60 discs, each at most preceded by a pass
ZERO, ONE = np.uint64(0), np.uint64(1)
CORNER_MASK = np.uint64(_CORNER_MASK)
KEYS = np.array(ZOBRIST_KEYS, dtype=np.uint64)
SIDE_KEY = KEYS[128]
ORDER_CORNERS = 0
# Stability-lite by table: RUN_COUNT[byte] = the number of squares in the unbroken run of ones
# from bit 0 and the one from bit 7 (their union) of an edge's 8 squares; an edge column is
# gathered into a byte (bit k = its k-th square upwards) by a multiplication. Every square of
# an edge but the corners is on one edge; an owned corner is in the runs of both its edges.
RUN_COUNT = np.array([bin(sum(1 << k for k in range(8) if all(x >> j & 1 for j in range(k + 1)))
                          | sum(1 << k for k in range(8) if all(x >> j & 1 for j in range(k, 8)))
                          ).count("1") for x in range(256)], dtype=np.int64)
# Quotients of evaluate, as Python computes them (int / int is the correctly rounded quotient,
# as numba's float division of the same small integers): RATIO[65 * a + c] = (a - c) / (a + c)
# (0.0 for a + c = 0) for the mobility and disc terms (counts 0..64), STABLE[k + 28] = k / 28.
RATIO = np.array([(a - c) / (a + c) if a + c else 0.0 for a in range(65) for c in range(65)])
STABLE = np.array([k / 28.0 for k in range(-28, 29)])
FILE_A, GATHER = np.uint64(0x0101010101010101), np.uint64(0x0102040810204080)
BYTE, S7, S56 = np.uint64(0xFF), np.uint64(7), np.uint64(56)


@njit(cache=True)
def _bit(sq):
    return ONE << np.uint64(sq)


@njit(cache=True)
def _mover(s):
    return (s[0], s[1]) if s[2] else (s[1], s[0])


@njit(cache=True)
def max_to_move(s):
    return s[2] == s[3]


@njit(cache=True)
def is_terminal(s):
    return s[4] == ZERO and s[5] == ZERO


@njit(cache=True)
def utility(s):
    diff = popcount(s[0]) - popcount(s[1])
    return float(diff) if s[3] else float(-diff)


@njit(cache=True)
def gen_moves(s, out):
    """A counted loop (popcount, then one bit scan per move): 6.9 -> 2.8 ns per call against
    looping until the set is empty (a microbenchmark without reference counting, 2026-12-01)."""
    sq, other = (s[4], s[5]) if s[2] else (s[5], s[4])
    if sq == ZERO:
        if other != ZERO:
            out[0] = PASS
            return 1
        return 0
    n = popcount(sq)
    for k in range(n):
        out[k] = lsb(sq)
        sq &= sq - ONE
    return n


@njit(cache=True)
def play(s, m, out):
    out[3] = s[3]
    if m == PASS:
        out[0], out[1], out[4], out[5] = s[0], s[1], s[4], s[5]
    else:
        p, o = _mover(s)
        f = flips(p, o, m)
        p = p | f | _bit(m)
        o = o ^ f
        if s[2]:
            out[0], out[1] = p, o
        else:
            out[0], out[1] = o, p
        out[4], out[5] = legal_moves_both(out[0], out[1])
    out[2] = ONE - s[2]


@njit(cache=True)
def _edge_runs(own):
    """The squares of Othello's _edge_stable(own), but each owned corner counted twice: the run
    lengths of the four edges, by table lookups."""
    left = ((own & FILE_A) * GATHER) >> S56
    right = (((own >> S7) & FILE_A) * GATHER) >> S56
    return RUN_COUNT[own & BYTE] + RUN_COUNT[own >> S56] + RUN_COUNT[left] + RUN_COUNT[right]


@njit(cache=True, inline='always')
def evaluate(s):
    """Othello's evaluate, bit for bit (_evaluate_black's terms in its order, from both sides'
    legal-move sets in the row). Its three divisions of small integers are table lookups
    (RATIO, STABLE: the same quotients). One function, inlined into the engine by numba
    (``inline='always'``): LLVM left it a call at every call site (measured 2026-12-01, 2-3 %
    of an Othello search)."""
    b, w = s[0], s[1]
    db, dw = popcount(b), popcount(w)
    t = (db + dw) / 64.0
    mob = RATIO[popcount(s[4]) * 65 + popcount(s[5])]
    corner_diff = popcount(b & CORNER_MASK) - popcount(w & CORNER_MASK)
    corners = corner_diff / 4.0
    stable = STABLE[_edge_runs(b) - _edge_runs(w) - corner_diff + 28]
    discs = RATIO[db * 65 + dw]
    e = (0.30 * (1.0 - t) * mob + 0.35 * corners + 0.15 * stable
         + (0.05 + 0.45 * t) * discs)
    return 0.99 * (e if s[3] else -e)


@njit(cache=True)
def hash_key(s):
    key = ZERO if s[2] else SIDE_KEY
    for colour in range(2):
        x = s[colour]
        while x != ZERO:
            key ^= KEYS[64 * colour + lsb(x)]
            x &= x - ONE
    return key


def _corners_keys() -> np.ndarray:
    """"corners" by move id: 0 corner, 1 other edge square, 2 interior (and PASS), 3 X-square
    (searchlab.games.othello's corner order)."""
    keys = np.full(PASS + 1, 2.0)
    for sq in range(64):
        bit = 1 << sq
        keys[sq] = 0.0 if bit & _CORNER_MASK else 1.0 if bit & _EDGE_MASK else \
            3.0 if bit & _X_MASK else 2.0
    return keys


CORNERS_KEY = _corners_keys()


@njit(cache=True)
def order_key(s, m, code):
    """"corners": a table lookup (CORNERS_KEY; the tests of a square's class were
    mispredicted)."""
    return CORNERS_KEY[m]


@njit(cache=True)
def pass_turn(s, out):
    """The side to move passes: OthelloState(black, white, not black_to_move), as the trade-off
    study's null move (studies/tradeoff/domains.py); Othello has none of its own. Both
    sides' move sets do not depend on whose turn it is: copied (``out`` holds another state)."""
    out[0] = s[0]
    out[1] = s[1]
    out[2] = ONE - s[2]
    out[3] = s[3]
    out[4] = s[4]
    out[5] = s[5]


PRIMITIVES = Primitives(max_to_move, gen_moves, play, is_terminal, utility, evaluate, hash_key,
                        order_key, never_noisy, no_null_move, null_move_never, no_noisy_moves)


def _encode_for(max_is_black: bool):
    def encode(state) -> np.ndarray:
        b, w = np.uint64(state.black), np.uint64(state.white)
        return np.array([b, w, bool(state.black_to_move), max_is_black, legal_moves(b, w),
                         legal_moves(w, b)], dtype=np.uint64)
    return encode


@lru_cache(maxsize=None)       # one per argument: the engine looks it up on every search
def compiled_game(max_is_black: bool) -> CompiledGame:
    """The CompiledGame of an Othello game whose MAX is Black (or White)."""
    return CompiledGame(PRIMITIVES, STATE_SIZE, 64, 65, MAX_PLIES, _encode_for(max_is_black),
                        int, int, {"corners": ORDER_CORNERS})
