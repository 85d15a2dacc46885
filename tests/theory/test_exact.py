"""searchlab.theory.exact against brute force (every leaf assignment, searchlab's own search, in
exact rationals), against the kernel on sampled trees, and Knuth-Moore's perfect-order count."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest

from searchlab.algorithms.search_api import search
from searchlab.studies.rigor.instrumented import instrumented_alphabeta
from searchlab.analysis.theory import knuth_moore_leaves, knuth_moore_nodes
from searchlab.errors import InvalidParameterError
from searchlab.theory.exact import (continuous_bounds, expected_counts,
                                    expected_counts_no_deep_cutoffs, perfect_order_counts,
                                    uniform_pmf, win_loss_pmf)
from searchlab.trees import IIDTree
from searchlab.trees.explicit import ExplicitTree


def _nest(vals, b, d):
    if d == 0:
        return vals[0]
    n = len(vals) // b
    return [_nest(vals[i * n:(i + 1) * n], b, d - 1) for i in range(b)]


def _brute(b, d, pmf, algorithm="alphabeta", cut_rule=">="):
    """Exact mean (nodes, leaves) over every assignment of the b^d leaves, each weighted by the
    product of its levels' probabilities, searched by searchlab (reference engine)."""
    tn = tl = Fraction(0)
    for vals in itertools.product(range(len(pmf)), repeat=b ** d):
        w = math.prod((pmf[v] for v in vals), start=Fraction(1))
        if w == 0:
            continue
        tree = ExplicitTree(_nest([float(v) for v in vals], b, d))
        if cut_rule == ">=":
            r = search(tree, algorithm, engine="reference")
        else:
            r = instrumented_alphabeta(tree, cut_rule=">")
        tn += w * r.nodes
        tl += w * r.leaves
    return tn, tl


TINY = [(2, 1, 2), (2, 2, 2), (2, 2, 3), (2, 2, 4), (2, 3, 2), (2, 3, 3), (3, 2, 2), (3, 2, 3)]


@pytest.mark.parametrize("b,d,K", TINY)
def test_equals_brute_force_uniform_levels(b, d, K):
    seq = expected_counts(b, d, uniform_pmf(K, exact=True), exact=True)
    n, l = _brute(b, d, uniform_pmf(K, exact=True))
    assert (seq.nodes[d], seq.leaves[d]) == (n, l)
    # every shallower depth of the same sequence too (the other chain of heights)
    for dd in range(1, d):
        assert (seq.nodes[dd], seq.leaves[dd]) == _brute(b, dd, uniform_pmf(K, exact=True))


@pytest.mark.parametrize("b,d,K", [(2, 2, 3), (2, 3, 2), (3, 2, 2)])
def test_strict_rule_equals_brute_force(b, d, K):
    seq = expected_counts(b, d, uniform_pmf(K, exact=True), cut_rule=">", exact=True)
    assert (seq.nodes[d], seq.leaves[d]) == _brute(b, d, uniform_pmf(K, exact=True), cut_rule=">")


@pytest.mark.parametrize("b,d,K", [(2, 3, 2), (2, 2, 4), (3, 2, 2)])
def test_fail_hard_visits_the_same_nodes(b, d, K):
    pmf = uniform_pmf(K, exact=True)
    assert _brute(b, d, pmf, "alphabeta-failhard") == _brute(b, d, pmf)
    seq = expected_counts(b, d, pmf, exact=True)
    assert _brute(b, d, pmf, "alphabeta-failhard") == (seq.nodes[d], seq.leaves[d])


def test_win_loss_and_skewed_pmf_equal_brute_force():
    q = Fraction(3, 5)
    for b, d in ((2, 3), (3, 2)):
        seq = expected_counts(b, d, win_loss_pmf(q, exact=True), exact=True)
        assert (seq.nodes[d], seq.leaves[d]) == _brute(b, d, win_loss_pmf(q, exact=True))
    pmf = (Fraction(1, 2), Fraction(1, 6), Fraction(1, 3))
    seq = expected_counts(2, 3, pmf, exact=True)
    assert (seq.nodes[3], seq.leaves[3]) == _brute(2, 3, pmf)


def test_float_and_fraction_agree():
    f = expected_counts(3, 6, uniform_pmf(5))
    x = expected_counts(3, 6, uniform_pmf(5, exact=True), exact=True)
    assert np.allclose(f.nodes, [float(v) for v in x.nodes], rtol=1e-12)
    assert np.allclose(f.leaves, [float(v) for v in x.leaves], rtol=1e-12)


@pytest.mark.slow
@pytest.mark.parametrize("b,d,K", [(2, 4, 2), (2, 3, 4)])
def test_equals_brute_force_full_size(b, d, K):
    seq = expected_counts(b, d, uniform_pmf(K, exact=True), exact=True)
    assert (seq.nodes[d], seq.leaves[d]) == _brute(b, d, uniform_pmf(K, exact=True))


def test_one_level_every_value_ties():
    # K = 1: every comparison is a tie, so ties-cut decides every cut; a degenerate pmf the DP
    # must handle (cdf jumps from 0 to 1 at once)
    for b, d in ((2, 3), (3, 2)):
        seq = expected_counts(b, d, uniform_pmf(1, exact=True), exact=True)
        assert (seq.nodes[d], seq.leaves[d]) == _brute(b, d, uniform_pmf(1, exact=True))


def test_continuous_bracket_holds_and_narrows():
    # with continuous i.i.d. leaves every ranking of the b^d leaves is equally likely, so the
    # exact expectation is the mean over all (b^d)! rankings: the bracket must contain it
    b, d = 2, 2
    tot_n = tot_l = 0
    perms = list(itertools.permutations(range(4)))
    for p in perms:
        r = search(ExplicitTree(_nest([float(v) for v in p], b, d)), "alphabeta", engine="reference")
        tot_n, tot_l = tot_n + r.nodes, tot_l + r.leaves
    exact_n, exact_l = tot_n / len(perms), tot_l / len(perms)
    prev = None
    for M in (4, 8, 16):
        cb = continuous_bounds(b, 6, M)
        assert cb.low.nodes[2] <= exact_n <= cb.high.nodes[2]
        assert cb.low.leaves[2] <= exact_l <= cb.high.leaves[2]
        width = cb.high.leaves[6] - cb.low.leaves[6]
        assert width > 0 and (prev is None or width < prev)
        prev = width
    assert all(cb.low.nodes[k] <= cb.high.nodes[k] for k in range(7))


def test_continuous_bracket_at_depth_three_by_rankings():
    b, d = 2, 3
    tot = 0
    perms = list(itertools.permutations(range(8)))
    for p in perms:
        tot += search(ExplicitTree(_nest([float(v) for v in p], b, d)), "alphabeta", engine="reference").leaves
    cb = continuous_bounds(b, d, 16)
    assert cb.low.leaves[3] <= tot / len(perms) <= cb.high.leaves[3]
    assert abs(cb.leaves(3) - tot / len(perms)) < 0.01


def test_perfect_order_is_knuth_moore_and_search_agrees():
    for b in range(1, 7):
        for d in range(0, 9):
            assert perfect_order_counts(b, d) == (knuth_moore_nodes(b, d), knuth_moore_leaves(b, d))
    for b, d in ((2, 10), (3, 5), (8, 3)):
        for seed in range(3):
            r = search(IIDTree(b, d, seed), "alphabeta", "perfect")
            assert (r.nodes, r.leaves) == perfect_order_counts(b, d)


def test_bad_input_is_refused_by_name():
    with pytest.raises(InvalidParameterError, match="cut_rule"):
        expected_counts(2, 3, uniform_pmf(2), cut_rule=">>")
    with pytest.raises(InvalidParameterError, match="pmf must sum to 1"):
        expected_counts(2, 3, (0.5, 0.4))
    with pytest.raises(InvalidParameterError, match="^b must"):
        expected_counts(0, 3, uniform_pmf(2))
    with pytest.raises(InvalidParameterError, match="levels"):
        uniform_pmf(0)
    with pytest.raises(InvalidParameterError, match="q must"):
        win_loss_pmf(1.5)
    with pytest.raises(InvalidParameterError, match="per_height"):
        continuous_bounds(2, 4, 1)
    with pytest.raises(InvalidParameterError, match="algorithm"):
        continuous_bounds(2, 4, 4, "pvs")


def _f1(node, is_max, bound, cnt, strict):
    """Knuth & Moore's F1 (alpha-beta without deep cutoffs) in minimax form, counting calls and
    leaves: a node's one bound is its parent's value so far."""
    cnt[0] += 1
    if not isinstance(node, list):
        cnt[1] += 1
        return node
    v = -math.inf if is_max else math.inf
    for c in node:
        x = _f1(c, not is_max, v, cnt, strict)
        if is_max:
            v = max(v, x)
            if (v > bound) if strict else (v >= bound):
                break
        else:
            v = min(v, x)
            if (v < bound) if strict else (v <= bound):
                break
    return v


@pytest.mark.parametrize("b,d,K", [(2, 2, 2), (2, 3, 3), (2, 4, 2), (3, 2, 3)])
def test_no_deep_cutoffs_equals_brute_force(b, d, K):
    pmf = uniform_pmf(K, exact=True)
    for rule in (">=", ">"):
        tn = tl = Fraction(0)
        for vals in itertools.product(range(K), repeat=b ** d):
            cnt = [0, 0]
            _f1(_nest(list(vals), b, d), True, math.inf, cnt, rule == ">")
            tn, tl = tn + cnt[0], tl + cnt[1]
        seq = expected_counts_no_deep_cutoffs(b, d, pmf, rule, exact=True)
        assert (seq.nodes[d], seq.leaves[d]) == (tn / K ** (b ** d), tl / K ** (b ** d))


def test_no_deep_cutoffs_only_differs_from_four_plies():
    # deep cutoffs need a bound from two plies up: to depth 3 the two searches are the same
    for d in range(4):
        a = expected_counts(2, d, uniform_pmf(3, exact=True), exact=True)
        n = expected_counts_no_deep_cutoffs(2, d, uniform_pmf(3, exact=True), exact=True)
        assert (a.nodes[d], a.leaves[d]) == (n.nodes[d], n.leaves[d])
    a = expected_counts(2, 4, uniform_pmf(3))
    n = expected_counts_no_deep_cutoffs(2, 4, uniform_pmf(3))
    assert n.leaves[4] > a.leaves[4]
    cb = continuous_bounds(2, 8, 8, "no-deep-cutoffs")
    assert all(cb.low.leaves[k] <= cb.high.leaves[k] for k in range(9))
