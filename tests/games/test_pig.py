"""Pig (searchlab/games/pig.py): rules and evaluation."""

from __future__ import annotations

import pytest

from searchlab.errors import InvalidParameterError
from searchlab.games.pig import ROLL, STOP, Pig, PigState, evaluate_text, race_estimate


def test_rules():
    g = Pig(winscore=10)
    s = g.initial_state()
    assert g.legal_moves(s) == [ROLL, STOP] and g.max_to_move(s)
    r = g.play(s, ROLL)
    assert g.is_chance(r) and [p for _, p in g.chance_outcomes(r)] == [1 / 6] * 6
    one = g.play(r, 0)                      # face 1: turn over
    assert one.mover == 1 and one.turn_total == 0 and not g.max_to_move(one)
    six = g.play(g.play(g.play(r, 5), ROLL), 5)      # two sixes: 12 >= 10, only stop
    assert six.turn_total == 12 and g.legal_moves(six) == [STOP]
    end = g.play(six, STOP)
    assert g.is_terminal(end) and g.utility(end) == 1.0
    h = Pig(winscore=10, horizon=2)
    x = h.play(h.play(h.initial_state(), STOP), STOP)
    assert h.is_terminal(x) and h.utility(x) == 0.0


def test_evaluation_is_a_win_probability_scale():
    g = Pig(winscore=20)
    lead = PigState((15, 0), 0, 0, False, 0)
    behind = PigState((0, 15), 0, 0, False, 0)
    assert -1 < g.evaluate(behind) < 0 < g.evaluate(lead) < 1
    assert race_estimate((0, 0), 0, 1, 20, max_player=0) == -race_estimate((0, 0), 0, 1, 20, max_player=1)
    text = "Scores: 15 0, Turn total: 0\nCurrent player: 0\n"
    assert evaluate_text(text, 20) == g.evaluate(lead)
    with pytest.raises(InvalidParameterError):
        evaluate_text("nonsense", 20)


def test_bad_input():
    with pytest.raises(InvalidParameterError, match="dice"):
        Pig(dice=1)
