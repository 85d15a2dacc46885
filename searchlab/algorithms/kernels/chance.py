"""Compiled (numba) expectiminimax, alphabeta-emm, Star1 and Star2 on the synthetic chance tree.

``run_chance_kernel(tree, algorithm, bounds, outcome_order, max_nodes)`` searches a
``ChanceTree`` (docs/chance-tree-spec.md) in natural move order and returns the same
``SearchResult`` as ``searchlab.algorithms.chance.search_chance`` (engine "kernel"), node for
node: value bit for bit, best move, nodes, leaves, chance_nodes, cutoffs, per_ply, and
extra's chance_cutoffs, probes, probe_cutoffs and probe_reuses (tests/algorithms/
test_chance_kernel.py compares them, also under NUMBA_DISABLE_JIT=1). The kernel is one
recursive function repeating searchlab/algorithms/chance.py operation for operation (the same
float operations in the same order). It is compiled on first use for one explicit signature
and kept in numba's on-disk cache (kernels/_recursive.py: why the signature makes that
possible). The key hashing (SplitMix64, fixed by docs/trees.md) comes from _alphabeta.py.
"""

from __future__ import annotations

import math
import time

import numpy as np
from numba import njit, types
from numba.typed import Dict

from searchlab.algorithms.kernels._alphabeta import child_key, unit
from searchlab.algorithms.kernels._recursive import ready
from searchlab.algorithms.result import SearchResult
from searchlab.errors import InvalidParameterError, UnsupportedError

INF = np.inf

ALG_EMM, ALG_ABEMM, ALG_STAR1, ALG_STAR2 = 0, 1, 2, 3
ALGORITHMS = {"expectiminimax": ALG_EMM, "alphabeta-emm": ALG_ABEMM, "star1": ALG_STAR1, "star2": ALG_STAR2}
# counters
NODES, LEAVES, CHANCE, CUTS, CHANCE_CUTS, PROBES, PROBE_CUTS, REUSES, ABORT, BAD, BEST = range(11)
KIND_EXACT, KIND_LOWER, KIND_UPPER = 0, 1, 2
_KEY = types.Tuple((types.uint64, types.int64, types.int64))


@njit(cache=True)
def _leaf(key, low, high, levels):
    if levels > 0:
        return low + (high - low) * np.float64(key % np.uint64(levels)) / np.float64(levels - 1)
    return low + (high - low) * unit(key)


@njit(cache=True)
def _bound_sum(probs, order, arr, skip):
    """Σ p_j arr[j] over search positions j (``skip`` excluded), in search order."""
    s = 0.0
    for j in range(order.shape[0]):
        if j != skip:
            s += probs[order[j]] * arr[j]
    return s


_F, _I, _A1, _A2 = types.float64, types.int64, types.float64[:], types.float64[:, :]
# explicit signature: what makes the self-recursive function loadable from the on-disk cache
_REC_SIGNATURE = _F(types.uint64, _I, _F, _F, _I, _I, _I, _F, _F, _I, _F, _F, _F, _A1, types.int64[:],
                    _I, types.int64[:], types.int64[:], types.DictType(_KEY, _F), types.DictType(_KEY, _I),
                    _A1, _A2, _A2, types.boolean[:, :], _A2)


@njit(cache=True)          # compiled for _REC_SIGNATURE by ready() on first use
def _rec(key, level, alpha, beta, algo, b, d, low, high, levels, lo_b, hi_b, tol, probs, order,
         max_nodes, cnt, per_ply, memo_v, memo_k, root_vals, s_lo, s_hi, s_done, s_vals):
    """One node (a call of the reference's algorithm on it); returns its value (or a bound)."""
    cnt[NODES] += 1
    if cnt[NODES] > max_nodes:
        cnt[ABORT] = 1
        return 0.0
    per_ply[level] += 1
    if level >= 2 * d:
        cnt[LEAVES] += 1
        v = _leaf(key, low, high, levels)
        if v < lo_b or v > hi_b:
            cnt[BAD] = 1
            cnt[ABORT] = 1
        return v
    n = order.shape[0]
    if level % 2 == 1:                                       # chance node
        cnt[CHANCE] += 1
        if algo == ALG_EMM or algo == ALG_ABEMM:
            vals = s_vals[level]
            for j in range(n):
                i = order[j]
                vals[i] = _rec(child_key(key, i), level + 1, -INF, INF, algo, b, d, low, high, levels,
                               lo_b, hi_b, tol, probs, order, max_nodes, cnt, per_ply, memo_v, memo_k, root_vals, s_lo, s_hi, s_done, s_vals)
                if cnt[ABORT]:
                    return 0.0
            total = 0.0
            for i in range(n):
                total += probs[i] * vals[i]
            return total
        lo, hi, done, vals = s_lo[level], s_hi[level], s_done[level], s_vals[level]
        for j in range(n):                                   # this level's scratch rows, reset
            lo[j] = lo_b
            hi[j] = hi_b
            done[j] = False
        # the initial test: the window may lie outside [L, U] already
        upper = _bound_sum(probs, order, hi, -1)
        if upper <= alpha - tol:
            cnt[CUTS] += 1
            cnt[CHANCE_CUTS] += 1
            return upper + tol / 2
        lower = _bound_sum(probs, order, lo, -1)
        if lower >= beta + tol:
            cnt[CUTS] += 1
            cnt[CHANCE_CUTS] += 1
            return lower - tol / 2
        if algo == ALG_STAR2:
            for j in range(n):
                i = order[j]
                ck = child_key(key, i)
                clevel = level + 1
                if clevel < 2 * d and clevel % 2 == 1:
                    pass                                     # a chance child: not probed (never here)
                else:
                    cnt[NODES] += 1                          # the probe's visit of the child
                    if cnt[NODES] > max_nodes:
                        cnt[ABORT] = 1
                        return 0.0
                    per_ply[clevel] += 1
                    if clevel >= 2 * d:
                        cnt[LEAVES] += 1
                        v = _leaf(ck, low, high, levels)
                        if v < lo_b or v > hi_b:
                            cnt[BAD] = 1
                            cnt[ABORT] = 1
                            return 0.0
                        vals[i] = v
                        done[i] = True
                        lo[j] = v
                        hi[j] = v
                    else:
                        grand = child_key(ck, 0)
                        p = probs[i]
                        cnt[PROBES] += 1
                        if clevel % 4 == 0:                  # a MAX child: a lower bound
                            rest_lo = _bound_sum(probs, order, lo, j)
                            bb = (beta - rest_lo + 2 * tol) / p
                            if hi[j] + tol < bb:
                                bb = hi[j] + tol
                            r = _rec(grand, clevel + 1, lo[j] - tol, bb, algo, b, d, low, high, levels,
                                     lo_b, hi_b, tol, probs, order, max_nodes, cnt, per_ply, memo_v, memo_k, root_vals, s_lo, s_hi, s_done, s_vals)
                            if cnt[ABORT]:
                                return 0.0
                            if r > lo[j]:
                                lo[j] = r
                            kind = KIND_LOWER if r >= bb else KIND_EXACT
                        else:                                # a MIN child: an upper bound
                            rest_hi = _bound_sum(probs, order, hi, j)
                            aa = (alpha - rest_hi - 2 * tol) / p
                            if lo[j] - tol > aa:
                                aa = lo[j] - tol
                            r = _rec(grand, clevel + 1, aa, hi[j] + tol, algo, b, d, low, high, levels,
                                     lo_b, hi_b, tol, probs, order, max_nodes, cnt, per_ply, memo_v, memo_k, root_vals, s_lo, s_hi, s_done, s_vals)
                            if cnt[ABORT]:
                                return 0.0
                            if r < hi[j]:
                                hi[j] = r
                            kind = KIND_UPPER if r <= aa else KIND_EXACT
                        mk = (grand, np.int64(clevel + 1), np.int64((clevel + 2) // 2))
                        memo_v[mk] = r
                        memo_k[mk] = kind
                upper = _bound_sum(probs, order, hi, -1)
                if upper <= alpha - tol:
                    cnt[CUTS] += 1
                    cnt[CHANCE_CUTS] += 1
                    cnt[PROBE_CUTS] += 1
                    return upper + tol / 2
                lower = _bound_sum(probs, order, lo, -1)
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
            rest_hi = _bound_sum(probs, order, hi, j)
            rest_lo = _bound_sum(probs, order, lo, j)
            a = (alpha - rest_hi - 2 * tol) / p
            if lo[j] - tol > a:
                a = lo[j] - tol
            bb = (beta - rest_lo + 2 * tol) / p
            if hi[j] + tol < bb:
                bb = hi[j] + tol
            c = _rec(child_key(key, i), level + 1, a, bb, algo, b, d, low, high, levels, lo_b, hi_b, tol,
                     probs, order, max_nodes, cnt, per_ply, memo_v, memo_k, root_vals, s_lo, s_hi, s_done, s_vals)
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
            upper = _bound_sum(probs, order, hi, -1)
            if upper <= alpha - tol:
                if j + 1 < n:
                    cnt[CUTS] += 1
                    cnt[CHANCE_CUTS] += 1
                return upper + tol / 2
            lower = _bound_sum(probs, order, lo, -1)
            if lower >= beta + tol:
                if j + 1 < n:
                    cnt[CUTS] += 1
                    cnt[CHANCE_CUTS] += 1
                return lower - tol / 2
        total = 0.0
        for i in range(n):
            total += probs[i] * vals[i]
        return total
    # a decision node: MAX at level % 4 == 0
    maximizing = level % 4 == 0
    v = -INF if maximizing else INF
    best = -1
    for m in range(b):
        ck = child_key(key, m)
        c = 0.0
        reused = False
        if algo == ALG_STAR2 and len(memo_v) > 0:
            mk = (ck, np.int64(level + 1), np.int64((level + 2) // 2))
            if mk in memo_v:
                gv = memo_v[mk]             # not pop(): numba types its result Optional, and an
                gk = memo_k[mk]             # Optional recursive argument defeats the cache
                del memo_v[mk]
                del memo_k[mk]
                if gk == KIND_EXACT or (gk == KIND_LOWER and gv >= beta) or (gk == KIND_UPPER and gv <= alpha):
                    cnt[REUSES] += 1
                    c = gv
                    reused = True
        if not reused:
            if algo == ALG_EMM:
                c = _rec(ck, level + 1, -INF, INF, algo, b, d, low, high, levels, lo_b, hi_b, tol, probs,
                         order, max_nodes, cnt, per_ply, memo_v, memo_k, root_vals, s_lo, s_hi, s_done, s_vals)
            else:
                c = _rec(ck, level + 1, alpha, beta, algo, b, d, low, high, levels, lo_b, hi_b, tol, probs,
                         order, max_nodes, cnt, per_ply, memo_v, memo_k, root_vals, s_lo, s_hi, s_done, s_vals)
            if cnt[ABORT]:
                return 0.0
        if level == 0:
            root_vals[m] = c
        if maximizing:
            if c > v:
                v = c
                best = m
            if algo != ALG_EMM:
                if v >= beta:
                    if m < b - 1:
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
                    if m < b - 1:
                        cnt[CUTS] += 1
                    break
                if v < beta:
                    beta = v
    if level == 0:
        cnt[BEST] = best
    return v


def kernel_supports_chance(tree, algorithm: str, ordering: str = "natural") -> bool:
    """Whether the compiled kernel covers this search: a ChanceTree (by class name, itself, not
    a wrapper around one: kernels sit below the tree models and recognise them by duck typing),
    natural move order."""
    return type(tree).__name__ == "ChanceTree" and algorithm in ALGORITHMS and ordering == "natural"


def run_chance_kernel(tree, algorithm: str, bounds=None, outcome_order: str = "natural",
                      max_nodes: int | None = None) -> SearchResult:
    """Search a ChanceTree with the compiled kernel (module docstring). Raises
    UnsupportedError for anything else, InvalidParameterError for bad bounds or a leaf
    outside them, like the reference."""
    if not kernel_supports_chance(tree, algorithm):
        raise UnsupportedError(f"no compiled chance kernel for {algorithm} on {tree!r}: use the reference engine")
    if outcome_order not in ("natural", "probability"):
        raise InvalidParameterError(f"outcome_order must be natural or probability; got {outcome_order!r}")
    lo_b, hi_b = (tree.low, tree.high) if bounds is None else (float(bounds[0]), float(bounds[1]))
    if not (math.isfinite(lo_b) and math.isfinite(hi_b) and lo_b < hi_b):
        raise InvalidParameterError(f"bounds must be finite with L < U; got {bounds!r}")
    probs = np.array(tree.probs, dtype=np.float64)
    idx = list(range(tree.n))
    if outcome_order == "probability":
        idx.sort(key=lambda i: -tree.probs[i])
    order = np.array(idx, dtype=np.int64)
    tol = 1e-9 * max(1.0, abs(lo_b), abs(hi_b))
    cnt = np.zeros(11, np.int64)
    per_ply = np.zeros(2 * tree.d + 1, np.int64)
    memo_v = Dict.empty(key_type=_KEY, value_type=types.float64)
    memo_k = Dict.empty(key_type=_KEY, value_type=types.int64)
    root_vals = np.full(tree.b, np.nan)
    # per-level scratch rows of the chance nodes (one node per level is open at a time)
    rows = 2 * tree.d + 1
    s_lo, s_hi = np.empty((rows, tree.n)), np.empty((rows, tree.n))
    s_done, s_vals = np.zeros((rows, tree.n), np.bool_), np.empty((rows, tree.n))
    limit = np.int64(2**62) if max_nodes is None else np.int64(max_nodes)
    t0 = time.perf_counter()
    with np.errstate(over="ignore"):
        value = ready(_rec, _REC_SIGNATURE)(np.uint64(tree.root_key), 0, -INF, INF, ALGORITHMS[algorithm], tree.b, tree.d, tree.low,
                     tree.high, tree.levels, lo_b, hi_b, tol, probs, order, limit, cnt, per_ply, memo_v, memo_k, root_vals, s_lo, s_hi, s_done, s_vals)
    wall = time.perf_counter() - t0
    if cnt[BAD]:
        raise InvalidParameterError(f"bounds: a leaf value lies outside [L, U] = [{lo_b}, {hi_b}]; give "
                                    "bounds that contain every utility and evaluation")
    ok = not cnt[ABORT]
    nodes = int(cnt[NODES])
    best = int(cnt[BEST]) if ok and cnt[BEST] >= 0 else None
    complete = ok and algorithm == "expectiminimax"
    best_moves = (tuple(m for m in range(tree.b) if root_vals[m] == value) if complete
                  else ((best,) if best is not None else ()))
    top = max((k for k, c in enumerate(per_ply) if c), default=0)
    return SearchResult(
        value=float(value) if ok else None, best_move=best, best_moves=best_moves,
        best_moves_complete=complete, nodes=nodes, leaves=int(cnt[LEAVES]), interior=nodes - int(cnt[LEAVES]),
        cutoffs=int(cnt[CUTS]), per_ply=tuple(int(x) for x in per_ply[:top + 1]), iterations=(nodes,),
        wall_time=wall, algorithm=algorithm, ordering="natural", engine="kernel", depth=-1,
        status="ok" if ok else "aborted", chance_nodes=int(cnt[CHANCE]),
        extra={"chance_cutoffs": int(cnt[CHANCE_CUTS]), "probes": int(cnt[PROBES]),
               "probe_cutoffs": int(cnt[PROBE_CUTS]), "probe_reuses": int(cnt[REUSES]),
               "bounds": (lo_b, hi_b), "outcome_order": outcome_order})
