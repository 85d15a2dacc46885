"""Parallel speedup of the engine on a CPU-bound sweep: n_jobs = 1 versus n_jobs = 2.

    .venv/bin/python benchmarks/engine_speedup.py [--instances 60]

Sweep: iid trees, b = 16, d = 7, random order (about 5e6 nodes, ~0.3 s per task), the same
tasks at n_jobs = 1 (in process) and n_jobs = 2 (loky). Worker start-up is measured separately
(a warm-up run first), then both runs are timed end to end through run_study. Target:
speedup >= 1.7 with 2 workers on 2 cores.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--instances", type=int, default=60)
    args = ap.parse_args()
    from searchlab.experiment.api import run_study
    from searchlab.experiment.store import load

    sweep = ["name=engine_speedup", "sweep.b=[16]", "sweep.d=[7]", "sweep.ordering=[random]",
             f"sweep.instances={args.instances}", "sweep.d_budget=null", "runner.report=false",
             "runner.progress=false"]
    times = {}
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        run_study("quick", ["sweep.b=[2]", "sweep.d=[4]", "sweep.ordering=[random]",
                            "sweep.instances=4", "runner.report=false", "runner.progress=false",
                            "runner.n_jobs=2"],
                  output_dir=Path(tmp) / "warm", progress=False)
        warm = time.perf_counter() - t0
        for n in (1, 2):
            t0 = time.perf_counter()
            out = run_study("quick", sweep + [f"runner.n_jobs={n}"], output_dir=Path(tmp) / f"n{n}",
                            progress=False)
            times[n] = time.perf_counter() - t0
        nodes = int(load(out).nodes.sum())
    print(f"engine_speedup: {args.instances} tasks, iid b=16 d=7 random order, {nodes:.3g} nodes in all")
    print(f"  worker start-up (warm-up run of 4 tasks, 2 workers): {warm:.1f} s")
    print(f"  n_jobs=1: {times[1]:.2f} s   n_jobs=2: {times[2]:.2f} s   "
          f"speedup {times[1] / times[2]:.2f}x  (target >= 1.7x)")


if __name__ == "__main__":
    main()
