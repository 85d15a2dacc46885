import math

import numpy as np
import pytest

from searchlab.analysis import estimators as E
from searchlab.analysis import theory as T


@pytest.mark.parametrize("b", [2, 3, 8, 35])
def test_exact_full_tree_recovers_b(b):
    d = np.arange(1, 9)
    n = np.array([float(b) ** k for k in d])
    assert E.beff_per_depth(n, d) == pytest.approx(np.full(len(d), b))
    assert E.parity_growth(n[2:], n[:-2]) == pytest.approx(np.full(len(d) - 2, b))
    for method in ("parity", "plain", "odd", "even"):
        assert E.fit_growth(d, n, method).beff == pytest.approx(b, rel=1e-10)
    assert E.exponent(E.fit_growth(d, n).beff, b) == pytest.approx(1.0)


@pytest.mark.parametrize("b", [2, 5, 16])
def test_knuth_moore_counts_recover_sqrt_b(b):
    d = np.arange(6, 19)
    n = np.array([T.knuth_moore_leaves(b, k) for k in d], float)
    fit = E.fit_growth(d, n, "parity")
    assert fit.beff == pytest.approx(math.sqrt(b), rel=0.01)
    assert E.exponent(fit.beff, b) == pytest.approx(0.5, abs=0.01)
    # the naive ratio oscillates with parity; the parity-corrected growth does not
    naive = E.naive_ratio(n[1:], n[:-1])
    assert np.ptp(naive) > 0.1 * math.sqrt(b)
    assert E.parity_growth(n[-1], n[-3]) == pytest.approx(math.sqrt(b), rel=0.01)
    assert E.fit_growth(d, n, "odd").beff == pytest.approx(math.sqrt(b), rel=0.01)
    assert E.fit_growth(d, n, "even").beff == pytest.approx(math.sqrt(b), rel=0.01)


def test_noisy_counts_with_known_growth_ci_covers_truth():
    rng = np.random.default_rng(7)
    g, b, depths, n_inst = 3.0, 8, np.arange(2, 10), 40
    mat = np.array([[g ** d * rng.lognormal(0, 0.3) for d in depths] for _ in range(n_inst)])
    be, al, pt = E.fit_with_ci(depths, mat, b, n_resamples=499)
    assert be.n == n_inst
    assert be.low < g < be.high
    assert be.value == pytest.approx(g, rel=0.03)
    assert al.low < math.log(g) / math.log(b) < al.high
    pg = E.parity_growth_with_ci(depths, mat, n_resamples=299)
    assert set(pg) == set(range(4, 10))
    assert all(e.low <= e.value <= e.high for e in pg.values())


def test_rn_bstar():
    for b, d in ((2, 5), (35, 6), (3, 10)):
        assert E.rn_bstar(T.minimax_nodes(b, d), d) == pytest.approx(b, rel=1e-9)
    assert E.rn_bstar(52 + 1, 5) == pytest.approx(1.92, abs=0.01)  # R&N: N=52 generated + root, d=5
    assert E.rn_bstar(6, 5) == pytest.approx(1.0)


def test_degenerate_bootstrap_gives_point_interval():
    e = E.bootstrap_ci(10, lambda idx: 4.0)
    assert e.value == e.low == e.high == 4.0 and e.n == 10


def test_summarize_excludes_non_ok_and_recovers_regimes(table):
    ok, excluded = E.ok_rows(table)
    assert excluded == int((table["status"] != "ok").sum()) > 0
    s = E.summarize(table, n_resamples=199)
    ab = s[s["algorithm"] == "alphabeta"].set_index(["b", "ordering"])
    for b in (2, 4, 8):
        assert ab.loc[(b, "random"), "alpha_fit_lo"] - 0.05 < 0.75 < ab.loc[(b, "random"), "alpha_fit_hi"] + 0.05
        assert ab.loc[(b, "worst"), "alpha_fit"] == pytest.approx(1.0, abs=0.06)
        assert ab.loc[(b, "perfect"), "alpha_fit"] == pytest.approx(0.5, abs=0.1)
        assert ab.loc[(b, "perfect"), "n"] == 8
    mm = s[s["algorithm"] == "minimax"]
    assert np.allclose(mm["beff_fit"], mm["b"])


def test_joint_resampling_uses_instances_across_depths():
    # instance i is either "big" at every depth or "small" at every depth: with joint
    # resampling the slope is unaffected, the level is; a CI on the slope stays tight
    depths = np.arange(2, 8)
    mat = np.array([[(10 if i % 2 else 1) * 2.0 ** d for d in depths] for i in range(20)])
    be, _, _ = E.fit_with_ci(depths, mat, 4, n_resamples=199)
    assert be.value == pytest.approx(2.0)
    assert be.high - be.low < 1e-9
