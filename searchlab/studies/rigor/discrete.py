"""Discrete leaf values: Pearl's critical case, the sqrt(b) regime elsewhere, ties and the cut rule.

Pearl (1980): on a uniform tree whose leaves are wins for the side to move there with
probability w, each ply maps w to 1 - w^b; the fixed point is xi_b (x^b + x - 1 = 0). At
w = xi_b the game stays undecided at every ply and alpha-beta's branching factor is
R_b = xi_b / (1 - xi_b), as for continuous values; at any other w the root's value is decided
with probability -> 1 and the branching factor is sqrt(b). Leaf values are MAX's, so a tree of
depth d gets ``IIDTree(win_prob=q)`` with q = w at even d (MAX moves at the leaves) and
q = 1 - w at odd d (docs/trees.md).

- ``critical_study``: random-order alpha-beta (kernel) on paired seeds, w = xi_b and w = xi_b ± 0.15,
  exponent from the parity fit (estimators.fit_with_ci) and the growth at the deepest d;
- ``cut_rule_study``: the spec's rule (ties cut, ">=") against the strict rule (">") with K
  leaf levels, the critical case and continuous values; leaves under both rules as a paired
  ratio with a bootstrap CI (stats.paired_ratio) and the share of cut events that were ties.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from searchlab.algorithms.ordering import base_order
from searchlab.algorithms.kernels import run_kernel
from searchlab.theory.exact import expected_counts, uniform_pmf
from searchlab.trees import IIDTree

from searchlab.analysis import estimators as E
from searchlab.analysis import theory as T
from searchlab.analysis.estimators import Estimate
from searchlab.studies.rigor.instrumented import instrumented_alphabeta
from searchlab.analysis.stats import paired_ratio
from searchlab.analysis.markdown_tables import md_table

__all__ = ["exact_discrete_alpha", "leaf_win_prob", "CriticalCell", "critical_study", "CutRuleCell", "cut_rule_study",
           "section", "critical_plan", "critical_rows", "critical_from", "cut_rule_plan", "cut_rule_rows",
           "cut_rule_from"]

OFFSET = 0.15
FULL_DEPTHS = {2: range(2, 27), 4: range(2, 16), 8: range(2, 11)}
SMALL_DEPTHS = {2: range(2, 15), 4: range(2, 9)}


def exact_discrete_alpha(b: int, levels: int, depths) -> float:
    """The exponent α = log b_eff / log b that the sampled parity fit estimates, computed from
    the exact expectations: the same fit (estimators.fit_growth, "parity") of log E[leaves] on d
    over ``depths``, with E[leaves] of random-order alpha-beta on IIDTree(b, d, levels=K) from
    the window DP (searchlab.theory.exact). The sampled fit (log of the mean over trees) is an
    estimate of exactly this number."""
    ds = sorted(int(d) for d in depths)
    seq = expected_counts(int(b), ds[-1], uniform_pmf(int(levels)))
    return math.log(E.fit_growth(ds, [seq.leaves[d] for d in ds], "parity").beff) / math.log(b)


def leaf_win_prob(w: float, d: int) -> float:
    """IIDTree's win_prob (MAX's view) that makes a depth-d leaf a win for the side to move
    there with probability w: w at even d, 1 - w at odd d."""
    return w if d % 2 == 0 else 1.0 - w


def _leaves(b: int, depths, w: float, seeds) -> np.ndarray:

    out = np.empty((len(seeds), len(depths)))
    for i, s in enumerate(seeds):
        for j, d in enumerate(depths):
            tree = IIDTree(b, d, s, win_prob=leaf_win_prob(w, d))
            out[i, j] = run_kernel(tree, "alphabeta", "random", ordering_seed=s).leaves
    return out


@dataclass(frozen=True)
class CriticalCell:
    """One (b, w): fitted exponent (parity fit over the deepest 8 depths) and the parity growth
    at the deepest d, both with bootstrap CIs over the n paired trees."""

    b: int
    w: float
    critical: bool
    depths: tuple[int, ...]
    n: int
    alpha: Estimate
    growth: Estimate
    growth_d: int


def critical_plan(small: bool = False, seed: int = 14) -> list[tuple[int, int, list[int], list[int]]]:
    """(b, w index 0..2 for xi_b - OFFSET, xi_b, xi_b + OFFSET, depths, seeds): every b of
    FULL_DEPTHS (SMALL_DEPTHS); n = 100 (small: 20) trees seed·10^6 + b·1000 + i, the same
    seeds at every depth and w."""
    n = 20 if small else 100
    return [(b, k, [int(d) for d in ds], [seed * 1_000_000 + b * 1000 + i for i in range(n)])
            for b, ds in (SMALL_DEPTHS if small else FULL_DEPTHS).items() for k in range(3)]


def _w(b: int, k: int) -> float:
    xi = T.pearl_xi(b)
    return (xi - OFFSET, xi, xi + OFFSET)[k]


def critical_rows(b: int, k: int, depths: list[int], seeds: list[int]) -> list[dict]:
    """Rows of the ``critical_leaves`` table: leaves of the kernel's random-order alpha-beta on
    win/loss IIDTree(b, d, seed) with w = _w(b, k) (leaf_win_prob), one per (tree, d)."""
    mat = _leaves(b, depths, _w(b, k), seeds)
    return [{"b": b, "w_index": k, "tree": i, "d": d, "leaves": int(mat[i, j])}
            for i in range(len(seeds)) for j, d in enumerate(depths)]


def critical_from(table: pd.DataFrame, plan, n_resamples: int = 999) -> list[CriticalCell]:
    """The CriticalCells of ``plan`` (critical_plan) from the ``critical_leaves`` table: the
    parity fit over the deepest 8 depths and the parity growth at the deepest d, with bootstrap
    CIs over the paired trees. ValueError when a (tree, depth) is missing."""
    out = []
    for b, k, ds, seeds in plan:
        sub = table[(table["b"] == b) & (table["w_index"] == k)]
        wide = sub.pivot(index="tree", columns="d", values="leaves").sort_index().sort_index(axis=1)
        if wide.shape != (len(seeds), len(ds)) or wide.isna().to_numpy().any():
            raise ValueError(f"critical case b={b}, w index {k}: the table misses counts (an incomplete run)")
        depths = np.array(ds)
        mat = wide.to_numpy(dtype=float)
        w = _w(b, k)
        keep = depths[-8:]
        sub_m = mat[:, -len(keep):]
        _, al, _ = E.fit_with_ci(keep, sub_m, b, n_resamples=n_resamples)
        dmax = int(depths[-1])
        g = E.parity_growth_with_ci(depths, mat, n_resamples=n_resamples, only=dmax)[dmax]
        out.append(CriticalCell(b, float(w), k == 1, tuple(int(d) for d in keep), len(seeds), al, g, dmax))
    return out


def critical_study(small: bool = False, seed: int = 14, n_resamples: int = 999) -> list[CriticalCell]:
    """w = xi_b - 0.15, xi_b, xi_b + 0.15 for every b of FULL_DEPTHS (SMALL_DEPTHS); n = 100
    (small: 20) trees, the same seeds at every depth and w; in this process (the engine runs
    ``critical_rows`` as tasks: studies.rigor.rigor_study)."""
    plan = critical_plan(small, seed)
    return critical_from(pd.DataFrame([r for c in plan for r in critical_rows(*c)]), plan, n_resamples)


@dataclass(frozen=True)
class CutRuleCell:
    """Leaves under the strict rule over leaves under the spec's (ties cut), paired per tree,
    and the share of the spec's cut events that were ties (v equal to the bound)."""

    b: int
    d: int
    values: str
    n: int
    leaves_ties_cut: float
    leaves_strict: float
    ratio: Estimate
    tie_share: float


#: the leaf models of the cut-rule study: label -> IIDTree keywords (of b and d)
def _cut_rule_models(b: int, d: int) -> list[tuple[str, dict]]:
    return [("K = 2", dict(levels=2)), ("K = 3", dict(levels=3)), ("K = 8", dict(levels=8)),
            ("critical (w = ξ_b)", dict(win_prob=leaf_win_prob(T.pearl_xi(b), d))), ("continuous", dict())]


def cut_rule_plan(small: bool = False) -> list[tuple[int, int, str, int]]:
    """(b, d, leaf model, trees): b = 2 and 4, every model of _cut_rule_models; n = 20 (small: 5)."""
    n = 5 if small else 20
    cells = [(2, 10), (4, 5)] if small else [(2, 14), (4, 7)]
    return [(b, d, label, n) for b, d in cells for label, _ in _cut_rule_models(b, d)]


def cut_rule_rows(b: int, d: int, model: str, n: int, seed: int) -> list[dict]:
    """Rows of the ``cut_rule`` table, one per tree i < n (IIDTree(b, d, seed·1000 + i), random
    order seeded the same): the instrumented alpha-beta's leaves with ties cut and under the
    strict rule, and the ties among the cut events of the first."""
    kw = dict(_cut_rule_models(b, d))[model]
    out = []
    for i in range(n):
        s = seed * 1000 + i
        tree = IIDTree(b, d, s, **kw)
        order = base_order("random", tree, d, s)
        a = instrumented_alphabeta(tree, order=order)
        z = instrumented_alphabeta(tree, order=order, cut_rule=">")
        out.append({"b": b, "d": d, "model": model, "tree": i, "leaves_ties_cut": int(a.leaves),
                    "leaves_strict": int(z.leaves), "tie_cuts": int(a.tie_cuts), "cut_events": int(a.cut_events)})
    return out


def cut_rule_from(table: pd.DataFrame, plan, n_resamples: int = 999) -> list[CutRuleCell]:
    """The CutRuleCells of ``plan`` (cut_rule_plan) from the ``cut_rule`` table (trees in index
    order); ValueError when a cell lacks trees."""
    out = []
    for b, d, label, n in plan:
        sub = table[(table["b"] == b) & (table["d"] == d) & (table["model"] == label)].sort_values("tree")
        if sub["tree"].tolist() != list(range(n)):
            raise ValueError(f"cut rule b={b}, d={d}, {label}: {len(sub)} of {n} trees (an incomplete run)")
        ge, st = [int(x) for x in sub["leaves_ties_cut"]], [int(x) for x in sub["leaves_strict"]]
        ties, events = int(sub["tie_cuts"].sum()), int(sub["cut_events"].sum())
        out.append(CutRuleCell(b, d, label, n, float(np.mean(ge)), float(np.mean(st)),
                               paired_ratio(st, ge, n_resamples=n_resamples),
                               ties / events if events else math.nan))
    return out


def cut_rule_study(small: bool = False, seed: int = 14, n_resamples: int = 999) -> list[CutRuleCell]:
    """Random order, b = 2 and 4, K = 2, 3, 8 levels, the critical win probability and
    continuous values; n = 20 (small: 5) trees; in this process (the engine runs
    ``cut_rule_rows`` as tasks: studies.rigor.rigor_study)."""
    plan = cut_rule_plan(small)
    return cut_rule_from(pd.DataFrame([r for b, d, m, n in plan for r in cut_rule_rows(b, d, m, n, seed)]),
                         plan, n_resamples)


def section(critical: list[CriticalCell], cut_rule: list[CutRuleCell]) -> str:

    rows = []
    for c in critical:
        rb_alpha = T.pearl_alpha(c.b)
        target = rb_alpha if c.critical else 0.5
        inside = c.alpha.low <= target <= c.alpha.high
        rows.append([c.b, f"{c.w:.3f}" + (" (ξ_b)" if c.critical else ""), f"{c.depths[0]}..{c.depths[-1]}",
                     c.n, c.alpha.fmt(3), f"{c.growth.fmt(3)} (d={c.growth_d})",
                     f"{T.pearl_rb(c.b):.3g} / {math.sqrt(c.b):.3g}",
                     f"{'log R_b/log b' if c.critical else '1/2'} = {target:.3f}: "
                     f"{'inside' if inside else 'outside'} the CI"])
    crit = [c for c in critical if c.critical]
    off = [c for c in critical if not c.critical]
    summary = ("At w = ξ_b the fitted exponent is " + ", ".join(
        f"{c.alpha.value:.3f} (b = {c.b}; log R_b/log b = {T.pearl_alpha(c.b):.3f})" for c in crit)
        + "; at w = ξ_b ± 0.15 it is " + ", ".join(
        f"{c.alpha.value:.3f} (b = {c.b}, w = {c.w:.2f})" for c in off)
        + ". " + _critical_conclusion(crit, off))
    rows2 = [[c.b, c.d, c.values, c.n, f"{c.leaves_ties_cut:,.0f}", f"{c.leaves_strict:,.0f}",
              c.ratio.fmt(3), f"{c.tie_share:.3f}"] for c in cut_rule]
    return ("Win/loss leaves with win probability w for the side to move at the leaves "
            "(`IIDTree(win_prob=...)`, docs/trees.md), random order, leaves, the same seeds at every "
            "depth and w; exponent α from the parity fit over the deepest 8 depths, growth "
            "√(N(d)/N(d−2)) at the deepest d (95 % bootstrap CIs over trees):\n\n"
            + md_table(["b", "w", "depths", "n", "α [95 % CI]", "growth at max d", "R_b / √b",
                        "theory"], rows)
            + "\n\n" + summary
            + "\n\nTies and the cut rule: the spec cuts on ties (return when v ≥ β at MAX, v ≤ α at MIN); "
            "the strict rule (v > β, v < α) is also exact but does not cut on a tie. Leaves under "
            "each rule (random order, mean over n trees), the strict rule's leaves over the spec's as "
            "a paired ratio (bootstrap CI over trees), and the share of the spec's cut events that "
            "were ties:\n\n"
            + md_table(["b", "d", "leaf values", "n", "leaves, ties cut (≥)", "leaves, strict (>)",
                        "strict / ties cut [95 % CI]", "tie share of cut events"], rows2)
            + "\n\n" + _cut_rule_conclusion(cut_rule))


def _critical_conclusion(crit: list[CriticalCell], off: list[CriticalCell]) -> str:
    """A sentence checked against the numbers: is every critical exponent above every
    off-critical one of the same b (CIs disjoint), and nearer log R_b/log b than 1/2?"""
    sep = all(c.alpha.low > o.alpha.high for c in crit for o in off if o.b == c.b)
    near = all(abs(c.alpha.value - T.pearl_alpha(c.b)) < abs(c.alpha.value - 0.5) for c in crit)
    off_near = all(abs(o.alpha.value - 0.5) < abs(o.alpha.value - T.pearl_alpha(o.b)) for o in off)
    if sep and near and off_near:
        return ("At every b the critical exponent's CI lies above the off-critical ones', nearer "
                "Pearl's log R_b/log b than 1/2, and the off-critical exponents lie nearer 1/2: with "
                "win/loss leaves it is the win probability, not the number of values, that decides "
                "between the R_b and the √b regime." + _finite_depth_note(crit, off))
    return ("The separation is not clean at these depths: critical CIs above all off-critical ones: "
            f"{'yes' if sep else 'no'}; critical nearer log R_b/log b than 1/2: {'yes' if near else 'no'}; "
            f"off-critical nearer 1/2: {'yes' if off_near else 'no'}.")


def _finite_depth_note(crit: list[CriticalCell], off: list[CriticalCell]) -> str:
    below = [c.b for c in crit if c.alpha.high < T.pearl_alpha(c.b)]
    above = sorted({o.b for o in off if o.alpha.low > 0.5})
    parts = []
    if below:
        parts.append(f"the critical CI lies below log R_b/log b at b = {', '.join(map(str, below))}")
    if above:
        parts.append(f"an off-critical CI lies above 1/2 at b = {', '.join(map(str, above))}")
    return (" At these finite depths " + " and ".join(parts) + ".") if parts else ""


def _cut_rule_conclusion(cells: list[CutRuleCell]) -> str:
    cont = [c for c in cells if c.values == "continuous"]
    disc = [c for c in cells if c.values != "continuous"]
    same = all(c.leaves_strict == c.leaves_ties_cut and c.tie_share == 0 for c in cont)
    lo = min(c.ratio.value for c in disc)
    hi = max(c.ratio.value for c in disc)
    k2 = [c for c in disc if c.values == "K = 2"]
    return (f"With discrete values the strict rule examines {lo:.2g}–{hi:.2g}× the leaves of the spec's "
            f"rule (K = 2: " + ", ".join(f"{c.ratio.value:.3g}× at b = {c.b}, d = {c.d}, ties "
                                         f"{c.tie_share:.0%} of cut events" for c in k2)
            + "): cutting on ties is what makes few-valued trees cheap. "
            + ("With continuous values no tie occurred and both rules searched the same trees."
               if same else "With continuous values the rules differed: see the table."))
