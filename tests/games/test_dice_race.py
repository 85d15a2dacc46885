"""The dice race: its rules, its compiled primitives against the Python game, and the compiled
chance engine on it against the reference engine, node for node (also without JIT)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from searchlab.algorithms.chance_search import search_chance
from searchlab.errors import InvalidParameterError, UnsupportedError
from searchlab.games import dice_race_compiled as DC
from searchlab.games.dice_race import DiceRace, DiceRaceState
from tests.nojit import run_without_jit

ALGS = ("expectiminimax", "alphabeta-emm", "star1", "star2")
FIELDS = ("value", "best_move", "best_moves", "best_moves_complete", "nodes", "leaves", "interior", "cutoffs",
          "per_ply", "chance_nodes", "status", "extra", "iterations", "depth", "ordering")


def _state(a, b, mover=0, roll=-1, decisions=0):
    return DiceRaceState((tuple(a), tuple(b)), mover, roll, decisions)


def test_rules_moves_captures_and_the_end():
    g = DiceRace(length=6, tokens=2, coins=4, horizon=10)
    s = g.initial_state()
    assert g.is_chance(s) and not g.is_terminal(s) and g.legal_moves(s) == []
    assert [o for o, _ in g.chance_outcomes(s)] == [0, 1, 2, 3, 4]
    assert [p for _, p in g.chance_outcomes(s)] == [1 / 16, 4 / 16, 6 / 16, 4 / 16, 1 / 16]
    s = g.play(s, 0)                                     # a roll of 0: only the pass
    assert not g.is_chance(s) and g.legal_moves(s) == [2]
    s = g.play(s, 2)
    assert s == _state((0, 0), (0, 0), mover=1, decisions=1)
    # a roll of 3: the token on 4 would overshoot 6, the token on 1 may move
    s = _state((4, 1), (3, 0), mover=0, roll=3)
    assert g.legal_moves(s) == [1]
    t = g.play(s, 1)                                     # lands on 4 beside its own token: no capture
    assert t.tokens == ((4, 4), (3, 0)) and t.mover == 1 and t.roll == -1 and t.decisions == 1
    s = _state((1, 0), (4, 5), mover=0, roll=3)
    assert g.play(s, 0).tokens == ((4, 0), (0, 5))       # a capture sends the token on 4 home to 0
    s = _state((0, 0), (6, 3), mover=1, roll=3)
    assert g.play(s, 1).tokens == ((0, 0), (6, 6))       # home (square 6) is never a capture square
    end = g.play(s, 1)
    assert g.is_terminal(end) and g.utility(end) == -1.0 and g.legal_moves(end) == []
    assert g.utility(_state((6, 6), (0, 0), decisions=3)) == 1.0
    draw = _state((5, 5), (5, 5), decisions=10)
    assert g.is_terminal(draw) and g.utility(draw) == 0.0


def test_evaluation_is_mover_blind_race_model_inside_the_bounds():
    g = DiceRace(length=8)
    s = _state((8, 2), (0, 0))
    assert g.evaluate(s) == math.tanh((16 - 6) / 16.0)
    assert -1.0 < g.evaluate(_state((8, 7), (0, 0))) < 1.0
    h = DiceRace(length=8, root=_state((0, 0), (0, 0), mover=1))     # MAX is player 1 there
    assert h.evaluate(s) == -g.evaluate(s)


def test_bad_input_names_the_parameter():
    for kw, name in (({"length": 1}, "length"), ({"tokens": 5}, "tokens"), ({"coins": 0}, "coins"),
                     ({"horizon": True}, "horizon")):
        with pytest.raises(InvalidParameterError, match=name):
            DiceRace(**kw)
    with pytest.raises(InvalidParameterError, match="root must be a DiceRaceState"):
        DiceRace(length=4, root=_state((5, 0), (0, 0)))
    with pytest.raises(InvalidParameterError, match="plies"):
        DiceRace().random_root(-1, 0)


def test_primitives_equal_the_reference_game_along_random_games():
    """Chance test, outcomes, moves (in order), play, terminal test, utility, evaluation (bit
    for bit) and the hash key at every position of random games."""
    for seed, g in enumerate((DiceRace(), DiceRace(length=5, tokens=3, coins=2, horizon=25),
                              DiceRace(length=4, tokens=1, coins=6, horizon=12))):
        P = DC.parameters(g)
        out = np.zeros(g.tokens + 1, np.int64)
        probs = np.zeros(g.coins + 1)
        row = np.zeros(2 * g.tokens + 3, np.int64)
        rng = np.random.default_rng(seed)
        for _ in range(6):
            s = g.initial_state()
            while True:
                enc = DC.encode(s)
                assert DC.hash_key(enc, P) == g.hash_key(s)
                assert bool(DC.is_terminal(enc, P)) == g.is_terminal(s)
                if g.is_terminal(s):
                    assert DC.utility(enc, P) == g.utility(s)
                    break
                assert DC.evaluate(enc, P) == g.evaluate(s)
                assert bool(DC.is_chance(enc, P)) == g.is_chance(s)
                if g.is_chance(s):
                    assert DC.outcomes(enc, P, probs) == g.coins + 1
                    assert list(probs) == [p for _, p in g.chance_outcomes(s)]
                    moves = [o for o, _ in g.chance_outcomes(s)]
                else:
                    assert bool(DC.max_to_move(enc, P)) == g.max_to_move(s)
                    moves = g.legal_moves(s)
                    k = DC.gen_moves(enc, P, out)
                    assert list(out[:k]) == moves
                m = moves[int(rng.integers(len(moves)))]
                DC.play(enc, m, P, row)
                s = g.play(s, m)
                assert list(row) == list(DC.encode(s))


def _same(game, alg, ordering="natural", **kw):
    ref = search_chance(game, alg, ordering, **kw)
    com = search_chance(game, alg, ordering, engine="compiled", **kw)
    assert com.engine == "compiled"
    for f in FIELDS:
        assert getattr(com, f) == getattr(ref, f), (f, game, game.root, alg, ordering, kw)
    return com


@pytest.mark.parametrize("alg", ALGS)
@pytest.mark.parametrize("ordering", ["natural", "static"])
def test_compiled_equals_reference_node_for_node(alg, ordering):
    games = [DiceRace(length=6).random_root(plies, seed) for seed, plies in ((0, 0), (1, 5), (2, 9), (3, 14))]
    games.append(DiceRace(length=5, tokens=3, coins=3, horizon=30).random_root(7, 4))
    for g in games:
        for depth in (0, 1, 2, 3):
            _same(g, alg, ordering, depth=depth)
        _same(g, alg, ordering, depth=3, outcome_order="probability")
        _same(g, alg, ordering, depth=3, bounds=(-2.0, 3.0))
        _same(g, alg, ordering, depth=3, max_nodes=40)          # aborted: counts up to the budget
    _same(DiceRace(length=3, tokens=1, coins=2, horizon=6), alg, ordering)    # to the end of the game


def test_star2_prunes_and_reuses_probes_here():
    """The test positions exercise what the engines must agree on: cutoffs at chance nodes,
    probes settling chance nodes, kept probe results reused."""
    g = DiceRace(length=6).random_root(9, 2)
    r = search_chance(g, "star2", "static", depth=3, engine="compiled")
    assert r.extra["chance_cutoffs"] > 0 and r.extra["probe_cutoffs"] > 0 and r.extra["probe_reuses"] > 0


def test_engine_choice_and_refusals():
    g = DiceRace()
    assert search_chance(g, "star1", depth=2, engine="auto").engine == "compiled"
    assert search_chance(g, "star1", "random", depth=2, engine="auto").engine == "reference"
    with pytest.raises(UnsupportedError, match="no compiled chance engine"):
        search_chance(g, "star1", "perfect", depth=2, engine="compiled")
    with pytest.raises(UnsupportedError, match="no compiled chance kernel"):
        search_chance(g, "star1", depth=2, engine="kernel")
    for engine in ("reference", "compiled"):                 # the same error, value included
        with pytest.raises(InvalidParameterError, match=r"a leaf value .* lies outside"):
            search_chance(g, "star2", depth=2, bounds=(-0.01, 0.01), engine=engine)


def test_compiled_without_jit_in_a_subprocess():
    """The same searches as plain Python (NUMBA_DISABLE_JIT=1) give the reference's counts."""
    code = ("from searchlab.algorithms.chance_search import search_chance as s\n"
            "from searchlab.games.dice_race import DiceRace\n"
            "g = DiceRace(length=5).random_root(6, 1)\n"
            "for a in ('expectiminimax', 'alphabeta-emm', 'star1', 'star2'):\n"
            "    for o in ('natural', 'static'):\n"
            "        c = s(g, a, o, depth=2, engine='compiled', outcome_order='probability')\n"
            "        r = s(g, a, o, depth=2, outcome_order='probability')\n"
            "        assert c.engine == 'compiled' and c.counts() == r.counts() and c.extra == r.extra, (a, o)\n"
            "print('ok')\n")
    assert run_without_jit(code, timeout=300).strip() == "ok"
