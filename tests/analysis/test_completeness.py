"""Fits use only (configuration, depth) cells where every instance finished; tables say n per
depth and which depths were left out (survivors of a node budget bias a mean low)."""

from __future__ import annotations

import pandas as pd

from searchlab.analysis import estimators as E
from searchlab.analysis.completeness import depth_cells, n_per_depth
from searchlab.studies.sweep.sweep_report import summary_table
from tests.conftest import synthetic_table


def _budgeted_table() -> pd.DataFrame:
    """Random order at b = 2, d = 1..6, 10 instances; at d = 5 the 3 hardest instances hit the
    node budget (aborted), at d = 6 all of them: what searchlab search.max_nodes=50 produces."""
    df = synthetic_table(bs=(2,), depths=range(1, 7), instances=10, orderings=("random",),
                         with_minimax=False, abort_rate=0.0)
    hard5 = df[df.d == 5].sort_values("leaves").index[-3:]
    df.loc[hard5, "status"] = "aborted"
    df.loc[df.d == 6, "status"] = "aborted"
    return df


def test_an_incomplete_depth_is_left_out_of_the_fit_and_flagged():
    df = _budgeted_table()
    s = E.summarize(df, n_resamples=49).iloc[0]
    assert (s.d_min, s.d_max) == (2, 4)           # d = 5 (7 of 10 ok) and d = 6 (0 of 10) left out
    assert s.n == 10
    assert s.n_per_depth == "10 at d=1..4; d=5: 7/10 ok, left out; d=6: 0/10 ok, left out"
    # the survivors' mean at d = 5 is below the mean of all ten: what the fit no longer sees
    d5 = df[df.d == 5]
    assert d5[d5.status == "ok"].leaves.mean() < d5.leaves.mean()
    table = summary_table(E.summarize(df, n_resamples=49))
    assert "n per depth" in table and "d=5: 7/10 ok, left out" in table


def test_dropping_the_aborted_rows_first_does_not_hide_them():
    """Given only the ok rows (what the report used to pass), d = 5 still has 7 of the
    configuration's 10 instances and stays out of the fit."""
    df = _budgeted_table()
    ok_only = E.summarize(df[df.status == "ok"], n_resamples=49).iloc[0]
    assert ok_only.d_max == 4 and "d=5: 7/10 ok, left out" in ok_only.n_per_depth


def test_a_depth_whose_tasks_never_ran_counts_as_incomplete():
    df = synthetic_table(bs=(2,), depths=range(1, 5), instances=4, orderings=("random",),
                         with_minimax=False, abort_rate=0.0)
    df = df.drop(df[(df.d == 4) & (df.instance >= 2)].index)      # a killed run: 2 of 4 ran
    cells = depth_cells(df, E.group_key_columns(df))
    (cell,) = cells.values()
    assert cell[4] == (2, 4) and n_per_depth(cell) == "4 at d=1..3; d=4: 2/4 ok, left out"
    assert E.summarize(df, n_resamples=49).iloc[0].d_max == 3
