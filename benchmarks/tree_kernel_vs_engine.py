"""The synthetic-tree kernel against the compiled engine on the same tree searches, one run.

    .venv/bin/python benchmarks/tree_kernel_vs_engine.py [--seeds 3] [--repeat 3]

The same searches on both engines: ``search(tree, algorithm, ordering, engine="kernel")``
(searchlab/algorithms/kernels/_alphabeta.py, one iterative function for every tree model, with
a leaf loop at the frontier) and ``engine="compiled"`` (the compiled engine over the trees'
primitives, searchlab/trees/*_compiled.py). Trees of branching 8: IIDTree (continuous and
discrete), OrderedTree (p=0.7) and IncrementalTree, depth 8 (minimax: depth 7, the whole
tree, 2.4 M nodes); algorithms minimax, alpha-beta and fail-hard alpha-beta; orderings natural and random (and static on
the incremental tree); seeds 1..``--seeds``. Every pair of results must have equal counts,
values and best moves (asserted) before any time is printed. Times are CPU seconds
(time.process_time) of whole ``search`` calls summed over the seeds, best of ``--repeat``;
``engine/kernel`` > 1 means the kernel is faster on that search.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from searchlab import search  # noqa: E402
from searchlab.trees.iid import IIDTree  # noqa: E402
from searchlab.trees.incremental import IncrementalTree  # noqa: E402
from searchlab.trees.ordered import OrderedTree  # noqa: E402

TREES = {
    "iid": lambda s, d: IIDTree(8, d, seed=s),
    "iid K=5": lambda s, d: IIDTree(8, d, seed=s, levels=5),
    "ordered p=0.7": lambda s, d: OrderedTree(8, d, seed=s, p=0.7),
    "incremental": lambda s, d: IncrementalTree(8, d, seed=s),
}
CASES = [("alphabeta", "natural"), ("alphabeta", "random"), ("alphabeta-failhard", "natural"),
         ("minimax", "natural")]


def timed(trees, algorithm: str, ordering: str, engine: str, repeat: int):
    best, results = float("inf"), None
    for _ in range(repeat):
        t = time.process_time()
        results = [search(tr, algorithm, ordering, engine=engine, ordering_seed=3) for tr in trees]
        best = min(best, time.process_time() - t)
    return results, best


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    seeds = range(1, args.seeds + 1)
    print(f"{'tree b=8':>18} {'algorithm':>18} {'ordering':>8} {'nodes':>11} {'kernel s':>9} "
          f"{'engine s':>9} {'engine/kernel':>13}", flush=True)
    ratios = []
    for name, make in TREES.items():
        cases = CASES + ([("alphabeta", "static")] if name.startswith("incremental") else [])
        for algorithm, ordering in cases:
            depth = 7 if algorithm == "minimax" else 8
            trees = [make(s, depth) for s in seeds]
            for engine in ("kernel", "compiled"):          # warm up: compile or load
                search(trees[0], algorithm, ordering, engine=engine, ordering_seed=3)
            k, tk = timed(trees, algorithm, ordering, "kernel", args.repeat)
            c, tc = timed(trees, algorithm, ordering, "compiled", args.repeat)
            for a, b in zip(k, c):
                assert a.counts() == b.counts() and a.value == b.value, (name, algorithm, ordering)
                assert a.best_move == b.best_move, (name, algorithm, ordering)
            nodes = sum(r.nodes for r in k)
            ratios.append(tc / tk)
            print(f"{name:>18} {algorithm:>18} {ordering:>8} {nodes:>11,} {tk:>9.3f} {tc:>9.3f} "
                  f"{tc / tk:>12.2f}x", flush=True)
    ratios.sort()
    print(f"engine/kernel over {len(ratios)} searches: min {ratios[0]:.2f}x, median "
          f"{ratios[len(ratios) // 2]:.2f}x, max {ratios[-1]:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
