"""Chance trees: the synthetic model of docs/chance-tree-spec.md and explicit chance trees
(the background's Ludo example). Both satisfy searchlab.contracts.protocol.ChanceGame."""

from __future__ import annotations

import math
from dataclasses import replace
from numbers import Real
from typing import Any

from searchlab.errors import InvalidParameterError, UnsupportedError
from searchlab.contracts.protocol import CHANCE
from searchlab.hashing import child_key, root_key, unit
from searchlab.trees import chance_tree_compiled
from searchlab.trees.base import check_int

#: node kinds by level mod 4 in the synthetic chance tree
MAX_NODE, CHANCE_AFTER_MAX, MIN_NODE, CHANCE_AFTER_MIN = range(4)


def check_probs(probs: Any, n: int) -> tuple[float, ...]:
    """n positive probabilities summing to 1 (within 1e-9), as floats; raise naming ``probs``."""
    try:
        ps = tuple(float(p) for p in probs)
    except (TypeError, ValueError):
        raise InvalidParameterError(f"probs must be a sequence of {n} numbers; got {probs!r}") from None
    if len(ps) != n or any(not (p > 0) or math.isinf(p) for p in ps) or abs(sum(ps) - 1.0) > 1e-9:
        raise InvalidParameterError(
            f"probs must be {n} positive probabilities summing to 1; got {probs!r}")
    return ps


class ChanceTree:
    """The synthetic chance tree: levels alternate MAX, chance, MIN, chance; b moves at a
    decision node, n outcomes at a chance node with probabilities ``probs`` (default uniform
    1/n); d decision plies, so leaves lie at level 2d and there are (b·n)^d of them.

    Leaf values, MAX's view, i.i.d. from the leaf's key: levels = 0: low + (high - low) · unit(key)
    in [low, high); levels = K >= 2: low + (high - low) · (key mod K) / (K - 1). Keys: the
    i.i.d. tree's scheme (root mix64(seed + GOLDEN), child i mix64(key + (i+1)·GOLDEN)) over
    moves and outcomes alike. State: (key, level). ``value_bounds`` = (low, high).
    """

    model = "chance"
    capabilities = replace(CHANCE, family_compiled=True)
    has_static = False

    def __init__(self, b: int, n: int, d: int, seed: int = 0, low: float = 0.0, high: float = 1.0,
                 levels: int = 0, probs: Any = None) -> None:
        self.b = check_int("b", b, 1)
        self.n = check_int("n", n, 1)
        self.d = check_int("d", d, 0)
        self.seed = check_int("seed", seed, 0)
        self.levels = check_int("levels", levels, 0)
        if self.levels == 1:
            raise InvalidParameterError("levels must be 0 (continuous) or an integer >= 2; got 1")
        for name, x in (("low", low), ("high", high)):
            if isinstance(x, bool) or not isinstance(x, Real) or not math.isfinite(x):
                raise InvalidParameterError(f"{name} must be a finite number; got {x!r}")
        if not low < high:
            raise InvalidParameterError(f"low must be < high; got low={low!r}, high={high!r}")
        self.low, self.high = float(low), float(high)
        self.probs = (1.0 / self.n,) * self.n if probs is None else check_probs(probs, self.n)
        self.root_key = root_key(self.seed)
        self._moves = tuple(range(self.b))
        self._outcomes = tuple(enumerate(self.probs))

    @property
    def name(self) -> str:
        extra = "" if self.probs == (1.0 / self.n,) * self.n else f", probs={self.probs}"
        return (f"chance(b={self.b}, n={self.n}, d={self.d}, seed={self.seed}, low={self.low}, "
                f"high={self.high}, levels={self.levels}{extra})")

    value_bounds = property(lambda self: (self.low, self.high))
    default_depth = property(lambda self: self.d)

    def leaf_count(self) -> int:
        return (self.b * self.n) ** self.d

    def initial_state(self) -> tuple[int, int]:
        return (self.root_key, 0)

    def is_terminal(self, state: tuple[int, int]) -> bool:
        return state[1] >= 2 * self.d

    def is_chance(self, state: tuple[int, int]) -> bool:
        return state[1] % 2 == 1 and state[1] < 2 * self.d

    def max_to_move(self, state: tuple[int, int]) -> bool:
        return state[1] % 4 == MAX_NODE

    def legal_moves(self, state: tuple[int, int]) -> tuple[int, ...]:
        return () if self.is_terminal(state) or state[1] % 2 else self._moves

    def chance_outcomes(self, state: tuple[int, int]) -> tuple[tuple[int, float], ...]:
        return self._outcomes

    def play(self, state: tuple[int, int], i: int) -> tuple[int, int]:
        return (child_key(state[0], i), state[1] + 1)

    def utility(self, state: tuple[int, int]) -> float:
        key = state[0]
        if self.levels:
            return self.low + (self.high - self.low) * (key % self.levels) / (self.levels - 1)
        return self.low + (self.high - self.low) * unit(key)

    def evaluate(self, state: tuple[int, int]) -> float:
        raise UnsupportedError(f"the chance tree has no static values: search it to its depth {self.d}")

    def hash_key(self, state: tuple[int, int]) -> int:
        return state[0]

    def family_primitives(self) -> Any:
        """The compiled chance engine's primitives (searchlab.trees.chance_tree_compiled)."""
        return chance_tree_compiled.compiled_chance_game(self)

    def __repr__(self) -> str:
        return self.name


# --------------------------------------------------------------------------- explicit trees

def _check_node(node: Any, path: tuple) -> tuple[float, float]:
    """Validate an explicit chance-tree node; return (min, max) of its leaves."""
    where = "the root" if not path else "node " + ".".join(map(str, path))
    if isinstance(node, bool) or (not isinstance(node, (Real, tuple, list))):
        raise InvalidParameterError(f"ExplicitChanceTree: {where} is {node!r}; a node is a number "
                                    "or (kind, children) with kind 'max', 'min' or 'chance'")
    if isinstance(node, Real):
        if math.isnan(float(node)):
            raise InvalidParameterError(f"ExplicitChanceTree: {where} is NaN")
        return float(node), float(node)
    if len(node) != 2 or node[0] not in ("max", "min", "chance") or not node[1]:
        raise InvalidParameterError(f"ExplicitChanceTree: {where} must be (kind, non-empty children) "
                                    f"with kind 'max', 'min' or 'chance'; got {node!r}")
    kind, children = node
    if kind == "chance":
        for i, c in enumerate(children):
            if not (isinstance(c, (tuple, list)) and len(c) == 2):
                raise InvalidParameterError(f"ExplicitChanceTree: outcome {i} of {where} must be "
                                            f"(probability, node); got {c!r}")
        check_probs([c[0] for c in children], len(children))
        subs = [_check_node(c[1], path + (i,)) for i, c in enumerate(children)]
    else:
        subs = [_check_node(c, path + (i,)) for i, c in enumerate(children)]
    return min(s[0] for s in subs), max(s[1] for s in subs)


class ExplicitChanceTree:
    """A chance tree given explicitly: a node is a number (a leaf, MAX's view),
    ``("max", [children])``, ``("min", [children])`` or ``("chance", [(p, child), ...])``.
    Moves and outcomes are child indices. State: (node, path). ``value_bounds`` are the
    extreme leaves unless given. ``move_names`` names the root's moves (for reports)."""

    model = "explicit-chance"
    capabilities = CHANCE
    has_static = False

    def __init__(self, spec: Any, bounds: tuple[float, float] | None = None,
                 move_names: tuple[str, ...] | None = None) -> None:
        lo, hi = _check_node(spec, ())
        self.spec = spec
        self.value_bounds = (lo, hi if hi > lo else lo + 1.0) if bounds is None else bounds
        self.move_names = move_names
        self.default_depth = None

    @property
    def name(self) -> str:
        return f"explicit-chance({self.spec!r})"

    def initial_state(self) -> tuple:
        return (self.spec, ())

    def is_terminal(self, state: tuple) -> bool:
        return isinstance(state[0], Real)

    def is_chance(self, state: tuple) -> bool:
        return not self.is_terminal(state) and state[0][0] == "chance"

    def max_to_move(self, state: tuple) -> bool:
        return not self.is_terminal(state) and state[0][0] == "max"

    def legal_moves(self, state: tuple) -> range:
        return range(0) if self.is_terminal(state) or self.is_chance(state) else range(len(state[0][1]))

    def chance_outcomes(self, state: tuple) -> list[tuple[int, float]]:
        return [(i, float(c[0])) for i, c in enumerate(state[0][1])]

    def play(self, state: tuple, i: int) -> tuple:
        node, path = state
        child = node[1][i]
        return (child[1] if node[0] == "chance" else child, path + (i,))

    def utility(self, state: tuple) -> float:
        return float(state[0])

    def evaluate(self, state: tuple) -> float:
        raise UnsupportedError("an explicit chance tree has no static values: search it to the end")

    def hash_key(self, state: tuple) -> int:
        key = root_key(0)
        for i in state[1]:
            key = child_key(key, i)
        return key

    def relabel(self, mapping: Any) -> "ExplicitChanceTree":
        """The same tree with every leaf v replaced by mapping(v) (a callable or a dict)."""
        f = mapping if callable(mapping) else mapping.__getitem__

        def walk(node):
            if isinstance(node, Real):
                return f(node)
            kind, ch = node
            if kind == "chance":
                return (kind, [(p, walk(c)) for p, c in ch])
            return (kind, [walk(c) for c in ch])
        return ExplicitChanceTree(walk(self.spec), move_names=self.move_names)

    def __repr__(self) -> str:
        return self.name


#: the course notes' Ludo example (CSE 4355 W5, minimax and alpha-beta; docs/chance-and-multiplayer.md): (a1) safe square, utility 2 or 6 with probability 1/2
#: each; (a2) race ahead, 6 with probability 0.8, -5 with 0.2 (the opponent's capture).
LUDO_SPEC = ("max", [("chance", [(0.5, 2), (0.5, 6)]), ("chance", [(0.8, 6), (0.2, -5)])])


def ludo_example() -> ExplicitChanceTree:
    """The Ludo example as a chance tree: move 0 = safe (value 4.0), move 1 = race (3.8)."""
    return ExplicitChanceTree(LUDO_SPEC, move_names=("safe", "race"))
