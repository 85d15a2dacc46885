"""Three slips a reader reported: the analysis README names the figure module that exists,
results/README.md lists every engine the `engine` column can hold, and a run with no i.i.d.
rows says so instead of claiming it has no ok rows."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pandas as pd

from searchlab.algorithms.search_api import ENGINES
from searchlab.studies.sweep.sweep_report import summary_table

ROOT = Path(__file__).resolve().parents[2]


def test_analysis_readme_names_modules_that_exist():
    text = (ROOT / "analysis" / "README.md").read_text()
    names = set(re.findall(r"`(searchlab\.analysis\.\w+)`", text))
    assert "searchlab.analysis.figures" in names
    for name in names:
        importlib.import_module(name)


def test_results_readme_engine_column_lists_every_engine():
    row = next(ln for ln in (ROOT / "results" / "README.md").read_text().splitlines()
               if ln.startswith("| `engine` |"))
    for engine in (e for e in ENGINES if e != "auto"):
        assert f"`{engine}`" in row, engine


def test_no_iid_rows_is_not_reported_as_no_ok_rows():
    text = summary_table(pd.DataFrame())
    assert "No configuration with status-ok rows" not in text
    assert "no i.i.d." in text and "game positions" in text
