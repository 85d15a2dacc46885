"""Chance search under the orderings "random" and "perfect" (searchlab/algorithms/chance_search.py):
Star1/Star2 return expectiminimax's value under every ordering, "perfect" puts the best move
first, "random" is a function of its seed, bad input is refused before any search."""

from __future__ import annotations

import pytest

from searchlab.algorithms.chance_search import CHANCE_ORDERINGS, search_chance
from searchlab.errors import InvalidParameterError, UnsupportedError
from searchlab.games.pig import Pig, PigState
from searchlab.trees.chance_tree import ChanceTree, ExplicitChanceTree


@pytest.mark.parametrize("ordering", ["natural", "random", "perfect"])
def test_star_searches_return_expectiminimax_value_under_every_ordering(ordering):
    for seed in range(8):
        for b, n, d, levels in ((2, 2, 3, 0), (3, 2, 2, 3), (2, 3, 2, 2)):
            tree = ChanceTree(b, n, d, seed=seed, levels=levels)
            e = search_chance(tree, "expectiminimax")
            for alg in ("alphabeta-emm", "star1", "star2"):
                r = search_chance(tree, alg, ordering, order_seed=seed)
                assert r.value == e.value, (tree, alg, ordering)
                assert r.best_move in e.best_moves


@pytest.mark.parametrize("ordering", CHANCE_ORDERINGS)
def test_pig_positions_same_value_under_every_ordering(ordering):
    for root in (PigState((0, 0), 0, 0, False, 0), PigState((12, 15), 4, 1, False, 0)):
        g = Pig(winscore=20, root=root)
        e = search_chance(g, "expectiminimax", depth=4)
        for alg in ("star1", "star2"):
            assert search_chance(g, alg, ordering, depth=4, order_seed=3).value == e.value


def test_perfect_ordering_searches_the_best_move_first():
    # MAX's moves in natural order worst first: a perfect ordering reverses them, so Star1
    # needs the first child exactly and then cuts the second with the bounds [0, 10]
    spec = ("max", [("chance", [(0.5, 1), (0.5, 1)]), ("chance", [(0.5, 9), (0.5, 9)])])
    tree = ExplicitChanceTree(spec, bounds=(0, 10))
    nat = search_chance(tree, "star1", "natural")
    per = search_chance(tree, "star1", "perfect")
    assert nat.value == per.value == 9
    assert per.per_ply[1] == 2 and per.nodes < nat.nodes
    # the perfect order's first root move is the best: its subtree is searched first
    assert per.best_move == 1


def test_random_ordering_is_a_function_of_its_seed():
    tree = ChanceTree(3, 2, 3, seed=4)
    runs = {s: search_chance(tree, "star2", "random", order_seed=s).nodes for s in range(6)}
    assert runs == {s: search_chance(tree, "star2", "random", order_seed=s).nodes for s in range(6)}
    assert len(set(runs.values())) > 1          # different seeds, different orders


def test_bad_order_seed_and_compiled_engine_are_refused():
    tree = ChanceTree(2, 2, 2)
    for bad in (-1, 1.5, True, "3"):
        with pytest.raises(InvalidParameterError, match="order_seed"):
            search_chance(tree, "star1", "random", order_seed=bad)
    with pytest.raises(UnsupportedError, match="compiled"):
        search_chance(Pig(winscore=20), "star1", "perfect", depth=2, engine="compiled")
    with pytest.raises(InvalidParameterError, match="ordering must be one of natural, static, random, perfect"):
        search_chance(tree, "star1", "best")
