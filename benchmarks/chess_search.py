"""Chess search speed: the compiled engine (searchlab.games.chess_compiled) against the
reference engine on python-chess, id+tt+killer+history+captures with quiescence.

    .venv/bin/python benchmarks/chess_search.py [--positions 8] [--ref-depths 3 4] [--depth 5]
                                                [--d7-every 15] [--d7-depth 7]

Prints, from one run:

- JIT: the first compiled search of the process (compiling the engine with chess's
  primitives, or loading it from the on-disk cache) and a second one (warm).
- Transposition table: the default 2^16 entries, 2^20 for the depth-7 searches (as the
  chess_deep preset).
- Same searches on both engines (WAC.001, WAC.002, ... at each of ``--ref-depths``): nodes
  (search + quiescence nodes) per CPU second of each and the ratio (the compiled chess search's target
  >= 100x). At depth 3 a search is a few thousand nodes, so the compiled engine's fixed cost
  per search (encoding the root, clearing its tables) weighs in; the deeper depth shows the
  ratio once it does not. The results must be identical (value, best move, nodes, q_nodes),
  else MISMATCH and exit status 1.
- Compiled engine alone at ``--depth`` on the same positions: nodes per CPU second (target
  >= 2 M/s) and the mean CPU time per position.
- Depth ``--d7-depth`` (7) with quiescence on every ``--d7-every``-th WAC position (WAC.001,
  WAC.016, ... : 20 of the 300 by default): mean and largest CPU seconds per position (target:
  30 s on average) and how many positions took over 30 s.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ORDERING = "id+tt+killer+history+captures"
D7_TT_SIZE = 1 << 20       # the depth-7 searches: as the chess_deep preset


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=8)
    ap.add_argument("--depth", type=int, default=5)
    ap.add_argument("--ref-depths", type=int, nargs="+", default=[3, 4])
    ap.add_argument("--d7-every", type=int, default=15)
    ap.add_argument("--d7-depth", type=int, default=7)
    args = ap.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    from searchlab.algorithms.search_api import search
    from searchlab.algorithms.pruning import Pruning, Quiescence
    from searchlab.games.chess_game import Chess

    wac = [ln.strip() for ln in open(ROOT / "searchlab" / "data" / "chess" / "wac.epd") if ln.strip()]
    games = [Chess(fen) for fen in wac[:args.positions]]
    q = Pruning(quiescence=Quiescence())

    def timed(game, engine, depth, tt_size=65536):
        t0 = time.process_time()
        r = search(game, "alphabeta", ORDERING, depth=depth, engine=engine, pruning=q,
                   tt_size=tt_size)
        return r, time.process_time() - t0

    t0 = time.perf_counter()
    timed(games[0], "compiled", 2)
    t_cold = time.perf_counter() - t0
    t0 = time.perf_counter()
    timed(games[0], "compiled", 2)
    print(f"JIT: first compiled search {t_cold:.1f} s (compile or cache load), "
          f"second {time.perf_counter() - t0:.3f} s")

    failures = []
    for depth in args.ref_depths:
        ref_nodes = ref_time = com_nodes = com_time = 0.0
        for i, g in enumerate(games):
            r, tr = timed(g, "reference", depth)
            c, tc = timed(g, "compiled", depth)
            if (r.value, r.best_move, r.nodes, r.q_nodes) != (c.value, c.best_move, c.nodes, c.q_nodes):
                failures.append(f"MISMATCH WAC.{i + 1:03d} depth {depth}: reference {r.value} "
                                f"{r.best_move} {r.nodes}+{r.q_nodes}, compiled {c.value} "
                                f"{c.best_move} {c.nodes}+{c.q_nodes}")
            ref_nodes += r.nodes + r.q_nodes
            com_nodes += c.nodes + c.q_nodes
            ref_time += tr
            com_time += tc
        ref_rate, com_rate = ref_nodes / ref_time, com_nodes / max(com_time, 1e-9)
        print(f"depth {depth}, {len(games)} WAC positions, {int(ref_nodes):,} nodes each engine "
              f"({ref_nodes / len(games):,.0f} per search): reference {ref_rate:,.0f} nodes/s, "
              f"compiled {com_rate:,.0f} nodes/s, ratio {com_rate / ref_rate:.0f}x (target >= 100x)")

    nodes = total = 0.0
    for g in games:
        c, tc = timed(g, "compiled", args.depth)
        nodes += c.nodes + c.q_nodes
        total += tc
    print(f"compiled depth {args.depth}: {int(nodes):,} nodes in {total:.2f} CPU s, "
          f"{nodes / total / 1e6:.2f} M nodes/s (target >= 2 M/s), {total / len(games):.2f} s per position")

    sample = wac[::args.d7_every]
    times, nodes = [], 0.0
    for fen in sample:
        c, tc = timed(Chess(fen), "compiled", args.d7_depth, D7_TT_SIZE)
        times.append(tc)
        nodes += c.nodes + c.q_nodes
    over = sum(t > 30 for t in times)
    print(f"compiled depth {args.d7_depth} with quiescence, {len(sample)} WAC positions (every "
          f"{args.d7_every}th from WAC.001): {sum(times) / len(times):.2f} CPU s per position on "
          f"average (target <= 30 s), largest {max(times):.2f} s, {over} over 30 s; "
          f"{nodes / sum(times) / 1e6:.2f} M nodes/s")
    for f in failures:
        print(f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
