"""The convergence analysis on constructed counts with known answers, and one small real run."""

import math

import numpy as np
import pytest

from searchlab.studies.rigor import convergence as CV
from searchlab.analysis import theory as T


def _counts(g, depths, n=40, seed=0):
    """Counts whose growth sqrt(N(d)/N(d-2)) is exactly g(d) for every tree: each tree is the
    same sequence times its own factor (perfectly paired across depths)."""
    base = {depths[0]: 1.0, depths[1]: 1.3}
    for d in depths[2:]:
        base[d] = base[d - 2] * g(d) ** 2
    scale = np.random.default_rng(seed).lognormal(0, 0.5, size=n)
    return np.outer(scale, [base[d] for d in depths])


@pytest.mark.parametrize("model, g, limit", [
    ("exponential", lambda d: 2.0 + 3.0 * 0.7 ** d, 2.0),
    ("inverse", lambda d: 1.5 + 2.0 / d, 1.5),
])
def test_fit_limit_recovers_a_known_limit(model, g, limit):
    depths = np.arange(2, 24)
    fit = CV.fit_limit(depths, _counts(g, list(depths)), n_resamples=49)
    assert fit.model == model
    assert fit.limit.value == pytest.approx(limit, rel=1e-5)
    assert fit.limit.low == pytest.approx(limit, rel=1e-4) and fit.limit.high == pytest.approx(limit, rel=1e-4)
    assert fit.curve(np.array([50.0]))[0] == pytest.approx(g(50.0), rel=1e-4)


def test_paired_growth_is_exact_where_independent_resampling_is_not():
    depths = np.arange(2, 8)
    mat = _counts(lambda d: 3.0, list(depths))
    got = CV.growth(depths, mat, n_resamples=199)
    for d in range(4, 8):
        e = got[d]
        assert e.paired.value == pytest.approx(3.0)
        assert e.paired.low == pytest.approx(3.0) and e.paired.high == pytest.approx(3.0)
        assert e.independent_high - e.independent_low > 0.1      # different trees per depth: noise
        assert e.correlation == pytest.approx(1.0) and e.width_ratio == pytest.approx(0.0, abs=1e-9)


def test_formula_ratios_and_sensitivity_known_answers():
    b, depths = 4, np.arange(2, 14)
    rb = T.pearl_rb(b)
    mat = np.outer(np.ones(10) * 2.5, rb ** depths.astype(float))     # N(d) = 2.5 R_b^d exactly
    r = CV.formula_ratios(b, depths, mat, n_resamples=99)
    for d in depths:
        assert r[int(d)]["R_b^d"].value == pytest.approx(2.5)
        assert r[int(d)]["b^(3d/4)"].value == pytest.approx(2.5 * (rb / b ** 0.75) ** d)
        assert r[int(d)]["KM(d)"].value == pytest.approx(2.5 * rb ** d / T.knuth_moore_leaves(b, int(d)))
    s = CV.sensitivity(b, depths, mat, ns=(5,), n_resamples=49)
    alpha = math.log(rb) / math.log(b)
    assert s["spread_windows"] == pytest.approx(0.0, abs=1e-9)
    assert all(a == pytest.approx(alpha) for *_, a in s["windows"])
    assert s["estimators"]["√(N(d)/N(d−2)) at max d"] == pytest.approx(alpha)
    assert [k for k, *_ in s["by_n"]] == [5, 10]


def test_tree_seeds_are_explicit_and_distinct():
    a = CV.tree_seeds(14, 2, 50)
    assert len(set(a.tolist())) == 50 and np.array_equal(a, CV.tree_seeds(14, 2, 50))
    assert not np.array_equal(a, CV.tree_seeds(14, 4, 50))


def test_steps_counts_equal_the_reference_and_pair_the_trees():
    """The study's steps count what the reference search counts, and matrix() pairs them:
    tree i is the same tree (seed) at every depth, whichever step measured it."""
    import pandas as pd
    from searchlab import IIDTree, search
    seeds = [int(s) for s in CV.tree_seeds(14, 2, 3)]
    rows = CV.leaves_rows(2, [2, 3, 4, 5, 6], seeds[:2], 0) + CV.leaves_rows(2, [2, 3, 4, 5, 6], seeds[2:], 2)
    depths, leaves = CV.matrix(pd.DataFrame(rows), 2)
    assert depths.tolist() == [2, 3, 4, 5, 6] and leaves.shape == (3, 5)
    for i, s in enumerate(seeds):
        for j, d in enumerate(depths):
            r = search(IIDTree(2, int(d), s), "alphabeta", CV.ORDERING, ordering_seed=s,
                       engine="reference")
            assert leaves[i, j] == r.leaves
    with pytest.raises(ValueError, match="misses counts"):
        CV.matrix(pd.DataFrame(rows[:-1]), 2)


def test_plan_covers_every_tree_and_depth_once():
    steps = CV.convergence_steps("small")
    depths, n = CV.SIZES["small"]
    assert len({s.key for s in steps}) == len(steps)
    for b, ds in depths.items():
        mine = [s for s in steps if s.key[0] == b]
        assert sorted(i for s in mine for i in range(s.kwargs["first"], s.kwargs["first"] + len(s.kwargs["seeds"]))) == list(range(n))
        assert all(s.kwargs["depths"] == list(ds) for s in mine)
        assert [x for s in mine for x in s.kwargs["seeds"]] == CV.tree_seeds(CV.SEED, b, n).tolist()


def test_exponent_stability_known_answers():
    import pandas as pd
    # N(d) = 3 * 2^(0.7 d) exactly for every instance: every window, estimator but N^(1/d)
    # and every n give alpha = 0.7; N(d)^(1/d) carries the intercept 3^(1/d)
    rows = [dict(experiment="x", tree="iid", b=2.0, algorithm="alphabeta", ordering="random", d=d,
                 instance=i, leaves=3 * 2 ** (0.7 * d), status="ok") for d in range(2, 12) for i in range(6)]
    st = CV.exponent_stability(pd.DataFrame(rows))
    r = st.iloc[0]
    assert r["alpha"] == pytest.approx(0.7)
    assert r["windows"] == pytest.approx((0.7, 0.7)) and r["by_n"] == pytest.approx((0.7, 0.7))
    assert r["estimators"][0] == pytest.approx(0.7)
    assert r["estimators"][1] == pytest.approx(0.7 + math.log2(3) / 11)
    assert "spread" in CV.stability_section(pd.DataFrame(rows))


def test_natural_order_counts_like_random_order_on_iid_trees():
    """The study searches i.i.d. trees in their own order (CV.ORDERING) because that order is
    uniformly random with respect to the values: the counts must agree in distribution with an
    explicitly shuffled order. 200 trees per order (different seeds, so independent samples),
    b = 4 at d = 3..7 and b = 16 at d = 3..5: a two-sample Kolmogorov-Smirnov test per (b, d)
    must not reject at the Holm-corrected 1 % level, and the means agree within 6 %. A kernel
    whose natural order were not random with respect to the values (e.g. children sorted by
    value) fails both, which the last assertion shows on the "perfect" order."""
    from scipy import stats
    from searchlab.analysis.stats import holm

    seeds_a = CV.tree_seeds(101, 4, 200)
    seeds_b = CV.tree_seeds(202, 4, 200)
    pvals, means = [], []
    for b, depths in ((4, range(3, 8)), (16, range(3, 6))):
        nat = CV.count_leaves(b, list(depths), [int(s) for s in seeds_a], ordering=CV.ORDERING)
        rnd = CV.count_leaves(b, list(depths), [int(s) for s in seeds_b], ordering="random")
        for j in range(len(depths)):
            pvals.append(stats.ks_2samp(nat[:, j], rnd[:, j]).pvalue)
            means.append(nat[:, j].mean() / rnd[:, j].mean())
    assert (holm(pvals) > 0.01).all(), pvals
    assert all(abs(m - 1) < 0.06 for m in means), means
    best = CV.count_leaves(4, [6], [int(s) for s in seeds_a], ordering="perfect")
    nat6 = CV.count_leaves(4, [6], [int(s) for s in seeds_a], ordering=CV.ORDERING)
    assert stats.ks_2samp(best[:, 0], nat6[:, 0]).pvalue < 1e-6


def test_a_limit_ci_excluding_rb_is_named_a_failed_extrapolation():
    """The extrapolated limit's CI excluding R_b (b = 8 below, 16 above) is called a failure of
    the model, not a finding; R_b inside it (b = 2) is not."""
    rb = {b: T.pearl_rb(b) for b in (2, 8, 16)}
    f = {"b": {2: {}, 8: {}, 16: {}}, "rb_in_limit_ci": [2], "b34_in_limit_ci": [], "b34_above_limit_ci": [],
         "limit_ci": {2: (rb[2] - 0.01, rb[2] + 0.01), 8: (rb[8] + 0.01, rb[8] + 0.1), 16: (5.3, 6.0)},
         "growth_above_rb": []}
    s = CV._limit_sentence(f)
    assert "**The extrapolation fails at b = 8, 16**" in s
    assert f"R_b = {rb[8]:.4g} below it" in s and f"R_b = {rb[16]:.4g} above it" in s
    assert "misspecified" in s and "no verdict uses them" in s
    ok = dict(f, rb_in_limit_ci=[2, 8, 16], limit_ci={b: (rb[b] - 0.1, rb[b] + 0.1) for b in rb})
    assert "fails" not in CV._limit_sentence(ok)


def test_stability_section_names_the_algorithm():
    """Minimax rows under "perfect" ordering (α = 1) must not read as perfect-order alpha-beta."""
    import pandas as pd
    rows = [dict(experiment="x", tree="iid", b=2.0, algorithm=a, ordering="perfect", d=d, instance=i,
                 leaves=2 ** (e * d), status="ok")
            for a, e in (("minimax", 1.0), ("alphabeta", 0.5)) for d in range(2, 12) for i in range(6)]
    text = CV.stability_section(pd.DataFrame(rows))
    assert "| algorithm | ordering |" in text
    assert "| x | iid | minimax | perfect | 2 |" in text and "| x | iid | alphabeta | perfect | 2 |" in text
