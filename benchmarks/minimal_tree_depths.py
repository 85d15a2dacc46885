"""How deep searchlab.algorithms.minimal_tree reaches, and at what cost: per game, the
starting position (Connect Four, Othello, Hex 7x7) or WAC.001 (chess) at depths 1, 2, ...
until one depth takes longer than ``--budget`` CPU seconds; prints the minimal tree's nodes,
the oracle's exact-value searches and the CPU seconds of each depth. ``--tt`` gives the search
a transposition table (minimal_tree(tt=True)), ``--quiescence N`` chess's horizons a
quiescence search of at most N plies (the other games have none).

    .venv/bin/python benchmarks/minimal_tree_depths.py [--budget 60] [--games connect4 othello hex chess] [--tt] [--quiescence 8]

Targets: Connect Four 10, Othello 7, Hex 7x7 5, chess 5.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from searchlab.algorithms.minimal_tree import minimal_tree
from searchlab.algorithms.pruning import Quiescence
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
    ap.add_argument("--tt", action="store_true")
    ap.add_argument("--quiescence", type=int, default=None)
    a = ap.parse_args(argv)
    for name in a.games:
        g = _game(name)
        kw = {"tt": a.tt}
        if a.quiescence is not None and name == "chess":
            kw["quiescence"] = Quiescence(max_depth=a.quiescence)
        minimal_tree(g, 2, **kw)            # loads (or compiles) the engine
        for d in range(1, a.max_depth + 1):
            t0 = time.process_time()
            m = minimal_tree(g, d, **kw)
            dt = time.process_time() - t0
            print(f"{name:9} depth {d:2}: minimal tree {m.nodes:>10,} nodes "
                  f"({m.leaves:,} leaves, {m.q_nodes:,} quiescence nodes), "
                  f"{m.oracle_searches:>8,} oracle searches, {dt:8.2f} CPU s", flush=True)
            if dt > a.budget:
                break
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
