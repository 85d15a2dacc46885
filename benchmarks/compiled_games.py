"""The compiled engine against the reference engine on real games, and its JIT start-up.

    .venv/bin/python benchmarks/compiled_games.py [--positions 8] [--repeat 3] [--no-startup]

For each game with compiled primitives (Connect Four, Othello, tic-tac-toe and Hex 7x7) and
the policy ``id+tt+killer+history`` with the game's own order, alpha-beta:

1. the same searches (seeded random positions, at two depths) on both engines: every count
   must agree (the script exits with status 1 and a MISMATCH line otherwise); nodes per CPU
   second of each over the whole ``search(...)`` calls (validation, set-up and result
   included: what a study pays per search) and their ratio (target >= 200x). Two depths,
   because the ratio grows with the search: the compiled side pays about 16 us of Python per
   search (validation, the root's encoding, the result), a tenth of a depth-5 Othello search
   of ~1,900 nodes; and the reference's own rate falls a little as its tables fill;
2. the compiled engine alone, deeper: nodes per CPU second over the whole calls (targets:
   >= 20 M Connect Four, >= 10 M Othello).

Times are CPU seconds of this process (time.process_time), which other processes sharing the
cores disturb less than wall time; the compiled engine's searches are timed as the best of
``--repeat`` passes over the positions (the reference's once: it is the slow side).
3. start-up (unless --no-startup), in fresh processes: importing searchlab, then the first
   compiled search, once with an empty cache directory (NUMBA_CACHE_DIR: cold, the engine
   specialised for the game and every primitive compiled) and once with the cache that run
   wrote (warm: everything loads from disk; target <= 3 s per game per process).

Absolute rates move with the machine's load; the ratios come from one run.
"""

from __future__ import annotations

import argparse
import gc
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from searchlab import search                                    # noqa: E402
from searchlab.algorithms.calibration import sample_states       # noqa: E402
from searchlab.games.connect4 import ConnectFour                 # noqa: E402
from searchlab.games.hex import Hex                              # noqa: E402
from searchlab.games.othello import Othello                      # noqa: E402
from searchlab.games.position import FromState                   # noqa: E402
from searchlab.games.tictactoe import TicTacToe                  # noqa: E402

# name: (factory, game's order, plies of random play, depths on both engines, compiled depth)
GAMES = {
    "connect4": (ConnectFour, "centre", 4, (7, 9), 12),
    "othello": (Othello, "corners", 6, (5, 7), 9),
    "tictactoe": (TicTacToe, None, 1, (8,), 8),
    "hex 7x7": (lambda: Hex(7), "adjacent", 4, (3, 4), 6),
}


def policy(order: str | None) -> str:
    return "id+tt+killer+history" + (f"+{order}" if order else "")


def counts(r) -> dict:
    d = r.counts()
    d.update(fh=r.fail_highs, ffh=r.first_move_fail_highs)
    return d


def table(title: str, header: list[str], rows: list[list[str]]) -> None:
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(header)]
    print(f"\n{title}")
    print("  ".join(h.rjust(w) for h, w in zip(header, widths)))
    print("  ".join("-" * w for w in widths))
    for r in rows:
        print("  ".join(c.rjust(w) for c, w in zip(r, widths)))


def startup(name: str, cache_dir: str) -> tuple[float, float]:
    """(import seconds, first compiled search seconds) in a fresh process with this cache."""
    code = (
        "import sys, time; t = time.perf_counter(); sys.path.insert(0, %r)\n"
        "sys.argv = ['x']\n"
        "from benchmarks.compiled_games import GAMES, policy\n"
        "from searchlab import search\n"
        "make, order, *_ = GAMES[%r]\n"
        "g = make(); t1 = time.perf_counter()\n"
        "search(g, 'alphabeta', policy(order), depth=2, engine='compiled')\n"
        "print(t1 - t, time.perf_counter() - t1)\n") % (str(ROOT), name)
    env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir)
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         cwd=ROOT, check=True)
    imp, first = out.stdout.strip().splitlines()[-1].split()
    return float(imp), float(first)


def timed(views, depth: int, engine: str, pol: str, repeat: int = 1):
    """(results, CPU seconds of the whole search calls over the views, best of ``repeat``).
    As timeit does: one collection before, the garbage collector off while a pass is timed
    (for both engines). A collection before every pass, as this script did until 2026-12-01,
    evicts the compiled engine's transposition table (2 MB, reused from search to search)
    from the CPU caches, which searches run back to back in a study do not pay: that made
    each compiled pass 15-55 % slower per search (speed12's measurement, Connect Four d7 and
    Othello d5)."""
    best = float("inf")
    gc.collect()
    for _ in range(repeat):
        gc.disable()
        try:
            t = time.process_time()
            results = [search(v, "alphabeta", pol, depth=depth, engine=engine) for v in views]
            best = min(best, time.process_time() - t)
        finally:
            gc.enable()
    return results, best


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=8)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--no-startup", action="store_true")
    args = ap.parse_args()
    same_rows, deep_rows, start_rows = [], [], []
    ok = True
    for name, (make, order, plies, d_both, d_deep) in GAMES.items():
        game = make()
        pol = policy(order)
        views = [FromState(game, s) for s in sample_states(game, plies, args.positions, seed=1)]
        search(views[0], "alphabeta", pol, depth=2, engine="compiled")       # compile or load
        for d_ref in d_both:
            # each engine's searches in a row (interleaved, the compiled calls would pay for
            # the garbage the reference's leave behind)
            refs, ref_t = timed(views, d_ref, "reference", pol)
            coms, com_t = timed(views, d_ref, "compiled", pol, args.repeat)
            for v, r, c in zip(views, refs, coms):
                if counts(r) != counts(c):
                    print(f"MISMATCH {name} {v.name} depth {d_ref}: {counts(r)} != {counts(c)}")
                    ok = False
            nodes = sum(r.nodes for r in refs)
            same_rows.append([name, pol, str(d_ref), f"{nodes:,}", f"{nodes / ref_t / 1e3:.0f}",
                              f"{nodes / com_t / 1e6:.2f}", f"{ref_t / com_t:.0f}x"])
        deep, deep_t = timed(views, d_deep, "compiled", pol, args.repeat)
        deep_n = sum(c.nodes for c in deep)
        deep_rows.append([name, str(d_deep), f"{deep_n:,}", f"{deep_t:.2f}",
                          f"{deep_n / deep_t / 1e6:.2f}"])
        if not args.no_startup:
            with tempfile.TemporaryDirectory() as cache:
                cold = startup(name, cache)
                warm = startup(name, cache)
            start_rows.append([name, f"{cold[0]:.1f}", f"{cold[1]:.1f}", f"{warm[0]:.1f}",
                               f"{warm[1]:.2f}"])
    n = args.positions
    table(f"Same searches on both engines, alpha-beta, {n} positions (counts checked equal); "
          "nodes per CPU second of whole calls",
          ["game", "policy", "depth", "nodes", "reference k nodes/s", "compiled M nodes/s",
           "ratio"], same_rows)
    table(f"Compiled engine alone, deeper, {n} positions (whole calls, best of {args.repeat})",
          ["game", "depth", "nodes", "CPU seconds", "M nodes/s"], deep_rows)
    if start_rows:
        table("Fresh process (seconds): import searchlab, then the first compiled search; "
              "empty cache (cold) / the cache the cold run wrote (warm)",
              ["game", "cold import", "cold first search", "warm import", "warm first search"],
              start_rows)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
