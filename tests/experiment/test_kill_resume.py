"""A real run killed with SIGKILL midway, then resumed: no row lost, none duplicated."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pandas as pd
import pytest

from searchlab.experiment import store
from searchlab.experiment.run_status import IncompleteRunError
from searchlab.experiment.store import load

from .experiment_helpers import ROOT, cli, det_frame

# ~600 tasks of a few thousand nodes each, flushed every 40 rows: several parts per second.
SWEEP = ["experiment=quick", "sweep.b=[2,3,4,5]", "sweep.d=3..7", "sweep.ordering=[worst,random,perfect]",
         "sweep.instances=10", "sweep.d_budget=null", "runner.report=false",
         "runner.progress=false", "runner.flush_rows=40", "runner.flush_seconds=0.2",
         "runner.batch_nodes=20000", "runner.n_jobs=2"]


def test_sigkill_midway_then_resume(tmp_path):
    out = tmp_path / "killed"
    # the killed run is slowed down (20 ms per task, 600 tasks on 2 workers: >= 6 s) so that it
    # is surely killed midway whatever the machine's speed; the resumed run is not
    env = dict(os.environ, PYTHONPATH=str(ROOT),
               SEARCHLAB_FAULT_INJECT=json.dumps({"index": "*", "mode": "sleep", "seconds": 0.02}))
    proc = subprocess.Popen([sys.executable, "-m", "searchlab.cli", *SWEEP,
                             f"hydra.run.dir={out}"], cwd=tmp_path, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while len(store.list_parts(out)) < 3:
            assert proc.poll() is None, proc.stdout.read().decode()
            assert time.monotonic() < deadline, "no parts appeared"
            time.sleep(0.05)
        os.kill(proc.pid, signal.SIGKILL)            # the run itself, mid-write if it must
        proc.wait(timeout=30)
    finally:
        try:
            os.killpg(proc.pid, signal.SIGKILL)      # and its orphaned workers
        except ProcessLookupError:
            pass
    # the starting manifest says what was planned: a killed run is refused unless partial
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["running"], "the run finished before it was killed: make SWEEP bigger"
    assert manifest["tasks"] == 600 and not manifest["complete"]
    with pytest.raises(IncompleteRunError, match=r"is incomplete: \d+ of 600 tasks done"):
        load(out)
    with pytest.warns(UserWarning, match="of 600 tasks done"):
        partial = load(out, partial=True)
    assert 0 < len(partial) < 600

    rc, text, err = cli(*SWEEP, f"runner.resume={out}", cwd=tmp_path, timeout=300)
    assert rc == 0, err
    assert f"resume: {len(partial)} of 600 tasks already" in text
    resumed = load(out)
    assert len(resumed) == 600 and resumed.task_id.is_unique
    assert not list((out / "table").glob(".*.tmp"))

    # identical (but for timing) to an uninterrupted run in process
    from searchlab.experiment.api import run_study
    ref = run_study("quick", [s for s in SWEEP if not s.startswith(("runner.n_jobs", "experiment="))] +
                    ["runner.n_jobs=1"], output_dir=tmp_path / "ref", progress=False)
    pd.testing.assert_frame_equal(det_frame(resumed), det_frame(load(ref)))
