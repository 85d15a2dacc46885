"""What every synthetic tree model shares: the Game protocol over implicit nodes.

A node is a tuple whose first three fields are (key, ply, index): its 64-bit key, its ply
(root = 0, MAX to move at even plies) and its level-order index (root 0, child i of j is
j*b + i). (ply, index) names a node without collision; the oracle memoises on it. Models add
fields after these three (a value, a static value). Definitions: docs/trees.md.
"""

from __future__ import annotations

import math
from numbers import Integral, Real
from typing import Any

from searchlab.errors import InvalidParameterError, UnsupportedError
from searchlab.contracts.protocol import Capabilities
from searchlab.limits import MAX_BRANCHING, MAX_DEPTH, MAX_SEED, excerpt


def check_int(name: str, value: Any, minimum: int, maximum: int | None = None) -> int:
    """Return value as an int, or raise InvalidParameterError naming the parameter and range."""
    if isinstance(value, bool) or not isinstance(value, Integral):
        raise InvalidParameterError(f"{name} must be an integer >= {minimum}; got {excerpt(value)}")
    if value < minimum or (maximum is not None and value > maximum):
        allowed = f">= {minimum}" if maximum is None else f"in [{minimum}, {maximum}]"
        raise InvalidParameterError(f"{name} must be an integer {allowed}; got {excerpt(value)}")
    return int(value)


def check_real(name: str, value: Any, low: float, high: float, *, low_open: bool = False) -> float:
    """Return value as a float in [low, high] ((low, high] if low_open), else raise."""
    if isinstance(value, bool) or not isinstance(value, Real) or math.isnan(float(value)):
        raise InvalidParameterError(f"{name} must be a number; got {excerpt(value)}")
    v = float(value)
    if (v <= low if low_open else v < low) or v > high:
        interval = f"({low}, {high}]" if low_open else f"[{low}, {high}]"
        raise InvalidParameterError(f"{name} must be in {interval}; got {excerpt(value)}")
    return v


class SyntheticTree:
    """Base of the uniform synthetic trees: branching b in [1, MAX_BRANCHING], depth d in
    [0, MAX_DEPTH], seed in [0, 2^64 - 1] (searchlab.limits; InvalidParameterError outside).

    Moves are natural indices 0..b-1; a leaf is a node at ply d; values are from MAX's view.
    Subclasses set ``model`` and implement ``root_state``, ``play`` and ``utility`` (the leaf value).
    """

    model = "synthetic"
    capabilities: Capabilities = Capabilities(node_ids=True)

    def __init__(self, b: int, d: int, seed: int = 0) -> None:
        self.b = check_int("b", b, 1, MAX_BRANCHING)
        self.d = check_int("d", d, 0, MAX_DEPTH)
        self.seed = check_int("seed", seed, 0, MAX_SEED)
        self._moves = tuple(range(self.b))

    @property
    def name(self) -> str:
        return f"{self.model}(b={self.b}, d={self.d}, seed={self.seed})"

    @property
    def default_depth(self) -> int:
        return self.d

    def leaf_count(self, depth: float | None = None) -> int:
        """Leaves of a search to horizon ``depth`` (default d): b ** min(depth, d)."""
        return self.b ** (self.d if depth is None else int(min(depth, self.d)))

    # --- the Game protocol -------------------------------------------------------------
    def initial_state(self) -> tuple:
        return self.root_state()

    def max_to_move(self, state: tuple) -> bool:
        return state[1] % 2 == 0

    def legal_moves(self, state: tuple) -> tuple[int, ...]:
        return () if state[1] >= self.d else self._moves

    def is_terminal(self, state: tuple) -> bool:
        return state[1] >= self.d

    def evaluate(self, state: tuple) -> float:
        raise UnsupportedError(
            f"the {self.model} tree has no static values at interior nodes: search it to its full "
            f"depth d={self.d}, or use the incremental tree model")

    def hash_key(self, state: tuple) -> int:
        return state[0]

    def node_id(self, state: tuple) -> tuple[int, int]:
        """(ply, level-order index): a collision-free name of the node."""
        return state[1], state[2]

    def __repr__(self) -> str:
        return self.name

    # --- for subclasses ----------------------------------------------------------------
    def root_state(self) -> tuple:
        raise NotImplementedError

    def play(self, state: tuple, move: int) -> tuple:
        raise NotImplementedError

    def utility(self, state: tuple) -> float:
        raise NotImplementedError
