"""report.md for a run: fitted effective branching factors with CIs, figures against theory, and a
claims table with a verdict on every claim of docs/claims.md.

``write_report(run_dir)`` reads the run's Parquet table and writes ``run_dir/report.md`` and
``run_dir/figures/*.png``. It works on whatever the run holds: a section it cannot fill says so in
words (never an empty table cell). No number in the report is typed by hand: every figure is
formatted from the table, an exact computation or ``theory``.
"""

from __future__ import annotations

import datetime as _dt
import glob
import math
from pathlib import Path

import numpy as np
import pandas as pd
from scipy.optimize import brentq

import yaml

from searchlab.analysis import estimators as E
from searchlab.analysis.estimators import check_fit_depths
from searchlab.analysis import figures as P
from searchlab.analysis import theory as T
from searchlab.studies.ordering import deep_ordering as DO
from searchlab.analysis.format import number
from searchlab.studies.sweep.facets import coverage_note, pruning_section
from searchlab.studies.sweep.policies import policies_section
from searchlab.analysis.markdown_tables import NO_DATA, md_table
from searchlab.studies.claims.exact_trees import exact_checks
from searchlab.studies.claims.registry import evaluate_all
from searchlab.studies.claims.verdict import SOURCES, Claim, Context, Verdict, literature
from searchlab.experiment.provenance import run_header
from searchlab.experiment.run_status import (NotARunError, RunStatus, damaged_parts, is_run,
                                             planned_tasks, runs_below)
from searchlab.experiment.store import load

__all__ = ["write_report", "build_report", "load_run", "find_tables", "NO_DATA", "md_table",
           "discussion_random_order", "summary_table"]

# --------------------------------------------------------------------------- loading

def find_tables(run_dir: Path) -> list[Path]:
    run_dir = Path(run_dir)
    return sorted(Path(p) for p in glob.glob(str(run_dir / "**" / "*.parquet"), recursive=True))


def load_run(run_dir: Path | str, partial: bool = False) -> pd.DataFrame:
    """The run's result table (all rows, every status) through ``searchlab.load``; a folder of
    bare Parquet files (no ``table/``) is read as it is.

    Raises FileNotFoundError / NotADirectoryError for a missing path or a file, NotARunError
    for a folder that holds several runs (a report is about one run: it names them) or no
    table, and IncompleteRunError for an incomplete or damaged run unless ``partial``."""
    run_dir = Path(run_dir)
    if not run_dir.exists():
        raise FileNotFoundError(f"run directory {run_dir} does not exist")
    if not run_dir.is_dir():
        raise NotADirectoryError(f"{run_dir} is not a directory")
    if is_run(run_dir):
        return load(run_dir, partial=partial)
    runs = runs_below(run_dir)
    if runs:
        shown = ", ".join(str(r) for r in runs[:3]) + (" ..." if len(runs) > 3 else "")
        raise NotARunError(f"{run_dir} is not a run directory: it holds {len(runs)} run(s) "
                           f"({shown}); give one of them")
    files = find_tables(run_dir)
    if not files:
        raise NotARunError(f"{run_dir} is not a run directory: no Parquet result table under it")
    return pd.concat([pd.read_parquet(f) for f in files], ignore_index=True)


def partial_note(run_dir: Path, df: pd.DataFrame) -> str:
    """The warning at the top of a report on an incomplete or damaged run ('' if complete);
    ``df``: the rows loaded from it."""
    if not is_run(run_dir):
        return ""
    done = int(df["task_id"].nunique()) if "task_id" in df else len(df)
    status = RunStatus(Path(run_dir), planned_tasks(run_dir), done, damaged_parts(run_dir))
    if status.complete:
        return ""
    planned = f"{status.planned}" if status.planned is not None else "an unknown number of"
    bad = f"; {len(status.damaged)} part(s) cannot be read" if status.damaged else ""
    return (f"**Partial data: an incomplete run.** {done} of {planned} planned tasks have "
            f"rows{bad}. Every figure below is computed from the rows present only "
            f"(searchlab-report --partial); resume the run with runner.resume={run_dir} to "
            "complete it.")


# --------------------------------------------------------------------------- markdown helpers

def _ci(v: float, lo: float, hi: float, digits: int = 3) -> str:
    if not (isinstance(v, (int, float)) and math.isfinite(v)):
        return NO_DATA
    if not (math.isfinite(lo) and math.isfinite(hi)):
        return f"{number(v, digits)} (no CI)"
    if lo == hi:
        return f"{number(v, digits)} (all equal)"
    return f"{number(v, digits)} [{number(lo, digits)}, {number(hi, digits)}]"


# --------------------------------------------------------------------------- sections

def _run_section(df_all: pd.DataFrame, df: pd.DataFrame, excluded: int, source: str) -> str:
    lines = [f"Source: `{source}`. {len(df_all)} rows, {len(df)} with status \"ok\" enter the fits; "
             f"{excluded} excluded."]
    if "status" in df_all.columns:
        counts = df_all["status"].astype(str).value_counts()
        lines.append("\n" + md_table(["status", "rows"], [[k, int(v)] for k, v in counts.items()]))
    ids = []
    for col in ("experiment", "tree", "algorithm", "ordering", "b", "d", "levels", "p", "instance"):
        if col in df.columns and len(df):
            vals = pd.unique(df[col].dropna())
            try:
                vals = sorted(vals)
            except TypeError:
                pass
            shown = ", ".join(str(v) for v in vals[:30]) + (" …" if len(vals) > 30 else "")
            ids.append([col, len(vals), shown or "none"])
    if ids:
        lines.append("\n" + md_table(["identifier", "distinct values", "values"], ids))
    prov = []
    for col in ("config_hash", "version", "commit"):
        if col in df_all.columns:
            vals = [str(v) for v in pd.unique(df_all[col].dropna())]
            prov.append([col, ", ".join(vals[:5]) + (" …" if len(vals) > 5 else "") or "not recorded"])
    if prov:
        lines.append("\nProvenance:\n\n" + md_table(["field", "value(s)"], prov))
    else:
        lines.append("\nProvenance: the table carries no config_hash/version/commit columns.")
    return "\n".join(lines)


def _estimator_section(fit_depths: int | None = 8) -> str:
    rows = [[k, v] for k, v in E.ESTIMATORS.items()]
    window = (f"Fit window: the deepest {fit_depths} depths measured of each configuration (from d = 2; "
              f"`fit_depths` in the config, `searchlab-report --fit-depths N|all`); the shallowest depths "
              f"carry the largest finite-depth bias." if fit_depths else
              "Fit window: every depth measured of each configuration from d = 2 (`fit_depths: null`).")
    return ("Every effective branching factor below names its estimator and what it counts: the "
            "**leaves EBF** (growth of the leaves examined; this section, the figures of b_eff and α) or "
            "the **nodes EBF** (growth of every node visited, interior ones too: R&N b* and the "
            "move-ordering policies' EBF). The two differ (the nodes EBF is the larger at small b): "
            "compare a leaves EBF only with a leaves EBF. N is the mean over tree instances "
            "of the count (leaves unless stated). Confidence intervals: 95 %, scipy.stats.bootstrap over "
            "tree instances (BCa, percentile where BCa is undefined); for fits over depths the instance "
            "indices are resampled jointly across depths. α = log b_eff / log b. " + window + "\n\n"
            + md_table(["estimator", "counts", "definition"],
                       [[k, "nodes" if k == "R&N b*" else "leaves", v] for k, v in rows]))


def summary_table(summary: pd.DataFrame) -> str:
    if summary.empty:
        return ("No status-ok rows on synthetic trees with a fixed b (no i.i.d. or other uniform-tree "
                "rows to fit): nothing to fit here. Rows on game positions, if any, are reported in "
                "'Move-ordering policies'.")
    varying = [k for k in ("experiment", "tree", "levels", "win_prob", "p", "decay", "correlation")
               if k in summary.columns and summary[k].nunique(dropna=True) > 0
               and not (k == "levels" and summary[k].fillna(0).eq(0).all())
               and not (k in ("experiment", "win_prob") and summary[k].nunique() < 2)]
    # every swept axis is a column: a pruning sweep's rows differ by technique alone
    pruning = "pruning" in summary.columns and summary["pruning"].fillna("none").nunique() > 1
    header = varying + ["b", "algorithm", "ordering"] + (["pruning"] if pruning else []) + ["depths", "n per depth", "leaves EBF b_eff (fit) [95 % CI]",
                        "α (fit) [95 % CI]", "√(N(d)/N(d−2)) at d", "N(d)^(1/d) at max d", "R&N b* (nodes)",
                        "b^(3/4)", "√b", "Pearl R_b"]
    rows = []
    for r in summary.itertuples():
        rows.append([number(getattr(r, k)) if getattr(r, k) is not None else "not applicable" for k in varying] + [
            int(r.b), r.algorithm, r.ordering, *([r.pruning or "none"] if pruning else []),
            f"{int(r.d_min)}..{int(r.d_max)}",
            getattr(r, "n_per_depth", None) or f"{int(r.n)} at every depth",
            _ci(r.beff_fit, r.beff_fit_lo, r.beff_fit_hi) if math.isfinite(r.beff_fit) else "one depth: no fit",
            _ci(r.alpha_fit, r.alpha_fit_lo, r.alpha_fit_hi) if math.isfinite(r.alpha_fit) else "one depth: no fit",
            (_ci(r.parity_growth, r.parity_growth_lo, r.parity_growth_hi) + f" (d={int(r.parity_d)})")
            if math.isfinite(r.parity_growth) else "needs d and d−2",
            _ci(r.beff_dmax, r.beff_dmax_lo, r.beff_dmax_hi),
            _ci(r.rn_bstar, r.rn_bstar_lo, r.rn_bstar_hi),
            number(getattr(r, "theory_b34", math.nan)), number(getattr(r, "theory_sqrtb", math.nan)),
            number(getattr(r, "theory_pearl", math.nan))])
    return md_table(header, rows)


def estimator_comparison(df: pd.DataFrame, summary: pd.DataFrame) -> str:
    """Every estimator side by side on the same counts (continuous i.i.d. trees, alpha-beta)."""
    if summary.empty or "tree" not in summary.columns:
        return "No fits to compare."
    s = summary[(summary["tree"] == "iid") & (summary["algorithm"] != "minimax")
                & summary["ordering"].isin(["random", "natural", "perfect"])]
    if "levels" in s.columns:
        s = s[s["levels"].fillna(0) == 0]
    s = s.dropna(subset=["beff_fit"])
    if s.empty:
        return "No alpha-beta fit on continuous i.i.d. trees with two or more depths: nothing to compare."
    s = s.sort_values(["ordering", "b", "d_max", "n"]).groupby(["ordering", "b"]).tail(1)
    rows = []
    for r in s.itertuples():
        g = df[(df["tree"] == "iid") & (df["b"] == r.b) & (df["ordering"] == r.ordering)
               & (df["algorithm"] == r.algorithm) & (df["experiment"] == r.experiment if "experiment" in df.columns else True)]
        if "levels" in g.columns:
            g = g[g["levels"].fillna(0) == 0]
        depths = [int(x) for x in r.depths.split(",")]
        m = g[g["d"].isin(depths)].groupby("d")["leaves"].mean()
        dd, nn = m.index.to_numpy(float), m.to_numpy(float)
        fits = []
        for meth in ("odd", "even"):
            try:
                fits.append(number(E.fit_growth(dd, nn, meth).beff))
            except ValueError:
                fits.append("needs two such depths")
        dmax = int(dd.max())
        naive = (f"{number(E.naive_ratio(m[dmax - 1], m[dmax - 2]))}, {number(E.naive_ratio(m[dmax], m[dmax - 1]))}"
                 if {dmax - 1, dmax - 2} <= set(m.index) else "needs d−1, d−2")
        rows.append([r.ordering, int(r.b), r.depths.replace(",", ", ") if len(depths) < 4 else f"{depths[0]}..{depths[-1]}",
                     getattr(r, "n_per_depth", None) or int(r.n),
                     _ci(r.beff_fit, r.beff_fit_lo, r.beff_fit_hi), fits[0], fits[1], naive,
                     (_ci(r.parity_growth, r.parity_growth_lo, r.parity_growth_hi) + f" (d={int(r.parity_d)})")
                     if math.isfinite(r.parity_growth) else "needs d and d−2",
                     _ci(r.beff_dmax, r.beff_dmax_lo, r.beff_dmax_hi), _ci(r.rn_bstar, r.rn_bstar_lo, r.rn_bstar_hi)])
    return ("The same counts through every estimator (leaves; R&N b* on nodes; at the deepest depths of each "
            "configuration). The naive ratio N(d)/N(d−1) at the last two depths shows the odd/even oscillation that "
            "the parity estimators remove; N(d)^(1/d) and R&N b* carry the shallow plies' excess and converge more "
            "slowly.\n\n" + md_table(["ordering", "b", "depths", "n per depth", "fit (parity) [CI]", "fit (odd d)", "fit (even d)",
                                        "N(d−1)/N(d−2), N(d)/N(d−1)", "√(N(d)/N(d−2)) [CI]", "N(d)^(1/d) [CI]",
                                        "R&N b* [CI]"], rows))


def _km_section(df: pd.DataFrame) -> str:
    if df.empty or "ordering" not in df.columns:
        return "No rows: Knuth–Moore exactness not checked."
    sub = df[(df["ordering"] == "perfect") & (df["algorithm"] != "minimax")]
    if "tree" in sub.columns:
        distinct = (sub["tree"] == "ordered") | ((sub["tree"] == "iid") &
                                                  (sub["levels"].fillna(0) == 0 if "levels" in sub.columns else True))
        sub = sub[distinct]
    if sub.empty:
        return ("This run has no perfect-ordering rows on trees with distinct values (continuous i.i.d. or "
                "ordered): Knuth–Moore exactness is not checked here (study knuth_moore checks it).")
    km = np.array([T.knuth_moore_leaves(b, d) for b, d in zip(sub["b"], sub["d"])])
    kmn = np.array([T.knuth_moore_nodes(b, d) for b, d in zip(sub["b"], sub["d"])])
    rows = []
    for tree, g in sub.assign(km=km, kmn=kmn).groupby("tree"):
        rows.append([tree, len(g), int((g["leaves"] == g["km"]).sum()),
                     int((g["nodes"] == g["kmn"]).sum()) if "nodes" in g.columns else "nodes not recorded",
                     f"{int(g['b'].min())}..{int(g['b'].max())}", f"{int(g['d'].min())}..{int(g['d'].max())}"])
    return ("Perfect ordering against Knuth & Moore's minimal tree, leaves b^⌈d/2⌉ + b^⌊d/2⌋ − 1 and nodes "
            "Σ_k (b^⌈k/2⌉ + b^⌊k/2⌋ − 1):\n\n"
            + md_table(["tree", "searches", "leaves = Knuth–Moore", "nodes = Knuth–Moore", "b", "d"], rows))


def claims_section(results: list[tuple[Claim, Verdict]]) -> str:
    """The claims table: one row per claim (claim_row), after a tally of the verdicts."""
    rows = [claim_row(c, v) for c, v in results]
    cats = pd.Series([v.category for _, v in results]).value_counts()
    tally = ", ".join(f"{k}: {int(n)}" for k, n in cats.items())
    ids = {i for c, _ in results for i in c.ids}          # a claim judged in two halves counts once
    return (f"{len(results)} entries covering {len(ids)} claim IDs ({tally}).\n\n"
            + md_table(CLAIM_COLUMNS, rows))


CLAIM_COLUMNS = ["claim", "in words", "source", "measured (CI, n)", "theory", "verdict", "produced by"]


def claim_row(c: Claim, v: Verdict) -> list[str]:
    """One claim's cells of the claims table (CLAIM_COLUMNS)."""
    src = ", ".join(SOURCES[s.strip()] for s in c.source.split(","))
    refs = literature(c.ids)
    if refs:
        src += "; the result of " + ", ".join(refs)
    return [c.label, c.text, src, v.measured, v.theory, v.cell(),
            f"`{v.command}`" if v.command else "none: nothing computed yet"]


# --------------------------------------------------------------------------- discussion

def discussion_random_order(summary: pd.DataFrame, df: pd.DataFrame) -> str:
    """A data-driven discussion of where b^(3/4) does and does not describe random order."""
    s = summary
    if s.empty:
        return "No fits: nothing to discuss."
    iid = s[(s["tree"] == "iid") & (s["algorithm"] == "alphabeta")] if "tree" in s.columns else s.iloc[0:0]
    cont = iid[iid["levels"].fillna(0) == 0] if "levels" in iid.columns else iid
    o = "random" if (cont["ordering"] == "random").any() else "natural"
    rnd = cont[cont["ordering"] == o].dropna(subset=["alpha_fit"])
    if rnd.empty:
        return ("This run has no random- or natural-order fits on continuous i.i.d. trees, so where b^(3/4) "
                "holds cannot be discussed from it.")
    # several experiments may fit the same b: keep the deepest fit per b
    rnd = rnd.sort_values(["b", "d_max", "n"]).groupby("b").tail(1).sort_values("b")
    paras = []
    lines = []
    for r in rnd.itertuples():
        pa = T.pearl_alpha(r.b)
        in34 = r.alpha_fit_lo <= 0.75 <= r.alpha_fit_hi
        inp = r.alpha_fit_lo <= pa <= r.alpha_fit_hi
        lines.append([int(r.b), f"{int(r.d_min)}..{int(r.d_max)}", int(r.n),
                      _ci(r.alpha_fit, r.alpha_fit_lo, r.alpha_fit_hi), number(pa),
                      "inside" if in34 else f"outside ({r.alpha_fit - 0.75:+.3f})",
                      "inside" if inp else f"outside ({r.alpha_fit - pa:+.3f})"])
    paras.append(f"Fitted exponent of {o} order on continuous i.i.d. trees (leaves, parity fit over the depths "
                 "measured) against the rule's 3/4 and Pearl's asymptotic log R_b / log b:\n\n"
                 + md_table(["b", "depths", "n", "α [95 % CI]", "Pearl α", "3/4 in CI?", "Pearl in CI?"], lines))
    above = rnd[rnd["alpha_fit_lo"] > rnd["b"].map(T.pearl_alpha)]
    below34 = rnd[rnd["alpha_fit_hi"] < 0.75]
    above34 = rnd[rnd["alpha_fit_lo"] > 0.75]
    small = rnd[rnd["b"] <= 4]
    txt = []
    rb_lt = [int(b) for b in rnd["b"] if T.pearl_rb(b) < b ** 0.75]
    txt.append(f"**Asymptotically** (d → ∞) Pearl's R_b, not b^(3/4), is the branching factor of alpha-beta on "
               f"random uniform trees with continuous values. R_b < b^(3/4) at every b measured here "
               f"({len(rb_lt)} of {len(rnd)}); Pearl's exponent rises from {number(T.pearl_alpha(2))} at b = 2 to "
               f"{number(T.pearl_alpha(float(rnd['b'].max())))} at b = {int(rnd['b'].max())} and only crosses 3/4 near "
               f"b ≈ {number(_pearl_crossing())}: for large b, R_b ≈ b / W(b) (Lambert W, ~ b / ln b), which eventually outgrows any b^c with c < 1. So 3/4 is a rounded description of a "
               f"slowly rising exponent, not a constant.")
    if len(small):
        txt.append("**Small b**: " + "; ".join(f"b = {int(r.b)}: α = {number(r.alpha_fit)} vs 3/4 "
                                               f"({r.alpha_fit - 0.75:+.3f}) and Pearl {number(T.pearl_alpha(r.b))}"
                                               for r in small.itertuples()) + ".")
    if len(above):
        txt.append("**Finite depth**: at " + ", ".join(f"b = {int(r.b)} (d ≤ {int(r.d_max)})" for r in above.itertuples())
                   + " the measured exponent is above Pearl's: the growth per ply converges to R_b from above as d "
                     "grows (figure 'convergence'), and large b can only be searched to small d, where the "
                     "finite-depth excess is largest.")
    if len(above34):
        txt.append("**Where b^(3/4) is too optimistic**: " + ", ".join(
            f"b = {int(r.b)} (α {number(r.alpha_fit)}, d ≤ {int(r.d_max)})" for r in above34.itertuples())
                   + " — the CI lies above 3/4 at the depths a budget allows.")
    if len(below34):
        txt.append("**Where b^(3/4) is too pessimistic**: " + ", ".join(
            f"b = {int(r.b)} (α {number(r.alpha_fit)}, d ≤ {int(r.d_max)})" for r in below34.itertuples())
                   + " — the CI lies below 3/4, towards Pearl's exponent.")
    inside = rnd[(rnd["alpha_fit_lo"] <= 0.75) & (rnd["alpha_fit_hi"] >= 0.75)]
    if len(inside):
        txt.append("**Where b^(3/4) fits within CI**: " + ", ".join(
            f"b = {int(r.b)} (d ≤ {int(r.d_max)})" for r in inside.itertuples())
                   + ". These are fits over the depths a budget allows; Pearl's exponent at the same b is lower "
                     "(" + ", ".join(f"{number(T.pearl_alpha(r.b))}" for r in inside.itertuples())
                   + "), so 3/4 describes the finite-depth search there, not the limit.")
    conv = []
    n_rb = n_34 = n_conv = 0
    for r in rnd.itertuples():
        if math.isfinite(r.parity_growth):
            n_conv += 1
            n_rb += r.parity_growth_lo <= T.pearl_rb(r.b) <= r.parity_growth_hi
            n_34 += r.parity_growth_lo <= r.b ** 0.75 <= r.parity_growth_hi
    for r in rnd.itertuples():
        if math.isfinite(r.parity_growth):
            rb = T.pearl_rb(r.b)
            conv.append(f"b = {int(r.b)}, d = {int(r.parity_d)}: √(N(d)/N(d−2)) = "
                        f"{_ci(r.parity_growth, r.parity_growth_lo, r.parity_growth_hi)} vs R_b = {number(rb)} "
                        f"({'R_b inside the CI' if r.parity_growth_lo <= rb <= r.parity_growth_hi else f'{(r.parity_growth / rb - 1) * 100:+.1f} %'}) "
                        f"and b^(3/4) = {number(r.b ** 0.75)}")
    if conv:
        txt.append(f"**Convergence** (the parity-corrected growth at the deepest pair of depths measured): Pearl's R_b "
                   f"lies inside the 95 % CI at {n_rb} of {n_conv} b, b^(3/4) at {n_34} of {n_conv} (with {n_conv} "
                   f"intervals at 95 %, about {0.05 * n_conv:.1f} would miss the true value by chance alone). "
                   + "; ".join(conv) + ". These CIs come from the studies' few instances (different trees per "
                   "depth) and cover instance sampling only; the paired study with 200 trees per b (section "
                   "'Finite-depth convergence', where analysis/reproduce.py runs it) is the one the verdicts use.")
    disc = iid[(iid["levels"].fillna(0) > 0) & iid["ordering"].isin(["random", "natural"])].dropna(subset=["alpha_fit"]) \
        if "levels" in iid.columns else iid.iloc[0:0]
    if len(disc):
        comp = []
        for r in disc.sort_values(["b", "levels"]).itertuples():
            c = rnd[rnd["b"] == r.b]
            cs = f" vs continuous {number(c['alpha_fit'].iloc[0])}" if len(c) else ""
            comp.append(f"b = {int(r.b)}, K = {int(r.levels)}: α = {_ci(r.alpha_fit, r.alpha_fit_lo, r.alpha_fit_hi)}"
                        f" (d ≤ {int(r.d_max)}){cs}")
        txt.append("**Discrete values** (K leaf values; ties cut, 'Ties cut' in the spec): " + "; ".join(comp)
                   + ". With few values the exponent falls well below 3/4: b^(3/4) does not describe such trees.")
    else:
        txt.append("**Discrete values**: this run has no discrete-value rows (study discrete_values).")
    paras.append("\n\n".join(txt))
    return "\n\n".join(paras)


def _pearl_crossing() -> float:
    return brentq(lambda b: T.pearl_rb(b) - b ** 0.75, 16, 1e5)


# --------------------------------------------------------------------------- figures

def _figures(df: pd.DataFrame, summary: pd.DataFrame, fig_dir: Path, fmt: str, rel_to: Path) -> list[tuple[str, str]]:
    """[(heading, markdown)] for every figure; a figure that cannot be drawn says why."""
    out = []

    def rel(p: Path) -> str:
        try:
            return str(Path(p).relative_to(rel_to))
        except ValueError:
            return str(p)

    iid = summary[(summary.get("tree") == "iid") & (summary.get("algorithm") != "minimax")] \
        if not summary.empty and "tree" in summary.columns else summary
    if not iid.empty and "levels" in iid.columns:
        iid = iid[iid["levels"].fillna(0) == 0]
    if not iid.empty:
        iid = iid.sort_values(["b", "ordering", "d_max", "n"]).groupby(["b", "ordering"]).tail(1)
    fits = iid.dropna(subset=["beff_fit"]) if not iid.empty else iid
    # 1. b_eff vs b
    if len(fits) and fits["b"].nunique() >= 1:
        p = P.plot_beff_vs_b(fits, fig_dir / "beff_vs_b", fmt=fmt)
        out.append(("b_eff versus b", f"![b_eff versus b]({rel(p)})\n\nEstimator: parity fit of log(mean leaves) on d "
                                      "(continuous i.i.d. trees, alpha-beta); bars: 95 % bootstrap CI over instances."))
    else:
        out.append(("b_eff versus b", "Not drawn: no alpha-beta fit on continuous i.i.d. trees with two or more depths."))
    # 2. leaves vs d
    dfi = df[(df["tree"] == "iid")] if "tree" in df.columns else df
    if "levels" in dfi.columns:
        dfi = dfi[dfi["levels"].fillna(0) == 0]
    if len(dfi) and dfi["d"].nunique() >= 2:
        p = P.plot_leaves_vs_depth(dfi, fig_dir / "leaves_vs_depth", fmt=fmt)
        out.append(("Leaves versus depth", f"![leaves versus depth]({rel(p)})\n\nMean leaves per ordering (log scale) with "
                                           "the Knuth–Moore minimal tree and b^d."))
    else:
        out.append(("Leaves versus depth", "Not drawn: fewer than two depths on continuous i.i.d. trees."))
    # 3. alpha
    if len(fits.dropna(subset=["alpha_fit"])) if len(fits) else False:
        p = P.plot_alpha(fits, fig_dir / "alpha", fmt=fmt)
        out.append(("Exponent α", f"![exponent alpha]({rel(p)})\n\nα = log b_eff / log b per ordering and b (95 % CI), "
                                  "against 1, 3/4, 1/2 and Pearl's log R_b / log b."))
    else:
        out.append(("Exponent α", "Not drawn: no fitted exponent on continuous i.i.d. trees."))
    # 4. convergence
    conv = dfi[dfi["ordering"].isin(["random", "natural"]) & (dfi["algorithm"] != "minimax")] if len(dfi) else dfi
    if len(conv):
        nd = conv.groupby("b")["d"].nunique()
        nd = nd[nd >= 3]
        if len(nd):
            # up to three b with the most depths (ties: the larger b), shown in increasing b
            chosen = sorted(int(b) for b in sorted(nd.index, key=lambda b: (-nd[b], -b))[:3])
            md = []
            for b in chosen:
                p = P.plot_convergence(conv, fig_dir / f"convergence_b{b}", b=b, fmt=fmt)
                md.append(f"![convergence b={b}]({rel(p)})")
            out.append(("Convergence to Pearl's R_b", "\n".join(md) + f"\n\nAt b = {', '.join(map(str, chosen))}: the "
                        "parity-corrected growth √(N(d)/N(d−2)) (95 % CI) and N(d)^(1/d) as d grows, against R_b and "
                        "b^(3/4)."))
        else:
            out.append(("Convergence to Pearl's R_b", "Not drawn: no b with three or more depths under random/natural order."))
    else:
        out.append(("Convergence to Pearl's R_b", "Not drawn: no random- or natural-order rows on continuous i.i.d. trees."))
    # extra: ordered p sweep, discrete values
    if not summary.empty and "tree" in summary.columns:
        od = summary[(summary["tree"] == "ordered") & (summary["algorithm"] != "minimax")
                     & (summary["ordering"] == "natural")].dropna(subset=["alpha_fit"])
        if "p" in od.columns and (od.groupby("b")["p"].nunique() >= 2).any():
            p = P.plot_alpha_vs_p(od, fig_dir / "alpha_vs_p", fmt=fmt)
            out.append(("Ordered trees: α versus p", f"![alpha versus p]({rel(p)})"))
        if "levels" in summary.columns:
            dv = summary[(summary["tree"] == "iid") & (summary["levels"].fillna(0) > 0)].dropna(subset=["alpha_fit"])
            if len(dv):
                both = summary[(summary["tree"] == "iid") & summary["b"].isin(dv["b"].unique())
                               & summary["ordering"].isin(dv["ordering"].unique())
                               & (summary["algorithm"] != "minimax")].dropna(subset=["alpha_fit"])
                both = both.assign(levels=both["levels"].fillna(0))
                both = both.sort_values(["b", "ordering", "levels", "d_max"]).groupby(["b", "ordering", "levels"]).tail(1)
                p = P.plot_alpha_vs_levels(both, fig_dir / "alpha_vs_levels", fmt=fmt)
                out.append(("Discrete leaf values", f"![alpha versus levels]({rel(p)})"))
    return out


# --------------------------------------------------------------------------- the report

def build_report(df_all: pd.DataFrame, out_dir: Path, *, title: str, source: str,
                 command: str, report_name: str = "report.md", fmt: str = "png", exact: bool = True,
                 extra_sections: list[tuple[str, str]] | None = None, n_resamples: int = 999,
                 exact_results: dict | None = None, preamble: str = "",
                 summary: pd.DataFrame | None = None, fit_depths: int | None = 8,
                 claims: str = "measured") -> Path:
    """Write out_dir/report_name and figures under out_dir/figures/. Returns the report path.
    ``fit_depths``: the fits' window (the deepest that many depths; None: all); ``claims``:
    "measured" (the claims this run's rows decide, each judged on them), "all" (the
    project's whole claims table) or "none" (no claims section)."""
    sections, results = report_sections(df_all, out_dir, source=source, command=command, fmt=fmt,
                                        exact=exact, extra_sections=extra_sections,
                                        n_resamples=n_resamples, exact_results=exact_results,
                                        summary=summary, fit_depths=fit_depths, claims=claims)
    if claims == "none":
        return write_markdown(sections, Path(out_dir) / report_name, title=title, command=command,
                              preamble=preamble)
    body = claims_section(results) if results else (
        "This run's rows decide none of the claims of docs/claims.md (the project's reproduction, "
        "analysis/REPORT.md, judges them all)." if claims == "measured" else "No claims.")
    if claims == "measured" and results:
        body = ("The claims of docs/claims.md that this run's rows decide, each judged on them "
                "(`searchlab-report RUN --claims all` adds the rest, `--claims none` leaves the "
                "section out):\n\n" + body)
    claims = ("Claims", body)
    at = next(i for i, (h, _) in enumerate(sections) if h == "Excluded rows")
    return write_markdown(sections[:at] + [claims] + sections[at:], Path(out_dir) / report_name,
                          title=title, command=command, preamble=preamble)


def utc_stamp() -> str:
    """Now, as reports state it: "2026-12-02 14:05 UTC"."""
    return _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")


#: which claims a report judges: every claim, the ones the run measured, or none
CLAIM_CHOICES = ("measured", "all", "none")


def measured_by_run(results: list[tuple[Claim, Verdict]], without_rows: Context
                    ) -> list[tuple[Claim, Verdict]]:
    """The claims this run's rows decide: a verdict other than "no data" or "pending" that
    differs from the claim's verdict on ``without_rows`` (the same context with no rows), so
    that a claim settled by exact computation or arithmetic alone, whatever the run, is left
    out of a report of one's own study."""
    base = {c.key: v for c, v in evaluate_all(without_rows)}
    return [(c, v) for c, v in results if v.category not in ("no data", "pending")
            and (base.get(c.key) is None or (base[c.key].category, base[c.key].measured)
                 != (v.category, v.measured))]


def write_markdown(sections: list[tuple[str, str]], path: Path, *, title: str, command: str,
                   preamble: str = "") -> Path:
    """Write ``sections`` (heading, markdown body) to ``path`` under a title, the generation
    stamp and command, ``preamble`` and a table of contents; returns ``path``."""
    head = (f"# {title}\n\nGenerated {utc_stamp()} by `{command}`. Every number in this report is computed from the "
            f"result table, an exact search, or searchlab.analysis.theory; none is typed by hand.\n\n")
    if preamble:
        head += preamble + "\n\n"
    toc = "Contents: " + " · ".join(f"[{h}](#{anchor(h)})" for h, _ in sections) + "\n\n"
    body = "\n\n".join(f"## {h}\n\n{b}" for h, b in sections)
    path.write_text(head + toc + body + "\n", encoding="utf-8")
    return path


def report_sections(df_all: pd.DataFrame, out_dir: Path, *, source: str, command: str,
                    fmt: str = "png", exact: bool = True,
                    extra_sections: list[tuple[str, str]] | None = None, n_resamples: int = 999,
                    exact_results: dict | None = None, summary: pd.DataFrame | None = None,
                    fig_dir: Path | None = None, fit_depths: int | None = 8, claims: str = "all"
                    ) -> tuple[list[tuple[str, str]], list[tuple[Claim, Verdict]]]:
    """The report's sections but the claims (figures written under ``fig_dir``, default
    out_dir/figures/, linked relative to out_dir), the last one "Excluded rows", and the
    claims' verdicts from this table and ``exact_results``: every claim (``claims="all"``),
    only those this table's rows decide (``"measured"``: :func:`measured_by_run`) or none."""
    out_dir = Path(out_dir)
    fig_dir = Path(fig_dir) if fig_dir is not None else out_dir / "figures"
    fig_dir.mkdir(parents=True, exist_ok=True)
    df_ok, excluded = E.ok_rows(df_all)
    # the fits and figures below are about uniform trees: game rows (b is null) are reported by
    # the move-ordering policies section
    df = df_ok[df_ok["b"].notna()] if "b" in df_ok.columns else df_ok
    for col in ("b", "d", "leaves", "nodes"):
        if col in df.columns:
            df = df.assign(**{col: pd.to_numeric(df[col])})
    if summary is None:
        # every status: summarize keeps the (configuration, depth) cells where all instances
        # finished, and says which it left out
        trees = df_all[df_all["b"].notna()] if "b" in df_all.columns else df_all
        for col in ("b", "d", "leaves", "nodes"):
            if col in trees.columns:
                trees = trees.assign(**{col: pd.to_numeric(trees[col])})
        summary = E.summarize(trees, n_resamples=n_resamples, max_fit_depths=fit_depths) \
            if len(df) and {"b", "d", "leaves", "instance"} <= set(df.columns) else pd.DataFrame()
    ex = exact_results
    if ex is None and exact:
        try:
            ex = exact_checks()
        except Exception:  # noqa: BLE001 - no search API: exact claims say so
            ex = None
    deep_section = ""
    # the claims a run "measured" are those whose verdict its rows change: the deep-ordering
    # checks below come from the rows, so the verdicts without rows must not see them
    ex_without_rows = ex
    if "experiment" in df_all.columns and (ex is None or "deep_ordering" not in ex):
        deep_rows = df_all[df_all["experiment"].isin(DO.DEEP_STUDIES)]
        if len(deep_rows):                  # a run of a deep ordering study: its paired comparisons
            ex = {**(ex or {}), "deep_ordering": DO.deep_checks(deep_rows, n_resamples=n_resamples)}
            deep_section = DO.deep_section(ex["deep_ordering"])
    ctx = Context(df=df, summary=summary, excluded=excluded, exact=ex, command=command)
    results = evaluate_all(ctx)
    if claims not in CLAIM_CHOICES:
        raise ValueError(f"claims must be one of {', '.join(CLAIM_CHOICES)}; got {claims!r}")
    if claims == "none":
        results = []
    elif claims == "measured":
        results = measured_by_run(results, Context(df=df.iloc[0:0], summary=pd.DataFrame(),
                                                   exact=ex_without_rows, command=command))

    sections: list[tuple[str, str]] = []
    note = coverage_note(df_all)
    sections.append(("Run", _run_section(df_all, df_ok, excluded, source) + (f"\n\n{note}" if note else "")))
    sections.append(("Estimators", _estimator_section(fit_depths)))
    sections.append(("Effective branching factors",
                     "One row per configuration: the leaves EBF (R&N b*: nodes). Only the depths where every instance "
                     "finished with status \"ok\" enter (a search stopped by its node budget "
                     "leaves the hard instances out, biasing a mean over the rest low); \"n per "
                     "depth\" gives the instances of each depth and the depths left out (n ok / "
                     "n total).\n\n" + summary_table(summary)))
    sections.append(("Estimators compared", estimator_comparison(df, summary)))
    sections.append(("Knuth–Moore exactness", _km_section(df)))
    figs = _figures(df, summary, fig_dir, fmt, out_dir) if len(summary) else \
        [("Figures", "No figure of the fits: the run has no status-ok rows on synthetic trees with "
                     "a fixed b (game positions' figures are in 'Move-ordering policies').")]
    sections.append(("Figures", "\n\n".join(f"### {h}\n\n{body}" for h, body in figs)))
    sections.append(("Where b^(3/4) describes random order", discussion_random_order(summary, df)))
    for h, body in extra_sections or []:
        sections.append((h, body))
    if deep_section:
        sections.append(("Ordering in real games, searched deep (paired per position)", deep_section))
    prune = pruning_section(df_all, n_resamples=n_resamples, fig_dir=fig_dir, rel_to=out_dir, fmt=fmt)
    if prune:
        sections.append(("Pruning techniques against plain alpha-beta", prune))
    policies = policies_section(df_all, fig_dir, rel_to=out_dir, fmt=fmt) \
        if _has_policy_study(df_all) else ""
    if policies:
        sections.append(("Move-ordering policies", policies.split("\n", 1)[1].lstrip()
                         if policies.startswith("## ") else policies))
    if excluded:
        ex_rows = df_all[df_all["status"].astype(str) != "ok"]
        keys = [k for k in ("tree", "b", "d", "ordering", "algorithm", "status") if k in ex_rows.columns]
        g = ex_rows.groupby(keys, dropna=False).size().reset_index(name="rows")
        sections.append(("Excluded rows", md_table(list(g.columns), g.itertuples(index=False))))
    else:
        sections.append(("Excluded rows", "None: every row has status \"ok\"."))
    return sections, results


def _has_policy_study(df: pd.DataFrame) -> bool:
    """Games or dynamic/static orderings in the table: the move-ordering section applies."""
    games = "game" in df.columns and df["game"].notna().any()
    orders = "ordering" in df.columns and df["ordering"].astype(str).str.contains(
        "id|tt|killer|history|static|centre|corners|captures").any()
    return bool(games or orders)


def anchor(h: str) -> str:
    """The GitHub-style anchor of a markdown heading."""
    keep = "".join(ch for ch in h.lower() if ch.isalnum() or ch in " -_")
    return keep.strip().replace(" ", "-")


def run_fit_depths(run_dir: Path | str) -> int | None:
    """The fit window a run's stored config sets (``fit_depths``: the deepest that many depths;
    None: all); 8 for a run without the key (runs from before it existed used 8)."""
    path = Path(run_dir) / "config.yaml"
    cfg = (yaml.safe_load(path.read_text(encoding="utf-8")) or {}) if path.exists() else {}
    return check_fit_depths(cfg.get("fit_depths", 8) if isinstance(cfg, dict) else 8)


def overlay_section(df: pd.DataFrame, run_dir: Path, fmt: str = "png") -> list[tuple[str, str]]:
    """The report's section "Simulation against the exact expectations": the figure of
    searchlab.analysis.figures.plot_exact_overlay (leaves) and the largest deviation, or a line
    saying why there is none (no plain alpha-beta rows on i.i.d. trees in natural or random order)."""
    tab = P.exact_overlay_table(df)
    head = "Simulation against the exact expectations"
    if tab.empty:
        return [(head, "No overlay: the run has no plain alpha-beta rows on i.i.d. trees in natural or "
                       "random order, the searches whose expected counts searchlab.theory computes.")]
    path = P.plot_exact_overlay(tab, Path(run_dir) / "figures" / "exact_overlay", fmt=fmt)
    ratio = tab["mean"] / tab["exact"]
    inside = ((tab["lo"] <= tab["exact"] + tab["exact_error"]) & (tab["exact"] - tab["exact_error"] <= tab["hi"]))
    worst = tab.loc[(ratio - 1).abs().idxmax()]
    text = (f"Mean leaves of plain alpha-beta on i.i.d. trees (natural or random order: the same random "
            f"tree) against their exact expectations (searchlab.theory: `expected_counts` for K leaf "
            f"levels, the bracket of `continuous_bounds` for continuous leaves). {int(inside.sum())} of "
            f"{len(tab)} (b, d, ordering) cells have the exact value inside their 95 % CI (about 95 % "
            f"expected); the largest deviation is {number(float(ratio.loc[worst.name]), 4)}× at b = "
            f"{int(worst.b)}, d = {int(worst.d)}, {worst.ordering} (n = {int(worst.n)}).\n\n"
            f"![simulation against the exact expectations](figures/{path.name})")
    return [(head, text)]


def write_report(run_dir: Path, *, fmt: str = "png", exact: bool = True, n_resamples: int = 999,
                 partial: bool = False, fit_depths: int | None | str = "config", claims: str = "measured",
                 overlay: bool = False) -> Path:
    """Read a sweep's Parquet table; write run_dir/report.md and run_dir/figures/. Returns the
    path. An incomplete or damaged run raises IncompleteRunError unless ``partial``; then the
    report says at the top that it is partial (tasks done / planned). (The other kinds' reports
    are their own writers', chosen by the kind registry: experiment.api.write_run_report.)
    ``fit_depths``: the fits' window; "config": the run's own (:func:`run_fit_depths`);
    ``claims``: "measured", "all" or "none" (:func:`build_report`); ``overlay``: add the
    figure of simulated means against the exact expectations (i.i.d. runs)."""
    run_dir = Path(run_dir)
    fit_depths = run_fit_depths(run_dir) if fit_depths == "config" else check_fit_depths(fit_depths)
    df = load_run(run_dir, partial=partial)
    return build_report(df, run_dir, title=f"searchlab report: {run_dir.name}", source=str(run_dir),
                        command=f"searchlab-report {'--partial ' if partial else ''}{run_dir}",
                        fmt=fmt, exact=exact, n_resamples=n_resamples, fit_depths=fit_depths,
                        claims=claims, extra_sections=overlay_section(df, run_dir, fmt) if overlay else None,
                        preamble="\n\n".join(x for x in (run_header(run_dir),
                                                          partial_note(run_dir, df) if partial else "") if x))
