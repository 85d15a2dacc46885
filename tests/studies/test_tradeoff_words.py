"""The trade-off report's error rates with Clopper–Pearson intervals, the positions that went
wrong, and the null-move / LMR rates, from a constructed table."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from searchlab.studies.tradeoff.matches_report import HOLM_NOTE
from searchlab.studies.tradeoff.tradeoff_report import (clopper_pearson, error_positions, summarise,
                                                         technique_rates, tradeoff_table)


def _table(errors: dict[str, int], n: int = 12) -> pd.DataFrame:
    rows = []
    for tech, k in errors.items():
        fam = "sound" if tech == "alpha-beta" else tech.split("_")[0]
        for i in range(n):
            wrong = i < k
            rows.append(dict(domain="connect4", variant="connect4", technique=tech, family=fam,
                             params="", position=f"p{i:02d}", node_ratio=0.8 if fam != "sound" else 1.0,
                             time_ratio=1.0, decision_error=int(wrong), value_error=0.5 * wrong,
                             fired=1, budget_depth=5, ref_budget_depth=5, budget_decision_error=0,
                             result_change=0, budget_result_change=0, solved=0, budget_solved=0,
                             best_move="3" if wrong else "4", exact_best_moves="4",
                             null_tried=10 if fam == "null" else 0, null_cuts=4 if fam == "null" else 0,
                             lmr_reduced=20 if fam == "lmr" else 0, lmr_researches=5 if fam == "lmr" else 0))
    return pd.DataFrame(rows)


def test_clopper_pearson_is_scipys_exact_interval():
    lo, hi = clopper_pearson(0, 12)
    assert lo == 0.0 and hi == pytest.approx(1 - 0.025 ** (1 / 12))      # closed form at k = 0
    lo, hi = clopper_pearson(12, 12)
    assert hi == 1.0 and lo == pytest.approx(0.025 ** (1 / 12))
    assert all(math.isnan(x) for x in clopper_pearson(0, 0))


def test_zero_errors_get_an_interval_and_the_table_shows_it():
    df = _table({"alpha-beta": 0, "null_r2": 0, "lmr_log": 1})
    s = summarise(df)
    null = s[s["technique"] == "null_r2"].iloc[0]
    assert null["decision_error"] == 0 and null["decision_error_lo"] == 0
    assert null["decision_error_hi"] == pytest.approx(0.2646, abs=1e-4)   # not a zero-width interval
    text = tradeoff_table(s)
    assert "0.0 % [0.0, 26.5] (0/12)" in text and "8.3 % [0.2, 38.5] (1/12)" in text


def test_positions_that_went_wrong_are_listed():
    df = _table({"alpha-beta": 0, "null_r2": 2, "lmr_log": 0})
    text = error_positions(df)
    lines = [ln for ln in text.splitlines() if ln.startswith("| connect4")]
    assert len(lines) == 2 and all("| null_r2 |" in ln and "| 3 | 4 |" in ln for ln in lines)
    assert {ln.split("|")[4].strip() for ln in lines} == {"p00", "p01"}
    assert error_positions(_table({"alpha-beta": 0})) == ""


def test_null_move_cut_rate_and_lmr_re_search_rate():
    text = technique_rates(_table({"alpha-beta": 0, "null_r2": 0, "lmr_log": 0}))
    null = next(ln for ln in text.splitlines() if "| null_r2 |" in ln)
    lmr = next(ln for ln in text.splitlines() if "| lmr_log |" in ln)
    assert "40.0 % [" in null and "(48/120)" in null          # 12 positions x 4 cuts / 10 tries
    assert "25.0 % [" in lmr and "(60/240)" in lmr
    assert "null-move node ratio above 1" in text
    assert technique_rates(_table({"alpha-beta": 0}).drop(columns=["null_tried"])) == ""


def test_holm_column_is_explained():
    assert '"(1)" means the adjusted p is 1' in HOLM_NOTE
