"""The compiled engine against the reference engine on real games, and its JIT start-up.

    .venv/bin/python benchmarks/compiled_games.py [--positions 8] [--no-startup]

For each game with compiled primitives (Connect Four, Othello, tic-tac-toe, and Hex where
present) and the policy ``id+tt+killer+history`` with the game's own order, alpha-beta:

1. the same searches (seeded random positions, one depth) on both engines: every count must
   agree (the script exits with status 1 and a MISMATCH line otherwise); nodes per second of
   each (nodes / the search's wall time, summed over the positions) and their ratio
   (target >= 200x);
2. the compiled engine alone, deeper: nodes per second (targets: >= 20 M Connect Four,
   >= 10 M Othello);
3. start-up (unless --no-startup): the first compiled search of a fresh process, once with an
   empty numba cache (cold: the engine specialised for the game and every primitive compiled)
   and once with the cache that run wrote (warm: everything loads from disk; target <= 3 s).

Absolute rates move with the machine's load; the ratios come from one run.
"""

from __future__ import annotations

import argparse
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
from searchlab.games.othello import Othello                      # noqa: E402
from searchlab.games.position import FromState                   # noqa: E402
from searchlab.games.tictactoe import TicTacToe                  # noqa: E402

# name: (factory, game's order, plies of random play, reference depth, compiled depth)
GAMES = {
    "connect4": (ConnectFour, "centre", 4, 7, 12),
    "othello": (Othello, "corners", 6, 5, 9),
    "tictactoe": (TicTacToe, None, 1, 8, 8),
}
try:                                                             # Hex: another helper's game
    from searchlab.games.hex import Hex                          # noqa: E402
    GAMES["hex 7x7"] = (lambda: Hex(7), "adjacent", 4, 3, 6)
except ImportError:
    pass


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


def startup(name: str, cache_dir: str) -> float:
    """Seconds of the first compiled search in a fresh process with this numba cache dir."""
    code = (
        "import sys, time; sys.path.insert(0, %r)\n"
        "sys.argv = ['x']\n"
        "from benchmarks.compiled_games import GAMES, policy\n"
        "from searchlab import search\n"
        "make, order, *_ = GAMES[%r]\n"
        "g = make(); t = time.perf_counter()\n"
        "search(g, 'alphabeta', policy(order), depth=2, engine='compiled')\n"
        "print(time.perf_counter() - t)\n") % (str(ROOT), name)
    env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir)
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         cwd=ROOT, check=True)
    return float(out.stdout.strip().splitlines()[-1])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=8)
    ap.add_argument("--no-startup", action="store_true")
    args = ap.parse_args()
    same_rows, deep_rows, start_rows = [], [], []
    ok = True
    for name, (make, order, plies, d_ref, d_deep) in GAMES.items():
        game = make()
        pol = policy(order)
        views = [FromState(game, s) for s in sample_states(game, plies, args.positions, seed=1)]
        search(views[0], "alphabeta", pol, depth=2, engine="compiled")       # compile
        ref_n = ref_t = com_t = 0.0
        for v in views:
            r = search(v, "alphabeta", pol, depth=d_ref, engine="reference")
            c = search(v, "alphabeta", pol, depth=d_ref, engine="compiled")
            if counts(r) != counts(c):
                print(f"MISMATCH {name} {v.name} depth {d_ref}: {counts(r)} != {counts(c)}")
                ok = False
            ref_n, ref_t, com_t = ref_n + r.nodes, ref_t + r.wall_time, com_t + c.wall_time
        same_rows.append([name, pol, str(d_ref), f"{int(ref_n):,}", f"{ref_n / ref_t / 1e3:.0f}",
                          f"{ref_n / com_t / 1e6:.2f}", f"{ref_t / com_t:.0f}x"])
        deep_n = deep_t = 0.0
        for v in views:
            c = search(v, "alphabeta", pol, depth=d_deep, engine="compiled")
            deep_n, deep_t = deep_n + c.nodes, deep_t + c.wall_time
        deep_rows.append([name, str(d_deep), f"{int(deep_n):,}", f"{deep_t:.2f}",
                          f"{deep_n / deep_t / 1e6:.2f}"])
        if not args.no_startup:
            with tempfile.TemporaryDirectory() as cache:
                cold = startup(name, cache)
                warm = startup(name, cache)
            start_rows.append([name, f"{cold:.1f}", f"{warm:.1f}"])
    n = args.positions
    table(f"Same searches on both engines, alpha-beta, {n} positions (counts checked equal)",
          ["game", "policy", "depth", "nodes", "reference k nodes/s", "compiled M nodes/s",
           "ratio"], same_rows)
    table(f"Compiled engine alone, deeper, {n} positions",
          ["game", "depth", "nodes", "seconds", "M nodes/s"], deep_rows)
    if start_rows:
        table("First compiled search of a process (seconds): empty numba cache / warm cache",
              ["game", "cold", "warm"], start_rows)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
