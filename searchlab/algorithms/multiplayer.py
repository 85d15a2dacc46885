"""Search for three or more players: max^n, shallow pruning, paranoid, best-reply search.

The specification (readable reference engine). A game satisfies
searchlab.contracts.protocol.MultiPlayerGame; values are vectors, one payoff per player,
player 0 first. The *root player* is the player to move at the root.

- ``maxn`` (Luckhardt & Irani 1986): at a node where player p moves, the child vector with
  the largest p-component; ties keep the first child in move order.
- ``maxn-shallow``: max^n with Korf's (1991) shallow pruning. Needs every payoff >= 0 and the
  payoffs of every leaf summing to the same ``total`` (checked at every leaf; a violation
  raises InvalidParameterError). Once the player p at a node holds Best[p] >= total -
  (the parent player's best so far), the parent cannot prefer this node: the remaining
  children are cut. Returns max^n's vector exactly.
- ``paranoid`` (Sturtevant & Korf 2000): the root player against a coalition of all others,
  who minimise the root player's payoff: two-player minimax on that scalar, searched with
  fail-soft alpha-beta (the spec's textbook form); ``paranoid-minimax`` searches the same tree
  without pruning (the value alpha-beta must equal).
- ``brs`` (best-reply search, Schadd & Winands 2011): the root player (MAX) alternates with a
  single MIN layer whose moves are the moves of every opponent in turn (opponent 1's first,
  in move order, then opponent 2's, ...): only the opponent with the best reply moves, the
  others pass. Needs ``game.with_mover(state, player)`` (the state with another player to
  move). The value is the root player's payoff, searched with fail-soft alpha-beta; depth
  counts plies of this MAX/MIN tree.

Counting as in SearchResult: a node is one call on a position, a leaf one evaluation
(terminal or at the horizon), a cutoff a return before all children were searched.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Any, Hashable

from searchlab.algorithms.context import count_node
from searchlab.algorithms.multiplayer_compiled import run_compiled
from searchlab.algorithms.multiplayer_compiled import supports as compiled_supports
from searchlab.contracts.result import MultiResult
from searchlab.errors import InvalidParameterError, SearchAborted, UnsupportedError
from searchlab.contracts.protocol import MultiPlayerGame

INF = math.inf
MULTI_ALGORITHMS = ("maxn", "maxn-shallow", "paranoid", "paranoid-minimax", "brs")
ENGINES = ("reference", "kernel", "compiled", "auto")


@dataclass
class MultiContext:
    game: Any
    depth: float
    root_player: int
    total: float | None = None             # shallow pruning's constant sum
    max_nodes: float = INF
    nodes: int = 0
    leaves: int = 0
    cutoffs: int = 0
    per_ply: list[int] = field(default_factory=lambda: [0] * 64)
    best_move: Hashable | None = None
    oracle: dict | None = None             # (hash key, ply) -> exact paranoid value (perfect order)

    def visit(self, state: Any, ply: int) -> tuple[float, ...] | None:
        """Count a node; return its value vector if it is a leaf, else None."""
        count_node(self, ply)
        game = self.game
        if game.is_terminal(state):
            v = tuple(game.utility_vector(state))
        elif ply >= self.depth:
            v = tuple(game.evaluate_vector(state))
        else:
            return None
        self.leaves += 1
        if self.total is not None and (min(v) < 0 or sum(v) != self.total):
            raise InvalidParameterError(
                f"shallow pruning needs non-negative payoffs summing to total={self.total}; "
                f"a leaf has {v}")
        return v


# --------------------------------------------------------------------------- max^n

def maxn(state, ply: int, ctx: MultiContext) -> tuple[float, ...]:
    """Max^n: the mover's best child vector (first in move order on ties)."""
    v = ctx.visit(state, ply)
    if v is not None:
        return v
    game = ctx.game
    p = game.to_move(state)
    best, best_m = None, None
    for m in game.legal_moves(state):
        c = maxn(game.play(state, m), ply + 1, ctx)
        if best is None or c[p] > best[p]:
            best, best_m = c, m
    if ply == 0:
        ctx.best_move = best_m
    return best


def maxn_shallow(state, ply: int, bound: float, ctx: MultiContext) -> tuple[float, ...]:
    """Korf's shallow pruning: ``bound`` = total - (the parent player's best so far); cut once
    the mover's best reaches it."""
    v = ctx.visit(state, ply)
    if v is not None:
        return v
    game = ctx.game
    p = game.to_move(state)
    moves = list(game.legal_moves(state))
    best, best_m = None, None
    for i, m in enumerate(moves):
        child_bound = ctx.total if best is None else ctx.total - best[p]
        c = maxn_shallow(game.play(state, m), ply + 1, child_bound, ctx)
        if best is None or c[p] > best[p]:
            best, best_m = c, m
        if best[p] >= bound and i < len(moves) - 1:
            ctx.cutoffs += 1
            break
    if ply == 0:
        ctx.best_move = best_m
    return best


# --------------------------------------------------------------------------- paranoid

def paranoid(state, ply: int, alpha: float, beta: float, ctx: MultiContext,
             prune: bool = True) -> tuple[float, tuple]:
    """(root player's payoff, PV leaf vector): the root player maximises, every other player
    minimises; fail-soft alpha-beta when ``prune``, else plain minimax."""
    v = ctx.visit(state, ply)
    if v is not None:
        return v[ctx.root_player], v
    game = ctx.game
    maximizing = game.to_move(state) == ctx.root_player
    moves = list(game.legal_moves(state))
    if ctx.oracle is not None:              # perfect order: best first for the mover, stable
        sign = -1.0 if maximizing else 1.0
        moves.sort(key=lambda m: sign * ctx.oracle[(game.hash_key(game.play(state, m)), ply + 1)])
    return _two_sided(state, [(state, m) for m in moves], maximizing, ply, alpha, beta, ctx,
                      lambda child, a, b: paranoid(child, ply + 1, a, b, ctx, prune), prune)


def _two_sided(state, moves: list, maximizing: bool, ply: int, alpha: float, beta: float,
               ctx: MultiContext, child_fn, prune: bool = True) -> tuple[float, tuple]:
    """The MAX or MIN node of paranoid and BRS: ``moves`` are (state to play from, move)
    pairs, ``child_fn(child, alpha, beta)`` searches a child; fail-soft alpha-beta (the spec's
    textbook form) when ``prune``, plain minimax otherwise. Returns (value, PV leaf vector)."""
    game = ctx.game
    best, vec, best_m = (-INF if maximizing else INF), None, None
    for i, (s, m) in enumerate(moves):
        c, cv = child_fn(game.play(s, m), alpha, beta)
        if (c > best) if maximizing else (c < best):
            best, vec, best_m = c, cv, m
        if prune:
            if maximizing:
                if best >= beta:
                    ctx.cutoffs += i < len(moves) - 1
                    break
                alpha = max(alpha, best)
            else:
                if best <= alpha:
                    ctx.cutoffs += i < len(moves) - 1
                    break
                beta = min(beta, best)
    if ply == 0:
        ctx.best_move = best_m
    return best, vec


def paranoid_values(game: Any, state: Any, ply: int, depth: float, root_player: int,
                    out: dict) -> float:
    """Fill ``out[(hash_key, ply)]`` with every node's exact paranoid value (uncounted: the
    oracle of the perfect ordering) and return the root's."""
    if game.is_terminal(state) or ply >= depth:
        v = (game.utility_vector(state) if game.is_terminal(state) else game.evaluate_vector(state))[root_player]
    else:
        vals = [paranoid_values(game, game.play(state, m), ply + 1, depth, root_player, out)
                for m in game.legal_moves(state)]
        v = max(vals) if game.to_move(state) == root_player else min(vals)
    out[(game.hash_key(state), ply)] = v
    return v


# --------------------------------------------------------------------------- best-reply search

def brs(state, ply: int, alpha: float, beta: float, ctx: MultiContext) -> tuple[float, tuple]:
    """Best-reply search: MAX (root player) at even plies; at odd plies one MIN node over
    every opponent's moves (opponents in turn order after the root player)."""
    v = ctx.visit(state, ply)
    if v is not None:
        return v[ctx.root_player], v
    game = ctx.game
    r, n = ctx.root_player, game.n_players
    if ply % 2 == 0:
        s = game.with_mover(state, r)
        moves = [(s, m) for m in game.legal_moves(s)]
    else:
        moves = []
        for k in range(1, n):
            s = game.with_mover(state, (r + k) % n)
            if not game.is_terminal(s):
                moves.extend((s, m) for m in game.legal_moves(s))
    return _two_sided(state, moves, ply % 2 == 0, ply, alpha, beta, ctx,
                      lambda child, a, b: brs(child, ply + 1, a, b, ctx))


# --------------------------------------------------------------------------- entry point

def search_multiplayer(game: Any, algorithm: str = "maxn", *, depth: int | None = None,
                       total: float | None = None, max_nodes: int | None = None,
                       root: Any = None, ordering: str = "natural",
                       engine: str = "reference") -> MultiResult:
    """Search an n-player game from ``root`` (default its initial state).

    - algorithm: "maxn", "maxn-shallow", "paranoid", "paranoid-minimax" or "brs" (module doc).
    - depth: horizon in plies (default ``game.default_depth``; None there: to the end).
    - total: the constant sum of every leaf's payoffs, for "maxn-shallow" (default
      ``game.leaf_total(root, depth)``); leaves that break it raise InvalidParameterError.
    - max_nodes: node budget (status "aborted", values None when exceeded).
    - ordering: "natural" (move order), or "perfect" for paranoid: children best-first for the
      mover by their exact paranoid value (an oracle computed before the search, not counted;
      the game needs ``hash_key``): the best case of Sturtevant & Korf's analysis.
    - engine: "reference" (this module, the default); the compiled n-player engine
      (searchlab/algorithms/multiplayer_compiled.py, one numba search over the game's
      primitives, natural order, any root) as "kernel" on the NPlayerTree (a horizon at or
      beyond its leaves) and as "compiled" on Rolit and Harvest (any depth), UnsupportedError
      elsewhere; or "auto" (the compiled engine where it applies, else the reference).
    Raises InvalidParameterError / UnsupportedError before any search.
    """
    if not isinstance(game, MultiPlayerGame):
        raise InvalidParameterError(
            f"game must implement the MultiPlayerGame protocol (searchlab.contracts.protocol: "
            f"initial_state, to_move, legal_moves, play, is_terminal, utility_vector, n_players, "
            f"capabilities); {type(game).__name__} does not")
    if algorithm not in MULTI_ALGORITHMS:
        raise InvalidParameterError(f"algorithm must be one of {', '.join(MULTI_ALGORITHMS)}; got {algorithm!r}")
    if depth is not None and (isinstance(depth, bool) or not isinstance(depth, int) or depth < 0):
        raise InvalidParameterError(f"depth must be None or an integer >= 0; got {depth!r}")
    if max_nodes is not None and (isinstance(max_nodes, bool) or not isinstance(max_nodes, int)
                                  or max_nodes < 1):
        raise InvalidParameterError(f"max_nodes must be None or an integer >= 1; got {max_nodes!r}")
    if ordering not in ("natural", "perfect"):
        raise InvalidParameterError(f"ordering must be 'natural' or 'perfect'; got {ordering!r}")
    if ordering == "perfect" and algorithm != "paranoid":
        raise UnsupportedError("ordering 'perfect' is defined for algorithm 'paranoid' only")
    if algorithm == "brs" and not game.capabilities.with_mover:
        raise UnsupportedError(f"best-reply search needs with_mover(state, player) "
                               f"(capabilities.with_mover); {game.name} has none")
    state = game.initial_state() if root is None else root
    if root is not None and type(root) is not type(game.initial_state()):
        raise InvalidParameterError(
            f"root must be a state of {game.name} (a {type(game.initial_state()).__name__}, "
            f"e.g. from game.initial_state() or game.play()); got a {type(root).__name__}")
    horizon = depth if depth is not None else game.default_depth
    horizon = INF if horizon is None else horizon
    if algorithm == "maxn-shallow":
        if total is None:
            if not game.capabilities.constant_sum:
                raise UnsupportedError(f"shallow pruning needs a constant sum: {game.name} declares "
                                       "none (capabilities.constant_sum); give total=")
            total = game.leaf_total(state, horizon)
            if total is None:
                raise UnsupportedError(f"shallow pruning needs non-negative constant-sum payoffs; "
                                       f"{game.name} does not have them")
        if isinstance(total, bool) or not isinstance(total, (int, float)) or not total > 0:
            raise InvalidParameterError(f"total must be a number > 0; got {total!r}")
    else:
        total = None
    if game.is_terminal(state):
        raise InvalidParameterError("the root is terminal: nothing to search")
    if engine not in ENGINES:
        raise InvalidParameterError(f"engine must be one of {', '.join(ENGINES)}; got {engine!r}")
    if engine != "reference" and compiled_supports(game, algorithm, ordering, engine, horizon):
        return run_compiled(game, algorithm, state, horizon, total, max_nodes)
    if engine == "compiled":
        raise UnsupportedError(f"no compiled n-player engine for {algorithm} on {game.name} with ordering "
                               f"{ordering!r} (Rolit and Harvest, natural order): use engine='reference'")
    if engine == "kernel":
        raise UnsupportedError(f"no compiled n-player kernel for {algorithm} on {game.name} with these "
                               "arguments (the n-player tree, natural order, to its leaves): use engine='reference'")
    ctx = MultiContext(game, horizon, game.to_move(state), total,
                       INF if max_nodes is None else max_nodes)
    if ordering == "perfect":
        ctx.oracle = {}
        paranoid_values(game, state, 0, horizon, ctx.root_player, ctx.oracle)
    t0 = time.perf_counter()
    status, vec, value = "ok", None, None
    try:
        if algorithm == "maxn":
            vec = maxn(state, 0, ctx)
        elif algorithm == "maxn-shallow":
            vec = maxn_shallow(state, 0, total, ctx)
        elif algorithm == "brs":
            value, vec = brs(state, 0, -INF, INF, ctx)
        else:
            value, vec = paranoid(state, 0, -INF, INF, ctx, prune=algorithm == "paranoid")
        if value is None:
            value = vec[ctx.root_player]
    except SearchAborted:
        status, vec, value = "aborted", None, None
    top = max((k for k, c in enumerate(ctx.per_ply) if c), default=0)
    return MultiResult(
        values=tuple(vec) if vec is not None else None, value=value,
        best_move=ctx.best_move if status == "ok" else None, nodes=ctx.nodes, leaves=ctx.leaves,
        interior=ctx.nodes - ctx.leaves, cutoffs=ctx.cutoffs, per_ply=tuple(ctx.per_ply[:top + 1]),
        algorithm=algorithm, n_players=game.n_players, root_player=ctx.root_player,
        depth=int(horizon) if math.isfinite(horizon) else -1, wall_time=time.perf_counter() - t0,
        status=status)
