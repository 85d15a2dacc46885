"""The i.i.d. tree's compiled primitives (the contract: searchlab.contracts.compiled), so that
the compiled engine runs dynamic policies (tt, killer, history), PVS and MTD(f) on it at full
depth (the synthetic kernel, searchlab.algorithms.kernels, covers the static orders).

State row (uint64): [key, ply, b, d, levels, win/loss leaves (0/1), win threshold]; move id = the natural index 0..b-1. The leaf
value repeats searchlab.trees.iid exactly. The tree has no static values: ``evaluate`` is never
called (the search's validation refuses a horizon above the leaves first).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from searchlab.contracts.compiled import CompiledGame, Primitives
from searchlab.contracts.compiled_stubs import (never_noisy, no_noisy_moves, no_null_move,
                                                no_order_key, null_move_never)
from searchlab.algorithms.kernels.hashing_compiled import GOLDEN, mix64, unit

KEY, PLY, B, D, LEVELS, WIN_LOSS, THRESHOLD = range(7)
_S11 = np.uint64(11)


@njit(cache=True)
def max_to_move(s):
    return s[PLY] % np.uint64(2) == np.uint64(0)


@njit(cache=True)
def is_terminal(s):
    return s[PLY] >= s[D]


@njit(cache=True)
def utility(s):
    if s[WIN_LOSS]:
        return 1.0 if (s[KEY] >> _S11) < s[THRESHOLD] else 0.0
    if s[LEVELS]:
        return float(s[KEY] % s[LEVELS])
    return unit(s[KEY])


@njit(cache=True)
def no_static(s):
    return 0.0


@njit(cache=True)
def gen_moves(s, out):
    b = np.int64(s[B])
    for i in range(b):
        out[i] = i
    return b


@njit(cache=True)
def play(s, m, out):
    for k in range(s.shape[0]):
        out[k] = s[k]
    out[KEY] = mix64(s[KEY] + np.uint64(m + 1) * GOLDEN)
    out[PLY] = s[PLY] + np.uint64(1)


@njit(cache=True)
def hash_key(s):
    return s[KEY]


PRIMITIVES = Primitives(max_to_move, gen_moves, play, is_terminal, utility, no_static, hash_key,
                        no_order_key, never_noisy, no_null_move, null_move_never, no_noisy_moves)


def compiled_game(tree) -> CompiledGame:
    """The CompiledGame of an IIDTree."""
    b, d, levels, threshold = tree.b, tree.d, tree.levels, tree.win_threshold

    def encode(state) -> np.ndarray:
        return np.array([state[0], state[1], b, d, levels, threshold is not None,
                         threshold or 0], dtype=np.uint64)

    return CompiledGame(PRIMITIVES, 7, max(b, 1), max(b, 1), d, encode, int, int, {})
