"""The minimal-tree study (experiment=minimal_trees) through the engine: its table is
real_minimal's, row for row; the report's summary follows from the table; 000-j's verdict
reaches each of its branches and refuses to judge on too little data."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from searchlab.algorithms.pruning import Pruning, Quiescence
from searchlab.experiment import api
from searchlab.experiment.games import make_game, select_positions
from searchlab.studies.claim_study.claim_study import load_tables
from searchlab.studies.claim_study.claim_study_report import results
from searchlab.studies.claims.verdict import Context, Verdict
from searchlab.studies.ordering import minimal_trees_study as MT
from searchlab.studies.ordering import real_minimal as RM

QUIET = ["runner.n_jobs=1", "runner.progress=false", "claim_study.size=tiny"]


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    return api.run_study("minimal_trees", QUIET, output_dir=tmp_path_factory.mktemp("mt") / "run",
                         progress=False)


def test_table_is_real_minimal_row_for_row(run):
    table = load_tables(run)["minimal"]
    doms = {d.spec.name: d for d in MT.DOMAINS["tiny"]}
    assert set(table.game) == set(doms)
    for name, dom in doms.items():
        positions = select_positions(dom.spec, 24, dom.positions)     # the preset's seed
        pruning = Pruning(quiescence=Quiescence(max_depth=dom.quiescence)) if dom.quiescence else None
        want = RM.real_minimal([make_game(dom.spec, p) for p in positions], dom.depth, list(dom.policies),
                               names=[p.id for p in positions], pruning=pruning,
                               max_nodes=MT.MAX_NODES).table
        got = table[table.game == name].drop(columns=["game", "instance"])
        key = ["position", "depth", "policy"]
        pd.testing.assert_frame_equal(got.sort_values(key).reset_index(drop=True),
                                      want.sort_values(key).reset_index(drop=True)[got.columns],
                                      check_dtype=False)


def test_report_summary_follows_from_the_table(run):
    res = results(run)["minimal_trees"]
    c4 = res["connect4"]
    assert c4.fit_depths == (1, 2, 3)
    at3 = c4.table[(c4.table.depth == 3) & (c4.table.policy == "centre")]
    s = c4.summary.set_index("policy").loc["centre"]
    assert len(at3) == 2 and s.gmean_ratio == pytest.approx(math.exp(at3.ratio.map(math.log).mean()))
    assert s.alpha_low <= s.alpha <= s.alpha_high
    text = (run / "report.md").read_text()
    assert "Connect Four (Test_L1_R1): depth 3, 2 positions" in text
    assert (run / "figures" / "minimal_tree_ratios.png").stat().st_size > 0
    # one chess position at depth 1: no growth to fit, so no verdict
    assert "000-j" in text and "not shown at this power" in text


def _ctx(positions: int, aborted: int, fit: tuple, alpha: float, lo: float, hi: float) -> Context:
    summary = pd.DataFrame([{"policy": MT.CHESS_POLICY, "depth": 5, "positions": positions, "aborted": aborted,
                             "tt": True, "gmean_ratio": 2.0, "ci_low": 1.8, "ci_high": 2.2, "beff": 5.0,
                             "beff_minimal": 3.0, "alpha": alpha, "alpha_low": lo, "alpha_high": hi,
                             "fit_depths": ",".join(map(str, fit))}])
    res = RM.RealMinimal(table=pd.DataFrame(), summary=summary, fit_depths=fit)
    return Context(df=pd.DataFrame(), summary=pd.DataFrame(), exact={"minimal_trees": {"chess": res}})


@pytest.mark.parametrize("args, category", [
    ((50, 0, (1, 2, 3, 4, 5), 0.55, 0.53, 0.6249), "holds"),
    ((50, 0, (1, 2, 3, 4, 5), 0.70, 0.6251, 0.75), "does not hold"),
    ((50, 0, (1, 2, 3, 4, 5), 0.62, 0.60, 0.65), "not shown at this power"),
    ((12, 3, (1, 2, 3, 4, 5), 0.55, 0.53, 0.56), "not shown at this power"),     # 9 positions judged
    ((50, 0, (1, 2), 0.55, 0.53, 0.56), "not shown at this power"),            # two fit depths
])
def test_000j_verdict_branches(args, category):
    v = MT.close_to_own_minimal_tree(_ctx(*args))
    assert v.category == category
    assert "own minimal tree" in v.measured and f"{args[3]:.3f}" in v.measured


def test_000j_falls_back_without_the_study():
    ctx = Context(df=pd.DataFrame(), summary=pd.DataFrame(), exact={})
    fallback = Verdict("holds", "from elsewhere", "m", "t")
    assert MT.close_to_own_minimal_tree(ctx, fallback=lambda c: fallback) is fallback
    assert MT.close_to_own_minimal_tree(ctx).category == "no data"
