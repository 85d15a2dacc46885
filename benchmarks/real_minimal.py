"""Ordering policies against each position's own minimal tree (searchlab.studies.ordering.real_minimal):
Connect Four positions from seeded random play, or chess WAC positions with quiescence; prints
the per-policy summary (geometric mean of nodes / minimal nodes with a paired bootstrap CI, alpha
against the minimal tree's growth on the depths every policy finished) and the CPU seconds.

    .venv/bin/python benchmarks/real_minimal.py --game connect4 --positions 30 --depth 10 --min-depth 6
    .venv/bin/python benchmarks/real_minimal.py --game chess --positions 30 --depth 4 --min-depth 4

Chess positions: WAC.001, WAC.(1 + every), ...; searches and minimal trees with quiescence
(at most 8 extra plies, as the chess studies' quiescence_8). ``--csv`` writes the tidy table.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
import pandas as pd

from searchlab.algorithms.pruning import Pruning, Quiescence
from searchlab.studies.ordering.real_minimal import real_minimal
from searchlab.games.chess_game import Chess
from searchlab.games.connect4 import ConnectFour
from searchlab.games.position import FromState

ROOT = Path(__file__).resolve().parents[1]
POLICIES = {"connect4": ["centre", "killer+history+centre", "tt+centre",
                         "id+tt+killer+history+centre"],
            "chess": ["captures", "killer+history+captures", "id+tt+captures",
                      "id+tt+killer+history+captures", "id+staged"]}


def _connect4(n: int, plies: int, seed: int) -> list:
    rng, g, out = np.random.default_rng(seed), ConnectFour(), []
    while len(out) < n:
        s = g.initial_state()
        for _ in range(plies):
            s = g.play(s, g.legal_moves(s)[int(rng.integers(len(g.legal_moves(s))))])
            if g.is_terminal(s):
                break
        if not g.is_terminal(s):
            out.append(FromState(g, s))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", choices=sorted(POLICIES), default="connect4")
    ap.add_argument("--positions", type=int, default=30)
    ap.add_argument("--depth", type=int, default=10)
    ap.add_argument("--min-depth", type=int, default=1)
    ap.add_argument("--every", type=int, default=10)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--csv", type=Path, default=None)
    a = ap.parse_args(argv)
    pruning = None
    if a.game == "chess":
        wac = [ln.strip() for ln in open(ROOT / "searchlab/data/chess/wac.epd") if ln.strip()]
        games = [Chess(f) for f in wac[::a.every][:a.positions]]
        pruning = Pruning(quiescence=Quiescence(max_depth=8))
    else:
        games = _connect4(a.positions, 8, a.seed)
    t0 = time.process_time()
    res = real_minimal(games, a.depth, POLICIES[a.game], pruning=pruning, min_depth=a.min_depth,
                       seed=a.seed)
    dt = time.process_time() - t0
    with pd.option_context("display.width", 200, "display.max_columns", 20):
        print(res.summary.to_string(index=False, float_format=lambda x: f"{x:.3f}"))
    print(f"{len(games)} positions, depths {a.min_depth}..{a.depth}, fit on {res.fit_depths}; "
          f"{dt:.0f} CPU s")
    if a.csv is not None:
        res.table.to_csv(a.csv, index=False)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
