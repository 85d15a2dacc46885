"""``search``: the one entry point, validating input and dispatching to reference or kernel."""

from __future__ import annotations

import math
import time
from numbers import Integral
from typing import Any

from searchlab.errors import InvalidParameterError, SearchAborted, UnsupportedError
from searchlab.search import reference
from searchlab.search.context import SearchContext
from searchlab.search.ordering import ORDERINGS, REFERENCE_ORACLE_MAX_LEAVES, make_ordering
from searchlab.search.result import SearchResult

ALGORITHMS = tuple(reference.ALGORITHMS)
ENGINES = ("auto", "reference", "kernel")


def _check_choice(name: str, value: Any, allowed: tuple[str, ...]) -> str:
    if value not in allowed:
        raise InvalidParameterError(f"{name} must be one of {', '.join(allowed)}; got {value!r}")
    return value


def _check_optional_int(name: str, value: Any, minimum: int) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, Integral) or value < minimum:
        raise InvalidParameterError(f"{name} must be None or an integer >= {minimum}; got {value!r}")
    return int(value)


def validate(game: Any, algorithm: str, ordering: str, depth: int | None, ordering_seed: int,
             engine: str, max_nodes: int | None) -> int | float:
    """Check every argument of ``search`` before any work; return the horizon ply.

    Raises InvalidParameterError (bad value), UnsupportedError (a combination the game cannot
    do), TreeTooLargeError (an oracle over its size limit; raised when the policy is built).
    """
    for attr in ("initial_state", "legal_moves", "play", "is_terminal", "utility", "max_to_move"):
        if not hasattr(game, attr):
            raise InvalidParameterError(
                f"game must implement the Game protocol (searchlab.games.protocol); "
                f"{type(game).__name__} has no {attr}()")
    _check_choice("algorithm", algorithm, ALGORITHMS)
    _check_choice("ordering", ordering, ORDERINGS)
    _check_choice("engine", engine, ENGINES)
    _check_optional_int("depth", depth, 0)
    _check_optional_int("max_nodes", max_nodes, 1)
    if isinstance(ordering_seed, bool) or not isinstance(ordering_seed, Integral) or ordering_seed < 0:
        raise InvalidParameterError(f"ordering_seed must be an integer >= 0; got {ordering_seed!r}")
    game.capabilities.require_classical(f"algorithm {algorithm!r}")
    full = game.default_depth
    horizon = depth if depth is not None else (full if full is not None else math.inf)
    if not getattr(game, "has_static", False) and (full is None or horizon < full):
        if full is not None:
            raise UnsupportedError(
                f"depth={depth} is below the tree's depth {full}, but {game.name} has no static "
                f"values to evaluate a horizon with: use depth=None (or {full})")
    return horizon


def search(game: Any, algorithm: str = "alphabeta", ordering: str = "natural", *,
           depth: int | None = None, ordering_seed: int = 0, engine: str = "auto",
           max_nodes: int | None = None,
           oracle_limit: int = REFERENCE_ORACLE_MAX_LEAVES, trace: Any = None) -> SearchResult:
    """Search ``game`` (a synthetic tree or a Game) from its initial state.

    - algorithm: "minimax", "alphabeta" (fail-soft, the spec's textbook form) or
      "alphabeta-failhard"; the root window is (-inf, +inf), so the root value is exact.
    - ordering: "natural", "random" (seeded by ``ordering_seed``, reproducible per node),
      "perfect" / "worst" (by exact child values: an oracle, refused above its size limit),
      "static" (by the children's static values; trees and games that have them).
    - depth: horizon in plies (default: the tree's depth, or the end of the game); positions
      at the horizon are evaluated with the static value.
    - engine: "reference" (searchlab/search/reference.py), "kernel" (numba, synthetic trees;
      UnsupportedError where none exists) or "auto" (the kernel where one exists).
    - max_nodes: node budget; when exceeded the result has status "aborted", value None and
      the counts so far.
    - trace: a recorder from searchlab.search.trace (reference engine only).

    Returns a SearchResult (values from MAX's point of view; counting as documented there).
    All arguments are checked before any search; errors name the parameter and what is allowed.
    """
    horizon = validate(game, algorithm, ordering, depth, ordering_seed, engine, max_nodes)
    if trace is not None and engine == "kernel":
        raise UnsupportedError("trace needs engine='reference'")
    use_kernel = False
    if engine != "reference" and trace is None:
        from searchlab.search import kernels
        supported = kernels.kernel_supports(game, algorithm, ordering)
        if engine == "kernel" and not supported:
            raise UnsupportedError(
                f"no compiled kernel for {algorithm}/{ordering} on {game.name}; use engine='reference'")
        use_kernel = supported
    if use_kernel:
        return kernels.run_kernel(game, algorithm, ordering, int(horizon), ordering_seed, max_nodes)
    order = make_ordering(ordering, game, horizon, ordering_seed, oracle_limit)
    return run_reference(game, algorithm, ordering, horizon, order, max_nodes, trace)


def run_reference(game: Any, algorithm: str, ordering: str, horizon: int | float, order: Any,
                  max_nodes: int | None, trace: Any = None) -> SearchResult:
    """Run a reference algorithm on validated arguments and package its SearchResult."""
    algo = reference.ALGORITHMS[algorithm]
    ctx = SearchContext(game=game, depth=horizon, order=order,
                        max_nodes=math.inf if max_nodes is None else max_nodes,
                        child=algo, trace=trace)
    if trace is not None:
        trace.attach(ctx, algo)
    root = game.initial_state()
    t0 = time.perf_counter()
    status, value = "ok", None
    try:
        if algorithm == "minimax":
            value = ctx.child(root, 0, ctx)
        else:
            value = ctx.child(root, 0, -math.inf, math.inf, ctx)
    except SearchAborted:
        status = "aborted"
    wall = time.perf_counter() - t0
    if status == "ok" and algorithm == "minimax" and ctx.root_values:
        best_moves = tuple(m for m in game.legal_moves(root) if ctx.root_values[m] == value)
        complete = True
    else:
        best_moves = (ctx.best_move,) if status == "ok" and ctx.best_move is not None else ()
        complete = False
    per_ply = ctx.per_ply
    top = max((k for k, n in enumerate(per_ply) if n), default=0)
    length = int(horizon) + 1 if math.isfinite(horizon) else top + 1
    per_ply = tuple(per_ply[:length]) + (0,) * max(0, length - len(per_ply))
    return SearchResult(
        value=value, best_move=ctx.best_move if status == "ok" else None,
        best_moves=best_moves, best_moves_complete=complete, nodes=ctx.nodes,
        leaves=ctx.leaves, interior=ctx.nodes - ctx.leaves, cutoffs=ctx.cutoffs,
        per_ply=per_ply, iterations=(ctx.nodes,), wall_time=wall, algorithm=algorithm,
        ordering=ordering, engine="reference",
        depth=int(horizon) if math.isfinite(horizon) else top, status=status)
