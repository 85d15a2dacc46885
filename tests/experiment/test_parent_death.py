"""After kill -9 of the main process, its loky workers end too (they used to go on computing):
a real subprocess, its workers identified by their in-flight markers, bounded in time."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from .experiment_helpers import ROOT


def _running(pid: int) -> bool:
    """Whether pid is a live process (a zombie waiting to be reaped is not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")


def test_workers_end_when_the_parent_is_killed(tmp_path):
    run = tmp_path / "run"
    code = ("from searchlab.experiment.api import run_study; "
            f"run_study('quick', ['sweep.b=[2]', 'sweep.d=[1,2]', 'sweep.instances=4', "
            f"'sweep.ordering=[random]', 'runner.n_jobs=2', 'runner.batch_nodes=1', "
            f"'runner.progress=false', 'runner.report=false'], output_dir={str(run)!r})")
    fault = json.dumps({"index": "*", "mode": "sleep", "seconds": 60})
    env = {**os.environ, "PYTHONPATH": str(ROOT), "SEARCHLAB_FAULT_INJECT": fault}
    parent = subprocess.Popen([sys.executable, "-c", code], env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    markers = run / ".inflight"
    workers: list[int] = []
    try:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline and len(workers) < 2:
            time.sleep(0.2)
            workers = [int(p.name) for p in markers.iterdir()] if markers.is_dir() else []
        assert len(workers) == 2, "the workers did not start"
        assert all(_running(w) for w in workers)
    finally:
        parent.send_signal(signal.SIGKILL)
        parent.wait(timeout=10)
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline and any(_running(w) for w in workers):
        time.sleep(0.2)
    alive = [w for w in workers if _running(w)]
    for w in alive:                       # do not leave them behind if the test fails
        os.kill(w, signal.SIGKILL)
    assert alive == [], f"workers {alive} still computing after their parent was killed"
