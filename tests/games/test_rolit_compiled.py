"""Compiled Rolit (games/rolit_compiled.py on the compiled n-player engine) against the
reference engine, node for node (and without JIT in a subprocess)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from searchlab.algorithms.multiplayer import MULTI_ALGORITHMS, search_multiplayer
from searchlab.errors import InvalidParameterError, UnsupportedError
from searchlab.games import rolit_compiled as RC
from searchlab.games.rolit import Rolit
from searchlab.trees.nplayer_tree import NPlayerTree
from tests.nojit import run_without_jit

ROOT = Path(__file__).resolve().parents[2]


def _same(game, alg, **kw):
    ref = search_multiplayer(game, alg, **kw)
    com = search_multiplayer(game, alg, engine="compiled", **kw)
    assert com.engine == "compiled"
    for f in ("values", "value", "best_move", "nodes", "leaves", "interior", "cutoffs", "per_ply",
              "status", "root_player", "depth", "n_players", "algorithm"):
        assert getattr(com, f) == getattr(ref, f), (f, game.root, alg, kw)
    return com


def test_primitives_equal_the_reference_game_along_random_games():
    """Moves (in order), flips, terminal test and both payoff vectors at every position of
    random 3- and 4-player games."""
    out = np.zeros(64, np.int64)
    row = np.zeros(5, np.uint64)
    vec = np.zeros(4)
    for players in (3, 4):
        for seed in range(3):
            g = Rolit(players)
            P = np.array([players], np.int64)
            s = g.initial_state()
            rng = np.random.default_rng(seed)
            while True:
                enc = RC.encode(s)
                assert bool(RC.is_terminal(enc, P)) == g.is_terminal(s)
                RC.payoffs(enc, P, False, vec)
                assert tuple(vec[:players]) == g.utility_vector(s)
                RC.payoffs(enc, P, True, vec)
                assert tuple(vec[:players]) == g.evaluate_vector(s)
                if g.is_terminal(s):
                    break
                moves = g.legal_moves(s)
                k = RC.gen_moves_for(enc, s.mover, P, out)
                assert list(out[:k]) == moves
                m = moves[int(rng.integers(len(moves)))]
                RC.play_for(enc, s.mover, m, P, row)
                s = g.play(s, m)
                assert tuple(int(x) for x in row) == (*s.discs, s.mover)


@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("alg", MULTI_ALGORITHMS)
def test_compiled_equals_reference_node_for_node(players, alg):
    for seed, plies in ((0, 0), (1, 12), (2, 30), (3, 56)):
        g = Rolit.random(players, plies, seed)
        for depth in (0, 1, 2, 3):
            _same(g, alg, depth=depth)
        _same(g, alg, depth=3, max_nodes=40)                # aborted: counts up to the budget
    _same(Rolit.random(players, 57, 9), alg)                 # to the end of the game


@settings(max_examples=300, deadline=None)
@given(st.sampled_from([3, 4]), st.integers(0, 58), st.integers(0, 10**6),
       st.sampled_from(MULTI_ALGORITHMS), st.integers(1, 3), st.sampled_from([None, 7, 200]))
def test_compiled_equals_reference_property(players, plies, seed, alg, depth, budget):
    _same(Rolit.random(players, plies, seed), alg, depth=depth, max_nodes=budget)


def test_engine_choice_and_refusals():
    g = Rolit.random(3, 10, 1)
    assert search_multiplayer(g, "brs", depth=2, engine="auto").engine == "compiled"
    assert search_multiplayer(g, "paranoid", depth=2, ordering="perfect", engine="auto").engine == "reference"
    with pytest.raises(UnsupportedError, match="no compiled n-player engine"):
        search_multiplayer(g, "paranoid", depth=2, ordering="perfect", engine="compiled")
    with pytest.raises(UnsupportedError, match="no compiled n-player engine"):
        search_multiplayer(NPlayerTree(3, 2, 3, seed=1), "maxn", engine="compiled")
    with pytest.raises(InvalidParameterError, match="engine must be one of"):
        search_multiplayer(g, "maxn", depth=2, engine="fast")
    for engine in ("reference", "compiled"):            # a wrong constant sum: the same error
        with pytest.raises(InvalidParameterError, match="summing to total=5"):
            search_multiplayer(g, "maxn-shallow", depth=2, total=5, engine=engine)


def test_compiled_without_jit_in_a_subprocess():
    """The same search as plain Python (NUMBA_DISABLE_JIT=1) gives the reference's counts."""
    code = ("from searchlab.algorithms.multiplayer import search_multiplayer as m\n"
            "from searchlab.games.rolit import Rolit\n"
            "for players, plies in ((3, 20), (4, 50)):\n"
            "    g = Rolit.random(players, plies, 5)\n"
            "    for a in ('maxn', 'maxn-shallow', 'paranoid', 'paranoid-minimax', 'brs'):\n"
            "        c = m(g, a, depth=2, engine='compiled')\n"
            "        assert c.engine == 'compiled' and c.counts() == m(g, a, depth=2).counts(), a\n"
            "print('ok')\n")
    assert run_without_jit(code, timeout=300).strip() == "ok"
