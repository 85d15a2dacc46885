"""A tree given as nested lists: the textbook examples, any depth, ragged allowed."""

from __future__ import annotations

import math
from numbers import Real
from typing import Any

from searchlab.errors import InvalidParameterError, UnsupportedError
from searchlab.games.protocol import Capabilities
from searchlab.hashing import child_key, root_key


def _validate(node: Any, path: tuple[int, ...]) -> tuple[int, int]:
    """Return (depth, leaves) of the subtree, or raise naming the offending path."""
    where = "the root" if not path else "node " + ".".join(map(str, path))
    if isinstance(node, (list, tuple)):
        if not node:
            raise InvalidParameterError(
                f"ExplicitTree: {where} is an empty list; a node is a number (leaf) or a "
                "non-empty list of nodes")
        depth, leaves = 0, 0
        for i, c in enumerate(node):
            cd, cl = _validate(c, path + (i,))
            depth, leaves = max(depth, cd + 1), leaves + cl
        return depth, leaves
    if isinstance(node, bool) or not isinstance(node, Real) or math.isnan(float(node)):
        raise InvalidParameterError(
            f"ExplicitTree: {where} is {node!r}; a leaf must be a real number (not NaN, not bool)")
    return 0, 1


class ExplicitTree:
    """A game tree given as nested lists of numbers (leaf values, MAX's view); the root is MAX.

    Moves are child indices (natural order = list order). State: (subtree, ply, path, key),
    with ``path`` the tuple of moves from the root (``node_id``) and keys as in docs/trees.md
    with seed 0 (used only by the random ordering).
    """

    model = "explicit"
    capabilities = Capabilities(node_ids=True, leaves_below=True)

    def __init__(self, nested: Any) -> None:
        self.d, self.n_leaves = _validate(nested, ())
        self.nested = nested
        self.seed = 0
        self.root_key = root_key(0)

    @property
    def name(self) -> str:
        return f"explicit({self.nested!r})"

    @property
    def default_depth(self) -> int:
        return self.d

    def leaf_count(self, depth: int | None = None) -> int:
        return self.n_leaves

    def initial_state(self) -> tuple:
        return (self.nested, 0, (), self.root_key)

    def max_to_move(self, state: tuple) -> bool:
        return state[1] % 2 == 0

    def legal_moves(self, state: tuple) -> range:
        node = state[0]
        return range(len(node)) if isinstance(node, (list, tuple)) else range(0)

    def play(self, state: tuple, move: int) -> tuple:
        node, ply, path, key = state
        return (node[move], ply + 1, path + (move,), child_key(key, move))

    def is_terminal(self, state: tuple) -> bool:
        return not isinstance(state[0], (list, tuple))

    def utility(self, state: tuple) -> float:
        return state[0]

    def evaluate(self, state: tuple) -> float:
        raise UnsupportedError("an ExplicitTree has no static values at interior nodes: "
                               f"search it to its full depth {self.d}")

    def hash_key(self, state: tuple) -> int:
        return state[3]

    def node_id(self, state: tuple) -> tuple[int, ...]:
        return state[2]

    def leaves_below(self, state: tuple) -> list[tuple[tuple[int, ...], float]]:
        """(path, value) of every leaf in the subtree, left to right (for traces)."""
        if self.is_terminal(state):
            return [(state[2], state[0])]
        out = []
        for m in self.legal_moves(state):
            out.extend(self.leaves_below(self.play(state, m)))
        return out

    def __repr__(self) -> str:
        return self.name
