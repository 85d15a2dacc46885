"""Speed of the game kernels: tic-tac-toe search, Pons' tutorial solvers, the Connect Four solver.

    .venv/bin/python benchmarks/games_speed.py [--repeat 5] [--data searchlab/data/connect4]

Prints three tables:
1. tic-tac-toe: compiled minimax and alpha-beta (natural order) from the empty board: nodes,
   best wall time over the repeats, nodes per second (target >= 13 M/s).
2. Connect Four, Pons' tutorial solvers over all 1000 positions of Test_L3_R1: exact total
   and mean nodes, the compiled kernel's nodes per second (target >= 30 M/s; positions are
   converted to bitboards once, outside the timing), and the public ``pons_tutorial_many``'s
   wall time (input validation included).
3. Connect Four solver (``solve``, one call per position, a fresh transposition table each)
   over all 1000 positions of each of Test_L3_R1, Test_L2_R1, Test_L1_R1: mean time and mean
   nodes per position, and whether every score matched the file.

Compilation happens in a warm-up run before any timing (numba caches it on disk).
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from searchlab.games import connect4 as c4          # noqa: E402
from searchlab.games.tictactoe import kernel_search  # noqa: E402
from searchlab.games import connect4_kernel as c4k  # noqa: E402  (timing the bare kernel)


def best_of(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def table(title: str, header: list[str], rows: list[list[str]]) -> None:
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(header)]
    print(f"\n{title}")
    print("  ".join(h.rjust(w) for h, w in zip(header, widths)))
    print("  ".join("-" * w for w in widths))
    for r in rows:
        print("  ".join(c.rjust(w) for c, w in zip(r, widths)))


def tictactoe(repeat: int) -> None:
    rows = []
    for algorithm in ("minimax", "alphabeta"):
        kernel_search("", algorithm)                         # warm-up / compile
        results = []
        t = best_of(lambda: results.append(kernel_search("", algorithm)), repeat)
        r = results[-1]
        kernel_t = min(x.wall_time for x in results)        # the kernel call alone
        rows.append([algorithm, f"{r.value:+.0f}", f"{r.nodes:,}", f"{t * 1e3:.2f}",
                     f"{r.nodes / kernel_t / 1e6:.1f}", f"{r.nodes / t / 1e6:.1f}"])
    table("Tic-tac-toe, empty board, natural order (target >= 13 M nodes/s)",
          ["algorithm", "value", "nodes", "best ms", "kernel M nodes/s", "API M nodes/s"], rows)


def tutorial(data_dir: Path, repeat: int) -> None:
    data = c4.load_benchmark(data_dir / "Test_L3_R1")
    moves = [m for m, _ in data]
    truth = np.array([s for _, s in data])
    states = [c4.parse_moves(m) for m in moves]
    curs = np.array([s.current for s in states], dtype=np.int64)
    masks = np.array([s.mask for s in states], dtype=np.int64)
    ns = np.array([s.plies for s in states], dtype=np.int64)
    rows = []
    for variant in c4.TUTORIAL_VARIANTS:
        v = c4k.VARIANTS[variant]
        scores = np.zeros(len(states), dtype=np.int64)
        nodes = np.zeros(len(states), dtype=np.int64)
        c4k._tutorial_many(curs, masks, ns, v, scores, nodes)          # warm-up / compile
        t = best_of(lambda: c4k._tutorial_many(curs, masks, ns, v, scores, nodes), repeat)
        t_api = best_of(lambda: c4.pons_tutorial_many(states, variant), max(1, repeat // 2))
        ok = (np.sign(scores) == np.sign(truth)).all() if variant.endswith("weak") \
            else (scores == truth).all()
        total = int(nodes.sum())
        rows.append([variant, f"{total:,}", f"{total / len(states):,.3f}", f"{t * 1e3:.1f}",
                     f"{total / t / 1e6:.1f}", f"{t_api * 1e3:.1f}", "yes" if ok else "NO"])
    table("Connect Four, Pons' tutorial solvers, Test_L3_R1 (1000 positions; "
          "target >= 30 M nodes/s)",
          ["variant", "total nodes", "mean nodes", "kernel ms", "M nodes/s", "API ms",
           "scores ok"], rows)


def solver(data_dir: Path) -> None:
    c4.solve("4455")                                                   # warm-up / compile
    rows = []
    for name in ("Test_L3_R1", "Test_L2_R1", "Test_L1_R1"):
        data = c4.load_benchmark(data_dir / name)
        states = [c4.parse_moves(m) for m, _ in data]
        results = [c4.solve(s) for s in states]
        ok = all(r.score == s for r, (_, s) in zip(results, data))
        secs = np.array([r.seconds for r in results])
        nodes = np.array([r.nodes for r in results])
        t0 = time.perf_counter()
        c4.solve_many(states)
        batch = time.perf_counter() - t0
        rows.append([name, str(len(data)), f"{secs.mean() * 1e6:,.1f}",
                     f"{np.median(secs) * 1e6:,.1f}", f"{secs.max() * 1e3:,.2f}",
                     f"{nodes.mean():,.1f}", f"{nodes.max():,}",
                     f"{batch / len(data) * 1e6:,.1f}", "yes" if ok else "NO"])
    table("Connect Four solver (solve(), fresh table per position)",
          ["set", "positions", "mean us", "median us", "max ms", "mean nodes", "max nodes",
           "batch mean us", "all exact"], rows)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5, help="timing repeats (best is kept)")
    ap.add_argument("--data", type=Path, default=ROOT / "searchlab" / "data" / "connect4",
                    help="directory holding Pons' Test_L*_R1 files")
    args = ap.parse_args()
    print(f"games_speed: python {platform.python_version()}, {platform.machine()}, "
          f"{os.cpu_count()} cpus, load {os.getloadavg()[0]:.1f}")
    tictactoe(args.repeat)
    tutorial(args.data, args.repeat)
    solver(args.data)


if __name__ == "__main__":
    main()
