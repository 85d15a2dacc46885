"""searchlab.analysis.stats against answers computed by hand (and scipy's own functions)."""

import math

import numpy as np
import pytest
from scipy import stats as sst

from searchlab.analysis import stats as S
from searchlab.errors import InvalidParameterError


def test_holm_by_hand():
    # sorted: 0.005*4 = 0.02, 0.01*3 = 0.03, 0.03*2 = 0.06, 0.04*1 = 0.04 -> max-accumulated 0.06
    adj = S.holm([0.01, 0.04, 0.03, 0.005])
    assert np.allclose(adj, [0.03, 0.06, 0.06, 0.02])
    # capped at 1; a single test is unchanged
    assert np.allclose(S.holm([0.5, 0.6]), [1.0, 1.0])
    assert np.allclose(S.holm([0.2]), [0.2])
    with pytest.raises(InvalidParameterError):
        S.holm([0.1, 1.5])


def test_pentanomial_by_hand():
    # pairs scoring 0, 1/2, 1, 3/2, 2 points: counts 1, 2, 4, 2, 1 -> per-game score 1/2,
    # variance of the per-game pair score (0, .25, .5, .75, 1): (2*.25 + 4*.0625) / 10 = 0.075
    p = S.pentanomial([1, 2, 4, 2, 1])
    assert p.pairs == 10 and p.score == pytest.approx(0.5)
    assert p.sd_pair == pytest.approx(math.sqrt(0.075))
    assert p.elo == pytest.approx(0.0) and p.p_value == pytest.approx(1.0)
    half = sst.norm.ppf(0.975) * math.sqrt(0.075) / math.sqrt(10)
    assert p.score_low == pytest.approx(0.5 - half) and p.score_high == pytest.approx(0.5 + half)
    # a lopsided match: 8 pairs won 2-0, 2 drawn 1-1 -> score 0.9, sd = sqrt(.8*.01+.2*.16)
    q = S.pentanomial([0, 0, 2, 0, 8])
    assert q.score == pytest.approx(0.9) and q.sd_pair == pytest.approx(0.2)
    assert q.elo == pytest.approx(400 * math.log10(9))
    assert q.p_value == pytest.approx(2 * sst.norm.sf(0.4 / (0.2 / math.sqrt(10))))
    assert S.pentanomial_from_pairs([(1, 1), (0.5, 0.5), (0, 1)]).counts == (0, 0, 2, 0, 1)
    with pytest.raises(InvalidParameterError):
        S.pentanomial([1, 2, 3])


def test_min_detectable_elo_by_hand():
    # delta = (1.95996 + 0.84162) * 0.3 / sqrt(100) = 0.08405; Elo(0.58405) = 400 log10(1.40413) = 58.96
    delta = (sst.norm.ppf(0.975) + sst.norm.ppf(0.8)) * 0.3 / 10
    assert delta == pytest.approx(0.08405, abs=1e-4)
    assert S.min_detectable_elo(100, 0.3) == pytest.approx(400 * math.log10((0.5 + delta) / (0.5 - delta)))
    assert S.min_detectable_elo(100, 0.3) == pytest.approx(58.96, abs=0.02)
    # four times the pairs halve delta; a tiny match detects nothing finite
    assert S.min_detectable_elo(400, 0.3) < S.min_detectable_elo(100, 0.3) / 1.9
    assert S.min_detectable_elo(1, 0.5) == math.inf


def test_paired_ratio_known_answers():
    a = np.array([2.0, 4.0, 6.0, 8.0])
    b = np.array([1.0, 2.0, 3.0, 4.0])
    r = S.paired_ratio(a, b)
    assert r.value == 2.0 and r.low == r.high == 2.0          # every pair has ratio 2
    g = S.paired_ratio([1.0, 4.0], [1.0, 1.0], kind="geometric")
    assert g.value == pytest.approx(2.0)                      # sqrt(1 * 4)
    rng = np.random.default_rng(1)
    base = rng.lognormal(size=60)
    noisy = S.paired_ratio(base * 0.5 * rng.lognormal(0, 0.1, 60), base)
    assert noisy.low < 0.5 < noisy.high and noisy.high - noisy.low < 0.1
    with pytest.raises(InvalidParameterError):
        S.paired_ratio([1.0], [1.0, 2.0])
    with pytest.raises(InvalidParameterError):
        S.paired_ratio([0.0], [1.0], kind="geometric")


def test_classify():
    assert S.classify(0.1, 0.3) == "shown"
    assert S.classify(-0.3, -0.1) == "contradicted"
    assert S.classify(-0.3, 0.2) == "not shown at this power"
    assert S.classify(-0.02, 0.03, margin=0.05) == "no effect"
    assert S.classify(-0.3, -0.1, direction=-1) == "shown"
    assert S.classify(1.1, 1.3, null=1.0, direction=-1) == "contradicted"
    with pytest.raises(InvalidParameterError):
        S.classify(1.0, 0.0)


def test_mean_ci_and_elo():
    e = S.mean_ci([1.0, 2.0, 3.0, 4.0, 5.0])
    assert e.value == 3.0 and e.low < 3.0 < e.high
    assert S.elo(0.5) == 0.0 and S.elo(1.0) == math.inf and S.elo(0.0) == -math.inf


def test_trinomial_by_hand():
    # 6 wins, 4 draws, 2 losses: score (6 + 2) / 12 = 2/3; variance E[x^2] - s^2 = (6 + 1) / 12 - 4/9
    t = S.trinomial(6, 4, 2)
    assert t.pairs == 12 and t.score == pytest.approx(2 / 3)
    assert t.sd_pair == pytest.approx(math.sqrt(7 / 12 - 4 / 9))
    with pytest.raises(InvalidParameterError):
        S.trinomial(0, 0, 0)
