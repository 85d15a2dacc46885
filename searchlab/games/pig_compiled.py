"""Pig's compiled primitives: searchlab.games.pig on numba int64 rows.

A position is a row of 6 int64: score of player 0, score of player 1, turn total, player to
move, rolling (1 at the chance node after a roll), decisions made. The game's parameters are
a row ``P`` = (winscore, dice, horizon, the root's mover = MAX). Every function repeats
searchlab/games/pig.py exactly: the same moves in the same order (ROLL 0, STOP 1), outcomes
(face k + 1 for outcome k, probability 1/dice each, natural order), terminal test, utility
and race-model evaluation (the same float operations; tests/games/test_pig_compiled.py). They
are the primitives of the compiled chance engine (the contract:
searchlab.contracts.compiled_chance); ``compiled_chance_game(game)`` hands them to it.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numba import njit

from searchlab.contracts.compiled_chance import ChancePrimitives, CompiledChanceGame
from searchlab.algorithms.kernels.hashing_compiled import mix_row

ROLL, STOP = 0, 1                 # the decision moves (searchlab.games.pig uses these)
POINTS_PER_TURN = 8.0             # the race model's points per turn
STATE_SIZE = 6
S0, S1, TURN, MOVER, ROLLING, DECISIONS = range(6)
WINSCORE, DICE, HORIZON, ROOT_MOVER = range(4)


@njit(cache=True)
def is_terminal(s, P):
    return max(s[S0], s[S1]) >= P[WINSCORE] or s[DECISIONS] >= P[HORIZON]


@njit(cache=True)
def is_chance(s, P):
    return s[ROLLING] != 0


@njit(cache=True)
def max_to_move(s, P):
    return s[MOVER] == P[ROOT_MOVER]


@njit(cache=True)
def utility(s, P):
    if max(s[S0], s[S1]) < P[WINSCORE]:
        return 0.0
    winner = 0 if s[S0] >= P[WINSCORE] else 1
    return 1.0 if winner == P[ROOT_MOVER] else -1.0


@njit(cache=True)
def evaluate(s, P):
    """pig.race_estimate of the position for MAX (the same operations in the same order)."""
    mover = s[MOVER]
    other = 1 - mover
    t_m = max(0, P[WINSCORE] - s[mover] - s[TURN]) / POINTS_PER_TURN
    t_o = max(0, P[WINSCORE] - s[other]) / POINTS_PER_TURN
    e = math.tanh((t_o - t_m + 0.5) / (1.0 + 0.5 * math.sqrt(t_m + t_o)))
    return e if mover == P[ROOT_MOVER] else -e


@njit(cache=True)
def gen_moves(s, P, out):
    """Decision moves in natural order into ``out``; their number (none at a chance node)."""
    if is_terminal(s, P) or s[ROLLING]:
        return 0
    if s[s[MOVER]] + s[TURN] >= P[WINSCORE]:
        out[0] = STOP
        return 1
    out[0] = ROLL
    out[1] = STOP
    return 2


@njit(cache=True)
def outcomes(s, P, probs):
    """The die's faces: outcome k (face k + 1) with probability 1/dice each."""
    dice = P[DICE]
    for k in range(dice):
        probs[k] = 1.0 / dice
    return dice


@njit(cache=True)
def hash_key(s, P):
    """A key of the position (all six words)."""
    return mix_row(s, STATE_SIZE)


@njit(cache=True)
def play(s, m, P, out):
    """``out`` = the position after move (or, at a chance node, outcome) ``m`` (Pig.play)."""
    out[:] = s
    if s[ROLLING]:
        out[ROLLING] = 0
        if m == 0:
            out[TURN] = 0
            out[MOVER] = 1 - s[MOVER]
        else:
            out[TURN] = s[TURN] + m + 1
        return
    out[DECISIONS] = s[DECISIONS] + 1
    if m == ROLL:
        out[ROLLING] = 1
        return
    mover = s[MOVER]
    out[mover] = s[mover] + s[TURN]
    out[TURN] = 0
    out[MOVER] = mover if out[mover] >= P[WINSCORE] else 1 - mover


PRIMITIVES = ChancePrimitives(is_terminal, is_chance, max_to_move, utility, evaluate, gen_moves, outcomes,
                              play, hash_key)


def encode(state: Any) -> np.ndarray:
    """The row of a PigState."""
    return np.array([state.scores[0], state.scores[1], state.turn_total, state.mover,
                     int(state.rolling), state.decisions], dtype=np.int64)


def parameters(game: Any) -> np.ndarray:
    """The row ``P`` of a Pig game."""
    return np.array([game.winscore, game.dice, game.horizon, game.root.mover], dtype=np.int64)


def compiled_chance_game(game: Any) -> CompiledChanceGame:
    """Pig's CompiledChanceGame (orderings natural and static)."""
    return CompiledChanceGame(
        prims=PRIMITIVES, state_dtype=np.int64, encode=encode, params=parameters(game), max_moves=2,
        max_outcomes=game.dice, n_move_ids=2, max_decisions=game.horizon, orderings=("natural", "static"),
        label="compiled")
