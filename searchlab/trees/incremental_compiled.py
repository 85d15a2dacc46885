"""The incremental tree's compiled primitives (the contract: searchlab.contracts.compiled), so
that the compiled engine runs dynamic policies, PVS, MTD(f) and pruning on it (the synthetic
kernel, searchlab.algorithms.kernels, covers natural/random/perfect/worst/static orders).

State row (uint64): [key, ply, b, d, static, a_coef, c_coef, scale[0..d], good[0..d-1][0..b-1]]
where the floats (static, a_coef, c_coef, scale, good) are stored as their float64 bits: the
primitives see only the row, so the row carries the tree's parameters (copied on every move;
the price of a contract without per-game parameter arrays). Move id = the natural index
0..b-1. Every function repeats searchlab.trees.incremental exactly (the edge value in the same
float operations, the null move's fresh key).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from searchlab.contracts.compiled import CompiledGame, Primitives
from searchlab.contracts.compiled_stubs import never_noisy, no_noisy_moves, no_order_key
from searchlab.algorithms.kernels.hashing_compiled import GOLDEN, NOISE_SALT, mix64, unit
from searchlab.hashing import NULL_SALT
from searchlab.trees.iid_compiled import gen_moves, hash_key, is_terminal, max_to_move

KEY, PLY, B, D, STATIC, A, C, SCALE = range(8)      # the first four as the i.i.d. tree's
_NULL_SALT = np.uint64(NULL_SALT)


@njit(cache=True)
def _copy(s, out):
    for k in range(s.shape[0]):       # a loop: slice assignment needs numba's runtime (NRT)
        out[k] = s[k]


@njit(cache=True)
def utility(s):
    return s.view(np.float64)[STATIC]


@njit(cache=True)
def play(s, m, out):
    _copy(s, out)
    f, fo = s.view(np.float64), out.view(np.float64)
    ply, b, d = np.int64(s[PLY]), np.int64(s[B]), np.int64(s[D])
    ck = mix64(s[KEY] + np.uint64(m + 1) * GOLDEN)
    noise = 2.0 * unit(mix64(ck ^ NOISE_SALT)) - 1.0
    sign = 1.0 if ply % 2 == 0 else -1.0
    good = f[SCALE + d + 1 + ply * b + m]
    edge = sign * f[SCALE + ply] * (f[A] * good + f[C] * noise)
    out[KEY] = ck
    out[PLY] = s[PLY] + np.uint64(1)
    fo[STATIC] = f[STATIC] + edge


@njit(cache=True)
def evaluate(s):
    return s.view(np.float64)[STATIC]


@njit(cache=True)
def null_move_allowed(s):
    """Always, as IncrementalTree.null_move_allowed: no zugzwang guard."""
    return True


@njit(cache=True)
def null_move(s, out):
    _copy(s, out)
    out[KEY] = mix64(s[KEY] ^ _NULL_SALT)
    out[PLY] = s[PLY] + np.uint64(1)


PRIMITIVES = Primitives(max_to_move, gen_moves, play, is_terminal, utility, evaluate, hash_key,
                        no_order_key, never_noisy, null_move, null_move_allowed, no_noisy_moves)


def compiled_game(tree) -> CompiledGame:
    """The CompiledGame of an IncrementalTree."""
    b, d = tree.b, tree.d
    floats = np.array([tree.a_coef, tree.c_coef, *tree.scale,
                       *(g for row in tree.good for g in row)], dtype=np.float64)
    size = SCALE + (d + 1) + d * b

    def encode(state) -> np.ndarray:
        key, ply, _, static = state
        row = np.zeros(size, np.uint64)
        row[KEY], row[PLY], row[B], row[D] = key, ply, b, d
        f = row.view(np.float64)
        f[STATIC] = static
        f[A:] = floats
        return row

    return CompiledGame(PRIMITIVES, size, max(b, 1), max(b, 1), d, encode, int, int, {})
