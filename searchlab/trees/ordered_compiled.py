"""The ordered tree's compiled primitives (the contract: searchlab.contracts.compiled), so that
the compiled engine runs dynamic policies (tt, killer, history), PVS and MTD(f) on it at full
depth (the synthetic kernel covers natural, random, perfect and worst order).

State row (uint64): [key, ply, b, d, value, w_best, w_random], value and the mixture weights
as float64 bits; move id = the natural index 0..b-1. ``play`` repeats searchlab.trees.ordered's
``layout`` for the one child played: its rank (by the draws, ties by index, as Python's stable
sort) and the offset of that rank (the same float additions in the same order).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from searchlab.contracts.compiled import CompiledGame, Primitives
from searchlab.contracts.compiled_stubs import (never_noisy, no_noisy_moves, no_null_move,
                                                no_order_key, null_move_never)
from searchlab.algorithms.kernels.hashing_compiled import GOLDEN, mix64, order_draw
from searchlab.trees.iid_compiled import gen_moves, hash_key, is_terminal, max_to_move, no_static

KEY, PLY, B, D, VALUE, W_BEST, W_RANDOM = range(7)      # the first four as the i.i.d. tree's


@njit(cache=True)
def utility(s):
    return s.view(np.float64)[VALUE]


@njit(cache=True)
def play(s, m, out):
    f = s.view(np.float64)
    key, b, ply = s[KEY], np.int64(s[B]), np.int64(s[PLY])
    w_best, w_random = f[W_BEST], f[W_RANDOM]
    u = order_draw(key, 0)
    if u < w_best:
        r = m
    elif u < w_best + w_random:
        dm = order_draw(key, 1 + m)
        r = 0
        for j in range(b):
            dj = order_draw(key, 1 + j)
            if dj < dm or (dj == dm and j < m):
                r += 1
    else:
        r = b - 1 - m
    delta = 0.0
    for k in range(1, r + 1):
        delta = delta + 0.5 + order_draw(key, b + k)
    for k in range(s.shape[0]):
        out[k] = s[k]
    out[KEY] = mix64(key + np.uint64(m + 1) * GOLDEN)
    out[PLY] = s[PLY] + np.uint64(1)
    out.view(np.float64)[VALUE] = f[VALUE] - delta if ply % 2 == 0 else f[VALUE] + delta


PRIMITIVES = Primitives(max_to_move, gen_moves, play, is_terminal, utility, no_static, hash_key,
                        no_order_key, never_noisy, no_null_move, null_move_never, no_noisy_moves)


def compiled_game(tree) -> CompiledGame:
    """The CompiledGame of an OrderedTree."""
    b, d = tree.b, tree.d
    w_best, w_random = tree._weights

    def encode(state) -> np.ndarray:
        row = np.array([state[0], state[1], b, d, 0, 0, 0], dtype=np.uint64)
        f = row.view(np.float64)
        f[VALUE], f[W_BEST], f[W_RANDOM] = state[3], w_best, w_random
        return row

    return CompiledGame(PRIMITIVES, 7, max(b, 1), max(b, 1), d, encode, int, int, {})
