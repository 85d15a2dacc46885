"""Practical search depths of Hex on the reference engine (docs/games.md, "Hex").

    .venv/bin/python benchmarks/hex_depths.py [--n 7] [--ply 4] [--positions 4] [--depths 1 2 3]

For ``--positions`` seeded random positions (``random_position(n, ply, seed)``, seeds 0..k-1)
and each policy, prints the total nodes (exact, reproducible) and the wall time summed over
the positions, per depth, alpha-beta (fail-soft) on the reference engine; plus the nodes of
each policy relative to natural order. Wall times depend on the machine's load; node counts
do not.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from searchlab import search                      # noqa: E402
from searchlab.games.hex import Hex               # noqa: E402

POLICIES = ("natural", "adjacent", "static", "tt+killer+history+adjacent",
            "id+tt+killer+history+adjacent")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=7)
    ap.add_argument("--ply", type=int, default=4)
    ap.add_argument("--positions", type=int, default=4)
    ap.add_argument("--depths", type=int, nargs="+", default=[1, 2, 3])
    args = ap.parse_args()
    games = [Hex.random(args.n, args.ply, seed) for seed in range(args.positions)]
    print(f"Hex {args.n}x{args.n}, {args.positions} random positions after {args.ply} moves, "
          "alpha-beta on the reference engine")
    print(f"{'depth':>5} {'policy':<32} {'nodes':>10} {'/natural':>9} {'seconds':>8} {'nodes/s':>9}")
    for depth in args.depths:
        base = None
        for policy in POLICIES:
            t0 = time.perf_counter()
            nodes = sum(search(g, "alphabeta", policy, depth=depth).nodes for g in games)
            secs = time.perf_counter() - t0
            base = base or nodes
            print(f"{depth:>5} {policy:<32} {nodes:>10,} {nodes / base:>9.3f} {secs:>8.2f} "
                  f"{nodes / secs:>9,.0f}", flush=True)


if __name__ == "__main__":
    main()
