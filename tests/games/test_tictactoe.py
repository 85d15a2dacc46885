"""Tic-tac-toe: the Game protocol, the text format, and the compiled search's known counts.

Known answers (the public tic-tac-toe counts: 549,946 tree nodes, per-ply counts,
255,168 games, 5,478 positions, value 0). The alpha-beta count 18,297 (fail-soft, natural
order, root window (-inf, +inf), every call counted) is this project's own figure; it equals
the number of calls OpenSpiel's C++ ``_alpha_beta`` makes, which has the same control flow.
"""

from __future__ import annotations

import pytest

from searchlab.errors import InvalidParameterError
from searchlab.games.protocol import Game
from searchlab.games.tictactoe import TicTacToe, TicTacToeState, kernel_search, parse_moves
from searchlab.algorithms import search_api

PER_PLY = (1, 9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872)


def all_states(game):
    """Every reachable state (deduplicated) from the game's root."""
    seen, stack = {game.initial_state()}, [game.initial_state()]
    while stack:
        s = stack.pop()
        for m in game.legal_moves(s):
            c = game.play(s, m)
            if c not in seen:
                seen.add(c)
                stack.append(c)
    return seen


# --- the Game protocol ------------------------------------------------------------------

def test_protocol_conformance():
    g = TicTacToe()
    assert isinstance(g, Game)
    assert g.capabilities.two_player and g.capabilities.zero_sum
    g.capabilities.require_classical("test")
    assert g.capabilities.static_values and g.default_depth is None
    s = g.initial_state()
    assert s == TicTacToeState(0, 0) and g.max_to_move(s)
    assert list(g.legal_moves(s)) == list(range(9))


def test_play_returns_new_state_and_does_not_mutate():
    g = TicTacToe()
    s = g.initial_state()
    c = g.play(s, 4)
    assert s == TicTacToeState(0, 0)
    assert c == TicTacToeState(1 << 4, 0)
    assert not g.max_to_move(c)
    assert list(g.legal_moves(c)) == [0, 1, 2, 3, 5, 6, 7, 8]
    c2 = g.play(c, 0)
    assert c == TicTacToeState(1 << 4, 0) and c2 == TicTacToeState(1 << 4, 1)


def test_terminal_and_utility():
    g = TicTacToe()
    x_wins = parse_moves("0 3 1 4 2")               # X: top row
    o_wins = parse_moves("0 3 1 4 8 5")             # O: middle row
    draw = parse_moves("0 1 2 4 3 5 7 6 8")
    for s, u in ((x_wins, 1.0), (o_wins, -1.0), (draw, 0.0)):
        assert g.is_terminal(s) and list(g.legal_moves(s)) == [] and g.utility(s) == u
    assert not g.is_terminal(parse_moves("0 3 1 4"))
    with pytest.raises(InvalidParameterError):
        g.utility(parse_moves("0 3 1 4"))
    with pytest.raises(InvalidParameterError):
        g.play(x_wins, 5)
    with pytest.raises(InvalidParameterError):
        g.play(g.initial_state(), 9)


def test_max_is_the_side_to_move_at_the_root():
    g = TicTacToe("4")                               # O to move: O is MAX
    s = g.initial_state()
    assert g.max_to_move(s) and not g.max_to_move(g.play(s, 0))
    x_wins = parse_moves("4 0 3 1 5")
    assert g.utility(x_wins) == -1.0                 # X won: a loss for MAX (= O)
    assert TicTacToe().utility(x_wins) == 1.0


def test_evaluate_open_lines():
    g = TicTacToe()
    assert g.evaluate(g.initial_state()) == 0.0
    assert g.evaluate(parse_moves("4")) == pytest.approx(0.4)    # centre kills 4 of O's lines
    assert g.evaluate(parse_moves("0")) == pytest.approx(0.3)
    assert TicTacToe("4").evaluate(parse_moves("4")) == pytest.approx(-0.4)
    for s in all_states(g):
        if not g.is_terminal(s):
            assert -1 < g.evaluate(s) < 1


def test_hash_key_zobrist_deterministic_and_collision_free():
    g = TicTacToe()
    states = all_states(g)
    assert len(states) == 5478                       # legal positions (README)
    keys = {g.hash_key(s) for s in states}
    assert len(keys) == len(states)
    assert all(0 <= k < 2**64 for k in keys)
    assert g.hash_key(g.initial_state()) == 0
    # fixed table: the same key in every process
    assert g.hash_key(parse_moves("4 0 8")) == TicTacToe().hash_key(parse_moves("8 0 4"))


@pytest.mark.parametrize("text, error", [
    ("4 0 x", "'x'"), ("4 0 9", "'9'"), ("4 4", "already taken"), ("-1", "'-1'"),
    ("0 3 1 4 2 5", "already over"), ("4.5", "'4.5'"),
])
def test_from_text_errors_name_the_bad_token(text, error):
    with pytest.raises(ValueError, match=error):
        TicTacToe.from_text(text)


def test_from_text_formats():
    assert parse_moves("4 0 8") == parse_moves("4,0,8") == parse_moves(" 4, 0 ,8 ") \
        == parse_moves([4, 0, 8]) == TicTacToeState(0b100010000, 0b1)
    g = TicTacToe.from_text("4 0 8")
    assert g.initial_state() == parse_moves("4 0 8") and g.max_to_move(g.initial_state())
    assert TicTacToe(parse_moves("4 0")).initial_state() == parse_moves("4 0")
    with pytest.raises(InvalidParameterError):
        TicTacToe(TicTacToeState(3, 1))              # overlapping cells


# --- the compiled search ----------------------------------------------------------------

def test_kernel_minimax_full_tree():
    r = kernel_search("", "minimax")
    assert r.nodes == 549946 and r.value == 0.0
    assert r.leaves == 255168
    assert r.per_ply == PER_PLY
    assert r.best_moves == tuple(range(9)) and r.best_moves_complete   # every opening draws
    assert r.cutoffs == 0 and r.engine == "kernel"


def test_kernel_alphabeta_natural_order():
    r = kernel_search(TicTacToe(), "alphabeta")
    assert r.value == 0.0 and r.nodes == 18297 and r.best_move == 0
    assert r.leaves == 7330 and r.cutoffs == 4237


def test_kernel_from_positions():
    r = kernel_search("0 3 1 4", "minimax")          # X to move wins at once (cell 2)
    assert r.value == 1.0 and 2 in r.best_moves
    r = kernel_search("0 3 1 4 2", "alphabeta")      # terminal root: one node, one leaf
    assert (r.nodes, r.leaves, r.value) == (1, 1, -1.0)
    with pytest.raises(InvalidParameterError):
        kernel_search("", "pvs")


def test_kernel_matches_reference_engine():
    for text in ("", "4", "0 4", "1 4 8", "0 3 1 4"):
        g = TicTacToe(text)
        for algorithm in ("minimax", "alphabeta"):
            if text == "" and algorithm == "minimax":
                continue                             # covered below
            ref = search_api.search(g, algorithm=algorithm, engine="reference")
            assert ref.counts() == kernel_search(g, algorithm).counts(), (text, algorithm)


def test_reference_minimax_549946():
    r = search_api.search(TicTacToe(), algorithm="minimax", engine="reference")
    assert r.nodes == 549946 and r.value == 0
    assert r.per_ply == PER_PLY


def test_openspiel_alpha_beta_transcription_counts_18297():
    """OpenSpiel's C++ _alpha_beta (algorithms/minimax.cc), transcribed over the Game protocol,
    counting its calls: the same 18,297 as the kernel (its control flow is ours)."""
    g = TicTacToe()
    calls = 0
    inf = float("inf")

    def _alpha_beta(state, alpha, beta):
        nonlocal calls
        calls += 1
        if g.is_terminal(state):
            return g.utility(state)
        if g.max_to_move(state):
            value = -inf
            for action in g.legal_moves(state):
                value = max(value, _alpha_beta(g.play(state, action), alpha, beta))
                alpha = max(alpha, value)
                if alpha >= beta:
                    break
            return value
        value = inf
        for action in g.legal_moves(state):
            value = min(value, _alpha_beta(g.play(state, action), alpha, beta))
            beta = min(beta, value)
            if alpha >= beta:
                break
        return value

    assert _alpha_beta(g.initial_state(), -inf, inf) == 0
    assert calls == 18297
