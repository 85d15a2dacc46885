"""Compiled (numba) max^n, shallow pruning, paranoid and best-reply search on NPlayerTree.

``run_multiplayer_kernel(tree, algorithm, max_nodes)`` returns the same ``MultiResult`` as
``searchlab.algorithms.multiplayer.search_multiplayer`` (engine "kernel"), node for node:
vector, value, best move, nodes, leaves, cutoffs, per_ply (tests/algorithms/
test_multiplayer_kernel.py). A leaf's payoff vector is a function of its key
(docs/chance-tree-spec.md), so the recursion returns the key of the leaf whose vector a node
takes (and, for paranoid and BRS, its root-player value) and computes components on demand.
One self-recursive function, compiled on first use for one explicit signature, which is what
lets numba's on-disk cache hold it (kernels/_recursive.py); the key hashing
(SplitMix64, fixed by docs/trees.md) comes from _alphabeta.py.
"""

from __future__ import annotations

import math
import time

import numpy as np
from numba import njit, types

from searchlab.algorithms.kernels._alphabeta import GOLDEN, mix64, unit
from searchlab.algorithms.kernels._recursive import ready
from searchlab.algorithms.result import MultiResult
from searchlab.errors import UnsupportedError
from searchlab.hashing import VECTOR_SALT

SALT = np.uint64(VECTOR_SALT)
INF = np.inf

ALG_MAXN, ALG_SHALLOW, ALG_PARANOID, ALG_PARANOID_MM, ALG_BRS = range(5)
ALGORITHMS = {"maxn": ALG_MAXN, "maxn-shallow": ALG_SHALLOW, "paranoid": ALG_PARANOID,
              "paranoid-minimax": ALG_PARANOID_MM, "brs": ALG_BRS}
NODES, LEAVES, CUTS, ABORT, BEST = range(5)


@njit(cache=True)
def _component(leaf, j, n, constsum, levels, total):
    """Payoff j of the leaf with key ``leaf`` (NPlayerTree.utility_vector's component j)."""
    base = leaf ^ SALT
    if constsum:
        c = 0
        for t in range(total):
            if mix64(base + np.uint64(t + 1) * GOLDEN) % np.uint64(n) == np.uint64(j):
                c += 1
        return np.float64(c)
    z = mix64(base + np.uint64(j + 1) * GOLDEN)
    if levels > 0:
        return np.float64(z % np.uint64(levels))
    return unit(z)


_F, _I = types.float64, types.int64
_MREC_SIGNATURE = types.Tuple((_F, types.uint64))(
    types.uint64, _I, _I, _F, _F, _F, _I, _I, _I, _I, _I, types.boolean, _I, _I, _I,
    types.int64[:], types.int64[:])


@njit(cache=True)          # compiled for _MREC_SIGNATURE by ready() on first use
def _mrec(key, ply, mover, alpha, beta, bound, algo, n, b, d, root, constsum, levels, total,
          max_nodes, cnt, per_ply):
    """One node; returns (root player's value or 0.0 for max^n, key of the leaf it takes)."""
    cnt[NODES] += 1
    if cnt[NODES] > max_nodes:
        cnt[ABORT] = 1
        return 0.0, np.uint64(0)
    per_ply[ply] += 1
    if ply >= d:
        cnt[LEAVES] += 1
        if algo == ALG_MAXN or algo == ALG_SHALLOW:
            return 0.0, key
        return _component(key, root, n, constsum, levels, total), key
    best_leaf = np.uint64(0)
    best_m = -1
    if algo == ALG_MAXN or algo == ALG_SHALLOW:
        best_v = 0.0
        for m in range(b):
            ck = mix64(key + np.uint64(mover * b + m + 1) * GOLDEN)
            child_bound = np.float64(total) if best_m < 0 else np.float64(total) - best_v
            _, leaf = _mrec(ck, ply + 1, (mover + 1) % n, alpha, beta, child_bound, algo, n, b, d, root,
                            constsum, levels, total, max_nodes, cnt, per_ply)
            if cnt[ABORT]:
                return 0.0, np.uint64(0)
            cv = _component(leaf, mover, n, constsum, levels, total)
            if best_m < 0 or cv > best_v:
                best_v, best_leaf, best_m = cv, leaf, m
            if algo == ALG_SHALLOW and best_v >= bound and m < b - 1:
                cnt[CUTS] += 1
                break
        if ply == 0:
            cnt[BEST] = best_m
        return 0.0, best_leaf
    prune = algo != ALG_PARANOID_MM
    if algo == ALG_BRS:
        maximizing = ply % 2 == 0
        k_lo, k_hi = (0, 1) if maximizing else (1, n)
    else:
        maximizing = mover == root
        k_lo, k_hi = 0, 1
    count = (k_hi - k_lo) * b
    best = -INF if maximizing else INF
    i = 0
    done = False
    for k in range(k_lo, k_hi):
        p = (root + k) % n if algo == ALG_BRS else mover
        for m in range(b):
            ck = mix64(key + np.uint64(p * b + m + 1) * GOLDEN)
            c, leaf = _mrec(ck, ply + 1, (p + 1) % n, alpha, beta, 0.0, algo, n, b, d, root, constsum,
                            levels, total, max_nodes, cnt, per_ply)
            if cnt[ABORT]:
                return 0.0, np.uint64(0)
            if (c > best) if maximizing else (c < best):
                best, best_leaf, best_m = c, leaf, m
            if prune:
                if maximizing:
                    if best >= beta:
                        if i < count - 1:
                            cnt[CUTS] += 1
                        done = True
                        break
                    if best > alpha:
                        alpha = best
                else:
                    if best <= alpha:
                        if i < count - 1:
                            cnt[CUTS] += 1
                        done = True
                        break
                    if best < beta:
                        beta = best
            i += 1
        if done:
            break
    if ply == 0:
        cnt[BEST] = best_m
    return best, best_leaf


def kernel_supports_multiplayer(tree, algorithm: str) -> bool:
    """Whether the kernel covers this search: an NPlayerTree (by class name, itself, not a
    wrapper: kernels sit below the tree models and recognise them by duck typing), any of
    the algorithms, natural order (shallow pruning on the constant-sum variant only)."""
    return type(tree).__name__ == "NPlayerTree" and algorithm in ALGORITHMS and \
        (algorithm != "maxn-shallow" or tree.values == "constsum")


def run_multiplayer_kernel(tree, algorithm: str, max_nodes: int | None = None) -> MultiResult:
    """Search an NPlayerTree from its root with the compiled kernel (module docstring)."""
    if not kernel_supports_multiplayer(tree, algorithm):
        raise UnsupportedError(f"no compiled n-player kernel for {algorithm} on {tree!r}: use the reference engine")
    cnt = np.zeros(5, np.int64)
    per_ply = np.zeros(tree.d + 1, np.int64)
    limit = np.int64(2**62) if max_nodes is None else np.int64(max_nodes)
    t0 = time.perf_counter()
    with np.errstate(over="ignore"):
        value, leaf = ready(_mrec, _MREC_SIGNATURE)(np.uint64(tree.root_key), 0, 0, -INF, INF, float(tree.total), ALGORITHMS[algorithm],
                            tree.n_players, tree.b, tree.d, 0, tree.values == "constsum", tree.levels,
                            tree.total, limit, cnt, per_ply)
    wall = time.perf_counter() - t0
    ok = not cnt[ABORT]
    vec = tree.utility_vector((int(leaf), tree.d, 0)) if ok else None
    if ok and algorithm in ("maxn", "maxn-shallow"):
        value = vec[0]
    top = max((k for k, c in enumerate(per_ply) if c), default=0)
    nodes = int(cnt[NODES])
    return MultiResult(
        values=vec, value=float(value) if ok else None,
        best_move=int(cnt[BEST]) if ok and tree.d > 0 else None, nodes=nodes, leaves=int(cnt[LEAVES]),
        interior=nodes - int(cnt[LEAVES]), cutoffs=int(cnt[CUTS]), per_ply=tuple(int(x) for x in per_ply[:top + 1]),
        algorithm=algorithm, n_players=tree.n_players, root_player=0, depth=tree.d if math.isfinite(tree.d) else -1,
        wall_time=wall, status="ok" if ok else "aborted", engine="kernel")
