"""How deep searchlab.algorithms.minimal_tree reaches, and at what cost: per game, the
starting position (Connect Four, Othello, Hex 7x7) or WAC.001 (chess) at depths 1, 2, ...
until one depth takes longer than ``--budget`` CPU seconds; prints the minimal tree's nodes,
the oracle's exact-value searches and the CPU seconds of each depth.

    .venv/bin/python benchmarks/minimal_tree_depths.py [--budget 60] [--games connect4 othello hex chess]

Targets: Connect Four 10, Othello 7, Hex 7x7 5, chess 5.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from searchlab.algorithms.minimal_tree import minimal_tree
from searchlab.games.chess_game import Chess
from searchlab.games.connect4 import ConnectFour
from searchlab.games.hex import Hex
from searchlab.games.othello import Othello

ROOT = Path(__file__).resolve().parents[1]


def _game(name: str):
    if name == "chess":
        wac = open(ROOT / "searchlab/data/chess/wac.epd").readline().strip()
        return Chess(wac)
    return {"connect4": ConnectFour, "othello": Othello, "hex": lambda: Hex(7)}[name]()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--budget", type=float, default=60.0)
    ap.add_argument("--games", nargs="+", default=["connect4", "othello", "hex", "chess"])
    ap.add_argument("--max-depth", type=int, default=12)
    a = ap.parse_args(argv)
    for name in a.games:
        g = _game(name)
        minimal_tree(g, 1)                  # loads (or compiles) the engine
        for d in range(1, a.max_depth + 1):
            t0 = time.process_time()
            m = minimal_tree(g, d)
            dt = time.process_time() - t0
            print(f"{name:9} depth {d:2}: minimal tree {m.nodes:>10,} nodes "
                  f"({m.leaves:,} leaves), {m.oracle_searches:>8,} oracle searches, "
                  f"{dt:8.2f} CPU s", flush=True)
            if dt > a.budget:
                break
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
