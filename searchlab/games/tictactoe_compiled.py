"""Tic-tac-toe's compiled primitives (the contract: searchlab.contracts.compiled).

State row (uint64, 3 words): the X and O cell sets (bit i = cell i, as TicTacToeState) and
MAX is X (0/1). Move id = the cell 0..8. Every function repeats searchlab.games.tictactoe
exactly (evaluate bit for bit, the Zobrist key equal).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from numba import njit

from searchlab.contracts.compiled import CompiledGame, Primitives
from searchlab.contracts.compiled_stubs import (never_noisy, no_noisy_moves, no_null_move,
                                                no_order_key, null_move_never)
from searchlab.games.tictactoe_kernel import FULL, LINES, WIN
from searchlab.hashing import GOLDEN, MASK64, mix64

STATE_SIZE = 3
ZOBRIST_SEED = 0x7469_6374_6163_746F           # "tictacto"
# ZOBRIST[p * 9 + i]: player p (0 = X, 1 = O) on cell i; ZOBRIST[18]: O to move.
ZOBRIST = tuple(mix64((ZOBRIST_SEED + (k + 1) * GOLDEN) & MASK64) for k in range(19))
_LINES = np.array(LINES, dtype=np.int64)
_ZKEYS = np.array(ZOBRIST, dtype=np.uint64)


@njit(cache=True)
def _x_to_move(x, o):
    cx = cy = 0
    for i in range(9):
        cx += (x >> i) & 1
        cy += (o >> i) & 1
    return cx == cy


@njit(cache=True)
def max_to_move(s):
    return _x_to_move(np.int64(s[0]), np.int64(s[1])) == (s[2] != 0)


@njit(cache=True)
def is_terminal(s):
    x, o = np.int64(s[0]), np.int64(s[1])
    return (x | o) == FULL or WIN[x] or WIN[o]


@njit(cache=True)
def utility(s):
    x, o = np.int64(s[0]), np.int64(s[1])
    max_is_x = s[2] != 0
    if WIN[x]:
        return 1.0 if max_is_x else -1.0
    if WIN[o]:
        return -1.0 if max_is_x else 1.0
    return 0.0


@njit(cache=True)
def gen_moves(s, out):
    occ = np.int64(s[0] | s[1])
    n = 0
    for i in range(9):
        if not (occ >> i) & 1:
            out[n] = i
            n += 1
    return n


@njit(cache=True)
def play(s, m, out):
    x, o = np.int64(s[0]), np.int64(s[1])
    if _x_to_move(x, o):
        x |= 1 << m
    else:
        o |= 1 << m
    out[0], out[1], out[2] = np.uint64(x), np.uint64(o), s[2]


@njit(cache=True)
def evaluate(s):
    x, o = np.int64(s[0]), np.int64(s[1])
    open_x = open_o = 0
    for line in _LINES:
        if not o & line:
            open_x += 1
        if not x & line:
            open_o += 1
    diff = (open_x - open_o) / 10
    return diff if s[2] != 0 else -diff


@njit(cache=True)
def hash_key(s):
    x, o = np.int64(s[0]), np.int64(s[1])
    key = np.uint64(0)
    for i in range(9):
        if (x >> i) & 1:
            key ^= _ZKEYS[i]
        elif (o >> i) & 1:
            key ^= _ZKEYS[9 + i]
    if not _x_to_move(x, o):
        key ^= _ZKEYS[18]
    return key


PRIMITIVES = Primitives(max_to_move, gen_moves, play, is_terminal, utility, evaluate, hash_key,
                        no_order_key, never_noisy, no_null_move, null_move_never, no_noisy_moves)


@lru_cache(maxsize=None)       # one per argument: the engine looks it up on every search
def compiled_game(max_is_x: bool) -> CompiledGame:
    """The CompiledGame of a tic-tac-toe game whose MAX is X (or O)."""
    flag = np.uint64(bool(max_is_x))

    def encode(state) -> np.ndarray:
        return np.array([state.x, state.o, flag], dtype=np.uint64)

    return CompiledGame(PRIMITIVES, STATE_SIZE, 9, 9, 9, encode, int, int, {})
