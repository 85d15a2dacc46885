"""The OpenSpiel adapter (searchlab/games/openspiel.py) and cross-checks against pyspiel.

Skipped with a message where the optional extra 'openspiel' (open-spiel) is not installed."""

from __future__ import annotations

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="open-spiel not installed (pip install -e '.[openspiel]')")

from open_spiel.python.algorithms import minimax as os_minimax  # noqa: E402

from searchlab.algorithms.search_api import search  # noqa: E402
from searchlab.algorithms.chance_search import search_chance  # noqa: E402
from searchlab.algorithms.multiplayer import search_multiplayer  # noqa: E402
from searchlab.errors import InvalidParameterError, UnsupportedError  # noqa: E402
from searchlab.games.connect4 import ConnectFour  # noqa: E402
from searchlab.games.openspiel import OpenSpielGame  # noqa: E402
from searchlab.games.pig import Pig, evaluate_text  # noqa: E402
from searchlab.games.tictactoe import TicTacToe  # noqa: E402


def test_capabilities_from_the_game_type():
    t = OpenSpielGame("tic_tac_toe")
    assert t.capabilities.deterministic and t.capabilities.two_player and t.capabilities.zero_sum
    p = OpenSpielGame("pig", winscore=10)
    assert not p.capabilities.deterministic and p.is_chance(p.play(p.initial_state(), 0))
    c = OpenSpielGame("chinese_checkers", players=3)
    assert not c.capabilities.two_player and c.n_players == 3
    with pytest.raises(UnsupportedError, match="perfect information"):
        OpenSpielGame("kuhn_poker")
    with pytest.raises(InvalidParameterError, match="not an OpenSpiel game"):
        OpenSpielGame("no_such_game")


def test_position_text_is_openspiel_serialisation():
    g = OpenSpielGame("tic_tac_toe")
    s = g.play(g.play(g.initial_state(), 4), 0)
    text = g.position_text(s)
    assert text == s.serialize() and str(g.from_text(text)) == str(s)


def test_tictactoe_counts_and_values_equal_searchlab_tictactoe():
    """Same move order (cells 0..8), same payoffs (+1/0/-1): node for node."""
    os_g, own = OpenSpielGame("tic_tac_toe"), TicTacToe()
    a = search(os_g, "alphabeta", engine="reference")
    b = search(own, "alphabeta", engine="reference")
    assert (a.value, a.best_move, a.nodes, a.leaves, a.cutoffs, a.per_ply) == \
        (b.value, b.best_move, b.nodes, b.leaves, b.cutoffs, b.per_ply)
    assert (a.value, a.nodes, a.leaves) == (0.0, 18297, 7330)      # searchlab's documented counts
    v, _ = os_minimax.alpha_beta_search(os_g.game, maximizing_player_id=0)
    assert v == a.value
    g2 = OpenSpielGame("tic_tac_toe", history=[4, 0])
    r1 = search(g2, "minimax", engine="reference")
    r2 = search(TicTacToe("4 0"), "minimax", engine="reference")
    assert (r1.value, r1.best_move, r1.nodes, r1.leaves, r1.per_ply) == \
        (r2.value, r2.best_move, r2.nodes, r2.leaves, r2.per_ply)


def test_connect_four_tree_sizes_equal_searchlab_connect4_and_values_equal_pyspiel():
    """Connect Four (columns 0..6 left to right in both): minimax to depth 4 visits the same
    tree (nodes, leaves, per ply); with the same evaluation (0 at the horizon) alpha-beta's
    value equals pyspiel's alpha_beta_search. (Payoff scales differ: OpenSpiel +1/-1/0,
    searchlab 22 - k, so alpha-beta's counts are not compared.)"""
    os_g = OpenSpielGame("connect_four", history=[3, 3, 2, 4], evaluation=lambda st: 0.0)
    own = ConnectFour("4435")
    a = search(os_g, "minimax", depth=4, engine="reference")
    b = search(own, "minimax", depth=4, engine="reference")
    assert (a.nodes, a.leaves, a.per_ply) == (b.nodes, b.leaves, b.per_ply)
    ab = search(os_g, "alphabeta", depth=4, engine="reference")
    v, _ = os_minimax.alpha_beta_search(os_g.game, state=os_g.initial_state().clone(), maximum_depth=4,
                                        value_function=lambda st: 0.0, maximizing_player_id=0)
    assert ab.value == v == a.value


@pytest.mark.parametrize("depth", [1, 2, 3, 4])
def test_pig_expectiminimax_equals_pyspiel_and_searchlab_pig(depth):
    w = 12
    ev = lambda st: evaluate_text(str(st), w, 0)
    os_g = OpenSpielGame("pig", winscore=w, evaluation=ev)
    own = Pig(winscore=w)
    ref, _ = os_minimax.expectiminimax(os_g.game.new_initial_state(), depth, ev, 0)
    for alg in ("expectiminimax", "star1", "star2"):
        a = search_chance(os_g, alg, depth=depth)
        b = search_chance(own, alg, depth=depth)
        assert a.value == b.value == ref
        assert (a.nodes, a.leaves, a.chance_nodes) == (b.nodes, b.leaves, b.chance_nodes)


def test_pig_horizon_matches_openspiel():
    """Random playouts: both implementations agree on legal moves, terminal and returns."""
    import numpy as np
    rng = np.random.default_rng(0)
    for _ in range(30):
        os_g, own = OpenSpielGame("pig", winscore=15, horizon=12), Pig(winscore=15, horizon=12)
        a, b = os_g.initial_state(), own.initial_state()
        while not a.is_terminal():
            assert not own.is_terminal(b) and own.is_chance(b) == a.is_chance_node()
            if a.is_chance_node():
                m = int(rng.integers(6))
            else:
                assert list(own.legal_moves(b)) == a.legal_actions()
                m = a.legal_actions()[int(rng.integers(len(a.legal_actions())))]
            a, b = os_g.play(a, m), own.play(b, m)
        assert own.is_terminal(b) and own.utility(b) == a.returns()[0]


def test_chinese_checkers_under_the_multiplayer_engine():
    g = OpenSpielGame("chinese_checkers", players=3,
                      evaluation=lambda st: tuple(0.0 for _ in range(3)))
    r = search_multiplayer(g, "paranoid", depth=2)
    m = search_multiplayer(g, "paranoid-minimax", depth=2)
    assert r.value == m.value and r.nodes <= m.nodes
