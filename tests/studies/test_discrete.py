"""Pearl's critical case on win/loss trees and the cut-rule study."""

import math

import numpy as np
import pytest

from searchlab import IIDTree, search
from searchlab.studies.rigor import discrete as D
from searchlab.analysis.theory import pearl_xi


def test_leaf_win_prob_keeps_the_movers_probability():
    assert D.leaf_win_prob(0.7, 4) == 0.7 and D.leaf_win_prob(0.7, 5) == pytest.approx(0.3)


@pytest.mark.parametrize("b", [2, 3])
def test_critical_probability_is_a_fixed_point_of_the_tree(b):
    """At w = xi_b the root is a win for MAX with probability xi_b at every even depth (and
    the side to move wins with probability xi_b at odd depth): the game never decides."""
    xi, d, n = pearl_xi(b), 6, 400
    wins = sum(search(IIDTree(b, d, s, win_prob=D.leaf_win_prob(xi, d)), "alphabeta").value
               for s in range(n))
    assert abs(wins / n - xi) < 4 * np.sqrt(xi * (1 - xi) / n)
    # off the fixed point the root drifts towards a decided game
    lo = sum(search(IIDTree(b, d, s, win_prob=xi - 0.2), "alphabeta").value for s in range(n))
    assert lo / n < xi - 0.2


def test_kernel_counts_of_the_study_equal_the_reference():
    m = D._leaves(2, [3, 4], 0.6, [5, 6])
    for i, s in enumerate([5, 6]):
        for j, d in enumerate([3, 4]):
            r = search(IIDTree(2, d, s, win_prob=D.leaf_win_prob(0.6, d)), "alphabeta", "random",
                       ordering_seed=s, engine="reference")
            assert m[i, j] == r.leaves


def test_cut_rule_study_small_renders():
    cells = D.cut_rule_study(small=True, n_resamples=99)
    cont = [c for c in cells if c.values == "continuous"]
    assert cont and all(c.ratio.value == 1.0 and c.tie_share == 0 for c in cont)
    assert all(c.ratio.value >= 1 for c in cells)
    k2 = [c for c in cells if c.values == "K = 2"]
    assert all(c.tie_share > 0.5 and c.ratio.low > 1 for c in k2)


def test_exact_discrete_alpha_is_the_parity_fit_of_the_dp_and_sampling_agrees():
    """The exact exponent is the parity fit of the DP's E[leaves]; deep K = 2 trees are in the
    sqrt(b) regime (α → 1/2); the kernel's mean leaves over sampled trees fit to an α whose
    bootstrap CI contains it."""
    from searchlab.analysis import estimators as E
    from searchlab.algorithms.kernels import run_kernel
    from searchlab.studies.rigor.discrete import exact_discrete_alpha
    from searchlab.theory.exact import expected_counts, uniform_pmf
    from searchlab.trees import IIDTree

    seq = expected_counts(2, 9, uniform_pmf(3))
    want = math.log(E.fit_growth(range(4, 10), [seq.leaves[d] for d in range(4, 10)]).beff) / math.log(2)
    assert exact_discrete_alpha(2, 3, range(4, 10)) == pytest.approx(want, rel=1e-12)
    assert abs(exact_discrete_alpha(2, 2, range(40, 48)) - 0.5) < 0.01
    depths = np.arange(4, 10)
    mat = np.array([[run_kernel(IIDTree(2, int(d), 1000 + i, levels=3), "alphabeta", "natural").leaves
                     for d in depths] for i in range(300)], dtype=float)
    _, al, _ = E.fit_with_ci(depths, mat, 2, n_resamples=199, seed=1)
    assert al.low <= exact_discrete_alpha(2, 3, depths) <= al.high
