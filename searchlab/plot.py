"""The public figure API: every figure of a report, from a loaded table, as a matplotlib Figure.

::

    import searchlab, searchlab.plot
    table = searchlab.load("results/quick/RUN")
    fig = searchlab.plot.ebf_vs_b(table, curves=("b", "b^(3/4)", "sqrt(b)", "R_b"))
    searchlab.plot.save(fig, "beff_vs_b.pdf")

Each function takes a run's table (``searchlab.load``; the ok rows are used) and returns the
Figure without saving or showing it, drawn in the report's look (searchlab.analysis.palette:
one colour per ordering policy and technique; 95 % bootstrap CIs on every estimate from
samples). Raises ValueError when the table has nothing the figure can show (naming what is
missing).
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterable, Sequence

import pandas as pd

from searchlab.analysis import estimators as E
from searchlab.analysis import figures as F
from searchlab.studies.sweep import policies as P
from searchlab.studies.sweep.facets import figure_pruning_effect, pruning_effect
from searchlab.studies.tradeoff.tradeoff_report import pareto_figure, summarise

__all__ = ["CURVES", "ebf_vs_b", "leaves_vs_depth", "alpha_vs_b", "convergence", "policies",
           "pruning", "pareto", "save"]

#: the theory curves ebf_vs_b can draw: b (minimax), b^(3/4) (random-order rule), sqrt(b)
#: (perfect order, Knuth-Moore), R_b (Pearl's asymptotic branching factor of random order)
CURVES = tuple(F.CURVES)


def _trees(table: pd.DataFrame, tree: str | None) -> pd.DataFrame:
    df, _ = E.ok_rows(table)
    if "b" in df.columns:
        df = df[df["b"].notna()]
    if tree is not None and "tree" in df.columns:
        df = df[df["tree"] == tree]
    if "levels" in df.columns:
        df = df[df["levels"].fillna(0) == 0]
    for c in ("b", "d", "leaves", "nodes"):
        if c in df.columns:
            df = df.assign(**{c: pd.to_numeric(df[c])})
    return df


def _summary(table: pd.DataFrame, tree: str | None, n_resamples: int) -> pd.DataFrame:
    df = _trees(table, tree)
    df = df[df["algorithm"] != "minimax"] if "algorithm" in df.columns else df
    if df.empty:
        raise ValueError(f"no status-ok rows on {tree or 'synthetic'} trees with a fixed b")
    s = E.summarize(df, n_resamples=n_resamples)
    if s.empty:
        raise ValueError("no configuration with a complete depth to fit")
    # a swept pruning axis is part of the series: never pool techniques into one point
    if "pruning" in s.columns and s["pruning"].fillna("none").nunique() > 1:
        tech = s["pruning"].fillna("none").astype(str)
        s = s.assign(series=s["ordering"].where(tech == "none", s["ordering"] + " · " + tech))
    else:
        s = s.assign(series=s["ordering"])
    return s.sort_values(["b", "series", "d_max", "n"]).groupby(["b", "series"]).tail(1)


def ebf_vs_b(table: pd.DataFrame, *, curves: Sequence[str] = ("b", "b^(3/4)", "R_b", "sqrt(b)"),
             tree: str | None = "iid", n_resamples: int = 999, title: str | None = None):
    """Fitted b_eff (parity fit of leaves over the depths measured, 95 % bootstrap CI) against
    b, one series per ordering (and technique, if pruning was swept), with any of the theory
    ``curves`` (names in :data:`CURVES`; ``()`` for none). ``tree``: the tree model (None: all)."""
    s = _summary(table, tree, n_resamples).dropna(subset=["beff_fit"])
    if s.empty:
        raise ValueError("no fitted b_eff: every configuration has a single depth")
    return F.plot_beff_vs_b(s, None, curves=tuple(curves), series="series", title=title)


def alpha_vs_b(table: pd.DataFrame, *, tree: str | None = "iid", n_resamples: int = 999,
               title: str | None = None):
    """The exponent α = log b_eff / log b per ordering and b (95 % CI), against 1, 3/4, 1/2 and
    Pearl's log R_b / log b."""
    s = _summary(table, tree, n_resamples).dropna(subset=["alpha_fit"])
    if s.empty:
        raise ValueError("no fitted exponent")
    return F.plot_alpha(s, None, title=title)


def leaves_vs_depth(table: pd.DataFrame, *, b: int | None = None, count: str = "leaves",
                    tree: str | None = "iid", title: str | None = None):
    """Mean leaves (or ``count="nodes"``) against d per ordering (log y, 95 % CI), with b^d
    (minimax) and the Knuth–Moore minimal tree; one panel per b (``b``, or up to 4 of the run's)."""
    df = _trees(table, tree)
    if df.empty or df["d"].nunique() < 2:
        raise ValueError("leaves_vs_depth needs status-ok rows at two or more depths")
    return F.plot_leaves_vs_depth(df, None, b=b, count=count, title=title)


def convergence(table: pd.DataFrame, *, b: int, ordering: str | Iterable[str] = ("natural", "random"),
                tree: str = "iid", n_resamples: int = 499, title: str | None = None):
    """The parity-corrected growth √(N(d)/N(d−2)) (95 % CI) and N(d)^(1/d) as d grows at fixed
    b, against Pearl's R_b and b^(3/4)."""
    return F.plot_convergence(_trees(table, None), None, b=b, ordering=ordering, tree=tree,
                              n_resamples=n_resamples, title=title)


_POLICY_FIGURES = {
    "ebf": (P.ebf_by_policy, P.figure_ebf),
    "vs_perfect": (P.relative_to_perfect, P.figure_relative_to_perfect),
    "fail_high_first": (P.fail_high_first, P.figure_fail_high_first),
}


def policies(table: pd.DataFrame, kind: str = "ebf"):
    """A move-ordering policies figure, a panel per setting (tree model and b, or game and
    position source): ``kind`` "ebf" (EBF of nodes per policy, bars with CIs, against b̄,
    b̄^(3/4), √b̄), "vs_perfect" (nodes / perfect order against d) or "fail_high_first"."""
    if kind not in _POLICY_FIGURES:
        raise ValueError(f"kind must be one of {', '.join(_POLICY_FIGURES)}; got {kind!r}")
    compute, draw = _POLICY_FIGURES[kind]
    fig = draw(compute(P.prepare(table)))
    if fig is None:
        raise ValueError(f"no data for the {kind!r} policies figure in this table")
    return fig


def pruning(table: pd.DataFrame, *, n_resamples: int = 999):
    """Each pruning technique against plain alpha-beta (paired): node ratio (95 % CI) and the
    share of root moves changed, against d."""
    fig = figure_pruning_effect(pruning_effect(table, n_resamples=n_resamples))
    if fig is None:
        raise ValueError("no pruning technique paired with plain alpha-beta (pruning=none) rows")
    return fig


def pareto(table: pd.DataFrame, *, domain: str | None = None):
    """The trade-off study's Pareto figure (experiment=unsound_tradeoff...): node savings
    against decision error per technique, for ``domain`` (default: the table's first)."""
    if "domain" not in table.columns:
        raise ValueError("pareto needs a trade-off study's table (column 'domain')")
    s = summarise(table)
    domain = domain or str(s["domain"].iloc[0])
    if domain not in set(s["domain"]):
        raise ValueError(f"domain must be one of {', '.join(sorted(set(s['domain'])))}; got {domain!r}")
    return pareto_figure(s, domain)


def save(fig, path: Path | str, fmt: str | None = None) -> Path:
    """Write ``fig`` to ``path`` (format from ``fmt`` or the suffix: png, pdf, svg) and close
    it; returns the path written."""
    path = Path(path)
    fmt = fmt or (path.suffix.lstrip(".") or "png")
    return F.save(fig, path, fmt)
