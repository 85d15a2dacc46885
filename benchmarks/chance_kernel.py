"""Reference versus compiled chance search on one synthetic chance tree: nodes per second.

    .venv/bin/python benchmarks/chance_kernel.py

Prints, per algorithm, the nodes of one search of ChanceTree(b=3, n=3, d=5, seed=1), the
seconds of the reference and of the kernel (after a warm-up search that compiles it), and their
ratio measured in this one run. The counts of both engines are asserted equal.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from searchlab.algorithms.chance import search_chance  # noqa: E402
from searchlab.trees.chance import ChanceTree  # noqa: E402


def main() -> None:
    tree = ChanceTree(3, 3, 5, seed=1)
    t0 = time.perf_counter()
    search_chance(ChanceTree(2, 2, 1), "star2", engine="kernel")
    print(f"kernel compile (one warm-up search): {time.perf_counter() - t0:.1f} s")
    for alg in ("expectiminimax", "star1", "star2"):
        t0 = time.perf_counter()
        ref = search_chance(tree, alg, engine="reference")
        t_ref = time.perf_counter() - t0
        t0 = time.perf_counter()
        ker = search_chance(tree, alg, engine="kernel")
        t_ker = time.perf_counter() - t0
        assert ker.counts() == ref.counts()
        print(f"{alg:15s} nodes {ref.nodes:>8,}  reference {t_ref:7.2f} s ({ref.nodes / t_ref:>10,.0f} nodes/s)  "
              f"kernel {t_ker:7.3f} s ({ker.nodes / t_ker:>12,.0f} nodes/s)  ratio {t_ref / t_ker:6.0f}x")


if __name__ == "__main__":
    main()
