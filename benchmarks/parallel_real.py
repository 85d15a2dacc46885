"""Real parallel alpha-beta on this machine's cores against the simulator's p = 2 prediction.

Run from the repository root:

    .venv/bin/python benchmarks/parallel_real.py [--tt-bits 20]

Games (searchlab.parallel.real_games): Connect Four (depth 14) and Othello (depth 11) under
centre|corners+tt+killer+history, real YBWC (split points above ply 4), Lazy SMP and ABDADA
with 1 and 2 workers (numba nogil threads sharing one transposition table); trees
(searchlab.parallel.real): Lazy SMP on ordered b = 8, d = 11 (order_p 0.7, 0.9) and incremental
b = 8, d = 11. For each: the simulator's prediction at p = 1 and 2 (YBWC with the same split
plies). Prints, from this one run: wall seconds with 1 and 2 workers, the measured speedup
t1/t2 and node overhead n2/n1 - 1, the process's CPU seconds / wall seconds during the
2-worker search (about 2 when both threads really ran at once; near 1 when the machine gave
them one core), the simulator's speedup and overhead, and the load average before and after
(the machine is shared). Every value is checked against the sequential search's (exit status 1
on a mismatch).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from searchlab.algorithms.search_api import search  # noqa: E402
from searchlab.games.connect4 import ConnectFour  # noqa: E402
from searchlab.games.othello import Othello  # noqa: E402
from searchlab.parallel import simulate  # noqa: E402
from searchlab.parallel.real import lazy_smp_threads  # noqa: E402
from searchlab.parallel.real_games import parallel_search  # noqa: E402
from searchlab.trees import IIDTree, IncrementalTree, OrderedTree  # noqa: E402

SPLIT_PLIES = 4
HEADER = (f"{'search':52} {'t1 s':>6} {'t2 s':>6} {'speedup':>7} {'overhead':>8} {'cpu/wall':>8} "
          f"{'sim speedup':>11} {'sim overhead':>12}")


def _line(name, r1, r2, s2) -> str:
    return (f"{name:52} {r1.wall_time:>6.2f} {r2.wall_time:>6.2f} "
            f"{r1.wall_time / r2.wall_time:>7.2f} {r2.nodes / r1.nodes - 1:>8.1%} "
            f"{r2.cpu_time / r2.wall_time:>8.2f} {s2.speedup:>11.2f} {s2.search_overhead:>12.1%}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tt-bits", type=int, default=20, help="table slots 2^bits (default 20)")
    args = ap.parse_args(argv)
    bits = args.tt_bits
    print(f"load average at start: {os.getloadavg()[0]:.1f} (1 min), {os.cpu_count()} cores")
    bad = 0
    print(HEADER)
    games = [(ConnectFour(), 14, "centre+tt+killer+history"),
             (Othello(), 11, "corners+tt+killer+history")]
    for g, d, o in games:
        seq = search(g, "alphabeta", o, depth=d, engine="compiled", tt_size=1 << bits)
        for alg in ("ybwc", "lazy-smp", "abdada"):
            parallel_search(g, alg, 2, depth=4, ordering=o)            # compile, warm
            r1 = parallel_search(g, alg, 1, depth=d, ordering=o, tt_bits=bits,
                                 split_plies=SPLIT_PLIES)
            r2 = parallel_search(g, alg, 2, depth=d, ordering=o, tt_bits=bits,
                                 split_plies=SPLIT_PLIES)
            s2 = simulate(g, alg, 2, depth=d, ordering=o, tt_bits=bits,
                          split_plies=SPLIT_PLIES if alg == "ybwc" else None)
            if not seq.value == r1.value == r2.value == s2.value or r1.nodes != seq.nodes:
                print(f"MISMATCH {g.name} {alg}: {seq.value} {r1.value} {r2.value} {s2.value}; "
                      f"nodes {r1.nodes} vs sequential {seq.nodes}")
                bad += 1
            print(_line(f"{g.name} d={d} {alg}", r1, r2, s2))
    lazy_smp_threads(IIDTree(2, 2), 2)                    # load the compiled kernel
    for tree in [OrderedTree(8, 11, seed=1, p=0.7), OrderedTree(8, 11, seed=1, p=0.9),
                 IncrementalTree(8, 11, seed=2)]:
        r1 = lazy_smp_threads(tree, 1, tt_bits=bits)
        r2 = lazy_smp_threads(tree, 2, tt_bits=bits)
        s2 = simulate(tree, "lazy-smp", 2, tt_bits=bits)
        if not r1.value == r2.value == s2.value:
            print(f"MISMATCH {tree.name}: {r1.value} {r2.value} {s2.value}")
            bad += 1
        print(_line(f"{tree.name[:40]} lazy-smp", r1, r2, s2))
    print("speedup = t1/t2 (real, one run); overhead = nodes(2 workers) / nodes(1 worker) - 1; "
          "the simulator's speedup counts a table access as 0.25 node visits; 1 worker = the "
          "sequential search node for node (games: checked)")
    print(f"load average at end: {os.getloadavg()[0]:.1f} (1 min)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
