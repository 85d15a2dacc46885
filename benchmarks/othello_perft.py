"""Othello perft from the standard start: speed of the compiled kernel, checked exactly.

    .venv/bin/python benchmarks/othello_perft.py [--max-depth 10] [--cold] [--no-full]

Prints the JIT warm-up time (the first call: compiling the kernel, or loading it from numba's
on-disk cache; ``--cold`` points numba at an empty cache directory so it really compiles),
then for every depth 1..max-depth the leaf count, the expected count from
tests/data/othello/perft.csv (Aart Bik's table, pass convention of its README), wall time and
leaves per second, for two modes of the same kernel:

- bulk: depth-1 nodes are answered by a popcount of their move set (the usual perft trick);
- full: every leaf is made (a move played on the bitboards), so leaves/s ~ make-moves/s.

Any mismatch with the table is reported and the script exits with status 1. Depths above 10
(up to 14 in the table) work but take ~10x longer per ply.
"""

from __future__ import annotations

import argparse
import atexit
import csv
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TABLE = ROOT / "tests" / "data" / "othello" / "perft.csv"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--max-depth", type=int, default=10)
    ap.add_argument("--cold", action="store_true",
                    help="compile from scratch (empty numba cache dir) for the warm-up figure")
    ap.add_argument("--no-full", action="store_true", help="skip the full (non-bulk) mode")
    args = ap.parse_args(argv)
    if args.cold:
        cold_dir = tempfile.mkdtemp(prefix="numba-cold-")
        atexit.register(shutil.rmtree, cold_dir, ignore_errors=True)
        os.environ["NUMBA_CACHE_DIR"] = cold_dir
    sys.path.insert(0, str(ROOT))

    expected = {int(r["depth"]): int(r["leaf_nodes"]) for r in csv.DictReader(open(TABLE))}
    if not 1 <= args.max_depth <= max(expected):
        ap.error(f"--max-depth must be in 1..{max(expected)} (the table's depths)")

    t0 = time.perf_counter()
    from searchlab.games.othello import othello_perft
    t_import = time.perf_counter() - t0
    t0 = time.perf_counter()
    othello_perft(1)
    othello_perft(1, bulk=False)
    t_warm = time.perf_counter() - t0
    how = "compile, empty cache" if args.cold else "compile or load from numba's cache"
    print(f"import: {t_import:.2f} s   JIT warm-up ({how}): {t_warm:.2f} s")

    modes = [("bulk", True)] + ([] if args.no_full else [("full", False)])
    head = f"{'depth':>5} {'leaves':>14} {'expected':>14}"
    for name, _ in modes:
        head += f" {name + ' s':>10} {name + ' leaves/s':>16}"
    print(head)
    failures = []
    for d in range(1, args.max_depth + 1):
        row = f"{d:>5}"
        counts = []
        cells = ""
        for name, bulk in modes:
            t0 = time.perf_counter()
            n = othello_perft(d, bulk=bulk)
            dt = time.perf_counter() - t0
            counts.append(n)
            rate = f"{n / dt:,.0f}" if dt > 0 else "-"
            cells += f" {dt:>10.3f} {rate:>16}"
            if n != expected[d]:
                failures.append(f"depth {d} ({name}): got {n:,}, table says {expected[d]:,}")
        row += f" {counts[0]:>14,} {expected[d]:>14,}" + cells
        print(row, flush=True)
    if failures:
        print("PERFT MISMATCH:\n  " + "\n  ".join(failures), file=sys.stderr)
        return 1
    print(f"all {args.max_depth} depths match {TABLE.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
