"""searchlab.algorithms.proof_tree.smallest_tree against brute force over every assignment of
child orders (reference alpha-beta run once per assignment) on small explicit trees, ties and
ragged trees included; and its relation to the perfectly ordered tree on real positions."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from searchlab import search
from searchlab.algorithms import reference
from searchlab.algorithms.context import SearchContext
from searchlab.algorithms.minimal_tree import minimal_tree
from searchlab.algorithms.proof_tree import smallest_tree
from searchlab.errors import InvalidParameterError, TreeTooLargeError
from searchlab.games.connect4 import ConnectFour
from searchlab.trees.explicit import ExplicitTree
from searchlab.trees.iid import IIDTree
from tests.algorithms.compiled_cases import positions


def _random_nested(rng, depth, max_b, values):
    if depth <= 0:
        return int(rng.integers(values))
    return [_random_nested(rng, depth - 1 - int(rng.random() < 0.15), max_b, values)
            for _ in range(int(rng.integers(1, max_b + 1)))]


def _interior(nested, path=()):
    if isinstance(nested, list):
        yield path, len(nested)
        for i, c in enumerate(nested):
            yield from _interior(c, path + (i,))


def _brute_force_min(nested):
    tree = ExplicitTree(nested)
    nodes = list(_interior(nested))
    best = math.inf
    for perms in itertools.product(*(itertools.permutations(range(k)) for _, k in nodes)):
        chosen = {p: list(o) for (p, _), o in zip(nodes, perms)}
        ctx = SearchContext(game=tree, depth=tree.default_depth, child=reference.alphabeta,
                            order=lambda s, moves, ply: chosen[tree.node_id(s)])
        reference.alphabeta(tree.initial_state(), 0, -math.inf, math.inf, ctx)
        best = min(best, ctx.nodes)
    return best


def test_equals_brute_force_over_all_orderings():
    rng = np.random.default_rng(5)
    checked = smaller = 0
    while checked < 40:
        nested = _random_nested(rng, int(rng.integers(2, 4)), 3, int(rng.integers(2, 9)))
        if not isinstance(nested, list) or \
                math.prod(math.factorial(k) for _, k in _interior(nested)) > 5000:
            continue
        s = smallest_tree(ExplicitTree(nested))
        assert s.nodes == _brute_force_min(nested), nested
        assert s.value == search(ExplicitTree(nested), "minimax").value
        smaller += s.nodes < minimal_tree(ExplicitTree(nested), s.depth).nodes
        checked += 1
    assert smaller > 0      # ties: some order beats the perfect one (stable ties), and is found


@pytest.mark.parametrize("b, d", [(2, 6), (3, 4), (4, 3)])
def test_uniform_distinct_values_meet_knuth_moore(b, d):
    # distinct values: no order beats the perfect one (Knuth and Moore)
    for seed in range(3):
        g = IIDTree(b, d, seed=seed)
        assert smallest_tree(g).nodes == minimal_tree(g, d).nodes


def test_never_above_the_perfect_order_on_real_positions():
    for g in positions("connect4", 3, seed=3):
        s, m = smallest_tree(g, 4), minimal_tree(g, 4)
        assert s.value == m.value and s.nodes <= m.nodes
    assert smallest_tree(ConnectFour(), 4).nodes <= minimal_tree(ConnectFour(), 4).nodes


def test_bad_input_and_limit():
    with pytest.raises(InvalidParameterError, match="depth"):
        smallest_tree(ConnectFour(), 0)
    with pytest.raises(InvalidParameterError, match="max_nodes"):
        smallest_tree(ConnectFour(), 2, max_nodes=0)
    with pytest.raises(TreeTooLargeError, match="max_nodes"):
        smallest_tree(ConnectFour(), 5, max_nodes=100)
