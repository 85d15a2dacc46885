"""Shared helpers for the experiment-engine tests: small sweeps, run in temporary directories."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SEARCHLAB = [sys.executable, "-m", "searchlab.cli"]

#: A small, fast sweep (about 200 tasks of at most a few thousand nodes).
SMALL = ["sweep.b=[2,3,4]", "sweep.d=1..4", "sweep.ordering=[worst,random,perfect]",
         "sweep.instances=6", "sweep.d_budget=null", "runner.progress=false",
         "runner.report=false"]


def cli(*args: str, cwd: Path, env: dict | None = None, timeout: float = 120):
    """Run the searchlab command in a subprocess; (returncode, stdout, stderr)."""
    e = dict(os.environ)
    e.update(env or {})
    e.setdefault("PYTHONPATH", str(ROOT))
    p = subprocess.run([*SEARCHLAB, *args], cwd=cwd, capture_output=True, text=True,
                       timeout=timeout, env=e)
    return p.returncode, p.stdout, p.stderr




def det_frame(df):
    """The deterministic part of a table, in grid order (all columns but timing/provenance)."""
    from searchlab.experiment.store import NONDETERMINISTIC

    cols = [c for c in df.columns if c not in NONDETERMINISTIC and c != "run_dir"]
    return df[cols].sort_values("task_index").reset_index(drop=True)
