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


# --- the DP's range: finite results and bounded work, or a refusal before any work ----------
def test_every_accepted_depth_is_finite_and_the_next_is_refused():
    """At the largest dmax allowed for b the counts are finite (whatever the pmf: the bound is
    the minimax count); the float64 DP run past it overflows (b = 2 from depth ~2,041), which is
    why it is refused; the refusal is one line naming dmax and its range."""
    import time
    from searchlab.theory.exact import _chains, max_finite_depth
    for b, pmf in ((2, (0.5, 0.5)), (2, uniform_pmf(16)), (64, uniform_pmf(64)), (3, (0.2, 0.8))):
        top = max_finite_depth(b)
        seq = expected_counts(b, top, pmf)
        assert all(math.isfinite(x) and x >= 1 for x in seq.nodes + seq.leaves)
        t0 = time.process_time()
        with pytest.raises(InvalidParameterError, match=rf"^dmax must be an integer in \[0, {top}\] for b = {b}"):
            expected_counts(b, top + 1, pmf)
        assert time.process_time() - t0 < 0.5                     # refused before the DP runs
    with np.errstate(over="ignore", invalid="ignore"):
        raw = _chains(2, np.array([0.5, 0.5]), 2100, False)[0]
    first = next(d for d, x in enumerate(raw) if not math.isfinite(x))
    assert max_finite_depth(2) < first <= 2042 and max_finite_depth(64) < 340
    with pytest.raises(InvalidParameterError, match="^dmax must be an integer in"):
        expected_counts(2, 10_000, uniform_pmf(2))
    with pytest.raises(InvalidParameterError, match="^dmax must be an integer in"):
        expected_counts_no_deep_cutoffs(64, 400, uniform_pmf(2))


@pytest.mark.parametrize("pmf, why", [
    ((float("nan"), 1.0), "finite numbers"), ((0.5, float("nan"), 0.5), "finite numbers"),
    ((float("inf"), 0.0), "finite numbers"), ((-0.5, 1.5), "non-negative"),
    ((0.5, 0.4), "sum to 1"), ((), "at least one"), ("ab", "finite numbers"),
    (3, "a sequence"), ((True, False), "finite numbers"),
    # round three's variants: a dict passed its keys (0, 1) as the pmf, strings were parsed
    ({0: 0.5, 1: 0.5}, "be a sequence of probabilities, level 0 first; got a dict"),
    (frozenset({0.25, 0.75}), "be a sequence of probabilities, level 0 first"),
    (("0.5", "0.5"), "finite numbers")])
def test_a_bad_pmf_is_refused(pmf, why):
    for fn in (expected_counts, expected_counts_no_deep_cutoffs):
        with pytest.raises(InvalidParameterError, match=f"^pmf must.*{why}"):
            fn(2, 3, pmf)


def test_work_and_memory_are_bounded_before_they_start():
    """Huge b, levels, per_height and depths of continuous_bounds (which hung or ended in
    numpy's MemoryError) are refused by name, quickly."""
    import time
    from searchlab.theory.exact import MAX_EXACT_LEVELS
    t0 = time.process_time()
    cases = [(lambda: expected_counts(10**9, 3, (1.0,)), "^b must be an integer in \\[1, 65536\\]"),
             (lambda: uniform_pmf(2**32), "^levels must be an integer in \\[1, 4096\\]"),
             (lambda: expected_counts(2, 3, (1.0 / (MAX_EXACT_LEVELS + 1),) * (MAX_EXACT_LEVELS + 1)),
              "^pmf must list at most 4096 levels"),
             (lambda: expected_counts(2, 1000, uniform_pmf(4096)), "^dmax must be an integer in \\[0, \\d+\\] for b = 2 and 4096 levels"),
             (lambda: continuous_bounds(2, 10_000), "^dmax must be an integer in \\[0, 1021\\]"),
             (lambda: continuous_bounds(2, 60, 10_000), "^per_height must be an integer in \\[2, 4096\\]"),
             (lambda: continuous_bounds(2, 300, 64), "^the cells \\(from dmax and per_height\\) must be at most 4096"),
             # inside every other limit, the partition's Decimal powers took half an hour
             (lambda: continuous_bounds(3, 644, 2), "^dmax must be an integer in \\[1, \\d+\\] for b = 3 "
              "and per_height = 2 \\(the partition's high-precision work"),
             (lambda: continuous_bounds(64, 170, 2), "^dmax must be an integer in \\[1, \\d+\\] for b = 64"),
             (lambda: expected_counts(2, 30, uniform_pmf(3, exact=True), exact=True),
              "^with exact=True, dmax must be an integer in \\[0, \\d+\\] for b = 2"),
             (lambda: perfect_order_counts(10**30, 3), "^b must be an integer in")]
    for call, msg in cases:
        with pytest.raises(InvalidParameterError, match=msg) as e:
            call()
        assert "\n" not in str(e.value)
    assert time.process_time() - t0 < 2.0
    # the studies' largest continuous case (b = 2, dmax = 60, 32 cells per height) is inside
    from searchlab.theory.exact import _check_range, continuous_cells
    _check_range(2, 60, continuous_cells(60, 32), False, per_height=True)


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
