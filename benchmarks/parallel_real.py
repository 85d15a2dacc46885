"""Real parallel Lazy SMP on this machine's cores against the simulator's p = 2 prediction.

Run from the repository root:

    .venv/bin/python benchmarks/parallel_real.py [--tt-bits 20]

For each tree (ordered b = 8, d = 11, order_p 0.7 and 0.9; incremental b = 8, d = 11): one real
search with 1 worker and one with 2 workers (numba nogil threads sharing one transposition
table, searchlab.parallel.real), then the simulator's Lazy SMP at p = 1 and p = 2 with the
default costs. Prints, from this one run: wall seconds, nodes, the measured speedup t1/t2 and
node overhead n2/n1 - 1, the process's CPU seconds / wall seconds during the 2-worker search
(about 2 when both threads really ran at once; near 1 when the machine gave them one core), and
the simulator's predicted speedup and overhead. Every search's value is checked against the
others (exit status 1 on a mismatch).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from searchlab.parallel import simulate  # noqa: E402
from searchlab.parallel.real import lazy_smp_threads  # noqa: E402
from searchlab.trees import IIDTree, IncrementalTree, OrderedTree  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tt-bits", type=int, default=20, help="table slots 2^bits (default 20)")
    args = ap.parse_args(argv)
    lazy_smp_threads(IIDTree(2, 2), 2)                    # load the compiled kernel
    trees = [OrderedTree(8, 11, seed=1, p=0.7), OrderedTree(8, 11, seed=1, p=0.9),
             IncrementalTree(8, 11, seed=2)]
    bad = 0
    print(f"{'tree':58} {'t1 s':>6} {'t2 s':>6} {'speedup':>7} {'overhead':>8} {'cpu/wall':>8} "
          f"{'sim speedup':>11} {'sim overhead':>12}")
    for tree in trees:
        r1 = lazy_smp_threads(tree, 1, tt_bits=args.tt_bits)
        r2 = lazy_smp_threads(tree, 2, tt_bits=args.tt_bits)
        s2 = simulate(tree, "lazy-smp", 2, tt_bits=args.tt_bits)
        if not r1.value == r2.value == s2.value:
            print(f"MISMATCH {tree.name}: {r1.value} {r2.value} {s2.value}")
            bad += 1
        print(f"{tree.name:58} {r1.wall_time:>6.2f} {r2.wall_time:>6.2f} "
              f"{r1.wall_time / r2.wall_time:>7.2f} {r2.nodes / r1.nodes - 1:>8.1%} "
              f"{r2.cpu_time / r2.wall_time:>8.2f} {s2.speedup:>11.2f} {s2.search_overhead:>12.1%}")
    print("speedup = t1/t2 (real, one run); overhead = nodes(2 workers) / nodes(1 worker) - 1; the "
          "simulator's speedup counts a table access as 0.25 node visits")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
