"""Claim 002-b gets a verdict computed from the parallel simulator's sweeps, and its section."""

from __future__ import annotations

import pandas as pd
import pytest

from searchlab.claims import parallel as PC
from searchlab.claims import registry as C
from searchlab.claims.verdict import Context
from searchlab.parallel.study import sweep


@pytest.fixture(scope="module")
def data():
    seeds = range(2)
    tables = {
        "speedup": sweep([("ordered", 4, 6, 0.9), ("iid", 4, 5, None)], seeds, (1, 2, 4, 8, 16)),
        "ordering": sweep([("ordered", 4, 6, op) for op in (0.25, 0.5, 1.0)], seeds, (4, 16)),
        "depth": sweep([("ordered", 4, d, 0.9) for d in (4, 6)], seeds, (16,)),
    }
    return PC.summarise(tables, 0.0)


def _verdict(data):
    ctx = Context(df=pd.DataFrame(), summary=pd.DataFrame(), exact={"parallel": data})
    return dict((c.ids, v) for c, v in C.evaluate_all(ctx))[("002-b",)]


def test_verdict_from_the_simulations(data):
    v = _verdict(data)
    assert v.category in ("holds", "holds only under conditions", "does not hold")
    assert "p=16" in v.measured and "ybwc" in v.measured.lower()
    assert "python -m searchlab.parallel.study" in v.command


def test_verdict_follows_the_efficiency(data):
    fast = dict(data)
    s = data["speedup"].copy()
    s["speedup"] = s["p"] * 0.9                   # near-ideal: never below 50 % efficiency
    s["efficiency"] = 0.9
    fast["speedup"] = s
    assert _verdict(fast).category == "does not hold"
    slow = dict(data)
    s = data["speedup"].copy()
    s["speedup"] = 1.5                             # 37.5 % efficiency already at p = 4
    s["efficiency"] = 1.5 / s["p"]
    slow["speedup"] = s
    assert _verdict(slow).category == "holds"


def test_without_simulations_the_verdict_says_so():
    ctx = Context(df=pd.DataFrame(), summary=pd.DataFrame(), exact={})
    assert PC.parallel_verdict(ctx).category == "no data"


def test_section(data, tmp_path):
    ok, n = data["same_value"]
    assert ok == n == 2 * 4 * (2 * 5 + 3 * 2 + 2 * 1)       # seeds x algorithms x (trees x p)
    text = PC.parallel_section(data, tmp_path)
    assert f"{n:,} of the {n:,} simulated searches" in text
    assert (tmp_path / "parallel_speedup_ordered.png").exists()
    assert (tmp_path / "parallel_overhead_p16.png").exists()
    for line in text.splitlines():
        if line.startswith("|"):
            assert "| |" not in line and "n/a" not in line
