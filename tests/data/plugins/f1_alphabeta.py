"""A search algorithm as a searchlab plug-in, defined outside the package (docs/extending.md,
"A search algorithm"): alpha-beta without deep cutoffs, Knuth and Moore's procedure F1.

A node is searched with its parent's value so far as its only bound: a MAX node's children get
the window (v, +inf) of its own best value v, a MIN node's (-inf, v), and a node stops when
its value crosses the bound its parent gave it. Bounds from further up (the deep cutoffs of
full alpha-beta, F2) are never passed down. It returns minimax's value (it is sound) and
examines at least the nodes full alpha-beta examines under the same order;
searchlab.theory.exact's ``no_deep_cutoffs`` expectations are its exact expected counts on
i.i.d. trees.

Importing the module registers it (``search.plugins: [f1_alphabeta]`` in a config, then
``search.algorithm: alphabeta-f1`` or ``sweep.algorithm: [alphabeta, alphabeta-f1]``); an
installed package would name it in an entry point instead
(``[project.entry-points."searchlab.algorithms"] alphabeta-f1 = "f1_alphabeta:F1"``).
"""

from __future__ import annotations

import math

from searchlab.algorithms.algorithm_registry import Algorithm, register_algorithm

INF = math.inf


def alphabeta_f1(state, ply: int, alpha: float, beta: float, ctx) -> float:
    """F1 in the reference algorithms' minimax form: values from MAX's point of view; the
    window's one finite end is the parent's bound (alpha at a MIN node, beta at a MAX node)."""
    v = ctx.visit(state, ply)
    if v is not None:
        return v
    game = ctx.game
    moves = ctx.moves(state, ply)
    maximizing = game.max_to_move(state)
    v, best = (-INF if maximizing else INF), None
    for i, m in enumerate(moves):
        child = game.play(state, m)
        c = ctx.child(child, ply + 1, v, INF, ctx) if maximizing \
            else ctx.child(child, ply + 1, -INF, v, ctx)
        if (c > v) if maximizing else (c < v):
            v, best = c, m
        if (v >= beta) if maximizing else (v <= alpha):
            ctx.cut(state, ply, moves, i)
            break
    if ply == 0:
        ctx.best_move = best
    return v


F1 = register_algorithm(Algorithm(
    name="alphabeta-f1", node=alphabeta_f1, sound=True,
    description="alpha-beta without deep cutoffs (Knuth & Moore's F1)"))
