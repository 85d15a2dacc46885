"""Harvest's compiled primitives: searchlab.games.harvest on numba int64 rows.

A position is a row of ``piles + players + 1`` int64: the piles' stones, the players' scores,
the player to move. The parameters ``P`` = (players, piles, take, bonus). Every function
repeats searchlab/games/harvest.py exactly: the same moves in the same order (id = pile · take
+ stones - 1, ascending), the same scoring and the same payoff vectors (integers, so the float
vectors are equal bit for bit; tests/games/test_harvest.py). They are the primitives of the
compiled n-player engine (the contract: searchlab.contracts.compiled_nplayer);
``compiled_nplayer_game(game)`` hands them to it.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from searchlab.contracts.compiled_nplayer import CompiledNPlayerGame, NPlayerPrimitives

PLAYERS, PILES, TAKE, BONUS = range(4)
MAX_PILES, MAX_TAKE, MAX_STONES = 8, 8, 20


@njit(cache=True)
def is_terminal(s, P):
    for i in range(P[PILES]):
        if s[i] > 0:
            return False
    return True


@njit(cache=True)
def to_move(s, P):
    return s[P[PILES] + P[PLAYERS]]


@njit(cache=True)
def gen_moves_for(s, p, P, out):
    """Take 1..min(take, pile) stones from a pile, ids pile · take + stones - 1 ascending."""
    take = P[TAKE]
    k = 0
    for i in range(P[PILES]):
        for j in range(min(take, s[i])):
            out[k] = i * take + j
            k += 1
    return k


@njit(cache=True)
def play_for(s, p, m, P, out):
    """``out`` = the position after player p's move m; the next player is p + 1."""
    n, piles, take = P[PLAYERS], P[PILES], P[TAKE]
    for k in range(piles + n + 1):
        out[k] = s[k]
    pile, stones = m // take, m % take + 1
    out[pile] = s[pile] - stones
    gain = stones + (P[BONUS] if out[pile] == 0 else 0)
    out[piles + p] = s[piles + p] + gain
    out[piles + n] = (p + 1) % n


@njit(cache=True)
def payoffs(s, P, horizon, out):
    """``out[:players]`` = players · score + the points still on the table (0 at the end):
    Harvest.utility_vector / evaluate_vector."""
    n, piles = P[PLAYERS], P[PILES]
    rest = 0
    for i in range(piles):
        if s[i] > 0:
            rest += s[i] + P[BONUS]
    for j in range(n):
        out[j] = np.float64(n * s[piles + j] + rest)


PRIMITIVES = NPlayerPrimitives(is_terminal, to_move, gen_moves_for, play_for, payoffs)


def encode(state: Any) -> np.ndarray:
    """The row of a HarvestState."""
    return np.array([*state.piles, *state.scores, state.mover], dtype=np.int64)


def compiled_nplayer_game(game: Any) -> CompiledNPlayerGame:
    """Harvest's CompiledNPlayerGame (a game lasts at most as many plies as there are stones:
    20 per pile from any state a search may be given)."""
    params = np.array([game.n_players, len(game.root.piles), game.take, game.bonus], np.int64)
    return CompiledNPlayerGame(
        prims=PRIMITIVES, state_dtype=np.int64, encode=encode, params=params, n_players=game.n_players,
        max_moves=len(game.root.piles) * game.take, max_plies=MAX_STONES * len(game.root.piles))
