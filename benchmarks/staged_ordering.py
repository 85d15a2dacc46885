"""Staged move ordering against the lexicographic compositions on chess (node counts, not
speed): per WAC position, the nodes (search + quiescence) of id+tt+killer+history+captures
(every move by history, captures breaking ties), id+tt+captures and id+staged (table move,
captures by MVV-LVA, killers, quiet moves by history), each with quiescence, on the compiled
engine; the geometric mean of each policy's nodes / staged's nodes over the positions.

    .venv/bin/python benchmarks/staged_ordering.py [--positions 20] [--every 15] [--depth 5]

Positions: WAC.001, WAC.(1 + every), ... (``--positions`` of them). Exact counts, so one run
suffices; a ratio above 1 means the policy searched more nodes than staged.
"""

from __future__ import annotations

import argparse
import math
from pathlib import Path

from searchlab import search
from searchlab.algorithms.pruning import Pruning, Quiescence
from searchlab.games.chess_game import Chess

ROOT = Path(__file__).resolve().parents[1]
POLICIES = ("id+tt+killer+history+captures", "id+tt+captures", "id+staged")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=20)
    ap.add_argument("--every", type=int, default=15)
    ap.add_argument("--depth", type=int, default=5)
    a = ap.parse_args(argv)
    wac = [ln.strip() for ln in open(ROOT / "searchlab/data/chess/wac.epd") if ln.strip()]
    fens = wac[::a.every][:a.positions]
    pruning = Pruning(quiescence=Quiescence())
    logs = {p: [] for p in POLICIES}
    print(f"depth {a.depth}, quiescence, compiled engine, {len(fens)} WAC positions")
    print("position  " + "  ".join(f"{p:>30}" for p in POLICIES))
    for fen in fens:
        n = {}
        for p in POLICIES:
            r = search(Chess(fen), "alphabeta", p, depth=a.depth, pruning=pruning,
                       engine="compiled")
            n[p] = r.nodes + r.q_nodes
        for p in POLICIES:
            logs[p].append(math.log(n[p] / n["id+staged"]))
        name = fen.split('id "')[1].split('"')[0] if 'id "' in fen else fen[:20]
        print(f"{name:9} " + "  ".join(f"{n[p]:>30,}" for p in POLICIES))
    print("geometric mean of nodes / staged's nodes:")
    for p in POLICIES:
        print(f"  {p:32} {math.exp(sum(logs[p]) / len(logs[p])):.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
