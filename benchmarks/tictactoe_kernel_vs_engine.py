"""Tic-tac-toe's dedicated kernel against the compiled engine on the same searches, one run.

    .venv/bin/python benchmarks/tictactoe_kernel_vs_engine.py [--repeat 5]

Full minimax and fail-soft alpha-beta in natural order from the empty board and from a few
openings: ``kernel_search`` (searchlab/games/tictactoe_kernel.py: negamax on two 9-bit ints and
a 512-entry win table) and ``search(..., engine="compiled")`` (the compiled engine over
tic-tac-toe's primitives). Every result's counts (nodes, leaves, cutoffs, per ply) and value
are asserted equal before any time is printed. Times are CPU seconds (time.process_time) of
the whole calls, best of ``--repeat``, each side warmed up first (compiled or loaded from the
disk cache). ``engine/kernel`` > 1 means the kernel is faster: the reason it is kept
(docs/games.md, "Compiled search").
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from searchlab import search  # noqa: E402
from searchlab.games.tictactoe import TicTacToe, kernel_search  # noqa: E402

POSITIONS = ("", "4", "0 4", "1 4 8")


def best(fn, repeat: int) -> float:
    out = float("inf")
    for _ in range(repeat):
        t = time.process_time()
        fn()
        out = min(out, time.process_time() - t)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    print(f"{'algorithm':>10} {'position':>8} {'nodes':>9} {'kernel ms':>10} {'engine ms':>10} "
          f"{'engine/kernel':>13}")
    for algorithm in ("minimax", "alphabeta"):
        for text in POSITIONS:
            game = TicTacToe(text)
            k = kernel_search(game, algorithm)
            e = search(game, algorithm, "natural", engine="compiled")
            assert k.counts() == e.counts() and k.value == e.value, (algorithm, text)
            tk = best(lambda: kernel_search(game, algorithm), args.repeat)
            te = best(lambda: search(game, algorithm, "natural", engine="compiled"), args.repeat)
            print(f"{algorithm:>10} {text or 'empty':>8} {k.nodes:>9,} {tk * 1e3:>10.3f} "
                  f"{te * 1e3:>10.3f} {te / tk:>12.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
