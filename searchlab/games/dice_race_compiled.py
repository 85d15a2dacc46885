"""The dice race's compiled primitives: searchlab.games.dice_race on numba int64 rows.

A position is a row of ``2·tokens + 3`` int64: player 0's token squares, player 1's, the
player to move, the roll plus one (0 at the chance node before the roll) and the decisions
made. The game's parameters are a row ``P`` = (track length, tokens, coins, horizon, MAX = the
root's mover). Every function repeats searchlab/games/dice_race.py exactly: the same moves in
the same order (tokens ascending, then the pass), outcomes (k pips with probability
C(coins, k) / 2^coins, k = 0..coins), captures, terminal test, utility and evaluation (the same
float operations), and ``hash_key`` is the Python game's key (tests/games/test_dice_race.py).
They are the primitives of the compiled chance engine (the contract:
searchlab.contracts.compiled_chance); ``compiled_chance_game(game)`` hands them to it.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numba import njit

from searchlab.contracts.compiled_chance import ChancePrimitives, CompiledChanceGame
from searchlab.algorithms.kernels.hashing_compiled import mix_row

LENGTH, TOKENS, COINS, HORIZON, ROOT_MOVER = range(5)
MAX_TOKENS, MAX_COINS = 4, 8


@njit(cache=True)
def home(s, p, P):
    """Whether every token of player p is home (on square ``length``)."""
    t = P[TOKENS]
    for i in range(t):
        if s[p * t + i] != P[LENGTH]:
            return False
    return True


@njit(cache=True)
def is_terminal(s, P):
    return home(s, 0, P) or home(s, 1, P) or s[2 * P[TOKENS] + 2] >= P[HORIZON]


@njit(cache=True)
def is_chance(s, P):
    return s[2 * P[TOKENS] + 1] == 0


@njit(cache=True)
def max_to_move(s, P):
    return s[2 * P[TOKENS]] == P[ROOT_MOVER]


@njit(cache=True)
def utility(s, P):
    if home(s, P[ROOT_MOVER], P):
        return 1.0
    if home(s, 1 - P[ROOT_MOVER], P):
        return -1.0
    return 0.0


@njit(cache=True)
def evaluate(s, P):
    """dice_race.DiceRace.evaluate: tanh((pips MIN needs - pips MAX needs) / (2 · length))."""
    t, length = P[TOKENS], P[LENGTH]
    mx = P[ROOT_MOVER]
    need_max = 0
    need_min = 0
    for i in range(t):
        need_max += length - s[mx * t + i]
        need_min += length - s[(1 - mx) * t + i]
    return math.tanh((need_min - need_max) / (2.0 * length))


@njit(cache=True)
def gen_moves(s, P, out):
    """The tokens that can move by the roll, ascending, else the pass (move ``tokens``); none
    at a chance node."""
    t, length = P[TOKENS], P[LENGTH]
    roll = s[2 * t + 1] - 1
    if roll < 0:
        return 0
    p = s[2 * t]
    k = 0
    if roll > 0:
        for i in range(t):
            pos = s[p * t + i]
            if pos < length and pos + roll <= length:
                out[k] = i
                k += 1
    if k == 0:
        out[0] = t
        k = 1
    return k


@njit(cache=True)
def outcomes(s, P, probs):
    """k pips (k = 0..coins) with probability C(coins, k) / 2^coins."""
    c = P[COINS]
    total = 2.0 ** c
    comb = 1
    for k in range(c + 1):
        probs[k] = comb / total
        comb = comb * (c - k) // (k + 1)
    return c + 1


@njit(cache=True)
def play(s, m, P, out):
    """``out`` = the position after move (or, at a chance node, outcome) ``m``."""
    t, length = P[TOKENS], P[LENGTH]
    for k in range(2 * t + 3):
        out[k] = s[k]
    mover_at, roll_at = 2 * t, 2 * t + 1
    if s[roll_at] == 0:                       # the roll: m pips
        out[roll_at] = m + 1
        return
    p = s[mover_at]
    if m < t:
        dest = s[p * t + m] + s[roll_at] - 1
        out[p * t + m] = dest
        if 0 < dest < length:                 # capture: opponent tokens on dest go back to 0
            q = 1 - p
            for i in range(t):
                if s[q * t + i] == dest:
                    out[q * t + i] = 0
    out[mover_at] = 1 - p
    out[roll_at] = 0
    out[roll_at + 1] = s[roll_at + 1] + 1


@njit(cache=True)
def hash_key(s, P):
    return mix_row(s, 2 * P[TOKENS] + 3)


PRIMITIVES = ChancePrimitives(is_terminal, is_chance, max_to_move, utility, evaluate, gen_moves, outcomes,
                              play, hash_key)


def encode(state: Any) -> np.ndarray:
    """The row of a DiceRaceState."""
    return np.array([*state.tokens[0], *state.tokens[1], state.mover, state.roll + 1, state.decisions],
                    dtype=np.int64)


def parameters(game: Any) -> np.ndarray:
    """The row ``P`` of a DiceRace game."""
    return np.array([game.length, game.tokens, game.coins, game.horizon, game.root.mover], dtype=np.int64)


def compiled_chance_game(game: Any) -> CompiledChanceGame:
    """The dice race's CompiledChanceGame (orderings natural and static)."""
    return CompiledChanceGame(
        prims=PRIMITIVES, state_dtype=np.int64, encode=encode, params=parameters(game),
        max_moves=game.tokens + 1, max_outcomes=game.coins + 1, n_move_ids=game.tokens + 1,
        max_decisions=game.horizon, orderings=("natural", "static"), label="compiled")
