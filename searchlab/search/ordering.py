"""Move-ordering policies of the reference search, and the exact-value oracle they may need.

A policy is a function ``order(state, moves, ply) -> list of moves`` built for one search by
``make_ordering``; ``None`` stands for natural order (the moves as the game lists them).
Definitions (shared with the kernels): docs/trees.md, "Ordering policies".
"""

from __future__ import annotations

from typing import Any, Callable, Hashable, Sequence

from searchlab.errors import InvalidParameterError, TreeTooLargeError, UnsupportedError
from searchlab.hashing import mix64, random_order_salt

ORDERINGS = ("natural", "random", "perfect", "worst", "static")

#: The reference oracle refuses trees with more leaves than this (a full minimax pass in
#: pure Python at about 1 µs per node, and one dict entry per interior node).
REFERENCE_ORACLE_MAX_LEAVES = 2**20

OrderFn = Callable[[Any, Sequence[Hashable], int], list]


class Oracle:
    """Exact minimax values (MAX's view) of nodes, to the search's horizon ``depth``.

    Computed by plain minimax on first request and memoised per interior node (keyed by
    ``game.node_id``), so one tree costs one full pass: b^depth leaf evaluations, one dict entry
    per interior node. Trees that know their values by construction (``exact_value``) are
    answered directly at full depth. The oracle's own work is not counted in a search's nodes.
    """

    def __init__(self, game: Any, depth: int, limit: int = REFERENCE_ORACLE_MAX_LEAVES) -> None:
        self.game, self.depth = game, depth
        self.direct = hasattr(game, "exact_value") and depth >= game.default_depth
        if not self.direct:
            if not hasattr(game, "node_id"):
                raise UnsupportedError(
                    f"perfect/worst ordering needs an exact-value oracle, which {game.name} "
                    "does not provide")
            leaves = game.leaf_count(depth)
            if leaves > limit:
                raise TreeTooLargeError(
                    f"perfect/worst ordering on {game.name} at depth {depth} needs an exact-value "
                    f"oracle over {leaves:,} leaves; the reference oracle's limit is {limit:,} "
                    "(use engine='kernel', a smaller tree, or the ordered tree model)")
        self.memo: dict[Any, float] = {}

    def value(self, state: Any, ply: int) -> float:
        game = self.game
        if self.direct:
            return game.exact_value(state)
        if game.is_terminal(state):
            return game.utility(state)
        if ply >= self.depth:
            return game.evaluate(state)
        nid = game.node_id(state)
        v = self.memo.get(nid)
        if v is None:
            vals = [self.value(game.play(state, m), ply + 1) for m in game.legal_moves(state)]
            v = max(vals) if game.max_to_move(state) else min(vals)
            self.memo[nid] = v
        return v


def make_ordering(name: str, game: Any, depth: int, ordering_seed: int = 0,
                  oracle_limit: int = REFERENCE_ORACLE_MAX_LEAVES) -> OrderFn | None:
    """The order function for policy ``name`` on this game and horizon (None = natural).

    Raises InvalidParameterError for an unknown name, UnsupportedError where the game lacks
    what the policy needs, TreeTooLargeError when the oracle would exceed ``oracle_limit``.
    """
    if name == "natural":
        return None
    if name == "random":
        salt = random_order_salt(ordering_seed)

        def order(state, moves, ply):
            ranks = {m: mix64(game.hash_key(game.play(state, m)) ^ salt) for m in moves}
            return sorted(moves, key=ranks.__getitem__)     # sorted() is stable
        return order
    if name in ("perfect", "worst"):
        oracle = Oracle(game, depth, oracle_limit)
        best_first = name == "perfect"

        def order(state, moves, ply):
            vals = {m: oracle.value(game.play(state, m), ply + 1) for m in moves}
            descending = game.max_to_move(state) == best_first
            return sorted(moves, key=(lambda m: -vals[m]) if descending else vals.__getitem__)
        order.oracle = oracle
        return order
    if name == "static":
        if not game.has_static:
            raise UnsupportedError(
                f"static ordering needs static values at interior nodes; {game.name} has none "
                "(use the incremental tree model or a game with an evaluation)")

        def static(child):
            return game.utility(child) if game.is_terminal(child) else game.evaluate(child)

        def order(state, moves, ply):
            vals = {m: static(game.play(state, m)) for m in moves}
            if game.max_to_move(state):
                return sorted(moves, key=lambda m: -vals[m])
            return sorted(moves, key=vals.__getitem__)
        return order
    raise InvalidParameterError(f"ordering must be one of {', '.join(ORDERINGS)}; got {name!r}")
