"""002-b's CIs per cell and its cost-sensitivity grid, on constructed rows (the verdict can come
out each way), and the grid's config: validation and plan."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from searchlab.studies.parallel import parallel_verdicts as PC
from searchlab.studies.claims.verdict import Context
from searchlab.experiment import api
from searchlab.studies.parallel.parallel_study import from_engine, plan_parallel_tasks as plan
from searchlab.experiment.schema import ConfigError
from searchlab.parallel import ALGORITHMS

PS = (1, 2, 4, 8, 16, 32)
BASE = dict(cost_node=1.0, cost_split=8.0, cost_message=2.0, cost_tt=0.25)


def _rows(eff: dict[int, float], trees: int, table: str = "speedup", noise: float = 0.02, seed: int = 0,
          **costs) -> list[dict]:
    """Rows of ordered trees whose best algorithm (ybwc) has efficiency eff[p] (the others a
    little less), ``trees`` trees with multiplicative noise."""
    rng = np.random.default_rng(seed)
    rows = []
    for k in range(trees):
        for alg in ALGORITHMS:
            for p in PS:
                e = eff[p] * (1.0 if alg == "ybwc" else 0.8)
                sp = p * e * (1 + noise * rng.standard_normal())
                rows.append(dict(table=table, domain="ordered", b=8, d=8, order_p=0.9, ordering="natural",
                                 algorithm=alg, p=p, instance=str(k), speedup=sp, search_overhead=0.1 * p,
                                 idle_fraction=0.1, splits=1, nodes=100, seq_nodes=90, same_value=True,
                                 **(BASE | costs)))
    return rows


GOOD = {1: 1.0, 2: 0.95, 4: 0.9, 8: 0.8, 16: 0.7, 32: 0.3}      # crossing at p = 32


def _verdict(data):
    return PC.parallel_verdict(Context(df=pd.DataFrame(), summary=pd.DataFrame(), exact={"parallel": data}))


def test_cells_get_bootstrap_cis_that_cover_and_narrow():
    few = PC.summarise(pd.DataFrame(_rows(GOOD, PC.MIN_CI_UNITS)), 0.0, resamples=300)["speedup"]
    many = PC.summarise(pd.DataFrame(_rows(GOOD, 60)), 0.0, resamples=300)["speedup"]
    for t in (few, many):
        assert (t["speedup_lo"] <= t["speedup"]).all() and (t["speedup"] <= t["speedup_hi"]).all()
        assert (t["overhead_lo"] <= t["overhead"] + 1e-12).all()
    yb = many[(many["algorithm"] == "ybwc") & (many["p"] == 16)].iloc[0]
    assert yb.speedup_lo < 16 * 0.7 < yb.speedup_hi and yb.n == 60
    width = lambda t: (t["speedup_hi"] - t["speedup_lo"])[t["p"] > 1].mean()  # noqa: E731
    assert width(many) < width(few)


def test_verdict_reports_whether_cis_show_the_crossing():
    v = _verdict(PC.summarise(pd.DataFrame(_rows(GOOD, 30)), 0.0, resamples=300))
    assert v.category == "holds only under conditions"
    assert "from p = 32" in v.detail and "shown by the 95 % CIs over n = 30 trees" in v.detail
    # efficiency just under the floor at p = 16, with noise wide enough to straddle it
    near = GOOD | {16: 0.49}
    v = _verdict(PC.summarise(pd.DataFrame(_rows(near, 30, noise=0.3)), 0.0, resamples=300))
    assert "from p = 16" in v.detail and "not shown by the 95 % CIs" in v.detail
    v = _verdict(PC.summarise(pd.DataFrame(_rows(GOOD, 3)), 0.0, resamples=300))
    assert "not shown (n = 3 trees per cell, fewer than 20)" in v.detail


def test_sensitivity_grid_same_verdict_and_changed_verdict():
    base = _rows(GOOD, 30)
    same = (base + _rows(GOOD, 30, "sensitivity", seed=1, cost_split=4.0)
            + _rows(GOOD | {16: 0.45}, 30, "sensitivity", seed=2, cost_split=16.0))
    data = PC.summarise(pd.DataFrame(same), 0.0, resamples=200)
    assert [e["label"] for e in data["sensitivity"]] == ["base costs", "split × 0.5 (4)", "split × 2 (16)"]
    v = _verdict(data)
    assert "the verdict is the same under all 2 varied cost settings" in v.detail
    assert "the crossing moves to p = 16 under split × 2 (16)" in v.detail
    # a message cost that makes alpha-beta inefficient from p = 2: the category changes
    bad = base + _rows({1: 1.0, 2: 0.3, 4: 0.2, 8: 0.1, 16: 0.1, 32: 0.05}, 30, "sensitivity", cost_message=4.0)
    v = _verdict(PC.summarise(pd.DataFrame(bad), 0.0, resamples=200))
    assert 'the verdict changes under message × 2 (4) (to "holds": efficiency below 50.0 % from p = 2)' in v.detail
    never = base + _rows({p: 0.9 for p in PS}, 30, "sensitivity", cost_tt=0.125)
    v = _verdict(PC.summarise(pd.DataFrame(never), 0.0, resamples=200))
    assert 'under tt × 0.5 (0.125) (to "does not hold": efficiency never below 50.0 %)' in v.detail


def test_sensitivity_section_table(tmp_path):
    rows = _rows(GOOD, 30) + _rows(GOOD, 30, "sensitivity", seed=1, cost_tt=0.5)
    text = PC.parallel_section(PC.summarise(pd.DataFrame(rows), 0.0, resamples=200), tmp_path)
    assert "### Sensitivity to the simulated costs" in text
    assert "| tt × 2 (0.5) | 32 | holds only under conditions | yes |" in text


def _compose(*over):
    return from_engine(api.compose("parallel_tiny", list(over)))


def test_the_grid_plans_the_same_trees_under_scaled_costs():
    pc = _compose("parallel.sensitivity={costs: [split, tt], factors: [0.5, 2.0]}",
                  "parallel.trees=[{table: speedup, model: ordered, b: 4, d: [4], order_p: [0.9], trees: 3, "
                  "p: [1, 2], sensitivity: true}]", "parallel.games=[]")
    tasks = plan(pc)
    base = [t for t in tasks if t.args[0] == "speedup"]
    sens = [t for t in tasks if t.args[0] == "sensitivity"]
    assert len(base) == 3 and len(sens) == 3 * 2 * 2
    assert {t.args[4] for t in sens} == {t.args[4] for t in base}          # the same tree seeds
    costs = sorted((t.args[8].split, t.args[8].tt) for t in sens)
    assert set(costs) == {(4.0, 0.25), (16.0, 0.25), (8.0, 0.125), (8.0, 0.5)}
    assert len({t.task_id for t in tasks}) == len(tasks)


@pytest.mark.parametrize("over,match", [
    (["parallel.sensitivity={costs: [node], factors: [2.0]}"], "parallel.sensitivity.costs must be distinct names"),
    (["parallel.sensitivity={costs: [split], factors: [1.0]}"], "parallel.sensitivity.factors must be distinct"),
    (["parallel.sensitivity={costs: [split], factors: [-2.0]}"], "parallel.sensitivity.factors must be distinct"),
    (["parallel.sensitivity={costs: [split], factors: [2.0]}"], "no parallel.trees block has sensitivity: true"),
    (["parallel.trees=[{sensitivity: true}]"], r"parallel.trees\[0\].sensitivity is true but parallel.sensitivity"),
])
def test_bad_grids_are_refused_naming_the_key(over, match):
    with pytest.raises(ConfigError, match=match):
        _compose(*over)


def test_no_bootstrap_over_three_positions_but_their_range():
    """A cell of fewer than MIN_CI_UNITS trees or positions (the games' 3 positions) gets no
    bootstrap CI; the section prints its range over the units instead."""
    t = PC.summarise(pd.DataFrame(_rows(GOOD, 3)), 0.0, resamples=300)["speedup"]
    assert t["speedup_lo"].isna().all() and t["overhead_hi"].isna().all()
    assert (t["speedup_min"] <= t["speedup"]).all() and (t["speedup"] <= t["speedup_max"]).all()
    row = PC._speedup_rows(t[t["p"] == 8])[0]
    yb = t[(t["p"] == 8) & (t["algorithm"] == "ybwc")].iloc[0]
    assert row[1 + list(ALGORITHMS).index("ybwc")].startswith(
        f"{PC.number(yb.speedup)} ({PC.number(yb.speedup_min)}..{PC.number(yb.speedup_max)})")


def test_the_verdict_names_its_model_and_the_other_models_efficiency():
    """'efficiency at least 50 % up to p' is about the model judged (ordered trees, order_p 0.9):
    the verdict names it and quotes the best efficiency at that p on the other tree models."""
    rows = _rows(GOOD, 30)
    other = [dict(r, domain="incremental", order_p=float("nan")) for r in _rows({p: e * 0.6 for p, e in GOOD.items()}, 30)]
    v = _verdict(PC.summarise(pd.DataFrame(rows + other), 0.0, resamples=300))
    assert "the model judged is ordered trees b = 8, d = 8 with the best move first with probability 0.9" in v.detail
    assert "the best efficiency at p = 16 under the other tree models: incremental trees b = 8, d = 8: 4" in v.detail
    assert "(ybwc, n = 30)" in v.detail
