"""Harvest: its rules, its compiled primitives against the Python game, and the compiled
n-player engine on it against the reference engine, node for node (also without JIT)."""

from __future__ import annotations

import numpy as np
import pytest

from searchlab.algorithms.multiplayer import MULTI_ALGORITHMS, search_multiplayer
from searchlab.errors import InvalidParameterError, UnsupportedError
from searchlab.games import harvest_compiled as HC
from searchlab.games.harvest import Harvest, HarvestState
from tests.nojit import run_without_jit


def test_rules_moves_scores_and_payoffs():
    g = Harvest(players=3, piles=(1, 4), take=3, bonus=2)
    s = g.initial_state()
    assert g.legal_moves(s) == [0, 3, 4, 5]              # pile 0: take 1; pile 1: take 1, 2, 3
    s = g.play(s, 0)                                      # player 0 empties pile 0: 1 + bonus 2
    assert s == HarvestState((0, 4), (3, 0, 0), 1)
    s = g.play(s, 5)                                      # player 1 takes 3 of pile 1
    assert s == HarvestState((0, 1), (3, 3, 0), 2)
    assert g.legal_moves(s) == [3]
    assert g.evaluate_vector(s) == (9.0 + 3, 9.0 + 3, 0.0 + 3)   # 3 · score + 3 points on the table
    end = g.play(s, 3)                                    # player 2: 1 + bonus 2
    assert g.is_terminal(end) and g.legal_moves(end) == []
    assert g.utility_vector(end) == (9.0, 9.0, 9.0)
    assert g.with_mover(s, 0) == HarvestState((0, 1), (3, 3, 0), 0)


def test_payoffs_are_constant_sum_and_non_negative_everywhere():
    g = Harvest(players=4, piles=(3, 2, 5), take=2, bonus=1)
    rng = np.random.default_rng(0)
    total = g.leaf_total(g.initial_state(), 3)
    for _ in range(20):
        s = g.initial_state()
        while True:
            v = g.utility_vector(s) if g.is_terminal(s) else g.evaluate_vector(s)
            assert sum(v) == total == g.leaf_total(s, 1) and min(v) >= 0
            if g.is_terminal(s):
                break
            moves = g.legal_moves(s)
            s = g.play(s, moves[int(rng.integers(len(moves)))])


def test_bad_input_names_the_parameter():
    for kw, name in (({"players": 5}, "players"), ({"take": 0}, "take"), ({"bonus": -1}, "bonus"),
                     ({"piles": (3, 0)}, "piles"), ({"piles": 7}, "piles")):
        with pytest.raises(InvalidParameterError, match=name):
            Harvest(**kw)
    with pytest.raises(InvalidParameterError, match="root must be a HarvestState"):
        Harvest(players=3, root=HarvestState((1, 2, 3), (0, 0), 0))


def test_primitives_equal_the_reference_game_along_random_games():
    """Moves (in order), play with any mover, terminal test and both payoff vectors."""
    for seed, g in enumerate((Harvest(), Harvest(4, (6, 2, 7, 1), 4, 3), Harvest(2, (5,), 2, 0))):
        P = HC.compiled_nplayer_game(g).params
        out = np.zeros(64, np.int64)
        row = np.zeros(len(g.root.piles) + g.n_players + 1, np.int64)
        vec = np.zeros(g.n_players)
        rng = np.random.default_rng(seed)
        for _ in range(5):
            s = g.initial_state()
            while True:
                enc = HC.encode(s)
                assert bool(HC.is_terminal(enc, P)) == g.is_terminal(s)
                assert HC.to_move(enc, P) == s.mover
                HC.payoffs(enc, P, True, vec)
                assert tuple(vec) == g.evaluate_vector(s)
                if g.is_terminal(s):
                    HC.payoffs(enc, P, False, vec)
                    assert tuple(vec) == g.utility_vector(s)
                    break
                p = int(rng.integers(g.n_players))                # any mover (best-reply search)
                moves = g.legal_moves(g.with_mover(s, p))
                k = HC.gen_moves_for(enc, p, P, out)
                assert list(out[:k]) == moves
                m = moves[int(rng.integers(len(moves)))]
                HC.play_for(enc, p, m, P, row)
                s = g.play(g.with_mover(s, p), m)
                assert list(row) == list(HC.encode(s))


def _same(game, alg, **kw):
    ref = search_multiplayer(game, alg, **kw)
    com = search_multiplayer(game, alg, engine="compiled", **kw)
    assert com.engine == "compiled"
    for f in ("values", "value", "best_move", "nodes", "leaves", "interior", "cutoffs", "per_ply",
              "status", "root_player", "depth", "n_players", "algorithm"):
        assert getattr(com, f) == getattr(ref, f), (f, game.root, alg, kw)
    return com


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("alg", MULTI_ALGORITHMS)
def test_compiled_equals_reference_node_for_node(players, alg):
    for seed, plies in ((0, 0), (1, 2), (2, 5)):
        g = Harvest(players, (3, 4, 5)).random_root(plies, seed)
        for depth in (0, 1, 2, 3, 4):
            _same(g, alg, depth=depth)
        _same(g, alg, depth=4, max_nodes=50)                 # aborted: counts up to the budget
    _same(Harvest(players, (2, 3, 3), take=2, bonus=1), alg)     # to the end of the game


def test_the_algorithms_differ_here():
    """The test game separates the algorithms: shallow pruning and paranoid cut, and the
    three value notions disagree at the root."""
    g = Harvest(3, (5, 5), 3, 3)
    r = {a: search_multiplayer(g, a, engine="compiled") for a in MULTI_ALGORITHMS}
    assert r["maxn-shallow"].cutoffs > 0 and r["paranoid"].cutoffs > 0
    assert r["maxn-shallow"].values == r["maxn"].values and r["paranoid"].value == r["paranoid-minimax"].value
    assert len({r["maxn"].values, r["paranoid"].values, r["brs"].values}) == 3


def test_engine_choice_and_refusals():
    g = Harvest()
    assert search_multiplayer(g, "brs", depth=2, engine="auto").engine == "compiled"
    assert search_multiplayer(g, "paranoid", depth=2, ordering="perfect", engine="auto").engine == "reference"
    with pytest.raises(UnsupportedError, match="no compiled n-player kernel"):
        search_multiplayer(g, "maxn", depth=2, engine="kernel")
    for engine in ("reference", "compiled"):            # a wrong constant sum: the same error
        with pytest.raises(InvalidParameterError, match="summing to total=5"):
            search_multiplayer(g, "maxn-shallow", depth=2, total=5, engine=engine)


def test_compiled_without_jit_in_a_subprocess():
    """The same searches as plain Python (NUMBA_DISABLE_JIT=1) give the reference's counts."""
    code = ("from searchlab.algorithms.multiplayer import search_multiplayer as m\n"
            "from searchlab.games.harvest import Harvest\n"
            "for g in (Harvest(3, (2, 3, 2)), Harvest(4, (3, 3), 2, 1).random_root(1, 3)):\n"
            "    for a in ('maxn', 'maxn-shallow', 'paranoid', 'paranoid-minimax', 'brs'):\n"
            "        c = m(g, a, depth=3, engine='compiled')\n"
            "        assert c.engine == 'compiled' and c.counts() == m(g, a, depth=3).counts(), a\n"
            "print('ok')\n")
    assert run_without_jit(code, timeout=300).strip() == "ok"
