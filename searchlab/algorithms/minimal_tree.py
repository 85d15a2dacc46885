"""Each position's own minimal tree: the size of the perfectly ordered alpha-beta tree.

``minimal_tree(game, depth)`` counts the nodes that fail-soft alpha-beta (reference.alphabeta:
full root window, no transposition table, no quiescence, no pruning) visits from the game's
initial state to the horizon ``depth`` when every node searches its children best first by
their exact depth-limited minimax values (MAX's view; descending at MAX, ascending at MIN;
ties in natural order, a stable sort) - the reference engine's ``perfect`` ordering, node for
node, but with the children's values computed by the compiled engine (plain alpha-beta to the
child's remaining depth, its exact value) and memoised on (hash key, remaining depth), so that
it reaches the depths real searches do. The oracle's own searches are not counted.

What is counted (``MinimalTree``): ``nodes`` (every node visited, the root and the leaves
included: SearchResult.nodes of search(game, "alphabeta", "perfect")), ``leaves`` (horizon and
terminal nodes visited), ``per_ply``; ``value`` is the root's exact value. On a uniform tree
with distinct values the leaves are Knuth and Moore's b^ceil(d/2) + b^floor(d/2) - 1.

The tree is the one plain alpha-beta searches: a policy with a transposition table or
quiescence searches a different tree (transpositions merged, capture sequences added), and is
compared with this one only as "nodes / minimal nodes of the plain tree"; matching those
settings here is not built yet. The smallest proof tree over all orderings is not
computed either.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from searchlab.algorithms import compiled_engine
from searchlab.algorithms.api import search
from searchlab.algorithms.ordering import parse_ordering
from searchlab.errors import InvalidParameterError
from searchlab.games.position import FromState
from searchlab.limits import excerpt


@dataclass
class MinimalTree:
    """The perfectly ordered alpha-beta tree of one position to one depth (module docstring)."""

    value: float
    nodes: int
    leaves: int
    depth: int
    per_ply: list[int] = field(default_factory=list)
    oracle_searches: int = 0        # exact-value searches the count needed (not counted in nodes)
    best_move: int | None = None    # the root's first child in perfect order (None at a leaf):
                                    # SearchResult.best_move of search(game, "alphabeta", "perfect")


def minimal_tree(game: Any, depth: int, value_ordering: str | None = None) -> MinimalTree:
    """The perfectly ordered alpha-beta tree of ``game``'s initial state to ``depth`` plies.

    ``value_ordering``: the ordering of the oracle's exact-value searches (any policy without
    a transposition table; it changes their cost, never their values): default the game's
    first own ordering with killer+history, else killer+history. Raises InvalidParameterError
    for a depth that is not an integer >= 1 or an ordering with ``tt``/``id``/``tactical``.
    """
    if isinstance(depth, bool) or not isinstance(depth, int) or depth < 1:
        raise InvalidParameterError(f"depth must be an integer >= 1; got {excerpt(depth)}")
    if not game.capabilities.static_values and depth < (game.default_depth or math.inf):
        raise InvalidParameterError(
            f"depth {depth} is below {game.name}'s end and it has no static values")
    if value_ordering is None:
        own = list(game.move_orderings()) if game.capabilities.own_orderings else []
        value_ordering = "killer+history" + (f"+{own[0]}" if own else "")
    parts = parse_ordering(value_ordering, game)
    if {"tt", "id", "tactical"} & set(parts):
        raise InvalidParameterError(
            f"value_ordering {excerpt(value_ordering)}: no tt, id or tactical (the oracle's "
            "searches must be plain alpha-beta, whose root value is exact)")
    memo: dict[tuple[Any, int], float] = {}
    per_ply = [0] * (depth + 1)
    stats = {"leaves": 0, "oracle": 0}
    root_best: list[int] = []
    compiled = compiled_engine.supports(game, "alphabeta", value_ordering, None, depth)

    def exact(state: Any, left: int) -> float:
        if game.is_terminal(state):
            return game.utility(state)
        if left == 0:
            return game.evaluate(state)
        key = (game.hash_key(state), left)
        v = memo.get(key)
        if v is None and not game.capabilities.static_values:
            # a synthetic tree without static values (searched to its end): plain minimax
            vals = [exact(game.play(state, m), left - 1) for m in game.legal_moves(state)]
            v = memo[key] = max(vals) if game.max_to_move(state) else min(vals)
        if v is None:
            stats["oracle"] += 1
            r = search(FromState(game, state), "alphabeta", value_ordering, depth=left,
                       engine="compiled" if compiled else "reference")
            v = memo[key] = r.value
        return v

    def alphabeta(state: Any, ply: int, alpha: float, beta: float) -> float:
        per_ply[ply] += 1
        if game.is_terminal(state) or ply >= depth:
            stats["leaves"] += 1
            return game.utility(state) if game.is_terminal(state) else game.evaluate(state)
        maxing = game.max_to_move(state)
        moves = list(game.legal_moves(state))
        children = [game.play(state, m) for m in moves]
        vals = [exact(c, depth - ply - 1) for c in children]
        order = sorted(range(len(children)), key=(lambda i: -vals[i]) if maxing
                       else vals.__getitem__)
        if ply == 0:
            root_best.append(moves[order[0]])
        if maxing:
            v = -math.inf
            for i in order:
                v = max(v, alphabeta(children[i], ply + 1, alpha, beta))
                if v >= beta:
                    break
                alpha = max(alpha, v)
        else:
            v = math.inf
            for i in order:
                v = min(v, alphabeta(children[i], ply + 1, alpha, beta))
                if v <= alpha:
                    break
                beta = min(beta, v)
        return v

    value = alphabeta(game.initial_state(), 0, -math.inf, math.inf)
    return MinimalTree(value=value, nodes=sum(per_ply), leaves=stats["leaves"], depth=depth,
                       per_ply=per_ply, oracle_searches=stats["oracle"],
                       best_move=root_best[0] if root_best else None)
