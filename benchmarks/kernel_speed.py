"""Speed of the compiled kernel against the C yardstick, the reference engine and plain Python.

Run from the repository root:

    .venv/bin/python benchmarks/kernel_speed.py [--yardstick PATH] [--seeds N] [--repeats R]

What it does (benchmarks/README.md):

1. compiles the C yardstick (default ../shared/bench/iid_alphabeta.c) with ``cc -O2`` into
   benchmarks/.build/ and runs it: natural-order alpha-beta on i.i.d. trees b=8 d=9, b=4 d=14,
   b=16 d=6, seeds 1..N;
2. runs the numba kernel (``run_kernel``) on the same trees, checks that every seed's root value,
   leaves and nodes equal the yardstick's exactly (exit status 1 otherwise), and compares rates;
3. runs the reference engine (``search(..., engine="reference")``) and a plain recursive
   pure-Python alpha-beta written below on smaller trees of the same branching (checking
   their counts against the kernel's), and compares those two rates;
4. times kernel minimax on b=8 d=7;
5. times the kernel's first call in fresh subprocesses: with an empty numba cache (compile)
   and with the cache just written (load).

Rates are nodes per CPU second (process CPU time, which a shared, loaded machine distorts less
than wall-clock time); all rates of one table come from the same run. Each rate is the best of
``--repeats`` runs.
"""

from __future__ import annotations

import argparse
import math
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from searchlab.algorithms.kernels import run_kernel, warm_up  # noqa: E402
from searchlab.trees import IIDTree  # noqa: E402

DEFAULT_YARDSTICK = REPO / ".." / "shared" / "bench" / "iid_alphabeta.c"
BUILD = REPO / "benchmarks" / ".build"
CASES = [(8, 9), (4, 14), (16, 6)]
#: smaller trees of the same branching for the slow pure-Python engines
PY_CASES = {(8, 9): (8, 6), (4, 14): (4, 10), (16, 6): (16, 4)}
MINIMAX_CASE = (8, 7)

# --- a plain recursive alpha-beta: the Python floor the reference is compared with -----------
MASK = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15


def plain_alphabeta(b: int, d: int, seed: int) -> tuple[float, int, int]:
    """Textbook fail-soft alpha-beta on IIDTree(b, d, seed), natural order, no framework:
    returns (value, leaves, nodes)."""
    nodes = leaves = 0

    def mix(z):
        z ^= z >> 30
        z = (z * 0xBF58476D1CE4E5B9) & MASK
        z ^= z >> 27
        z = (z * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def ab(key, depth, alpha, beta, is_max):
        nonlocal nodes, leaves
        nodes += 1
        if depth == 0:
            leaves += 1
            return (key >> 11) * 2.0**-53
        if is_max:
            v = -math.inf
            for i in range(b):
                c = ab(mix((key + (i + 1) * GOLDEN) & MASK), depth - 1, alpha, beta, False)
                if c > v:
                    v = c
                if v >= beta:
                    return v
                if v > alpha:
                    alpha = v
            return v
        v = math.inf
        for i in range(b):
            c = ab(mix((key + (i + 1) * GOLDEN) & MASK), depth - 1, alpha, beta, True)
            if c < v:
                v = c
            if v <= alpha:
                return v
            if v < beta:
                beta = v
        return v

    value = ab(mix((seed + GOLDEN) & MASK), d, -math.inf, math.inf, True)
    return value, leaves, nodes


# --- the C yardstick --------------------------------------------------------------------
def build_yardstick(source: Path) -> Path:
    if not source.is_file():
        sys.exit(f"yardstick source not found: {source} (pass --yardstick PATH)")
    BUILD.mkdir(parents=True, exist_ok=True)
    exe = BUILD / "iid_alphabeta"
    subprocess.run(["cc", "-O2", "-o", str(exe), str(source)], check=True)
    return exe


_LINE = re.compile(r"b=(\d+) d=(\d+) seed=(\d+) value=(\S+) leaves=(\d+) nodes=(\d+)")
_TOTAL = re.compile(r"nodes=(\d+) seconds=(\S+) nodes_per_second=(\S+)")


def _children_cpu() -> float:
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def run_yardstick(exe: Path, b: int, d: int, seeds: int) -> tuple[dict, float]:
    """{seed: (value, leaves, nodes)} and nodes per CPU second of the yardstick process (its
    own printed rate is per wall-clock second, which a loaded machine distorts)."""
    cpu0 = _children_cpu()
    out = subprocess.run([str(exe), str(b), str(d), str(seeds)], check=True,
                         capture_output=True, text=True).stdout
    cpu = _children_cpu() - cpu0
    per_seed = {}
    for m in _LINE.finditer(out):
        per_seed[int(m.group(3))] = (float(m.group(4)), int(m.group(5)), int(m.group(6)))
    total = _TOTAL.search(out)
    if total is None or len(per_seed) != seeds:
        sys.exit(f"cannot parse the yardstick's output:\n{out}")
    return per_seed, int(total.group(1)) / max(cpu, 1e-9)


# --- timing helpers ---------------------------------------------------------------------
def time_kernel(b: int, d: int, seeds: int, algorithm: str = "alphabeta") -> tuple[dict, float]:
    trees = [IIDTree(b, d, s) for s in range(1, seeds + 1)]
    out, nodes = {}, 0
    t0 = time.process_time()
    for s, tree in enumerate(trees, 1):
        r = run_kernel(tree, algorithm, "natural", None, 0, None)
        out[s] = (r.value, r.leaves, r.nodes)
        nodes += r.nodes
    return out, nodes / (time.process_time() - t0)


def time_reference(b: int, d: int, seeds: int) -> tuple[dict, float]:
    from searchlab.algorithms.search_api import search
    out, nodes, secs = {}, 0, 0.0
    for s in range(1, seeds + 1):
        tree = IIDTree(b, d, s)
        t0 = time.process_time()
        r = search(tree, "alphabeta", "natural", engine="reference")
        secs += time.process_time() - t0
        out[s] = (r.value, r.leaves, r.nodes)
        nodes += r.nodes
    return out, nodes / secs


def time_plain(b: int, d: int, seeds: int) -> tuple[dict, float]:
    out, nodes, secs = {}, 0, 0.0
    for s in range(1, seeds + 1):
        t0 = time.process_time()
        value, leaves, n = plain_alphabeta(b, d, s)
        secs += time.process_time() - t0
        out[s] = (value, leaves, n)
        nodes += n
    return out, nodes / secs


def best_of(repeats: int, fn, *args):
    """(result of the first run, best rate over `repeats` runs)."""
    first, best = None, 0.0
    for _ in range(repeats):
        res, rate = fn(*args)
        first = res if first is None else first
        best = max(best, rate)
    return first, best


def check_equal(what: str, got: dict, want: dict) -> None:
    """Exit loudly when two engines disagree on any seed's (value, leaves, nodes)."""
    for seed, w in want.items():
        g = got.get(seed)
        if g is None or g[1:] != w[1:] or float(g[0]).hex() != float(w[0]).hex():
            sys.exit(f"MISMATCH {what}, seed {seed}: got (value, leaves, nodes) = {g}, "
                     f"expected {w}")


# --- JIT first-call time ---------------------------------------------------------------
_FIRST_CALL = """
import time
t0 = time.perf_counter()
from searchlab.algorithms.kernels import run_kernel
from searchlab.trees import IIDTree
t1 = time.perf_counter()
run_kernel(IIDTree(8, 5, 1), "alphabeta", "natural", None, 0, None)
t2 = time.perf_counter()
run_kernel(IIDTree(8, 5, 1), "alphabeta", "perfect", None, 0, None)
t3 = time.perf_counter()
print(t1 - t0, t2 - t1, t3 - t2)
"""


def first_call_times() -> dict[str, tuple[float, float, float]]:
    """Fresh subprocesses: (import s, first natural search s, first perfect search s), with an
    empty numba cache directory and then with the cache the first run wrote."""
    cache = Path(tempfile.mkdtemp(prefix="numba-cache-"))
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache))
    out = {}
    try:
        for label in ("cold (compile)", "warm (cache)"):
            p = subprocess.run([sys.executable, "-c", _FIRST_CALL], cwd=REPO, env=env,
                               capture_output=True, text=True, check=True)
            out[label] = tuple(float(x) for x in p.stdout.split())
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    return out


# --- main -------------------------------------------------------------------------------
def fmt_rate(x: float | None) -> str:
    return "-" if x is None else f"{x / 1e6:8.2f} M"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--yardstick", type=Path, default=DEFAULT_YARDSTICK,
                    help="C source of the yardstick (default: ../shared/bench/iid_alphabeta.c)")
    ap.add_argument("--seeds", type=int, default=5, help="seeds 1..N per tree (default 5)")
    ap.add_argument("--py-seeds", type=int, default=2,
                    help="seeds for the pure-Python engines, on smaller trees (default 2)")
    ap.add_argument("--repeats", type=int, default=3, help="best of R timings (default 3)")
    ap.add_argument("--no-jit-time", action="store_true", help="skip the first-call timing")
    args = ap.parse_args(argv)

    exe = build_yardstick(args.yardstick.resolve())
    warm_up()
    rows = []
    for b, d in CASES:
        c_counts, c_rate = None, 0.0
        k_rate = 0.0
        for _ in range(args.repeats):            # interleaved: both see the same machine load
            c_counts, rate = run_yardstick(exe, b, d, args.seeds)
            c_rate = max(c_rate, rate)
            k_counts, rate = time_kernel(b, d, args.seeds)
            k_rate = max(k_rate, rate)
            check_equal(f"kernel vs C yardstick on b={b} d={d}", k_counts, c_counts)
        pb, pd = PY_CASES[(b, d)]
        k_small, _ = time_kernel(pb, pd, args.py_seeds)
        ref_counts, ref_rate = best_of(args.repeats, time_reference, pb, pd, args.py_seeds)
        plain_counts, plain_rate = best_of(args.repeats, time_plain, pb, pd, args.py_seeds)
        check_equal(f"reference vs kernel on b={pb} d={pd}", ref_counts, k_small)
        check_equal(f"plain Python vs kernel on b={pb} d={pd}", plain_counts, k_small)
        rows.append((f"alphabeta b={b} d={d}", c_rate, k_rate, f"b={pb} d={pd}", ref_rate,
                     plain_rate))
    mb, md = MINIMAX_CASE
    _, mm_rate = best_of(args.repeats, time_kernel, mb, md, 2, "minimax")
    _, c_mm_ref = run_yardstick(exe, mb, md, args.seeds)

    print()
    print(f"Natural-order search on i.i.d. trees, seeds 1..{args.seeds} (pure Python: seeds "
          f"1..{args.py_seeds} on the smaller tree shown); nodes per CPU second, best of "
          f"{args.repeats}; counts checked equal across engines.")
    print()
    head = (f"| {'case':<22} | {'C yardstick':>11} | {'kernel':>10} | {'kernel/C':>8} | "
            f"{'py tree':<11} | {'reference':>10} | {'plain py':>10} | {'plain/ref':>9} |")
    print(head)
    print("|" + "|".join("-" * (len(c)) for c in head.split("|")[1:-1]) + "|")
    for name, c_rate, k_rate, ptree, ref_rate, plain_rate in rows:
        print(f"| {name:<22} | {fmt_rate(c_rate):>11} | {fmt_rate(k_rate):>10} | "
              f"{k_rate / c_rate:8.2f} | {ptree:<11} | {fmt_rate(ref_rate):>10} | "
              f"{fmt_rate(plain_rate):>10} | {plain_rate / ref_rate:9.2f} |")
    print(f"| {'minimax b=8 d=7':<22} | {fmt_rate(c_mm_ref):>11} | {fmt_rate(mm_rate):>10} | "
          f"{mm_rate / c_mm_ref:8.2f} | {'':<11} | {'':>10} | {'':>10} | {'':>9} |")
    print()
    print("targets: kernel/C >= 0.6; plain/ref <= 2 (the reference at most 2x slower than the")
    print("plain function). The minimax row compares kernel minimax with the C yardstick's")
    print("alpha-beta rate on the same tree (the yardstick has no minimax).")
    worst = min(k / c for _, c, k, *_ in rows)
    status = 0
    if worst < 0.6:
        print(f"WARNING: kernel/C = {worst:.2f} is below the 0.6 target")
    if not args.no_jit_time:
        print()
        print("First call in a fresh process (seconds): import, first natural-order search "
              "(b=8 d=5), first perfect-order search")
        for label, (imp, first, perfect) in first_call_times().items():
            print(f"  {label:<15} import {imp:6.2f}   first search {first:6.2f}   "
                  f"first perfect {perfect:6.2f}")
    return status


if __name__ == "__main__":
    sys.exit(main())
