"""How the root is searched: once, iteratively deepened (with aspiration windows), or by MTD(f).

A driver calls a node-level algorithm of reference.py at the root, as often as it needs, on one
SearchContext, and returns the root value (MAX's view). Iterations are recorded in
``ctx.iterations`` (nodes per iteration); re-searches in ``ctx.re_searches``.
"""

from __future__ import annotations

import math

from searchlab.algorithms.context import SearchContext

INF = math.inf


def search_root(root, ctx: SearchContext, algorithm: str, alpha: float = -INF,
                beta: float = INF, first_guess: float = 0.0) -> float:
    """One search of the root to ``ctx.depth`` (MTD(f): all its passes)."""
    if algorithm == "minimax":
        return ctx.child(root, 0, ctx)
    if algorithm == "mtdf":
        return mtdf(root, ctx, first_guess)
    return ctx.child(root, 0, alpha, beta, ctx)


def mtdf(root, ctx: SearchContext, first_guess: float = 0.0) -> float:
    """MTD(f) (Plaat et al.): null-window alpha-beta passes with a transposition table,
    narrowing [lower, upper] around the value until they meet.

    A pass with window (nextafter(beta, -inf), beta) answers "value >= beta?" exactly for
    real-valued trees. Every pass after the first counts as a re-search. The root's best move is
    the one proven by the last pass that failed high (its value is the final lower bound).
    """
    g, lower, upper = first_guess, -INF, INF
    best, passes = None, 0
    while lower < upper:
        beta = math.nextafter(g, INF) if g == lower else g
        g = ctx.child(root, 0, math.nextafter(beta, -INF), beta, ctx)
        passes += 1
        if g < beta:
            upper = g
        else:
            lower, best = g, ctx.best_move
    ctx.re_searches += passes - 1
    ctx.best_move = best
    return g


def iterative_deepening(root, ctx: SearchContext, algorithm: str, depth: int,
                        aspiration: float | None = None) -> float:
    """Search to depth 1, 2, ..., ``depth`` on the same context (its move table and killers
    carry over); returns the last iteration's value. ``depth`` 0 is one search to depth 0.

    With ``aspiration`` = delta, iteration k > 1 is searched with the window
    (v_{k-1} - delta, v_{k-1} + delta); a result outside it is searched again with the full
    window (one re-search). MTD(f) uses the previous iteration's value as its first guess.
    """
    value = 0.0
    # depth 0 has no shallower horizon to deepen from: its one iteration is the depth-0 search
    # (one node, the static value), as without "id"
    for k in (range(1, depth + 1) if depth > 0 else (0,)):
        ctx.depth = k
        if ctx.tt is not None:
            ctx.tt.new_search()
        start = ctx.nodes
        if aspiration is not None and k > 1 and algorithm not in ("mtdf", "minimax"):
            alpha, beta = value - aspiration, value + aspiration
            v = search_root(root, ctx, algorithm, alpha, beta)
            if v <= alpha or v >= beta:
                ctx.re_searches += 1
                v = search_root(root, ctx, algorithm)
        else:
            v = search_root(root, ctx, algorithm, first_guess=value)
        value = v
        ctx.iterations.append(ctx.nodes - start)
    return value
