"""001-k's aspiration study (experiment=aspiration): its rows are search()'s, every window returns
the full window's value, the summary follows from the table, and the verdict turns conditional
when windows cost work in a game."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from searchlab.algorithms.search_api import search
from searchlab.experiment import api
from searchlab.experiment.games import make_game, select_positions
from searchlab.studies.claim_study.claim_study import load_tables
from searchlab.studies.claim_study.claim_study_report import results
from searchlab.studies.ordering import aspiration_study as AS
from searchlab.studies.ordering import chess_ordering_study as COS

QUIET = ["runner.n_jobs=1", "runner.progress=false", "claim_study.size=tiny"]


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    return api.run_study("aspiration", QUIET, output_dir=tmp_path_factory.mktemp("asp") / "run", progress=False)


def test_rows_are_search_and_windows_are_sound(run):
    t = load_tables(run)["aspiration"]
    assert set(t.game) == {"chess", "connect4", "othello"}
    c4 = [d for d in AS.domains("tiny") if d.game == "connect4"][0]
    pos = select_positions(c4.spec, 27, c4.positions)[1]                 # the preset's seed
    r = search(make_game(c4.spec, pos), "alphabeta", AS.POLICY["connect4"], depth=4, aspiration=0.01,
               max_nodes=AS.MAX_NODES)
    row = t[(t.game == "connect4") & (t.instance == pos.instance) & (t.depth == 4) & (t.width == 0.01)].iloc[0]
    assert (row.nodes, row.re_searches, row.value) == (r.nodes, r.re_searches, r.value)
    # sound: every window's root value is the full window's
    full = t[t.width.isna()].set_index(["game", "instance", "depth"])["value"]
    for r in t[t.width.notna()].itertuples():
        assert r.value == full[(r.game, r.instance, r.depth)]
    assert (t.re_searches <= t.depth - 1).all()


def test_summary_and_report(run):
    res = results(run)["aspiration"]
    assert (res.mismatches == 0).all() and (res.censored == 0).all()
    # at the tiny size every cell has fewer than MIN_CI positions: no ratio, no bootstrap CI
    assert res.work.isna().all() and (res.n < AS.MIN_CI).all()
    text = (run / "report.md").read_text()
    assert "work / full window" in text and "re-searches per search" in text


def _res(ratio: float, lo: float, hi: float) -> pd.DataFrame:
    return pd.DataFrame([dict(game="connect4", depth=8, width=0.01, n=30, censored=0, windowed=7, re_searches=6.5,
                              mismatches=0, work=ratio, work_lo=lo, work_hi=hi, cutoffs=1.2, cutoffs_lo=1.1,
                              cutoffs_hi=1.3)])


def test_summary_ratios_are_paired_geometric_means():
    rows = []
    for i in range(12):
        for w, k in ((math.nan, 1.0), (0.05, 1.5)):
            rows.append(dict(game="othello", instance=i, position=str(i), depth=5, width=w, status="ok",
                             nodes=int(100 * (i + 1) * k), q_nodes=0, cutoffs=10 * (i + 1), re_searches=int(k > 1),
                             value=0.5))
    res = AS.summarise({"aspiration": pd.DataFrame(rows)}, "tiny", n_resamples=99)
    r = res.iloc[0]
    assert r.n == 12 and r.work == pytest.approx(1.5) and r.cutoffs == pytest.approx(1.0)
    assert r.re_searches == 1 and r.windowed == 4 and r.mismatches == 0


def test_001k_turns_conditional_when_windows_cost_work_in_a_game():
    from tests.studies.test_chess_ordering_study import FEWER, _ctx
    ctx = _ctx(FEWER, FEWER, FEWER, FEWER)
    assert COS.captures_aspiration_verdict(ctx).category == "holds"
    ctx.exact["aspiration"] = _res(1.3, 1.2, 1.4)
    v = COS.captures_aspiration_verdict(ctx)
    assert v.category == "holds only under conditions"
    assert "in games: connect4 d=8 ±0.01 (1.3x)" in v.detail
    assert "Aspiration windows by game" in v.measured
    ctx.exact["aspiration"] = _res(0.9, 0.85, 0.95)
    assert COS.captures_aspiration_verdict(ctx).category == "holds"


def test_a_ratio_within_one_percent_is_not_called_fewer():
    """Othello's ±0.2 window never fails and differs from the full window by a few nodes: its
    CI [0.999, 1) excludes 1, but it is not a saving."""
    r = _res(0.9995, 0.999, 0.9999)
    assert AS.costly(r) == [] and "less work at no cell" in AS.conditions(r)
    assert "less work at d=8 ±0.01" in AS.conditions(_res(0.9, 0.85, 0.95))
