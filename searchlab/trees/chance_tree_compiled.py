"""The synthetic chance tree's compiled primitives (the contract:
searchlab.contracts.compiled_chance), for the compiled chance engine.

State row (uint64): [key, level]. Parameters ``P`` (float64): b, n, d, levels, low, high, then
the n outcome probabilities. Every function repeats searchlab.trees.chance_tree.ChanceTree exactly:
moves 0..b-1, outcomes 0..n-1 with the tree's probabilities, children's keys by child_key,
leaf values by the same float operations. The tree has no static values: ``evaluate`` is never
called (the search's validation refuses a horizon above the leaves).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from searchlab.contracts.compiled_chance import ChancePrimitives, CompiledChanceGame
from searchlab.algorithms.kernels.hashing_compiled import child_key, unit

KEY, LEVEL = 0, 1
B, N, D, LEVELS, LOW, HIGH, PROBS = range(7)


@njit(cache=True)
def is_terminal(s, P):
    return np.int64(s[LEVEL]) >= 2 * np.int64(P[D])


@njit(cache=True)
def is_chance(s, P):
    level = np.int64(s[LEVEL])
    return level % 2 == 1 and level < 2 * np.int64(P[D])


@njit(cache=True)
def max_to_move(s, P):
    return np.int64(s[LEVEL]) % 4 == 0


@njit(cache=True)
def utility(s, P):
    low, high = P[LOW], P[HIGH]
    levels = np.int64(P[LEVELS])
    if levels > 0:
        return low + (high - low) * np.float64(s[KEY] % np.uint64(levels)) / np.float64(levels - 1)
    return low + (high - low) * unit(s[KEY])


@njit(cache=True)
def evaluate(s, P):
    """Never called (no static values)."""
    return 0.0


@njit(cache=True)
def gen_moves(s, P, out):
    b = np.int64(P[B])
    for i in range(b):
        out[i] = i
    return b


@njit(cache=True)
def outcomes(s, P, probs):
    n = np.int64(P[N])
    for i in range(n):
        probs[i] = P[PROBS + i]
    return n


@njit(cache=True)
def play(s, m, P, out):
    out[KEY] = child_key(s[KEY], m)
    out[LEVEL] = s[LEVEL] + np.uint64(1)


@njit(cache=True)
def hash_key(s, P):
    return s[KEY]


PRIMITIVES = ChancePrimitives(is_terminal, is_chance, max_to_move, utility, evaluate, gen_moves, outcomes,
                              play, hash_key)


def compiled_chance_game(tree: Any) -> CompiledChanceGame:
    """The CompiledChanceGame of a ChanceTree (engine label "kernel")."""
    params = np.array([tree.b, tree.n, tree.d, tree.levels, tree.low, tree.high, *tree.probs], np.float64)
    return CompiledChanceGame(
        prims=PRIMITIVES, state_dtype=np.uint64,
        encode=lambda state: np.array([state[0], state[1]], np.uint64), params=params,
        max_moves=tree.b, max_outcomes=tree.n, n_move_ids=tree.b, max_decisions=tree.d,
        orderings=("natural",), label="kernel")
