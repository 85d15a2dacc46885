"""The per-search context: everything one search counts and consults, never module state.

Dynamic ordering policies (killer slots, history table, transposition table) attach their
state here, so the algorithms in reference.py need no rewrite when they arrive.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable, Hashable

from searchlab.errors import SearchAborted


@dataclass
class SearchContext:
    """Counters and collaborators of one search.

    Counting happens only in ``visit`` (nodes, per-ply, leaves) and ``cutoff``: the algorithms
    call these and count nothing themselves.
    """

    game: Any
    depth: float                          # horizon ply (math.inf: to the end of the game)
    order: Callable | None = None         # order(state, moves, ply); None = natural order
    max_nodes: float = math.inf           # node budget; exceeding it raises SearchAborted
    child: Callable | None = None         # the recursive call (the algorithm, or a traced wrapper)
    trace: Any = None                     # a trace recorder (searchlab.algorithms.trace), or None
    tt: Any = None                        # a TranspositionTable whose values cut, or None
    on_cut: Callable | None = None        # on_cut(state, move, ply, depth_left): killer/history
    pruning: Any = None                   # a pruning.PruningState when techniques are on
    nodes: int = 0
    leaves: int = 0
    cutoffs: int = 0
    fail_highs: int = 0
    first_move_fail_highs: int = 0
    re_searches: int = 0
    iterations: list[int] = field(default_factory=list)   # nodes per iterative-deepening step
    per_ply: list[int] = field(default_factory=lambda: [0] * 64)
    best_move: Hashable | None = None     # set at the root by the algorithms
    root_values: dict = field(default_factory=dict)   # root move -> proven value (minimax)

    def visit(self, state: Any, ply: int) -> float | None:
        """Count one node; return its static value if it is a leaf, else None.

        A leaf is a terminal position (its utility) or a position at the horizon (its
        evaluation); both count as one leaf.
        """
        self.nodes += 1
        if self.nodes > self.max_nodes:
            raise SearchAborted(f"node budget of {self.max_nodes:,} exhausted")
        try:
            self.per_ply[ply] += 1
        except IndexError:
            self.per_ply.extend([0] * (ply + 1 - len(self.per_ply)))
            self.per_ply[ply] += 1
        game = self.game
        if game.is_terminal(state):
            self.leaves += 1
            return game.utility(state)
        if ply >= self.depth:
            self.leaves += 1
            return game.evaluate(state)
        return None

    def tt_probe(self, state: Any, ply: int, alpha: float, beta: float) -> tuple[int, float | None]:
        """(the state's key, a table value that settles the node for this window, or None).
        The root never returns from the table, so every search proves its own best move."""
        key = self.game.hash_key(state)
        return key, (self.tt.probe(key, self.depth - ply, alpha, beta) if ply else None)

    def moves(self, state: Any, ply: int) -> list:
        """The moves of a node in the order the policy wants them searched."""
        moves = self.game.legal_moves(state)
        return moves if self.order is None else self.order(state, moves, ply)

    def cut(self, state: Any, ply: int, moves: list, i: int) -> None:
        """Count a cut event made by ``moves[i]``: the node's value reached beta (MAX) or alpha
        (MIN). It is a *cutoff* when moves remain unsearched (``moves[i+1:]``)."""
        self.fail_highs += 1
        if i == 0:
            self.first_move_fail_highs += 1
        if i < len(moves) - 1:
            self.cutoffs += 1
            if self.trace is not None:
                self.trace.cutoff(state, ply, moves[i + 1:])
        if self.on_cut is not None:
            self.on_cut(state, moves[i], ply, self.depth - ply)


def count_node(counter: Any, ply: int) -> None:
    """Count one node at ``ply`` on a context with ``nodes``, ``max_nodes`` and ``per_ply``
    (the chance and n-player engines' contexts); raise SearchAborted past the budget, before
    the per-ply count, as ``SearchContext.visit`` does."""
    counter.nodes += 1
    if counter.nodes > counter.max_nodes:
        raise SearchAborted(f"node budget of {counter.max_nodes:,} exhausted")
    if ply >= len(counter.per_ply):
        counter.per_ply.extend([0] * (ply + 1 - len(counter.per_ply)))
    counter.per_ply[ply] += 1
