"""The parallel study's task bodies, summaries and figures (claim 002-b).

The study is the engine's preset ``searchlab experiment=parallel`` (searchlab/experiment/
parallel_study.py plans it, conf/experiment/parallel.yaml sizes it); its tasks call
``tree_rows`` (one synthetic tree: every algorithm at every p) and ``game_rows`` (one game
position, depth and ordering policy: the same). ``speedup_table`` and ``overhead_table``
summarise the rows; ``plot_speedup``, ``plot_overhead`` and ``plot_policies`` draw them.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from searchlab.algorithms.ordering_registry import describe  # noqa: E402
from searchlab.games.registry import registry as game_registry  # noqa: E402
from searchlab.parallel.game_simulation import TABLE_ALGORITHMS  # noqa: E402
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


def _rows(game, depth, algorithms, ps, costs, min_split, tt_bits, ordering, seed, on_tree):
    """Every algorithm at every p on one tree (``on_tree``: natural order, the readable
    simulator's search) or game: SimResult.row()s plus ``same_value`` (the root value equals
    the sequential search's). ABDADA and Lazy SMP share a table: on games only under orderings
    with tt."""
    base = simulate(game, "ybwc", 1, depth=depth, ordering=ordering, costs=costs, tt_bits=tt_bits,
                    split_plies=None)          # the sequential search (p = 1 never splits)
    rows = []
    for alg in algorithms:
        if alg in TABLE_ALGORITHMS and not on_tree and not describe(ordering).has("tt"):
            continue
        for p in ps:
            r = simulate(game, alg, p, depth=depth, costs=costs, min_split=min_split,
                         tt_bits=tt_bits, seed=seed, ordering=ordering, seq_nodes=base.seq_nodes,
                         seq_time=base.seq_time)
            row = r.row()
            row["best_move"] = None if r.best_move is None else str(r.best_move)
            row["same_value"] = r.value == base.value
            rows.append(row)
    return rows


def tree_rows(model: str, b: int, d: int, tree_seed: int, order_p: float | None,
              algorithms: tuple, ps: tuple, costs: Costs, min_split: int,
              tt_bits: int) -> list[dict]:
    """One synthetic tree (``make_tree``), natural order: every algorithm at every p; each row
    starts with the identifiers domain (the model), b, d, instance (the tree's seed), order_p."""
    tree = make_tree(model, b, d, tree_seed, order_p)
    return [dict(domain=model, b=b, d=d, instance=str(tree_seed), order_p=order_p, **r)
            for r in _rows(tree, None, algorithms, ps, costs, min_split, tt_bits, "natural", 0,
                          True)]


#: The games the study offers: the registered games that can be rooted at one of their states
#: (GameEntry.at_state), by name.
GAMES = {name: e for name, e in game_registry().items() if e.at_state is not None}


def game_at(name: str, ply: int, seed: int):
    """The game ``name`` rooted after ``ply`` random legal moves (numpy's default_rng(seed);
    ply 0: the start position; a game that ends early keeps its last non-terminal position)."""
    if name not in GAMES:
        raise ValueError(f"game must be one of {', '.join(GAMES)}; got {name!r}")
    g = GAMES[name].start()
    rng = np.random.default_rng(seed)
    s = g.initial_state()
    for _ in range(ply):
        nxt = g.play(s, g.legal_moves(s)[int(rng.integers(len(g.legal_moves(s))))])
        if g.is_terminal(nxt):
            break
        s = nxt
    return g if s == g.initial_state() else GAMES[name].at_state(s)


def game_rows(name: str, ply: int, position_seed: int, depth: int, ordering: str,
              algorithms: tuple, ps: tuple, costs: Costs, min_split: int, tt_bits: int,
              seed: int) -> list[dict]:
    """One game position (``game_at``), depth and ordering policy: every algorithm at every p
    (ABDADA and Lazy SMP only under orderings with tt); identifiers domain (the game), b
    (None), d (the depth), instance (the position's name), order_p (None)."""
    g = game_at(name, ply, position_seed)
    return [dict(domain=name, b=None, d=depth, instance=g.name, order_p=None, **r)
            for r in _rows(g, depth, algorithms, ps, costs, min_split, tt_bits, ordering, seed,
                          False)]


def _summ(df: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    g = df.groupby(keys, sort=True, dropna=False)
    return g.agg(n=("speedup", "size"), speedup=("speedup", "mean"), speedup_min=("speedup", "min"),
                 speedup_max=("speedup", "max"), overhead=("search_overhead", "mean"),
                 idle_fraction=("idle_fraction", "mean"), splits=("splits", "mean"),
                 nodes=("nodes", "mean"), seq_nodes=("seq_nodes", "mean")).reset_index()


def speedup_table(df: pd.DataFrame) -> pd.DataFrame:
    """Mean speedup (with min and max over the n trees or positions), search overhead, idle
    fraction and efficiency = speedup / p per (domain, b, d, order_p, ordering, algorithm, p)."""
    s = _summ(df, ["domain", "b", "d", "order_p", "ordering", "algorithm", "p"])
    s["efficiency"] = s["speedup"] / s["p"]
    return s


def overhead_table(df: pd.DataFrame) -> pd.DataFrame:
    """Search overhead and speedup against ordering quality on ordered trees: per (b, d,
    order_p, algorithm, p)."""
    return _summ(df[df["domain"] == "ordered"], ["b", "d", "order_p", "algorithm", "p"])


def policy_table(df: pd.DataFrame) -> pd.DataFrame:
    """Search overhead and speedup per move-ordering policy on games: per (domain, d, ordering,
    algorithm, p), with the sequential search's mean nodes (a better policy: fewer)."""
    return _summ(df[df["b"].isna()], ["domain", "d", "ordering", "algorithm", "p"])


def plot_speedup(table: pd.DataFrame, path: Path, title: str) -> Path:
    """Speedup against p (log-log) per algorithm, with the ideal speedup p; one slice of
    ``speedup_table`` (one domain, depth and ordering). Error bars: the 95 % CI of the mean
    where the table has one (columns speedup_lo, speedup_hi), else the min and max over trees."""
    fig, ax = plt.subplots(figsize=(6.4, 4.4))
    ps = sorted(table["p"].unique())
    ax.plot(ps, ps, color="#000000", ls=":", label="ideal (speedup = p)")
    for alg in ALGORITHMS:
        r = table[table["algorithm"] == alg].sort_values("p")
        if r.empty:
            continue
        lo, hi = (("speedup_lo", "speedup_hi") if "speedup_lo" in r.columns and r["speedup_lo"].notna().all()
                  else ("speedup_min", "speedup_max"))
        ax.errorbar(r["p"], r["speedup"], yerr=[r["speedup"] - r[lo], r[hi] - r["speedup"]],
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
    fig.savefig(path, dpi=120)          # the format from the suffix: png, pdf or svg
    plt.close(fig)
    return path


def _ci_err(r: pd.DataFrame, col: str, scale: float = 1.0):
    """Error bars of column ``col`` from its 95 % CI columns (``col``_lo, ``col``_hi) where the
    table has them (nan, a cell of one tree, draws no bar); None where it has none."""
    if f"{col}_lo" not in r.columns:
        return None
    v, lo, hi = (scale * r[c].to_numpy(float) for c in (col, f"{col}_lo", f"{col}_hi"))
    return np.vstack([np.nan_to_num(v - lo), np.nan_to_num(hi - v)])


def plot_overhead(table: pd.DataFrame, path: Path, p: int, title: str) -> Path:
    """Search overhead (extra nodes over sequential alpha-beta) against the ordered tree's
    ordering quality order_p, per algorithm, at ``p`` processors, with the 95 % CI of the mean
    over trees where the table has one (overhead_lo, overhead_hi). The format follows
    ``path``'s suffix (png, pdf or svg)."""
    fig, ax = plt.subplots(figsize=(6.4, 4.4))
    for alg in ALGORITHMS:
        r = table[(table["algorithm"] == alg) & (table["p"] == p)].sort_values("order_p")
        if r.empty:
            continue
        ax.errorbar(r["order_p"], 100 * r["overhead"], yerr=_ci_err(r, "overhead", 100),
                    color=ALGORITHM_COLOURS[alg], marker=ALGORITHM_MARKERS[alg], capsize=2, label=alg)
    ax.set_xlabel("ordering quality: P(best move first in natural order)")
    ax.set_ylabel(f"search overhead at p = {p} (% extra nodes)")
    return _finish(fig, ax, path, title)


def plot_policies(table: pd.DataFrame, path: Path, p: int, title: str) -> Path:
    """Search overhead against the move-ordering policy (ordered by the sequential search's
    nodes, best policy first), per algorithm, at ``p`` processors: one slice of
    ``policy_table`` (one game and depth). The policies are categories, so each algorithm is a
    row of points side by side (no line between policies), with the 95 % CI of the mean over
    positions where the table has one; an algorithm that needs a table (abdada, lazy-smp) has
    no point at a policy without ``tt``. The format follows ``path``'s suffix."""
    fig, ax = plt.subplots(figsize=(6.4, 4.4))
    t = table[table["p"] == p]
    order = t.groupby("ordering")["seq_nodes"].mean().sort_values().index.tolist()
    x = {o: k for k, o in enumerate(order)}
    width = 0.6 / max(1, len(ALGORITHMS) - 1)
    for i, alg in enumerate(ALGORITHMS):
        r = t[t["algorithm"] == alg]
        if r.empty:
            continue
        r = r.assign(k=r["ordering"].map(x)).sort_values("k")
        ax.errorbar(r["k"] + (i - (len(ALGORITHMS) - 1) / 2) * width, 100 * r["overhead"],
                    yerr=_ci_err(r, "overhead", 100), color=ALGORITHM_COLOURS[alg],
                    marker=ALGORITHM_MARKERS[alg], ls="none", capsize=2, label=alg)
    ax.set_xticks(range(len(order)))
    ax.set_xticklabels(order, rotation=20, ha="right", fontsize=7)
    ax.set_xlim(-0.5, len(order) - 0.5)          # room for the side-by-side points at both ends
    ax.set_xlabel("move-ordering policy (fewest sequential nodes first)")
    ax.set_ylabel(f"search overhead at p = {p} (% extra nodes)")
    return _finish(fig, ax, path, title)
