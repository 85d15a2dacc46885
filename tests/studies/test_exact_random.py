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
    conv = EC.convergence({2: 16, 4: 8}, 8)
    check = EC.simulation_check([(2, 8, "continuous"), (4, 5, "continuous")], 400, base_seed=3, per_height=8,
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
