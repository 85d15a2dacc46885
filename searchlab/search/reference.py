"""The textbook algorithms, written to be read: they are the specification.

Minimax form (not negamax): values are from MAX's point of view throughout. Each function
takes (state, ply, [alpha, beta,] ctx) and returns the node's value; all counting goes through
``ctx.visit`` and ``ctx.cutoff`` (searchlab/search/context.py); recursive calls go through
``ctx.child`` so that a trace can wrap them. At the root (ply 0) the algorithms record the best
move in ``ctx.best_move``: the first move in search order that strictly improved the value.
"""

from __future__ import annotations

import math

from searchlab.search.context import SearchContext

INF = math.inf


def minimax(state, ply: int, ctx: SearchContext) -> float:
    """Plain minimax: every node of the tree to the horizon. Records every root move's value."""
    v = ctx.visit(state, ply)
    if v is not None:
        return v
    game = ctx.game
    maximizing = game.max_to_move(state)
    v = -INF if maximizing else INF
    for m in ctx.moves(state, ply):
        c = ctx.child(game.play(state, m), ply + 1, ctx)
        if ply == 0:
            ctx.root_values[m] = c
        if (c > v) if maximizing else (c < v):
            v = c
            if ply == 0:
                ctx.best_move = m
    return v


def alphabeta(state, ply: int, alpha: float, beta: float, ctx: SearchContext) -> float:
    """Alpha-beta as in the spec (Russell & Norvig), fail-soft.

    MAX: v = max(v, child) after each child; return at once when v >= beta (ties cut), else
    alpha = max(alpha, v). MIN symmetric. A cut node returns the value it has seen, a bound:
    >= the true value's lower bound at MAX (true value >= v), <= at MIN.
    """
    v = ctx.visit(state, ply)
    if v is not None:
        return v
    game = ctx.game
    moves = ctx.moves(state, ply)
    last = len(moves) - 1
    if game.max_to_move(state):
        v = -INF
        for i, m in enumerate(moves):
            c = ctx.child(game.play(state, m), ply + 1, alpha, beta, ctx)
            if c > v:
                v = c
                if ply == 0:
                    ctx.best_move = m
            if v >= beta:
                if i < last:
                    ctx.cutoff(state, ply, moves[i + 1:])
                return v
            if v > alpha:
                alpha = v
    else:
        v = INF
        for i, m in enumerate(moves):
            c = ctx.child(game.play(state, m), ply + 1, alpha, beta, ctx)
            if c < v:
                v = c
                if ply == 0:
                    ctx.best_move = m
            if v <= alpha:
                if i < last:
                    ctx.cutoff(state, ply, moves[i + 1:])
                return v
            if v < beta:
                beta = v
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
    game = ctx.game
    moves = ctx.moves(state, ply)
    last = len(moves) - 1
    if game.max_to_move(state):
        for i, m in enumerate(moves):
            c = ctx.child(game.play(state, m), ply + 1, alpha, beta, ctx)
            if c >= beta:
                if i < last:
                    ctx.cutoff(state, ply, moves[i + 1:])
                return beta
            if c > alpha:
                alpha = c
                if ply == 0:
                    ctx.best_move = m
        return alpha
    for i, m in enumerate(moves):
        c = ctx.child(game.play(state, m), ply + 1, alpha, beta, ctx)
        if c <= alpha:
            if i < last:
                ctx.cutoff(state, ply, moves[i + 1:])
            return alpha
        if c < beta:
            beta = c
            if ply == 0:
                ctx.best_move = m
    return beta


ALGORITHMS = {
    "minimax": minimax,
    "alphabeta": alphabeta,
    "alphabeta-failhard": alphabeta_failhard,
}
