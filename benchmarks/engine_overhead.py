"""Engine overhead: 10,000 tiny tasks (b = 2, d = 4) through the `searchlab` command, everything
included (process start, Hydra, validation, worker start-up, Parquet writes, report).

    .venv/bin/python benchmarks/engine_overhead.py [--n-jobs 2] [--no-report]

Target: under 60 s on 2 cores. Prints the wall time and the rate.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n-jobs", type=int, default=2)
    ap.add_argument("--no-report", action="store_true", help="skip report.md (analysis)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "run"
        cmd = [sys.executable, "-m", "searchlab.cli", "name=engine_overhead", "sweep.b=[2]",
               "sweep.d=[4]", "sweep.ordering=[natural,random,perfect,worst]",
               "sweep.instances=2500", "sweep.d_budget=null", f"runner.n_jobs={args.n_jobs}",
               "runner.progress=false", f"runner.report={'false' if args.no_report else 'true'}",
               f"hydra.run.dir={out}"]
        t0 = time.perf_counter()
        p = subprocess.run(cmd, cwd=tmp, capture_output=True, text=True,
                           env=dict(os.environ, PYTHONPATH=str(ROOT)))
        wall = time.perf_counter() - t0
        if p.returncode != 0:
            sys.exit(f"searchlab failed:\n{p.stderr}")
        sys.path.insert(0, str(ROOT))
        from searchlab.experiment.store import load

        df = load(out)
        engine = ", ".join(sorted(df.engine.dropna().unique()))
        inner = [ln for ln in p.stdout.splitlines() if " rows (" in ln]
        print(f"engine_overhead: {len(df)} tasks (b=2, d=4; engine {engine}), n_jobs={args.n_jobs}, "
              f"report={'no' if args.no_report else 'yes'}")
        print(f"  wall time, all included: {wall:.1f} s  ({len(df) / wall:.0f} tasks/s)  target < 60 s")
        if inner:
            print(f"  of which running the tasks: {inner[0].split(' in ')[-1]}")


if __name__ == "__main__":
    main()
