"""Running studies: determinism, the table, resume, faults (in-process API, small sweeps)."""

from __future__ import annotations

import errno
import json
import os

import pandas as pd
import pyarrow.parquet as pq
import pytest

from searchlab.experiment import store
from searchlab.experiment.api import RunError, run_study
from searchlab.experiment.store import load

from .experiment_helpers import SMALL, det_frame

REQUIRED = ["experiment", "tree", "b", "d", "levels", "p", "decay", "correlation", "algorithm",
            "ordering", "instance", "seed", "ordering_seed", "value", "best_move", "nodes",
            "leaves", "interior", "cutoffs", "per_ply", "wall_seconds", "status", "engine",
            "config_hash", "version", "commit"]


@pytest.fixture(scope="module")
def reference_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("ref") / "run"
    run_study("quick", SMALL + ["runner.n_jobs=1"], output_dir=out, progress=False)
    return out


def test_table_schema_and_content(reference_run):
    df = load(reference_run)
    # the table's columns are the store's schema, in its order, then the run each row came from
    assert list(df.columns) == [*store.COLUMNS, "run_dir"]
    for c in REQUIRED:
        assert c in df.columns, c
    assert len(df) == 3 * 4 * 3 * 6 and df.task_id.is_unique
    assert (df.status == "ok").all() and (df.experiment == "quick").all()
    assert (df.nodes == df.leaves + df.interior).all()
    assert all(sum(pp) == n for pp, n in zip(df.per_ply, df.nodes))
    # paired comparisons: every ordering sees the same tree instance, hence the same value
    g = df.groupby(["b", "d", "instance"])
    assert (g.seed.nunique() == 1).all() and (g.value.nunique() == 1).all()
    # perfect order meets Knuth-Moore exactly on continuous iid trees
    km = df[df.ordering == "perfect"]
    assert (km.leaves == km.b ** ((km.d + 1) // 2) + km.b ** (km.d // 2) - 1).all()
    # provenance beside the table
    prov = json.loads((reference_run / "provenance.json").read_text())
    assert prov["config_hash"] == df.config_hash.iloc[0]
    assert "numpy" in prov["libraries"] and prov["machine"]["cpu_count"]
    assert "commit" in prov and "dirty" in prov
    assert (reference_run / "config.yaml").read_text().startswith("name: quick")
    man = json.loads((reference_run / "manifest.json").read_text())
    assert man["complete"] and man["rows"] == len(df)


def test_same_table_with_two_workers_and_on_rerun(reference_run, tmp_path):
    a = det_frame(load(reference_run))
    run_study("quick", SMALL + ["runner.n_jobs=2", "runner.batch_nodes=500"],
              output_dir=tmp_path / "two", progress=False)
    b = det_frame(load(tmp_path / "two"))
    pd.testing.assert_frame_equal(a, b)
    assert len(store.list_parts(tmp_path / "two")) >= 1


def test_seeds_do_not_depend_on_the_grid(reference_run, tmp_path):
    """A task's seeds derive from its identity only: a sub-grid gives the same rows."""
    run_study("quick", SMALL + ["runner.n_jobs=1", "sweep.b=[3]", "sweep.ordering=[random]"],
              output_dir=tmp_path / "sub", progress=False)
    sub = load(tmp_path / "sub")
    ref = load(reference_run)
    ref = ref[(ref.b == 3) & (ref.ordering == "random")]
    cols = ["b", "d", "instance", "seed", "ordering_seed", "value", "nodes", "leaves"]
    pd.testing.assert_frame_equal(sub[cols].reset_index(drop=True),
                                  ref[cols].reset_index(drop=True))


def test_load_many_runs_and_globs(reference_run, tmp_path):
    one = load(reference_run)
    with pytest.raises(store.MixedRunError, match="a run named twice"):
        load([reference_run, reference_run])                 # the same run twice: refused, not deduplicated
    assert len(load(str(reference_run.parent) + "/*")) == len(one)
    with pytest.raises(FileNotFoundError):
        load(tmp_path / "nothing-here")


def test_resume_skips_done_tasks_and_reports_a_corrupt_part(reference_run, tmp_path, capsys):
    out = tmp_path / "run"
    run_study("quick", SMALL + ["runner.n_jobs=1", "runner.flush_rows=20"], output_dir=out,
              progress=False)
    parts = store.list_parts(out)
    assert len(parts) >= 4
    full = det_frame(load(out))
    # damage one part, drop another, leave a stale temporary file
    bad = parts[1]
    n_lost = pq.read_metadata(bad).num_rows + pq.read_metadata(parts[2]).num_rows
    bad.write_bytes(bad.read_bytes()[: len(bad.read_bytes()) // 2])
    parts[2].unlink()
    (out / "table" / ".part-00099.parquet.tmp").write_bytes(b"partial")
    capsys.readouterr()
    run_study("quick", SMALL + ["runner.n_jobs=1", f"runner.resume={out}"], progress=False)
    text = capsys.readouterr().out
    assert f"corrupt part {bad.name}" in text and "removed unfinished temporary file" in text
    assert f"running the {n_lost} missing" in text
    assert (out / "table" / (bad.name + ".corrupt")).exists()
    again = load(out)
    assert again.task_id.is_unique
    pd.testing.assert_frame_equal(det_frame(again), full)
    # a second resume finds nothing to do
    run_study("quick", SMALL + ["runner.n_jobs=1"], output_dir=out, progress=False)
    assert "running the 0 missing" in capsys.readouterr().out
    assert len(load(out)) == len(full)


def test_resume_with_another_config_is_refused(reference_run):
    with pytest.raises(RunError, match="different config"):
        run_study("quick", SMALL + ["sweep.instances=7"], output_dir=reference_run, progress=False)


def test_unwritable_output_directory(tmp_path):
    a_file = tmp_path / "file"
    a_file.write_text("x")
    with pytest.raises(RunError, match="cannot write to output directory"):
        run_study("quick", SMALL, output_dir=a_file / "run", progress=False)
    with pytest.raises(RunError, match="cannot write"):
        run_study("quick", SMALL, output_dir="/proc/searchlab-run", progress=False)


def test_full_output_directory_stops_cleanly(tmp_path, monkeypatch):
    """ENOSPC while writing a part: one clear error, the parts written so far are kept."""
    calls = {"n": 0}
    real = pq.write_table

    def write_table(table, where, **kw):
        calls["n"] += 1
        if calls["n"] >= 3:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real(table, where, **kw)

    monkeypatch.setattr(store.pq, "write_table", write_table)
    out = tmp_path / "run"
    with pytest.raises(RunError, match="No space left on device.*resume with runner.resume="):
        run_study("quick", SMALL + ["runner.n_jobs=1", "runner.flush_rows=20"], output_dir=out,
                  progress=False)
    assert len(store.list_parts(out)) == 2
    assert not list((out / "table").glob(".*.tmp"))
    monkeypatch.setattr(store.pq, "write_table", real)
    run_study("quick", SMALL + ["runner.n_jobs=1", "runner.flush_rows=20"], output_dir=out,
              progress=False)
    assert len(load(out)) == 3 * 4 * 3 * 6


def test_node_budget_aborts_and_keeps_the_row(tmp_path):
    out = run_study("quick", SMALL + ["runner.n_jobs=1", "search.max_nodes=100"],
                    output_dir=tmp_path / "run", progress=False)
    df = load(out)
    assert len(df) == 3 * 4 * 3 * 6
    ab = df[df.status == "aborted"]
    assert len(ab) > 0 and ab.value.isna().all() and (ab.nodes >= 100).all()
    assert (df[df.status == "ok"].nodes <= 100).all()


def test_worker_crash_is_retried_then_recorded_as_failed(tmp_path):
    """Task 5 kills its worker every time, task 9 only once: 5 is 'failed', 9 completes."""
    state = tmp_path / "crashes.txt"
    env = {"index": [5], "mode": "crash", "times": 10, "state": str(state)}
    os.environ[api_env()] = json.dumps(env)
    try:
        out = run_study("quick", SMALL + ["runner.n_jobs=2", "runner.batch_nodes=300",
                                          "sweep.b=[2,3]", "sweep.instances=3"],
                        output_dir=tmp_path / "run", progress=False)
    finally:
        del os.environ[api_env()]
    df = load(out)
    assert len(df) == 2 * 4 * 3 * 3 and df.task_id.is_unique
    failed = df[df.status == "failed"]
    assert list(failed.task_index) == [5]
    assert "worker crashed" in failed.error.iloc[0] and failed.attempts.iloc[0] == 2
    assert (df[df.task_index != 5].status == "ok").all()
    assert len(state.read_text().splitlines()) == 2          # first run + one retry

    state2 = tmp_path / "once.txt"
    os.environ[api_env()] = json.dumps({"index": [9], "mode": "crash", "times": 1,
                                        "state": str(state2)})
    try:
        out2 = run_study("quick", SMALL + ["runner.n_jobs=2", "runner.batch_nodes=300",
                                           "sweep.b=[2,3]", "sweep.instances=3"],
                         output_dir=tmp_path / "run2", progress=False)
    finally:
        del os.environ[api_env()]
    df2 = load(out2)
    assert (df2.status == "ok").all() and len(df2) == len(df)
    assert df2.set_index("task_index").attempts[9] == 2


def test_task_exception_is_retried_then_failed(tmp_path):
    os.environ[api_env()] = json.dumps({"index": [3], "mode": "raise", "times": 5,
                                        "state": str(tmp_path / "s.txt")})
    try:
        out = run_study("quick", SMALL + ["runner.n_jobs=1", "sweep.b=[2]", "sweep.instances=2"],
                        output_dir=tmp_path / "run", progress=False)
    finally:
        del os.environ[api_env()]
    df = load(out)
    row = df.set_index("task_index").loc[3]
    assert row.status == "failed" and "injected fault" in row.error and row.attempts == 2
    assert (df[df.task_index != 3].status == "ok").all()


def api_env() -> str:
    from searchlab.experiment.runner import FAULT_ENV
    return FAULT_ENV
