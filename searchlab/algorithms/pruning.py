"""Pruning techniques beyond alpha-beta's sound cutoffs, switchable and parametrised.

``Pruning`` bundles one optional record per technique; ``search(..., pruning=Pruning(...))``
runs ``pruned_alphabeta`` (fail-soft alpha-beta with the techniques switched on). The records,
their checks and the family registry live in ``searchlab.contracts.pruning`` (so the config
schema imports without the engine) and are re-exported here. With every
technique off it *is* plain alpha-beta, node for node (tested). All but quiescence are unsound:
they can prune the best move; quiescence is sound with respect to its own extended tree.

A technique at one setting is one ``Technique`` record (the ``pruning`` config group's node,
the trade-off study's techniques, the tuning grid); its family is one of ``FAMILIES`` or a
plug-in ``Family`` declared outside the package (``register_family``, the entry-point group
``searchlab.pruning``, ``family: module:ATTR`` in a config) whose logic is a ``skip`` hook the
move loop asks (``Pruning.plugin``; reference engine only, the compiled engine declines it).

Depth bookkeeping: a reduction of r plies for one subtree lowers the horizon ``ctx.depth`` by
r while that subtree is searched and restores it after, so every node still knows its
remaining depth as ``ctx.depth - ply`` and the transposition table stores the depth really
searched.

What the game must provide (optional Game-protocol methods):
- null move: ``null_move(state)`` (the same position, the other side to move) and, where
  zugzwang is possible, ``null_move_allowed(state)`` (the guard; chess: not in check and some
  piece besides pawns and king);
- quiescence: ``noisy_moves(state)`` (captures for chess, threats where a game defines them);
  its delta pruning also ``capture_gain(state, move)`` (``capabilities.capture_gain``);
- every technique but beam and quiescence: ``evaluate`` (static values), and ``is_noisy(state,
  move)`` where some moves must never be reduced or pruned (captures).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from searchlab.algorithms.context import SearchContext
from searchlab.contracts.pruning import (ENTRY_POINT_GROUP, FAMILIES, RECORDS, Beam,  # noqa: F401  (re-exported)
                                         Family, Futility, LateMoveReductions, NullMove,
                                         PluginRule, ProbCut, Pruning, Quiescence, Technique,
                                         check_parameters, families, family_of, register_family,
                                         validate_pruning)
from searchlab.errors import SearchAborted

INF = math.inf


@dataclass
class PruningState:
    """Per-search counters of the techniques (how often each fired), kept on the context."""

    config: Pruning
    fired: dict[str, int] = field(default_factory=dict)
    #: searches a technique started, fired or not (null move: the null-window searches made)
    tried: dict[str, int] = field(default_factory=dict)
    q_nodes: int = 0
    parent_null: bool = False

    def count(self, name: str) -> None:
        self.fired[name] = self.fired.get(name, 0) + 1


def _reduced(ctx: SearchContext, r: int, child, ply: int, alpha: float, beta: float) -> float:
    """Search ``child`` at ply+1 with the horizon r plies closer."""
    ctx.depth -= r
    try:
        return ctx.child(child, ply + 1, alpha, beta, ctx)
    finally:
        ctx.depth += r


def quiescence(state, ply: int, alpha: float, beta: float, ctx: SearchContext, qdepth: int,
               stand_pat: float) -> float:
    """Fail-soft quiescence search below the horizon: stand pat on the static value, then try
    the noisy moves (skipping those delta pruning rules out: Quiescence's docstring, counted
    as "delta"); stops ``max_depth`` plies below the horizon. Nodes it adds are counted in
    the pruning state's ``q_nodes``, not in the search's nodes. Values from MAX's view."""
    game, ps = ctx.game, ctx.pruning
    delta = ps.config.quiescence.delta
    maximizing = game.max_to_move(state)
    v = stand_pat
    if (v >= beta) if maximizing else (v <= alpha):
        return v
    if qdepth >= ps.config.quiescence.max_depth:
        return v
    if maximizing:
        alpha = max(alpha, v)
    else:
        beta = min(beta, v)
    for m in game.noisy_moves(state):
        if delta is not None:
            gain = game.capture_gain(state, m)
            if maximizing:
                bound = stand_pat + gain + delta
                if bound <= alpha:
                    ps.count("delta")
                    if bound > v:
                        v = bound
                    continue
            else:
                bound = stand_pat - gain - delta
                if bound >= beta:
                    ps.count("delta")
                    if bound < v:
                        v = bound
                    continue
        child = game.play(state, m)
        ps.q_nodes += 1
        if ctx.nodes + ps.q_nodes > ctx.max_nodes:      # the node budget covers quiescence too
            raise SearchAborted(f"node budget of {ctx.max_nodes:,} exhausted in quiescence")
        if game.is_terminal(child):
            c = game.utility(child)
        else:
            c = quiescence(child, ply + 1, alpha, beta, ctx, qdepth + 1, game.evaluate(child))
        if maximizing:
            v = max(v, c)
            if v >= beta:
                return v
            alpha = max(alpha, v)
        else:
            v = min(v, c)
            if v <= alpha:
                return v
            beta = min(beta, v)
    return v


def pruned_alphabeta(state, ply: int, alpha: float, beta: float, ctx: SearchContext) -> float:
    """Fail-soft alpha-beta (as reference.alphabeta) with the techniques of ``ctx.pruning``.

    With no technique on, every line below that differs from reference.alphabeta is skipped,
    so the two visit the same nodes. Values from MAX's point of view.
    """
    ps = ctx.pruning
    cfg = ps.config
    parent_null, ps.parent_null = ps.parent_null, False
    v = ctx.visit(state, ply)
    game = ctx.game
    if v is not None:
        if cfg.quiescence is not None and not game.is_terminal(state):
            return quiescence(state, ply, alpha, beta, ctx, 0, v)
        return v
    tt, alpha0, beta0 = ctx.tt, alpha, beta
    if tt is not None:
        key, hit = ctx.tt_probe(state, ply, alpha, beta)
        if hit is not None:
            return hit
    maximizing = game.max_to_move(state)
    depth_left = ctx.depth - ply
    static = None
    if cfg.null_move is not None or cfg.futility is not None or cfg.probcut is not None:
        static = game.evaluate(state)

    # --- node-level pruning: null move, razoring, ProbCut -----------------------------
    early = None
    nm = cfg.null_move
    if nm is not None and ply > 0 and not parent_null and \
            game.null_move_allowed(state):
        r = nm.reduction + (1 if nm.adaptive_depth is not None and depth_left > nm.adaptive_depth else 0)
        if depth_left > r and ((beta < INF) if maximizing else (alpha > -INF)):
            null = game.null_move(state)
            ps.tried["null_move"] = ps.tried.get("null_move", 0) + 1
            scout = (math.nextafter(beta, -INF), beta) if maximizing else (alpha, math.nextafter(alpha, INF))
            ps.parent_null = True
            c = _reduced(ctx, r, null, ply, *scout)
            ps.parent_null = False
            if (c >= beta) if maximizing else (c <= alpha):
                if nm.verify:
                    ctx.depth -= r
                    try:
                        c = pruned_alphabeta_children(state, ply, alpha, beta, ctx, maximizing)
                    finally:
                        ctx.depth += r
                if (c >= beta) if maximizing else (c <= alpha):
                    ps.count("null_move")
                    early = c
    fu = cfg.futility
    if early is None and fu is not None and fu.razor_margin is not None and ply > 0 and \
            depth_left <= fu.razor_depth:
        if (static + fu.razor_margin <= alpha) if maximizing else (static - fu.razor_margin >= beta):
            q = static
            if cfg.quiescence is not None:
                q = quiescence(state, ply, alpha, beta, ctx, 0, static)
            if (q <= alpha) if maximizing else (q >= beta):
                ps.count("razoring")
                early = q
    pc = cfg.probcut
    if early is None and pc is not None and ply > 0 and depth_left == pc.deep:
        if maximizing and beta < INF:
            bound = (beta + pc.threshold * pc.sigma - pc.intercept) / pc.slope
            c = _shallow(ctx, state, ply, pc, math.nextafter(bound, -INF), bound)
            if c >= bound:
                ps.count("probcut")
                early = beta
        elif not maximizing and alpha > -INF:
            bound = (alpha - pc.threshold * pc.sigma - pc.intercept) / pc.slope
            c = _shallow(ctx, state, ply, pc, bound, math.nextafter(bound, INF))
            if c <= bound:
                ps.count("probcut")
                early = alpha
    if early is not None:
        if tt is not None:
            tt.store(key, depth_left, early, alpha0, beta0, None)
        return early

    v, best = _children(state, ply, alpha, beta, ctx, maximizing, static)
    if ply == 0:
        ctx.best_move = best
    if tt is not None:
        tt.store(key, depth_left, v, alpha0, beta0, best)
    return v


def _shallow(ctx: SearchContext, state, ply: int, pc: ProbCut, alpha: float, beta: float) -> float:
    """This node searched to remaining depth ``pc.shallow`` (the horizon moved up)."""
    r = pc.deep - pc.shallow
    ctx.depth -= r
    try:
        return pruned_alphabeta_children(state, ply, alpha, beta, ctx, ctx.game.max_to_move(state))
    finally:
        ctx.depth += r


def pruned_alphabeta_children(state, ply, alpha, beta, ctx, maximizing) -> float:
    """The node's move loop alone (no node count, no node-level pruning): verification and
    ProbCut's shallow search re-run it with the horizon moved."""
    return _children(state, ply, alpha, beta, ctx, maximizing, None)[0]


def _children(state, ply: int, alpha: float, beta: float, ctx: SearchContext, maximizing: bool,
              static: float | None) -> tuple[float, Any]:
    """Alpha-beta's move loop with beam, futility and LMR; returns (value, best move)."""
    game, cfg = ctx.game, ctx.pruning.config
    moves = ctx.moves(state, ply)
    depth_left = ctx.depth - ply
    beam = cfg.beam
    if beam is not None:
        width = beam.widths[min(ply, len(beam.widths) - 1)] if beam.widths else beam.width
        if len(moves) > width:
            ctx.pruning.count("beam")
            moves = _static_best(game, state, moves)[:width]
    fu, lmr = cfg.futility, cfg.lmr
    futile = False
    if fu is not None and depth_left == 1 and ply > 0 and static is not None:
        futile = (static + fu.margin <= alpha) if maximizing else (static - fu.margin >= beta)
    noisy = game.is_noisy if game.capabilities.noisy_test else None
    plug = cfg.plugin
    skip = None if plug is None else plug.family.skip
    v = -INF if maximizing else INF
    best = None
    for i, m in enumerate(moves):
        quiet = noisy is None or not noisy(state, m)
        if futile and quiet and i > 0:
            ctx.pruning.count("futility")
            bound = static + fu.margin if maximizing else static - fu.margin
            if (bound > v) if maximizing else (bound < v):
                v = bound
            continue
        if skip is not None and i > 0 and skip(plug.params, game, state, m, depth_left, alpha,
                                               beta, i):
            ctx.pruning.count(plug.family.name)     # a plug-in's forward pruning
            continue
        child = game.play(state, m)
        if lmr is not None and i >= lmr.after and depth_left >= lmr.min_depth and quiet:
            r = lmr.reduction if lmr.schedule == "constant" else \
                max(1, int(math.log(depth_left) * math.log(i + 1) / 2))
            r = min(r, depth_left - 1)
            scout = (alpha, math.nextafter(alpha, INF)) if maximizing else (math.nextafter(beta, -INF), beta)
            c = _reduced(ctx, r, child, ply, *scout)
            ctx.pruning.count("lmr")
            if (c > alpha) if maximizing else (c < beta):
                ctx.re_searches += 1
                c = ctx.child(child, ply + 1, alpha, beta, ctx)
        else:
            c = ctx.child(child, ply + 1, alpha, beta, ctx)
        if (c > v) if maximizing else (c < v):
            v, best = c, m
        if (v >= beta) if maximizing else (v <= alpha):
            ctx.cut(state, ply, moves, i)
            break
        if maximizing:
            alpha = max(alpha, v)
        else:
            beta = min(beta, v)
    return v, best


def _static_best(game, state, moves) -> list:
    """Moves sorted best-first for the side to move by the child's static value (stable)."""
    def static(m):
        c = game.play(state, m)
        return game.utility(c) if game.is_terminal(c) else game.evaluate(c)
    vals = {m: static(m) for m in moves}
    return sorted(moves, key=(lambda m: -vals[m]) if game.max_to_move(state) else vals.__getitem__)
