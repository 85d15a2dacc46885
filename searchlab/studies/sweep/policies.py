"""Move-ordering studies: how dynamic policies (id, tt, killer, history) and game orders
(centre, corners, captures) compare with natural and perfect order, from a run's table.

Studies: experiments/ordering_incremental, ordering_connect4, ordering_games, chess_suites.
Every function takes the run's table (``searchlab.load(run_dir)``; rows with status ``ok`` are
used) and returns a tidy DataFrame; ``plot_*`` draw figures; :func:`policies_section` returns
the report's markdown section (tables with no empty cell: a missing value is "n/a").

Vocabulary (DESIGN.md):

- a *setting* is what the positions or trees share: a tree model with its parameters and b
  (``incremental b=8 decay=0.5 corr=0.5``), or a game with its position source
  (``chess wac``, ``othello random ply 20``);
- a *policy* is the ordering spec, prefixed by the algorithm when it is not alpha-beta
  (``pvs:id+killer``);
- counts are ``nodes`` (root and leaves included; for ``id`` the sum over its iterations);
- EBF here is the ``fit`` estimator of searchlab.analysis.estimators (least squares of
  log mean nodes on d with a parity term, depths >= 2) and, per depth, the ``R&N b*``;
- b̄ (games) is the measured average branching factor of the positions (column ``branching``:
  legal moves per position over the root and its children), averaged over the setting's
  positions; for trees b̄ = b.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Iterable, Optional, Sequence

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.ticker import FuncFormatter, LogLocator, MaxNLocator, NullFormatter

from searchlab.algorithms.ordering_registry import describe
from searchlab.games.registry import registry as game_registry
from searchlab.analysis.estimators import count_matrix, fit_growth, fit_with_ci, rn_bstar
from searchlab.analysis.figures import given_axes, in_paper_style, paper_grid, save
from searchlab.analysis.palette import policy_style, split_policy
from searchlab.analysis.stats import gmean_ci as gci
from searchlab.analysis.format import number, panel_title, percent
from searchlab.analysis.markdown_tables import md_table
from searchlab.analysis.theory import knuth_moore_nodes

__all__ = [
    "prepare", "relative_to_perfect", "ebf_by_policy", "fail_high_first", "id_overhead",
    "tt_rates", "solved_share", "value_agreement", "plot_relative_to_perfect", "plot_ebf",
    "plot_fail_high_first", "policies_section", "STRONG_ENGINE_FHF",
]

#: Share of cutoffs on the first move that strong chess engines report (about 90 %; e.g. the
#: Chess Programming Wiki's "Move Ordering" page and engine authors' statistics).
STRONG_ENGINE_FHF = 0.90
#: Node budgets (per position) at which chess_suites' solved share is reported.
DEFAULT_BUDGETS = (1_000, 10_000, 100_000)
_BASE_ORDER = ["worst", "natural", "random", "static", "centre", "corners", "captures", "adjacent",
               "perfect"]


# --------------------------------------------------------------------------- preparation

def _num(v) -> Optional[float]:
    try:
        x = float(v)
    except (TypeError, ValueError):
        return None
    return x if math.isfinite(x) else None


def _setting(row: pd.Series) -> str:
    game = row.get("game")
    if isinstance(game, str) and game:
        src = row.get("positions")
        label = f"{game} {src}" if isinstance(src, str) and src else game
        if game == "chess" and isinstance(src, str) and src:
            # a seeded sample of the suite file, not its first positions (ordering_checks' WAC 1-n)
            label += " (seeded sample)"
        if isinstance(row.get("position"), str) and row["position"].startswith("ply") \
                and "#" in row["position"]:        # a seeded random position (othello, hex, ...)
            ply = row['position'].split('#')[0].removeprefix('ply')
            # a game whose one random source names nothing (othello's `random`): no source
            one = len(game_registry()[game].sources) == 1 if game in game_registry() \
                else src == "random"
            label = f"{game} ply {ply}" if one else f"{label} ply {ply}"
        return label
    parts = [str(row.get("tree"))]
    if _num(row.get("b")) is not None:
        parts.append(f"b={int(row['b'])}")
    for k, short in (("levels", "levels"), ("p", "p"), ("decay", "decay"), ("correlation", "corr")):
        v = _num(row.get(k))
        if v is not None:
            parts.append(f"{short}={v:g}")
    return " ".join(parts)


def _policy_key(p: str) -> tuple:
    parts = describe(p).written
    base = [x for x in parts if x in _BASE_ORDER]
    rank = _BASE_ORDER.index(base[0]) if base else 1
    return (p.count(":"), rank == len(_BASE_ORDER) - 1, len(parts), rank, p)


def policies_in(df: pd.DataFrame) -> list[str]:
    """The table's policies in display order (simple before composite, perfect last)."""
    return sorted(df["policy"].unique(), key=_policy_key)


def prepare(table: pd.DataFrame) -> pd.DataFrame:
    """The ok rows with the columns ``setting``, ``policy``, ``unit`` (the instance or position
    shared across policies: paired comparisons) and ``bbar`` (b̄ of the row's setting)."""
    df = table[table["status"] == "ok"].copy() if "status" in table else table.copy()
    if df.empty:
        return df.assign(setting=[], policy=[], unit=[], bbar=[])
    df["setting"] = df.apply(_setting, axis=1)
    alg = df["algorithm"].astype(str)
    df["policy"] = np.where(alg == "alphabeta", df["ordering"].astype(str),
                            alg + ":" + df["ordering"].astype(str))
    # a pruning technique is part of the policy: plain alpha-beta and null move under the same
    # ordering are different searches (pooling them made one "static" bar of three)
    if "pruning" in df:
        tech = df["pruning"].fillna("none").astype(str)
        df["policy"] = np.where(tech == "none", df["policy"], df["policy"] + " · " + tech)
        df["pruning"] = tech
    if "position" in df and df["position"].notna().any():
        df["unit"] = df["position"].fillna(df["instance"].astype(str)).astype(str)
    else:
        df["unit"] = df["instance"].astype(str)
    is_game = df["game"].notna() if "game" in df else pd.Series(False, index=df.index)
    bbar = pd.Series(np.nan, index=df.index, dtype=float)
    if "branching" in df and is_game.any():
        per_setting = df[is_game].groupby("setting")["branching"].mean()
        bbar[is_game] = df.loc[is_game, "setting"].map(per_setting).astype(float)
    if "b" in df:
        bbar[~is_game] = pd.to_numeric(df.loc[~is_game, "b"], errors="coerce").astype(float)
    df["bbar"] = bbar
    df["d"] = df["d"].astype(int)
    return df


def _ensure(df: pd.DataFrame) -> pd.DataFrame:
    return df if "policy" in df.columns else prepare(df)


def _gmean_ci(x: Iterable[float]) -> tuple[float, float, float]:
    """Geometric mean of positive ratios with a 95 % percentile bootstrap CI over the units
    (searchlab.analysis.stats.gmean_ci; nan CI for fewer than two units)."""
    a = np.asarray([v for v in x if v is not None and np.isfinite(v) and v > 0], dtype=float)
    if not a.size:
        return float("nan"), float("nan"), float("nan")
    return gci(np.log(a), 499, 0)


def _gmean(x: Iterable[float]) -> float:
    a = np.asarray([v for v in x if v is not None and np.isfinite(v) and v > 0], dtype=float)
    return float(np.exp(np.log(a).mean())) if a.size else float("nan")


# --------------------------------------------------------------------------- (a) vs perfect

def relative_to_perfect(table: pd.DataFrame) -> pd.DataFrame:
    """Nodes of each policy relative to perfect order, per setting and depth.

    ``ratio`` is the geometric mean over instances/positions of nodes(policy) / nodes(perfect)
    on the same instance (paired); where the study has no perfect row at that depth and the
    setting is a synthetic tree with distinct values, the reference is the Knuth–Moore minimal
    tree's node count (``reference`` says which); ratio_lo, ratio_hi: 95 % percentile bootstrap
    CI over the instances. Knuth–Moore bounds sound search only: a policy
    with an unsound pruning technique is compared with perfect order under the same technique,
    and left out where the run has no such rows. Columns: setting, d, policy, n, mean_nodes,
    perfect_nodes, ratio, ratio_lo, ratio_hi, reference.
    """
    df = _ensure(table)
    rows = []
    for (setting, d), g in df.groupby(["setting", "d"], sort=True):
        perf = g[g["policy"] == "perfect"].set_index("unit")["nodes"]
        tree_km = None
        is_tree = "game" not in g or g["game"].isna().all()
        if perf.empty and is_tree:
            b = _num(g["b"].iloc[0]) if "b" in g else None
            model = g["tree"].iloc[0] if "tree" in g else None
            if b is not None and model in ("iid", "incremental", "ordered") and \
                    not (_num(g["levels"].iloc[0]) or 0):
                tree_km = float(knuth_moore_nodes(int(b), int(d)))
        for policy, p in g.groupby("policy"):
            tech = str(p["pruning"].iloc[0]) if "pruning" in p else "none"
            if tech != "none":
                # an unsound technique against perfect order: only with its own perfect rows
                own = g[(g["policy"] == f"perfect · {tech}")].set_index("unit")["nodes"]
                if own.empty or policy == f"perfect · {tech}":
                    continue
                pn = p.set_index("unit")["nodes"]
                common = pn.index.intersection(own.index)
                if common.empty:
                    continue
                ratio, lo, hi = _gmean_ci(pn[common].astype(float) / own[common].astype(float))
                rows.append(dict(setting=setting, d=int(d), policy=policy, n=len(common),
                                 mean_nodes=float(p["nodes"].mean()),
                                 perfect_nodes=float(own[common].mean()),
                                 ratio=ratio, ratio_lo=lo, ratio_hi=hi,
                                 reference=f"perfect · {tech} rows"))
                continue
            if not perf.empty:
                pn = p.set_index("unit")["nodes"]
                common = pn.index.intersection(perf.index)
                if common.empty:
                    continue
                ratio, lo, hi = _gmean_ci(pn[common].astype(float) / perf[common].astype(float))
                ref, pnodes = "perfect rows", float(perf[common].mean())
            elif tree_km is not None:
                ratio, lo, hi = _gmean_ci(p["nodes"].astype(float) / tree_km)
                ref, pnodes = "Knuth-Moore", tree_km
            else:
                continue
            rows.append(dict(setting=setting, d=int(d), policy=policy, n=len(p),
                             mean_nodes=float(p["nodes"].mean()), perfect_nodes=pnodes,
                             ratio=ratio, ratio_lo=lo, ratio_hi=hi, reference=ref))
    return pd.DataFrame(rows, columns=["setting", "d", "policy", "n", "mean_nodes",
                                       "perfect_nodes", "ratio", "ratio_lo", "ratio_hi",
                                       "reference"])


# --------------------------------------------------------------------------- (b) EBF

def ebf_by_policy(table: pd.DataFrame, min_depth: int = 2) -> pd.DataFrame:
    """EBF per setting and policy: the ``fit`` estimator over the depths >= min_depth (mean
    nodes per depth), and R&N b* at the deepest depth, against b̄, b̄^(3/4) and √b̄.

    Columns: setting, policy, depths (e.g. "2-8"), n (instances/positions at the deepest
    depth), bbar, ebf_fit, ebf_lo, ebf_hi (95 % bootstrap CI over instances/positions,
    resampled jointly across depths), rn_bstar, exponent (log ebf_fit / log b̄), sqrt_bbar,
    bbar_34 (b̄^(3/4)).
    """
    df = _ensure(table)
    rows = []
    for (setting, policy), g in df.groupby(["setting", "policy"], sort=True):
        means = g.groupby("d")["nodes"].mean()
        use = means[means.index >= min_depth]
        if len(use) < 2:
            use = means
        if len(use) < 2:
            continue
        try:
            fit = fit_growth(use.index.to_numpy(), use.to_numpy(), method="parity")
            ebf = fit.beff
        except ValueError:
            ebf = float("nan")
        lo = hi = float("nan")
        if math.isfinite(ebf):
            # the same fit on the instance x depth matrix, units resampled jointly over depths
            gu = g[g["d"].isin(use.index)].assign(instance=lambda x: x["unit"])
            depths, _, mat = count_matrix(gu, "nodes")
            if mat.shape[0] >= 2:
                try:
                    est, _, _ = fit_with_ci(depths, mat, None, n_resamples=499)
                    lo, hi = est.low, est.high
                except ValueError:
                    pass
        dmax = int(means.index.max())
        nmax = float(means.loc[dmax])
        bstar = rn_bstar(nmax, dmax) if dmax >= 1 and nmax >= 1 else float("nan")
        bbar = float(g["bbar"].mean())
        rows.append(dict(setting=setting, policy=policy,
                         depths=f"{int(use.index.min())}-{int(use.index.max())}",
                         n=int((g["d"] == dmax).sum()), bbar=bbar, ebf_fit=ebf, ebf_lo=lo,
                         ebf_hi=hi, rn_bstar=bstar,
                         exponent=(math.log(ebf) / math.log(bbar)
                                   if ebf > 0 and bbar > 1 and math.isfinite(ebf) else float("nan")),
                         sqrt_bbar=math.sqrt(bbar) if bbar > 0 else float("nan"),
                         bbar_34=bbar ** 0.75 if bbar > 0 else float("nan")))
    return pd.DataFrame(rows, columns=["setting", "policy", "depths", "n", "bbar", "ebf_fit",
                                       "ebf_lo", "ebf_hi", "rn_bstar", "exponent", "sqrt_bbar", "bbar_34"])


# --------------------------------------------------------------------------- (c) fail high first

def fail_high_first(table: pd.DataFrame) -> pd.DataFrame:
    """Share of cut events made by the first move searched, per setting, policy and depth:
    pooled (sum of first_move_fail_highs / sum of fail_highs over the rows) and the mean of the
    per-search rates. Columns: setting, d, policy, n, fail_highs, pooled_rate, pooled_lo,
    pooled_hi (95 % percentile bootstrap over the searches), mean_rate."""
    df = _ensure(table)
    if "fail_highs" not in df:
        return pd.DataFrame(columns=["setting", "d", "policy", "n", "fail_highs",
                                     "pooled_rate", "pooled_lo", "pooled_hi", "mean_rate"])
    df = df[df["fail_highs"].notna()]
    rows = []
    for (setting, d, policy), g in df.groupby(["setting", "d", "policy"], sort=True):
        fh = float(g["fail_highs"].sum())
        first = float(g["first_move_fail_highs"].sum())
        lo = hi = float("nan")
        if fh and len(g) >= 2:
            # the pooled rate's CI: searches resampled (a search's cut events are not independent)
            f_, n_ = g["first_move_fail_highs"].to_numpy(float), g["fail_highs"].to_numpy(float)
            idx = np.random.default_rng(0).integers(0, len(g), size=(499, len(g)))
            tot = n_[idx].sum(axis=1)
            boot = np.divide(f_[idx].sum(axis=1), tot, out=np.full(len(tot), np.nan), where=tot > 0)
            lo, hi = (float(x) for x in np.nanpercentile(boot, [2.5, 97.5]))
        rows.append(dict(setting=setting, d=int(d), policy=policy, n=len(g), fail_highs=int(fh),
                         pooled_rate=first / fh if fh else float("nan"), pooled_lo=lo, pooled_hi=hi,
                         mean_rate=float(g["fail_high_first_rate"].mean())))
    return pd.DataFrame(rows, columns=["setting", "d", "policy", "n", "fail_highs",
                                       "pooled_rate", "pooled_lo", "pooled_hi", "mean_rate"])


# --------------------------------------------------------------------------- (d) ID overhead

def _without_id(policy: str) -> Optional[str]:
    head, _, spec = policy.rpartition(":")
    written = describe(spec).written
    parts = [p for p in written if p != "id"]
    if len(parts) == len(written):
        return None
    rest = "+".join(parts) if parts else "natural"
    return f"{head}:{rest}" if head else rest


def id_overhead(table: pd.DataFrame) -> pd.DataFrame:
    """Does iterative deepening pay for itself? For every policy with ``id``, per setting and
    depth: mean total nodes (all iterations), mean last-iteration nodes, the earlier
    iterations' share of the total, and the same policy without ``id`` (``id`` alone -> natural,
    ``id+killer`` -> killer, ...) on the same instances: ``ratio`` = geometric mean of
    total(id policy) / nodes(counterpart); ``pays`` = ratio < 1. Columns: setting, d, policy,
    n, total_nodes, last_iteration_nodes, earlier_share, counterpart, counterpart_nodes, ratio,
    pays."""
    df = _ensure(table)
    rows = []
    for (setting, d), g in df.groupby(["setting", "d"], sort=True):
        by_policy = {p: x.set_index("unit") for p, x in g.groupby("policy")}
        for policy, x in by_policy.items():
            counterpart = _without_id(policy)
            if counterpart is None:
                continue
            total = x["nodes"].astype(float)
            last = x["last_iteration_nodes"].astype(float) if "last_iteration_nodes" in x \
                else total
            ratio, cnodes = float("nan"), float("nan")
            other = by_policy.get(counterpart)
            if other is not None:
                common = total.index.intersection(other.index)
                if not common.empty:
                    ratio = _gmean(total[common] / other.loc[common, "nodes"].astype(float))
                    cnodes = float(other.loc[common, "nodes"].mean())
            rows.append(dict(setting=setting, d=int(d), policy=policy, n=len(x),
                             total_nodes=float(total.mean()),
                             last_iteration_nodes=float(last.mean()),
                             earlier_share=float(1 - last.sum() / total.sum()) if total.sum() else float("nan"),
                             counterpart=counterpart if other is not None else None,
                             counterpart_nodes=cnodes, ratio=ratio,
                             pays=(bool(ratio < 1) if math.isfinite(ratio) else None)))
    return pd.DataFrame(rows, columns=["setting", "d", "policy", "n", "total_nodes",
                                       "last_iteration_nodes", "earlier_share", "counterpart",
                                       "counterpart_nodes", "ratio", "pays"])


# --------------------------------------------------------------------------- (e) TT

def tt_rates(table: pd.DataFrame) -> pd.DataFrame:
    """Transposition-table work per setting, policy and depth, for rows that probed a table:
    probes, hit rate (pooled hits / probes), cutoff rate (pooled tt_cutoffs / probes).
    ``id`` without ``tt`` keeps a move-only table (hits give a move, never a cutoff)."""
    df = _ensure(table)
    if "tt_probes" not in df:
        return pd.DataFrame(columns=["setting", "d", "policy", "n", "probes", "hit_rate",
                                     "cutoff_rate"])
    df = df[df["tt_probes"].fillna(0) > 0]
    rows = []
    for (setting, d, policy), g in df.groupby(["setting", "d", "policy"], sort=True):
        probes = float(g["tt_probes"].sum())
        rows.append(dict(setting=setting, d=int(d), policy=policy, n=len(g), probes=int(probes),
                         hit_rate=float(g["tt_hits"].sum()) / probes,
                         cutoff_rate=float(g["tt_cutoffs"].sum()) / probes))
    return pd.DataFrame(rows, columns=["setting", "d", "policy", "n", "probes", "hit_rate",
                                       "cutoff_rate"])


# --------------------------------------------------------------------------- chess suites

def solved_share(table: pd.DataFrame, budgets: Sequence[int] = DEFAULT_BUDGETS) -> pd.DataFrame:
    """EPD suites (rows with ``solved`` set): the share of positions solved per setting and
    policy, at each fixed depth and at each node budget.

    At a node budget N a policy reaches, on each position, the deepest depth k it completes
    within N nodes: for policies with ``id`` the row at depth k already counts every iteration
    (nodes(k) <= N); for the others the search is restarted at every depth, as plain iterative
    deepening without information kept (sum of nodes(1..k) <= N). The position counts as solved
    when the row at that depth solved it (none reached: unsolved). Columns: setting, policy,
    limit ("d=3" or "N=10000"), n, solved, share, mean_depth (depth reached, budgets only).
    """
    df = _ensure(table)
    if "solved" not in df or df["solved"].isna().all():
        return pd.DataFrame(columns=["setting", "policy", "limit", "n", "solved", "share",
                                     "mean_depth"])
    df = df[df["solved"].notna()]
    rows = []
    for (setting, policy), g in df.groupby(["setting", "policy"], sort=True):
        for d, x in g.groupby("d"):
            s = int(x["solved"].astype(bool).sum())
            rows.append(dict(setting=setting, policy=policy, limit=f"d={int(d)}", n=len(x),
                             solved=s, share=s / len(x), mean_depth=float(d)))
        has_id = describe(policy).has("id")
        for budget in budgets:
            solved, depths, n = 0, [], 0
            for _, pos in g.groupby("unit"):
                pos = pos.sort_values("d")
                cost = pos["nodes"].astype(float).to_numpy()
                if not has_id:
                    cost = np.cumsum(cost)      # restarted at every depth
                ok = (cost <= budget) & (pos["d"].to_numpy() == np.arange(1, len(pos) + 1))
                reach = int(np.max(np.where(ok, pos["d"].to_numpy(), 0)))
                n += 1
                depths.append(reach)
                if reach:
                    solved += bool(pos.loc[pos["d"] == reach, "solved"].iloc[0])
            rows.append(dict(setting=setting, policy=policy, limit=f"N={budget:,}", n=n,
                             solved=solved, share=solved / n if n else float("nan"),
                             mean_depth=float(np.mean(depths)) if depths else float("nan")))
    return pd.DataFrame(rows, columns=["setting", "policy", "limit", "n", "solved", "share",
                                       "mean_depth"])


def value_agreement(table: pd.DataFrame) -> pd.DataFrame:
    """Do all alpha-beta policies return the same root value? Per setting and depth: the
    (instance/position) units searched by at least two alpha-beta-family policies, and the share
    whose values all agree with the first policy's (to 1e-9). Only plain alpha-beta rows
    (``pruning`` none) enter: the claim is that the ordering does not change a sound search's
    value; what an unsound technique changes is :func:`searchlab.studies.sweep.facets.pruning_effect`."""
    df = _ensure(table)
    if "pruning" in df:       # orderings are compared within one technique, never across them
        df = df[df["pruning"].astype(str) == "none"]
    rows = []
    for (setting, d), g in df.groupby(["setting", "d"], sort=True):
        units = agree = 0
        for _, u in g.groupby("unit"):
            vals = u["value"].astype(float).to_numpy()
            if len(vals) < 2:
                continue
            units += 1
            agree += bool(np.all(np.abs(vals - vals[0]) <= 1e-9))
        if units:
            rows.append(dict(setting=setting, d=int(d), units=units, agree=agree,
                             share=agree / units))
    return pd.DataFrame(rows, columns=["setting", "d", "units", "agree", "share"])


# --------------------------------------------------------------------------- figures

def _panels(settings: list[str], max_panels: int = 6, width: float = 4.6, height: float = 3.6, ax=None):
    """(figure, [(setting, Axes)]): a grid of new panels, or the caller's ``ax`` (one Axes per
    setting; ValueError names how many)."""
    settings = settings[:max_panels]
    n = len(settings)
    given = given_axes(ax, n, "one panel per setting: " + "; ".join(settings))
    if given is not None:
        return given[0].figure, list(zip(settings, given))
    grid = paper_grid(n)
    if grid:
        rows, cols, size = grid
    else:
        cols = min(3, n)
        rows = math.ceil(n / cols)
        size = (width * cols, height * rows)
    fig, axes = plt.subplots(rows, cols, figsize=size, squeeze=False, layout="constrained")
    for ax in axes.flat[n:]:
        ax.set_visible(False)
    return fig, list(zip(settings, axes.flat))


def _finish(fig, panels, title: str, owned: bool):
    """The figure's one legend and title, or, on the caller's axes, a legend in the last panel
    (the caller's figure is theirs to title); returns what the figure function returns."""
    if owned:
        panels[-1][1].legend(fontsize=6)
        return panels[0][1] if len(panels) == 1 else [a for _, a in panels]
    _legend(fig, panels)
    if not in_paper_style():          # a paper's caption says it
        fig.suptitle(title, fontsize=10)
    return fig


def _legend(fig, panels) -> None:
    """One legend for the figure, below the panels: every label once, in as many columns as
    the figure's width holds (so it never covers a panel or runs off the page)."""
    seen: dict = {}
    for _, ax in panels:
        for h, lab in zip(*ax.get_legend_handles_labels()):
            seen.setdefault(lab, h)
    if not seen:
        return
    longest = max(len(k) for k in seen)
    ncol = max(1, min(len(seen), int(fig.get_figwidth() * 72 / (7 * 0.62 * (longest + 5)))))
    fig.legend(list(seen.values()), list(seen.keys()), fontsize=7, loc="outside lower center",
               ncol=ncol, frameon=False)


def _style(policy: str) -> dict:
    """The policy's fixed style (searchlab.analysis.palette: one colour per ordering everywhere)."""
    return policy_style(policy)


def _int_ticks(ax) -> None:
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))


def _log_if_wide(ax, span: float) -> None:
    """A log y-axis only where the values span more than a factor 10 (plain tick labels)."""
    if np.isfinite(span) and span > 10:
        ax.set_yscale("log")
        # ticks at 1, 2, 5 x 10^k: a panel spanning less than a decade (b = 2) still has
        # readable values, printed as plain numbers (1, 2, 5, 10, not 1.0 or 10^1)
        ax.yaxis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
        ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
        ax.yaxis.set_minor_formatter(NullFormatter())


def _err(v, lo, hi) -> np.ndarray:
    v, lo, hi = (np.asarray(x, dtype=float) for x in (v, lo, hi))
    lo = np.where(np.isfinite(lo), lo, v)
    hi = np.where(np.isfinite(hi), hi, v)
    return np.vstack([np.maximum(v - lo, 0), np.maximum(hi - v, 0)])


def _lines(ax, frame: pd.DataFrame, policies: list[str], value: str, lo: str, hi: str) -> None:
    """One line per policy against d with its 95 % CI as error bars; policies dodged in x so
    bars at one depth do not hide each other."""
    k = len(policies)
    for i, policy in enumerate(policies):
        p = frame[frame["policy"] == policy].sort_values("d")
        if len(p):
            x = p["d"].to_numpy(float) + (0.24 * (i - (k - 1) / 2) / max(k - 1, 1) if k > 1 else 0)
            ax.errorbar(x, p[value], yerr=_err(p[value], p[lo], p[hi]), label=policy, capsize=2,
                        lw=1.1, elinewidth=0.8, **_style(policy))


def figure_relative_to_perfect(rel: pd.DataFrame, ax=None):
    """The Figure of :func:`plot_relative_to_perfect` (None when ``rel`` is empty); with
    ``ax`` (one Axes per setting) drawn there and the Axes returned."""
    if rel.empty:
        return None
    owned = ax is not None
    fig, panels = _panels(sorted(rel["setting"].unique()), ax=ax)
    pols = sorted(rel["policy"].unique(), key=_policy_key)
    for setting, ax in panels:
        _lines(ax, rel[rel["setting"] == setting], pols, "ratio", "ratio_lo", "ratio_hi")
        ax.axhline(1.0, color="k", lw=0.8, ls=":")
        _int_ticks(ax)
        _log_if_wide(ax, rel["ratio_hi"].fillna(rel["ratio"]).max() / rel["ratio_lo"].fillna(rel["ratio"]).min())
        ax.set_title(panel_title(setting), fontsize=None if in_paper_style() else 9)
        ax.set_xlabel("depth $d$")
        ax.set_ylabel("nodes / perfect order")
    return _finish(fig, panels, "Nodes relative to perfect order (geometric mean over instances, 95 % CI)",
                   owned)


def plot_relative_to_perfect(rel: pd.DataFrame, path: Path, fmt: str = "png") -> Optional[Path]:
    """Nodes / perfect-order nodes against depth, one line per policy (95 % CI), a panel per
    setting."""
    fig = figure_relative_to_perfect(rel)
    return None if fig is None else save(fig, path, fmt)


def figure_ebf(ebf: pd.DataFrame, ax=None):
    """The Figure of :func:`plot_ebf` (None when no EBF is finite); with ``ax`` (one Axes per
    setting) drawn there and the Axes returned."""
    ebf = ebf[np.isfinite(ebf["ebf_fit"].astype(float))]
    if ebf.empty:
        return None
    pols = sorted(ebf["policy"].unique(), key=_policy_key)
    owned = ax is not None
    fig, panels = _panels(sorted(ebf["setting"].unique()),
                          height=max(2.6, 1.2 + 0.26 * len(pols)), ax=ax)
    for setting, ax in panels:
        s = ebf[ebf["setting"] == setting].set_index("policy").reindex([p for p in pols if p in
                                                                        set(ebf.loc[ebf["setting"] == setting, "policy"])])
        y = np.arange(len(s))
        ax.barh(y, s["ebf_fit"], color=[_style(p)["color"] for p in s.index],
                hatch=["//" if split_policy(p)[2] != "none" else "" for p in s.index],
                xerr=_err(s["ebf_fit"], s["ebf_lo"], s["ebf_hi"]), capsize=2,
                error_kw=dict(lw=0.8), edgecolor="white")
        bbar = float(s["bbar"].iloc[0])
        for val, lab, ls in ((bbar, r"$\bar b$", "-"), (bbar ** 0.75, r"$\bar b^{3/4}$", "--"),
                             (math.sqrt(bbar), r"$\sqrt{\bar b}$", ":")):
            ax.axvline(val, color="k", lw=0.9, ls=ls, label=lab)
        ax.set_yticks(y, s.index, fontsize=None if in_paper_style() else 7)
        ax.invert_yaxis()
        ax.set_xlim(0, bbar * 1.08)
        ax.set_title(f"{panel_title(setting)} ($\\bar b = {number(bbar, 3)}$)",
                     fontsize=None if in_paper_style() else 9)
        ax.set_xlabel("nodes EBF (fit of nodes, 95 % CI)")
    return _finish(fig, panels, "Nodes EBF per policy (fit of nodes; hatched: a pruning technique)",
                   owned)


def plot_ebf(ebf: pd.DataFrame, path: Path, fmt: str = "png") -> Optional[Path]:
    """EBF (fit of nodes, 95 % CI) per policy as horizontal bars, a panel per setting, with b̄,
    b̄^(3/4) and √b̄ as lines."""
    fig = figure_ebf(ebf)
    return None if fig is None else save(fig, path, fmt)


def figure_fail_high_first(fhf: pd.DataFrame, ax=None):
    """The Figure of :func:`plot_fail_high_first` (None when no rate is finite); with ``ax``
    (one Axes per setting) drawn there and the Axes returned."""
    fhf = fhf[np.isfinite(fhf["pooled_rate"].astype(float))]
    if fhf.empty:
        return None
    owned = ax is not None
    fig, panels = _panels(sorted(fhf["setting"].unique()), ax=ax)
    pols = sorted(fhf["policy"].unique(), key=_policy_key)
    for setting, ax in panels:
        _lines(ax, fhf[fhf["setting"] == setting], pols, "pooled_rate", "pooled_lo", "pooled_hi")
        _int_ticks(ax)
        ax.axhline(STRONG_ENGINE_FHF, color="k", lw=1, ls="--",
                   label=f"~{STRONG_ENGINE_FHF:.0%} (strong chess engines)")
        ax.set_ylim(0, 1.02)
        ax.set_title(panel_title(setting), fontsize=None if in_paper_style() else 9)
        ax.set_xlabel("depth $d$")
        ax.set_ylabel("fail-high on first move")
    return _finish(fig, panels, "Share of cut events made by the first move (pooled, 95 % CI)",
                   owned)


def plot_fail_high_first(fhf: pd.DataFrame, path: Path, fmt: str = "png") -> Optional[Path]:
    """Pooled fail-high-first rate against depth per policy (95 % CI), with the ~90 % line."""
    fig = figure_fail_high_first(fhf)
    return None if fig is None else save(fig, path, fmt)


# --------------------------------------------------------------------------- markdown

def _md(header: list[str], rows: Iterable[Iterable]) -> str:
    return md_table(header, [[number(v) for v in r] for r in rows])


def _link(path: Optional[Path], rel_to: Path, caption: str) -> str:
    if path is None:
        return ""
    try:
        rel = Path(path).resolve().relative_to(Path(rel_to).resolve())
    except ValueError:
        rel = Path(path)
    return f"![{caption}]({rel.as_posix()})\n"


def _pivot(frame: pd.DataFrame, value: str, fmt=None, extra: Sequence[str] = ()) -> str:
    """A markdown table: one row per (setting, d), one column per policy (display order),
    cells = ``value`` formatted by ``fmt``; ``extra`` columns (constant per setting) first."""
    if frame.empty:
        return ""
    fmt = fmt or number
    pols = sorted(frame["policy"].unique(), key=_policy_key)
    keys = ["setting", "d"] if "d" in frame else ["setting"]
    rows = []
    for key, g in frame.groupby(keys, sort=True):
        key = key if isinstance(key, tuple) else (key,)
        cells = dict(zip(g["policy"], g[value]))
        first = g.iloc[0]
        rows.append([*key, *[first[e] for e in extra],
                     *[fmt(cells[p]) if p in cells else "n/a" for p in pols]])
    return _md([*keys, *extra, *pols], rows)


def policies_section(table: pd.DataFrame, fig_dir: Path | str,
                     rel_to: Path | str | None = None, level: int = 2, fmt: str = "png") -> str:
    """The markdown section on move-ordering policies of a run (figures into ``fig_dir``;
    image links relative to ``rel_to``, default fig_dir's parent). Empty string when the table
    has no ok row. Tables: one row per setting (at the deepest depth each policy reached: the
    ``d`` column), one column per policy; "n/a" where a policy did not run."""
    fig_dir = Path(fig_dir)
    rel_to = Path(rel_to) if rel_to is not None else fig_dir.parent
    df = prepare(table)
    h = "#" * level
    if df.empty:
        return ""
    out = [f"{h} Move-ordering policies\n"]
    settings = sorted(df["setting"].unique())
    pols = policies_in(df)
    n_units = df.groupby("setting")["unit"].nunique()
    out.append(f"{len(df):,} searches (status ok) over {len(settings)} setting(s) "
               f"({', '.join(f'{k}: {int(v)} instances/positions' for k, v in n_units.items())}); "
               f"policies: {', '.join(pols)}. Counts are nodes (root and leaves included; for "
               "`id` the sum over its iterations).\n")

    agree = value_agreement(df)
    if not agree.empty:
        tot_u, tot_a = int(agree["units"].sum()), int(agree["agree"].sum())
        techs = "" if "pruning" not in df or df["pruning"].eq("none").all() else \
            " (plain alpha-beta, `pruning=none`; what the pruning techniques change is in their own section)"
        out.append(f"Same value, whatever the order: comparing the orderings on the same instance "
                   f"and depth{techs}, on {tot_a:,} of {tot_u:,} (instance, depth) pairs every "
                   f"ordering returned the same root value ({percent(tot_a / tot_u)}).\n")

    rel = relative_to_perfect(df)
    out.append(f"{h}# Nodes relative to perfect order\n")
    if rel.empty:
        out.append("No perfect-order reference in this run (no `perfect` rows, and the setting "
                   "is not a tree with a Knuth–Moore count).\n")
    else:
        dmax = rel.groupby("setting")["d"].transform("max")
        last = rel[rel["d"] == dmax]
        refs = ", ".join(sorted(last["reference"].unique()))
        out.append("Geometric mean over instances of nodes(policy) / nodes(perfect order) on the "
                   f"same instance (1 = perfect), at each setting's deepest depth with a "
                   f"reference ({refs}):\n")
        out.append(_pivot(last, "ratio", lambda x: number(x, 3)) + "\n")
        p = plot_relative_to_perfect(rel, fig_dir / "policies_vs_perfect", fmt)
        out.append(_link(p, rel_to, "nodes relative to perfect order"))

    ebf = ebf_by_policy(df)
    out.append(f"{h}# Nodes EBF per policy\n")
    if ebf.empty:
        out.append("Fewer than two depths per policy: no EBF.\n")
    else:
        e = ebf.copy()
        e["b̄"] = e["bbar"].map(lambda x: number(x, 3))
        e["√b̄"] = e["sqrt_bbar"].map(lambda x: number(x, 3))
        e["b̄^(3/4)"] = e["bbar_34"].map(lambda x: number(x, 3))
        widest = e.groupby("setting")["depths"].transform(
            lambda x: max(x, key=lambda r: (int(r.split("-")[1]) - int(r.split("-")[0]), r)))
        e["cell"] = [f"{number(a, 3)} (α {number(b, 2)}{'' if dp == w else f', d {dp}'})"
                     for a, b, dp, w in zip(e["ebf_fit"], e["exponent"], e["depths"], widest)]
        out.append("The nodes EBF (every node visited, interior ones too; not the leaves EBF of the "
                   "uniform-tree fits, which is the smaller at small b): the `fit` estimator "
                   "(least squares of log mean nodes on d with a parity term, depths >= 2); α = log EBF / log b̄ (1/2: perfect order's √b̄; 3/4: "
                   "random order's b̄^(3/4); 1: no pruning). b̄ = b for trees, the positions' "
                   "measured average branching factor for games. Fitted over each setting's "
                   "depths, or over the depths shown where a policy ran fewer (e.g. perfect "
                   "order's oracle):\n")
        out.append(_pivot(e, "cell", str, extra=("b̄", "√b̄", "b̄^(3/4)")) + "\n")
        p = plot_ebf(ebf, fig_dir / "policies_ebf", fmt)
        out.append(_link(p, rel_to, "nodes EBF per policy"))

    fhf = fail_high_first(df)
    out.append(f"{h}# Fail-high on the first move\n")
    fin = fhf[np.isfinite(fhf["pooled_rate"].astype(float))] if not fhf.empty else fhf
    if fin.empty:
        out.append("No cut event was counted in this run.\n")
    else:
        dmax = fin.groupby("setting")["d"].transform("max")
        last = fin[fin["d"] == dmax]
        out.append(f"Share of cut events made by the first move searched (pooled over the "
                   f"searches at each setting's deepest depth); strong chess engines report "
                   f"about {STRONG_ENGINE_FHF:.0%}:\n")
        out.append(_pivot(last, "pooled_rate", percent) + "\n")
        p = plot_fail_high_first(fhf, fig_dir / "policies_fail_high_first", fmt)
        out.append(_link(p, rel_to, "fail-high-first rate"))

    ido = id_overhead(df)
    out.append(f"{h}# Does iterative deepening pay for itself?\n")
    if ido.empty:
        out.append("No `id` policy in this run.\n")
    else:
        paid = ido[ido["pays"].notna()]
        if len(paid):
            out.append(f"Over all settings and depths, an `id` policy needed fewer nodes in total "
                       f"(all its iterations) than the same policy without `id` on the same "
                       f"instances in {int(paid['pays'].astype(bool).sum())} of {len(paid)} "
                       "comparisons.\n")
        dmax = ido.groupby("setting")["d"].transform("max")
        last = ido[ido["d"] == dmax].copy()
        last["cell"] = [f"{number(r, 3)} ({percent(s)} earlier)" if c is not None
                        else f"n/a ({percent(s)} earlier)"
                        for r, s, c in zip(last["ratio"], last["earlier_share"],
                                           last["counterpart"])]
        out.append("At each setting's deepest depth: total nodes of the `id` policy / nodes of "
                   "the same policy without `id` (geometric mean over instances; < 1 = ID pays "
                   "for itself), and in brackets the share of the total spent in the earlier "
                   "iterations (total − last iteration):\n")
        out.append(_pivot(last, "cell", str) + "\n")

    tt = tt_rates(df)
    out.append(f"{h}# Transposition table\n")
    if tt.empty:
        out.append("No policy probed a transposition table in this run.\n")
    else:
        dmax = tt.groupby("setting")["d"].transform("max")
        last = tt[tt["d"] == dmax].copy()
        last["cell"] = [f"{percent(h_)} hits, {percent(c)} cut" for h_, c in
                        zip(last["hit_rate"], last["cutoff_rate"])]
        out.append("Hit rate (entries found / probes) and cutoff rate (probes answered by the "
                   "table) at each setting's deepest depth; `id` without `tt` keeps a move-only "
                   "table (its hits order moves, they never cut):\n")
        out.append(_pivot(last, "cell", str) + "\n")

    solved = solved_share(df)
    if not solved.empty:
        out.append(f"{h}# Test suites: solved share\n")
        out.append("Positions whose best move is a suite solution (`EpdPosition.is_solution`), at "
                   "fixed depth d and at a fixed node budget N per position (the deepest depth "
                   "completed within N: `id` policies' counts include their iterations, other "
                   "policies restart at every depth; mean depth reached in brackets):\n")
        sv = solved.copy()
        sv["cell"] = [f"{percent(sh)}" if lim.startswith("d=") else f"{percent(sh)} (d {number(md, 2)})"
                      for sh, lim, md in zip(sv["share"], sv["limit"], sv["mean_depth"])]
        sv["order"] = [(0, int(lim[2:])) if lim.startswith("d=")
                       else (1, int(lim[2:].replace(",", ""))) for lim in sv["limit"]]
        pols_s = sorted(sv["policy"].unique(), key=_policy_key)
        rows = []
        for (setting, _o, lim), g in sv.sort_values("order").groupby(
                ["setting", "order", "limit"], sort=True):
            cells = dict(zip(g["policy"], g["cell"]))
            rows.append([setting, lim, int(g["n"].iloc[0]),
                         *[cells.get(p, "n/a") for p in pols_s]])
        out.append(_md(["setting", "limit", "positions", *pols_s], rows) + "\n")
    return "\n".join(x for x in out if x)
