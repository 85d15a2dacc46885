"""Chess perft: the compiled kernel (searchlab.games.chesskernel) against Stockfish, one run.

    .venv/bin/python benchmarks/chess_perft_stockfish.py [--stockfish PATH] [--rounds 3] [--deep]

Stockfish's ``go perft N`` (UCI) and the kernel's ``CompiledBoard.perft`` on the start position
(depth 6, 119,060,324 leaves) and Kiwipete (depth 5, 193,690,690 leaves); ``--deep`` adds CPW
positions 3 (depth 7, 178,633,661 leaves), 5 (depth 5, 89,941,194) and 6 (depth 5, 164,075,551). Both count with bulk counting at the last ply and
both run on one thread (Stockfish's perft is single-threaded).

The machine may be shared and noisy, so the two programs take turns: each round times the
kernel, then Stockfish, on every position (the order alternating from round to round), and
the figures are the best of ``--rounds`` rounds of each. Times are CPU seconds of the process
doing the work (the kernel's ``time.process_time``; Stockfish's user + system time from
/proc/<pid>/stat, read before and after its perft; wall-clock time where /proc is missing).
Printed per position: both times, leaves per second and the ratio kernel time / Stockfish
time (target <= 1.5), and the per-round ratios (each from times taken back to back).

Every count is checked against tests/data/chess/perft.csv, for both programs; a mismatch
prints MISMATCH and the script exits with status 1. Without Stockfish (not on PATH, not at
/usr/games/stockfish, no ``--stockfish``) the script prints that it skips and exits 0.
"""

from __future__ import annotations

import argparse
import csv
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TABLE = ROOT / "tests" / "data" / "chess" / "perft.csv"
POSITIONS = [("startpos", 6), ("kiwipete", 5)]
DEEP = [("cpw_position3", 7), ("cpw_position5", 5), ("cpw_position6", 5)]


class Stockfish:
    """A Stockfish process spoken to over UCI."""

    def __init__(self, path: str) -> None:
        self.proc = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True, bufsize=1)
        self.name = ""
        self._send("uci")
        for line in self._lines_until("uciok"):
            if line.startswith("id name "):
                self.name = line[len("id name "):]
        self._send("setoption name Threads value 1")
        self._sync()

    def _send(self, command: str) -> None:
        self.proc.stdin.write(command + "\n")
        self.proc.stdin.flush()

    def _lines_until(self, last: str):
        for line in self.proc.stdout:
            line = line.strip()
            yield line
            if line == last:
                return
        raise RuntimeError(f"stockfish ended before {last!r}")

    def _sync(self) -> None:
        self._send("isready")
        for _ in self._lines_until("readyok"):
            pass

    def cpu_seconds(self) -> float | None:
        """User + system CPU seconds of the process so far (None without /proc)."""
        try:
            fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return None
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def perft(self, fen: str, depth: int) -> tuple[int, float]:
        """(leaves, seconds: CPU when /proc has them, else wall-clock)."""
        self._send("position startpos" if fen == "startpos" else f"position fen {fen}")
        self._sync()
        c0, t0 = self.cpu_seconds(), time.perf_counter()
        self._send(f"go perft {depth}")
        for line in self.proc.stdout:       # the moves' counts, a blank line, the total
            if line.startswith("Nodes searched:"):
                break
        else:
            raise RuntimeError("stockfish ended before printing 'Nodes searched'")
        wall, c1 = time.perf_counter() - t0, self.cpu_seconds()
        leaves = int(line.split(":")[1])
        return leaves, (wall if c0 is None or c1 is None else c1 - c0)

    def close(self) -> None:
        self._send("quit")
        self.proc.wait(timeout=10)


def find_stockfish(given: str | None) -> str | None:
    if given:
        return given if os.access(given, os.X_OK) else None
    return shutil.which("stockfish") or (
        "/usr/games/stockfish" if os.access("/usr/games/stockfish", os.X_OK) else None)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--stockfish", help="the Stockfish binary (default: on PATH or /usr/games)")
    ap.add_argument("--rounds", type=int, default=3, help="rounds per program; best of these")
    ap.add_argument("--deep", action="store_true", help="also CPW positions 3, 5 and 6")
    args = ap.parse_args(argv)
    if args.rounds < 1:
        ap.error(f"--rounds must be >= 1; got {args.rounds}")
    path = find_stockfish(args.stockfish)
    if path is None:
        print("skipped: no Stockfish found (install Debian's 'stockfish' package or pass "
              "--stockfish PATH)")
        return 0
    sys.path.insert(0, str(ROOT))
    rows = list(csv.DictReader(open(TABLE)))
    fens = {r["position"]: r["fen"] for r in rows}
    expected = {(r["position"], int(r["depth"])): int(r["nodes"]) for r in rows}
    positions = POSITIONS + (DEEP if args.deep else [])

    from searchlab.games.chesskernel import CompiledBoard
    t0 = time.process_time()
    CompiledBoard().perft(3)
    print(f"kernel compile (first perft call of this process): {time.process_time() - t0:.1f} s CPU")
    engine = Stockfish(path)
    print(f"stockfish: {engine.name} ({path}); times: best of {args.rounds} rounds, "
          f"CPU seconds{'' if engine.cpu_seconds() is not None else ' (wall-clock for stockfish: no /proc)'}")

    failures: list[str] = []
    times: dict[tuple[str, str], list[float]] = {}

    def record(who: str, name: str, depth: int, leaves: int, seconds: float) -> None:
        if leaves != expected[(name, depth)]:
            failures.append(f"MISMATCH {who} {name} d{depth}: {leaves:,} != "
                            f"{expected[(name, depth)]:,}")
        times.setdefault((who, name), []).append(seconds)

    def run_kernel(name: str, depth: int) -> None:
        board = CompiledBoard(fens[name], max_plies=0)
        t0 = time.process_time()
        leaves = board.perft(depth)
        record("kernel", name, depth, leaves, time.process_time() - t0)

    def run_stockfish(name: str, depth: int) -> None:
        leaves, seconds = engine.perft("startpos" if name == "startpos" else fens[name], depth)
        record("stockfish", name, depth, leaves, seconds)

    try:
        for r in range(args.rounds):
            for name, depth in positions:
                first, second = (run_kernel, run_stockfish) if r % 2 == 0 else (run_stockfish, run_kernel)
                first(name, depth)
                second(name, depth)
    finally:
        engine.close()

    print(f"\n{'position':<14} {'depth':>5} {'leaves':>12} {'kernel s':>9} {'stockfish s':>12} "
          f"{'kernel M/s':>11} {'stockfish M/s':>14} {'ratio':>6}   per round")
    worst = 0.0
    for name, depth in positions:
        k, s = times[("kernel", name)], times[("stockfish", name)]
        leaves = expected[(name, depth)]
        ratio = min(k) / min(s)
        worst = max(worst, ratio)
        rounds = " ".join(f"{a / b:.2f}" for a, b in zip(k, s))
        print(f"{name:<14} {depth:>5} {leaves:>12,} {min(k):>9.3f} {min(s):>12.3f} "
              f"{leaves / min(k) / 1e6:>11.1f} {leaves / min(s) / 1e6:>14.1f} {ratio:>6.2f}   {rounds}")
    print(f"kernel time / stockfish time: at most {worst:.2f} (target <= 1.5)")
    for f in failures:
        print(f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
