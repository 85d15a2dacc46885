"""The Connect Four solver against Pascal Pons' C++ solver, side by side in one run.

    .venv/bin/python benchmarks/connect4_solver_vs_pons.py --pons PATH [--rounds 5]
        [--clock cpu|wall] [--data searchlab/data/connect4]

``--pons`` is a solver binary the user built from Pons' source (it is not part of searchlab):
it reads one position per line on standard input (a move string, anything after a space
ignored) and writes one line per position, ``<moves> <score> <nodes> <microseconds>``, the
output of his tutorial's driver: the score of ``solve()``, his ``getNodeCount()`` for that
position, and the time spent in ``solve()``, with his transposition table reset before every
position and no opening book loaded. That time must be read from the clock ``--clock`` names:
``cpu`` (the default; the thread's CPU time, which a loaded machine disturbs far less) or
``wall`` (elapsed time, what his tutorial's driver prints). Without ``--pons``, or when the path is not an
executable file, the benchmark says so and prints searchlab's side only.

For each of Test_L3_R1, Test_L2_R1 and Test_L1_R1 (1000 positions each) and each round, the
two run alternately (the order swaps every round, so drift in the machine's load hits both):
searchlab's compiled solver with ``table="bounds"`` (and, for reference, ``table="upper"``,
Pons' tutorial part 10) over all positions in one compiled call (positions converted to
bitboards once, outside the timing; a fresh table epoch per position), then his binary on the
same file (his summed per-position microseconds). Printed per set: total nodes of each, the
node ratio, whether nodes agree position by position, the median over rounds of each side's
time, the median and range of the per-round time ratio (searchlab / Pons), and whether every
score matched the file. Exits 1 when a score is wrong.

Compilation happens in a warm-up before any timing (numba caches it on disk).
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from searchlab.games import connect4 as c4          # noqa: E402
from searchlab.games import connect4_kernel as c4k  # noqa: E402  (timing the bare kernel)

SETS = ("Test_L3_R1", "Test_L2_R1", "Test_L1_R1")


def table(title: str, header: list[str], rows: list[list[str]]) -> None:
    print(f"\n{title}")
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for r in rows:
        print("| " + " | ".join(r) + " |")


SOLVERS = ("upper", "bounds", "dual")


def run_ours(table_kind: str, arrays, clock) -> tuple[np.ndarray, np.ndarray, float]:
    """(scores, nodes, seconds on ``clock``) of one compiled call over every position."""
    curs, masks, ns = arrays
    tb = c4._tables(table_kind)
    scores = np.zeros(len(ns), dtype=np.int64)
    nodes = np.zeros(len(ns), dtype=np.int64)
    t0 = clock()
    if table_kind == "upper":
        c4k._solve_many(curs, masks, ns, False, tb.tt, tb.buf, scores, nodes)
    else:
        c4k._bounds_solve_many(curs, masks, ns, False, int(table_kind == "dual"), tb.tt, tb.buf,
                               scores, nodes)
    return scores, nodes, clock() - t0


def run_pons(binary: Path, path: Path, n: int) -> tuple[np.ndarray, np.ndarray, float]:
    """(scores, nodes, seconds summed over his per-position timings) of his binary on a file."""
    out = subprocess.run([str(binary)], stdin=open(path), capture_output=True, text=True,
                         check=True).stdout.split("\n")
    rows = [line.split() for line in out if line.strip()]
    if len(rows) != n or any(len(r) < 4 for r in rows):
        sys.exit(f"{binary}: expected {n} lines '<moves> <score> <nodes> <microseconds>', "
                 f"got {len(rows)} (first: {rows[:1]})")
    scores = np.array([int(r[1]) for r in rows], dtype=np.int64)
    nodes = np.array([int(r[2]) for r in rows], dtype=np.int64)
    return scores, nodes, sum(float(r[3]) for r in rows) / 1e6


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pons", type=Path, default=None,
                    help="path of a solver binary built from Pons' source (see the docstring)")
    ap.add_argument("--rounds", type=int, default=5, help="interleaved timing rounds")
    ap.add_argument("--clock", choices=("cpu", "wall"), default="cpu",
                    help="clock of both sides' times (the binary's must match)")
    ap.add_argument("--data", type=Path, default=ROOT / "searchlab" / "data" / "connect4",
                    help="directory holding Pons' Test_L*_R1 files")
    args = ap.parse_args()
    if args.rounds < 1:
        ap.error(f"--rounds must be >= 1; got {args.rounds}")
    clock = time.thread_time if args.clock == "cpu" else time.perf_counter
    pons = args.pons
    print(f"connect4_solver_vs_pons: python {platform.python_version()}, {platform.machine()}, "
          f"{os.cpu_count()} cpus, load {os.getloadavg()[0]:.1f}")
    if pons is None or not (pons.is_file() and os.access(pons, os.X_OK)):
        print(f"Pons' solver not given or not an executable file ({pons}): printing "
              "searchlab's side only (pass --pons PATH for the comparison).")
        pons = None

    for kind in SOLVERS:                                               # warm-up / compile
        c4.solve_many(["4455"], table=kind)
    data = {name: c4.load_benchmark(args.data / name) for name in SETS}
    arrays = {name: c4._arrays([c4.parse_moves(m) for m, _ in d]) for name, d in data.items()}
    expected = {name: np.array([s for _, s in d], dtype=np.int64) for name, d in data.items()}

    nodes: dict = {}
    times: dict = {}
    exact: dict = {}
    ours = list(SOLVERS)
    for rnd in range(args.rounds):
        for name in SETS:
            sides = ours + (["pons"] if pons else [])
            if rnd % 2:
                sides.reverse()
            for side in sides:
                if side == "pons":
                    s, k, t = run_pons(pons, args.data / name, len(data[name]))
                else:
                    s, k, t = run_ours(side, arrays[name], clock)
                key = (name, side)
                times.setdefault(key, []).append(t)
                exact[key] = exact.get(key, True) and bool((s == expected[name]).all())
                if key in nodes and not (nodes[key] == k).all():
                    sys.exit(f"{side} on {name}: node counts differ between rounds")
                nodes[key] = k

    node_rows, time_rows = [], []
    for name in SETS:
        row = [name, str(len(data[name]))] + [f"{nodes[(name, o)].sum():,}" for o in ours]
        trow = [name] + [f"{statistics.median(times[(name, o)]) * 1e3:.1f}" for o in ours]
        if pons:
            kp, tp = nodes[(name, "pons")], times[(name, "pons")]
            row.append(f"{kp.sum():,}")
            trow.append(f"{statistics.median(tp) * 1e3:.1f}")
            for o in ("bounds", "dual"):
                k = nodes[(name, o)]
                row += [f"{k.sum() / kp.sum():.4f}",
                        f"{int((k == kp).sum())}/{int((k < kp).sum())}/{int((k > kp).sum())}"]
                ratios = [a / b for a, b in zip(times[(name, o)], tp)]
                trow.append(f"{statistics.median(ratios):.2f} ({min(ratios):.2f}-"
                            f"{max(ratios):.2f})")
        row.append("/".join("yes" if exact[(name, s)] else "NO"
                            for s in ours + (["pons"] if pons else [])))
        node_rows.append(row)
        time_rows.append(trow)
    sides = "/".join(ours + (["Pons"] if pons else []))
    header = ["set", "positions"] + [f"nodes {o}" for o in ours]
    if pons:
        header += ["nodes Pons", "bounds / Pons", "bounds =/</> Pons per position",
                   "dual / Pons", "dual =/</> Pons per position"]
    header.append(f"exact ({sides})")
    table("Nodes (Pons' getNodeCount convention: negamax calls over all probes)", header,
          node_rows)
    header = ["set"] + [f"ms {o}" for o in ours]
    if pons:
        header += ["ms Pons", "time bounds / Pons: median (range)",
                   "time dual / Pons: median (range)"]
    table(f"Time ({args.clock}), {args.rounds} interleaved rounds, medians over the rounds (load now "
          f"{os.getloadavg()[0]:.1f})", header, time_rows)
    return 0 if all(exact.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
