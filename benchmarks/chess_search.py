"""Chess search speed: the compiled engine (searchlab.games.chess_compiled) against the
reference engine on python-chess, id+tt+killer+history+captures with quiescence.

    .venv/bin/python benchmarks/chess_search.py [--positions 8] [--depth 5] [--ref-depth 3]

Prints, from one run:

- JIT: the first compiled search of the process (compiling the engine with chess's
  primitives) and a second one (warm).
- Same searches on both engines (WAC.001, WAC.002, ... at ``--ref-depth``): nodes (search nodes
  + quiescence nodes) per CPU second of each and the ratio (issue 13's target >= 100x); the two
  results must be identical (value, best move, nodes, q_nodes), else MISMATCH and exit status 1.
- Compiled engine alone at ``--depth`` on the same positions: nodes per CPU second (target
  >= 2 M/s) and the mean CPU time per position.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ORDERING = "id+tt+killer+history+captures"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=8)
    ap.add_argument("--depth", type=int, default=5)
    ap.add_argument("--ref-depth", type=int, default=3)
    args = ap.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    from searchlab.algorithms.api import search
    from searchlab.algorithms.pruning import Pruning, Quiescence
    from searchlab.games.chess_game import Chess

    wac = [ln.strip() for ln in open(ROOT / "searchlab" / "data" / "chess" / "wac.epd") if ln.strip()]
    games = [Chess(fen) for fen in wac[:args.positions]]
    q = Pruning(quiescence=Quiescence())

    def timed(game, engine, depth):
        t0 = time.process_time()
        r = search(game, "alphabeta", ORDERING, depth=depth, engine=engine, pruning=q)
        return r, time.process_time() - t0

    t0 = time.perf_counter()
    timed(games[0], "compiled", 2)
    t_cold = time.perf_counter() - t0
    t0 = time.perf_counter()
    timed(games[0], "compiled", 2)
    print(f"JIT: first compiled search {t_cold:.1f} s (compile), second {time.perf_counter() - t0:.3f} s")

    failures = []
    ref_nodes = ref_time = com_nodes = com_time = 0.0
    for i, g in enumerate(games):
        r, tr = timed(g, "reference", args.ref_depth)
        c, tc = timed(g, "compiled", args.ref_depth)
        if (r.value, r.best_move, r.nodes, r.q_nodes) != (c.value, c.best_move, c.nodes, c.q_nodes):
            failures.append(f"MISMATCH WAC.{i + 1:03d}: reference {r.value} {r.best_move} "
                            f"{r.nodes}+{r.q_nodes}, compiled {c.value} {c.best_move} {c.nodes}+{c.q_nodes}")
        ref_nodes += r.nodes + r.q_nodes
        com_nodes += c.nodes + c.q_nodes
        ref_time += tr
        com_time += tc
    ref_rate, com_rate = ref_nodes / ref_time, com_nodes / max(com_time, 1e-9)
    print(f"depth {args.ref_depth}, {len(games)} WAC positions, {int(ref_nodes):,} nodes each engine: "
          f"reference {ref_rate:,.0f} nodes/s, compiled {com_rate:,.0f} nodes/s, "
          f"ratio {com_rate / ref_rate:.0f}x (target >= 100x)")

    nodes = total = 0.0
    for g in games:
        c, tc = timed(g, "compiled", args.depth)
        nodes += c.nodes + c.q_nodes
        total += tc
    print(f"compiled depth {args.depth}: {int(nodes):,} nodes in {total:.2f} CPU s, "
          f"{nodes / total / 1e6:.2f} M nodes/s (target >= 2 M/s), {total / len(games):.2f} s per position")
    for f in failures:
        print(f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
