"""searchlab.algorithms.minimal_tree against brute force (the reference engine's perfect
ordering, whose oracle is plain minimax over every node) on small positions of every real
game, and against Knuth and Moore on uniform synthetic trees."""

from __future__ import annotations

import pytest

from searchlab import search
from searchlab.algorithms.minimal_tree import minimal_tree
from searchlab.errors import InvalidParameterError
from searchlab.games.chess_game import Chess
from searchlab.games.connect4 import ConnectFour
from searchlab.games.hex import Hex
from searchlab.trees.iid import IIDTree
from tests.algorithms.compiled_cases import positions
from tests.games.test_chess_compiled import POSITIONS


def _same_as_brute_force(game, depth):
    m = minimal_tree(game, depth)
    r = search(game, "alphabeta", "perfect", depth=depth, engine="reference")
    assert (m.value, m.nodes, m.leaves, tuple(m.per_ply)) == \
        (r.value, r.nodes, r.leaves, r.per_ply)
    return m


@pytest.mark.parametrize("game, depth", [("connect4", 5), ("othello", 3)])
def test_equals_brute_force_on_small_positions(game, depth):
    for g in positions(game, 3, seed=24):
        _same_as_brute_force(g, depth)


@pytest.mark.slow
def test_equals_brute_force_hex_and_chess():
    _same_as_brute_force(Hex(5), 3)
    for fen in POSITIONS[:3]:
        _same_as_brute_force(Chess(fen), 2)


@pytest.mark.parametrize("b, d", [(2, 6), (3, 5), (4, 4), (5, 3)])
def test_knuth_moore_on_uniform_trees(b, d):
    for seed in range(3):
        m = minimal_tree(IIDTree(b, d, seed=seed), d)
        assert m.leaves == b ** -(-d // 2) + b ** (d // 2) - 1
        assert m.value == search(IIDTree(b, d, seed=seed), "minimax").value


def test_perfect_order_beats_natural_order():
    g = ConnectFour()
    m = minimal_tree(g, 6)
    assert m.nodes < search(g, "alphabeta", "natural", depth=6).nodes


@pytest.mark.parametrize("kw, match", [({"depth": 0}, "depth"), ({"depth": 2.5}, "depth"),
                                       ({"depth": 3, "value_ordering": "tt+centre"},
                                        "value_ordering")])
def test_bad_input(kw, match):
    with pytest.raises(InvalidParameterError, match=match):
        minimal_tree(ConnectFour(), **kw)
