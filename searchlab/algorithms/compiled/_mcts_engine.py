"""The compiled MCTS (private): searchlab/algorithms/mcts.py's UCT repeated step for step in
numba over a game's two-player primitives (the contract: searchlab.contracts.compiled), so
that for the same seed it makes the same random draws, visits, values and move.

This file is a template: ``searchlab.algorithms.compiled.family.engine`` imports, per game, a
copy whose marker block imports the game's primitives under the names below.

Layout: the tree is two arrays indexed by node (``TI``: int64 columns, ``TF``: float64
columns); a node's children are contiguous from ``TI[node, CHILD]``. The current path's
positions are rows of ``S`` (row ply = the position at that ply; rollouts continue below it).
``run`` performs simulations until a budget, the chunk's end (the wrapper then checks the
clock), the tree's capacity (the wrapper grows the arrays and calls again) or a proven root;
all of its state lives in the arrays, so splitting a search into calls changes nothing.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from searchlab.algorithms.kernels.hashing_compiled import mix64

# <primitives>
max_to_move = gen_moves = play = is_terminal = utility = evaluate = hash_key = order_key = None
is_noisy = null_move = null_move_allowed = noisy_moves = capture_gain = None
# </primitives>

CHILD, NCH, MOVE, VIS, SOLVED, FLAGS = range(6)            # TI's columns (NCH -1: not expanded)
TOTAL, H, REWARD = range(3)                                # TF's columns
F_TERMINAL, F_MAX = 1, 2                                   # FLAGS' bits
NODES, SIMS, USED, TOP = range(4)                          # cnt
N_COUNTERS = 4
I_SOLVER, I_PRIOR, I_HORIZON, I_MAX_NODES, I_MAX_SIMS, I_CHUNK_END, I_VALUE = range(7)   # ip
F_C, F_W = range(2)                                        # fp
DONE, CHUNK, FULL, PROVEN = range(4)                       # run's return codes
GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_S32 = np.uint64(32)


@njit(cache=True)
def draw(rng, n):
    """A number in [0, n): mcts._Rng.draw on uint64."""
    rng[0] = rng[0] + GOLDEN
    return np.int64(((mix64(rng[0]) >> _S32) * np.uint64(n)) >> _S32)


@njit(cache=True)
def sign_of(x):
    if x > 0:
        return 1.0
    if x < 0:
        return -1.0
    return 0.0


@njit(cache=True)
def end_reward(u, value):
    """A game end's reward: the sign of the utility, or (``value``) the utility itself."""
    return u if value else sign_of(u)


@njit(cache=True)
def count(cnt, per_ply, ply):
    cnt[NODES] += 1
    per_ply[ply] += 1
    if ply > cnt[TOP]:
        cnt[TOP] = ply


@njit(cache=True)
def new_node(TI, TF, i, move, h):
    TI[i, CHILD] = -1
    TI[i, NCH] = -1
    TI[i, MOVE] = move
    TI[i, VIS] = 0
    TI[i, SOLVED] = 0
    TI[i, FLAGS] = 0
    TF[i, TOTAL] = 0.0
    TF[i, H] = h
    TF[i, REWARD] = 0.0


@njit(cache=True)
def expand(node, s, TI, TF, cnt, M, keys, rng, prior):
    k = gen_moves(s, M)
    if max_to_move(s):
        TI[node, FLAGS] |= F_MAX
    if prior >= 0:
        for i in range(k):
            keys[i] = order_key(s, M[i], prior)
        for i in range(1, k):                      # stable insertion sort by key
            m, key = M[i], keys[i]
            j = i - 1
            while j >= 0 and keys[j] > key:
                M[j + 1] = M[j]
                keys[j + 1] = keys[j]
                j -= 1
            M[j + 1] = m
            keys[j + 1] = key
    else:
        for i in range(k - 1, 0, -1):
            j = draw(rng, i + 1)
            t = M[i]
            M[i] = M[j]
            M[j] = t
    first = cnt[USED]
    for i in range(k):
        h = 1.0 - i / k if prior >= 0 else 0.0
        new_node(TI, TF, first + i, M[i], h)
    cnt[USED] = first + k
    TI[node, CHILD] = first
    TI[node, NCH] = k


@njit(cache=True)
def select(node, TI, TF, c, w, solver):
    sign = 1.0 if TI[node, FLAGS] & F_MAX else -1.0
    visits = TI[node, VIS]
    log_n = math.log(visits) if visits > 0 else 0.0
    first, k = TI[node, CHILD], TI[node, NCH]
    best, best_score = -1, -np.inf
    for ch in range(first, first + k):
        if solver and TI[ch, SOLVED] == -sign:
            continue
        n = TI[ch, VIS]
        if n == 0:
            return ch
        score = sign * TF[ch, TOTAL] / n + c * math.sqrt(log_n / n) + w * TF[ch, H] / (n + 1)
        if score > best_score:
            best, best_score = ch, score
    return best if best >= 0 else first


@njit(cache=True)
def rollout(S, ply, M, rng, horizon, value, cnt, per_ply):
    k = 0
    while True:
        s = S[ply + k]
        if is_terminal(s):
            return end_reward(utility(s), value)
        if horizon >= 0 and k >= horizon:
            return min(1.0, max(-1.0, evaluate(s)))
        n = gen_moves(s, M)
        play(s, M[draw(rng, n)], S[ply + k + 1])
        k += 1
        count(cnt, per_ply, ply + k)


@njit(cache=True)
def simulate(S, TI, TF, path, cnt, per_ply, M, keys, rng, ip, fp):
    solver = ip[I_SOLVER] != 0
    node, ply = 0, 0
    path[0] = 0
    while True:
        if TI[node, FLAGS] & F_TERMINAL or (solver and TI[node, SOLVED] != 0):
            break
        if TI[node, NCH] < 0:
            if TI[node, VIS] == 0 and node != 0:
                break
            expand(node, S[ply], TI, TF, cnt, M, keys, rng, ip[I_PRIOR])
        node = select(node, TI, TF, fp[F_C], fp[F_W], solver)
        play(S[ply], TI[node, MOVE], S[ply + 1])
        ply += 1
        count(cnt, per_ply, ply)
        path[ply] = node
    if TI[node, VIS] == 0 and node != 0 and is_terminal(S[ply]):
        TI[node, FLAGS] |= F_TERMINAL
        TF[node, REWARD] = end_reward(utility(S[ply]), ip[I_VALUE] != 0)
        if solver and TF[node, REWARD] != 0:
            TI[node, SOLVED] = np.int64(TF[node, REWARD])
    if TI[node, FLAGS] & F_TERMINAL:
        reward = TF[node, REWARD]
    elif solver and TI[node, SOLVED] != 0:
        reward = np.float64(TI[node, SOLVED])
    else:
        reward = rollout(S, ply, M, rng, ip[I_HORIZON], ip[I_VALUE] != 0, cnt, per_ply)
    for i in range(ply + 1):
        p = path[i]
        TI[p, VIS] += 1
        TF[p, TOTAL] += reward
    cnt[SIMS] += 1
    if solver:
        for i in range(ply - 1, -1, -1):
            p = path[i]
            sign = 1 if TI[p, FLAGS] & F_MAX else -1
            first, k = TI[p, CHILD], TI[p, NCH]
            won, lost = False, True
            for ch in range(first, first + k):
                if TI[ch, SOLVED] == sign:
                    won = True
                if TI[ch, SOLVED] != -sign:
                    lost = False
            if won:
                TI[p, SOLVED] = sign
            elif lost:
                TI[p, SOLVED] = -sign
            else:
                break


@njit(cache=True)
def run(S, TI, TF, path, cnt, per_ply, M, keys, rng, ip, fp, max_moves):
    """Simulations until a budget (DONE), the chunk's end (CHUNK), too little room for one
    more expansion (FULL) or a proven root (PROVEN)."""
    cap = TI.shape[0]
    while True:
        if ip[I_SOLVER] != 0 and TI[0, SOLVED] != 0:
            return PROVEN
        if cnt[SIMS] >= ip[I_MAX_SIMS] or cnt[NODES] >= ip[I_MAX_NODES]:
            return DONE
        if cnt[SIMS] >= ip[I_CHUNK_END]:
            return CHUNK
        if cap - cnt[USED] < max_moves:
            return FULL
        simulate(S, TI, TF, path, cnt, per_ply, M, keys, rng, ip, fp)
