"""searchlab.algorithms.minimal_tree against brute force on small positions of every real game
and against Knuth and Moore on uniform synthetic trees.

Brute force: with tt off and no quiescence, the reference engine's perfect ordering (its
oracle is plain minimax over every node); with a table or quiescence, which the reference's
search() does not combine with a pure perfect order ("tt+perfect" puts the table's move
first), the reference's own alpha-beta on the Python game, every node's children sorted by
values from a plain minimax written here (quiescence included), so that only the exact values
and the rows differ from minimal_tree's, never the search or its counting."""

from __future__ import annotations

import math

import pytest

from searchlab import search
from searchlab.algorithms import reference
from searchlab.algorithms.context import SearchContext
from searchlab.algorithms.minimal_tree import minimal_tree, policy_settings
from searchlab.algorithms.pruning import (LateMoveReductions, NullMove, Pruning, PruningState,
                                          Quiescence, pruned_alphabeta)
from searchlab.algorithms.tt import TranspositionTable
from searchlab.errors import InvalidParameterError, UnsupportedError
from searchlab.games.chess_game import Chess
from searchlab.games.connect4 import ConnectFour
from searchlab.games.hex import Hex
from searchlab.trees.iid import IIDTree
from tests.algorithms.compiled_cases import positions
from tests.games.test_chess_compiled import POSITIONS


def _same_as_brute_force(game, depth):
    m = minimal_tree(game, depth)
    r = search(game, "alphabeta", "perfect", depth=depth, engine="reference")
    assert (m.value, m.nodes, m.leaves, tuple(m.per_ply), m.best_move) == \
        (r.value, r.nodes, r.leaves, r.per_ply, r.best_move)
    return m


def _brute_force(game, depth, tt_size=None, q=None):
    """(value, nodes, leaves, per_ply, q_nodes, tt_cutoffs) of the reference's alpha-beta with
    a table of ``tt_size`` (None: none) and quiescence ``q``, children sorted best first by
    exact values from plain minimax (memoised on the hash key and the plies left, as the
    reference's perfect-order oracle)."""
    memo = {}

    def qvalue(s, k):
        sp = game.evaluate(s)
        if k >= q.max_depth:
            return sp
        vals = [sp] + [game.utility(c) if game.is_terminal(c) else qvalue(c, k + 1)
                       for c in (game.play(s, m) for m in game.noisy_moves(s))]
        return max(vals) if game.max_to_move(s) else min(vals)

    def value(s, left):
        if game.is_terminal(s):
            return game.utility(s)
        if left == 0:
            return game.evaluate(s) if q is None else qvalue(s, 0)
        key = (game.hash_key(s), left)
        if key not in memo:
            vals = [value(game.play(s, m), left - 1) for m in game.legal_moves(s)]
            memo[key] = max(vals) if game.max_to_move(s) else min(vals)
        return memo[key]

    def order(s, moves, ply):
        vals = {m: value(game.play(s, m), depth - ply - 1) for m in moves}
        return sorted(moves, key=(lambda m: -vals[m]) if game.max_to_move(s) else vals.__getitem__)

    table = None if tt_size is None else TranspositionTable(tt_size)
    pruning = None if q is None else PruningState(Pruning(quiescence=q))
    ctx = SearchContext(game=game, depth=depth, order=order, tt=table, pruning=pruning,
                        child=reference.alphabeta if q is None else pruned_alphabeta)
    v = ctx.child(game.initial_state(), 0, -math.inf, math.inf, ctx)
    return (v, ctx.nodes, ctx.leaves, tuple(ctx.per_ply[:depth + 1]),
            0 if q is None else pruning.q_nodes, 0 if table is None else table.cutoffs)


def _counts(m):
    return (m.value, m.nodes, m.leaves, tuple(m.per_ply), m.q_nodes, m.tt_cutoffs)


@pytest.mark.parametrize("game, depth", [("connect4", 5), ("othello", 3)])
def test_equals_brute_force_on_small_positions(game, depth):
    for g in positions(game, 3, seed=24):
        _same_as_brute_force(g, depth)


@pytest.mark.parametrize("game, depth, tt_size", [("connect4", 6, 1 << 16), ("connect4", 6, 64),
                                                  ("othello", 4, 1 << 16)])
def test_with_a_table_equals_brute_force(game, depth, tt_size):
    cut = 0
    for g in positions(game, 2, seed=7):
        m = minimal_tree(g, depth, tt=True, tt_size=tt_size)
        assert _counts(m) == _brute_force(g, depth, tt_size)
        cut += m.tt_cutoffs
    assert cut > 0          # the table did cut: the check is not the plain tree's again


def test_chess_with_table_and_quiescence_equals_brute_force():
    q = Quiescence(max_depth=2)
    q_nodes = 0
    for fen in POSITIONS[1:4]:
        g = Chess(fen)
        m = minimal_tree(g, 2, tt=True, quiescence=q)
        assert _counts(m) == _brute_force(g, 2, 1 << 16, q)
        q_nodes += m.q_nodes
    assert q_nodes > 0


@pytest.mark.slow
def test_equals_brute_force_hex_and_chess():
    _same_as_brute_force(Hex(5), 3)
    for fen in POSITIONS[:3]:
        _same_as_brute_force(Chess(fen), 2)


@pytest.mark.parametrize("b, d", [(2, 6), (3, 5), (4, 4), (5, 3)])
@pytest.mark.parametrize("tt", [False, True])
def test_knuth_moore_on_uniform_trees(b, d, tt):
    for seed in range(3):
        m = minimal_tree(IIDTree(b, d, seed=seed), d, tt=tt)
        assert m.leaves == b ** -(-d // 2) + b ** (d // 2) - 1
        assert m.value == search(IIDTree(b, d, seed=seed), "minimax").value


def test_perfect_order_beats_natural_order():
    g = ConnectFour()
    m = minimal_tree(g, 6)
    assert m.nodes < search(g, "alphabeta", "natural", depth=6).nodes
    t = minimal_tree(g, 6, tt=True)
    assert t.nodes < search(g, "alphabeta", "tt", depth=6).nodes


def test_policy_settings():
    c4 = ConnectFour()
    assert policy_settings(c4, "id+tt+killer+history") == {"tt": True, "quiescence": None}
    assert policy_settings(c4, "id+killer") == {"tt": False, "quiescence": None}
    q = Quiescence()
    assert policy_settings(Chess(), "staged", Pruning(quiescence=q)) == {"tt": True, "quiescence": q}
    with pytest.raises(UnsupportedError, match="sound"):
        policy_settings(Chess(), "staged", Pruning(null_move=NullMove(), quiescence=q))
    with pytest.raises(UnsupportedError, match="sound"):
        policy_settings(c4, "natural", Pruning(lmr=LateMoveReductions()))


@pytest.mark.parametrize("kw, match", [({"depth": 0}, "depth"), ({"depth": 2.5}, "depth"),
                                       ({"depth": 3, "value_ordering": "tt+centre"},
                                        "value_ordering"),
                                       ({"depth": 3, "tt": 1}, "tt must"),
                                       ({"depth": 3, "tt_size": 1000}, "tt_size"),
                                       ({"depth": 3, "quiescence": 8}, "quiescence")])
def test_bad_input(kw, match):
    with pytest.raises(InvalidParameterError, match=match):
        minimal_tree(ConnectFour(), **kw)


def test_unsupported_quiescence():
    with pytest.raises(UnsupportedError, match="noisy"):
        minimal_tree(ConnectFour(), 3, quiescence=Quiescence())
    with pytest.raises(UnsupportedError, match="delta"):
        minimal_tree(Chess(), 3, quiescence=Quiescence(delta=200.0))


def test_depth_is_capped_and_max_nodes_bounds_the_tree_and_its_oracle():
    """minimal_tree(ConnectFour(), 99) ran without end: a depth over MAX_DEPTH is refused, a
    tree too large for an unbudgeted count is refused before any work, and max_nodes bounds the
    counted tree and each exact-value search (SearchAborted naming it)."""
    from searchlab.errors import SearchAborted

    with pytest.raises(InvalidParameterError, match=r"depth must be an integer in \[1, 200\]"):
        minimal_tree(ConnectFour(), 201)
    with pytest.raises(InvalidParameterError, match=r"minimal_tree\(connect4, depth=99\) without "
                                                    r"max_nodes: .* about 2.06e\+42 leaves"):
        minimal_tree(ConnectFour(), 99)
    with pytest.raises(SearchAborted, match=r"max_nodes=20000 exhausted by an exact-value search"):
        minimal_tree(ConnectFour(), 99, max_nodes=20000)
    full = minimal_tree(ConnectFour(), 3)
    assert minimal_tree(ConnectFour(), 3, max_nodes=full.nodes).nodes == full.nodes
    with pytest.raises(SearchAborted, match="exhausted by the perfectly ordered tree"):
        minimal_tree(ConnectFour(), 3, max_nodes=full.nodes - 1)
    with pytest.raises(InvalidParameterError, match="max_nodes must be"):
        minimal_tree(ConnectFour(), 3, max_nodes=0)
    tree = IIDTree(3, 4, seed=1)        # no static values: the oracle is plain minimax, counted
    with pytest.raises(SearchAborted, match="exhausted by the exact values' minimax"):
        minimal_tree(tree, 4, max_nodes=5)
    assert minimal_tree(tree, 4, max_nodes=10**6).nodes == minimal_tree(tree, 4).nodes
