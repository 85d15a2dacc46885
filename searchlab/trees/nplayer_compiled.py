"""The synthetic n-player tree's compiled primitives (the contract:
searchlab.contracts.compiled_nplayer), for the compiled n-player engine.

State row (uint64): [key, ply, mover]. Parameters ``P`` (int64): players, b, d, constant-sum
(0/1), levels, total. Every function repeats searchlab.trees.nplayer_tree.NPlayerTree exactly: moves
0..b-1 for every player, children's keys mix64(key + (p·b + i + 1)·GOLDEN), and the leaf
vectors' components by the same integer and float operations. The tree has no static values
(``static_values`` False): the engine runs it only with a horizon at or below its leaves, so
``payoffs`` is only called on terminal states.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from searchlab.contracts.compiled_nplayer import CompiledNPlayerGame, NPlayerPrimitives
from searchlab.algorithms.kernels.hashing_compiled import GOLDEN, mix64, unit
from searchlab.hashing import VECTOR_SALT

KEY, PLY, MOVER = 0, 1, 2
NP, B, D, CONSTSUM, LEVELS, TOTAL = range(6)
SALT = np.uint64(VECTOR_SALT)


@njit(cache=True)
def is_terminal(s, P):
    return np.int64(s[PLY]) >= P[D]


@njit(cache=True)
def to_move(s, P):
    return np.int64(s[MOVER])


@njit(cache=True)
def gen_moves_for(s, p, P, out):
    b = P[B]
    if np.int64(s[PLY]) >= P[D]:
        return 0
    for i in range(b):
        out[i] = i
    return b


@njit(cache=True)
def play_for(s, p, m, P, out):
    out[KEY] = mix64(s[KEY] + np.uint64(p * P[B] + m + 1) * GOLDEN)
    out[PLY] = s[PLY] + np.uint64(1)
    out[MOVER] = np.uint64((p + 1) % P[NP])


@njit(cache=True)
def payoffs(s, P, horizon, out):
    """NPlayerTree.utility_vector of the leaf into out[:players]."""
    n = P[NP]
    base = s[KEY] ^ SALT
    if P[CONSTSUM]:
        for j in range(n):
            out[j] = 0.0
        for t in range(P[TOTAL]):
            out[np.int64(mix64(base + np.uint64(t + 1) * GOLDEN) % np.uint64(n))] += 1.0
        return
    levels = P[LEVELS]
    for j in range(n):
        z = mix64(base + np.uint64(j + 1) * GOLDEN)
        out[j] = np.float64(z % np.uint64(levels)) if levels > 0 else unit(z)


PRIMITIVES = NPlayerPrimitives(is_terminal, to_move, gen_moves_for, play_for, payoffs)


def compiled_nplayer_game(tree: Any) -> CompiledNPlayerGame:
    """The CompiledNPlayerGame of an NPlayerTree (engine label "kernel")."""
    params = np.array([tree.n_players, tree.b, tree.d, tree.values == "constsum", tree.levels, tree.total],
                      np.int64)
    return CompiledNPlayerGame(
        prims=PRIMITIVES, state_dtype=np.uint64, encode=lambda state: np.array(state, np.uint64),
        params=params, n_players=tree.n_players, max_moves=tree.b, max_plies=tree.d, static_values=False,
        label="kernel")
