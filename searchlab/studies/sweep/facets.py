"""The axes a run swept, and what a pruning technique changes against plain alpha-beta.

A run's report splits every table, section and figure by the axes the run swept (the
identifier columns with more than one value among its ok rows): :func:`swept_axes` names them.
Pooling two values of a swept axis into one row or bar would compare unlike things (plain
alpha-beta with null move, one game with another), so a comparison must say which axis it
holds fixed and which it compares.

:func:`pruning_effect` is the comparison a pruning sweep is run for: each technique against
plain alpha-beta (``pruning == "none"``) on the same instance, depth, ordering and algorithm
(paired): the node ratio (geometric mean over instances of nodes(technique) / nodes(none), with
a 95 % bootstrap CI over instances), the share of searches whose root move changed
(``best_move`` differs) and the share whose root value changed. Plain alpha-beta is the exact
reference: it returns minimax's value (tested in tests/), so a changed move or value is an
error of the unsound technique.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Optional

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.ticker import MaxNLocator

from searchlab.algorithms.ordering_registry import describe
from searchlab.analysis.figures import figsize, given_axes, in_paper_style, save
from searchlab.analysis.format import number, panel_title, percent
from searchlab.analysis.palette import technique_style
from searchlab.studies.sweep.policies import prepare
from searchlab.analysis.stats import gmean_ci
from searchlab.analysis.markdown_tables import md_table

__all__ = ["FACET_AXES", "swept_axes", "coverage_note", "is_sound", "pruning_effect", "pruning_ranges",
           "figure_pruning_effect", "pruning_section"]

#: the axes a report splits by, in the order they appear as columns
FACET_AXES = ["game", "tree", "b", "algorithm", "ordering", "pruning"]

#: the pruning value that is plain (sound) alpha-beta
PLAIN = "none"


def swept_axes(df: pd.DataFrame, axes=FACET_AXES) -> list[str]:
    """The axes among ``axes`` with more than one distinct non-null value in ``df``'s ok rows."""
    ok = df[df["status"].astype(str) == "ok"] if "status" in df.columns else df
    return [a for a in axes if a in ok.columns and ok[a].dropna().nunique() > 1]


def coverage_note(df: pd.DataFrame) -> str:
    """One sentence per ordering that needs static values at interior nodes and ran on only
    some of the run's tree models (searchlab.experiment.grid.static_only); '' otherwise."""
    ok = df[df["status"].astype(str) == "ok"] if "status" in df.columns else df
    if "tree" not in ok.columns or ok["tree"].dropna().nunique() < 2:
        return ""
    trees = sorted(ok["tree"].dropna().unique())
    out = []
    for o in sorted(ok["ordering"].dropna().unique()):
        if not describe(o).has("id"):
            continue
        on = sorted(ok.loc[ok["ordering"] == o, "tree"].dropna().unique())
        if on and on != trees:
            out.append(f"`{o}` (iterative deepening) ran on the {', '.join(on)} trees only: it "
                       "evaluates shallower horizons, which needs static values at interior "
                       f"nodes, and the {', '.join(t for t in trees if t not in on)} model draws "
                       "leaf values only.")
    return " ".join(out)


def is_sound(pruning: Optional[str]) -> bool:
    """True for plain alpha-beta (no technique, or ``none``): the search that returns
    minimax's value whatever the order."""
    return pruning is None or (isinstance(pruning, float) and math.isnan(pruning)) \
        or str(pruning) == PLAIN


def pruning_effect(table: pd.DataFrame, *, n_resamples: int = 999, seed: int = 0) -> pd.DataFrame:
    """Every pruning technique against plain alpha-beta, paired, per setting, policy and depth.

    ``table``: a run's rows (ok rows are used; needs ``pruning``, ``nodes``, ``value``,
    ``best_move``). Columns: technique, setting, policy, d, n (paired searches), node_ratio,
    node_ratio_lo, node_ratio_hi (95 % bootstrap CI over instances), move_changed (share of
    searches whose root move differs from plain alpha-beta's), moves_changed (their count),
    value_changed (share whose root value differs by more than 1e-9). Empty when the table has
    no plain rows or no technique."""

    cols = ["technique", "setting", "policy", "d", "n", "node_ratio", "node_ratio_lo",
            "node_ratio_hi", "move_changed", "moves_changed", "value_changed"]
    if "pruning" not in table.columns:
        return pd.DataFrame(columns=cols)
    df = prepare(table)
    if df.empty:
        return pd.DataFrame(columns=cols)
    df = df.assign(pruning=df["pruning"].fillna(PLAIN).astype(str))
    # the policy label of policies.prepare carries the technique; pair on the ordering alone
    df = df.assign(policy=np.where(df["algorithm"].astype(str) == "alphabeta",
                                   df["ordering"].astype(str),
                                   df["algorithm"].astype(str) + ":" + df["ordering"].astype(str)))
    keys = ["setting", "policy", "d", "unit"]
    base = df[df["pruning"] == PLAIN].drop_duplicates(keys).set_index(keys)
    if base.empty:
        return pd.DataFrame(columns=cols)
    rows = []
    for tech, t in df[df["pruning"] != PLAIN].groupby("pruning", sort=True):
        t = t.drop_duplicates(keys).set_index(keys)
        common = t.index.intersection(base.index)
        if common.empty:
            continue
        t, b = t.loc[common], base.loc[common]
        paired = pd.DataFrame({
            "log_ratio": np.log(t["nodes"].astype(float).to_numpy() / b["nodes"].astype(float).to_numpy()),
            "moved": (t["best_move"].astype(str).to_numpy() != b["best_move"].astype(str).to_numpy()),
            "valued": np.abs(t["value"].astype(float).to_numpy() - b["value"].astype(float).to_numpy()) > 1e-9,
        }, index=common).reset_index()
        for (setting, policy, d), g in paired.groupby(["setting", "policy", "d"], sort=True):
            v, lo, hi = gmean_ci(g["log_ratio"].to_numpy(), n_resamples, seed)
            rows.append(dict(technique=tech, setting=setting, policy=policy, d=int(d), n=len(g),
                             node_ratio=v, node_ratio_lo=lo, node_ratio_hi=hi,
                             move_changed=float(g["moved"].mean()), moves_changed=int(g["moved"].sum()),
                             value_changed=float(g["valued"].mean())))
    return pd.DataFrame(rows, columns=cols)


def pruning_ranges(effect: pd.DataFrame, *, min_depth: int = 2) -> pd.DataFrame:
    """Per technique: the range over settings and policies of the node ratio at each one's
    deepest depth (where the saving is largest and most relevant), and the root moves changed
    over every depth >= min_depth (pooled count and the range over (setting, policy, depth)
    cells). Columns: technique, settings, ratio_min, ratio_max, cells, searches, moves_changed,
    moved_share, moved_min, moved_max."""
    cols = ["technique", "settings", "ratio_min", "ratio_max", "cells", "searches",
            "moves_changed", "moved_share", "moved_min", "moved_max"]
    if effect.empty:
        return pd.DataFrame(columns=cols)
    deep = effect[effect["d"] == effect.groupby(["technique", "setting", "policy"])["d"].transform("max")]
    e = effect[effect["d"] >= min_depth]
    rows = []
    for tech, g in e.groupby("technique", sort=True):
        dg = deep[deep["technique"] == tech]
        searches = int(g["n"].sum())
        rows.append(dict(technique=tech, settings=len(dg),
                         ratio_min=float(dg["node_ratio"].min()), ratio_max=float(dg["node_ratio"].max()),
                         cells=len(g), searches=searches, moves_changed=int(g["moves_changed"].sum()),
                         moved_share=float(g["moves_changed"].sum() / searches) if searches else math.nan,
                         moved_min=float(g["move_changed"].min()), moved_max=float(g["move_changed"].max())))
    return pd.DataFrame(rows, columns=cols)


def figure_pruning_effect(effect: pd.DataFrame, ax=None):
    """Node ratio (technique / plain, 95 % CI) and move-changed share against depth, one line per
    technique (searchlab.analysis.palette's technique colours), one column of panels per setting
    and policy (up to 4). Returns the matplotlib Figure, or None for an empty ``effect``; with
    ``ax`` (2 x G Axes, G the columns: the node-ratio row first) draws there and returns them."""

    if effect.empty:
        return None
    groups = list(effect.groupby(["setting", "policy"], sort=True))[:4]
    given = given_axes(ax, 2 * len(groups), f"two rows (node ratio, move changed) of {len(groups)} "
                       "column(s), one per setting and ordering: " + "; ".join(f"{s} {p}" for (s, p), _ in groups))
    if given is None:
        fig, axes = plt.subplots(2, len(groups), figsize=figsize(4.4 * len(groups), 5.6), squeeze=False,
                                 sharex="col", layout="constrained")
    else:
        fig, axes = given[0].figure, np.asarray(given, dtype=object).reshape(2, len(groups))
    techs = sorted(effect["technique"].unique())
    for j, ((setting, policy), g) in enumerate(groups):
        for k, tech in enumerate(techs):
            t = g[g["technique"] == tech].sort_values("d")
            if t.empty:
                continue
            x = t["d"].to_numpy(float) + 0.12 * (k - (len(techs) - 1) / 2)
            st = technique_style(tech)
            lo = np.where(np.isfinite(t["node_ratio_lo"]), t["node_ratio_lo"], t["node_ratio"])
            hi = np.where(np.isfinite(t["node_ratio_hi"]), t["node_ratio_hi"], t["node_ratio"])
            axes[0, j].errorbar(x, t["node_ratio"], yerr=[np.maximum(t["node_ratio"] - lo, 0),
                                                          np.maximum(hi - t["node_ratio"], 0)],
                                capsize=2, lw=1.1, label=tech, **st)
            axes[1, j].plot(x, 100 * t["move_changed"], lw=1.1, label=tech, **st)
        axes[0, j].axhline(1.0, color="k", lw=0.8, ls=":")
        axes[0, j].set_ylim(0, max(1.08, float(effect["node_ratio_hi"].max()) * 1.05
                                   if np.isfinite(effect["node_ratio_hi"].max()) else 1.08))
        axes[0, j].set_title(f"{panel_title(setting)}\n{policy}", fontsize=None if in_paper_style() else 8)
        axes[1, j].set_ylim(0, max(5.0, 105 * float(effect["move_changed"].max())))
        axes[1, j].set_xlabel("depth $d$")
        axes[1, j].xaxis.set_major_locator(MaxNLocator(integer=True))
    axes[0, 0].set_ylabel("nodes / plain alpha-beta")
    axes[1, 0].set_ylabel("root move changed (%)")
    handles, labels = axes[0, 0].get_legend_handles_labels()
    if given is not None:
        axes[0, -1].legend(fontsize=6)
        return given
    fig.legend(handles, labels, loc="outside lower center", ncol=min(len(labels), 6),
               fontsize=None if in_paper_style() else 8, frameon=False)
    if not in_paper_style():          # a paper's caption says it
        fig.suptitle("Pruning techniques against plain alpha-beta (paired per instance, 95 % CI)", fontsize=10)
    return fig


def pruning_section(table: pd.DataFrame, *, n_resamples: int = 999, fig_dir=None, rel_to=None,
                    fmt: str = "png") -> str:
    """The report's markdown on a pruning sweep ('' when the run has no technique paired with
    plain alpha-beta): a per-technique summary, the table at each setting's deepest depth and,
    with ``fig_dir``, the figure ``pruning_effect.<fmt>`` (linked relative to ``rel_to``)."""

    eff = pruning_effect(table, n_resamples=n_resamples)
    if eff.empty:
        return ""
    rng = pruning_ranges(eff)
    out = ["Each technique against plain alpha-beta (`pruning=none`, the exact search) on the same "
           "instances, depths and ordering (paired). Node ratio: geometric mean over instances of "
           "nodes(technique) / nodes(plain) (95 % bootstrap CI over instances; < 1 = fewer nodes). "
           "Move changed: share of searches whose root move differs from plain alpha-beta's (an "
           "error of the unsound technique); value changed: share whose root value differs."]
    out.append("\n" + md_table(
        ["technique", "node ratio at the deepest d (range over settings)",
         "root move changed (d ≥ 2, pooled)", "move changed per (setting, d) cell (range)"],
        [[r.technique, f"{number(r.ratio_min, 3)} – {number(r.ratio_max, 3)} ({r.settings} settings)",
          f"{percent(r.moved_share)} ({r.moves_changed} of {r.searches} searches)",
          f"{percent(r.moved_min)} – {percent(r.moved_max)} ({r.cells} cells)"]
         for r in rng.itertuples()]))
    deep = eff[eff["d"] == eff.groupby(["technique", "setting", "policy"])["d"].transform("max")]
    rows = []
    for r in deep.sort_values(["setting", "policy", "technique"]).itertuples():
        ci = (f" [{number(r.node_ratio_lo, 3)}, {number(r.node_ratio_hi, 3)}]"
              if math.isfinite(r.node_ratio_lo) else " (no CI: n < 2)")
        rows.append([r.setting, r.policy, r.d, r.technique, r.n, number(r.node_ratio, 3) + ci,
                     f"{percent(r.move_changed)} ({r.moves_changed} of {r.n})", percent(r.value_changed)])
    out.append("\nAt each setting's deepest depth:\n\n" + md_table(
        ["setting", "ordering", "d", "technique", "n", "node ratio [95 % CI]", "move changed",
         "value changed"], rows))
    if fig_dir is not None:
        fig = figure_pruning_effect(eff)
        path = save(fig, Path(fig_dir) / "pruning_effect", fmt)
        try:
            link = path.resolve().relative_to(Path(rel_to or Path(fig_dir).parent).resolve()).as_posix()
        except ValueError:
            link = str(path)
        out.append(f"\n![pruning techniques against plain alpha-beta]({link})")
    return "\n".join(out)
