"""The compiled chance engine for Pig: expectiminimax, alphabeta-emm, Star1 and Star2 over
searchlab/games/pig_compiled.py's primitives.

``run_compiled(game, algorithm, ordering, horizon, low, high, outcome_order, max_nodes)``
returns the same SearchResult as searchlab.algorithms.chance.search_chance (engine
"reference", not iterative), node for node: value bit for bit, best move(s), nodes, leaves,
chance_nodes, cutoffs, per_ply and extra's chance_cutoffs, probes, probe_cutoffs,
probe_reuses (tests/games/test_pig_compiled.py, also under NUMBA_DISABLE_JIT=1). One
recursive function repeats chance.py's algorithms operation for operation, with orderings
natural and static; Star2's kept probe results are a typed dict keyed, as the reference's
(hash key, ply, decisions), by the position itself with ply and decisions. It has an
explicit signature, so numba's on-disk cache holds it (kernels/_recursive.py). Positions
live in a per-ply stack ``S``; a chance node's outcome bounds in per-ply scratch rows.
"""

from __future__ import annotations

import math
import time

import numpy as np
from numba import njit, types
from numba.typed import Dict

from searchlab.algorithms.kernels._recursive import ready
from searchlab.algorithms.result import SearchResult
from searchlab.errors import InvalidParameterError
from searchlab.games import pig_compiled as G
from searchlab.games.pig import Pig

ALG_EMM, ALG_ABEMM, ALG_STAR1, ALG_STAR2 = range(4)
ALGORITHMS = {"expectiminimax": ALG_EMM, "alphabeta-emm": ALG_ABEMM, "star1": ALG_STAR1, "star2": ALG_STAR2}
NODES, LEAVES, CHANCE, CUTS, CHANCE_CUTS, PROBES, PROBE_CUTS, REUSES, ABORT, BAD, BEST = range(11)
KIND_EXACT, KIND_LOWER, KIND_UPPER = 0, 1, 2
MAX_MOVES = 2
INF = np.inf
_KEY = types.UniTuple(types.int64, 8)
_F, _I = types.float64, types.int64
_A2I, _A2F = types.int64[:, :], types.float64[:, :]
_SIGNATURE = _F(_A2I, _I, _I, _F, _F, _I, _I, _F, _F, _F, types.boolean, types.int64[:], types.float64[:],
                types.int64[:], _I, types.int64[:], types.int64[:], types.DictType(_KEY, _F),
                types.DictType(_KEY, _I), types.float64[:], _A2F, _A2F, types.boolean[:, :], _A2F, _A2I,
                types.float64[:])


@njit(cache=True)
def _key(s, ply, dec):
    return (s[0], s[1], s[2], s[3], s[4], s[5], np.int64(ply), np.int64(dec))


@njit(cache=True)
def _static(s, P, scratch):
    """chance._static: utility if terminal, the expectation of the outcomes' static values at
    a chance node (a Pig outcome is never a chance node), else the evaluation."""
    if G.is_terminal(s, P):
        return G.utility(s, P)
    if G.is_chance(s):
        total = 0.0
        dice = P[G.DICE]
        for o in range(dice):
            G.play(s, o, P, scratch)
            if G.is_terminal(scratch, P):
                v = G.utility(scratch, P)
            else:
                v = G.evaluate(scratch, P)
            total += (1.0 / dice) * v
        return total
    return G.evaluate(s, P)


@njit(cache=True)
def _moves(S, ply, P, static_order, M, keys):
    """The node S[ply]'s decision moves into M[ply] in search order (chance.ChanceContext.moves:
    natural, or a stable sort by sign * static value of the child); their number."""
    s = S[ply]
    k = G.gen_moves(s, P, M[ply])
    if static_order and k > 1:
        sign = -1.0 if G.max_to_move(s, P) else 1.0
        child, scratch = S[ply + 1], S[ply + 2]
        for i in range(k):
            G.play(s, M[ply, i], P, child)
            keys[i] = sign * _static(child, P, scratch)
        for i in range(1, k):                  # stable insertion sort
            j = i
            while j > 0 and keys[j] < keys[j - 1]:
                keys[j], keys[j - 1] = keys[j - 1], keys[j]
                M[ply, j], M[ply, j - 1] = M[ply, j - 1], M[ply, j]
                j -= 1
    return k


@njit(cache=True)
def _sum(probs, order, arr, skip):
    """Σ p arr[j] over search positions j (``skip`` excluded), in search order."""
    s = 0.0
    for j in range(order.shape[0]):
        if j != skip:
            s += probs[order[j]] * arr[j]
    return s


@njit(cache=True)
def _leaf(s, dec, depth, low, high, P, cnt, bad):
    """chance.ChanceContext.visit after the count: (is a leaf, its value); a value outside
    [L, U] aborts the search (the wrapper raises the reference's error)."""
    if G.is_terminal(s, P):
        v = G.utility(s, P)
    elif dec >= depth:
        v = G.evaluate(s, P)
    else:
        if G.is_chance(s):
            cnt[CHANCE] += 1
        return False, 0.0
    cnt[LEAVES] += 1
    if not (low <= v and v <= high):
        cnt[BAD] = 1
        cnt[ABORT] = 1
        bad[0] = v
    return True, v


@njit(cache=True)          # compiled for _SIGNATURE by ready() on first use
def _rec(S, ply, dec, alpha, beta, algo, depth, low, high, tol, static_order, P, probs, order, max_nodes,
         cnt, per_ply, memo_v, memo_k, root_vals, s_lo, s_hi, s_done, s_vals, M, keys):
    """One node (a call of the reference's algorithm on S[ply]); returns its value or bound."""
    cnt[NODES] += 1
    if cnt[NODES] > max_nodes:
        cnt[ABORT] = 1
        return 0.0
    per_ply[ply] += 1
    s = S[ply]
    leaf, v = _leaf(s, dec, depth, low, high, P, cnt, keys)    # keys[0]: a bad leaf value (aborts)
    if leaf:
        return v
    n = order.shape[0]
    child = S[ply + 1]
    if G.is_chance(s):
        vals = s_vals[ply]
        if algo == ALG_EMM or algo == ALG_ABEMM:
            for j in range(n):
                i = order[j]
                G.play(s, i, P, child)
                vals[i] = _rec(S, ply + 1, dec, -INF, INF, algo, depth, low, high, tol, static_order, P, probs,
                               order, max_nodes, cnt, per_ply, memo_v, memo_k, root_vals, s_lo, s_hi, s_done,
                               s_vals, M, keys)
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
        upper = _sum(probs, order, hi, -1)
        if upper <= alpha - tol:
            cnt[CUTS] += 1
            cnt[CHANCE_CUTS] += 1
            return upper + tol / 2
        lower = _sum(probs, order, lo, -1)
        if lower >= beta + tol:
            cnt[CUTS] += 1
            cnt[CHANCE_CUTS] += 1
            return lower - tol / 2
        if algo == ALG_STAR2:
            for j in range(n):
                i = order[j]
                G.play(s, i, P, child)
                if not (dec < depth and not G.is_terminal(child, P) and G.is_chance(child)):
                    cnt[NODES] += 1                          # _probe's visit of the child
                    if cnt[NODES] > max_nodes:
                        cnt[ABORT] = 1
                        return 0.0
                    per_ply[ply + 1] += 1
                    cleaf, cv = _leaf(child, dec, depth, low, high, P, cnt, keys)
                    if cnt[ABORT]:
                        return 0.0
                    if cleaf:
                        vals[i] = cv
                        done[i] = True
                        lo[j] = cv
                        hi[j] = cv
                    else:
                        _moves(S, ply + 1, P, static_order, M, keys)
                        G.play(child, M[ply + 1, 0], P, S[ply + 2])
                        p = probs[i]
                        cnt[PROBES] += 1
                        if G.max_to_move(child, P):
                            rest_lo = _sum(probs, order, lo, j)
                            bb = (beta - rest_lo + 2 * tol) / p
                            if hi[j] + tol < bb:
                                bb = hi[j] + tol
                            r = _rec(S, ply + 2, dec + 1, lo[j] - tol, bb, algo, depth, low, high, tol,
                                     static_order, P, probs, order, max_nodes, cnt, per_ply, memo_v, memo_k,
                                     root_vals, s_lo, s_hi, s_done, s_vals, M, keys)
                            if cnt[ABORT]:
                                return 0.0
                            if r > lo[j]:
                                lo[j] = r
                            kind = KIND_LOWER if r >= bb else KIND_EXACT
                        else:
                            rest_hi = _sum(probs, order, hi, j)
                            aa = (alpha - rest_hi - 2 * tol) / p
                            if lo[j] - tol > aa:
                                aa = lo[j] - tol
                            r = _rec(S, ply + 2, dec + 1, aa, hi[j] + tol, algo, depth, low, high, tol,
                                     static_order, P, probs, order, max_nodes, cnt, per_ply, memo_v, memo_k,
                                     root_vals, s_lo, s_hi, s_done, s_vals, M, keys)
                            if cnt[ABORT]:
                                return 0.0
                            if r < hi[j]:
                                hi[j] = r
                            kind = KIND_UPPER if r <= aa else KIND_EXACT
                        mk = _key(S[ply + 2], ply + 2, dec + 1)
                        memo_v[mk] = r
                        memo_k[mk] = kind
                upper = _sum(probs, order, hi, -1)
                if upper <= alpha - tol:
                    cnt[CUTS] += 1
                    cnt[CHANCE_CUTS] += 1
                    cnt[PROBE_CUTS] += 1
                    return upper + tol / 2
                lower = _sum(probs, order, lo, -1)
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
            rest_hi = _sum(probs, order, hi, j)
            rest_lo = _sum(probs, order, lo, j)
            a = (alpha - rest_hi - 2 * tol) / p
            if lo[j] - tol > a:
                a = lo[j] - tol
            bb = (beta - rest_lo + 2 * tol) / p
            if hi[j] + tol < bb:
                bb = hi[j] + tol
            G.play(s, i, P, child)
            c = _rec(S, ply + 1, dec, a, bb, algo, depth, low, high, tol, static_order, P, probs, order,
                     max_nodes, cnt, per_ply, memo_v, memo_k, root_vals, s_lo, s_hi, s_done, s_vals, M, keys)
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
            upper = _sum(probs, order, hi, -1)
            if upper <= alpha - tol:
                if j + 1 < n:
                    cnt[CUTS] += 1
                    cnt[CHANCE_CUTS] += 1
                return upper + tol / 2
            lower = _sum(probs, order, lo, -1)
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
    k = _moves(S, ply, P, static_order, M, keys)
    maximizing = G.max_to_move(s, P)
    v = -INF if maximizing else INF
    best = -1
    for idx in range(k):
        m = M[ply, idx]
        G.play(s, m, P, child)
        c = 0.0
        reused = False
        if algo == ALG_STAR2 and len(memo_v) > 0:
            mk = _key(child, ply + 1, dec + 1)
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
            c = _rec(S, ply + 1, dec + 1, alpha, beta, algo, depth, low, high, tol, static_order, P, probs,
                     order, max_nodes, cnt, per_ply, memo_v, memo_k, root_vals, s_lo, s_hi, s_done, s_vals, M,
                     keys)
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


def supports(game, algorithm: str, ordering: str, iterative: bool) -> bool:
    """Whether the compiled engine covers this search: Pig (itself, not a wrapper), any of the
    four algorithms, orderings natural and static, not iterative."""
    return type(game) is Pig and algorithm in ALGORITHMS and ordering in ("natural", "static") and not iterative


def run_compiled(game: Pig, algorithm: str, ordering: str, horizon: float, low: float, high: float,
                 outcome_order: str, max_nodes: int | None) -> SearchResult:
    """Search Pig from its initial state with the compiled engine (arguments validated by
    search_chance). Raises InvalidParameterError for a leaf outside [L, U], as the reference."""
    # a node at ply k has made at least (k - 1) / 2 decisions: 2·depth + 2 plies, and scratch rows
    rows = 2 * (game.horizon if not math.isfinite(horizon) else int(horizon)) + 4
    S = np.zeros((rows + 2, G.STATE_SIZE), np.int64)
    S[0] = G.encode(game.root)
    P = G.parameters(game)
    probs = np.array([p for _, p in game.chance_outcomes(game.root)], dtype=np.float64)
    idx = list(range(game.dice))
    if outcome_order == "probability":
        idx.sort(key=lambda i: -probs[i])
    order = np.array(idx, dtype=np.int64)
    tol = 1e-9 * max(1.0, abs(low), abs(high))
    cnt = np.zeros(11, np.int64)
    cnt[BEST] = -1
    per_ply = np.zeros(rows + 2, np.int64)
    memo_v = Dict.empty(key_type=_KEY, value_type=types.float64)
    memo_k = Dict.empty(key_type=_KEY, value_type=types.int64)
    root_vals = np.full(MAX_MOVES, np.nan)
    s_lo, s_hi = np.empty((rows + 2, game.dice)), np.empty((rows + 2, game.dice))
    s_done, s_vals = np.zeros((rows + 2, game.dice), np.bool_), np.empty((rows + 2, game.dice))
    M = np.zeros((rows + 2, MAX_MOVES), np.int64)
    keys = np.zeros(MAX_MOVES)
    depth = np.int64(2**62) if not math.isfinite(horizon) else np.int64(horizon)
    limit = np.int64(2**62) if max_nodes is None else np.int64(max_nodes)
    t0 = time.perf_counter()
    value = ready(_rec, _SIGNATURE)(S, 0, 0, -INF, INF, ALGORITHMS[algorithm], depth, low, high, tol, ordering == "static", P, probs,
                 order, limit, cnt, per_ply, memo_v, memo_k, root_vals, s_lo, s_hi, s_done, s_vals, M, keys)
    wall = time.perf_counter() - t0
    if cnt[BAD]:
        raise InvalidParameterError(
            f"bounds: a leaf value {float(keys[0])!r} lies outside [L, U] = [{low}, {high}]; "
            "give bounds that contain every utility and evaluation")
    ok = not cnt[ABORT]
    best = int(cnt[BEST]) if ok and cnt[BEST] >= 0 else None
    complete = ok and algorithm == "expectiminimax" and not np.isnan(root_vals).all()
    if complete:
        k = _moves(S, 0, P, ordering == "static", M, keys)
        best_moves = tuple(int(M[0, i]) for i in range(k) if root_vals[M[0, i]] == value)
    else:
        best_moves = (best,) if best is not None else ()
    top = max((k for k, c in enumerate(per_ply) if c), default=0)
    nodes = int(cnt[NODES])
    return SearchResult(
        value=float(value) if ok else None, best_move=best, best_moves=best_moves,
        best_moves_complete=complete, nodes=nodes, leaves=int(cnt[LEAVES]), interior=nodes - int(cnt[LEAVES]),
        cutoffs=int(cnt[CUTS]), per_ply=tuple(int(x) for x in per_ply[:top + 1]), iterations=(nodes,),
        wall_time=wall, algorithm=algorithm, ordering=ordering, engine="compiled",
        depth=int(horizon) if math.isfinite(horizon) else -1, status="ok" if ok else "aborted",
        chance_nodes=int(cnt[CHANCE]),
        extra={"chance_cutoffs": int(cnt[CHANCE_CUTS]), "probes": int(cnt[PROBES]),
               "probe_cutoffs": int(cnt[PROBE_CUTS]), "probe_reuses": int(cnt[REUSES]),
               "bounds": (low, high), "outcome_order": outcome_order})
