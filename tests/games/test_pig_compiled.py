"""Compiled Pig (games/pig_compiled.py on the compiled chance engine) against the reference
engine, node for node (and without JIT in a subprocess)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from searchlab.algorithms.chance_search import search_chance
from searchlab.errors import InvalidParameterError, UnsupportedError
from searchlab.games import pig_compiled as PC
from searchlab.games.pig import Pig, PigState
from searchlab.trees.chance_tree import ChanceTree
from tests.nojit import run_without_jit

ROOT = Path(__file__).resolve().parents[2]
ALGS = ("expectiminimax", "alphabeta-emm", "star1", "star2")
FIELDS = ("value", "best_move", "best_moves", "best_moves_complete", "nodes", "leaves", "interior", "cutoffs",
          "per_ply", "chance_nodes", "status", "extra", "iterations", "depth", "ordering")


def _same(game, alg, ordering="natural", **kw):
    ref = search_chance(game, alg, ordering, **kw)
    com = search_chance(game, alg, ordering, engine="compiled", **kw)
    assert com.engine == "compiled"
    for f in FIELDS:
        assert getattr(com, f) == getattr(ref, f), (f, game, alg, ordering, kw)
    return com


def test_primitives_equal_the_reference_game_along_random_games():
    """Moves, outcomes, terminal test, utility and evaluation (bit for bit) at every position
    of random games."""
    out = np.zeros(2, np.int64)
    row = np.zeros(PC.STATE_SIZE, np.int64)
    for seed, g in enumerate((Pig(winscore=30), Pig(winscore=12, dice=3, horizon=9))):
        rng = np.random.default_rng(seed)
        P = PC.parameters(g)
        for _ in range(5):
            s = g.initial_state()
            while True:
                enc = PC.encode(s)
                assert bool(PC.is_terminal(enc, P)) == g.is_terminal(s)
                assert bool(PC.max_to_move(enc, P)) == g.max_to_move(s)
                if g.is_terminal(s):
                    assert PC.utility(enc, P) == g.utility(s)
                    break
                assert PC.evaluate(enc, P) == g.evaluate(s)
                assert bool(PC.is_chance(enc, P)) == g.is_chance(s)
                if s.rolling:
                    probs = np.zeros(g.dice)
                    assert PC.outcomes(enc, P, probs) == g.dice
                    assert list(probs) == [p for _, p in g.chance_outcomes(s)]
                moves = [o for o, _ in g.chance_outcomes(s)] if s.rolling else g.legal_moves(s)
                assert PC.gen_moves(enc, P, out) == (0 if s.rolling else len(moves))
                if not s.rolling:
                    assert list(out[:len(moves)]) == moves
                m = moves[int(rng.integers(len(moves)))]
                PC.play(enc, m, P, row)
                s = g.play(s, m)
                assert list(row) == list(PC.encode(s))


@pytest.mark.parametrize("alg", ALGS)
@pytest.mark.parametrize("ordering", ["natural", "static"])
def test_compiled_equals_reference_node_for_node(alg, ordering):
    games = (Pig(winscore=20), Pig(winscore=10, dice=3), Pig(winscore=15, dice=4, horizon=7),
             Pig(winscore=20, root=PigState((12, 15), 5, 1, False, 3)))
    for g in games:
        for depth in (0, 1, 3, 5):
            _same(g, alg, ordering, depth=depth)
        _same(g, alg, ordering, depth=4, outcome_order="probability", bounds=(-2.0, 3.0))
        _same(g, alg, ordering, depth=4, max_nodes=30)          # aborted: counts up to the budget
    _same(Pig(winscore=6, dice=2, horizon=6), alg, ordering)     # to the end of the game


@settings(max_examples=120, deadline=None)
@given(st.integers(4, 30), st.integers(2, 6), st.integers(3, 40), st.integers(0, 25), st.integers(0, 25),
       st.integers(0, 12), st.sampled_from(ALGS), st.sampled_from(["natural", "static"]), st.integers(1, 5))
def test_compiled_equals_reference_property(winscore, dice, horizon, s0, s1, turn, alg, ordering, depth):
    s0, s1 = min(s0, winscore - 1), min(s1, winscore - 1)
    root = PigState((s0, s1), min(turn, winscore - 1 - s1), 1, False, 0)
    _same(Pig(winscore=winscore, dice=dice, horizon=horizon, root=root), alg, ordering, depth=depth)


def test_engine_choice_and_refusals():
    g = Pig(winscore=20)
    assert search_chance(g, "star2", depth=2, engine="auto").engine == "compiled"
    assert search_chance(g, "star2", depth=2, iterative=True, engine="auto").engine == "reference"
    assert search_chance(ChanceTree(2, 2, 2, seed=1), "star1", engine="auto").engine == "kernel"
    with pytest.raises(UnsupportedError, match="no compiled chance engine"):
        search_chance(g, "star2", depth=2, iterative=True, engine="compiled")
    with pytest.raises(UnsupportedError, match="no compiled chance engine"):
        search_chance(ChanceTree(2, 2, 2, seed=1), "star1", engine="compiled")
    for engine in ("reference", "compiled"):                 # the same error, value included
        with pytest.raises(InvalidParameterError, match=r"a leaf value -0\.50044.* lies outside"):
            search_chance(g, "star2", depth=3, bounds=(-0.5, 0.5), engine=engine)


def test_compiled_without_jit_in_a_subprocess():
    """The same searches as plain Python (NUMBA_DISABLE_JIT=1) give the reference's counts."""
    code = ("from searchlab.algorithms.chance_search import search_chance as s\n"
            "from searchlab.games.pig import Pig\n"
            "g = Pig(winscore=12, dice=3)\n"
            "for a in ('expectiminimax', 'alphabeta-emm', 'star1', 'star2'):\n"
            "    for o in ('natural', 'static'):\n"
            "        c = s(g, a, o, depth=3, engine='compiled')\n"
            "        r = s(g, a, o, depth=3)\n"
            "        assert c.engine == 'compiled' and c.counts() == r.counts() and c.extra == r.extra, (a, o)\n"
            "print('ok')\n")
    assert run_without_jit(code, timeout=300).strip() == "ok"
