"""Connect Four's compiled primitives (the contract: searchlab.contracts.compiled).

State row (uint64, 4 words): Pons' ``current``, ``mask``, ``plies`` (as ConnectFourState) and
``root parity`` (the root's plies % 2: MAX is to move when plies % 2 equals it). Move id =
column 0..6. Every function repeats searchlab.games.connect4 exactly (evaluate bit for bit).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from numba import njit

from searchlab.contracts.compiled import CompiledGame, Primitives
from searchlab.contracts.compiled_stubs import (never_noisy, no_noisy_moves, no_null_move,
                                                null_move_never)
from searchlab.algorithms.kernels.hashing_compiled import mix64
from searchlab.games.othello_kernel import popcount
from searchlab.games.connect4_kernel import CELLS, HEIGHT, WIDTH, winning_cells

STATE_SIZE = 4
CENTRE_FIRST = (3, 2, 4, 1, 5, 0, 6)          # Pons' column order, the "centre" ordering
# Window starts per direction (bit shift 1 vertical, 7 horizontal, 8 diagonal /, 6 diagonal \,
# each a (column, row) step): the cells from which four cells in that direction stay on the
# board, 69 windows in all.
_STEPS = ((1, 0, 1), (7, 1, 0), (8, 1, 1), (6, 1, -1))
_SHIFTS = np.array([d for d, _, _ in _STEPS], dtype=np.int64)
_STARTS = np.array([sum(1 << (7 * c + r) for c in range(WIDTH) for r in range(HEIGHT)
                        if 0 <= c + 3 * dc < WIDTH and 0 <= r + 3 * dr < HEIGHT)
                    for _, dc, dr in _STEPS], dtype=np.int64)
assert sum(bin(x).count("1") for x in _STARTS) == 69
_CENTRE_RANK = np.array([CENTRE_FIRST.index(c) for c in range(WIDTH)], dtype=np.float64)
ORDER_CENTRE = 0


@njit(cache=True)
def _aligned(pos):
    for shift in (7, 6, 8, 1):
        m = pos & (pos >> shift)
        if m & (m >> (2 * shift)):
            return True
    return False


@njit(cache=True)
def max_to_move(s):
    return s[2] % np.uint64(2) == s[3]


@njit(cache=True)
def is_terminal(s):
    return np.int64(s[2]) >= CELLS or _aligned(np.int64(s[0] ^ s[1]))


@njit(cache=True)
def utility(s):
    n = np.int64(s[2])
    if _aligned(np.int64(s[0] ^ s[1])):
        score = 22 - (n + 1) // 2
        return float(-score) if max_to_move(s) else float(score)
    return 0.0


@njit(cache=True)
def gen_moves(s, out):
    mask = np.int64(s[1])
    n = 0
    for c in range(WIDTH):
        if not mask & (1 << (7 * c + 5)):
            out[n] = c
            n += 1
    return n


@njit(cache=True)
def play(s, m, out):
    cur, mask = np.int64(s[0]), np.int64(s[1])
    out[0] = np.uint64(cur ^ mask)
    out[1] = np.uint64(mask | (mask + (1 << (7 * m))))
    out[2] = s[2] + np.uint64(1)
    out[3] = s[3]


@njit(cache=True)
def _count(x):
    return popcount(np.uint64(x))


@njit(cache=True)
def evaluate(s):
    """(4 * threats + windows) / 240 for MAX, as ConnectFour.evaluate. The windows term counts,
    per direction, the window starts whose four cells hold no opponent stone and at least one
    own stone, with shifts instead of a loop over the 69 windows (the same integer): ``any_c``
    marks the starts whose window holds a stone of ``cur`` (its shifts or-ed together, two
    cells at a time), so ``~any_o & any_c`` are cur's windows."""
    cur, mask = np.int64(s[0]), np.int64(s[1])
    opp = cur ^ mask
    t = _count(winning_cells(cur, mask)) - _count(winning_cells(opp, mask))
    w = 0
    for k in range(4):
        d = _SHIFTS[k]
        any_c = cur | (cur >> d)
        any_o = opp | (opp >> d)
        any_c |= any_c >> (2 * d)
        any_o |= any_o >> (2 * d)
        w += _count(~any_o & any_c & _STARTS[k]) - _count(~any_c & any_o & _STARTS[k])
    v = (4 * t + w) / 240
    return v if max_to_move(s) else -v


@njit(cache=True)
def hash_key(s):
    return mix64(s[0] + s[1])


@njit(cache=True)
def order_key(s, m, code):
    return _CENTRE_RANK[m]


@njit(cache=True)
def pass_turn(s, out):
    """The side to move passes: ConnectFourState(current ^ mask, mask, plies + 1), as the
    trade-off study's null move (studies/tradeoff/domains.py); Connect Four has none."""
    out[0] = s[0] ^ s[1]
    out[1] = s[1]
    out[2] = s[2] + np.uint64(1)
    out[3] = s[3]


#: the fewest safe moves with which a null move is allowed (searchlab.games.null_move)
NULL_MOVE_MIN_SAFE = 3
_BOTTOM = np.int64(sum(1 << (7 * c) for c in range(WIDTH)))
_BOARD = np.int64(sum(1 << (7 * c) for c in range(WIDTH)) * ((1 << HEIGHT) - 1))


@njit(cache=True)
def safe_moves(s):
    """The side to move's non-losing moves (Pons' possibleNonLosingMoves), as
    searchlab.games.connect4.safe_moves: the playable cells, only the one blocking cell when
    the opponent threatens to win there (none when it threatens twice), minus the cells right
    below an opponent's winning cell (playing there lets the opponent win on top)."""
    cur, mask = np.int64(s[0]), np.int64(s[1])
    opp = cur ^ mask
    possible = (mask + _BOTTOM) & _BOARD
    opp_win = winning_cells(opp, mask)
    forced = possible & opp_win
    if forced:
        if forced & (forced - 1):
            return 0
        possible = forced
    return _count(possible & ~(opp_win >> 1))


@njit(cache=True)
def null_move_guard(s):
    """A null move is allowed when the side to move has at least NULL_MOVE_MIN_SAFE safe moves
    (the zugzwang guard: searchlab.games.null_move)."""
    return safe_moves(s) >= NULL_MOVE_MIN_SAFE


PRIMITIVES = Primitives(max_to_move, gen_moves, play, is_terminal, utility, evaluate, hash_key,
                        order_key, never_noisy, no_null_move, null_move_never, no_noisy_moves)


@lru_cache(maxsize=None)       # one per argument: the engine looks it up on every search
def compiled_game(root_plies: int) -> CompiledGame:
    """The CompiledGame of a Connect Four game whose root has ``root_plies`` stones."""
    parity = np.uint64(root_plies % 2)

    def encode(state) -> np.ndarray:
        return np.array([state.current, state.mask, state.plies, parity], dtype=np.uint64)

    return CompiledGame(PRIMITIVES, STATE_SIZE, WIDTH, WIDTH, CELLS, encode, int, int,
                        {"centre": ORDER_CENTRE})
