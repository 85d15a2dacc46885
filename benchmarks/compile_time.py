"""What a user waits for before the first compiled search: per game, cold and warm, in fresh
processes.

    .venv/bin/python benchmarks/compile_time.py [--games chess perft ...] [--warm-only]
    .venv/bin/python benchmarks/compile_time.py --passes tictactoe

For each engine of searchlab.warm_up.engines() (the two-player engine's:
i.i.d. tree, tic-tac-toe, Connect Four, Othello, Hex 7x7, chess; chess perft through the
kernel's wrapper; the synthetic-tree kernel; the chance engine's: Pig, the dice race; the
n-player engine's: Rolit, Harvest), two fresh Python processes run the same small search
(depth 1-2: the time is compilation or loading, not search) with ``NUMBA_CACHE_DIR`` and
``XDG_CACHE_HOME`` pointing at one new temporary directory per game:

- cold: the directory is empty, so the engine copy is written and everything compiles (one
  game's compilation does not help the next: each game has its own directory, as on a fresh
  machine);
- warm: the second process, with the cache the cold one wrote.

Columns (CPU seconds of the child, time.process_time, which the other processes on a shared
machine disturb less than wall time): ``import`` (searchlab and the game's modules),
``numba start`` (the first call of any compiled function in a process: numba sets up its
compiler's registries, the same for every game; measured as the first call of a tiny cached
function, searchlab.algorithms.kernels.hashing_compiled.mix64) and ``first search`` (the game's first
search after that: cold, the compilation; warm, loading the compiled code from disk). The
targets: cold first search <= 5 s and warm first search <= 0.05 s per game.

``--passes GAME``: one cold process only, printing where its first search's compile time goes:
CPU seconds per numba compiler pass and per compiled function, exclusive of the compilations
nested in them (numba's ``numba:run_pass`` events), the largest first.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))      # the checkout's searchlab, as in the child processes

from searchlab.warm_up import engines  # noqa: E402 -- after the sys.path line

# name: (imports, the search: one statement): the package's one list (searchlab-warm-up)
GAMES = engines()

CHILD = """
import sys, time
sys.path.insert(0, {root!r})
t0 = time.process_time()
{imports}
import numpy as np
from searchlab.algorithms.kernels.hashing_compiled import mix64
t1 = time.process_time()
mix64(np.uint64(1))
t2 = time.process_time()
{search}
t3 = time.process_time()
print(t1 - t0, t2 - t1, t3 - t2)
"""


PASSES = """
import collections, time
from numba.core import event
stack, by_pass, by_fn = [], collections.Counter(), collections.Counter()


class Exclusive(event.Listener):
    def on_start(self, ev):
        stack.append([ev.data["name"].split(" [")[0], ev.data["qualname"], time.process_time(), 0.0])

    def on_end(self, ev):
        name, fn, t0, nested = stack.pop()
        d = time.process_time() - t0
        by_pass[name] += d - nested
        by_fn[fn] += d - nested
        if stack:
            stack[-1][3] += d


event.register("numba:run_pass", Exclusive())
"""
PASSES_END = """
print(f"first search {t3 - t2:.1f} s CPU, in numba's passes {sum(by_pass.values()):.1f} s")
for k, v in by_pass.most_common(10):
    print(f"  pass      {k:32s} {v:6.2f}")
for k, v in by_fn.most_common(12):
    print(f"  function  {k:32s} {v:6.2f}")
"""


def run(name: str, cache: str) -> tuple[float, float, float]:
    """(import, numba start, first search) CPU seconds of a fresh process using this cache."""
    imports, statement = GAMES[name]
    code = CHILD.format(root=str(ROOT), imports=imports, search=statement)
    env = dict(os.environ, NUMBA_CACHE_DIR=cache, XDG_CACHE_HOME=cache)
    env.pop("NUMBA_DISABLE_JIT", None)
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         cwd=ROOT)
    if out.returncode:
        raise SystemExit(f"{name}: the child failed:\n{out.stderr}")
    a, b, c = out.stdout.split()[-3:]
    return float(a), float(b), float(c)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", nargs="+", choices=sorted(GAMES), default=list(GAMES))
    ap.add_argument("--warm-only", action="store_true",
                    help="run the cold process but print only the warm columns")
    ap.add_argument("--passes", choices=sorted(GAMES),
                    help="one cold process of this game: compile time per numba pass")
    args = ap.parse_args()
    if args.passes:
        imports, statement = GAMES[args.passes]
        code = CHILD.format(root=str(ROOT), imports=imports, search=statement)
        code = code.replace("t2 = time.process_time()\n", "t2 = time.process_time()\n" + PASSES)
        code = code.replace("print(t1 - t0, t2 - t1, t3 - t2)\n", PASSES_END)
        with tempfile.TemporaryDirectory(prefix="searchlab-compile-") as cache:
            env = dict(os.environ, NUMBA_CACHE_DIR=cache, XDG_CACHE_HOME=cache)
            env.pop("NUMBA_DISABLE_JIT", None)
            out = subprocess.run([sys.executable, "-c", code], env=env, text=True, cwd=ROOT)
        return out.returncode
    head = ["game", "cold import", "cold numba start", "cold first search", "warm import",
            "warm numba start", "warm first search"]
    if args.warm_only:
        head = [head[0]] + head[4:]
    print("  ".join(f"{h:>17}" for h in head), flush=True)
    for name in args.games:
        with tempfile.TemporaryDirectory(prefix="searchlab-compile-") as cache:
            cold = run(name, cache)
            warm = run(name, cache)
        cells = ([] if args.warm_only else [f"{x:.2f}" for x in cold]) + [
            f"{warm[0]:.2f}", f"{warm[1]:.2f}", f"{warm[2]:.3f}"]
        print("  ".join(f"{c:>17}" for c in [name] + cells), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
