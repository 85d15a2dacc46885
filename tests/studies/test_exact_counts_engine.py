"""The exact-expectations study as tasks of the engine (``searchlab experiment=exact_counts``):
the same numbers as its steps run in this process, and a run cut short resumes only what is
missing."""

from __future__ import annotations

import json
import shutil

import pytest

from searchlab.experiment import api
from searchlab.studies.claim_study.claim_study import load_tables
from searchlab.studies.claim_study.claim_steps import run_steps
from searchlab.studies.rigor import exact_counts as EC

QUIET = ["runner.n_jobs=1", "runner.progress=false", "claim_study.size=tiny"]


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory):
    return api.run_study("exact_counts", QUIET, output_dir=tmp_path_factory.mktemp("exact") / "run",
                         progress=False)


def _numbers(st: EC.ExactStudy) -> tuple:
    conv = {b: (e.bounds, e.coarse) for b, e in st.conv.items()}
    return conv, st.cross, st.crit, st.check, st.no_deep


def test_the_engine_run_gives_the_in_process_numbers(tiny_run):
    steps = EC.exact_counts_steps("tiny", EC.SEED)
    manifest = json.loads((tiny_run / "manifest.json").read_text())
    assert manifest["complete"] and manifest["tasks"] == len(steps)
    got = EC.summarise(load_tables(tiny_run), "tiny", EC.SEED)
    want = EC.summarise(run_steps(steps, EC.KINDS), "tiny", EC.SEED)
    assert _numbers(got) == _numbers(want)
    # the check's trees are the ones its seeds name: 2 steps per cell, every tree once
    check = load_tables(tiny_run)["exact_check"]
    n = EC.SIZES["tiny"][-1]
    assert sorted(check.groupby("cell")["tree"].nunique()) == [n] * 3 and len(check) == 3 * n
    text = (tiny_run / "report.md").read_text()
    assert "### 000-f/001-d/003-e" in text and "Check by simulation" in text
    assert (tiny_run / "figures" / "exact_growth_gap.png").exists()


def test_the_in_process_study_and_helpers_agree_with_the_steps():
    depths, per_height, *_ = EC.SIZES["tiny"]
    conv = EC.convergence(depths, per_height)
    ref = EC.summarise(run_steps(EC.exact_counts_steps("tiny", EC.SEED), EC.KINDS), "tiny", EC.SEED)
    assert {b: (e.bounds, e.coarse) for b, e in conv.items()} == {b: (e.bounds, e.coarse) for b, e in ref.conv.items()}
    cells = EC.SIZES["tiny"][5]
    assert EC.simulation_check(cells, EC.SIZES["tiny"][-1], EC.SEED, per_height, conv) == ref.check


def test_a_run_cut_short_resumes_only_the_missing_tasks(tiny_run, tmp_path, capsys):
    run = tmp_path / "run"
    shutil.copytree(tiny_run, run)
    parts = sorted((run / "exact_check").glob("part-*.parquet"))
    assert parts
    parts[0].unlink()                        # as if killed before that part was written
    with pytest.raises(ValueError, match="incomplete run"):
        EC.summarise(load_tables(run), "tiny", EC.SEED)
    capsys.readouterr()
    api.run_study("exact_counts", QUIET + ["runner.report=false"], output_dir=run, progress=False)
    out = capsys.readouterr().out
    assert "resume:" in out and "running the 0 missing" not in out
    before = EC.summarise(load_tables(tiny_run), "tiny", EC.SEED)
    assert _numbers(EC.summarise(load_tables(run), "tiny", EC.SEED)) == _numbers(before)
