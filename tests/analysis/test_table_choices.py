"""Exported tables: estimators, columns and precision chosen; constant columns folded into the
caption; zero-width intervals printed as the value; the fit window stated and configurable."""

from __future__ import annotations

import pandas as pd
import pytest

import searchlab.export as X
from searchlab.analysis import estimators as E
from tests.analysis.test_paper_figures import _table


@pytest.fixture(scope="module")
def tables():
    return X.summary_tables(_table(bs=(2, 3)), n_resamples=49)


def test_estimator_choice_and_what_each_counts(tables):
    ebf = tables["ebf"]
    assert set(ebf["estimator"]) == set(X.ESTIMATORS)
    assert set(ebf.loc[ebf["estimator"] == "rn_bstar", "count"]) == {"nodes"}
    assert set(ebf.loc[ebf["estimator"] != "rn_bstar", "count"]) == {"leaves"}
    only = X.summary_tables(_table(bs=(2, 3)), n_resamples=49, estimators="fit,alpha")["ebf"]
    assert list(dict.fromkeys(only["estimator"])) == ["fit", "alpha"]
    with pytest.raises(ValueError, match=r"estimators must be a non-empty subset of fit, alpha, parity, "
                                         r"per-depth, rn_bstar; got beff"):
        X.summary_tables(_table(bs=(2,)), estimators="fit,beff")


def test_fit_window_is_the_deepest_depths_asked(tables):
    t = _table(bs=(2,), depths=range(1, 11))
    eight = X.summary_tables(t, n_resamples=49, estimators="fit")["ebf"]
    three = X.summary_tables(t, n_resamples=49, estimators="fit", fit_depths=3)["ebf"]
    every = X.summary_tables(t, n_resamples=49, estimators="fit", fit_depths=None)["ebf"]
    assert set(eight["d_min"]) == {3} and set(three["d_min"]) == {8} and set(every["d_min"]) == {2}
    assert set(three["d_max"]) == {10}
    with pytest.raises(ValueError, match="fit_depths must be an integer >= 2"):
        E.check_fit_depths(1)


def test_latex_folds_constant_columns_and_takes_digits_and_columns(tmp_path):
    t = _table(bs=(2, 3))
    paths = X.write_tables(t, tmp_path, formats="csv,latex,md", estimators="fit", digits=2,
                           columns=("b", "ordering"), n_resamples=49)
    tex = (tmp_path / "ebf.tex").read_text()
    caption = tex[tex.index(r"\caption{"):]
    header = tex.splitlines()[tex.splitlines().index(r"\toprule") + 1]
    # b and ordering vary: columns; estimator and count are constant, so in the caption only
    assert header.startswith("b & ordering & estimate [95 \\% CI]")
    assert "estimator = fit" in caption and "count = leaves" in caption and "n = 5 per row" in caption
    assert "tree = iid" in caption and "algorithm = alphabeta" in caption
    assert "deepest 8 depths" in caption
    assert "tree" not in header and "tree" not in (tmp_path / "ebf.csv").read_text().splitlines()[0]
    row = tex.splitlines()[tex.splitlines().index(r"\midrule") + 1]
    est = row.split(" & ")[2]
    assert est.count("[") == 1 and all(len(x.strip("[], \\")) <= 4 for x in est.split())  # 2 digits
    csv = pd.read_csv(tmp_path / "ebf.csv")
    assert list(csv.columns) == ["b", "ordering", "n", "estimate", "lo", "hi"]   # CSV keeps precision
    assert (tmp_path / "ebf.md") in paths
    with pytest.raises(ValueError, match="columns must be among this run's table columns .*got colour"):
        X.write_tables(t, tmp_path, formats="csv", columns="b,colour", n_resamples=49)
    with pytest.raises(ValueError, match=r"digits must be an integer in \[1, 8\]; got 0"):
        X.write_tables(t, tmp_path, formats="csv", digits=0)


def test_zero_width_interval_is_printed_as_the_value_and_explained():
    frame = pd.DataFrame({"b": [2, 3], "n": [5, 5], "estimate": [1.5, 2.25], "lo": [1.5, 2.0],
                          "hi": [1.5, 2.5]})
    tex = X.to_latex(frame, caption="EBF")
    assert "1.5 &" not in tex.replace(" [", "[")   # placeholder guard for the cell split below
    cells = [ln.split(" & ") for ln in tex.splitlines() if ln.startswith(("2 &", "3 &"))]
    assert cells[0][1].rstrip(" \\") == "1.5" and cells[1][1].startswith("2.25 [2, 2.5]")
    assert "a value without an interval is exact" in tex
    md = X.to_markdown(frame)
    assert "| 1.5 |" in md and "n = 5 per row" in md.splitlines()[0]


def test_report_cli_table_options_need_tables(tmp_path, capsys):
    from searchlab.report.report_cli import main
    with pytest.raises(SystemExit):
        main([str(tmp_path), "--estimators", "fit"])
    assert "--estimators applies to the exported tables: add --tables" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main([str(tmp_path), "--tables", "csv", "--fit-depths", "1"])
    assert "must be an integer >= 2 or 'all'" in capsys.readouterr().err
