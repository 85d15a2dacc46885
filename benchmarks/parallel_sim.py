"""Speed of the parallel alpha-beta simulator: at least 10^8 simulated node visits, timed.

Run from the repository root:

    .venv/bin/python benchmarks/parallel_sim.py [--target 100000000]

Trees (natural order; the simulator's one kernel over the trees' compiled primitives): every
algorithm (pv-split, ybwc, abdada, lazy-smp) at p = 1, 16 and 256 on an incremental tree (b = 8, d = 10) and an ordered tree (b = 8, d = 11, order_p 0.9),
repeating the whole list until the simulated visits reach ``--target``. Games (the same kernel over
the games' compiled primitives): every algorithm at p = 1, 16 and 64 on Connect Four (depth 12)
and Othello (depth 9) under their best policy (centre|corners+tt+killer+history), until
``--game-target`` visits. Prints each simulation's visits, wall time and rate, then per part the
total visits, wall time, overall rate and the time 10^8 visits would take, and the load average
(the machine is shared). For games, the yardstick is the compiled engine's own sequential
alpha-beta on the same searches (its nodes per second, measured in the same run): a simulator
of a game search visits nodes through the same primitives, so it cannot be much faster. The
first calls load or compile the kernels (timed separately, not in the totals). Target: 10^8
visits in under a minute.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from searchlab.algorithms.search_api import search  # noqa: E402
from searchlab.games.connect4 import ConnectFour  # noqa: E402
from searchlab.games.othello import Othello  # noqa: E402
from searchlab.parallel import ALGORITHMS, sequential_nodes, simulate  # noqa: E402
from searchlab.trees import IncrementalTree, OrderedTree  # noqa: E402


def _report(part: str, total: int, wall: float) -> None:
    print(f"{part}: {total:,} simulated node visits in {wall:.1f} s ({total / wall:.3g} visits/s); "
          f"10^8 visits would take {1e8 / (total / wall):.0f} s (target: under 60 s)")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--target", type=int, default=10**8, help="simulated node visits (default 10^8)")
    ap.add_argument("--game-target", type=int, default=3 * 10**7,
                    help="simulated node visits on games (default 3*10^7)")
    args = ap.parse_args(argv)
    print(f"load average at start: {os.getloadavg()[0]:.1f} (1 min), {os.cpu_count()} cores")
    t0 = time.perf_counter()
    for small in (IncrementalTree(2, 2), OrderedTree(2, 2, p=0.5)):     # one copy per model
        for alg in ALGORITHMS:
            simulate(small, alg, 2)
    print(f"kernel load/compile (the two tree models): {time.perf_counter() - t0:.1f} s")
    trees = [IncrementalTree(8, 10, seed=1), OrderedTree(8, 11, seed=1, p=0.9)]
    seq = {t.name: sequential_nodes(t) for t in trees}
    total, wall = 0, 0.0
    print(f"{'tree':58} {'algorithm':9} {'p':>4} {'visits':>12} {'seconds':>8} {'visits/s':>10}")
    while total < args.target:
        for tree in trees:
            for alg in ALGORITHMS:
                for p in (1, 16, 256):
                    t = time.perf_counter()
                    r = simulate(tree, alg, p, seq_nodes=seq[tree.name])
                    dt = time.perf_counter() - t
                    total += r.nodes
                    wall += dt
                    print(f"{tree.name:58} {alg:9} {p:>4} {r.nodes:>12,} {dt:>8.2f} {r.nodes / dt:>10.3g}")
    _report("trees", total, wall)
    games = [(ConnectFour(), 12, "centre+tt+killer+history"),
             (Othello(), 9, "corners+tt+killer+history")]
    t0 = time.perf_counter()
    for g, _, o in games:
        simulate(g, "ybwc", 1, depth=2, ordering=o)
    print(f"kernel load/compile (the games): {time.perf_counter() - t0:.1f} s")
    gtotal, gwall = 0, 0.0
    while gtotal < args.game_target:
        for g, d, o in games:
            base = simulate(g, "ybwc", 1, depth=d, ordering=o)
            for alg in ALGORITHMS:
                for p in (1, 16, 64):
                    t = time.perf_counter()
                    r = simulate(g, alg, p, depth=d, ordering=o, seq_nodes=base.seq_nodes,
                                 seq_time=base.seq_time)
                    dt = time.perf_counter() - t
                    gtotal += r.nodes
                    gwall += dt
                    print(f"{g.name + ' d=' + str(d) + ' ' + o:58} {alg:9} {p:>4} {r.nodes:>12,} "
                          f"{dt:>8.2f} {r.nodes / dt:>10.3g}")
    enodes, ewall = 0, 0.0
    for g, d, o in games:
        search(g, "alphabeta", o, depth=2, engine="compiled")          # compile
        for _ in range(3):
            r = search(g, "alphabeta", o, depth=d, engine="compiled", tt_size=1 << 20)
            enodes += r.nodes
            ewall += r.wall_time
    _report("trees", total, wall)
    _report("games", gtotal, gwall)
    print(f"yardstick: the compiled engine's sequential alpha-beta on the same games: "
          f"{enodes / ewall:.3g} nodes/s; the simulator's game rate is "
          f"{(gtotal / gwall) / (enodes / ewall):.2f} x that")
    print(f"load average at end: {os.getloadavg()[0]:.1f} (1 min)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
