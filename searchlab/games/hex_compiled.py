"""Hex's compiled primitives (the contract: searchlab.contracts.compiled).

``compiled_game(n, max_is_x)`` hands them to the engine (with the engine's stubs for null move
and noisy moves, ``state_size`` = STATE_SIZE, ``max_moves`` = ``n_move_ids`` = ``max_plies`` =
n*n, ``orderings`` = {"adjacent": ORDER_ADJACENT}).

Every function gives what searchlab.games.hex gives, exactly: the same natural move order,
the same winner, the same shortest-path ``distance`` integers (so ``evaluate`` is equal bit for
bit: the same two small integers divided once), the same Zobrist keys, the same "adjacent"
key. ``play`` runs the win test's flood fill only once the mover has at least n stones (no
chain joins two sides with fewer); ``distance`` takes one neighbour step per loop instead of
the reference's fill to a fixpoint per layer (tests/games/test_hex.py compares ``evaluate``
with the Python functions on every size).

State row (uint64, ``STATE_SIZE`` = 9 words):
    0, 1  X's cells, bits 0..63 and 64..127 (bit i = cell i = r * n + c, as HexState.x)
    2, 3  O's cells, likewise
    4     n, the board size
    5     plies (stones on the board; X is to move when even)
    6     1 when MAX is X (the root's side to move), else 0
    7     the winner: 0 none, 1 X, 2 O (set by ``play``; ``encode`` computes it)
    8     the Zobrist key, updated by ``play`` (equal to ``Hex.hash_key``)

Move id = cell index 0..n*n-1 (the Python move itself). A 128-bit cell set is a pair of
uint64 words (lo, hi); shifts carry bits across the words. Bitboard arithmetic stays in
uint64 (numba turns uint64 mixed with int64 into float64).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from numba import njit

from searchlab.contracts.compiled import CompiledGame, Primitives
from searchlab.contracts.compiled_stubs import (never_noisy, no_noisy_moves, no_null_move,
                                                null_move_never)
from searchlab.games.othello_kernel import popcount
from searchlab.games.hex_board import MAX_CELLS, MAX_SIZE, ZOBRIST, connected, masks, zobrist

STATE_SIZE = 9
ORDER_ADJACENT = 0
_U0, _U1, _U2, _U64 = np.uint64(0), np.uint64(1), np.uint64(2), np.uint64(64)
_LOW = (1 << 64) - 1
# mask kinds, as Masks' fields after n
_BOARD, _TOP, _BOTTOM, _LEFT, _RIGHT, _NOT_FIRST, _NOT_LAST = range(7)


def _mask_table() -> np.ndarray:
    """MASKS[n, kind, word]: searchlab.games.hex.masks(n) split into two uint64 words."""
    table = np.zeros((MAX_SIZE + 1, 7, 2), dtype=np.uint64)
    for n in range(1, MAX_SIZE + 1):
        for k, v in enumerate(masks(n)[1:]):
            table[n, k, 0], table[n, k, 1] = v & _LOW, v >> 64
    return table


def _neighbour_table() -> np.ndarray:
    """NBR[n, cell, j]: the j-th neighbour of cell on the n x n board, -1 where none."""
    table = -np.ones((MAX_SIZE + 1, MAX_CELLS, 6), dtype=np.int64)
    for n in range(1, MAX_SIZE + 1):
        for r in range(n):
            for c in range(n):
                k = 0
                for dr, dc in ((0, -1), (0, 1), (-1, 0), (-1, 1), (1, -1), (1, 0)):
                    if 0 <= r + dr < n and 0 <= c + dc < n:
                        table[n, r * n + c, k] = (r + dr) * n + c + dc
                        k += 1
    return table


def _neighbour_masks(nbr: np.ndarray) -> np.ndarray:
    """NBR_MASK[n, cell, word]: the neighbours of cell (NBR) as a two-word cell set."""
    table = np.zeros((MAX_SIZE + 1, MAX_CELLS, 2), dtype=np.uint64)
    for n, cell, j in zip(*np.nonzero(nbr >= 0)):
        c = int(nbr[n, cell, j])
        table[n, cell, c >> 6] |= np.uint64(1 << (c & 63))
    return table


MASKS = _mask_table()
NBR = _neighbour_table()
NBR_MASK = _neighbour_masks(NBR)
ZKEYS = np.array(ZOBRIST, dtype=np.uint64)


@njit(cache=True)
def _shl(lo, hi, k):
    if k == _U0:
        return lo, hi
    return lo << k, (hi << k) | (lo >> (_U64 - k))


@njit(cache=True)
def _shr(lo, hi, k):
    if k == _U0:
        return lo, hi
    return (lo >> k) | (hi << (_U64 - k)), hi >> k


@njit(cache=True)
def _neighbours(lo, hi, n):
    """The cells touching (lo, hi): searchlab.games.hex.neighbours on two words, in _near1's
    four shifts."""
    m = MASKS[n]
    un = np.uint64(n)
    rlo, rhi = _shl(lo & m[_NOT_LAST, 0], hi & m[_NOT_LAST, 1], _U1)      # right-hand
    llo, lhi = _shr(lo & m[_NOT_FIRST, 0], hi & m[_NOT_FIRST, 1], _U1)    # left-hand
    ulo, uhi = _shr(lo | rlo, hi | rhi, un)                                # one row up
    dlo, dhi = _shl(lo | llo, hi | lhi, un)                                # one row down
    return (rlo | llo | ulo | dlo) & m[_BOARD, 0], (rhi | lhi | uhi | dhi) & m[_BOARD, 1]


@njit(cache=True)
def _connected(slo, shi, n, vertical):
    """searchlab.games.hex.connected on two words."""
    m = MASKS[n]
    start, goal = (_TOP, _BOTTOM) if vertical else (_LEFT, _RIGHT)
    rlo, rhi = slo & m[start, 0], shi & m[start, 1]
    while rlo | rhi:
        if (rlo & m[goal, 0]) | (rhi & m[goal, 1]):
            return True
        nlo, nhi = _neighbours(rlo, rhi, n)
        glo, ghi = (rlo | nlo) & slo, (rhi | nhi) & shi
        if glo == rlo and ghi == rhi:
            return False
        rlo, rhi = glo, ghi
    return False


@njit(cache=True)
def _distance(own_lo, own_hi, opp_lo, opp_hi, n, vertical):
    """searchlab.games.hex.distance on two words: the same layers, the same integer, in one
    neighbour step per loop where the reference takes at least two per layer (one to open it,
    one to find that its fill through own stones has stopped growing). Each step takes the
    own stones touching the cells reached (they join layer k) or, when there are none, the
    empty cells touching them (they open layer k + 1), and ORs the neighbours of the cells it
    took into ``near`` (the cells touching those reached, and the start side). It returns k
    at the first cell of the goal side (its layer is already k), n*n when nothing is left to
    take."""
    m = MASKS[n]
    start, goal = (_TOP, _BOTTOM) if vertical else (_LEFT, _RIGHT)
    olo, ohi = own_lo, own_hi                       # own stones not reached yet
    elo = m[_BOARD, 0] & ~(own_lo | opp_lo)         # empty cells not reached yet
    ehi = m[_BOARD, 1] & ~(own_hi | opp_hi)
    nlo, nhi = m[start, 0], m[start, 1]
    k = 0
    while True:
        wlo, whi = nlo & olo, nhi & ohi
        if (wlo | whi) == _U0:
            wlo, whi = nlo & elo, nhi & ehi
            if (wlo | whi) == _U0:
                return n * n
            elo, ehi = elo ^ wlo, ehi ^ whi
            k += 1
        else:
            olo, ohi = olo ^ wlo, ohi ^ whi
        if (wlo & m[goal, 0]) | (whi & m[goal, 1]):
            return k
        alo, ahi = _neighbours(wlo, whi, n)
        nlo, nhi = nlo | alo, nhi | ahi


# Boards of at most 64 cells (n <= 8) fit the low word: the same functions on one word (the
# high word is empty there and the masks' high words are zero), about half the work.
@njit(cache=True)
def _near1(cells, not_last, not_first, un, near):
    """``near`` and the cells touching ``cells`` (n <= 8; not clipped to the board: the
    callers mask it with cells of the board). Four shifts, not one per direction: (r, c)
    touches (r-1, c) and (r-1, c+1), the cell and its right-hand neighbour one row up, and
    (r+1, c-1) and (r+1, c), its left-hand neighbour and the cell one row down."""
    right, left = (cells & not_last) << _U1, (cells & not_first) >> _U1
    return right | left | ((cells | right) >> un) | ((cells | left) << un) | near


@njit(cache=True)
def _connected1(stones, n, vertical):
    """_connected for n <= 8."""
    m = MASKS[n]
    start, goal = (_TOP, _BOTTOM) if vertical else (_LEFT, _RIGHT)
    un = np.uint64(n)
    reached = stones & m[start, 0]
    while reached:
        if reached & m[goal, 0]:
            return True
        grown = _near1(reached, m[_NOT_LAST, 0], m[_NOT_FIRST, 0], un, reached) & stones
        if grown == reached:
            return False
        reached = grown
    return False


@njit(cache=True)
def _step1(near, own_left, empty_left, k):
    """One step of _distance for n <= 8: (the cells it takes, own_left, empty_left, k after
    it); it takes nothing when nothing is left to take."""
    new = near & own_left
    if new == _U0:
        new = near & empty_left
        return new, own_left, empty_left ^ new, k + 1
    return new, own_left ^ new, empty_left, k


@njit(cache=True)
def _layers1(near, own_left, empty_left, k, goal, not_last, not_first, un, n):
    """_distance for n <= 8 from a search under way: the cells reached so far lie in layers
    <= k, none on the ``goal`` side; ``near`` holds the start side and the cells touching
    them; ``own_left`` and ``empty_left`` the own stones and empty cells not reached yet."""
    while True:
        new, own_left, empty_left, k = _step1(near, own_left, empty_left, k)
        if new == _U0 or new & goal:
            return k if new else n * n
        near = _near1(new, not_last, not_first, un, near)


@njit(cache=True)
def _distances1(x, o, n):
    """(_distance of X, _distance of O) for n <= 8: the two searches from their start sides
    advanced together, step for step (the steps are independent, so the processor overlaps
    them), until one ends; then the other alone (_layers1)."""
    m = MASKS[n]
    not_last, not_first = m[_NOT_LAST, 0], m[_NOT_FIRST, 0]
    bottom, right = m[_BOTTOM, 0], m[_RIGHT, 0]
    un = np.uint64(n)
    empty = m[_BOARD, 0] & ~(x | o)
    nx, no = m[_TOP, 0], m[_LEFT, 0]
    xl, ol, xe, oe = x, o, empty, empty
    kx = ko = 0
    while True:
        new, xl, xe, kx = _step1(nx, xl, xe, kx)
        if new == _U0 or new & bottom:
            return (kx if new else n * n,
                    _layers1(no, ol, oe, ko, right, not_last, not_first, un, n))
        nx = _near1(new, not_last, not_first, un, nx)
        new, ol, oe, ko = _step1(no, ol, oe, ko)
        if new == _U0 or new & right:
            return (_layers1(nx, xl, xe, kx, bottom, not_last, not_first, un, n),
                    ko if new else n * n)
        no = _near1(new, not_last, not_first, un, no)


@njit(cache=True)
def max_to_move(s):
    return (s[5] % _U2 == _U0) == (s[6] == _U1)


@njit(cache=True)
def is_terminal(s):
    return s[7] != _U0


@njit(cache=True)
def utility(s):
    return 1.0 if (s[7] == _U1) == (s[6] == _U1) else -1.0


@njit(cache=True)
def gen_moves(s, out):
    """The empty cells in ascending order, read off the empty set's bits (a test per cell
    mispredicted about every other cell)."""
    board = MASKS[np.int64(s[4]), _BOARD]
    k = 0
    for w in range(2):
        e = board[w] & ~(s[w] | s[2 + w])
        while e != _U0:
            out[k] = 64 * w + popcount((e & (~e + _U1)) - _U1)
            e &= e - _U1
            k += 1
    return k


@njit(cache=True)
def play(s, m, out):
    for i in range(STATE_SIZE):       # not out[:] = s: numba cannot lower that slice store
        out[i] = s[i]                 # inside the engine's typed call
    n = np.int64(s[4])
    w = m >> 6
    bit = _U1 << np.uint64(m & 63)
    x_moves = s[5] % _U2 == _U0
    side = 0 if x_moves else 1
    out[2 * side + w] |= bit
    out[5] = s[5] + _U1
    out[8] = s[8] ^ ZKEYS[side * 121 + m]
    # a chain from side to side has a stone on each of the n rows (columns) it crosses: the
    # flood only runs once the mover has n stones
    own_lo, own_hi = out[2 * side], out[2 * side + 1]
    if popcount(own_lo) + popcount(own_hi) >= n and (
            _connected1(own_lo, n, x_moves) if n <= 8 else
            _connected(own_lo, own_hi, n, x_moves)):
        out[7] = np.uint64(side + 1)


@njit(cache=True)
def evaluate(s):
    n = np.int64(s[4])
    if n <= 8:
        dx, do = _distances1(s[0], s[2], n)
    else:
        dx = _distance(s[0], s[1], s[2], s[3], n, True)
        do = _distance(s[2], s[3], s[0], s[1], n, False)
    e = (do - dx) / (n * n + 1)
    return e if s[6] == _U1 else -e


@njit(cache=True)
def hash_key(s):
    return s[8]


@njit(cache=True)
def order_key(s, m, code):
    """"adjacent" (code 0): searchlab.games.hex.adjacent_key."""
    nbr = NBR_MASK[np.int64(s[4]), m]
    touching = popcount(nbr[0] & (s[0] | s[2])) + popcount(nbr[1] & (s[1] | s[3]))
    return float(6 - touching) if touching else 6.0


def encode(state, max_is_x: bool) -> np.ndarray:
    """The state row of a HexState (layout: module docstring)."""
    x, o, n = state
    winner = 1 if connected(x, n, True) else 2 if connected(o, n, False) else 0
    return np.array([x & _LOW, x >> 64, o & _LOW, o >> 64, n, x.bit_count() + o.bit_count(),
                     int(max_is_x), winner, zobrist(state)], dtype=np.uint64)


PRIMITIVES = Primitives(max_to_move, gen_moves, play, is_terminal, utility, evaluate, hash_key,
                        order_key, never_noisy, no_null_move, null_move_never, no_noisy_moves)


@lru_cache(maxsize=None)       # one per argument: the engine looks it up on every search
def compiled_game(n: int, max_is_x: bool) -> CompiledGame:
    """The CompiledGame of a Hex game on the n x n board whose MAX is X (or O)."""
    return CompiledGame(PRIMITIVES, STATE_SIZE, n * n, n * n, n * n,
                        lambda state: encode(state, max_is_x), int, int,
                        {"adjacent": ORDER_ADJACENT})
