"""The GSPRT on pentanomial pairs and Holm across pairings, against hand-checked values."""

from __future__ import annotations

import math

import pytest

from searchlab import InvalidParameterError
from searchlab.analysis.stats import (gsprt, holm_pairings, llr_normal, llr_pentanomial,
                                      pentanomial, score_of_elo)


def test_score_of_elo_is_the_logistic_model():
    assert score_of_elo(0) == 0.5
    assert score_of_elo(400) == pytest.approx(10 / 11)


def test_exact_llr_of_a_two_outcome_match_is_the_binomial_llr():
    # pairs scoring 0 or 2 only: the constrained MLE is the Bernoulli(s) on {0, 1}
    a, b = 30, 50
    s0, s1 = score_of_elo(0), score_of_elo(20)
    hand = a * math.log((1 - s1) / (1 - s0)) + b * math.log(s1 / s0)
    assert llr_pentanomial([a, 0, 0, 0, b], 0, 20, prior=0) == pytest.approx(hand, rel=1e-9)


def test_llr_is_zero_for_a_symmetric_match_between_symmetric_hypotheses():
    assert llr_pentanomial([3, 1, 4, 1, 3], -10, 10) == pytest.approx(0, abs=1e-12)
    assert llr_normal([3, 1, 4, 1, 3], -10, 10) == pytest.approx(0, abs=1e-12)


def test_normal_llr_by_hand():
    # [1, 0, 0, 0, 1] x 10: s = 1/2, var = 1/4 -> N / (2 var) * (0 - (1/2 - s1)^2)
    s1 = score_of_elo(20)
    assert llr_normal([10, 0, 0, 0, 10], 0, 20) == pytest.approx(-20 * 2 * (s1 - 0.5) ** 2)


def test_sprt_accepts_h1_when_clearly_winning_and_h0_when_equal():
    win = gsprt([0, 10, 40, 80, 70], 0, 10)
    assert win.state == "H1 accepted" and win.llr >= win.upper == pytest.approx(math.log(19))
    equal = gsprt([30, 120, 300, 120, 30], 0, 20)
    assert equal.state == "H0 accepted" and equal.llr <= equal.lower
    early = gsprt([0, 1, 2, 1, 0], 0, 20)
    assert early.state == "continue" and early.pairs == 4
    # exact and normal LLRs agree closely on a large match
    approx = gsprt([30, 120, 300, 120, 30], 0, 20, exact=False)
    assert approx.llr == pytest.approx(equal.llr, rel=0.03)


def test_holm_across_pairings():
    m = {"a": pentanomial([10, 5, 20, 5, 10]), "b": pentanomial([0, 5, 20, 25, 10]),
         "c": pentanomial([2, 5, 20, 15, 8])}
    adj = holm_pairings(m)
    p = sorted((m[k].p_value, k) for k in m)
    assert adj[p[0][1]] == pytest.approx(min(1, 3 * p[0][0]))
    assert adj[p[1][1]] == pytest.approx(min(1, max(3 * p[0][0], 2 * p[1][0])))
    assert adj["a"] == 1.0                      # score exactly 1/2: p = 1


@pytest.mark.parametrize("args, match", [
    (([1, 2, 3], 0, 10), "five non-negative integer"),
    (([1, 2, 3, 4, 5], 10, 0), "elo0 must be below elo1"),
    (([1, 2, 3, 4, 5], 0, math.inf), "elo1 must be a finite Elo"),
])
def test_bad_sprt_input(args, match):
    with pytest.raises(InvalidParameterError, match=match):
        gsprt(*args)
    with pytest.raises(InvalidParameterError, match="alpha must be in"):
        gsprt([1, 2, 3, 4, 5], 0, 10, alpha=0.7)
