"""MCTS: the compiled twin equals the reference for the same seed; budgets, solver, bad input."""

from __future__ import annotations

import math

import pytest

from searchlab import search
from searchlab.algorithms.mcts import MCTSOptions, search_mcts
from searchlab.errors import InvalidParameterError, UnsupportedError
from searchlab.games.connect4 import ConnectFour
from searchlab.games.hex import Hex
from searchlab.games.tictactoe import TicTacToe
from searchlab.trees.iid import IIDTree
from tests.algorithms.mcts_cases import GAMES, cases, fingerprint
from tests.nojit import run_without_jit


@pytest.mark.parametrize("name,label,options,seed", cases(),
                         ids=[f"{c[0]}-{c[1]}" for c in cases()])
def test_compiled_equals_reference(name, label, options, seed):
    game = GAMES[name]()
    ref = search(game, "mcts", engine="reference", mcts_options=options, seed=seed)
    com = search(game, "mcts", engine="compiled", mcts_options=options, seed=seed)
    assert com.engine == "compiled" and ref.engine == "reference"
    assert fingerprint(com) == fingerprint(ref)
    assert ref.simulations == options.simulations or ref.extra["proven"]
    assert sum(ref.root_visits) == ref.simulations
    assert ref.leaves == ref.simulations and ref.nodes == sum(ref.per_ply)


def test_seeds_differ_and_repeat():
    game = Hex(5)
    a = search(game, "mcts", mcts_options=MCTSOptions(simulations=200), seed=7)
    b = search(game, "mcts", mcts_options=MCTSOptions(simulations=200), seed=7)
    c = search(game, "mcts", mcts_options=MCTSOptions(simulations=200), seed=8)
    assert fingerprint(a) == fingerprint(b)
    assert a.root_visits != c.root_visits


def test_node_budget_counts_like_alphabeta():
    """The budget stops before the first simulation at or beyond max_nodes; the last one
    completes, so the overshoot is below one playout's length."""
    game = ConnectFour()
    for engine in ("reference", "compiled"):
        r = search(game, "mcts", engine=engine, max_nodes=3000, seed=1)
        assert 3000 <= r.nodes < 3000 + 42
        assert r.nodes == sum(r.per_ply) and r.status == "ok"
    ab = search(game, "alphabeta", depth=4)
    assert ab.nodes == sum(ab.per_ply)          # the same unit: positions made current, root included


def test_time_budget_compiled_and_reference():
    """A time budget alone ends the search (no node or simulation limit is set)."""
    for engine in ("reference", "compiled"):
        r = search(Hex(7), "mcts", engine=engine, max_time=0.1, seed=1)
        assert r.simulations > 0 and r.status == "ok" and sum(r.root_visits) == r.simulations


def test_solver_proves_hex3_and_alphabeta_agrees():
    """Hex 3x3: the first player wins (the centre); both families find a winning move."""
    game = Hex(3)
    ab = search(game, "alphabeta")
    assert ab.value == 1.0
    for engine in ("reference", "compiled"):
        r = search(game, "mcts", engine=engine, mcts_options=MCTSOptions(simulations=20000, solver=True), seed=3)
        assert r.extra["proven"] == 1 and r.value == 1.0
        child = search(_after(game, r.best_move), "alphabeta")
        assert child.value == 1.0                   # the move MCTS chose keeps the win


def test_connect4_win_in_three_found_by_both():
    """X (MAX) to move: three in a row on the bottom, open at both ends: a win in 3 plies."""
    game = ConnectFour.from_text("4433")
    ab = search(game, "alphabeta", depth=5)
    assert ab.value > 0
    for engine in ("reference", "compiled"):
        r = search(game, "mcts", engine=engine, mcts_options=MCTSOptions(simulations=5000, solver=True), seed=1)
        assert r.extra["proven"] == 1
        assert search(_after(game, r.best_move), "alphabeta", depth=5).value > 0


def _after(game, move):
    from searchlab.games.position import FromState
    return FromState(game, game.play(game.initial_state(), move))


def test_tictactoe_prefers_the_centre():
    r = search(TicTacToe(), "mcts", mcts_options=MCTSOptions(simulations=3000), seed=1)
    assert r.best_move == 4
    assert max(r.root_visits) == r.root_visits[4]
    assert all(-1 <= v <= 1 for v in r.root_values if not math.isnan(v))


class _Endless:
    """A classical game with no bound on its length (no compiled primitives, no default_depth)."""

    name = "endless"
    from searchlab.games.protocol import Capabilities
    capabilities = Capabilities()
    default_depth = None

    def initial_state(self): return 0
    def max_to_move(self, s): return s % 2 == 0
    def legal_moves(self, s): return (0, 1)
    def play(self, s, m): return s + 1
    def is_terminal(self, s): return False
    def utility(self, s): return 0.0
    def evaluate(self, s): raise UnsupportedError("none")
    def hash_key(self, s): return s


@pytest.mark.parametrize("game,kwargs,exc,match", [
    (Hex(3), dict(mcts_options=MCTSOptions(exploration=-1.0, simulations=10)), InvalidParameterError,
     r"exploration must be a finite number in \[0"),
    (Hex(3), dict(mcts_options=MCTSOptions(simulations=0)), InvalidParameterError,
     r"simulations must be None or an integer in \[1"),
    (Hex(3), dict(max_nodes=0), InvalidParameterError, r"max_nodes must be None or an integer in \[1"),
    (Hex(3), dict(max_time=0.0), InvalidParameterError, "max_time must be None or a number of seconds > 0"),
    (Hex(3), dict(), InvalidParameterError, "mcts needs a budget"),
    (Hex(3), dict(max_nodes=10, seed=-1), InvalidParameterError, r"seed must be an integer in \[0"),
    (Hex(3), dict(max_nodes=10, mcts_options=MCTSOptions(rollout="heavy")), InvalidParameterError,
     "rollout must be one of random, horizon"),
    (Hex(3), dict(max_nodes=10, mcts_options=MCTSOptions(prior="centre")), InvalidParameterError,
     r"prior must be None or one of the game's own orderings \(adjacent\)"),
    (Hex(3), dict(max_nodes=10, depth=3), InvalidParameterError, "depth is an alpha-beta option"),
    (Hex(3), dict(max_nodes=10, engine="kernel"), InvalidParameterError, "engine must be one of auto"),
    (IIDTree(2, 3), dict(max_nodes=10, mcts_options=MCTSOptions(rollout="horizon", rollout_depth=1)),
     UnsupportedError, "rollout='horizon' scores the horizon with the game's evaluation"),
    (_Endless(), dict(max_nodes=10), UnsupportedError, "has no random playouts"),
    (_Endless(), dict(max_nodes=10, engine="compiled"), UnsupportedError, "has no random playouts"),
])
def test_bad_input_one_line(game, kwargs, exc, match):
    with pytest.raises(exc, match=match) as e:
        search(game, "mcts", **kwargs)
    assert "\n" not in str(e.value)


def test_chance_game_refused():
    from searchlab.games.pig import Pig
    with pytest.raises(UnsupportedError, match="algorithm 'mcts' needs a two-player, zero-sum, deterministic"):
        search_mcts(Pig(), MCTSOptions(simulations=5))


def test_alphabeta_refuses_mcts_options():
    with pytest.raises(InvalidParameterError, match="use algorithm='mcts'"):
        search(Hex(3), "alphabeta", mcts_options=MCTSOptions())


def test_compiled_equals_reference_without_jit():
    """The compiled twin's Python under NUMBA_DISABLE_JIT=1 (its uint64 arithmetic included)."""
    code = (
        "from searchlab import search\n"
        "from tests.algorithms.mcts_cases import GAMES, cases, fingerprint\n"
        "n = 0\n"
        "for name, label, o, seed in cases():\n"
        "    if name not in ('tictactoe', 'hex5', 'connect4', 'incremental'): continue\n"
        "    g = GAMES[name]()\n"
        "    a = search(g, 'mcts', engine='reference', mcts_options=o, seed=seed)\n"
        "    b = search(g, 'mcts', engine='compiled', mcts_options=o, seed=seed)\n"
        "    assert fingerprint(a) == fingerprint(b), (name, label)\n"
        "    n += 1\n"
        "print(n)\n")
    assert int(run_without_jit(code).strip()) >= 12


@pytest.mark.parametrize("name", ["connect4", "othello", "tictactoe"])
def test_compiled_equals_reference_from_mid_game_positions(name):
    """Searches rooted mid-game (FromState views, as the match runner searches), with either side to move."""
    from tests.algorithms.compiled_cases import positions
    for k, view in enumerate(positions(name, 3, seed=11)):
        o = MCTSOptions(simulations=100, solver=True)
        ref = search(view, "mcts", engine="reference", mcts_options=o, seed=k)
        com = search(view, "mcts", engine="compiled", mcts_options=o, seed=k)
        assert fingerprint(com) == fingerprint(ref)


def test_openspiel_game_through_the_adapter():
    """An OpenSpiel game (Breakthrough, b about 22 at the start) on the reference MCTS: its
    playouts are bounded by the game's max_game_length; no compiled twin."""
    from searchlab.games.openspiel import OpenSpielGame, available
    if not available():
        pytest.skip("open-spiel is not installed")
    g = OpenSpielGame("breakthrough")
    r = search(g, "mcts", mcts_options=MCTSOptions(simulations=20), seed=1)
    assert r.engine == "reference" and r.simulations == 20 and sum(r.root_visits) == 20
    assert r.best_move in g.legal_moves(g.initial_state())
    with pytest.raises(UnsupportedError, match="no compiled MCTS for"):
        search(g, "mcts", engine="compiled", max_nodes=100)
