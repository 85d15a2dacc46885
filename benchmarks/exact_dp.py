"""Time of the exact-expectation DP (searchlab.theory.exact) per (b, d, K).

Run from the repository root:

    .venv/bin/python benchmarks/exact_dp.py [--repeats 3] [--quick]

1. K equiprobable levels: ``expected_counts(b, d, uniform_pmf(K))`` (both chains of heights,
   nodes and leaves, every depth 0..d) for K = 16..1024 at b = 2, d = 60 and b = 8, d = 24;
   the cost per height is O(K^2), so the table also prints seconds / (d K^2) (ns per window
   and height).
2. Continuous leaves: the parts of ``continuous_bounds(b, d, M)`` (two partitions, two cut
   rules; the section runs it at M and at M / 2) at the
   depths of the report's convergence section (studies.rigor.exact_counts.FULL_DEPTHS), M = 32,
   with its cell counts; the partition (decimal arithmetic) and the DP timed apart.

Process CPU time, best of --repeats; absolute times move with the machine's load, the ratios
between rows much less.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from searchlab.studies.rigor.exact_counts import FULL_DEPTHS, FULL_PER_HEIGHT
from searchlab.theory.exact import _chain, expected_counts, partition_cdfs, uniform_pmf


def best(fn, repeats: int) -> float:
    out = []
    for _ in range(repeats):
        t0 = time.process_time()
        fn()
        out.append(time.process_time() - t0)
    return min(out)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--quick", action="store_true", help="small sizes only (a smoke run)")
    args = ap.parse_args(argv)
    if args.repeats < 1:
        ap.error("--repeats must be >= 1")
    cases = [(2, 20, 64), (8, 8, 64)] if args.quick else [
        (b, d, K) for b, d in ((2, 60), (8, 24)) for K in (16, 64, 256, 1024)]
    print("K equiprobable levels: expected_counts(b, d, uniform_pmf(K)), every depth 0..d")
    print(f"{'b':>3} {'d':>3} {'K':>5} {'seconds':>9} {'ns/(window*height)':>19}")
    for b, d, K in cases:
        s = best(lambda: expected_counts(b, d, uniform_pmf(K)), args.repeats)
        print(f"{b:>3} {d:>3} {K:>5} {s:9.3f} {1e9 * s / (2 * d * (K + 1) ** 2):19.2f}")
    print()
    plan = {2: 16, 8: 8} if args.quick else FULL_DEPTHS
    M = 16 if args.quick else FULL_PER_HEIGHT
    print(f"continuous leaves: continuous_bounds(b, d, M={M}) (2 partitions x 2 cut rules)")
    print(f"{'b':>3} {'d':>3} {'cells':>11} {'partition s':>12} {'DP s':>8} {'total s':>8}")
    for b, d in plan.items():
        tp = best(lambda: [partition_cdfs(b, d, M, p) for p in (0, 1)], 1)
        cdfs = [partition_cdfs(b, d, M, p) for p in (0, 1)]
        tdp = best(lambda: [_chain(b, np.diff(cdfs[p][0]), d, strict, p, cdfs[p])
                            for p in (0, 1) for strict in (False, True)], 1)
        cells = f"{len(cdfs[0][0]) - 1},{len(cdfs[1][0]) - 1}"
        print(f"{b:>3} {d:>3} {cells:>11} {tp:12.2f} {tdp:8.2f} {tp + tdp:8.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
