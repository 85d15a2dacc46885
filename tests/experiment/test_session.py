"""Every study kind runs through the one session skeleton (searchlab.experiment.session): its
kind is recorded in manifest.json, read back by kind_of_run, and a run directory written before
the kind was recorded (the old format) still resumes as its own kind, its tasks not run again."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from searchlab.studies.rigor import convergence as CV
from searchlab.studies.claim_study.claim_steps import run_steps
from searchlab.experiment import api
from searchlab.studies.claim_study.claim_study import load_tables
from searchlab.experiment.session import recorded_kind

from .experiment_helpers import SMALL

ROOT = Path(__file__).resolve().parents[2]
QUIET = ["runner.n_jobs=1", "runner.progress=false"]
#: (preset, overrides, kind) of one small run of every kind
RUNS = {
    "sweep": ("quick", SMALL + ["runner.n_jobs=1"]),
    "parallel": ("parallel_tiny", QUIET + ["runner.report=false"]),
    "claim_study": ("chance", QUIET + ["claim_study.size=tiny", "runner.report=false"]),
}


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    base = tmp_path_factory.mktemp("kinds")
    return {k: api.run_study(p, ov, output_dir=base / k, progress=False) for k, (p, ov) in RUNS.items()}


@pytest.mark.parametrize("kind", sorted(RUNS))
def test_the_manifest_records_the_kind_and_kind_of_run_reads_it(runs, kind):
    manifest = json.loads((runs[kind] / "manifest.json").read_text())
    assert manifest["kind"].split(":")[0] == kind == recorded_kind(runs[kind])
    assert api.kind_of_run(runs[kind]).name == kind
    assert manifest["complete"] and "running" not in manifest


@pytest.mark.parametrize("kind", sorted(RUNS))
def test_an_old_format_run_without_the_kind_resumes_as_its_kind(runs, kind, tmp_path, capsys):
    run = tmp_path / "old"
    shutil.copytree(runs[kind], run)
    manifest = json.loads((run / "manifest.json").read_text())
    del manifest["kind"]                                     # as the code before wrote it
    (run / "manifest.json").write_text(json.dumps(manifest))
    assert recorded_kind(run) is None
    # a parallel run always recorded its kind: without it, only the sweep's fallback is left
    assert api.kind_of_run(run).name == (kind if kind != "parallel" else "sweep")
    capsys.readouterr()
    preset, ov = RUNS[kind]
    api.run_study(preset, ov, output_dir=run, progress=False)
    out = capsys.readouterr().out
    assert "running the 0 missing" in out
    assert api.kind_of_run(run).name == kind                  # recorded again by this session


def test_a_run_of_another_config_is_refused_for_every_kind(runs):
    for kind, (preset, ov) in RUNS.items():
        with pytest.raises(api.RunError, match="different config"):
            api.run_study(preset, ov + ["seed=99"], output_dir=runs[kind], progress=False)


@pytest.fixture(scope="module")
def convergence_run(tmp_path_factory):
    return api.run_study("convergence", QUIET + ["claim_study.size=small"],
                         output_dir=tmp_path_factory.mktemp("conv") / "c", progress=False)


def test_convergence_runs_as_engine_tasks_with_the_in_process_numbers(convergence_run):
    """The convergence study on the engine's runner and store gives the table, hence the
    numbers, of its steps run in this process."""
    run = convergence_run
    got = load_tables(run)["paired_leaves"]
    want = run_steps(CV.convergence_steps("small", CV.SEED), CV.KINDS)["paired_leaves"]
    key = ["b", "tree", "d"]
    pd.testing.assert_frame_equal(got.sort_values(key).reset_index(drop=True),
                                  want.sort_values(key).reset_index(drop=True), check_dtype=False)
    text = (run / "report.md").read_text()
    assert "Extrapolated limit" in text and "convergence_paired_b2.png" in text
    assert (run / "figures" / "convergence_paired_b8.png").exists()


def test_an_earlier_reproductions_convergence_cache_is_adopted_on_resume(convergence_run, tmp_path, capsys):
    """reproduce.py --resume on a reproduction whose convergence counts are the .npz cache of the
    code before (runs/convergence/b{b}.npz) adopts them: nothing is measured again, same table."""
    sys.path.insert(0, str(ROOT / "analysis"))
    import reproduce

    cache = tmp_path / "convergence"
    cache.mkdir()
    table = load_tables(convergence_run)["paired_leaves"]
    depths_by_b, n = CV.SIZES["small"]
    for b in depths_by_b:
        depths, leaves = CV.matrix(table, b)
        np.savez(cache / f"b{b}.npz", depths=depths, seeds=CV.tree_seeds(CV.SEED, b, n),
                 leaves=leaves, ordering=CV.ORDERING)
    assert reproduce.adopt_convergence_cache(cache, "small", 1, log=lambda _: None) == len(table)
    capsys.readouterr()
    api.run_study("convergence", QUIET + ["claim_study.size=small", "runner.report=false"],
                  output_dir=cache, progress=False)
    assert "resume: 6 of 6 tasks already" in capsys.readouterr().out
    key = ["b", "tree", "d"]
    pd.testing.assert_frame_equal(load_tables(cache)["paired_leaves"].sort_values(key).reset_index(drop=True),
                                  table.sort_values(key).reset_index(drop=True))
