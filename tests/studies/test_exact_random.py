"""000-f judged on the exact expectations (nodes, leaves beside), the simulation as their check:
one path, and it can come out each way."""

from __future__ import annotations

import dataclasses

import pandas as pd
import pytest

from searchlab.studies.rigor import exact_counts as EC
from searchlab.studies.claims import complexity as X
from searchlab.studies.rigor.exact_random_verdicts import random_order_three_quarters_exact
from searchlab.studies.claims.verdict import Context


@pytest.fixture(scope="module")
def study():
    conv = EC.convergence({2: 16, 4: 8}, 32)
    check = EC.simulation_check([(2, 8, "continuous"), (4, 5, "continuous")], 400, base_seed=3, per_height=32,
                                conv=conv)
    return EC.ExactStudy(True, conv, [], [], check)


def _ctx(**exact):
    return Context(df=pd.DataFrame(), summary=pd.DataFrame(), exact=exact)


def test_judged_on_exact_nodes_with_leaves_beside_and_the_check(study):
    v = X.random_order_three_quarters(_ctx(exact_counts=study))
    assert v.category == "holds only under conditions"
    assert "nodes/b^(3d/4) peaks at" in v.measured and "(leaves " in v.measured
    assert "simulation check of the DP" in v.measured and "nodes: chi² = " in v.measured
    assert "leaves: chi² = " in v.measured and "over 2 cells" in v.measured
    e = study.conv[2]
    peak = max(e.value("nodes", d) / 2 ** (0.75 * d) for d in range(1, 17))
    assert f"b=2: nodes/b^(3d/4) peaks at {peak:.2f}" in v.measured
    assert "leaves, beside: E[leaves] / b^(3d/4) peaks at" in v.detail and "on nodes (within 2×)" in v.detail


def test_a_failing_simulation_check_withholds_the_verdict(study):
    off = [dataclasses.replace(c, mean=c.exact_high * 1.5) for c in study.check]
    bad = dataclasses.replace(study, check=off)
    v = random_order_three_quarters_exact(bad, X.COUNT_FACTOR)
    assert v.category == "no data" and "fail their simulation check" in v.detail


def test_without_exact_expectations_there_is_no_sampled_fallback(study):
    v = X.random_order_three_quarters(_ctx(convergence={"anything": 1}))
    assert v.category == "no data" and "exact expectations" in v.detail


def test_statements_about_the_limit_come_from_the_bracket(study):
    """The rigorous sentence quotes the growth's interval from the bracket's ends, decides "below
    b^(3/4)" and "above R_b" from them, and the midpoint's claims are labelled an estimate."""
    v = random_order_three_quarters_exact(study, X.COUNT_FACTOR)
    f = EC.facts(study)
    for b, e in study.conv.items():
        d = e.bounds.low.dmax
        lo, hi = e.growth2_bracket("leaves", d)
        assert lo == pytest.approx((e.bracket("leaves", d)[0] / e.bracket("leaves", d - 2)[1]) ** 0.5)
        assert lo <= e.growth2("leaves", d) <= hi
        assert f"[{lo:.4f}, {hi:.4f}] at d = {d}" in v.detail
        assert f["b"][b]["parity"]["even"]["below_b34"] == (hi < b ** 0.75)
    # at these shallow depths the bracket (M = 32) lies above R_b at both b: provably above
    assert "above R_b at 2 (b = 2, 4: there the growth is still, provably, above R_b)" in v.detail
    assert "Estimate (the bracket's midpoint;" in v.detail and "not a bound" in v.detail
    assert "the growth at these depths is below b^(3/4) at every b" in v.detail
    assert v.category == "holds only under conditions"


def test_a_bracket_too_wide_to_decide_is_not_called_holds():
    """At M = 8 cells per height the growth's interval straddles b^(3/4) at b = 2 although the
    midpoint lies below it: the verdict says the bracket does not decide instead of "holds"."""
    conv = EC.convergence({2: 16, 4: 8}, 8)
    st = EC.ExactStudy(True, conv, [], [], [])
    lo, hi = conv[2].growth2_bracket("leaves", 16)
    assert lo < 2 ** 0.75 < hi and conv[2].growth2("leaves", 16) < 2 ** 0.75
    v = random_order_three_quarters_exact(st, X.COUNT_FACTOR)
    assert v.category == "not shown at this power" and "does not decide" in v.detail


def test_within_the_count_factor_is_decided_by_the_bracket(study):
    e = study.conv[2]
    # the factor is the midpoint at the peak, so the peak's (non-degenerate) bracket straddles it
    k = max(e.value("nodes", d) / 2 ** (0.75 * d) for d in range(1, 17))
    peak = next(d for d in range(1, 17) if e.value("nodes", d) / 2 ** (0.75 * d) == k)
    v = random_order_three_quarters_exact(study, k)
    inside = [d for d in range(1, 17) if all(1 / k <= x / 2 ** (0.75 * d) <= k for x in e.bracket("nodes", d))]
    assert peak not in inside and inside
    assert "(the bracket straddles a limit, undecided, at b = 2: d = " in v.detail
