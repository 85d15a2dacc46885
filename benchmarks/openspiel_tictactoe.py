"""Tic-tac-toe full alpha-beta from the empty board: searchlab beside OpenSpiel, one run.

    .venv/bin/python benchmarks/openspiel_tictactoe.py [--repeat 5]

OpenSpiel is never a dependency of searchlab: the benchmark makes its own virtual environment
(benchmarks/.build/openspiel-venv, git-ignored) with ``pip install open_spiel`` on first use and
runs OpenSpiel's Python ``open_spiel.python.algorithms.minimax.alpha_beta_search`` there,
counting its nodes (calls of its recursive ``_alpha_beta``, root and leaves included: the same
definition as searchlab's). It prints nodes, seconds and nodes/s for OpenSpiel's Python search,
searchlab's reference engine and searchlab's compiled tic-tac-toe kernel, and fails when the
node counts differ.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
VENV = HERE / ".build" / "openspiel-venv"

OPENSPIEL_SCRIPT = r"""
import json, sys, time
import pyspiel
from open_spiel.python.algorithms import minimax
count = [0]
inner = minimax._alpha_beta
def counted(*args, **kwargs):
    count[0] += 1
    return inner(*args, **kwargs)
minimax._alpha_beta = counted          # the recursion calls the module-level name
game = pyspiel.load_game("tic_tac_toe")
best = None
for _ in range(int(sys.argv[1])):
    count[0] = 0
    t0 = time.perf_counter()
    value, action = minimax.alpha_beta_search(game)
    dt = time.perf_counter() - t0
    best = dt if best is None else min(best, dt)
print(json.dumps({"nodes": count[0], "seconds": best, "value": value, "action": action}))
"""


def openspiel_python() -> Path:
    py = VENV / "bin" / "python"
    if not py.exists():
        print("creating", VENV, "with open_spiel (first use only) ...", file=sys.stderr)
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
        subprocess.run([str(py), "-m", "pip", "install", "-q", "open_spiel", "numpy"], check=True)
    return py


def best_time(fn, repeat: int):
    best, out = None, None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        dt = time.perf_counter() - t0
        best = dt if best is None else min(best, dt)
    return out, best


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5, help="runs per engine; the fastest counts")
    args = ap.parse_args()

    from searchlab import search
    from searchlab.games.tictactoe import TicTacToe, kernel_search

    py = openspiel_python()
    out = subprocess.run([str(py), "-c", OPENSPIEL_SCRIPT, str(args.repeat)], check=True,
                         capture_output=True, text=True).stdout
    osp = json.loads(out.strip().splitlines()[-1])
    ref, ref_s = best_time(lambda: search(TicTacToe(), "alphabeta", engine="reference"), args.repeat)
    kernel_search(TicTacToe(), "alphabeta")                     # compile / load the cache
    ker, ker_s = best_time(lambda: kernel_search(TicTacToe(), "alphabeta"), args.repeat)
    rows = [("OpenSpiel Python alpha_beta_search", osp["nodes"], osp["seconds"]),
            ("searchlab reference", ref.nodes, ref_s),
            ("searchlab kernel", ker.nodes, ker_s)]
    print(f"Tic-tac-toe, full alpha-beta from the empty board (best of {args.repeat})")
    print(f"| {'engine':<36} | {'nodes':>7} | {'seconds':>9} | {'nodes/s':>12} |")
    print(f"|{'-' * 38}|{'-' * 9}|{'-' * 11}|{'-' * 14}|")
    for name, n, s in rows:
        print(f"| {name:<36} | {n:>7,} | {s:>9.5f} | {n / s:>12,.0f} |")
    print(f"reference / OpenSpiel Python speed: {(ref.nodes / ref_s) / (osp['nodes'] / osp['seconds']):.2f}x")
    print(f"kernel nodes/s: {ker.nodes / ker_s / 1e6:.1f} M (target >= 13 M)")
    if not (osp["nodes"] == ref.nodes == ker.nodes):
        print("NODE COUNTS DIFFER", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
