"""The rigor studies that search (worst case, node types, critical case, cut rule, policy costs) as tasks of
the engine (``searchlab experiment=rigor``): the same records as each module's in-process
``study``, and a run cut short resumes only what is missing."""

from __future__ import annotations

import json
import re
import shutil

import pytest

from searchlab.experiment import api
from searchlab.studies.claim_study.claim_study import load_tables
from searchlab.studies.ordering import ordering_costs as K
from searchlab.studies.rigor import discrete as D
from searchlab.studies.rigor import nodetypes as N
from searchlab.studies.rigor import rigor_study as RS
from searchlab.studies.rigor import worstcase as W

QUIET = ["runner.n_jobs=1", "runner.progress=false", "claim_study.size=small"]


@pytest.fixture(scope="module")
def small_run(tmp_path_factory):
    return api.run_study("rigor", QUIET, output_dir=tmp_path_factory.mktemp("rigor") / "run", progress=False)


def _text(records) -> str:
    """The records' repr with numpy scalars and integral floats as plain numbers (NaN compares
    equal as text)."""
    s = re.sub(r"np\.float64\(([^()]*)\)", r"\1", repr(records))
    return re.sub(r"(value=-?\d+)\.0\b", r"\1", s)


def test_the_engine_run_gives_the_in_process_records(small_run):
    manifest = json.loads((small_run / "manifest.json").read_text())
    assert manifest["complete"] and manifest["tasks"] == len(RS.rigor_steps("small", RS.SEED))
    got = RS.summarise(load_tables(small_run), "small", RS.SEED, n_resamples=99)
    want = {"worstcase": W.study(True), "worst_attained": W.attained_study(), "nodetypes": N.study(True),
            "critical": D.critical_study(True, n_resamples=99), "cut_rule": D.cut_rule_study(True, n_resamples=99),
            "costs": K.study(True, n_resamples=99)}
    assert set(got) == set(want)
    for key in want:
        assert _text(got[key]) == _text(want[key]), key
    text = (small_run / "report.md").read_text()
    assert "The worst case over all orderings" in text and "Node types" in text and "critical" in text
    assert "What ordering policies cost besides nodes" in text


def test_a_run_cut_short_resumes_only_the_missing_tasks(small_run, tmp_path, capsys):
    run = tmp_path / "run"
    shutil.copytree(small_run, run)
    parts = sorted((run / "cut_rule").glob("part-*.parquet"))
    assert parts
    parts[0].unlink()                        # as if killed before that part was written
    with pytest.raises(ValueError, match="incomplete run"):
        RS.summarise(load_tables(run), "small", RS.SEED, n_resamples=99)
    capsys.readouterr()
    api.run_study("rigor", QUIET + ["runner.report=false"], output_dir=run, progress=False)
    out = capsys.readouterr().out
    assert "resume:" in out and "running the 0 missing" not in out
    before = RS.summarise(load_tables(small_run), "small", RS.SEED, n_resamples=99)
    after = RS.summarise(load_tables(run), "small", RS.SEED, n_resamples=99)
    assert _text(after) == _text(before)
