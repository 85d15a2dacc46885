"""Delta pruning in quiescence: what it saves and what it gets wrong, on WAC positions.

    .venv/bin/python benchmarks/delta_pruning.py [--positions 50] [--depths 4 5] [--delta 200]

The first ``--positions`` WAC positions, searched by the compiled engine (node for node the
reference: tests/algorithms/test_delta_pruning.py) with id+tt+killer+history+captures and
quiescence (max_depth 8) at each of ``--depths``, once without and once with delta pruning
(margin ``--delta`` centipawns, the quiescence_8_delta preset's 200 by default). Prints, per
depth, from one run:

- nodes: search + quiescence nodes, delta / no delta, as the ratio of totals (sum over
  positions, "mean") and the geometric mean of per-position ratios, each with a paired 95 %
  bootstrap CI (searchlab.analysis.stats.paired_ratio: positions resampled jointly); the
  quiescence nodes alone; moves delta pruning skipped per search;
- CPU time with / without (one run on a shared machine: a rough figure, the node ratio is the
  exact one);
- what changed: positions whose root value differs, whose best move differs;
- solved share (the best move is a WAC solution, bm/am) with and without, and the positions
  solved by only one of the two.
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
    ap.add_argument("--positions", type=int, default=50)
    ap.add_argument("--depths", type=int, nargs="+", default=[4, 5])
    ap.add_argument("--delta", type=float, default=200.0)
    args = ap.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    from searchlab.algorithms.search_api import search
    from searchlab.algorithms.pruning import Pruning, Quiescence
    from searchlab.analysis.stats import paired_ratio
    from searchlab.games.chess_game import Chess
    from searchlab.games.epd import load_epd

    suite = load_epd(ROOT / "searchlab" / "data" / "chess" / "wac.epd")[:args.positions]
    plain = Pruning(quiescence=Quiescence(8))
    delta = Pruning(quiescence=Quiescence(8, args.delta))
    search(Chess(suite[0].fen), "alphabeta", ORDERING, depth=1, pruning=delta)   # JIT / cache
    print(f"delta pruning, margin {args.delta:g} cp: WAC.001-{len(suite):03d}, {ORDERING}, "
          f"quiescence max_depth 8, compiled engine")

    def run(game, depth, pruning):
        t0 = time.process_time()
        r = search(game, "alphabeta", ORDERING, depth=depth, engine="compiled", pruning=pruning)
        return r, time.process_time() - t0

    for depth in args.depths:
        rows = []
        for pos in suite:
            game = Chess(pos.fen)
            a, ta = run(game, depth, plain)
            b, tb = run(game, depth, delta)
            rows.append((pos, a, ta, b, tb))
        n = len(rows)
        off = [a.nodes + a.q_nodes for _, a, _, _, _ in rows]
        on = [b.nodes + b.q_nodes for _, _, _, b, _ in rows]
        mean = paired_ratio(on, off, kind="mean")
        geo = paired_ratio(on, off, kind="geometric")
        q_off = sum(a.q_nodes for _, a, _, _, _ in rows)
        q_on = sum(b.q_nodes for _, _, _, b, _ in rows)
        fired = sum(b.extra["pruned"].get("delta", 0) for _, _, _, b, _ in rows)
        t_off = sum(ta for *_, ta, _, _ in rows)
        t_on = sum(tb for *_, tb in rows)
        value = sum(a.value != b.value for _, a, _, b, _ in rows)
        move = sum(a.best_move != b.best_move for _, a, _, b, _ in rows)
        s_off = [p.is_solution(a.best_move) for p, a, _, _, _ in rows]
        s_on = [p.is_solution(b.best_move) for p, _, _, b, _ in rows]
        only_off = [p.id for p, x, y in zip(suite, s_off, s_on) if x and not y]
        only_on = [p.id for p, x, y in zip(suite, s_off, s_on) if y and not x]
        print(f"\ndepth {depth} ({n} positions)")
        print(f"  nodes incl. quiescence: {sum(off):,} -> {sum(on):,}")
        print(f"  ratio of totals delta/no-delta: {mean.value:.3f} [{mean.low:.3f}, {mean.high:.3f}]")
        print(f"  geometric mean of per-position ratios: {geo.value:.3f} "
              f"[{geo.low:.3f}, {geo.high:.3f}]")
        print(f"  quiescence nodes: {q_off:,} -> {q_on:,} ({q_on / q_off:.3f}); "
              f"moves skipped by delta pruning: {fired:,} ({fired / n:,.0f} per search)")
        print(f"  CPU s: {t_off:.3f} -> {t_on:.3f} ({t_on / t_off:.3f}, one run, noisy)")
        print(f"  root value changed: {value}/{n}; best move changed: {move}/{n}")
        print(f"  solved (WAC bm/am): no delta {sum(s_off)}/{n} ({sum(s_off) / n:.0%}), "
              f"delta {sum(s_on)}/{n} ({sum(s_on) / n:.0%}); solved only without: "
              f"{', '.join(only_off) or 'none'}; only with: {', '.join(only_on) or 'none'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
