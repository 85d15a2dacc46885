"""``search``: the one entry point, validating input and dispatching to reference or kernel."""

from __future__ import annotations

import math
import time
from numbers import Integral
from typing import Any

from searchlab.algorithms import drivers, kernels, reference
from searchlab.algorithms import compiled_engine, mcts, mcts_compiled
from searchlab.algorithms.algorithm_registry import algorithm_names, plugin_algorithm
from searchlab.algorithms.context import SearchContext
from searchlab.algorithms.names import ALGORITHMS, ENGINES  # noqa: F401  (ALGORITHMS: searchlab.ALGORITHMS, the built-ins)
from searchlab.algorithms.ordering import (REFERENCE_ORACLE_MAX_LEAVES, DynamicOrdering,
                                           make_ordering)
from searchlab.algorithms.ordering_registry import Ordering, ordering_of
from searchlab.algorithms.pruning import Pruning, PruningState, pruned_alphabeta, validate_pruning
from searchlab.contracts.result import SearchResult
from searchlab.algorithms.tt import TranspositionTable
from searchlab.errors import InvalidParameterError, SearchAborted, UnsupportedError
from searchlab.contracts.protocol import Game
from searchlab.limits import (MAX_COUNT, MAX_DEPTH, MAX_SEED, MAX_TT_SIZE, SOLVABLE_EMPTY,
                              check_int, excerpt)

DEFAULT_TT_SIZE = 1 << 16


_GAME_TYPES: set[type] = set()


def _is_game(game: Any) -> bool:
    """isinstance(game, Game), remembered per class: a runtime Protocol check costs tens of
    microseconds, as much as a small compiled search."""
    if not isinstance(game, Game):
        return False
    _GAME_TYPES.add(type(game))
    return True


def _check_choice(name: str, value: Any, allowed: tuple[str, ...]) -> str:
    if value not in allowed:
        raise InvalidParameterError(f"{name} must be one of {', '.join(allowed)}; got {excerpt(value)}")
    return value


def validate(game: Any, algorithm: str, ordering: str | Ordering, depth: int | None,
             ordering_seed: int, engine: str, max_nodes: int | None,
             aspiration: float | None = None, tt_size: int = DEFAULT_TT_SIZE,
             pruning: Pruning | None = None) -> int | float:
    """Check every argument of ``search`` before any work; return the horizon ply.

    Raises InvalidParameterError (bad value), UnsupportedError (a combination the game cannot
    do), TreeTooLargeError (an oracle over its size limit; raised when the policy is built).
    """
    if type(game) not in _GAME_TYPES and not _is_game(game):
        raise InvalidParameterError(
            f"game must implement the Game protocol (searchlab.contracts.protocol.Game: name, "
            f"capabilities, default_depth, initial_state(), max_to_move(), legal_moves(), play(), "
            f"is_terminal(), utility(), evaluate(), hash_key()); {type(game).__name__} does not")
    _check_choice("algorithm", algorithm, algorithm_names())
    value = ordering_of(ordering, game)
    parts = value.parts
    _check_choice("engine", engine, ENGINES)
    if isinstance(tt_size, bool) or not isinstance(tt_size, Integral) or tt_size < 1 \
            or tt_size & (tt_size - 1) or tt_size > MAX_TT_SIZE:
        raise InvalidParameterError(f"tt_size must be a power of two in [1, {MAX_TT_SIZE}] "
                                    f"(searchlab.limits.MAX_TT_SIZE); got {excerpt(tt_size)}")
    if aspiration is not None:
        if not value.has("id"):
            raise InvalidParameterError(
                "aspiration windows work on top of iterative deepening: add 'id' to the ordering")
        if isinstance(aspiration, bool) or not isinstance(aspiration, (int, float)) \
                or not aspiration > 0 or math.isinf(aspiration):
            raise InvalidParameterError(f"aspiration must be a number > 0; got {excerpt(aspiration)}")
    if depth is not None:
        check_int("depth", depth, 0, MAX_DEPTH, or_none=True)
    if max_nodes is not None:
        check_int("max_nodes", max_nodes, 1, MAX_COUNT, or_none=True)
    check_int("ordering_seed", ordering_seed, 0, MAX_SEED)
    game.capabilities.require_classical(f"algorithm {algorithm!r}")
    full = game.default_depth
    horizon = depth if depth is not None else (full if full is not None else math.inf)
    if depth is None and full is None and max_nodes is None \
            and not getattr(game, "solvable", False):
        # the end of the game is the horizon: refused unless the game says it is small
        raise InvalidParameterError(
            f"depth=None searches {game.name} to the end of the game, an unbounded solve: give "
            f"depth= (a horizon) or max_nodes= (a node budget: the result is 'aborted' when it "
            f"is reached); only games that declare themselves small (game.solvable: tic-tac-toe, "
            f"a Connect Four or Hex position with at most {SOLVABLE_EMPTY} empty cells) are "
            f"searched to the end without one")
    if not game.capabilities.static_values and (full is None or horizon < full):
        if full is not None:
            raise UnsupportedError(
                f"depth={depth} is below the tree's depth {full}, but {game.name} has no static "
                f"values to evaluate a horizon with: use depth=None (or {full})")
    if pruning is not None:
        validate_pruning(pruning, game, algorithm, parts)
    if value.has("id") and not math.isfinite(horizon):
        raise InvalidParameterError("iterative deepening ('id') needs a finite depth")
    if value.has("id") and not game.capabilities.static_values:
        raise UnsupportedError(
            f"iterative deepening ('id') evaluates shallower horizons, but {game.name} has no "
            "static values (use the incremental tree model or a game with an evaluation)")
    return horizon


def search(game: Any, algorithm: str = "alphabeta", ordering: str | Ordering = "natural", *,
           depth: int | None = None, ordering_seed: int = 0, engine: str = "auto",
           max_nodes: int | None = None, aspiration: float | None = None,
           tt_size: int = DEFAULT_TT_SIZE, pruning: Pruning | None = None,
           oracle_limit: int = REFERENCE_ORACLE_MAX_LEAVES, trace: Any = None,
           seed: int = 0, max_time: float | None = None,
           mcts_options: mcts.MCTSOptions | None = None) -> SearchResult:
    """Search ``game`` (a synthetic tree or a Game) from its initial state.

    - algorithm: "minimax", "alphabeta" (fail-soft, the spec's textbook form),
      "alphabeta-failhard", "pvs" (NegaScout) or "mtdf" (MTD(f) over fail-soft alpha-beta with a
      transposition table, which it creates if the ordering has none); the root window is
      (-inf, +inf), so the root value is exact; or a registered plug-in's name
      (searchlab.algorithms.algorithm_registry: reference engine only).
    - ordering: a base order — "natural", "random" (seeded by ``ordering_seed``, reproducible per
      node), "perfect" / "worst" (by exact child values: an oracle, refused above its size
      limit), "static" (by the children's static values), or the game's own (e.g. "centre") —
      possibly combined with dynamic components in priority order: "id" (iterative
      deepening), "tt" (transposition table, ``tt_size`` entries), "killer", "history", e.g.
      "tt+killer+history+static" (searchlab/algorithms/ordering.py); the string or its parsed
      ``Ordering`` value (ordering_registry.ordering_of), which declares the engines that run it.
    - aspiration: with "id", the half-width of the aspiration window around the previous
      iteration's value.
    - pruning: a searchlab.algorithms.pruning.Pruning record switching on unsound techniques
      (null move, LMR, futility/razoring, beam, ProbCut) and quiescence; alphabeta only.
    - depth: horizon in plies (default: the tree's depth, or the end of the game); positions
      at the horizon are evaluated with the static value.
    - engine: "reference" (searchlab/algorithms/reference.py), "kernel" (numba, synthetic trees;
      UnsupportedError where none exists), "compiled" (the compiled engine over a game's
      primitives, searchlab/algorithms/compiled; UnsupportedError where it does not run the
      combination) or "auto" (the kernel, else the compiled engine, where one exists).
    - max_nodes: node budget; when exceeded the result has status "aborted", value None and
      the counts so far.
    - trace: a recorder from searchlab.algorithms.trace (reference engine only).
    - algorithm "mcts": Monte Carlo tree search (searchlab/algorithms/mcts.py, docs/mcts.md)
      with ``mcts_options`` (an MCTSOptions record: exploration, rollout, prior, solver,
      simulations), ``seed`` (its random stream) and the budgets ``max_nodes`` (nodes counted
      as alpha-beta's) and ``max_time`` (seconds); engine "compiled" (games with compiled
      primitives; "auto" picks it there) or "reference". ``ordering``, ``depth`` and the
      alpha-beta options do not apply to it and are refused.

    Returns a SearchResult (values from MAX's point of view; counting as documented there).
    All arguments are checked before any search; errors name the parameter and what is allowed.
    """
    if algorithm == "mcts":
        return _search_mcts(game, ordering, depth, engine, max_nodes, aspiration, pruning, trace,
                            seed, max_time, mcts_options)
    if mcts_options is not None or max_time is not None:
        raise InvalidParameterError("mcts_options and max_time are MCTS's: use algorithm='mcts'")
    horizon = validate(game, algorithm, ordering, depth, ordering_seed, engine, max_nodes,
                       aspiration, tt_size, pruning)
    value = ordering_of(ordering, game)         # the value validate parsed (cached)
    ordering = value.text
    pruned = pruning is not None and bool(pruning.active())
    if trace is not None and engine in ("kernel", "compiled"):
        raise UnsupportedError("trace needs engine='reference'")
    use_kernel = False
    if pruned and engine == "kernel":
        raise UnsupportedError("pruning techniques run on engine='reference'")
    if engine in ("auto", "kernel") and trace is None and not pruned:
        supported = value.supports("kernel") and kernels.kernel_supports(game, algorithm,
                                                                          ordering)
        if engine == "kernel" and not supported:
            raise UnsupportedError(
                f"no compiled kernel for {algorithm}/{ordering} on {game.name}; use engine='reference'")
        use_kernel = supported
    if use_kernel:
        return kernels.run_kernel(game, algorithm, ordering, int(horizon), ordering_seed, max_nodes)
    if engine in ("auto", "compiled") and trace is None:
        if compiled_engine.supports(game, algorithm, ordering, pruning, horizon):
            return compiled_engine.run(game, algorithm, ordering, horizon, ordering_seed,
                                       max_nodes, aspiration, tt_size, pruning)
        if engine == "compiled":
            raise UnsupportedError(
                f"no compiled engine for {algorithm}/{ordering} on {game.name}; use engine='reference'")
    table = None
    if value.has("tt") or algorithm == "mtdf":
        table = TranspositionTable(tt_size, values=True)
    elif value.has("id"):
        table = TranspositionTable(tt_size, values=False)     # best moves only
    order = make_ordering(value, game, horizon, ordering_seed, oracle_limit, table)
    plugin = plugin_algorithm(algorithm)
    algo = pruned_alphabeta if pruned else \
        plugin.node if plugin is not None else reference.ALGORITHMS[algorithm]
    ctx = SearchContext(game=game, depth=horizon,
                        max_nodes=math.inf if max_nodes is None else max_nodes,
                        child=algo, trace=trace, tt=table,
                        pruning=PruningState(pruning) if pruned else None)
    if isinstance(order, DynamicOrdering):
        ctx.order, ctx.on_cut = order.order, order.on_cut
    else:
        ctx.order = order
    if trace is not None:
        trace.attach(ctx, algo)
    root = game.initial_state()
    t0 = time.perf_counter()
    status, root_value = "ok", None
    try:
        if value.has("id"):
            root_value = drivers.iterative_deepening(root, ctx, algorithm, int(horizon), aspiration)
        else:
            root_value = drivers.search_root(root, ctx, algorithm)
    except SearchAborted:
        status = "aborted"
    wall = time.perf_counter() - t0
    return package(game, ctx, root, root_value, status, wall, algorithm, ordering, horizon, table)


def _search_mcts(game: Any, ordering: str, depth: Any, engine: str, max_nodes: Any, aspiration: Any,
                 pruning: Any, trace: Any, seed: Any, max_time: Any, options: Any) -> SearchResult:
    """search(algorithm="mcts"): the alpha-beta options refused, then the compiled twin or the
    reference."""
    _check_choice("engine", engine, ("auto", "reference", "compiled"))
    for name, value, default in (("ordering", ordering, "natural"), ("depth", depth, None),
                                 ("aspiration", aspiration, None), ("pruning", pruning, None),
                                 ("trace", trace, None)):
        if value != default:
            raise InvalidParameterError(
                f"{name} is an alpha-beta option; MCTS takes its own in mcts_options "
                f"(MCTSOptions: prior= for a move order, rollout_depth= for a horizon); got {name}={excerpt(value)}")
    options = mcts.MCTSOptions() if options is None else options
    if engine != "reference" and mcts_compiled.supports(game):
        return mcts_compiled.run(game, options, max_nodes=max_nodes, max_time=max_time, seed=seed)
    if engine == "compiled":
        mcts.validate(game, options, max_nodes, max_time, seed)
        raise UnsupportedError(f"no compiled MCTS for {getattr(game, 'name', game)} (no compiled "
                               "primitives); use engine='reference'")
    return mcts.search_mcts(game, options, max_nodes=max_nodes, max_time=max_time, seed=seed)


def package(game: Any, ctx: SearchContext, root: Any, value: float | None, status: str,
            wall: float, algorithm: str, ordering: str, horizon: int | float,
            table: TranspositionTable | None) -> SearchResult:
    """The SearchResult of a finished (or aborted) reference search."""
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
        per_ply=per_ply, iterations=tuple(ctx.iterations) or (ctx.nodes,), wall_time=wall,
        algorithm=algorithm, ordering=ordering, engine="reference",
        depth=int(horizon) if math.isfinite(horizon) else top, status=status,
        fail_highs=ctx.fail_highs, first_move_fail_highs=ctx.first_move_fail_highs,
        re_searches=ctx.re_searches,
        tt_probes=table.probes if table is not None else 0,
        tt_hits=table.hits if table is not None else 0,
        tt_cutoffs=table.cutoffs if table is not None else 0,
        q_nodes=ctx.pruning.q_nodes if ctx.pruning is not None else 0,
        extra=({"pruned": dict(ctx.pruning.fired), **({"tried": dict(ctx.pruning.tried)} if ctx.pruning.tried
                                                      else {})} if ctx.pruning is not None else {}))
