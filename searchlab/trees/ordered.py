"""The ordered tree: every node's minimax value known by construction (docs/trees.md).

Values are assigned top-down, so the best child of every node is known without search: perfect
and worst orders need no oracle at any size, and the knob p sets the probability that the best
move comes first in natural order (p = 1 perfect, p = 1/b random, p = 0 worst-first).
"""

from __future__ import annotations

from functools import lru_cache

from searchlab.contracts.protocol import Capabilities
from searchlab.hashing import GOLDEN, MASK64, ORDER_SALT, mix64, root_key, unit
from searchlab.trees import ordered_compiled
from searchlab.trees.base import SyntheticTree, check_real


def mixture_weights(b: int, p: float) -> tuple[float, float]:
    """(w_best, w_random) of the ordering mixture for P(best first) = p (docs/trees.md)."""
    if p <= 1.0 / b:
        return 0.0, p * b
    w_best = (p * b - 1.0) / (b - 1.0)
    return w_best, 1.0 - w_best


def _draw(key: int, j: int) -> float:
    return unit(mix64(((key ^ ORDER_SALT) + (j + 1) * GOLDEN) & MASK64))


@lru_cache(maxsize=4096)
def layout(key: int, b: int, w_best: float, w_random: float) -> tuple[tuple[int, ...], tuple[float, ...]]:
    """(rank of each natural child, offset of each rank) at the node with this key.

    Pure function of its arguments; cached because a depth-first search asks for the same
    node's layout once per child (the cache holds at least the current path's ancestors).
    """
    m = _draw(key, 0)
    if m < w_best:
        ranks = tuple(range(b))
    elif m < w_best + w_random:
        draws = [(_draw(key, 1 + i), i) for i in range(b)]
        by_draw = sorted(range(b), key=lambda i: draws[i])
        rank = [0] * b
        for r, i in enumerate(by_draw):
            rank[i] = r
        ranks = tuple(rank)
    else:
        ranks = tuple(b - 1 - i for i in range(b))
    deltas = [0.0]
    for r in range(1, b):
        deltas.append(deltas[-1] + 0.5 + _draw(key, b + r))
    return ranks, tuple(deltas)


class OrderedTree(SyntheticTree):
    """Uniform tree whose node values are known by construction; ordering-quality knob p in [0, 1].

    State: (key, ply, index, value, rank): value is the node's exact minimax value (MAX's
    view) and rank its rank among its siblings (0 = best for the side to move at the parent).
    """

    model = "ordered"
    capabilities = Capabilities(node_ids=True, exact_values=True, kernel_model="ordered",
                                compiled=True)

    def __init__(self, b: int, d: int, seed: int = 0, p: float = 1.0) -> None:
        super().__init__(b, d, seed)
        self.p = check_real("p", p, 0.0, 1.0)
        self.root_key = root_key(self.seed)
        self._weights = mixture_weights(self.b, self.p)

    @property
    def name(self) -> str:
        return f"ordered(b={self.b}, d={self.d}, seed={self.seed}, p={self.p})"

    def root_state(self) -> tuple:
        return (self.root_key, 0, 0, 0.0, 0)

    def play(self, state: tuple, i: int) -> tuple:
        key, ply, index, value, _ = state
        ranks, deltas = layout(key, self.b, *self._weights)
        r = ranks[i]
        v = value - deltas[r] if ply % 2 == 0 else value + deltas[r]
        return (mix64((key + (i + 1) * GOLDEN) & MASK64), ply + 1, index * self.b + i, v, r)

    def compiled_primitives(self):
        """The compiled engine's primitives (searchlab.trees.ordered_compiled)."""
        return ordered_compiled.compiled_game(self)

    def utility(self, state: tuple) -> float:
        return state[3]

    def exact_value(self, state: tuple) -> float:
        """The node's minimax value, known by construction."""
        return state[3]
