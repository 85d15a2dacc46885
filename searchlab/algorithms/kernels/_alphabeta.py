"""The compiled search: minimax and both alpha-beta forms on the implicit synthetic trees.

One iterative kernel (an explicit stack of per-ply arrays, no recursion, no allocation per node)
serves every tree model, algorithm and ordering; the choices are small integer codes tested in
well-predicted branches. It repeats, node for node, the reference algorithms of
searchlab/algorithms/reference.py and the orderings of searchlab/algorithms/ordering.py
(definitions: docs/trees.md, docs/iid-tree-spec.md).

The same kernel, run as natural-order minimax in *build* mode, fills the exact-value oracle
used by perfect and worst ordering (see _oracle.py).

Why a kernel beside the compiled engine, which runs the same searches over the trees'
primitives (searchlab/trees/*_compiled.py) with the same counts: it is faster on every one
measured, 1.1x to 13x (median 2.1x; benchmarks/tree_kernel_vs_engine.py), from its leaf loop at
the frontier and its specialised continuous i.i.d. loop. The engine serves what it lacks (PVS,
MTD(f), the dynamic orderings).

Every jitted function of the search lives in this one file on purpose: numba's on-disk cache
(cache=True) is invalidated only by edits to the file that defines the cached function, not by
edits to the files of the functions it calls. The one exception is the key arithmetic
(mix64, child_key, unit, order_draw, noise), fixed by docs/trees.md and shared by every compiled
tree and game: it lives once in hashing.py.

The 64-bit key arithmetic (docs/trees.md; mirrors searchlab/hashing.py): every constant is a
numpy uint64 and every operand is cast explicitly, because in numba (and numpy) uint64 combined
with int64 silently becomes float64. Under NUMBA_DISABLE_JIT these functions run on numpy
uint64 scalars, whose multiplications wrap (the caller silences numpy's overflow warning with
``np.errstate(over="ignore")``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from searchlab.algorithms.kernels.hashing_compiled import (GOLDEN, NOISE_SALT, ORDER_SALT, TWO_POW_M53,  # noqa: F401
                                                 child_key, mix64, noise, order_draw, unit)

_S11 = np.uint64(11)


# tree models
MODEL_IID = 0
MODEL_ORDERED = 1
MODEL_INCREMENTAL = 2
# orderings
ORD_NATURAL = 0
ORD_RANDOM = 1
ORD_PERFECT = 2
ORD_WORST = 3
ORD_STATIC = 4
# algorithms
ALG_MINIMAX = 0
ALG_ALPHABETA = 1
ALG_FAILHARD = 2
# oracle modes
ORACLE_NONE = 0
ORACLE_LOOKUP = 1
ORACLE_BUILD = 2
# status codes
STATUS_OK = 0
STATUS_ABORTED = 1
# counters array slots
C_NODES = 0
C_LEAVES = 1
C_CUTOFFS = 2
C_FAIL_HIGHS = 3        # cut events: v >= beta at MAX / v <= alpha at MIN, last child included
C_FIRST_FAIL_HIGHS = 4  # ... made by the first child searched

INF = np.inf


@njit(cache=True)
def leaf_value(model, key, stat, levels):
    """Value of a node at the horizon: i.i.d. from its key, else its (assigned/static) value.
    ``levels``: 0 continuous, K > 0 key mod K, -(T + 1) win/loss (1.0 when key >> 11 < T)."""
    if model == MODEL_IID:
        if levels > 0:
            return np.float64(key % np.uint64(levels))
        if levels < 0:
            return 1.0 if (key >> _S11) < np.uint64(-levels - 1) else 0.0
        return unit(key)
    return stat


@njit(cache=True)
def argsort_stable(vals, out, n, descending):
    """out[:n] = indices 0..n-1 stably sorted by vals (insertion sort; n is small)."""
    for k in range(n):
        out[k] = k
    for k in range(1, n):
        j = out[k]
        x = vals[j]
        m = k - 1
        if descending:
            while m >= 0 and vals[out[m]] < x:
                out[m + 1] = out[m]
                m -= 1
        else:
            while m >= 0 and vals[out[m]] > x:
                out[m + 1] = out[m]
                m -= 1
        out[m + 1] = j


@njit(cache=True)
def ordered_layout(key, b, w_best, w_random, rank, inv, draws, deltas):
    """The ordered tree's layout at the node with this key (docs/trees.md, OrderedTree).

    rank[i] = rank of natural child i (0 = best for the side to move); inv[r] = the natural
    index of rank r; deltas[r] = offset of rank r.
    """
    m = order_draw(key, 0)
    if m < w_best:
        for i in range(b):
            inv[i] = i
    elif m < w_best + w_random:
        for i in range(b):
            draws[i] = order_draw(key, 1 + i)
        argsort_stable(draws, inv, b, False)
    else:
        for r in range(b):
            inv[r] = b - 1 - r
    for r in range(b):
        rank[inv[r]] = r
    deltas[0] = 0.0
    for r in range(1, b):
        deltas[r] = deltas[r - 1] + 0.5 + order_draw(key, b + r)


@njit(cache=True)
def frontier_iid(key, b, alpha, beta, is_max, algo):
    """The leaves of a frontier node of a continuous i.i.d. tree in natural order, for
    alpha-beta (either form) or minimax (not at the root): returns (value, leaves searched,
    cut event). The hot loop of the benchmark, specialised by hand."""
    if algo == ALG_ALPHABETA:
        if is_max:
            v = -INF
            for j in range(b):
                c = unit(child_key(key, j))
                if c > v:
                    v = c
                if v >= beta:
                    return v, j + 1, True
                if v > alpha:
                    alpha = v
            return v, b, False
        v = INF
        for j in range(b):
            c = unit(child_key(key, j))
            if c < v:
                v = c
            if v <= alpha:
                return v, j + 1, True
            if v < beta:
                beta = v
        return v, b, False
    if algo == ALG_FAILHARD:
        if is_max:
            for j in range(b):
                c = unit(child_key(key, j))
                if c >= beta:
                    return beta, j + 1, True
                if c > alpha:
                    alpha = c
            return alpha, b, False
        for j in range(b):
            c = unit(child_key(key, j))
            if c <= alpha:
                return alpha, j + 1, True
            if c < beta:
                beta = c
        return beta, b, False
    if is_max:
        v = -INF
        for j in range(b):
            c = unit(child_key(key, j))
            if c > v:
                v = c
        return v, b, False
    v = INF
    for j in range(b):
        c = unit(child_key(key, j))
        if c < v:
            v = c
    return v, b, False


@njit(cache=True)
def frontier2_iid(key, b, alpha, beta, is_max, algo):
    """A node at ply depth-2 of a continuous i.i.d. tree in natural order (not the root), its
    frontier children and their leaves on local variables. Returns (value, frontier nodes,
    leaves, cutoffs, cut events, first-move cut events) of the node and its subtree."""
    n1 = 0
    n2 = 0
    cutoffs = 0
    fh = 0
    ffh = 0
    if algo == ALG_FAILHARD:
        v = alpha if is_max else beta
    else:
        v = -INF if is_max else INF
    for j in range(b):
        n1 += 1
        c, k, r = frontier_iid(child_key(key, j), b, alpha, beta, not is_max, algo)
        n2 += k
        if r:
            fh += 1
            if k == 1:
                ffh += 1
            if k < b:
                cutoffs += 1
        cut = False
        if algo == ALG_ALPHABETA:
            if is_max:
                if c > v:
                    v = c
                if v >= beta:
                    cut = True
                elif v > alpha:
                    alpha = v
            else:
                if c < v:
                    v = c
                if v <= alpha:
                    cut = True
                elif v < beta:
                    beta = v
        elif algo == ALG_FAILHARD:
            if is_max:
                if c >= beta:
                    v = beta
                    cut = True
                elif c > alpha:
                    alpha = c
                    v = c
            else:
                if c <= alpha:
                    v = alpha
                    cut = True
                elif c < beta:
                    beta = c
                    v = c
        else:
            if is_max:
                if c > v:
                    v = c
            elif c < v:
                v = c
        if cut:
            fh += 1
            if j == 0:
                ffh += 1
            if j < b - 1:
                cutoffs += 1
            break
    return v, n1, n2, cutoffs, fh, ffh


@njit(cache=True)
def search_kernel(model, b, depth, root_key, levels, w_best, w_random,
                  scale, good, a_coef, c_coef,
                  algo, ordering, salt, oracle, oracle_off, oracle_mode,
                  max_nodes, counters, per_ply, root_vals):
    """Search the tree to ply ``depth``; returns (status, value, best_move).

    counters[C_NODES, C_LEAVES, C_CUTOFFS, C_FAIL_HIGHS, C_FIRST_FAIL_HIGHS] and
    per_ply[0..depth] are filled in place;
    root_vals[i] receives the value of root move i (minimax only). best_move is -1 if unset.
    ``depth`` must not exceed the tree's d (a node at ply ``depth`` is evaluated as a leaf).

    Structure: an explicit stack of per-ply arrays for the nodes above the last interior ply;
    a node at ply depth-1 (a *frontier* node, whose children are leaves) searches its leaves
    in a tight loop on local variables, which is where nearly all the work is.
    """
    d1 = depth + 1
    bb = max(b, 1)
    keys = np.zeros(d1, np.uint64)
    stat = np.zeros(d1, np.float64)        # ordered: assigned value; incremental: static value
    alpha = np.zeros(d1, np.float64)
    beta = np.zeros(d1, np.float64)
    v = np.zeros(d1, np.float64)
    pos = np.zeros(d1, np.int64)            # children started at this ply's node
    cur = np.zeros(d1, np.int64)            # natural index of the child being searched
    lidx = np.zeros(d1, np.int64)           # level-order index (oracle modes only)
    perm = np.zeros((d1, bb), np.int64)     # search order (natural indices), if not natural
    ckeys = np.zeros((d1, bb), np.uint64)   # children's keys, if precomputed
    cstat = np.zeros((d1, bb), np.float64)  # children's assigned/static values, if precomputed
    fbuf = np.zeros(bb, np.float64)
    ubuf = np.zeros(bb, np.uint64)
    rank = np.zeros(bb, np.int64)
    inv = np.zeros(bb, np.int64)
    deltas = np.zeros(bb, np.float64)

    sorted_order = ordering != ORD_NATURAL
    pre = ordering != ORD_NATURAL           # children's keys (and statics) computed on entry
    need_lidx = oracle_mode != ORACLE_NONE
    build = oracle_mode == ORACLE_BUILD
    frontier = depth - 1
    fast = model == MODEL_IID and levels == 0 and ordering == ORD_NATURAL
    fast2 = fast and not build               # the oracle build stores frontier values
    two_ply = b + b * b

    nodes = 0
    leaves = 0
    cutoffs = 0
    fail_highs = 0
    first_fail_highs = 0
    status = STATUS_OK
    value = 0.0
    best = -1

    # ---- the root -----------------------------------------------------------------------
    nodes += 1
    if nodes > max_nodes:
        counters[C_NODES] = nodes
        return STATUS_ABORTED, value, best
    per_ply[0] += 1
    keys[0] = root_key
    if depth == 0:
        leaves += 1
        counters[C_NODES] = nodes
        counters[C_LEAVES] = leaves
        counters[C_CUTOFFS] = cutoffs
        return STATUS_OK, leaf_value(model, root_key, 0.0, levels), best

    t = 0
    entering = True
    while True:
        if entering:
            # ---- set up interior node t (keys[t], stat[t], lidx[t] already set) ----------
            entering = False
            is_max = (t & 1) == 0
            if t == 0:
                alpha[0] = -INF
                beta[0] = INF
            else:
                alpha[t] = alpha[t - 1]
                beta[t] = beta[t - 1]
            key = keys[t]
            st = stat[t]
            if model == MODEL_ORDERED:
                ordered_layout(key, b, w_best, w_random, rank, inv, fbuf, deltas)
                for i in range(b):
                    if is_max:
                        cstat[t, i] = st - deltas[rank[i]]
                    else:
                        cstat[t, i] = st + deltas[rank[i]]
                if ordering == ORD_PERFECT:
                    for r in range(b):
                        perm[t, r] = inv[r]
                elif ordering == ORD_WORST:
                    for r in range(b):
                        perm[t, r] = inv[b - 1 - r]
            if pre:
                for i in range(b):
                    ckeys[t, i] = child_key(key, i)
                if model == MODEL_INCREMENTAL:
                    sign = 1.0 if is_max else -1.0
                    for i in range(b):
                        edge = sign * scale[t] * (a_coef * good[t, i]
                                                  + c_coef * noise(ckeys[t, i]))
                        cstat[t, i] = st + edge
                if ordering == ORD_RANDOM:
                    for i in range(b):
                        ubuf[i] = mix64(ckeys[t, i] ^ salt)
                    argsort_stable(ubuf, perm[t], b, False)
                elif (ordering == ORD_PERFECT or ordering == ORD_WORST) \
                        and model != MODEL_ORDERED:
                    if t == frontier:
                        for i in range(b):
                            fbuf[i] = leaf_value(model, ckeys[t, i], cstat[t, i], levels)
                    else:
                        base = oracle_off[t + 1] + lidx[t] * b
                        for i in range(b):
                            fbuf[i] = oracle[base + i]
                    argsort_stable(fbuf, perm[t], b, is_max == (ordering == ORD_PERFECT))
                elif ordering == ORD_STATIC:
                    for i in range(b):
                        fbuf[i] = cstat[t, i]
                    argsort_stable(fbuf, perm[t], b, is_max)

            if t < frontier and not (fast2 and t == frontier - 1 and t > 0
                                     and nodes + two_ply <= max_nodes):
                v[t] = -INF if is_max else INF
                pos[t] = 0
            else:
                if t < frontier:
                    c, n1, n2, cuts, fh, ffh = frontier2_iid(key, b, alpha[t], beta[t], is_max,
                                                             algo)
                    nodes += n1 + n2
                    per_ply[t + 1] += n1
                    per_ply[t + 2] += n2
                    leaves += n2
                    cutoffs += cuts
                    fail_highs += fh
                    first_fail_highs += ffh
                elif fast and t > 0 and nodes + b <= max_nodes:
                    c, k, ret = frontier_iid(key, b, alpha[t], beta[t], is_max, algo)
                    nodes += k
                    per_ply[t + 1] += k
                    leaves += k
                    if ret:
                        fail_highs += 1
                        if k == 1:
                            first_fail_highs += 1
                        if k < b:
                            cutoffs += 1
                else:
                    # ---- a frontier node: its leaves, on local variables ------------
                    a_ = alpha[t]
                    b_ = beta[t]
                    vv = -INF if is_max else INF
                    sign = 1.0 if is_max else -1.0
                    sc = scale[t] if model == MODEL_INCREMENTAL else 0.0
                    k = 0
                    ret = False
                    for p in range(b):
                        i = perm[t, p] if sorted_order else p
                        nodes += 1
                        if nodes > max_nodes:
                            status = STATUS_ABORTED
                            break
                        k += 1
                        if model == MODEL_IID:
                            if pre:
                                ck = ckeys[t, i]
                            else:
                                ck = child_key(key, i)
                            if levels > 0:
                                c = np.float64(ck % np.uint64(levels))
                            elif levels < 0:
                                c = 1.0 if (ck >> _S11) < np.uint64(-levels - 1) else 0.0
                            else:
                                c = unit(ck)
                        elif model == MODEL_ORDERED:
                            c = cstat[t, i]
                        else:
                            if pre:
                                c = cstat[t, i]
                            else:
                                c = st + sign * sc * (a_coef * good[t, i]
                                                      + c_coef * noise(child_key(key, i)))
                        if algo == ALG_ALPHABETA:
                            if is_max:
                                if c > vv:
                                    vv = c
                                    if t == 0:
                                        best = i
                                if vv >= b_:
                                    ret = True
                                    break
                                if vv > a_:
                                    a_ = vv
                            else:
                                if c < vv:
                                    vv = c
                                if vv <= a_:
                                    ret = True
                                    break
                                if vv < b_:
                                    b_ = vv
                        elif algo == ALG_FAILHARD:
                            if is_max:
                                if c >= b_:
                                    vv = b_
                                    ret = True
                                    break
                                if c > a_:
                                    a_ = c
                                    if t == 0:
                                        best = i
                            else:
                                if c <= a_:
                                    vv = a_
                                    ret = True
                                    break
                                if c < b_:
                                    b_ = c
                        else:
                            if t == 0:
                                root_vals[i] = c
                            if is_max:
                                if c > vv:
                                    vv = c
                                    if t == 0:
                                        best = i
                            elif c < vv:
                                vv = c
                    per_ply[t + 1] += k
                    leaves += k
                    if status == STATUS_ABORTED:
                        break
                    if ret:
                        fail_highs += 1
                        if k == 1:
                            first_fail_highs += 1
                        if k < b:
                            cutoffs += 1
                    elif algo == ALG_FAILHARD:
                        vv = a_ if is_max else b_
                    c = vv
                # node t returns c
                if build:
                    oracle[oracle_off[t] + lidx[t]] = c
                if t == 0:
                    value = c
                    break
                t -= 1
                # ---- return values up while nodes finish --------------------------------
                done = False
                while True:
                    p = pos[t]
                    ret = False
                    r = 0.0
                    if algo == ALG_ALPHABETA:
                        if (t & 1) == 0:
                            if c > v[t]:
                                v[t] = c
                                if t == 0:
                                    best = cur[0]
                            if v[t] >= beta[t]:
                                ret = True
                            elif v[t] > alpha[t]:
                                alpha[t] = v[t]
                        else:
                            if c < v[t]:
                                v[t] = c
                            if v[t] <= alpha[t]:
                                ret = True
                            elif v[t] < beta[t]:
                                beta[t] = v[t]
                        r = v[t]
                        if ret:
                            fail_highs += 1
                            if p == 1:
                                first_fail_highs += 1
                            if p < b:
                                cutoffs += 1
                        elif p == b:
                            ret = True
                    elif algo == ALG_FAILHARD:
                        cut = False
                        if (t & 1) == 0:
                            if c >= beta[t]:
                                ret = True
                                cut = True
                                r = beta[t]
                            elif c > alpha[t]:
                                alpha[t] = c
                                if t == 0:
                                    best = cur[0]
                            if not ret and p == b:
                                ret = True
                                r = alpha[t]
                        else:
                            if c <= alpha[t]:
                                ret = True
                                cut = True
                                r = alpha[t]
                            elif c < beta[t]:
                                beta[t] = c
                            if not ret and p == b:
                                ret = True
                                r = beta[t]
                        if cut:
                            fail_highs += 1
                            if p == 1:
                                first_fail_highs += 1
                            if p < b:
                                cutoffs += 1
                    else:  # minimax
                        if t == 0:
                            root_vals[cur[0]] = c
                        if (t & 1) == 0:
                            if c > v[t]:
                                v[t] = c
                                if t == 0:
                                    best = cur[0]
                        else:
                            if c < v[t]:
                                v[t] = c
                        if p == b:
                            ret = True
                            r = v[t]
                    if not ret:
                        break
                    if build:
                        oracle[oracle_off[t] + lidx[t]] = r
                    if t == 0:
                        value = r
                        done = True
                        break
                    t -= 1
                    c = r
                if done:
                    break

        # ---- enter the next child of node t (an interior node: t + 1 <= frontier) ------------
        p = pos[t]
        i = perm[t, p] if sorted_order else p
        pos[t] = p + 1
        cur[t] = i
        if pre:
            ck = ckeys[t, i]
        else:
            ck = child_key(keys[t], i)
        if model == MODEL_ORDERED:
            cs = cstat[t, i]
        elif model == MODEL_INCREMENTAL:
            if pre:
                cs = cstat[t, i]
            else:
                sign = 1.0 if (t & 1) == 0 else -1.0
                cs = stat[t] + sign * scale[t] * (a_coef * good[t, i] + c_coef * noise(ck))
        else:
            cs = 0.0
        t1 = t + 1
        nodes += 1
        if nodes > max_nodes:
            status = STATUS_ABORTED
            break
        per_ply[t1] += 1
        keys[t1] = ck
        stat[t1] = cs
        if need_lidx:
            lidx[t1] = lidx[t] * b + i
        t = t1
        entering = True

    counters[C_NODES] = nodes
    counters[C_LEAVES] = leaves
    counters[C_CUTOFFS] = cutoffs
    counters[C_FAIL_HIGHS] = fail_highs
    counters[C_FIRST_FAIL_HIGHS] = first_fail_highs
    return status, value, best
