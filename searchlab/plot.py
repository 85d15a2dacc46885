"""The public figure API: every figure of a report, from a loaded table, as a matplotlib Figure.

::

    import searchlab, searchlab.plot
    table = searchlab.load("results/quick/RUN")
    fig = searchlab.plot.ebf_vs_b(table, curves=("b", "b^(3/4)", "sqrt(b)", "R_b"))
    searchlab.plot.save(fig, "beff_vs_b.pdf")

Each function takes a run's table (``searchlab.load``; the ok rows are used) and returns the
Figure without saving, showing or closing it, drawn in the report's look (:data:`palette`:
one colour per ordering policy and technique; 95 % bootstrap CIs on every estimate from
samples). With ``ax=`` (one matplotlib Axes, or a sequence of them for a figure of several
panels) it draws into the caller's axes and returns them, so a figure can go into one's own
subplot grid. Raises ValueError, in one line, when the table has nothing the figure can show
(naming what the figure needs and what the table holds).

For a paper::

    with searchlab.plot.paper_style(columns=1):      # 3.5 in wide; columns=2: 7.16 in
        fig = searchlab.plot.ebf_vs_b(table)
        searchlab.plot.save(fig, "beff.pdf")         # TrueType (Type 42) fonts, no Type 3
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterable, Sequence

import pandas as pd

from searchlab.analysis import estimators as E
from searchlab.analysis import figures as F
from searchlab.analysis import palette
from searchlab.analysis.figures import PAPER_RC, PAPER_WIDTHS, paper_style
from searchlab.studies.sweep import policies as P
from searchlab.studies.sweep.facets import figure_pruning_effect, pruning_effect
from searchlab.studies.tradeoff.tradeoff_report import pareto_figure, summarise

__all__ = ["CURVES", "exact_overlay", "ebf_vs_b", "leaves_vs_depth", "alpha_vs_b", "convergence", "policies",
           "pruning", "pareto", "save", "paper_style", "PAPER_RC", "PAPER_WIDTHS", "palette"]

#: the sweep's search table: what the tree figures read
_TREE_COLUMNS = ("b", "d", "leaves", "nodes", "ordering", "algorithm", "instance")


def _holds(table) -> str:
    """What ``table`` is, in a few words, for an error message."""
    if not isinstance(table, pd.DataFrame):
        return f"a {type(table).__name__}, not a table (searchlab.load(RUN) gives one)"
    if table.empty:
        return "an empty table"
    cols = list(table.columns)
    kind = (" (a trade-off study's table: searchlab.plot.pareto draws it)" if "domain" in cols
            else " (a game run's table: searchlab.plot.policies draws it)" if "game" in cols and
            ("b" not in cols or table["b"].isna().all()) else "")
    shown = ", ".join(map(str, cols[:10])) + (f", … ({len(cols)} columns)" if len(cols) > 10 else "")
    return f"a table of {len(table)} rows with columns {shown}{kind}"


def _require(table, columns, figure: str) -> None:
    """One clear line when ``table`` lacks a column ``figure`` reads (never a KeyError)."""
    if not isinstance(table, pd.DataFrame):
        raise ValueError(f"{figure} needs a run's table (searchlab.load(RUN)); got {_holds(table)}")
    missing = [c for c in columns if c not in table.columns]
    if missing:
        raise ValueError(f"{figure} needs a sweep's search table with columns {', '.join(columns)}; "
                         f"missing {', '.join(missing)}: got {_holds(table)}")


def _fixed_b(table: pd.DataFrame, figure: str) -> None:
    b = pd.to_numeric(table["b"], errors="coerce")
    if b.isna().all():
        raise ValueError(f"{figure} needs rows on synthetic trees with a fixed b; every b in the "
                         f"table is empty: got {_holds(table)}")

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


def _summary(table: pd.DataFrame, tree: str | None, n_resamples: int, figure: str,
             fit_depths: int | None = E.FIT_DEPTHS) -> pd.DataFrame:
    _require(table, _TREE_COLUMNS, figure)
    _fixed_b(table, figure)
    df = _trees(table, tree)
    df = df[df["algorithm"] != "minimax"] if "algorithm" in df.columns else df
    if df.empty:
        raise ValueError(f"no status-ok rows on {tree or 'synthetic'} trees with a fixed b")
    s = E.summarize(df, n_resamples=n_resamples, max_fit_depths=E.check_fit_depths(fit_depths))
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
             tree: str | None = "iid", n_resamples: int = 999, title: str | None = None, ax=None,
             fit_depths: int | None = E.FIT_DEPTHS):
    """Fitted leaves EBF b_eff (parity fit of leaves over the deepest ``fit_depths`` depths
    measured, None: all; 95 % bootstrap CI) against b (a tick at every measured b), one series
    per ordering (and technique, if pruning was swept), with any of the theory ``curves``
    (names in :data:`CURVES`; ``()`` for none). ``tree``: the tree model (None: all)."""
    s = _summary(table, tree, n_resamples, "ebf_vs_b", fit_depths).dropna(subset=["beff_fit"])
    if s.empty:
        raise ValueError("ebf_vs_b needs two or more depths per configuration; every configuration "
                         "in the table has a single depth")
    return F.plot_beff_vs_b(s, None, curves=tuple(curves), series="series", title=title, ax=ax)


def alpha_vs_b(table: pd.DataFrame, *, tree: str | None = "iid", n_resamples: int = 999,
               title: str | None = None, ax=None, fit_depths: int | None = E.FIT_DEPTHS):
    """The exponent α = log b_eff / log b (leaves EBF over the deepest ``fit_depths`` depths)
    per ordering and b (95 % CI), against 1, 3/4, 1/2 and Pearl's log R_b / log b."""
    s = _summary(table, tree, n_resamples, "alpha_vs_b", fit_depths).dropna(subset=["alpha_fit"])
    if s.empty:
        raise ValueError("alpha_vs_b needs two or more depths per configuration with b >= 2")
    return F.plot_alpha(s, None, title=title, ax=ax)


def leaves_vs_depth(table: pd.DataFrame, *, b: int | None = None, count: str = "leaves",
                    tree: str | None = "iid", title: str | None = None, ax=None):
    """Mean leaves (or ``count="nodes"``) against d per ordering (log y, 95 % CI), with b^d
    (minimax) and the Knuth–Moore minimal tree; one panel per b (``b``, or up to 4 of the
    run's; ``ax``: one Axes per panel)."""
    if count not in ("leaves", "nodes"):
        raise ValueError(f"count must be leaves or nodes; got {count!r}")
    _require(table, _TREE_COLUMNS, "leaves_vs_depth")
    _fixed_b(table, "leaves_vs_depth")
    df = _trees(table, tree)
    if df.empty or df["d"].nunique() < 2:
        raise ValueError(f"leaves_vs_depth needs status-ok rows on {tree or 'synthetic'} trees at two "
                         f"or more depths; got {_holds(table)}")
    if b is not None and b not in set(df["b"].astype(int)):
        raise ValueError(f"b must be one of the table's b: {', '.join(str(int(x)) for x in sorted(df['b'].unique()))}; "
                         f"got {b!r}")
    return F.plot_leaves_vs_depth(df, None, b=b, count=count, title=title, ax=ax)


def convergence(table: pd.DataFrame, *, b: int, ordering: str | Iterable[str] = ("natural", "random"),
                tree: str = "iid", n_resamples: int = 499, title: str | None = None, ax=None):
    """The parity-corrected growth √(N(d)/N(d−2)) (95 % CI) and N(d)^(1/d) as d grows at fixed
    b, against Pearl's R_b and b^(3/4)."""
    _require(table, _TREE_COLUMNS + ("tree",), "convergence")
    _fixed_b(table, "convergence")
    return F.plot_convergence(_trees(table, None), None, b=b, ordering=ordering, tree=tree,
                              n_resamples=n_resamples, title=title, ax=ax)


def exact_overlay(table: pd.DataFrame, *, count: str = "leaves", n_resamples: int = 499,
                  title: str | None = None, ax=None):
    """Simulated mean ``count`` (leaves or nodes) of plain alpha-beta on i.i.d. trees in natural
    or random order, as a ratio to its exact expectation (searchlab.theory ``expected_counts``,
    or ``continuous_bounds`` for continuous leaves) against d, 95 % CI over instances."""
    _require(table, ("tree", "b", "d", "ordering", "algorithm", count), "exact_overlay")
    return F.plot_exact_overlay(F.exact_overlay_table(table, count, n_resamples), None, count=count,
                                title=title, ax=ax)


_POLICY_FIGURES = {
    "ebf": (P.ebf_by_policy, P.figure_ebf),
    "vs_perfect": (P.relative_to_perfect, P.figure_relative_to_perfect),
    "fail_high_first": (P.fail_high_first, P.figure_fail_high_first),
}


def policies(table: pd.DataFrame, kind: str = "ebf", *, ax=None):
    """A move-ordering policies figure, a panel per setting (tree model and b, or game and
    position source): ``kind`` "ebf" (nodes EBF per policy, bars with CIs, against b̄,
    b̄^(3/4), √b̄), "vs_perfect" (nodes / perfect order against d) or "fail_high_first".
    ``ax``: one Axes per setting."""
    if kind not in _POLICY_FIGURES:
        raise ValueError(f"kind must be one of {', '.join(_POLICY_FIGURES)}; got {kind!r}")
    _require(table, ("d", "nodes", "ordering", "algorithm"), f"policies(kind={kind!r})")
    compute, draw = _POLICY_FIGURES[kind]
    fig = draw(compute(P.prepare(table)), ax=ax)
    if fig is None:
        raise ValueError(f"no data for the {kind!r} policies figure in this table; got {_holds(table)}")
    return fig


def pruning(table: pd.DataFrame, *, n_resamples: int = 999, ax=None):
    """Each pruning technique against plain alpha-beta (paired): node ratio (95 % CI) and the
    share of root moves changed, against d. ``ax``: 2 x G Axes (G settings and orderings; the
    node-ratio row first)."""
    _require(table, ("d", "nodes", "ordering", "algorithm", "pruning"), "pruning")
    fig = figure_pruning_effect(pruning_effect(table, n_resamples=n_resamples), ax=ax)
    if fig is None:
        raise ValueError("pruning needs a technique paired with plain alpha-beta (pruning=none) rows "
                         f"on the same instances; got {_holds(table)}")
    return fig


def pareto(table: pd.DataFrame, *, domain: str | None = None, ax=None):
    """The trade-off study's Pareto figure (experiment=unsound_tradeoff...): node savings
    against decision error per technique, for ``domain`` (default: the table's first).
    ``ax``: one Axes per variant of the domain."""
    _require(table, ("domain", "technique"), "pareto (a trade-off study's table)")
    s = summarise(table)
    if s.empty:
        raise ValueError(f"pareto found no technique measured against sound alpha-beta; got {_holds(table)}")
    domain = domain or str(s["domain"].iloc[0])
    if domain not in set(s["domain"]):
        raise ValueError(f"domain must be one of {', '.join(sorted(set(s['domain'])))}; got {domain!r}")
    return pareto_figure(s, domain, ax=ax)


def save(fig, path: Path | str, fmt: str | None = None) -> Path:
    """Write ``fig`` (a Figure, or an Axes or sequence of Axes: their figure) to ``path``
    (format from ``fmt`` or the suffix: png, pdf, svg); returns the path written. The figure
    stays open: it is the caller's (``matplotlib.pyplot.close(fig)`` when done)."""
    path = Path(path)
    fmt = fmt or (path.suffix.lstrip(".") or "png")
    if isinstance(fig, (list, tuple)):
        fig = fig[0]
    return F.save(fig, path, fmt, close=False)
