"""A tree given as nested lists: the textbook examples, any depth, ragged allowed."""

from __future__ import annotations

from numbers import Integral, Real
from typing import Any

from searchlab.errors import InvalidParameterError, UnsupportedError
from searchlab.contracts.protocol import Capabilities
from searchlab.hashing import child_key, root_key
from searchlab.limits import MAX_DEPTH, MAX_EXPLICIT_NODES, MAX_VALUE, excerpt


def _validate(nested: Any) -> tuple[int, int]:
    """Return (depth, leaves) of the tree, or raise naming the offending path.

    Iterative (an explicit stack), so a deep nesting cannot hit Python's recursion limit; the
    depth is limited to MAX_DEPTH and the size to MAX_EXPLICIT_NODES (searchlab.limits), and a
    message quotes at most a short excerpt of a value."""
    depth = leaves = nodes = 0
    stack: list[tuple[Any, tuple[int, ...]]] = [(nested, ())]
    while stack:
        node, path = stack.pop()
        nodes += 1
        if nodes > MAX_EXPLICIT_NODES:
            raise InvalidParameterError(
                f"ExplicitTree: more than {MAX_EXPLICIT_NODES} nodes (the limit of a tree held "
                "as nested lists)")
        if len(path) > MAX_DEPTH:
            raise InvalidParameterError(
                f"ExplicitTree: nesting deeper than {MAX_DEPTH} levels (the depth limit, "
                f"searchlab.limits.MAX_DEPTH) at {_where(path)}")
        if isinstance(node, (list, tuple)):
            if not node:
                raise InvalidParameterError(
                    f"ExplicitTree: {_where(path)} is an empty list; a node is a number (leaf) "
                    "or a non-empty list of nodes")
            stack.extend((c, path + (i,)) for i, c in reversed(list(enumerate(node))))
            continue
        if isinstance(node, bool) or not isinstance(node, Real) or (
                isinstance(node, Integral) and abs(int(node)) > MAX_VALUE) or (
                not isinstance(node, Integral) and not abs(float(node)) <= MAX_VALUE):
            raise InvalidParameterError(
                f"ExplicitTree: {_where(path)} is {excerpt(node)}; a leaf must be a finite real "
                f"number of magnitude at most {MAX_VALUE:g} (searchlab.limits.MAX_VALUE; not "
                "NaN, not bool)")
        depth, leaves = max(depth, len(path)), leaves + 1
    return depth, leaves


def _where(path: tuple[int, ...]) -> str:
    if not path:
        return "the root"
    shown = ".".join(map(str, path[:8])) + (f"... ({len(path)} levels down)" if len(path) > 8 else "")
    return "node " + shown


class ExplicitTree:
    """A game tree given as nested lists of numbers (leaf values, MAX's view); the root is MAX.

    Moves are child indices (natural order = list order). State: (subtree, ply, path, key),
    with ``path`` the tuple of moves from the root (``node_id``) and keys as in docs/trees.md
    with seed 0 (used only by the random ordering).
    """

    model = "explicit"
    capabilities = Capabilities(node_ids=True, leaves_below=True)

    def __init__(self, nested: Any) -> None:
        self.d, self.n_leaves = _validate(nested)
        self.nested = nested
        self.seed = 0
        self.root_key = root_key(0)

    @property
    def name(self) -> str:
        return f"explicit({excerpt(self.nested)})"

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
