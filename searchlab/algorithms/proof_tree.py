"""The smallest alpha-beta tree over all move orderings of one position (no transposition table).

``smallest_tree(game, depth)`` is the least number of nodes fail-soft alpha-beta
(reference.alphabeta, full root window, counted as search() counts: every call, the root and
the leaves included) visits over every choice of child order at every node. In a tree each node
is searched at most once, with one window, so choosing the order per node is the same as
choosing it per (node, window), and the minimum is a dynamic programme over (node, window):

- alpha-beta's window changes only through exact values: a child whose value lies inside the
  window raises alpha (MAX; lowers beta at MIN) to it, one that fails low leaves it, one that
  fails high cuts; what a child returns otherwise (a fail-soft bound) changes nothing;
- narrowing a window never enlarges the tree (for a fixed order, every cut still happens), so
  a child that fails low is best searched after every child that raises alpha, and not at all
  when the node cuts.

So the best order at a MAX node with window (a, b) is a chain of children of strictly
increasing values inside the window, each searched with alpha = the previous one's value,
ending either at a child >= b (the cut) or, when no child reaches b, at a child of the node's
value, followed by every other child with alpha = max(a, value); MIN symmetric. The programme
takes the cheapest chain (O(k^2) per node and window for k children). ``tests`` check it against
brute force over every assignment of child orders on small explicit trees.

Values are exact depth-limited minimax values (MAX's view) computed here by plain minimax,
memoised per node: on synthetic trees per node id, on games per (hash key, plies left) (a
position's subtree does not depend on the path to it, repetition history in chess aside).
Cost: the whole tree to ``depth`` is evaluated once, and every node once per window it can
receive (windows are drawn from its siblings' and ancestors' values), so it is feasible where
plain minimax of the whole tree is: ``max_nodes`` (default 2,000,000) bounds the (node, window)
pairs and raises TreeTooLargeError past it. With a transposition table the minimum over
orderings couples distant subtrees (an order that reaches a position first lets another
subtree reuse it) and is not computed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from searchlab.errors import InvalidParameterError, TreeTooLargeError
from searchlab.limits import excerpt

INF = math.inf
DEFAULT_MAX_NODES = 2_000_000


@dataclass(frozen=True)
class SmallestTree:
    """The least alpha-beta node count over all orderings (``nodes``; the module docstring),
    the root's exact value and the (node, window) pairs the programme evaluated."""

    value: float
    nodes: int
    depth: int
    evaluated: int


def smallest_tree(game: Any, depth: int | None = None,
                  max_nodes: int = DEFAULT_MAX_NODES) -> SmallestTree:
    """The smallest alpha-beta tree of ``game``'s initial state to ``depth`` plies (default: the
    tree's own depth) over all move orderings. Raises InvalidParameterError for a depth that
    is not an integer >= 1 (or None on a tree with a depth), TreeTooLargeError when more than
    ``max_nodes`` (node, window) pairs are needed."""
    if depth is None:
        depth = game.default_depth
    if isinstance(depth, bool) or not isinstance(depth, int) or depth < 1:
        raise InvalidParameterError(f"depth must be an integer >= 1; got {excerpt(depth)}")
    if isinstance(max_nodes, bool) or not isinstance(max_nodes, int) or max_nodes < 1:
        raise InvalidParameterError(f"max_nodes must be an integer >= 1; got {excerpt(max_nodes)}")
    if not game.capabilities.static_values and depth < (game.default_depth or INF):
        raise InvalidParameterError(
            f"depth {depth} is below {game.name}'s end and it has no static values")
    by_id = game.capabilities.node_ids
    values: dict[Any, float] = {}
    costs: dict[tuple, int] = {}

    def key(state: Any, left: int) -> Any:
        return game.node_id(state) if by_id else (game.hash_key(state), left)

    def leaf(state: Any, left: int) -> bool:
        return game.is_terminal(state) or left == 0

    def children(state: Any) -> list:
        return [game.play(state, m) for m in game.legal_moves(state)]

    def value(state: Any, left: int) -> float:
        if game.is_terminal(state):
            return game.utility(state)
        if left == 0:
            return game.evaluate(state)
        k = key(state, left)
        v = values.get(k)
        if v is None:
            vals = [value(c, left - 1) for c in children(state)]
            v = values[k] = max(vals) if game.max_to_move(state) else min(vals)
        return v

    def cost(state: Any, left: int, a: float, b: float) -> int:
        if leaf(state, left):
            return 1
        k = (key(state, left), a, b)
        n = costs.get(k)
        if n is not None:
            return n
        if len(costs) >= max_nodes:
            raise TreeTooLargeError(
                f"smallest_tree on {game.name} at depth {depth}: more than {max_nodes:,} "
                "(node, window) pairs (max_nodes); choose a smaller depth")
        kids = children(state)
        vals = [value(c, left - 1) for c in kids]
        if game.max_to_move(state):
            n = 1 + _best_order(kids, vals, a, b, lambda c, lo: cost(c, left - 1, lo, b))
        else:
            # MIN is MAX on negated values: beta falls along the chain
            n = 1 + _best_order(kids, [-v for v in vals], -b, -a,
                                lambda c, lo: cost(c, left - 1, a, -lo))
        costs[k] = n
        return n

    root = game.initial_state()
    n = cost(root, depth, -INF, INF)
    return SmallestTree(value=value(root, depth), nodes=n, depth=depth, evaluated=len(costs))


def _best_order(kids: list, vals: list[float], a: float, b: float, child_cost) -> int:
    """The cheapest way to search a MAX node's children with window (a, b) (the module
    docstring): ``child_cost(child, alpha)`` is a child's smallest tree with window
    (alpha, b)."""
    inside = sorted((i for i, v in enumerate(vals) if a < v < b), key=vals.__getitem__)
    cutters = [i for i, v in enumerate(vals) if v >= b]
    top = max(vals)
    final = max(a, top)
    # extra[i]: the cheapest chain ending at inside child i, counted as chain costs minus
    # what its members would cost after it (with alpha = final); chain[i]: the same in full
    extra: dict[int, float] = {}
    chain: dict[int, float] = {}
    for i in inside:
        best_e = child_cost(kids[i], a) - (0 if cutters else child_cost(kids[i], final))
        best_c = child_cost(kids[i], a)
        for j in inside:
            if vals[j] >= vals[i]:
                break
            step = child_cost(kids[i], vals[j])
            best_c = min(best_c, chain[j] + step)
            if not cutters:
                best_e = min(best_e, extra[j] + step - child_cost(kids[i], final))
        extra[i], chain[i] = best_e, best_c
    if cutters:
        best = INF
        for c in cutters:
            best = min(best, child_cost(kids[c], a),
                       *(chain[j] + child_cost(kids[c], vals[j]) for j in inside))
        return int(best)
    rest = sum(child_cost(k, final) for k in kids)
    if top <= a:
        return rest
    return int(rest + min(extra[i] for i in inside if vals[i] == top))
