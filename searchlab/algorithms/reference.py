"""The textbook algorithms, written to be read: they are the specification.

Minimax form (not negamax): values are from MAX's point of view throughout. Each function
takes (state, ply, [alpha, beta,] ctx) and returns the node's value; all counting goes through
``ctx.visit`` and ``ctx.cut`` (searchlab/algorithms/context.py); recursive calls go through
``ctx.child`` so that a trace can wrap them. At the root (ply 0) the algorithms record the best
move in ``ctx.best_move``: the first move in search order that strictly improved the value.

With a transposition table (``ctx.tt``), a node below the root first probes it (an entry
searched at least as deep that settles the window returns at once; such a node counts as a
node, not a leaf) and every node stores its result, with the bound implied by the window it
was searched with, on the way out. The root never returns from the table, so every search
pass proves its own best move.
"""

from __future__ import annotations

import math

from searchlab.algorithms.context import SearchContext

INF = math.inf


def minimax(state, ply: int, ctx: SearchContext) -> float:
    """Plain minimax: every node of the tree to the horizon. Records every root move's value."""
    v = ctx.visit(state, ply)
    if v is not None:
        return v
    game = ctx.game
    maximizing = game.max_to_move(state)
    v, best = (-INF if maximizing else INF), None
    for m in ctx.moves(state, ply):
        c = ctx.child(game.play(state, m), ply + 1, ctx)
        if ply == 0:
            ctx.root_values[m] = c
        if (c > v) if maximizing else (c < v):
            v, best = c, m
    if ply == 0:
        ctx.best_move = best
    return v


def alphabeta(state, ply: int, alpha: float, beta: float, ctx: SearchContext) -> float:
    """Alpha-beta as in the spec (Russell & Norvig), fail-soft.

    MAX: v = max(v, child) after each child; return at once when v >= beta (ties cut), else
    alpha = max(alpha, v). MIN symmetric. A cut node returns the value it has seen, a bound
    (true value >= v at MAX, <= v at MIN); a node all of whose children fail low returns an
    upper bound <= alpha (MAX) or a lower bound >= beta (MIN).
    """
    v = ctx.visit(state, ply)
    if v is not None:
        return v
    tt, alpha0, beta0 = ctx.tt, alpha, beta
    if tt is not None:
        key, hit = ctx.tt_probe(state, ply, alpha, beta)
        if hit is not None:
            return hit
    game = ctx.game
    moves = ctx.moves(state, ply)
    best = None
    if game.max_to_move(state):
        v = -INF
        for i, m in enumerate(moves):
            c = ctx.child(game.play(state, m), ply + 1, alpha, beta, ctx)
            if c > v:
                v, best = c, m
            if v >= beta:
                ctx.cut(state, ply, moves, i)
                break
            if v > alpha:
                alpha = v
    else:
        v = INF
        for i, m in enumerate(moves):
            c = ctx.child(game.play(state, m), ply + 1, alpha, beta, ctx)
            if c < v:
                v, best = c, m
            if v <= alpha:
                ctx.cut(state, ply, moves, i)
                break
            if v < beta:
                beta = v
    if ply == 0:
        ctx.best_move = best
    if tt is not None:
        tt.store(key, ctx.depth - ply, v, alpha0, beta0, best)
    return v


def alphabeta_failhard(state, ply: int, alpha: float, beta: float, ctx: SearchContext) -> float:
    """Alpha-beta, fail-hard: the returned value is clamped to the window [alpha, beta].

    A cut node returns the bound it failed against (beta at MAX, alpha at MIN), and a node
    whose children all fail to improve returns alpha (MAX) or beta (MIN). It makes the same
    comparisons as the fail-soft form, so it visits the same nodes.
    """
    v = ctx.visit(state, ply)
    if v is not None:
        return v
    tt, alpha0, beta0 = ctx.tt, alpha, beta
    if tt is not None:
        key, hit = ctx.tt_probe(state, ply, alpha, beta)
        if hit is not None:
            return min(max(hit, alpha), beta)
    game = ctx.game
    moves = ctx.moves(state, ply)
    best = None
    if game.max_to_move(state):
        for i, m in enumerate(moves):
            c = ctx.child(game.play(state, m), ply + 1, alpha, beta, ctx)
            if c >= beta:
                ctx.cut(state, ply, moves, i)
                alpha, best = beta, m
                break
            if c > alpha:
                alpha, best = c, m
        v = alpha
    else:
        for i, m in enumerate(moves):
            c = ctx.child(game.play(state, m), ply + 1, alpha, beta, ctx)
            if c <= alpha:
                ctx.cut(state, ply, moves, i)
                beta, best = alpha, m
                break
            if c < beta:
                beta, best = c, m
        v = beta
    if ply == 0:
        ctx.best_move = best
    if tt is not None:
        tt.store(key, ctx.depth - ply, v, alpha0, beta0, best)
    return v


def pvs(state, ply: int, alpha: float, beta: float, ctx: SearchContext) -> float:
    """Principal variation search (NegaScout) in minimax form, fail-soft.

    The first child gets the full window; every later child first gets a null-window *scout*
    search asking only "does it beat the value so far?" — at MAX the window
    (alpha, nextafter(alpha, +inf)), at MIN (nextafter(beta, -inf), beta) — and only when the
    scout says yes, and the answer lies inside the window, is the child searched again with the
    full window (counted in ``ctx.re_searches``). Returns alpha-beta's value.
    """
    v = ctx.visit(state, ply)
    if v is not None:
        return v
    tt, alpha0, beta0 = ctx.tt, alpha, beta
    if tt is not None:
        key, hit = ctx.tt_probe(state, ply, alpha, beta)
        if hit is not None:
            return hit
    game = ctx.game
    moves = ctx.moves(state, ply)
    best = None
    if game.max_to_move(state):
        v = -INF
        for i, m in enumerate(moves):
            child = game.play(state, m)
            if i == 0:
                c = ctx.child(child, ply + 1, alpha, beta, ctx)
            else:
                c = ctx.child(child, ply + 1, alpha, math.nextafter(alpha, INF), ctx)
                if alpha < c < beta:
                    ctx.re_searches += 1
                    c = ctx.child(child, ply + 1, alpha, beta, ctx)
            if c > v:
                v, best = c, m
            if v >= beta:
                ctx.cut(state, ply, moves, i)
                break
            if v > alpha:
                alpha = v
    else:
        v = INF
        for i, m in enumerate(moves):
            child = game.play(state, m)
            if i == 0:
                c = ctx.child(child, ply + 1, alpha, beta, ctx)
            else:
                c = ctx.child(child, ply + 1, math.nextafter(beta, -INF), beta, ctx)
                if alpha < c < beta:
                    ctx.re_searches += 1
                    c = ctx.child(child, ply + 1, alpha, beta, ctx)
            if c < v:
                v, best = c, m
            if v <= alpha:
                ctx.cut(state, ply, moves, i)
                break
            if v < beta:
                beta = v
    if ply == 0:
        ctx.best_move = best
    if tt is not None:
        tt.store(key, ctx.depth - ply, v, alpha0, beta0, best)
    return v


#: Node-level algorithms by name. "mtdf" is a root driver over ``alphabeta`` (drivers.py).
ALGORITHMS = {
    "minimax": minimax,
    "alphabeta": alphabeta,
    "alphabeta-failhard": alphabeta_failhard,
    "pvs": pvs,
    "mtdf": alphabeta,
}
