"""n-player search (searchlab/algorithms/multiplayer.py) on synthetic trees and Rolit."""

from __future__ import annotations

import itertools

import pytest

from searchlab.algorithms.multiplayer import search_multiplayer
from searchlab.errors import InvalidParameterError, UnsupportedError
from searchlab.games.rolit import Rolit
from searchlab.trees.nplayer_tree import NPlayerTree


@pytest.mark.parametrize("n", [3, 4])
def test_shallow_pruning_returns_maxn_vector_and_paranoid_equals_its_minimax(n):
    for b, d in ((2, 4), (3, 4), (3, 5)):
        for seed in range(8):
            t = NPlayerTree(n, b, d, seed=seed, values="constsum", total=3 + seed)
            m = search_multiplayer(t, "maxn")
            s = search_multiplayer(t, "maxn-shallow")
            assert s.values == m.values and s.best_move == m.best_move
            assert s.nodes <= m.nodes and m.leaves == b ** d
            for values, levels in (("iid", 0), ("iid", 3), ("constsum", 0)):
                u = NPlayerTree(n, b, d, seed=seed, values=values, levels=levels)
                pm = search_multiplayer(u, "paranoid-minimax")
                pa = search_multiplayer(u, "paranoid")
                assert pa.value == pm.value and pa.best_move == pm.best_move
                assert pa.values == pm.values and pa.nodes <= pm.nodes


def _paranoid_by_hand(t, state, ply, root):
    if t.is_terminal(state):
        return t.utility_vector(state)[root]
    vals = [_paranoid_by_hand(t, t.play(state, m), ply + 1, root) for m in t.legal_moves(state)]
    return max(vals) if t.to_move(state) == root else min(vals)


def test_paranoid_minimax_is_the_coalition_value():
    t = NPlayerTree(3, 3, 4, seed=2)
    assert search_multiplayer(t, "paranoid-minimax").value == _paranoid_by_hand(t, t.initial_state(), 0, 0)


def _brs_by_hand(t, state, ply, depth):
    """BRS by its definition: root player 0 at even plies; at odd plies the minimum over
    every opponent's every move (the other opponents pass)."""
    if ply == depth:
        return t.utility_vector(state)[0]
    if ply % 2 == 0:
        s = t.with_mover(state, 0)
        return max(_brs_by_hand(t, t.play(s, m), ply + 1, depth) for m in range(t.b))
    return min(_brs_by_hand(t, t.play(t.with_mover(state, p), m), ply + 1, depth)
               for p in range(1, t.n_players) for m in range(t.b))


def test_brs_small_tree_by_hand():
    """3 players, b = 2, two BRS plies: player 0 picks i, then opponents 1 and 2 each offer two
    replies and the worst of the four for player 0 counts."""
    t = NPlayerTree(3, 2, 2, seed=7, levels=10)
    root = t.initial_state()
    table = {}
    for i in range(2):
        a = t.play(root, i)                            # next mover would be 1
        table[i] = [t.utility_vector(t.play(t.with_mover(a, p), j))[0] for p in (1, 2) for j in range(2)]
    expected = max(min(v) for v in table.values())
    r = search_multiplayer(t, "brs")
    assert r.value == expected
    assert r.best_move == max(range(2), key=lambda i: (min(table[i]), -i))
    for n, b, d, seed in itertools.product((3, 4), (2, 3), (2, 3, 4), range(3)):
        u = NPlayerTree(n, b, d, seed=seed)
        assert search_multiplayer(u, "brs").value == _brs_by_hand(u, u.initial_state(), 0, d)


def test_constsum_vectors_are_nonnegative_and_sum_to_total():
    t = NPlayerTree(4, 3, 3, seed=1, values="constsum", total=9)
    s = t.initial_state()
    for path in itertools.product(range(3), repeat=3):
        x = s
        for m in path:
            x = t.play(x, m)
        v = t.utility_vector(x)
        assert min(v) >= 0 and sum(v) == 9


@pytest.mark.parametrize("n", [3, 4])
def test_rolit_algorithms_agree_where_they_must(n):
    g = Rolit.random(n, 12, seed=3)
    m = search_multiplayer(g, "maxn", depth=3)
    s = search_multiplayer(g, "maxn-shallow", depth=3)
    assert s.values == m.values and s.best_move == m.best_move
    pm = search_multiplayer(g, "paranoid-minimax", depth=3)
    pa = search_multiplayer(g, "paranoid", depth=3)
    assert pa.value == pm.value and pa.nodes < pm.nodes
    assert search_multiplayer(g, "brs", depth=2).status == "ok"


def test_shallow_pruning_refuses_games_without_constant_sum():
    t = NPlayerTree(3, 2, 2, values="iid")
    with pytest.raises(UnsupportedError, match="constant-sum"):
        search_multiplayer(t, "maxn-shallow")
    with pytest.raises(InvalidParameterError, match="summing to total"):
        search_multiplayer(t, "maxn-shallow", total=1.0)


@pytest.mark.parametrize("kwargs,match", [
    (dict(algorithm="alphabeta"), "algorithm must be one of"),
    (dict(depth=-2), "depth must be"),
    (dict(max_nodes=0), "max_nodes must be"),
])
def test_bad_input(kwargs, match):
    with pytest.raises(InvalidParameterError, match=match):
        search_multiplayer(NPlayerTree(3, 2, 2), **kwargs)


def test_budget_aborts():
    r = search_multiplayer(NPlayerTree(3, 3, 5, seed=1), "maxn", max_nodes=10)
    assert r.status == "aborted" and r.values is None and r.nodes == 11


@pytest.mark.parametrize("n,b", [(3, 2), (3, 3), (4, 3)])
def test_paranoid_perfect_order_meets_its_minimal_tree(n, b):
    """With the perfect (oracle) order paranoid examines exactly
    b^ceil(d/n) + b^(d - ceil(d/n)) - 1 leaves: Knuth and Moore's minimal tree with the
    coalition's n-1 plies as one MIN ply; b^(d(n-1)/n) asymptotically (Sturtevant & Korf)."""
    for d in range(1, 7):
        t = NPlayerTree(n, b, d, seed=d)
        r = search_multiplayer(t, "paranoid", ordering="perfect")
        mx = -(-d // n)
        assert r.leaves == b ** mx + b ** (d - mx) - 1
        assert r.value == search_multiplayer(t, "paranoid-minimax").value
