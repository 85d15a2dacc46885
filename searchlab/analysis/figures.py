r"""Figures: measured effective branching factors against theory.

matplotlib with the Agg backend (no display needed), the Okabe–Ito colour-blind-safe palette,
labelled axes, legends, log scales where growth is exponential. Every function returns the path
it wrote; ``fmt`` is "png" (default), "pdf" or "svg"; with ``path=None`` it returns the
matplotlib Figure instead (searchlab.plot, the public figure API, calls them so), or, when the
caller passed its own ``ax=``, that Axes (drawn into, never closed). Each figure names its
estimator (leaves EBF or nodes EBF) and writes theory in mathtext ($b^{3/4}$, $\sqrt{b}$).

:func:`paper_style` is the look for a paper: TrueType fonts embedded as Type 42 in PDF and
PostScript (no Type 3 fonts, which IEEE PDF eXpress and ACM's checkers reject), a serif face,
8 pt text and a canvas one column (3.5 in) or two columns (7.16 in) wide.
"""

from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Iterable, Iterator, Sequence

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from matplotlib.ticker import FuncFormatter, NullFormatter, NullLocator  # noqa: E402

from searchlab.analysis import estimators as E  # noqa: E402
from searchlab.analysis import theory as T  # noqa: E402
from searchlab.analysis.stats import mean_ci  # noqa: E402
from searchlab.theory.exact import continuous_bounds, expected_counts, uniform_pmf  # noqa: E402

__all__ = ["OKABE_ITO", "ORDERING_COLOURS", "plot_beff_vs_b", "plot_leaves_vs_depth", "plot_alpha",
           "plot_convergence", "plot_alpha_vs_p", "plot_alpha_vs_levels", "save", "paper_style",
           "PAPER_WIDTHS", "PAPER_RC", "exact_overlay_table", "plot_exact_overlay", "given_axes", "figsize", "paper_grid", "in_paper_style", "b_ticks",
           "legend"]

# one palette for every figure (searchlab.analysis.palette): an ordering has the same colour here
# as in the move-ordering policies' figures
from searchlab.analysis.palette import OKABE_ITO, ORDERING_COLOURS, ordering_colour, policy_style  # noqa: E402
#: colours for series indexed by b (no yellow: too pale on white)
SERIES_COLOURS = [OKABE_ITO[c] for c in ("blue", "orange", "green", "vermillion", "purple", "skyblue", "black")]
ORDERING_MARKERS = {"worst": "v", "natural": "s", "random": "o", "static": "D", "perfect": "^"}
THEORY_STYLE = {  # (label, colour, linestyle)
    "minimax": ("$b$ (minimax)", OKABE_ITO["black"], "-"),
    "random": ("$b^{3/4}$ (random-order rule)", OKABE_ITO["skyblue"], "--"),
    "pearl": ("Pearl's $R_b$", OKABE_ITO["purple"], "-."),
    "perfect": (r"$\sqrt{b}$ (perfect order)", OKABE_ITO["green"], ":"),
}
ORDERING_ORDER = ["worst", "natural", "random", "static", "perfect"]


def _orderings(values: Iterable[str]) -> list[str]:
    vals = list(dict.fromkeys(values))
    return sorted(vals, key=lambda o: (ORDERING_ORDER.index(o) if o in ORDERING_ORDER else 99, o))


# --------------------------------------------------------------------------- paper style

#: canvas widths in inches: one column and two columns of the IEEE/ACM two-column layouts
PAPER_WIDTHS = {1: 3.5, 2: 7.16}
#: the rc settings of :func:`paper_style` (its canvas width comes on top)
PAPER_RC = {
    # Type 42 (TrueType) instead of Type 3 fonts in PDF and PostScript
    "pdf.fonttype": 42, "ps.fonttype": 42, "pdf.use14corefonts": False,
    # STIX is a Times-like TrueType face shipped with matplotlib: text and mathtext match the
    # body text of most journals, and nothing needs a TeX installation
    "font.family": "serif", "font.serif": ["STIXGeneral", "DejaVu Serif"], "mathtext.fontset": "stix",
    "font.size": 8, "axes.titlesize": 8, "axes.labelsize": 8, "legend.fontsize": 7,
    "xtick.labelsize": 7, "ytick.labelsize": 7, "figure.titlesize": 8,
    "lines.linewidth": 1.0, "lines.markersize": 4, "axes.linewidth": 0.6,
    "savefig.dpi": 300, "savefig.pad_inches": 0.02,
}
_PAPER_WIDTH: ContextVar[float | None] = ContextVar("searchlab_paper_width", default=None)


@contextmanager
def paper_style(columns: int = 1) -> Iterator[dict]:
    """Draw (and save) figures for a paper inside ``with paper_style(columns=1):``: the rc
    settings :data:`PAPER_RC` and every searchlab figure sized to ``columns`` columns
    (:data:`PAPER_WIDTHS`: 1 -> 3.5 in, 2 -> 7.16 in wide; the height keeps the figure's
    aspect), legends below the panels instead of beside them. Yields the rc settings used.
    Raises ValueError for a ``columns`` other than 1 or 2."""
    if columns not in PAPER_WIDTHS:
        raise ValueError(f"columns must be 1 (3.5 in) or 2 (7.16 in); got {columns!r}")
    width = PAPER_WIDTHS[columns]
    rc = dict(PAPER_RC, **{"figure.figsize": (width, width * 0.75)})
    token = _PAPER_WIDTH.set(width)
    try:
        with plt.rc_context(rc):
            yield rc
    finally:
        _PAPER_WIDTH.reset(token)


def figsize(width: float, height: float) -> tuple[float, float]:
    """The canvas of a figure designed at ``width`` x ``height`` inches: as designed, or under
    :func:`paper_style` the column width with the same aspect (at least 1.8 in tall)."""
    paper = _PAPER_WIDTH.get()
    if paper is None:
        return width, height
    return paper, max(1.8, paper * height / width)


def _title(title: str | None, default: str) -> str:
    """A figure's title: the caller's, else ``default``, but none by default under
    :func:`paper_style` (a paper's caption says it)."""
    return title if title else ("" if in_paper_style() else default)


def paper_grid(n: int) -> tuple[int, int, tuple[float, float]] | None:
    """Under :func:`paper_style`, (rows, columns, canvas) for ``n`` panels: one panel per row in
    one column, two in two columns, each panel 3:4; None outside the style."""
    width = _PAPER_WIDTH.get()
    if width is None:
        return None
    cols = min(n, 1 if width <= PAPER_WIDTHS[1] else 2)
    rows = -(-n // cols)
    return rows, cols, (width, rows * 0.75 * width / cols)


def in_paper_style() -> bool:
    """Whether a :func:`paper_style` block is active."""
    return _PAPER_WIDTH.get() is not None


def legend(ax, *, fontsize: float = 8, ncol: int = 2, **kwargs):
    """A legend beside the axes (the report's look), or below them under :func:`paper_style`
    (a column has no room to the side)."""
    if in_paper_style():
        return ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.22), ncol=ncol, frameon=False,
                         fontsize=None)
    return ax.legend(fontsize=fontsize, **kwargs)


def b_ticks(ax, bs: Sequence[float]) -> None:
    """A log2 x axis with a tick at every measured b, labelled as plain numbers (2, 3, 5, 8),
    not only at the powers of two."""
    ax.set_xscale("log", base=2)
    ticks = sorted({float(b) for b in bs if np.isfinite(b) and b > 0})
    ax.xaxis.set_minor_locator(NullLocator())
    ax.xaxis.set_minor_formatter(NullFormatter())
    ax.set_xticks(ticks)
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))


def given_axes(ax, n: int, what: str) -> list | None:
    """The caller's Axes for a figure of ``n`` panels (``what`` names them), or None when
    ``ax`` is None (the function makes its own figure). ``ax``: one Axes (when n is 1) or a
    sequence (or array) of n Axes. Raises ValueError naming the count it needs."""
    if ax is None:
        return None
    axes = [ax] if hasattr(ax, "plot") else list(np.ravel(np.asarray(ax, dtype=object)))
    if len(axes) != n or not all(hasattr(a, "plot") for a in axes):
        raise ValueError(f"ax must be {'one matplotlib Axes or ' if n == 1 else ''}a sequence of {n} "
                         f"matplotlib Axes for this figure ({what}); got "
                         f"{len(axes) if all(hasattr(a, 'plot') for a in axes) else type(ax).__name__}"
                         f"{' Axes' if all(hasattr(a, 'plot') for a in axes) else ''}")
    return axes


def _one_axes(ax, size: tuple[float, float]):
    """(figure, axes, whether the caller owns them) for a one-panel figure."""
    given = given_axes(ax, 1, "one panel")
    if given is not None:
        return given[0].figure, given[0], True
    fig, new = plt.subplots(figsize=figsize(*size))
    return fig, new, False


def _done(fig, ax, owned: bool, path, fmt):
    """What a figure function returns: the caller's Axes, the Figure, or the path written."""
    if path is not None:
        return save(fig, path, fmt, close=not owned)
    return ax if owned else fig


def save(fig, path: Path, fmt: str = "png", *, close: bool = True) -> Path:
    """Write ``fig`` (a Figure, or an Axes: its figure) to ``path`` with the suffix ``fmt``
    (png, pdf or svg), tight box; closes it unless ``close=False`` (a figure the caller owns)."""
    path = Path(path)
    if fmt not in ("png", "pdf", "svg"):
        raise ValueError(f"fmt must be png, pdf or svg, got {fmt!r}")
    fig = getattr(fig, "figure", fig) if not hasattr(fig, "savefig") else fig
    path = path.with_suffix("." + fmt)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=plt.rcParams["savefig.dpi"] if in_paper_style() else 130, bbox_inches="tight")
    if close:
        plt.close(fig)
    return path


def _yerr(v, lo, hi):
    v, lo, hi = (np.asarray(x, dtype=float) for x in (v, lo, hi))
    lo = np.where(np.isfinite(lo), lo, v)
    hi = np.where(np.isfinite(hi), hi, v)
    return np.vstack([np.maximum(v - lo, 0), np.maximum(hi - v, 0)])


def _theory_curves(ax, bs: np.ndarray, which=("minimax", "random", "pearl", "perfect"), exponent=False):
    grid = np.unique(np.concatenate([np.geomspace(max(2, bs.min()), bs.max(), 60), bs]))
    for reg in which:
        label, colour, ls = THEORY_STYLE[reg]
        ys = np.array([T.regime_beff(x, reg) for x in grid])
        if exponent:
            ys = np.log(ys) / np.log(grid)
        ax.plot(grid, ys, color=colour, ls=ls, lw=1.4, label=label, zorder=1)


#: curve names of searchlab.plot.ebf_vs_b -> theory regimes
CURVES = {"b": "minimax", "b^(3/4)": "random", "sqrt(b)": "perfect", "R_b": "pearl"}


def plot_beff_vs_b(summary: pd.DataFrame, path: Path | None = None, *, fmt: str = "png", title: str | None = None,
                   curves=("b", "b^(3/4)", "R_b", "sqrt(b)"), series: str = "ordering", ax=None) -> Path:
    """Fitted leaves EBF b_eff (parity fit of leaves over the run's depths, 95 % bootstrap CI)
    versus b, one series per ordering, against b, b^(3/4), √b and Pearl's R_b (log-log, a tick
    at every measured b)."""
    s = summary.dropna(subset=["beff_fit"])
    if s.empty:
        raise ValueError("no fitted b_eff to plot")
    fig, ax, owned = _one_axes(ax, (6.4, 4.6))
    bs = np.sort(s["b"].astype(float).unique())
    bad = [c for c in curves if c not in CURVES]
    if bad:
        raise ValueError(f"curves must be among {', '.join(CURVES)}; got {', '.join(map(str, bad))}")
    if curves:
        _theory_curves(ax, bs, which=[CURVES[c] for c in curves])
    for k, o in enumerate(_orderings(s[series])):
        so = s[s[series] == o].sort_values("b")
        x = so["b"].astype(float).to_numpy() * (1 + 0.02 * (k - 2))  # dodge
        ax.errorbar(x, so["beff_fit"], yerr=_yerr(so["beff_fit"], so["beff_fit_lo"], so["beff_fit_hi"]),
                    fmt=ORDERING_MARKERS.get(o.split(" · ")[0], "o"), color=policy_style(o)["color"],
                    capsize=3, ms=5, label=f"{o} (measured)", zorder=3)
    b_ticks(ax, bs)
    ax.set_yscale("log", base=2)
    ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
    ax.set_xlabel("branching factor $b$")
    ax.set_ylabel(r"leaves EBF $b_\mathrm{eff}$ (parity fit)")
    ax.set_title(_title(title, r"Leaves EBF $b_\mathrm{eff}$ against $b$ (95 % bootstrap CI over tree instances)"))
    ax.grid(True, which="both", alpha=0.3)
    legend(ax, fontsize=8, loc="center left", bbox_to_anchor=(1.01, 0.5))
    return _done(fig, ax, owned, path, fmt)


def plot_leaves_vs_depth(df: pd.DataFrame, path: Path | None = None, *, b: int | None = None, count: str = "leaves",
                         fmt: str = "png", title: str | None = None, ax=None) -> Path:
    """Mean leaves (or nodes) versus d per ordering (log y) with 95 % bootstrap CIs, against the
    Knuth–Moore minimal tree and b^d. One panel per b (the given b, or every b in df, up to 4);
    ``ax``: one Axes per panel (one Axes with ``b=``)."""
    df, _ = E.ok_rows(df)
    if b is not None:
        bs = [b]
    else:  # the b with the most orderings measured (alpha-beta), spread over the range
        ab = df[df["algorithm"] != "minimax"]
        n_ord = ab.groupby("b")["ordering"].nunique()
        bs = sorted(int(x) for x in n_ord[n_ord == n_ord.max()].index) if len(n_ord) else \
            sorted(int(x) for x in df["b"].unique())
    if len(bs) > 4:
        idx = np.unique(np.linspace(0, len(bs) - 1, 4).round().astype(int))
        bs = [bs[i] for i in idx]
    given = given_axes(ax, len(bs), "one panel per b: " + ", ".join(f"b = {x}" for x in bs))
    if given is None:
        grid = paper_grid(len(bs))
        rows, cols, size = grid if grid else (1, len(bs), (4.2 * len(bs), 4.0))
        fig, axes = plt.subplots(rows, cols, figsize=size, squeeze=False, layout="constrained")
        panels = list(axes.flat)
    else:
        fig, panels = given[0].figure, given
    for ax, bb in zip(panels, bs):
        sub = df[df["b"] == bb]
        ds = np.arange(max(1, int(sub["d"].min())), int(sub["d"].max()) + 1)
        km = [T.knuth_moore_leaves(bb, d) if count == "leaves" else T.knuth_moore_nodes(bb, d) for d in ds]
        full = [T.minimax_leaves(bb, d) if count == "leaves" else T.minimax_nodes(bb, d) for d in ds]
        ax.plot(ds, full, color=OKABE_ITO["black"], ls="-", lw=1.2, label="$b^d$ (minimax)" if count == "leaves" else "full tree")
        ax.plot(ds, km, color=OKABE_ITO["green"], ls=":", lw=1.6, label="Knuth–Moore minimal tree")
        for o in _orderings(sub["ordering"]):
            so = sub[sub["ordering"] == o]
            for alg, sa in so.groupby("algorithm"):
                if alg == "minimax" and o != _orderings(sub["ordering"])[0]:
                    continue
                g = sa.groupby("d")[count]
                m = g.mean()
                se = g.std(ddof=1) / np.sqrt(g.count())
                lab = "minimax" if alg == "minimax" else (f"{o}" if alg == "alphabeta" else f"{o}, {alg}")
                ax.errorbar(m.index, m.values, yerr=(1.96 * se.fillna(0)).values,
                            marker="x" if alg == "minimax" else ORDERING_MARKERS.get(o, "o"),
                            color=ordering_colour(o) if alg != "minimax" else OKABE_ITO["skyblue"],
                            ms=4, lw=1, capsize=2, label=lab)
        ax.set_yscale("log")
        ax.set_xlabel("depth $d$ (plies)")
        ax.set_ylabel(f"mean {count} examined (log scale)")
        ax.set_title(f"$b = {bb}$")
        ax.grid(True, which="both", alpha=0.3)
        legend(ax, fontsize=7)
    text = _title(title, f"{count} versus depth per ordering (mean ± 1.96 s.e. over instances)")
    if given is None and text:
        fig.suptitle(text, fontsize=None if in_paper_style() else 10)
    elif title:          # the caller's figure: its suptitle is the caller's, unless asked
        fig.suptitle(title)
    if path is not None:
        return save(fig, path, fmt, close=given is None)
    return (given[0] if len(given) == 1 else given) if given is not None else fig


def plot_alpha(summary: pd.DataFrame, path: Path | None = None, *, fmt: str = "png", title: str | None = None,
               ax=None) -> Path:
    """The exponent alpha = log b_eff / log b (parity fit of leaves, 95 % bootstrap CI) per ordering
    and b, against 1, 3/4, 1/2 and Pearl's log R_b / log b."""
    s = summary.dropna(subset=["alpha_fit"])
    if s.empty:
        raise ValueError("no fitted exponent to plot")
    fig, ax, owned = _one_axes(ax, (6.4, 4.4))
    bs = np.sort(s["b"].astype(float).unique())
    for y, lab, col, ls in ((1.0, "1 (no pruning)", OKABE_ITO["black"], "-"),
                            (0.75, "$3/4$ (random-order rule)", OKABE_ITO["skyblue"], "--"),
                            (0.5, "$1/2$ (perfect order)", OKABE_ITO["green"], ":")):
        ax.axhline(y, color=col, ls=ls, lw=1.2, label=lab)
    if bs.max() >= 2:
        _theory_curves(ax, bs, which=("pearl",), exponent=True)
    for k, o in enumerate(_orderings(s["ordering"])):
        so = s[s["ordering"] == o].sort_values("b")
        x = so["b"].astype(float).to_numpy() * (1 + 0.02 * (k - 2))
        ax.errorbar(x, so["alpha_fit"], yerr=_yerr(so["alpha_fit"], so["alpha_fit_lo"], so["alpha_fit_hi"]),
                    fmt=ORDERING_MARKERS.get(o, "o"), color=ordering_colour(o),
                    capsize=3, ms=5, label=f"{o} (measured)")
    b_ticks(ax, bs)
    ax.set_ylim(0.4, 1.05)
    ax.set_xlabel("branching factor $b$")
    ax.set_ylabel(r"exponent $\alpha = \log b_\mathrm{eff} / \log b$")
    ax.set_title(_title(title, r"Exponent $\alpha$ per ordering (leaves EBF, parity fit, 95 % CI)"))
    ax.grid(True, which="both", alpha=0.3)
    legend(ax, fontsize=7, loc="center left", bbox_to_anchor=(1.01, 0.5))
    return _done(fig, ax, owned, path, fmt)


def plot_convergence(df: pd.DataFrame, path: Path | None = None, *, b: int, ordering: str | Iterable[str] = ("natural", "random"),
                     tree: str = "iid", count: str = "leaves", fmt: str = "png", n_resamples: int = 499,
                     title: str | None = None, ax=None) -> Path:
    """Parity-corrected growth sqrt(N(d)/N(d-2)) (95 % bootstrap CI) and per-depth N(d)^(1/d)
    as d grows, at fixed b, against Pearl's R_b and b^(3/4)."""
    df, _ = E.ok_rows(df)
    orderings = [ordering] if isinstance(ordering, str) else list(ordering)
    sub = df[(df["b"] == b) & (df["tree"] == tree) & (df["algorithm"] != "minimax") & df["ordering"].isin(orderings)]
    if "levels" in sub.columns:
        sub = sub[sub["levels"].fillna(0) == 0]
    if sub.empty:
        raise ValueError(f"no rows for b={b}, tree={tree}, ordering in {orderings}")
    fig, ax, owned = _one_axes(ax, (6.4, 4.4))
    for k, o in enumerate(_orderings(sub["ordering"])):
        so = sub[sub["ordering"] == o]
        depths, _, mat = E.count_matrix(so, count)
        pg = E.parity_growth_with_ci(depths, mat, n_resamples=n_resamples)
        if pg:
            ds = np.array(sorted(pg))
            v = np.array([pg[d].value for d in ds])
            ax.errorbar(ds + 0.08 * k, v, yerr=_yerr(v, [pg[d].low for d in ds], [pg[d].high for d in ds]),
                        marker=ORDERING_MARKERS.get(o, "o"), color=ordering_colour(o), capsize=3, ms=5,
                        label=f"{o}: $\\sqrt{{N(d)/N(d-2)}}$")
        pdp = E.per_depth_with_ci(depths, mat, n_resamples=n_resamples)
        ds2 = np.array(sorted(pdp))
        ax.plot(ds2, [pdp[d].value for d in ds2], color=ordering_colour(o), ls="--", lw=1, alpha=0.8,
                label=f"{o}: $N(d)^{{1/d}}$")
    ax.axhline(T.pearl_rb(b), color=OKABE_ITO["purple"], ls="-.", lw=1.4,
               label=f"Pearl's $R_{{{b}}} = {T.pearl_rb(b):.3f}$")
    ax.axhline(b ** 0.75, color=OKABE_ITO["skyblue"], ls="--", lw=1.4, label=f"$b^{{3/4}} = {b ** 0.75:.3f}$")
    ax.set_xlabel("depth $d$ (plies)")
    ax.set_ylabel(f"growth of {count} per ply")
    ax.set_title(_title(title, f"Convergence of the measured growth to Pearl's $R_b$ ($b = {b}$, {tree} tree)"))
    ax.grid(True, alpha=0.3)
    legend(ax, fontsize=7)
    return _done(fig, ax, owned, path, fmt)


def plot_alpha_vs_p(summary: pd.DataFrame, path: Path | None = None, *, fmt: str = "png", title: str | None = None,
                    ax=None) -> Path:
    """Ordered trees: exponent alpha versus the ordering-quality knob p (probability that the best
    move is first), one series per b, against 1, 3/4, 1/2."""
    s = summary.dropna(subset=["alpha_fit", "p"])
    s = s.sort_values(["b", "p", "d_max", "n"]).groupby(["b", "p"]).tail(1)
    s = s[s.groupby("b")["p"].transform("nunique") >= 2]
    if s.empty:
        raise ValueError("no ordered-tree fits to plot")
    fig, ax, owned = _one_axes(ax, (6.4, 4.4))
    cols = SERIES_COLOURS
    for y, lab, col, ls in ((1.0, "1", OKABE_ITO["black"], "-"), (0.75, "3/4", OKABE_ITO["skyblue"], "--"),
                            (0.5, "1/2", OKABE_ITO["green"], ":")):
        ax.axhline(y, color=col, ls=ls, lw=1.1, label=lab)
    for k, (bb, sb) in enumerate(s.groupby("b")):
        sb = sb.sort_values("p")
        ax.errorbar(sb["p"], sb["alpha_fit"], yerr=_yerr(sb["alpha_fit"], sb["alpha_fit_lo"], sb["alpha_fit_hi"]),
                    marker="o", color=cols[k % len(cols)], capsize=3, ms=4, label=f"b = {int(bb)}")
        ax.axvline(1.0 / bb, color=cols[k % len(cols)], lw=0.6, ls=":", alpha=0.7)
    ax.set_xlabel("p = probability the best move is searched first (p = 1/b: random, dotted)")
    ax.set_ylabel(r"exponent $\alpha = \log b_\mathrm{eff} / \log b$")
    ax.set_title(_title(title, r"Ordered trees: $\alpha$ moves from 1 to 1/2 as ordering improves (95 % CI)"))
    ax.grid(True, alpha=0.3)
    legend(ax, fontsize=7)
    return _done(fig, ax, owned, path, fmt)


def plot_alpha_vs_levels(summary: pd.DataFrame, path: Path | None = None, *, fmt: str = "png",
                         title: str | None = None, ax=None) -> Path:
    """Discrete leaf values: exponent alpha versus the number of leaf values K (levels), one series
    per (b, ordering); K = 0 (continuous) is drawn at the right end."""
    s = summary.dropna(subset=["alpha_fit", "levels"]).copy()
    if s.empty:
        raise ValueError("no discrete-value fits to plot")
    kmax = float(s["levels"].max())
    cont_x = max(2.0 * kmax, 4.0)
    s["x"] = np.where(s["levels"] == 0, cont_x, s["levels"].astype(float))
    fig, ax, owned = _one_axes(ax, (6.4, 4.4))
    cols = SERIES_COLOURS
    for k, ((bb, o), sg) in enumerate(s.groupby(["b", "ordering"])):
        sg = sg.sort_values("x")
        ax.errorbar(sg["x"], sg["alpha_fit"], yerr=_yerr(sg["alpha_fit"], sg["alpha_fit_lo"], sg["alpha_fit_hi"]),
                    marker=ORDERING_MARKERS.get(o, "o"), color=cols[k % len(cols)], capsize=3, ms=4,
                    label=f"b = {int(bb)}, {o}")
    ax.axhline(0.75, color=OKABE_ITO["skyblue"], ls="--", lw=1.1, label="3/4")
    ax.axhline(0.5, color=OKABE_ITO["green"], ls=":", lw=1.1, label="1/2")
    ax.set_xscale("log", base=2)
    ticks = sorted(set(s["x"].tolist()))
    ax.set_xticks(ticks)
    ax.set_xticklabels(["cont." if t == cont_x else str(int(t)) for t in ticks])
    ax.set_xlabel("number of distinct leaf values K (cont. = continuous)")
    ax.set_ylabel(r"exponent $\alpha = \log b_\mathrm{eff} / \log b$")
    ax.set_title(_title(title, "Discrete leaf values: ties cut (leaves EBF, parity fit, 95 % CI)"))
    ax.grid(True, alpha=0.3)
    legend(ax, fontsize=7)
    return _done(fig, ax, owned, path, fmt)


#: the orderings whose expected counts on i.i.d. trees are searchlab.theory's: the values are
#: i.i.d., so natural order and a random order are the same random tree
EXACT_ORDERINGS = ("natural", "random")


def exact_overlay_table(df: pd.DataFrame, count: str = "leaves", n_resamples: int = 499) -> pd.DataFrame:
    """Per (b, levels, ordering, d) of plain alpha-beta on i.i.d. trees in natural or random
    order: the simulated mean ``count`` (95 % bootstrap CI over instances) and its exact
    expectation from searchlab.theory: ``expected_counts`` with uniform leaf levels, or for
    continuous leaves (levels 0) the bracket of ``continuous_bounds`` (its midpoint and
    half-width). Empty when the table has no such rows."""
    if count not in ("leaves", "nodes"):
        raise ValueError(f"count must be leaves or nodes; got {count!r}")
    cols = ["b", "levels", "ordering", "d", "n", "mean", "lo", "hi", "exact", "exact_error"]
    need = {"tree", "b", "d", "ordering", "algorithm", count}
    if not need <= set(df.columns):
        return pd.DataFrame(columns=cols)
    df, _ = E.ok_rows(df)
    sub = df[(df["tree"] == "iid") & (df["algorithm"] == "alphabeta") & df["ordering"].isin(EXACT_ORDERINGS)]
    if "pruning" in sub.columns:
        sub = sub[sub["pruning"].fillna("none").astype(str) == "none"]
    sub = sub.assign(levels=sub["levels"].fillna(0).astype(int) if "levels" in sub.columns else 0)
    rows = []
    for (b, levels), g in sub.groupby(["b", "levels"]):
        b, levels, dmax = int(b), int(levels), int(g["d"].max())
        if b < 2 or dmax < 1:
            continue
        if levels == 0:
            cb = continuous_bounds(b, dmax, per_height=32)
            exact = {d: (getattr(cb, count)(d), getattr(cb, count + "_error")(d)) for d in range(dmax + 1)}
        else:
            seq = expected_counts(b, dmax, uniform_pmf(levels))
            exact = {d: (float(getattr(seq, count)[d]), 0.0) for d in range(dmax + 1)}
        for (o, d), c in g.groupby(["ordering", "d"]):
            x = c[count].to_numpy(float)
            e = mean_ci(x, n_resamples=n_resamples, seed=int(b) * 1000 + int(d)) if len(x) > 1 else None
            rows.append(dict(b=b, levels=levels, ordering=o, d=int(d), n=len(x), mean=float(x.mean()),
                             lo=e.low if e else np.nan, hi=e.high if e else np.nan,
                             exact=exact[int(d)][0], exact_error=exact[int(d)][1]))
    return pd.DataFrame(rows, columns=cols)


def plot_exact_overlay(table: pd.DataFrame, path: Path | None = None, *, fmt: str = "png", count: str = "leaves",
                       title: str | None = None, ax=None):
    """Simulated mean ``count`` per depth (95 % CI) against its exact expectation (a line; for
    continuous leaves the midpoint of searchlab.theory's bracket, whose half-width is below the
    line's width), as the ratio simulated / exact against d, one series per (b, leaf levels,
    ordering): 1 means the simulation meets the theory. ``table``: :func:`exact_overlay_table`."""
    if table.empty:
        raise ValueError("the exact overlay needs plain alpha-beta rows on i.i.d. trees in natural or random "
                         "order (their expectations are searchlab.theory's)")
    fig, ax, owned = _one_axes(ax, (6.4, 4.4))
    ax.axhline(1.0, color=OKABE_ITO["black"], lw=1.0, label="exact expectation (searchlab.theory)")
    series = list(table.groupby(["b", "levels", "ordering"]))
    for k, ((b, levels, o), g) in enumerate(series):
        g = g.sort_values("d")
        r = g["mean"] / g["exact"]
        lab = f"$b = {b}$" + ("" if levels == 0 else f", {levels} levels") + f", {o}"
        x = g["d"].to_numpy(float) + 0.06 * (k - (len(series) - 1) / 2)
        ax.errorbar(x, r, yerr=_yerr(r, g["lo"] / g["exact"], g["hi"] / g["exact"]),
                    marker=ORDERING_MARKERS.get(o, "o"), color=SERIES_COLOURS[k % len(SERIES_COLOURS)],
                    capsize=2, ms=4, lw=1, label=lab)
    ax.set_xlabel("depth $d$ (plies)")
    ax.set_ylabel(f"simulated mean {count} / exact expectation")
    ax.set_title(_title(title, f"Simulation against the exact expectations ({count}, 95 % CI over instances)"))
    ax.grid(True, alpha=0.3)
    legend(ax, fontsize=7)
    return _done(fig, ax, owned, path, fmt)
