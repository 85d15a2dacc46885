"""The engine session: table, killers and history persist across iterations and moves, the
previous iteration's best move is searched first, the budget holds, and the reference and
compiled engines agree node for node (also with numba's JIT off)."""

from __future__ import annotations

import pytest

from searchlab import InvalidParameterError
from searchlab.algorithms.engine_session import (EngineSession, SessionConfig,
                                                 engine_ordering)
from searchlab.algorithms.pruning import LateMoveReductions, NullMove, Pruning
from searchlab.games.connect4 import ConnectFour
from searchlab.games.null_move import connect_four_with_null_move
from tests.nojit import run_without_jit


def _game_line(game, cfg, engine, moves=5):
    """The session's searches along the game it plays itself from the game's start."""
    s = EngineSession(game, cfg, engine)
    state, out = game.initial_state(), []
    for _ in range(moves):
        m = s.choose(state)
        out.append((m.move, m.depth, m.nodes, m.value, m.re_searches, m.fired,
                    [(i.depth, i.nodes, i.value, i.best_move) for i in m.iterations]))
        state = game.play(state, m.move)
        if game.is_terminal(state):
            break
    return s, out


@pytest.mark.parametrize("pruning", [None, Pruning(null_move=NullMove(2)),
                                     Pruning(lmr=LateMoveReductions(after=2, schedule="log"))])
def test_reference_and_compiled_sessions_agree_node_for_node(pruning):
    g = connect_four_with_null_move("4453")
    cfg = SessionConfig(ordering="static", nodes=4000, pruning=pruning)
    ref, a = _game_line(g, cfg, "reference")
    com, b = _game_line(g, cfg, "compiled")
    assert (ref.engine, com.engine) == ("reference", "compiled")
    assert a == b
    assert all(len(x[6]) >= 2 for x in a)          # every move deepened
    if pruning is not None:
        assert sum(sum(x[5].values()) for x in a) > 0      # the technique fired


def test_table_persists_across_moves_and_not_without_persist():
    g = ConnectFour("4453")
    on = SessionConfig(ordering="centre", nodes=5000)
    off = SessionConfig(ordering="centre", nodes=5000, persist=False)
    _, with_memory = _game_line(g, on, "reference", 3)
    s_off, without = _game_line(g, off, "reference", 3)
    # without persist, each move is what a fresh session searches from that position
    state = g.initial_state()
    for rec in without:
        fresh = EngineSession(g, off, "reference").choose(state)
        assert (fresh.move, fresh.nodes, [(i.depth, i.nodes) for i in fresh.iterations]) == \
            (rec[0], rec[2], [(d, n) for d, n, _, _ in rec[6]])
        state = g.play(state, rec[0])
    # the compiled session forgets alike (its table emptied by age, killers and history reset)
    assert _game_line(g, off, "compiled", 3)[1] == without
    # with it, the second move's early iterations are answered from the first move's table
    first_iters = lambda rec: sum(n for d, n, _, _ in rec[6] if d <= 4)     # noqa: E731
    assert with_memory[0] == without[0]
    assert first_iters(with_memory[1]) < first_iters(without[1])


def test_previous_iterations_best_move_is_searched_first():
    g = ConnectFour("44")
    s = EngineSession(g, SessionConfig(ordering="natural", nodes=3000), "reference")
    firsts = []
    order = s._order.order

    def spy(state, moves, ply):
        out = order(state, moves, ply)
        if ply == 0:
            firsts.append(out[0])
        return out
    s._order.order = spy
    m = s.choose(g.initial_state())
    bests = [i.best_move for i in m.iterations]
    assert len(bests) >= 3 and any(b != 0 for b in bests)    # not merely the natural first
    # iteration k (k >= 2) searches iteration k-1's best move first
    assert firsts[1:len(bests)] == bests[:-1]


def test_node_budget_is_respected_and_the_last_iteration_abandoned():
    g = ConnectFour("")
    for engine in ("reference", "compiled"):
        m = EngineSession(g, SessionConfig(ordering="centre", nodes=777), engine).choose(
            g.initial_state())
        assert m.nodes == 777                     # the abandoned iteration spent the rest
        assert sum(i.nodes for i in m.iterations) < 777 and m.depth == len(m.iterations)


def test_cpu_time_mode_plays_a_searched_move():
    g = ConnectFour("4453")
    m = EngineSession(g, SessionConfig(ordering="centre", budget_mode="cpu", nodes=None,
                                       cpu_seconds=0.05), "reference").choose(g.initial_state())
    assert m.depth >= 1 and m.value is not None and m.cpu_seconds > 0


def test_engine_ordering_adds_a_table_and_dynamic_parts():
    g = ConnectFour()
    assert engine_ordering("centre", g) == "tt+killer+history+centre"
    assert engine_ordering("id+killer+centre", g) == "tt+killer+centre"
    assert engine_ordering("tt+history", g) == "tt+history"


@pytest.mark.parametrize("kw, match", [
    (dict(budget_mode="wall"), "budget_mode must be one of"),
    (dict(nodes=0), "nodes"),
    (dict(budget_mode="cpu", nodes=None), "cpu_seconds must be a number > 0"),
    (dict(cpu_seconds=1.0), "cpu_seconds is for budget_mode 'cpu'"),
    (dict(tt_size=1000), "tt_size must be a power of two"),
    (dict(persist=1), "persist must be True or False"),
    (dict(algorithm="minimax"), "algorithm must be alphabeta"),
])
def test_bad_session_config(kw, match):
    with pytest.raises(InvalidParameterError, match=match):
        EngineSession(ConnectFour(), SessionConfig(**kw))


def test_sessions_agree_without_jit():
    """The compiled session run as plain Python equals the reference session (tic-tac-toe)."""
    code = """
from searchlab.games.tictactoe import TicTacToe
from searchlab.algorithms.engine_session import EngineSession, SessionConfig
g = TicTacToe()
for eng in ("reference", "compiled"):
    s = EngineSession(g, SessionConfig(ordering="natural", nodes=600), eng)
    st, out = g.initial_state(), []
    while not g.is_terminal(st):
        m = s.choose(st)
        out.append((m.move, m.nodes, [(i.depth, i.nodes, i.value) for i in m.iterations]))
        st = g.play(st, m.move)
    print(s.engine, out)
"""
    ref, com = run_without_jit(code).strip().splitlines()
    assert ref.startswith("reference ") and com.startswith("compiled ")
    assert ref.split(" ", 1)[1] == com.split(" ", 1)[1]


def test_guarded_null_move_sessions_agree_without_jit():
    """Connect Four's guard and pass as plain Python in the compiled engine: two moves."""
    code = """
from searchlab.games.null_move import connect_four_with_null_move
from searchlab.algorithms.engine_session import EngineSession, SessionConfig
from searchlab.algorithms.pruning import NullMove, Pruning
g = connect_four_with_null_move("445")
cfg = SessionConfig(ordering="static", nodes=500, pruning=Pruning(null_move=NullMove(2)))
for eng in ("reference", "compiled"):
    s = EngineSession(g, cfg, eng)
    st, out = g.initial_state(), []
    for _ in range(2):
        m = s.choose(st)
        out.append((m.move, m.nodes, m.fired, [(i.depth, i.nodes, i.value) for i in m.iterations]))
        st = g.play(st, m.move)
    print(s.engine, out)
"""
    ref, com = run_without_jit(code).strip().splitlines()
    assert ref.startswith("reference ") and com.startswith("compiled ")
    assert ref.split(" ", 1)[1] == com.split(" ", 1)[1] and "null_move" in ref
