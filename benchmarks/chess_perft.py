"""Chess perft: the compiled kernel (searchlab.games.chesskernel) against python-chess.

    .venv/bin/python benchmarks/chess_perft.py [--deep] [--repeats 3]

Prints, from one run:

- JIT times: importing the kernel, the first perft call of the process (compiling the kernel
  in the first process, loading it from the disk cache, chesskernel/cached.py, in later ones)
  and a second call.
- Same positions, same depths: the kernel and a plain python-chess perft (recursive, bulk
  counting with ``board.legal_moves.count()`` at depth 1, ``push``/``pop``) on the start
  position d4, Kiwipete d3 and CPW position 3 d5; leaves per CPU second of each and their ratio
  (target >= 50x).
- Kernel alone, bulk counting, on larger depths: start d5, Kiwipete d4, position 3 d6
  (``--deep``: start d6, Kiwipete d5, position 3 d7, 10^8-10^9 leaves); leaves per CPU second
  (target >= 20 M/s).

Every count is checked against tests/data/chess/perft.csv; a mismatch prints MISMATCH and the
script exits with status 1. Rates are per CPU second (``time.process_time``; best of
``--repeats`` for the kernel) because the machine is shared.
"""

from __future__ import annotations

import argparse
import csv
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TABLE = ROOT / "tests" / "data" / "chess" / "perft.csv"

SAME = [("startpos", 4), ("kiwipete", 3), ("cpw_position3", 5)]
KERNEL = [("startpos", 5), ("kiwipete", 4), ("cpw_position3", 6)]
DEEP = [("startpos", 6), ("kiwipete", 5), ("cpw_position3", 7)]


def python_chess_perft(board, depth: int) -> int:
    """Plain python-chess perft with bulk counting at depth 1."""
    if depth == 1:
        return board.legal_moves.count()
    total = 0
    for move in board.legal_moves:
        board.push(move)
        total += python_chess_perft(board, depth - 1)
        board.pop()
    return total


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deep", action="store_true", help="kernel depths of 10^8-10^9 leaves")
    ap.add_argument("--repeats", type=int, default=3, help="kernel timings: best of this many")
    args = ap.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    rows = list(csv.DictReader(open(TABLE)))
    fens = {r["position"]: r["fen"] for r in rows}
    expected = {(r["position"], int(r["depth"])): int(r["nodes"]) for r in rows}

    import chess

    t0 = time.perf_counter()
    from searchlab.games.chesskernel import CompiledBoard
    t_import = time.perf_counter() - t0
    t0 = time.perf_counter()
    CompiledBoard().perft(2)
    t_cold = time.perf_counter() - t0
    t0 = time.perf_counter()
    CompiledBoard().perft(2)
    t_warm = time.perf_counter() - t0
    print(f"import {t_import:.2f} s; first perft call (compile or cache load) {t_cold:.2f} s; "
          f"second call (warm) {t_warm * 1e3:.2f} ms")

    failures: list[str] = []

    def check(name: str, depth: int, n: int, who: str) -> None:
        if n != expected[(name, depth)]:
            failures.append(f"MISMATCH {who} {name} d{depth}: {n:,} != {expected[(name, depth)]:,}")

    def kernel_rate(name: str, depth: int) -> tuple[int, float]:
        board = CompiledBoard(fens[name], max_plies=0)
        best = float("inf")
        for _ in range(args.repeats):
            t0 = time.process_time()
            n = board.perft(depth)
            best = min(best, time.process_time() - t0)
        check(name, depth, n, "kernel")
        return n, n / max(best, 1e-9)

    print("\nsame positions and depths (leaves per CPU second):")
    print(f"{'position':<14} {'depth':>5} {'leaves':>12} {'python-chess':>14} {'kernel':>14} {'ratio':>8}")
    ratios = []
    for name, depth in SAME:
        board = chess.Board(fens[name])
        t0 = time.process_time()
        n_py = python_chess_perft(board, depth)
        py_rate = n_py / max(time.process_time() - t0, 1e-9)
        check(name, depth, n_py, "python-chess")
        n, rate = kernel_rate(name, depth)
        ratios.append(rate / py_rate)
        print(f"{name:<14} {depth:>5} {n:>12,} {py_rate:>14,.0f} {rate:>14,.0f} {rate / py_rate:>7.0f}x")
    print(f"kernel / python-chess: min {min(ratios):.0f}x (target >= 50x)")

    print("\nkernel, bulk counting (leaves per CPU second):")
    print(f"{'position':<14} {'depth':>5} {'leaves':>14} {'leaves/s':>14}")
    rates = []
    for name, depth in (DEEP if args.deep else KERNEL):
        n, rate = kernel_rate(name, depth)
        rates.append(rate)
        print(f"{name:<14} {depth:>5} {n:>14,} {rate:>14,.0f}")
    print(f"kernel leaves/s: min {min(rates) / 1e6:.1f} M/s (target >= 20 M/s)")

    for f in failures:
        print(f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
