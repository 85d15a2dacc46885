"""analysis/reproduce.py: its computed sections (the studies themselves run in the slow path)."""

import importlib.util
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from searchlab.analysis import estimators as E

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def reproduce():
    spec = importlib.util.spec_from_file_location("reproduce", ROOT / "analysis" / "reproduce.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_arithmetic_section_is_computed(reproduce):
    md = reproduce.arithmetic_section()
    assert "2.252·10^12" in md and "5.829" in md and "11.66" in md


def test_traces_section_draws_every_tree(reproduce, tmp_path):
    md = reproduce.traces_section(tmp_path)
    assert md.count("```") == 8
    assert "7 of 9 leaves examined" in md and "5 of 9 leaves examined" in md
    assert len(list(tmp_path.glob("trace_*.png"))) == 4


def test_ordered_and_discrete_sections(reproduce):
    rng = np.random.default_rng(3)
    rows = []
    for b in (2, 4):
        for d in range(2, 8):
            for i in range(4):
                for p in (0.0, 1.0 / b, 1.0):
                    a = 1.0 - 0.5 * p
                    rows.append(dict(experiment="ordered_p", tree="ordered", b=b, d=d, levels=None, p=p,
                                     algorithm="alphabeta", ordering="natural", instance=i,
                                     leaves=max(1, int(b ** (a * d) * rng.lognormal(0, 0.1))), status="ok"))
                for k in (0, 2):
                    rows.append(dict(experiment="discrete_values", tree="iid", b=b, d=d, levels=k, p=np.nan,
                                     algorithm="alphabeta", ordering="random", instance=i,
                                     leaves=max(1, int(b ** ((0.75 if k == 0 else 0.5) * d))), status="ok"))
    s = E.summarize(pd.DataFrame(rows), n_resamples=49)
    om = reproduce.ordered_section(s)
    assert "| p | b = 2 | b = 4 |" in om
    dm = reproduce.discrete_section(s)
    assert "K = 2" in dm and "continuous" in dm
