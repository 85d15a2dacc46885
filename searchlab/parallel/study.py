"""Sweeps of the parallel simulator and their summaries and figures (claim 002-b).

``sweep`` simulates every (tree, algorithm) pair at several processor counts and returns a tidy
table (identifiers, then SimResult's measurements); ``speedup_table`` and ``overhead_table``
summarise it; ``plot_speedup`` and ``plot_overhead`` draw it. ``default_sweeps`` is the study at
its default size (processor counts 1..256, ordering quality p = 1/b..1 on ordered trees, three
depths); run it with

    python -m searchlab.parallel.study --out results/parallel --jobs 2      # or --small

which writes the tables (CSV) and figures there and prints its run time. (A Hydra preset
will replace this command once the experiment engine has task kinds beyond a search.)
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Iterable

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402
from joblib import Parallel, delayed  # noqa: E402

from searchlab.parallel.simulate import ALGORITHMS, Costs, simulate  # noqa: E402
from searchlab.trees import IIDTree, IncrementalTree, OrderedTree  # noqa: E402

#: Okabe-Ito colours (as searchlab.analysis.figures, a higher layer than this package)
ALGORITHM_COLOURS = {"pv-split": "#D55E00", "ybwc": "#0072B2", "abdada": "#009E73",
                     "lazy-smp": "#E69F00"}
ALGORITHM_MARKERS = {"pv-split": "v", "ybwc": "o", "abdada": "s", "lazy-smp": "D"}
POWERS_OF_TWO = (1, 2, 4, 8, 16, 32, 64, 128, 256)


def make_tree(model: str, b: int, d: int, seed: int, order_p: float | None = None):
    """The synthetic tree of a sweep row: "iid", "ordered" (natural order puts the best move
    first with probability ``order_p``) or "incremental"."""
    if model == "iid":
        return IIDTree(b, d, seed=seed)
    if model == "ordered":
        return OrderedTree(b, d, seed=seed, p=1.0 if order_p is None else order_p)
    if model == "incremental":
        return IncrementalTree(b, d, seed=seed)
    raise ValueError(f"model must be iid, ordered or incremental; got {model!r}")


def _task(model: str, b: int, d: int, seed: int, order_p: float | None, algorithms: tuple,
          ps: tuple, costs: Costs, min_split: int) -> list[dict]:
    tree = make_tree(model, b, d, seed, order_p)
    base = simulate(tree, "ybwc", 1)          # sequential alpha-beta: its value and nodes
    rows = []
    for alg in algorithms:
        for p in ps:
            r = simulate(tree, alg, p, costs=costs, min_split=min_split, seq_nodes=base.nodes)
            rows.append(dict(model=model, b=b, d=d, tree_seed=seed, order_p=order_p, **r.row(),
                             same_value=r.value == base.value))
    return rows


def sweep(trees: Iterable[tuple[str, int, int, float | None]], seeds: Iterable[int],
          ps: Iterable[int] = POWERS_OF_TWO, algorithms: Iterable[str] = tuple(ALGORITHMS),
          costs: Costs = Costs(), min_split: int = 2, n_jobs: int = 1) -> pd.DataFrame:
    """Simulate every tree (model, b, d, order_p) x seed x algorithm x p; one row per
    simulation (identifiers model, b, d, tree_seed, order_p, then SimResult.row(), then
    ``same_value``: the root value equals sequential alpha-beta's). Rows are in input order
    whatever ``n_jobs`` (joblib processes over (tree, seed) pairs)."""
    algorithms, ps = tuple(algorithms), tuple(ps)
    tasks = [(m, b, d, s, op) for (m, b, d, op) in trees for s in seeds]
    out = Parallel(n_jobs=n_jobs)(delayed(_task)(m, b, d, s, op, algorithms, ps, costs, min_split)
                                  for (m, b, d, s, op) in tasks)
    return pd.DataFrame([r for rows in out for r in rows])


def _summ(df: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    g = df.groupby(keys, sort=True)
    return g.agg(n=("speedup", "size"), speedup=("speedup", "mean"), speedup_min=("speedup", "min"),
                 speedup_max=("speedup", "max"), overhead=("search_overhead", "mean"),
                 idle_fraction=("idle_fraction", "mean"), splits=("splits", "mean"),
                 nodes=("nodes", "mean"), seq_nodes=("seq_nodes", "mean")).reset_index()


def speedup_table(df: pd.DataFrame) -> pd.DataFrame:
    """Mean speedup (with min and max over the n trees), search overhead, idle fraction and
    efficiency = speedup / p per (model, b, d, order_p, algorithm, p)."""
    keys = ["model", "b", "d", "order_p", "algorithm", "p"]
    s = _summ(df.assign(order_p=df["order_p"].fillna(-1.0)), keys)
    s["order_p"] = s["order_p"].where(s["order_p"] >= 0)
    s["efficiency"] = s["speedup"] / s["p"]
    return s


def overhead_table(df: pd.DataFrame) -> pd.DataFrame:
    """Search overhead and speedup against ordering quality: ordered-tree rows per (order_p,
    algorithm, p)."""
    o = df[df["model"] == "ordered"]
    return _summ(o, ["b", "d", "order_p", "algorithm", "p"])


def plot_speedup(table: pd.DataFrame, path: Path, title: str) -> Path:
    """Speedup against p (log-log) per algorithm, with the ideal speedup p; one table slice
    (one tree family)."""
    fig, ax = plt.subplots(figsize=(6.4, 4.4))
    ps = sorted(table["p"].unique())
    ax.plot(ps, ps, color="#000000", ls=":", label="ideal (speedup = p)")
    for alg in ALGORITHMS:
        r = table[table["algorithm"] == alg].sort_values("p")
        if r.empty:
            continue
        ax.errorbar(r["p"], r["speedup"], yerr=[r["speedup"] - r["speedup_min"],
                                                r["speedup_max"] - r["speedup"]],
                    color=ALGORITHM_COLOURS[alg], marker=ALGORITHM_MARKERS[alg], capsize=2,
                    label=alg)
    ax.set_xscale("log", base=2)
    ax.set_yscale("log", base=2)
    ax.set_xlabel("processors p")
    ax.set_ylabel("speedup = sequential time / parallel time")
    return _finish(fig, ax, path, title)


def _finish(fig, ax, path: Path, title: str) -> Path:
    ax.set_title(title, fontsize=9)
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


def plot_overhead(table: pd.DataFrame, path: Path, p: int, title: str) -> Path:
    """Search overhead (extra nodes over sequential alpha-beta) against the ordered tree's
    ordering quality order_p, per algorithm, at ``p`` processors."""
    fig, ax = plt.subplots(figsize=(6.4, 4.4))
    for alg in ALGORITHMS:
        r = table[(table["algorithm"] == alg) & (table["p"] == p)].sort_values("order_p")
        if r.empty:
            continue
        ax.plot(r["order_p"], 100 * r["overhead"], color=ALGORITHM_COLOURS[alg],
                marker=ALGORITHM_MARKERS[alg], label=alg)
    ax.set_xlabel("ordering quality: P(best move first in natural order)")
    ax.set_ylabel(f"search overhead at p = {p} (% extra nodes)")
    return _finish(fig, ax, path, title)


def default_sweeps(small: bool = False, n_jobs: int = 1) -> dict[str, pd.DataFrame]:
    """The study at its default size (``small``: a quick check), three tables:

    - "speedup": p = 1..256 on ordered trees (b = 8, order_p 0.9), i.i.d. and incremental trees;
    - "ordering": p = 4, 16, 64 on ordered trees, order_p from 1/b (random) to 1 (perfect);
    - "depth": p = 16 on ordered trees (order_p 0.9) of several depths.
    """
    b = 8
    seeds = range(2 if small else 4)
    d = 7 if small else 9
    ps = POWERS_OF_TWO[:7] if small else POWERS_OF_TWO
    speed = sweep([("ordered", b, d, 0.9), ("iid", b, d - 1, None), ("incremental", b, d, None)],
                  seeds, ps, n_jobs=n_jobs)
    orders = (1 / b, 0.25, 0.5, 0.75, 0.9, 1.0)
    ordering = sweep([("ordered", b, d, op) for op in orders], seeds, (4, 16, 64), n_jobs=n_jobs)
    depths = (5, 6, 7) if small else (6, 8, 10)
    depth = sweep([("ordered", b, dd, 0.9) for dd in depths], seeds, (16,), n_jobs=n_jobs)
    return {"speedup": speed, "ordering": ordering, "depth": depth}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, default=Path("results/parallel"))
    ap.add_argument("--small", action="store_true", help="a quick check")
    ap.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    tables = default_sweeps(args.small, args.jobs)
    args.out.mkdir(parents=True, exist_ok=True)
    for name, df in tables.items():
        df.to_csv(args.out / f"{name}.csv", index=False)
    st = speedup_table(tables["speedup"])
    for model in st["model"].unique():
        sl = st[st["model"] == model]
        plot_speedup(sl, args.out / f"speedup_{model}.png", f"{model} trees, b = {sl['b'].iloc[0]}, "
                     f"d = {sl['d'].iloc[0]}")
    ot = overhead_table(tables["ordering"])
    for p in sorted(ot["p"].unique()):
        plot_overhead(ot, args.out / f"overhead_p{p}.png", int(p), f"ordered trees, p = {p}")
    print(st.to_string(index=False))
    print(f"wrote {len(tables)} tables and figures to {args.out}; "
          f"run time {time.perf_counter() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
