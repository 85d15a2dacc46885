"""The compiled chance search (private): searchlab/algorithms/chance_search.py's expectiminimax,
alphabeta-emm, Star1 and Star2 repeated operation for operation in numba over a chance game's
primitives (the contract: searchlab.contracts.compiled_chance).

This file is a template: ``searchlab.algorithms.compiled.family.engine`` imports, per game, a
copy whose marker block imports the game's primitives under the names below, so the search is
written once and numba caches each game's copy on disk. ``_rec`` is self-recursive, so it is
compiled for one explicit signature (``signature``), the form numba's cache can hold
(kernels/_recursive.py).

Layout: positions in a per-ply stack ``S`` (row ply = the node at that ply; the rows above a
node are its children and the static ordering's scratch); a chance node's probabilities in
``PR[ply]``, its search order in ``O[ply]``, its outcome bounds and values in per-ply scratch
rows; decision moves in ``M[ply]``. Counters in ``cnt``; a node budget sets ``cnt[ABORT]`` and
every caller returns at once (the reference's SearchAborted). Star2's kept probe results are
two typed dicts keyed (hash_key, ply, decisions), as the reference's ``probed``. Orderings:
natural and static (best first for the side to move by the child's static value, a stable
sort); outcome orders natural and by descending probability (a stable sort).
"""

from __future__ import annotations

import numpy as np
from numba import njit, typeof, types
from numba.typed import Dict

# <primitives>
is_terminal = is_chance = max_to_move = utility = evaluate = gen_moves = outcomes = play = hash_key = None
# </primitives>

ALG_EMM, ALG_ABEMM, ALG_STAR1, ALG_STAR2 = range(4)
NODES, LEAVES, CHANCE, CUTS, CHANCE_CUTS, PROBES, PROBE_CUTS, REUSES, ABORT, BAD, BEST = range(11)
N_COUNTERS = 11
KIND_EXACT, KIND_LOWER, KIND_UPPER = 0, 1, 2
INF = np.inf
KEY = types.Tuple((types.uint64, types.int64, types.int64))


@njit(cache=True)
def new_memos():
    """The search's two memo tables (values, and bound kinds), made in compiled code: a typed
    Dict made from Python compiles its constructor in every process (0.13 s each)."""
    return (Dict.empty(key_type=KEY, value_type=types.float64),
            Dict.empty(key_type=KEY, value_type=types.int64))


def signature(S, P):
    """_rec's explicit signature for state rows like ``S`` and parameters like ``P``."""
    F, I = types.float64, types.int64
    A1F, A2F, A2I = types.float64[:], types.float64[:, :], types.int64[:, :]
    return F(typeof(S), I, I, F, F, I, I, F, F, F, types.boolean, typeof(P), types.int64[:], I,
             types.int64[:], types.DictType(KEY, F), types.DictType(KEY, I), A1F, A2F, A2F, types.boolean[:, :],
             A2F, A2I, A2F, A2I, types.int64[:], A1F, A1F)


@njit(cache=True)
def static_value(s, P, probs, scratch):
    """chance._static: utility if terminal; at a chance node the expectation (natural order) of
    its outcomes' static values (an outcome is never a chance node); else the evaluation."""
    if is_terminal(s, P):
        return utility(s, P)
    if is_chance(s, P):
        n = outcomes(s, P, probs)
        total = 0.0
        for i in range(n):
            play(s, i, P, scratch)
            if is_terminal(scratch, P):
                v = utility(scratch, P)
            else:
                v = evaluate(scratch, P)
            total += probs[i] * v
        return total
    return evaluate(s, P)


@njit(cache=True)
def order_moves(S, ply, P, static_order, M, PR, keys):
    """The decision node S[ply]'s moves into M[ply] in search order (ChanceContext.moves:
    natural, or a stable sort by sign · the child's static value); their number."""
    s = S[ply]
    k = gen_moves(s, P, M[ply])
    if static_order and k > 1:
        sign = -1.0 if max_to_move(s, P) else 1.0
        child, scratch = S[ply + 1], S[ply + 2]
        for i in range(k):
            play(s, M[ply, i], P, child)
            keys[i] = sign * static_value(child, P, PR[ply + 1], scratch)
        for i in range(1, k):                  # stable insertion sort
            j = i
            while j > 0 and keys[j] < keys[j - 1]:
                keys[j], keys[j - 1] = keys[j - 1], keys[j]
                M[ply, j], M[ply, j - 1] = M[ply, j - 1], M[ply, j]
                j -= 1
    return k


@njit(cache=True)
def order_outcomes(s, P, by_probability, probs, order):
    """The chance node's probabilities into ``probs`` (natural order) and its search order into
    ``order`` (natural, or a stable sort by descending probability); their number."""
    n = outcomes(s, P, probs)
    for i in range(n):
        order[i] = i
    if by_probability:
        for i in range(1, n):
            j = i
            while j > 0 and probs[order[j]] > probs[order[j - 1]]:
                order[j], order[j - 1] = order[j - 1], order[j]
                j -= 1
    return n


@njit(cache=True)
def bound_sum(probs, order, n, arr, skip):
    """Σ p arr[j] over search positions j < n (``skip`` excluded), in search order."""
    s = 0.0
    for j in range(n):
        if j != skip:
            s += probs[order[j]] * arr[j]
    return s


@njit(cache=True)
def leaf(s, dec, depth, low, high, P, cnt, bad):
    """ChanceContext.visit after the count: (is a leaf, its value); a value outside [L, U]
    aborts the search (the wrapper raises the reference's error with bad[0])."""
    if is_terminal(s, P):
        v = utility(s, P)
    elif dec >= depth:
        v = evaluate(s, P)
    else:
        if is_chance(s, P):
            cnt[CHANCE] += 1
        return False, 0.0
    cnt[LEAVES] += 1
    if not (low <= v and v <= high):
        cnt[BAD] = 1
        cnt[ABORT] = 1
        bad[0] = v
    return True, v


@njit(cache=True)          # compiled for signature(S, P) by ready() on first use
def _rec(S, ply, dec, alpha, beta, algo, depth, low, high, tol, static_order, P, cnt, max_nodes,
         per_ply, memo_v, memo_k, root_vals, s_lo, s_hi, s_done, s_vals, M, PR, O, by_prob, keys, bad):
    """One node (a call of the reference's algorithm on S[ply]); returns its value or bound."""
    cnt[NODES] += 1
    if cnt[NODES] > max_nodes:
        cnt[ABORT] = 1
        return 0.0
    per_ply[ply] += 1
    s = S[ply]
    is_leaf, v = leaf(s, dec, depth, low, high, P, cnt, bad)
    if is_leaf:
        return v
    child = S[ply + 1]
    if is_chance(s, P):
        probs, order = PR[ply], O[ply]
        n = order_outcomes(s, P, by_prob[0] != 0, probs, order)
        vals = s_vals[ply]
        if algo == ALG_EMM or algo == ALG_ABEMM:
            for j in range(n):
                i = order[j]
                play(s, i, P, child)
                vals[i] = _rec(S, ply + 1, dec, -INF, INF, algo, depth, low, high, tol, static_order, P, cnt,
                               max_nodes, per_ply, memo_v, memo_k, root_vals, s_lo, s_hi, s_done, s_vals, M, PR,
                               O, by_prob, keys, bad)
                if cnt[ABORT]:
                    return 0.0
            total = 0.0
            for i in range(n):
                total += probs[i] * vals[i]
            return total
        lo, hi, done = s_lo[ply], s_hi[ply], s_done[ply]
        for j in range(n):
            lo[j] = low
            hi[j] = high
            done[j] = False
        upper = bound_sum(probs, order, n, hi, -1)
        if upper <= alpha - tol:
            cnt[CUTS] += 1
            cnt[CHANCE_CUTS] += 1
            return upper + tol / 2
        lower = bound_sum(probs, order, n, lo, -1)
        if lower >= beta + tol:
            cnt[CUTS] += 1
            cnt[CHANCE_CUTS] += 1
            return lower - tol / 2
        if algo == ALG_STAR2:
            for j in range(n):
                i = order[j]
                play(s, i, P, child)
                if not (dec < depth and not is_terminal(child, P) and is_chance(child, P)):
                    cnt[NODES] += 1                          # _probe's visit of the child
                    if cnt[NODES] > max_nodes:
                        cnt[ABORT] = 1
                        return 0.0
                    per_ply[ply + 1] += 1
                    cleaf, cv = leaf(child, dec, depth, low, high, P, cnt, bad)
                    if cnt[ABORT]:
                        return 0.0
                    if cleaf:
                        vals[i] = cv
                        done[i] = True
                        lo[j] = cv
                        hi[j] = cv
                    else:
                        order_moves(S, ply + 1, P, static_order, M, PR, keys)
                        grand = S[ply + 2]
                        play(child, M[ply + 1, 0], P, grand)
                        p = probs[i]
                        cnt[PROBES] += 1
                        if max_to_move(child, P):
                            rest_lo = bound_sum(probs, order, n, lo, j)
                            bb = (beta - rest_lo + 2 * tol) / p
                            if hi[j] + tol < bb:
                                bb = hi[j] + tol
                            r = _rec(S, ply + 2, dec + 1, lo[j] - tol, bb, algo, depth, low, high, tol,
                                     static_order, P, cnt, max_nodes, per_ply, memo_v, memo_k, root_vals, s_lo,
                                     s_hi, s_done, s_vals, M, PR, O, by_prob, keys, bad)
                            if cnt[ABORT]:
                                return 0.0
                            if r > lo[j]:
                                lo[j] = r
                            kind = KIND_LOWER if r >= bb else KIND_EXACT
                        else:
                            rest_hi = bound_sum(probs, order, n, hi, j)
                            aa = (alpha - rest_hi - 2 * tol) / p
                            if lo[j] - tol > aa:
                                aa = lo[j] - tol
                            r = _rec(S, ply + 2, dec + 1, aa, hi[j] + tol, algo, depth, low, high, tol,
                                     static_order, P, cnt, max_nodes, per_ply, memo_v, memo_k, root_vals, s_lo,
                                     s_hi, s_done, s_vals, M, PR, O, by_prob, keys, bad)
                            if cnt[ABORT]:
                                return 0.0
                            if r < hi[j]:
                                hi[j] = r
                            kind = KIND_UPPER if r <= aa else KIND_EXACT
                        mk = (hash_key(grand, P), np.int64(ply + 2), np.int64(dec + 1))
                        memo_v[mk] = r
                        memo_k[mk] = kind
                upper = bound_sum(probs, order, n, hi, -1)
                if upper <= alpha - tol:
                    cnt[CUTS] += 1
                    cnt[CHANCE_CUTS] += 1
                    cnt[PROBE_CUTS] += 1
                    return upper + tol / 2
                lower = bound_sum(probs, order, n, lo, -1)
                if lower >= beta + tol:
                    cnt[CUTS] += 1
                    cnt[CHANCE_CUTS] += 1
                    cnt[PROBE_CUTS] += 1
                    return lower - tol / 2
        for j in range(n):
            i = order[j]
            if done[i]:
                continue
            p = probs[i]
            rest_hi = bound_sum(probs, order, n, hi, j)
            rest_lo = bound_sum(probs, order, n, lo, j)
            a = (alpha - rest_hi - 2 * tol) / p
            if lo[j] - tol > a:
                a = lo[j] - tol
            bb = (beta - rest_lo + 2 * tol) / p
            if hi[j] + tol < bb:
                bb = hi[j] + tol
            play(s, i, P, child)
            c = _rec(S, ply + 1, dec, a, bb, algo, depth, low, high, tol, static_order, P, cnt, max_nodes,
                     per_ply, memo_v, memo_k, root_vals, s_lo, s_hi, s_done, s_vals, M, PR, O, by_prob, keys, bad)
            if cnt[ABORT]:
                return 0.0
            if c <= a:
                hi[j] = c
            elif c >= bb:
                lo[j] = c
            else:
                vals[i] = c
                done[i] = True
                lo[j] = c
                hi[j] = c
            upper = bound_sum(probs, order, n, hi, -1)
            if upper <= alpha - tol:
                if j + 1 < n:
                    cnt[CUTS] += 1
                    cnt[CHANCE_CUTS] += 1
                return upper + tol / 2
            lower = bound_sum(probs, order, n, lo, -1)
            if lower >= beta + tol:
                if j + 1 < n:
                    cnt[CUTS] += 1
                    cnt[CHANCE_CUTS] += 1
                return lower - tol / 2
        total = 0.0
        for i in range(n):
            total += probs[i] * vals[i]
        return total
    # a decision node
    k = order_moves(S, ply, P, static_order, M, PR, keys)
    maximizing = max_to_move(s, P)
    v = -INF if maximizing else INF
    best = -1
    for idx in range(k):
        m = M[ply, idx]
        play(s, m, P, child)
        c = 0.0
        reused = False
        if algo == ALG_STAR2 and len(memo_v) > 0:
            mk = (hash_key(child, P), np.int64(ply + 1), np.int64(dec + 1))
            if mk in memo_v:
                gv = memo_v[mk]             # not pop(): its Optional result defeats the cache
                gk = memo_k[mk]
                del memo_v[mk]
                del memo_k[mk]
                if gk == KIND_EXACT or (gk == KIND_LOWER and gv >= beta) or (gk == KIND_UPPER and gv <= alpha):
                    cnt[REUSES] += 1
                    c = gv
                    reused = True
        if not reused:
            if algo == ALG_EMM:
                c = _rec(S, ply + 1, dec + 1, -INF, INF, algo, depth, low, high, tol, static_order, P, cnt,
                         max_nodes, per_ply, memo_v, memo_k, root_vals, s_lo, s_hi, s_done, s_vals, M, PR, O,
                         by_prob, keys, bad)
            else:
                c = _rec(S, ply + 1, dec + 1, alpha, beta, algo, depth, low, high, tol, static_order, P, cnt,
                         max_nodes, per_ply, memo_v, memo_k, root_vals, s_lo, s_hi, s_done, s_vals, M, PR, O,
                         by_prob, keys, bad)
            if cnt[ABORT]:
                return 0.0
        if ply == 0:
            root_vals[m] = c
        if maximizing:
            if c > v:
                v = c
                best = m
            if algo != ALG_EMM:
                if v >= beta:
                    if idx < k - 1:
                        cnt[CUTS] += 1
                    break
                if v > alpha:
                    alpha = v
        else:
            if c < v:
                v = c
                best = m
            if algo != ALG_EMM:
                if v <= alpha:
                    if idx < k - 1:
                        cnt[CUTS] += 1
                    break
                if v < beta:
                    beta = v
    if ply == 0:
        cnt[BEST] = best
    return v
