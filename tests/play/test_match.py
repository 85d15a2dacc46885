"""The match runner: colours swapped, budgets respected, Elo arithmetic."""

from __future__ import annotations

import math

import pytest

from searchlab import InvalidParameterError
from searchlab.algorithms.calibration import sample_states
from searchlab.games.tictactoe import TicTacToe
from searchlab.analysis.stats import elo, pentanomial_from_pairs
from searchlab.play.match import Player, choose_move, run_match


def test_elo_from_score():
    assert elo(0.5) == 0.0
    assert elo(0.75) == pytest.approx(190.848, abs=1e-3)
    assert elo(0.25) == pytest.approx(-190.848, abs=1e-3)
    assert elo(1.0) == math.inf and elo(0.0) == -math.inf


def test_perfect_players_draw_tic_tac_toe():
    g = TicTacToe()
    strong = Player("full", "alphabeta", "natural", budget=10**6)
    r = run_match(g, strong, strong, [g.initial_state()], engine="reference")
    assert (r.games, r.draws, r.score, r.pairs) == (2, 2, 0.5, ((0.5, 0.5),))
    assert pentanomial_from_pairs(r.pairs).elo == 0.0
    assert [rec.a_is_max for rec in r.records] == [True, False]


def test_budget_limits_depth_and_a_deeper_player_does_not_lose():
    g = TicTacToe()
    openings = sample_states(g, ply=1, n=4, seed=3)
    deep = Player("deep", "alphabeta", "natural", budget=50_000)
    shallow = Player("shallow", "alphabeta", "natural", budget=12)
    assert choose_move(g, g.initial_state(), shallow, engine="reference").nodes <= 12
    r = run_match(g, deep, shallow, openings, engine="reference")
    assert r.games == 8 and r.a_wins + r.draws + r.b_wins == 8
    assert r.b_wins == 0 and r.a_mean_depth > r.b_mean_depth
    p = pentanomial_from_pairs(r.pairs)
    assert p.pairs == 4 and p.score == r.score and p.elo_low <= p.elo <= p.elo_high


def test_bad_match_input():
    g = TicTacToe()
    with pytest.raises(InvalidParameterError, match="at least one opening"):
        run_match(g, Player("a"), Player("b"), [])
    with pytest.raises(InvalidParameterError, match="budget must be >= 1"):
        run_match(g, Player("a", budget=0), Player("b"), [g.initial_state()])


def test_match_records_how_each_side_played_and_both_modes_run():
    g = TicTacToe()
    openings = sample_states(g, ply=2, n=2, seed=4)
    eng = Player("engine", budget=300)
    fresh = Player("fresh", budget=300, play="fresh-per-depth")
    r = run_match(g, eng, fresh, openings, engine="reference")
    assert (r.a_play, r.b_play) == ("engine, 300 nodes/move, persist",
                                    "fresh-per-depth, 300 nodes/move")
    assert all(rec.a_play == r.a_play and rec.b_play == r.b_play for rec in r.records)
    assert 0 < r.a_mean_nodes <= 300 and 0 < r.b_mean_nodes <= 300
    cpu = Player("cpu", budget=10**6, budget_mode="cpu", cpu_seconds=0.5)
    assert cpu.describe() == "engine, 0.5 s CPU/move (thread time), cap 1000000 nodes, persist"


def test_bad_play_mode():
    g = TicTacToe()
    with pytest.raises(InvalidParameterError, match="play must be one of engine"):
        run_match(g, Player("a", play="fresh"), Player("b"), [g.initial_state()])
    with pytest.raises(InvalidParameterError, match="budget_mode 'cpu' needs play='engine'"):
        run_match(g, Player("a", play="fresh-per-depth", budget_mode="cpu", cpu_seconds=1.0),
                  Player("b"), [g.initial_state()])
