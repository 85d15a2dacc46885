"""The compiled n-player search (private): searchlab/algorithms/multiplayer.py's maxn,
maxn_shallow, paranoid (with and without pruning) and brs repeated step for step in numba over
an n-player game's primitives (the contract: searchlab.contracts.compiled_nplayer), natural
move order.

This file is a template: ``searchlab.algorithms.compiled.family.engine`` imports, per game, a
copy whose marker block imports the game's primitives under the names below. ``_rec`` is
self-recursive, so it is compiled for one explicit signature (``signature``), the form numba's
cache can hold (kernels/_recursive.py).

Layout: positions in a per-ply stack ``S`` (row ply = the node at that ply), value vectors in
``V`` (row ply = the vector the node returns) and ``B`` (the node's best child vector so far),
moves in ``M`` and the player of each move in ``MP`` (best-reply search's MIN node lists every
opponent's moves): nothing is allocated per node. A node budget sets ``cnt[ABORT]`` and every
caller returns at once (the reference's SearchAborted).
"""

from __future__ import annotations

import numpy as np
from numba import njit, typeof, types

# <primitives>
is_terminal = to_move = gen_moves_for = play_for = payoffs = None
# </primitives>

ALG_MAXN, ALG_SHALLOW, ALG_PARANOID, ALG_PARANOID_MM, ALG_BRS = range(5)
NODES, LEAVES, CUTS, ABORT, BEST, BAD = range(6)
N_COUNTERS = 6
INF = np.inf


def signature(S, P):
    """_rec's explicit signature for state rows like ``S`` and parameters like ``P``."""
    F, I = types.float64, types.int64
    return F(typeof(S), I, F, F, F, I, I, I, I, F, I, typeof(P), types.int64[:], types.int64[:],
             types.int64[:, :], types.int64[:, :], types.float64[:, :], types.float64[:, :])


@njit(cache=True)
def copy_vector(dst, src, n):
    for i in range(n):
        dst[i] = src[i]


@njit(cache=True)          # compiled for signature(S, P) by ready() on first use
def _rec(S, ply, alpha, beta, bound, algo, n, depth, root, total, max_nodes, P, cnt, per_ply, M, MP, V, B):
    """One node at ``ply`` (position S[ply]): its value vector into V[ply]; returns the root
    player's component (paranoid, BRS: the node's value; 0 after an abort)."""
    cnt[NODES] += 1
    if cnt[NODES] > max_nodes:
        cnt[ABORT] = 1
        return 0.0
    per_ply[ply] += 1
    s = S[ply]
    terminal = is_terminal(s, P)
    if terminal or ply >= depth:
        cnt[LEAVES] += 1
        payoffs(s, P, not terminal, V[ply])
        if algo == ALG_SHALLOW:
            acc = 0.0
            low = V[ply, 0]
            for i in range(n):
                acc += V[ply, i]
                low = min(low, V[ply, i])
            if low < 0 or acc != total:
                cnt[BAD] = 1
                cnt[ABORT] = 1
        return V[ply, root]
    child = S[ply + 1]
    best_m = -1
    if algo == ALG_MAXN or algo == ALG_SHALLOW:
        mover = np.int64(to_move(s, P))
        k = gen_moves_for(s, mover, P, M[ply])
        for i in range(k):
            m = M[ply, i]
            play_for(s, mover, m, P, child)
            child_bound = total if best_m < 0 else total - B[ply, mover]
            _rec(S, ply + 1, alpha, beta, child_bound, algo, n, depth, root, total, max_nodes, P, cnt,
                 per_ply, M, MP, V, B)
            if cnt[ABORT]:
                return 0.0
            if best_m < 0 or V[ply + 1, mover] > B[ply, mover]:
                copy_vector(B[ply], V[ply + 1], n)
                best_m = m
            if algo == ALG_SHALLOW and B[ply, mover] >= bound and i < k - 1:
                cnt[CUTS] += 1
                break
        if ply == 0:
            cnt[BEST] = best_m
        copy_vector(V[ply], B[ply], n)
        return V[ply, root]
    # paranoid and BRS: (player, move) pairs, then fail-soft alpha-beta (multiplayer._two_sided)
    if algo == ALG_BRS:
        maximizing = ply % 2 == 0
        if maximizing:
            k = gen_moves_for(s, root, P, M[ply])
            for i in range(k):
                MP[ply, i] = root
        else:
            k = 0
            if not is_terminal(s, P):           # the state with each opponent to move
                for j in range(1, n):
                    p = (root + j) % n
                    c = gen_moves_for(s, p, P, M[ply, k:])
                    for i in range(k, k + c):
                        MP[ply, i] = p
                    k += c
    else:
        mover = np.int64(to_move(s, P))
        maximizing = mover == root
        k = gen_moves_for(s, mover, P, M[ply])
        for i in range(k):
            MP[ply, i] = mover
    prune = algo != ALG_PARANOID_MM
    best = -INF if maximizing else INF
    for i in range(k):
        m = M[ply, i]
        play_for(s, MP[ply, i], m, P, child)
        c = _rec(S, ply + 1, alpha, beta, 0.0, algo, n, depth, root, total, max_nodes, P, cnt, per_ply,
                 M, MP, V, B)
        if cnt[ABORT]:
            return 0.0
        if (c > best) if maximizing else (c < best):
            best = c
            copy_vector(B[ply], V[ply + 1], n)
            best_m = m
        if prune:
            if maximizing:
                if best >= beta:
                    if i < k - 1:
                        cnt[CUTS] += 1
                    break
                alpha = max(alpha, best)
            else:
                if best <= alpha:
                    if i < k - 1:
                        cnt[CUTS] += 1
                    break
                beta = min(beta, best)
    if ply == 0:
        cnt[BEST] = best_m
    copy_vector(V[ply], B[ply], n)
    return best
