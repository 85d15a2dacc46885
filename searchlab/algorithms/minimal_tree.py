"""Each position's own minimal tree: the size of the perfectly ordered alpha-beta tree, under the
transposition-table and quiescence settings of the search it is compared with.

``minimal_tree(game, depth, tt=..., quiescence=...)`` runs fail-soft alpha-beta
(reference.alphabeta; with ``quiescence``, pruning.pruned_alphabeta with quiescence alone) from
the game's initial state to the horizon ``depth``, every node searching its children best first
by their exact depth-limited values (MAX's view; descending at MAX, ascending at MIN; ties in
natural order, a stable sort): the reference engine's ``perfect`` ordering. The search is the
reference's own code on a SearchContext, so every node is counted exactly as search() counts
it (SearchResult's conventions: a node is one call, the root and the leaves included; a node
answered by the table counts as a node, not a leaf; quiescence nodes are counted apart, in
``q_nodes``).

- ``tt=True``: the search has a transposition table of ``tt_size`` entries as search() builds
  for an ordering with ``tt`` (tt.py: probes below the root, a store at every node, depth-
  preferred aged replacement), used for its values only: the order stays perfect (a table move
  would only ever move a child that is not best to the front). So the tree is the perfectly
  ordered search of the DAG, transpositions cut as the compared policy's table cuts them.
- ``quiescence``: a pruning.Quiescence record (without delta pruning): every horizon node is
  resolved by the same quiescence search as the compared policy's (stand pat, the game's noisy
  moves in its own order, at most ``max_depth`` extra plies), and the exact values that order
  the children are those of the quiescence-extended tree.

Exact values: for a game with compiled primitives, the reference search runs on the compiled
rows (compiled_rows.RowGame, the Python rules bit for bit) and each child's exact value is one
compiled full-window alpha-beta search (``value_ordering``, no table), memoised on (hash key,
remaining depth); a game without them uses the reference engine the same way, a synthetic tree
without static values plain minimax. The oracle's searches are not counted. In chess the memo
key, like the table's and the reference oracle's, holds no repetition history: a position met
again by another path reuses the first path's value.

What is counted (``MinimalTree``): ``nodes``, ``leaves``, ``per_ply`` (as SearchResult),
``q_nodes``, ``tt_cutoffs``; ``value`` is the root's exact value. With tt off and no quiescence
it is search(game, "alphabeta", "perfect") node for node; on a uniform tree with distinct
values the leaves are Knuth and Moore's b^ceil(d/2) + b^floor(d/2) - 1. It is the perfectly
ordered tree, not the smallest over all orderings (proof_tree.py): with a table, an ordering
that steers into transpositions can be smaller.

``policy_settings(game, ordering, pruning)`` gives the ``tt`` and ``quiescence`` arguments that
match a search(game, "alphabeta", ordering, pruning=pruning).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from searchlab.algorithms import drivers, reference
from searchlab.algorithms.search_api import DEFAULT_TT_SIZE, search
from searchlab.contracts.compiled import compiled_game
from searchlab.algorithms.compiled_rows import RowGame
from searchlab.algorithms.context import SearchContext
from searchlab.algorithms.ordering_registry import ordering_of
from searchlab.algorithms.pruning import (Pruning, PruningState, Quiescence, pruned_alphabeta,
                                          validate_pruning)
from searchlab.algorithms.tt import TranspositionTable
from searchlab.errors import InvalidParameterError, SearchAborted, UnsupportedError
from searchlab.contracts.position import FromState
from searchlab.limits import MAX_COUNT, MAX_DEPTH, MAX_TT_SIZE, check_int, excerpt


#: Without max_nodes, the depths whose perfectly ordered tree has at most this many leaves by
#: Knuth and Moore's b^ceil(d/2) + b^floor(d/2) - 1 (b: the root's moves) are computed; a
#: deeper one (Connect Four to 99 plies: ~1e42) is refused before any work.
UNBUDGETED_LEAVES = 10**9


@dataclass
class MinimalTree:
    """The perfectly ordered alpha-beta tree of one position to one depth (module docstring)."""

    value: float
    nodes: int
    leaves: int
    depth: int
    per_ply: list[int] = field(default_factory=list)
    oracle_searches: int = 0        # exact-value searches the count needed (not counted in nodes)
    best_move: Any = None           # the root's first child in perfect order (None at a leaf):
                                    # SearchResult.best_move of search(game, "alphabeta", "perfect")
    q_nodes: int = 0                # quiescence nodes (SearchResult.q_nodes), not in ``nodes``
    tt_cutoffs: int = 0             # nodes the table answered (SearchResult.tt_cutoffs)
    tt: bool = False
    quiescence: Quiescence | None = None


def policy_settings(game: Any, ordering: str, pruning: Pruning | None = None,
                    algorithm: str = "alphabeta") -> dict[str, Any]:
    """The ``tt`` and ``quiescence`` arguments of minimal_tree matching a search() with this
    ordering and pruning: ``tt`` when the search's table cuts on values (an ordering with
    ``tt``, or MTD(f)); ``id`` alone keeps moves only and cuts nothing. Raises
    UnsupportedError for pruning beyond quiescence (an unsound search has no minimal tree of
    its own) or quiescence with delta pruning, InvalidParameterError for a bad ordering."""
    value = ordering_of(ordering, game)
    q = None
    if pruning is not None:
        others = [t for t in pruning.active() if t != "quiescence"]
        if others:
            raise UnsupportedError(
                f"pruning {', '.join(others)}: a minimal tree is defined for sound searches only "
                "(alpha-beta, a transposition table, quiescence)")
        q = pruning.quiescence
    return {"tt": value.has("tt") or algorithm == "mtdf", "quiescence": q}


def minimal_tree(game: Any, depth: int, value_ordering: str | None = None, *, tt: bool = False,
                 tt_size: int = DEFAULT_TT_SIZE,
                 quiescence: Quiescence | None = None,
                 max_nodes: int | None = None) -> MinimalTree:
    """The perfectly ordered alpha-beta tree of ``game``'s initial state to ``depth`` plies,
    with a transposition table (``tt``, ``tt_size`` entries) and ``quiescence`` as the compared
    search has them (the module docstring).

    ``value_ordering``: the ordering of the oracle's exact-value searches (any policy without
    a transposition table; it changes their cost, never their values): default the game's
    first own ordering with killer+history, else killer+history. Raises InvalidParameterError
    for a depth that is not an integer >= 1, a non-bool ``tt``, a bad ``tt_size``, an
    ordering with ``tt``/``id``/``tactical`` or a ``quiescence`` that is not a Quiescence
    record; UnsupportedError for quiescence on a game without noisy moves or with delta
    pruning (its values depend on the window: no window-free exact value orders by them).

    ``max_nodes``: a node budget for the counted tree and for each of the oracle's exact-value
    searches (for a tree without static values: for its minimax nodes); SearchAborted when one
    is exhausted (None: no budget). ``depth`` is at most searchlab.limits.MAX_DEPTH.
    """
    if isinstance(depth, bool) or not isinstance(depth, int) or not 1 <= depth <= MAX_DEPTH:
        raise InvalidParameterError(f"depth must be an integer in [1, {MAX_DEPTH}] "
                                    f"(searchlab.limits.MAX_DEPTH); got {excerpt(depth)}")
    if max_nodes is not None:
        check_int("max_nodes", max_nodes, 1, MAX_COUNT, or_none=True)
    budget = math.inf if max_nodes is None else max_nodes
    if max_nodes is None:
        b = len(game.legal_moves(game.initial_state()))
        leaves = b ** ((depth + 1) // 2) + b ** (depth // 2) - 1 if b > 1 else depth
        if leaves > UNBUDGETED_LEAVES:
            raise InvalidParameterError(
                f"minimal_tree({game.name}, depth={depth}) without max_nodes: a perfectly "
                f"ordered tree of {b} moves a node has about {float(leaves):.3g} leaves to this "
                f"depth (Knuth and Moore), over the {UNBUDGETED_LEAVES:.0e} computed without a "
                f"budget; give max_nodes= (SearchAborted when it is reached) or a smaller depth")

    def aborted(what: str) -> SearchAborted:
        return SearchAborted(f"minimal_tree: max_nodes={max_nodes} exhausted by {what} "
                             f"({game.name}, depth {depth}): raise max_nodes or lower the depth")

    if not isinstance(tt, bool):
        raise InvalidParameterError(f"tt must be True or False; got {excerpt(tt)}")
    if isinstance(tt_size, bool) or not isinstance(tt_size, int) or tt_size < 1 \
            or tt_size & (tt_size - 1) or tt_size > MAX_TT_SIZE:
        raise InvalidParameterError(f"tt_size must be a power of two in [1, {MAX_TT_SIZE}] "
                                    f"(searchlab.limits.MAX_TT_SIZE); got {excerpt(tt_size)}")
    table = TranspositionTable(tt_size, values=True) if tt else None
    if not game.capabilities.static_values and depth < (game.default_depth or math.inf):
        raise InvalidParameterError(
            f"depth {depth} is below {game.name}'s end and it has no static values")
    pruning = None
    if quiescence is not None:
        if not isinstance(quiescence, Quiescence):
            raise InvalidParameterError(
                f"quiescence must be a searchlab Quiescence record or None; got {excerpt(quiescence)}")
        if quiescence.delta is not None:
            raise UnsupportedError(
                "quiescence with delta pruning: its values depend on the search window, so "
                "there are no window-free exact values to order by (use delta=None)")
        pruning = Pruning(quiescence=quiescence)
        validate_pruning(pruning, game, "alphabeta", ("natural",))
    if value_ordering is None:
        own = list(game.move_orderings()) if game.capabilities.own_orderings else []
        value_ordering = "killer+history" + (f"+{own[0]}" if own else "")
    if {"tt", "id", "tactical"} & set(ordering_of(value_ordering, game).parts):
        raise InvalidParameterError(
            f"value_ordering {excerpt(value_ordering)}: no tt, id or tactical (the oracle's "
            "searches must be plain alpha-beta, whose root value is exact)")
    rows = None
    if game.capabilities.static_values and compiled_game(game) is not None:
        rows = RowGame(game)
    g = rows if rows is not None else game
    memo: dict[tuple[Any, int], float] = {}
    oracle = [0]
    minimax = [0]

    def exact(state: Any, left: int) -> float:
        if g.is_terminal(state):
            return g.utility(state)
        if left == 0 and pruning is None:
            return g.evaluate(state)
        key = (g.hash_key(state), left)
        v = memo.get(key)
        if v is not None:
            return v
        if not g.capabilities.static_values:
            # a synthetic tree without static values (searched to its end): plain minimax
            minimax[0] += 1
            if minimax[0] > budget:
                raise aborted("the exact values' minimax")
            vals = [exact(g.play(state, m), left - 1) for m in g.legal_moves(state)]
            v = max(vals) if g.max_to_move(state) else min(vals)
        else:
            oracle[0] += 1
            if rows is not None:
                v = rows.exact(state, left, value_ordering, pruning, max_nodes=max_nodes)[0]
            else:
                v = search(FromState(game, state), "alphabeta", value_ordering, depth=left,
                           engine="reference", pruning=pruning, max_nodes=max_nodes).value
            if v is None:
                raise aborted("an exact-value search")
        memo[key] = v
        return v

    def order(state: Any, moves: list, ply: int) -> list:
        left = ctx.depth - ply - 1
        vals = {m: exact(g.play(state, m), left) for m in moves}
        if g.max_to_move(state):
            return sorted(moves, key=lambda m: -vals[m])
        return sorted(moves, key=vals.__getitem__)

    algo = pruned_alphabeta if pruning is not None else reference.alphabeta
    ctx = SearchContext(game=g, depth=depth, order=order, child=algo, tt=table,
                        pruning=PruningState(pruning) if pruning is not None else None,
                        max_nodes=budget)
    try:
        value = drivers.search_root(g.initial_state(), ctx, "alphabeta")
    except SearchAborted as e:
        if "minimal_tree:" in str(e):
            raise
        raise aborted("the perfectly ordered tree") from None
    best = ctx.best_move
    if rows is not None and best is not None:
        best = rows.move_of(best)
    per_ply = (list(ctx.per_ply) + [0] * (depth + 1))[:depth + 1]
    return MinimalTree(value=value, nodes=ctx.nodes, leaves=ctx.leaves, depth=depth,
                       per_ply=per_ply, oracle_searches=oracle[0], best_move=best,
                       q_nodes=ctx.pruning.q_nodes if ctx.pruning is not None else 0,
                       tt_cutoffs=table.cutoffs if table is not None else 0, tt=tt,
                       quiescence=quiescence)
