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


def test_000j_is_judged_on_work_with_nodes_alone_beside():
    """One convention: work = nodes + quiescence nodes on both sides (the deep chess study's);
    nodes alone and the quiescence shares are shown. Here nodes alone would hold (α CI below
    0.625) but work does not decide: the verdict follows work."""
    ctx = _ctx(50, 0, (1, 2, 3, 4, 5), 0.55, 0.53, 0.58)
    s = ctx.exact["minimal_trees"]["chess"].summary.assign(
        work_ratio=2.7, work_ci_low=2.4, work_ci_high=3.0, work_alpha=0.62, work_alpha_low=0.60,
        work_alpha_high=0.65, q_share=0.4, q_share_minimal=0.05)
    ctx.exact["minimal_trees"]["chess"] = RM.RealMinimal(table=pd.DataFrame(), summary=s, fit_depths=(1, 2, 3, 4, 5))
    v = MT.close_to_own_minimal_tree(ctx)
    assert v.category == "not shown at this power" and "counting work (nodes + quiescence nodes)" in v.detail
    assert "work (nodes + quiescence nodes) / the position's own minimal tree's work = 2.70 [2.40, 3.00]" in v.measured
    assert "without quiescence, nodes / own minimal tree's nodes = 2.00 [1.80, 2.20], α = 0.550" in v.measured
    assert "quiescence share of work at depth 5: the search 40%, its minimal tree 5%" in v.measured
    held = s.assign(work_alpha=0.56, work_alpha_low=0.54, work_alpha_high=0.6)
    ctx.exact["minimal_trees"]["chess"] = RM.RealMinimal(table=pd.DataFrame(), summary=held, fit_depths=(1, 2, 3, 4, 5))
    v = MT.close_to_own_minimal_tree(ctx)
    assert v.category == "holds" and "costs 2.70x its own minimal tree at depth 5 (2.00x and α = 0.550 without" in v.detail


def test_work_figures_follow_from_the_table():
    """real_minimal.summarise's work_* columns: the ratio of nodes + q_nodes on both sides, and
    the quiescence shares, on a hand-made table with known answers."""
    rows = []
    for pos, k in (("a", 1.0), ("b", 2.0)):
        for d in (1, 2, 3):
            n, q, mn, mq = 10 * k * 3 ** d, 10 * k * 3 ** d, 5 * k * 2 ** d, 0.0
            rows.append(dict(position=pos, policy="p", depth=d, status="ok", nodes=int(n), last_nodes=int(n),
                             q_nodes=int(q), minimal_nodes=int(mn), minimal_q_nodes=int(mq), tt=False, ratio=n / mn))
    r = RM.summarise(pd.DataFrame(rows), ["p"], 3, n_resamples=99)
    x = r.summary.iloc[0]
    assert x.work_ratio == pytest.approx(2 * x.gmean_ratio) and x.q_share == pytest.approx(0.5)
    assert x.q_share_minimal == 0 and x.work_alpha == pytest.approx(x.alpha)
    assert x.gmean_ratio == pytest.approx(2 * 27 / 8)


@pytest.fixture(scope="module")
def deep_run(tmp_path_factory):
    """The chess rows to a greater depth (the preset minimal_trees_chess at its tiny size: one
    position, depths 1..2, beside the tiny study's depth 1)."""
    return api.run_study("minimal_trees_chess", ["runner.n_jobs=1", "runner.progress=false",
                                                 "claim_study.size=chess_deep_tiny"],
                         output_dir=tmp_path_factory.mktemp("mtc") / "run", progress=False)


def test_000j_is_judged_on_the_chess_deep_rows_when_present(run, deep_run):
    """With the deep chess run's results beside the study's, 000-j and the section use its
    rows (depths 1..2 at tiny size); without them, the study's own chess rows (depth 1)."""
    shallow, deep = results(run)["minimal_trees"], results(deep_run)["minimal_trees"]
    assert deep["chess"].summary.depth.iloc[0] == 2 and shallow["chess"].summary.depth.iloc[0] == 1
    both = Context(df=pd.DataFrame(), summary=pd.DataFrame(),
                   exact={"minimal_trees": shallow, MT.DEEP_PRESET: deep})
    v = MT.close_to_own_minimal_tree(both)
    assert v.measured.startswith("the minimal_trees_chess run: ") and "depths 1..2, 0 aborted at depth 2" in v.measured
    assert f"experiment={MT.DEEP_PRESET}" in v.command
    alone = Context(df=pd.DataFrame(), summary=pd.DataFrame(), exact={"minimal_trees": shallow})
    v = MT.close_to_own_minimal_tree(alone)
    assert "depths 1..1, 0 aborted at depth 1" in v.measured and "minimal_trees_chess" not in v.measured
    assert "experiment=minimal_trees " in v.command
    # the by-depth table of the judged policy: one row per depth from 2 on, its last the summary's
    bd = deep["chess"].by_depth
    assert list(bd.depth) == [2] and bd.iloc[-1].gmean_ratio == pytest.approx(
        deep["chess"].summary.set_index("policy").loc[MT.CHESS_POLICY].gmean_ratio)


def test_the_section_shows_the_chess_deep_rows_when_present(run, deep_run, tmp_path):
    shallow, deep = results(run)["minimal_trees"], results(deep_run)["minimal_trees"]
    text = MT.section(shallow, tmp_path, deep=deep)
    assert "### chess (WAC, quiescence 8): depth 1, 1 positions" in text          # the study's table kept
    assert "### chess (WAC, quiescence 8) to depth 2 (preset minimal_trees_chess): 1 positions" in text
    assert f"{MT.CHESS_POLICY} as if the study had stopped at depth d" in text
    assert "preset minimal_trees_chess" not in MT.section(shallow, tmp_path)


def test_000j_takes_the_deeper_run_whatever_its_verdict():
    """The deep run decides even when the depth-5 one would say otherwise (and the other way)."""
    five = _ctx(50, 0, (1, 2, 3, 4, 5), 0.70, 0.6251, 0.75).exact["minimal_trees"]
    six = _ctx(50, 0, (1, 2, 3, 4, 5, 6), 0.55, 0.53, 0.6249).exact["minimal_trees"]
    s6 = six["chess"].summary.assign(depth=6)
    six = {"chess": RM.RealMinimal(table=pd.DataFrame(), summary=s6, fit_depths=(1, 2, 3, 4, 5, 6))}
    ctx = Context(df=pd.DataFrame(), summary=pd.DataFrame(), exact={"minimal_trees": five, MT.DEEP_PRESET: six})
    v = MT.close_to_own_minimal_tree(ctx)
    assert v.category == "holds" and "over depths 1,2,3,4,5,6 (n = 50)" in v.detail
    assert "at depth 6" in v.detail
    ctx = Context(df=pd.DataFrame(), summary=pd.DataFrame(), exact={"minimal_trees": five})
    assert MT.close_to_own_minimal_tree(ctx).category == "does not hold"
