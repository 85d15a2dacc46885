"""Random-order alpha-beta on i.i.d. trees from exact expectations (searchlab.theory.exact),
with simulation as the check of the DP, not as the evidence.

- ``convergence``: for each b, the expected nodes and leaves N(d) with continuous leaves at every
  depth to ``dmax`` (the bracket of continuous_bounds at ``per_height`` cells per height, its
  midpoint as the value, and the midpoint's change from per_height / 2 as the estimated error);
  N / b^(3d/4), N / R_b^d, the growth N(d)/N(d-1) and sqrt(N(d)/N(d-2)).
- ``crossover``: K equiprobable leaf levels (exact): the depth at which the growth leaves R_b
  for sqrt(b) (first d >= 4 whose sqrt(N(d)/N(d-2)) lies below the midpoint of the two).
- ``critical``: win/loss leaves (exact) at Pearl's critical w = xi_b and at xi_b +- 0.15.
- ``simulation_check``: the kernel's mean over n independent trees per cell against the DP, a
  z per cell and a chi-square over cells (continuous cells: z against the nearer end of the
  rigorous bracket, 0 inside it).

Counts: nodes = calls of the search (root and leaves included), leaves = evaluations, as in
SearchResult; natural order on i.i.d. trees, i.e. random order (studies.rigor.convergence.ORDERING).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from scipy import stats

from searchlab.algorithms.kernels import run_kernel
from searchlab.hashing import GOLDEN, MASK64, mix64
from searchlab.theory.exact import (ContinuousBounds, ExactSequence, continuous_bounds, expected_counts,
                                    uniform_pmf, win_loss_pmf)
from searchlab.trees import IIDTree

from searchlab.analysis import figures as P
from searchlab.analysis.palette import SERIES
from searchlab.analysis import theory as T
from searchlab.studies.rigor.discrete import OFFSET, leaf_win_prob
from searchlab.analysis.markdown_tables import md_table
from searchlab.studies.claim_study.claim_steps import Step, run_steps

__all__ = ["FULL_DEPTHS", "SMALL_DEPTHS", "FULL_PER_HEIGHT", "SMALL_PER_HEIGHT", "ExactB", "bounds_rows",
           "convergence", "Crossover", "crossover", "crossover_rows", "CriticalRow", "critical", "critical_rows",
           "CheckCell", "check_rows", "check_cells", "simulation_check", "study_rows_check", "chi_square",
           "ExactStudy", "SIZES", "KINDS", "SEED", "exact_counts_steps", "summarise", "study", "facts",
           "verdict_words", "plot_gap", "section"]

#: deepest depth per b (continuous leaves). Full size: b = 2 to 60 and 8 to 24 as the issue asks;
#: the cost is in the section (O(dmax^3 per_height^2) per b).
FULL_DEPTHS = {2: 60, 3: 40, 4: 32, 6: 26, 8: 24, 12: 20, 16: 18, 24: 16, 32: 16, 35: 14, 64: 12}
SMALL_DEPTHS = {2: 24, 4: 14, 8: 10}
FULL_PER_HEIGHT, SMALL_PER_HEIGHT = 32, 16
#: the crossover's K and depth range per b
CROSS_K = (2, 4, 8, 16, 32, 64, 128, 256)
CROSS_DMAX = {2: 80, 4: 60, 8: 40}
CROSS_SMALL = ((2, 4, 8, 16), {2: 40})
#: alpha-beta without deep cutoffs: deepest d per b, cells per height
B2_DEPTHS, B2_SMALL, B2_PER_HEIGHT = {2: 30, 4: 20, 8: 14}, {2: 12, 8: 6}, 16


@dataclass(frozen=True)
class ExactB:
    """One b: the bracket at per_height cells per height and the midpoint at per_height / 2."""

    b: int
    per_height: int
    bounds: ContinuousBounds
    coarse: ContinuousBounds
    seconds: float

    def value(self, count: str, d: int) -> float:
        return getattr(self.bounds, count)(d)

    def bracket(self, count: str, d: int) -> tuple[float, float]:
        return getattr(self.bounds.low, count)[d], getattr(self.bounds.high, count)[d]

    def est_error(self, count: str, d: int) -> float:
        """|midpoint(per_height) - midpoint(per_height / 2)|: the estimated error of the value."""
        return abs(getattr(self.bounds, count)(d) - getattr(self.coarse, count)(d))

    def growth2(self, count: str, d: int) -> float:
        return math.sqrt(self.value(count, d) / self.value(count, d - 2))

    def growth2_coarse(self, count: str, d: int) -> float:
        return math.sqrt(getattr(self.coarse, count)(d) / getattr(self.coarse, count)(d - 2))

    def growth2_bracket(self, count: str, d: int) -> tuple[float, float]:
        """The rigorous interval of sqrt(N(d)/N(d-2)) from the two brackets."""
        lo, hi = self.bracket(count, d)
        lo2, hi2 = self.bracket(count, d - 2)
        return math.sqrt(lo / hi2), math.sqrt(hi / lo2)

    def growth1(self, count: str, d: int) -> float:
        return self.value(count, d) / self.value(count, d - 1)


def bounds_rows(b: int, dmax: int, per_height: int, algorithm: str = "alphabeta") -> list[dict]:
    """Rows of the ``exact_bounds`` table for one b: the bracket of continuous_bounds at
    ``per_height`` cells per height, and for alpha-beta also at per_height / 2 (the midpoint's
    estimated error); one row per (per_height, d) with both ends, nodes and leaves (floats, as
    computed), the partition's cells and the seconds the step took."""
    t0 = time.perf_counter()
    grids = [continuous_bounds(b, dmax, per_height, algorithm)]
    if algorithm == "alphabeta":
        grids.append(continuous_bounds(b, dmax, per_height // 2))
    secs = time.perf_counter() - t0
    return [{"b": b, "algorithm": algorithm, "per_height": cb.per_height, "d": d,
             "low_nodes": cb.low.nodes[d], "low_leaves": cb.low.leaves[d],
             "high_nodes": cb.high.nodes[d], "high_leaves": cb.high.leaves[d],
             "cells_even": cb.cells[0], "cells_odd": cb.cells[1], "seconds": secs}
            for cb in grids for d in range(cb.low.dmax + 1)]


def _bounds_of(rows: pd.DataFrame) -> ContinuousBounds:
    """The ContinuousBounds of one (b, algorithm, per_height) group of ``exact_bounds`` rows."""
    rows = rows.sort_values("d")
    if rows["d"].tolist() != list(range(len(rows))):
        raise ValueError(f"b={int(rows['b'].iloc[0])}: the exact_bounds table misses depths (an incomplete run)")
    b = int(rows["b"].iloc[0])
    seqs = [ExactSequence(b, (), rule, tuple(float(x) for x in rows[f"{end}_nodes"]),
                          tuple(float(x) for x in rows[f"{end}_leaves"]))
            for end, rule in (("low", ">="), ("high", ">"))]
    return ContinuousBounds(b, int(rows["per_height"].iloc[0]), seqs[0], seqs[1],
                            (int(rows["cells_even"].iloc[0]), int(rows["cells_odd"].iloc[0])))


def _exact_b(rows: pd.DataFrame, per_height: int) -> ExactB:
    """The ExactB of one b from its alpha-beta ``exact_bounds`` rows."""
    fine = _bounds_of(rows[rows["per_height"] == per_height])
    coarse = _bounds_of(rows[rows["per_height"] == per_height // 2])
    return ExactB(fine.b, per_height, fine, coarse, float(rows["seconds"].iloc[0]))


def convergence(depths: dict[int, int], per_height: int) -> dict[int, ExactB]:
    """ExactB per b, in this process (the engine runs ``bounds_rows`` as tasks: exact_counts_steps)."""
    return {b: _exact_b(pd.DataFrame(bounds_rows(b, depths[b], per_height)), per_height)
            for b in sorted(depths)}


@dataclass(frozen=True)
class Crossover:
    """K levels, branching b: the exact growth sqrt(N(d)/N(d-2)) of leaves at d = 2..dmax and
    the crossover depth (None when the growth stays above the midpoint to dmax)."""

    b: int
    K: int
    growth: dict[int, float]
    depth: int | None


def crossover(b: int, Ks=CROSS_K, dmax: int = 60) -> list[Crossover]:
    mid = 0.5 * (T.pearl_rb(b) + math.sqrt(b))
    out = []
    for K in Ks:
        seq = expected_counts(b, dmax, uniform_pmf(K))
        g = {d: math.sqrt(seq.leaves[d] / seq.leaves[d - 2]) for d in range(2, dmax + 1)}
        dstar = next((d for d in range(4, dmax + 1) if g[d] < mid), None)
        out.append(Crossover(b, K, g, dstar))
    return out


@dataclass(frozen=True)
class CriticalRow:
    b: int
    w: float
    d: int
    leaves: float
    growth: float


def critical(b: int, dmax: int) -> list[CriticalRow]:
    """Win/loss leaves, a leaf a win for the side to move there with probability w (discrete.py's
    convention: IIDTree win_prob = w at even d, 1 - w at odd d), exact at every d <= dmax."""
    xi = T.pearl_xi(b)
    rows = []
    for w in (xi - OFFSET, xi, xi + OFFSET):
        seqs = {par: expected_counts(b, dmax, win_loss_pmf(leaf_win_prob(w, par))) for par in (0, 1)}
        leaves = [seqs[d % 2].leaves[d] for d in range(dmax + 1)]
        for d in (dmax - 1, dmax):
            rows.append(CriticalRow(b, w, d, leaves[d], math.sqrt(leaves[d] / leaves[d - 2])))
    return rows


@dataclass(frozen=True)
class CheckCell:
    """One cell of the simulation check: the DP's value (or bracket) against the kernel's mean."""

    b: int
    d: int
    leaves_model: str
    count: str
    n: int
    mean: float
    se: float
    exact_low: float
    exact_high: float
    skew: float = math.nan          # the sample skewness of the cell's counts (study_rows_check)

    @property
    def z_mid(self) -> float:
        """(mean - midpoint of [low, high]) / se."""
        return (self.mean - 0.5 * (self.exact_low + self.exact_high)) / self.se if self.se > 0 else math.nan

    @property
    def z(self) -> float:
        """(mean - nearest point of [low, high]) / se; 0 inside the bracket."""
        gap = self.mean - self.exact_high if self.mean > self.exact_high else (
            self.mean - self.exact_low if self.mean < self.exact_low else 0.0)
        return gap / self.se if self.se > 0 else (0.0 if gap == 0 else math.inf)


def _seeds(base: int, key: int, n: int) -> list[int]:
    return [mix64((base + (key * 2**20 + i + 1) * GOLDEN) & MASK64) for i in range(n)]


def check_rows(cell: int, b: int, d: int, model: str, seeds: list[int], first: int) -> list[dict]:
    """Rows of the ``exact_check`` table: nodes and leaves of the kernel's alpha-beta (natural
    order) on IIDTree(b, d, seed) for each seed of one check cell (``model``: "continuous",
    "K=<levels>" or "critical", the win/loss leaves at Pearl's xi_b); ``tree`` = ``first`` + the
    seed's position (its index in the cell's _seeds)."""
    t0 = time.perf_counter()
    levels = int(model[2:]) if model.startswith("K=") else 0
    win_prob = leaf_win_prob(T.pearl_xi(b), d) if model == "critical" else None
    out = []
    for i, s in enumerate(seeds):
        r = run_kernel(IIDTree(b, d, s, levels=levels, win_prob=win_prob), "alphabeta", "natural")
        out.append({"cell": cell, "b": b, "d": d, "model": model, "tree": first + i,
                    "nodes": int(r.nodes), "leaves": int(r.leaves)})
    secs = time.perf_counter() - t0
    return [dict(r, seconds=secs) for r in out]


#: (b, d, leaf model) of the check: continuous cells of the convergence section, K-level cells
#: of the crossover, win/loss cells of the critical case
CHECK_FULL = ([(b, d, "continuous") for b, d in ((2, 10), (2, 16), (2, 20), (4, 10), (8, 6), (8, 8),
                                                  (16, 5), (32, 4))]
              + [(b, d, f"K={K}") for b, d, K in ((2, 12, 2), (2, 16, 4), (2, 20, 16), (4, 8, 4), (8, 6, 16))]
              + [(b, d, "critical") for b, d in ((2, 15), (2, 16), (4, 10), (8, 7))])
CHECK_SMALL = [(2, 8, "continuous"), (4, 5, "continuous"), (2, 8, "K=3"), (4, 5, "K=2"), (2, 9, "critical")]


def _exact_cell(b: int, d: int, model: str, per_height: int, conv: dict[int, ExactB] | None
                ) -> dict[str, tuple[float, float]]:
    """The DP's value (low = high) or bracket of one check cell, nodes and leaves (continuous
    cells: the bracket of ``conv[b]`` where it reaches d, else computed at ``per_height``)."""
    if model.startswith("K="):
        seq = expected_counts(b, d, uniform_pmf(int(model[2:])))
        return {c: (getattr(seq, c)[d],) * 2 for c in ("nodes", "leaves")}
    if model == "critical":
        seq = expected_counts(b, d, win_loss_pmf(leaf_win_prob(T.pearl_xi(b), d)))
        return {c: (getattr(seq, c)[d],) * 2 for c in ("nodes", "leaves")}
    e = (conv or {}).get(b)
    cb = e.bounds if e is not None and d <= e.bounds.low.dmax else continuous_bounds(b, d, per_height)
    return {c: (getattr(cb.low, c)[d], getattr(cb.high, c)[d]) for c in ("nodes", "leaves")}


def check_cells(cells, table: pd.DataFrame, per_height: int,
                conv: dict[int, ExactB] | None = None, n: int | None = None) -> list[CheckCell]:
    """The CheckCells of ``cells`` (key = position in ``cells``) from the ``exact_check`` table:
    the kernel's mean and standard error over the cell's trees (in tree order) against the DP.
    ValueError when a cell lacks trees (none, or with ``n``: not trees 0..n-1; an incomplete run)."""
    out = []
    for key, (b, d, model) in enumerate(cells):
        sub = table[table["cell"] == key].sort_values("tree")
        if sub.empty or (n is not None and sub["tree"].tolist() != list(range(n))):
            raise ValueError(f"check cell {key} (b={b}, d={d}, {model}): {len(sub)} of "
                             f"{n if n is not None else 'its'} trees (an incomplete run)")
        n = len(sub)
        exact = _exact_cell(b, d, model, per_height, conv)
        for c in ("nodes", "leaves"):
            x = sub[c].to_numpy(dtype=float)
            out.append(CheckCell(b, d, model, c, n, float(x.mean()), float(x.std(ddof=1) / math.sqrt(n)),
                                 *exact[c]))
    return out


def simulation_check(cells, n: int, base_seed: int = 25, per_height: int = 32,
                     conv: dict[int, ExactB] | None = None) -> list[CheckCell]:
    """The kernel's mean nodes and leaves over ``n`` independent trees per cell against the DP
    (continuous cells: the bracket of ``conv[b]`` where it reaches d, else computed), in this
    process (the engine runs ``check_rows`` as tasks: exact_counts_steps)."""
    rows = [r for key, (b, d, model) in enumerate(cells)
            for r in check_rows(key, b, d, model, _seeds(base_seed, key, n), 0)]
    return check_cells(cells, pd.DataFrame(rows), per_height, conv, n)


def chi_square(cells: list[CheckCell], midpoint: bool = False) -> tuple[float, int, float]:
    """(sum z^2, cells, p) over the leaves cells (nodes and leaves of one tree are dependent;
    the leaves are the count the section reports); ``midpoint``: z against the bracket's
    midpoint (the sharper test where the bracket is wider than the CI)."""
    zs = [(c.z_mid if midpoint else c.z) for c in cells if c.count == "leaves"]
    x2 = float(sum(z * z for z in zs))
    return x2, len(zs), float(stats.chi2.sf(x2, len(zs)))


#: study cells with fewer trees than this have z's that are read as small-sample artefacts
SMALL_N = 30


def _small_n_note(worst: list[CheckCell], p_all: float) -> str:
    """What the largest |z| of the studies' cells are: with n < SMALL_N skewed counts, a t
    statistic overstates |z| when the sample misses the long tail (its mean and its standard
    error both fall), so a large |z| there is an n artefact unless a larger sample repeats it."""
    small = [c for c in worst if c.n < SMALL_N and abs(c.z) > 2]
    if not small:
        return ""
    sk = [c.skew for c in small if math.isfinite(c.skew)]
    return (f"{len(small)} of these {len(worst)} cells (|z| up to {max(abs(c.z) for c in small):.2f}) have "
            f"n = {min(c.n for c in small)}–{max(c.n for c in small)} trees"
            + (f" and skewed counts (sample skewness {min(sk):.2f}–{max(sk):.2f})" if sk else "")
            + ": with so few skewed counts the t statistic overstates |z| when the sample misses the long tail "
            "(its mean and its standard error fall together), so they are read as small-n artefacts, not as "
            f"evidence against the DP; over all cells χ² gives p = {p_all:.3f}, and the simulation check above "
            "compares the DP with 300–2,000 trees per cell.")


def study_rows_check(st: "ExactStudy", rows) -> list[CheckCell]:
    """Every cell (b, d, levels, win_prob) of the studies' i.i.d. rows searched by alpha-beta
    (fail-soft or fail-hard) in natural or random order, against the DP: on i.i.d. trees any
    order chosen independently of the values gives the same distribution of counts. The
    standard error comes from the cell's own n distinct trees; z is the t statistic mapped to the normal
    scale (scipy.stats.t.cdf then norm.ppf), since n is small in some studies."""
    if rows is None or len(rows) == 0 or "tree" not in rows.columns:
        return []
    sub = rows[(rows["tree"] == "iid") & rows["algorithm"].isin(["alphabeta", "alphabeta-failhard"])
               & rows["ordering"].isin(["natural", "random"])]
    if "status" in sub.columns:
        sub = sub[sub["status"] == "ok"]
    if sub.empty:
        return []
    sub = sub.assign(levels=sub["levels"].fillna(0).astype(int) if "levels" in sub.columns else 0,
                     win_prob=sub["win_prob"] if "win_prob" in sub.columns else np.nan)
    # the reproduction's studies share tree seeds: one tree (and order) counts once; fail-hard
    # visits the nodes fail-soft visits, so the algorithm is not part of the key
    key_cols = [c for c in ("b", "d", "levels", "win_prob", "seed", "ordering", "ordering_seed") if c in sub.columns]
    sub = sub.drop_duplicates(subset=key_cols)
    cont: dict[int, ContinuousBounds] = {}
    disc: dict[tuple, object] = {}
    out = []
    for (b, d, lv, q), g in sub.groupby(["b", "d", "levels", "win_prob"], dropna=False):
        b, d, lv = int(b), int(d), int(lv)
        if len(g) < 2 or d < 1:
            continue
        if not (isinstance(q, float) and math.isnan(q)):
            key = (b, "q", float(q))
            if key not in disc:
                disc[key] = expected_counts(b, int(sub[sub["b"] == b]["d"].max()), win_loss_pmf(float(q)))
            ex = {c: (getattr(disc[key], c)[d],) * 2 for c in ("nodes", "leaves")}
            model = f"win_prob={float(q):.4g}"
        elif lv > 0:
            key = (b, "K", lv)
            if key not in disc:
                disc[key] = expected_counts(b, int(sub[(sub["b"] == b) & (sub["levels"] == lv)]["d"].max()),
                                            uniform_pmf(lv))
            ex = {c: (getattr(disc[key], c)[d],) * 2 for c in ("nodes", "leaves")}
            model = f"K={lv}"
        else:
            e = st.conv.get(b)
            if e is not None and d <= e.bounds.low.dmax:
                cb = e.bounds
            else:
                if b not in cont:
                    dm = int(sub[(sub["b"] == b) & (sub["levels"] == 0)]["d"].max())
                    cont[b] = continuous_bounds(b, max(dm, 2), FULL_PER_HEIGHT if not st.small else SMALL_PER_HEIGHT)
                cb = cont[b]
            ex = {c: (getattr(cb.low, c)[d], getattr(cb.high, c)[d]) for c in ("nodes", "leaves")}
            model = "continuous"
        n = len(g)
        for c in ("nodes", "leaves"):
            x = g[c].to_numpy(dtype=float)
            sd = x.std(ddof=1)
            if sd == 0:
                continue
            se = sd / math.sqrt(n)
            lo, hi = ex[c]
            m = float(x.mean())
            t = (m - hi) / se if m > hi else (m - lo) / se if m < lo else 0.0
            z = float(stats.norm.ppf(stats.t.cdf(t, n - 1))) if t != 0 else 0.0
            # a CheckCell whose se is rescaled so that its z equals the normal-scale z
            out.append(CheckCell(b, d, model, c, n, m, abs((m - (hi if m > hi else lo)) / z) if z else se, lo, hi,
                                 float(stats.skew(x, bias=False))))
    return out




@dataclass
class ExactStudy:
    small: bool
    conv: dict[int, ExactB]
    cross: list[Crossover]
    crit: list[CriticalRow]
    check: list[CheckCell]
    seconds: dict[str, float] = field(default_factory=dict)
    no_deep: dict[int, ContinuousBounds] = field(default_factory=dict)
    sampled: dict | None = None         # studies.rigor.convergence's results, for the paired comparison


# --------------------------------------------------------------------------- as engine tasks

def crossover_rows(b: int, Ks: list[int], dmax: int) -> list[dict]:
    """Rows of the ``exact_crossover`` table: crossover(b, Ks, dmax)'s growth per (K, d)."""
    t0 = time.perf_counter()
    got = crossover(b, tuple(Ks), dmax)
    secs = time.perf_counter() - t0
    return [{"b": b, "K": c.K, "d": d, "growth": g, "seconds": secs} for c in got for d, g in c.growth.items()]


def critical_rows(b: int, dmax: int) -> list[dict]:
    """Rows of the ``exact_critical`` table: critical(b, dmax)."""
    t0 = time.perf_counter()
    got = critical(b, dmax)
    secs = time.perf_counter() - t0
    return [{"b": r.b, "w": r.w, "d": r.d, "leaves": r.leaves, "growth": r.growth, "seconds": secs} for r in got]


#: trees per step of the simulation check (the task ids do not depend on n_jobs)
CHECK_TREES_PER_STEP = 250
#: the study at each size: (deepest d per b, cells per height, crossover (Ks, dmax per b),
#: critical dmax per b, no-deep-cutoffs deepest d per b, check cells, trees per check cell)
SIZES = {
    "full": (FULL_DEPTHS, FULL_PER_HEIGHT, (CROSS_K, CROSS_DMAX), {2: 60, 4: 40, 8: 24}, B2_DEPTHS,
             CHECK_FULL, 2000),
    "small": (SMALL_DEPTHS, SMALL_PER_HEIGHT, CROSS_SMALL, {2: 24}, B2_SMALL, CHECK_SMALL, 300),
    # the tests' size: every part of the study, each in a second or less
    "tiny": ({2: 8, 4: 5}, 8, ((2, 4), {2: 12}), {2: 10}, {2: 6},
             [(2, 6, "continuous"), (2, 6, "K=2"), (2, 7, "critical")], 2 * CHECK_TREES_PER_STEP // 5),
}
#: the tables the steps write
KINDS = ("exact_bounds", "exact_crossover", "exact_critical", "exact_check")
#: the study's seed (``base_seed`` of the check's _seeds; experiments/exact_counts.yaml)
SEED = 25


def exact_counts_steps(size: str = "full", seed: int = SEED) -> list[Step]:
    """The study at ``size`` (SIZES) as steps of the engine (the claim-study family
    ``exact_counts``: ``searchlab experiment=exact_counts``): the brackets per b (the longest
    first), the crossover and critical sequences per b, the no-deep-cutoffs brackets per b, and
    the simulation check's trees, CHECK_TREES_PER_STEP a step, seeded by _seeds(seed, cell, n)
    (cell = its position in the size's check cells). Work: the DP's O(dmax^3 M^2) or the
    trees' expected nodes, roughly."""
    depths, per_height, (Ks, cross_dmax), crit_dmax, b2, cells, n = SIZES[size]
    steps = [Step("exact_bounds", ("alphabeta", b), bounds_rows, dict(b=b, dmax=depths[b], per_height=per_height),
                  depths[b] ** 3 * per_height ** 2)
             for b in sorted(depths, key=lambda b: -depths[b] ** 3)]
    steps += [Step("exact_bounds", ("no-deep-cutoffs", b), bounds_rows,
                   dict(b=b, dmax=d, per_height=B2_PER_HEIGHT, algorithm="no-deep-cutoffs"),
                   d ** 3 * B2_PER_HEIGHT ** 2) for b, d in b2.items()]
    steps += [Step("exact_crossover", (b,), crossover_rows, dict(b=b, Ks=list(Ks), dmax=dmax),
                   dmax ** 2 * len(Ks) * max(Ks) ** 2) for b, dmax in cross_dmax.items()]
    steps += [Step("exact_critical", (b,), critical_rows, dict(b=b, dmax=dmax), dmax ** 2 * 12)
              for b, dmax in crit_dmax.items()]
    for key, (b, d, model) in enumerate(cells):
        seeds = _seeds(seed, key, n)
        for first in range(0, n, CHECK_TREES_PER_STEP):
            chunk = seeds[first:first + CHECK_TREES_PER_STEP]
            steps.append(Step("exact_check", (key, first), check_rows,
                              dict(cell=key, b=b, d=d, model=model, seeds=chunk, first=first),
                              int(len(chunk) * b ** (0.75 * d)) + 1))
    return steps


def _step_seconds(table: pd.DataFrame, step_cols: list[str]) -> float:
    """The seconds of a table's steps: each step's (repeated on its rows) counted once."""
    if table.empty:
        return 0.0
    return float(table.groupby(step_cols)["seconds"].first().sum())


def summarise(tables: dict[str, pd.DataFrame], size: str = "full", seed: int = SEED) -> ExactStudy:
    """Everything the section reports, from the run's tables (a function of the tables only;
    ``seconds``: the steps' own seconds, summed per part). ValueError for an incomplete run."""
    depths, per_height, (Ks, cross_dmax), crit_dmax, b2, cells, n = SIZES[size]
    bounds = tables["exact_bounds"]
    ab, nd = bounds[bounds["algorithm"] == "alphabeta"], bounds[bounds["algorithm"] == "no-deep-cutoffs"]
    conv = {int(b): _exact_b(g, per_height) for b, g in ab.groupby("b")}
    no_deep = {int(b): _bounds_of(g) for b, g in nd.groupby("b")}
    no_deep = {b: no_deep[b] for b in b2 if b in no_deep}          # the plan's order
    cross = []
    xt = tables["exact_crossover"]
    for b in cross_dmax:
        for K in Ks:
            sub = xt[(xt["b"] == b) & (xt["K"] == K)].sort_values("d")
            if sub.empty:
                raise ValueError(f"crossover b={b}, K={K}: no rows (an incomplete run)")
            g = {int(d): float(v) for d, v in zip(sub["d"], sub["growth"])}
            mid = 0.5 * (T.pearl_rb(b) + math.sqrt(b))
            cross.append(Crossover(b, int(K), g, next((d for d in range(4, max(g) + 1) if g[d] < mid), None)))
    ct = tables["exact_critical"]
    crit = [CriticalRow(int(r.b), float(r.w), int(r.d), float(r.leaves), float(r.growth))
            for b in crit_dmax for r in ct[ct["b"] == b].sort_values(["w", "d"]).itertuples()]
    check = check_cells(cells, tables["exact_check"], per_height, conv, n)
    secs = {"convergence": _step_seconds(ab, ["b"]),
            "crossover": _step_seconds(xt, ["b"]),
            "critical": _step_seconds(ct, ["b"]),
            "no deep cutoffs": _step_seconds(nd, ["b"]),
            "simulation check": _step_seconds(tables["exact_check"].assign(
                first=tables["exact_check"]["tree"] // CHECK_TREES_PER_STEP), ["cell", "first"])}
    return ExactStudy(size == "small", conv, cross, crit, check, secs, no_deep)


def study(small: bool = False, seed: int = SEED) -> ExactStudy:
    """Everything the section reports, every step in this process (the engine runs the same
    steps as tasks: ``searchlab experiment=exact_counts``; the same numbers)."""
    size = "small" if small else "full"
    return summarise(run_steps(exact_counts_steps(size, seed), KINDS), size, seed)


# --------------------------------------------------------------------------- facts and report

def _parity_facts(e: ExactB, d: int, count: str = "leaves") -> dict:
    """The growth at depth d (one parity) against R_b, with the per-ply rate at which the gap
    closes over the last (up to) 10 plies of the same parity."""
    rb = T.pearl_rb(e.b)
    g = e.growth2(count, d)
    k = min(10, d - 6 - (d % 2)) if d >= 8 else 0
    k -= k % 2
    rate = None
    if k >= 2:
        g0 = e.growth2(count, d - k)
        if (g - rb) * (g0 - rb) > 0 and g0 != rb:
            rate = ((g - rb) / (g0 - rb)) ** (1 / k)
    seq = [e.growth2(count, x) for x in range(4 + (d % 2), d + 1, 2)]
    lo, hi = e.growth2_bracket(count, d)
    # growth, gap, rate, monotone_down and above are the midpoint's (an estimate); bracket,
    # rb_in_bracket and below_b34 are rigorous (from the two ends of the bracket)
    return dict(d=d, growth=g, growth_err=abs(g - e.growth2_coarse(count, d)),
                bracket=(lo, hi), gap=g - rb, rate=rate,
                monotone_down=all(a > c for a, c in zip(seq, seq[1:])),
                above=all(x > rb for x in seq), rb_in_bracket=lo <= rb <= hi,
                below_b34=hi < e.b ** 0.75)


def facts(st: ExactStudy) -> dict:
    """The numbers the 000-f verdict and the section's sentences rest on."""
    out = {}
    for b, e in st.conv.items():
        dmax = e.bounds.low.dmax
        par = {p: _parity_facts(e, d) for p, d in (("even", dmax - dmax % 2), ("odd", dmax - 1 + dmax % 2))}
        out[b] = dict(dmax=dmax, parity=par, rb=T.pearl_rb(b),
                      ratio34_nodes=e.value("nodes", dmax) / b ** (0.75 * dmax),
                      ratio34_leaves=e.value("leaves", dmax) / b ** (0.75 * dmax),
                      ratio_rb=e.value("leaves", dmax) / T.pearl_rb(b) ** dmax,
                      ratio_rb_prev=e.value("leaves", dmax - 2) / T.pearl_rb(b) ** (dmax - 2),
                      max34=max((e.value("nodes", d) / b ** (0.75 * d), d) for d in range(1, dmax + 1)),
                      below34_from=next((d for d in range(1, dmax + 1)
                                         if all(e.value("nodes", x) < b ** (0.75 * x) for x in range(d, dmax + 1))), None),
                      # rigorous: the bracket's upper end below b^(3d/4) from this depth on
                      below34_from_bracket=next((d for d in range(1, dmax + 1)
                                                 if all(e.bracket("nodes", x)[1] < b ** (0.75 * x)
                                                        for x in range(d, dmax + 1))), None),
                      ratio34_nodes_bracket=tuple(x / b ** (0.75 * dmax) for x in e.bracket("nodes", dmax)),
                      rel_bracket=max(0.5 * (e.bracket("leaves", d)[1] - e.bracket("leaves", d)[0]) / e.value("leaves", d)
                                      for d in range(1, dmax + 1)),
                      rel_err=max(e.est_error("leaves", d) / e.value("leaves", d) for d in range(1, dmax + 1)),
                      seconds=e.seconds, cells=e.bounds.cells)
    allpar = [p for f in out.values() for p in f["parity"].values()]
    x2, k, p = chi_square(st.check) if st.check else (math.nan, 0, math.nan)
    return dict(b=out, all_above=all(p["above"] for p in allpar),
                all_monotone=all(p["monotone_down"] for p in allpar),
                all_rb_in_bracket=all(p["rb_in_bracket"] for p in allpar),
                all_below_b34=all(p["below_b34"] for p in allpar),
                chi2=(x2, k, p), max_abs_z=max((abs(c.z) for c in st.check), default=math.nan))


def verdict_words(f: dict) -> str:
    """The R_b verdict: what the rigorous bracket shows, then the midpoint's estimate, labelled.

    Only the bracket is a proof: the growth's rigorous interval sqrt(low(d) / high(d-2)) ..
    sqrt(high(d) / low(d-2)) is about ±1-2.5 % wide at the report's cells per height, far wider
    than the midpoint's gaps to R_b (1e-4 to 4e-3), so the side from which the growth approaches
    R_b and its monotonic fall are statements about the midpoint (an estimate, its error
    estimated from M/2 to M cells, not bounded), and are worded as such."""
    bs = f["b"]
    rig = []
    for b, v in bs.items():
        e, o = v["parity"]["even"], v["parity"]["odd"]
        rig.append(f"b = {b}: [{e['bracket'][0]:.4f}, {e['bracket'][1]:.4f}] at d = {e['d']}, "
                   f"[{o['bracket'][0]:.4f}, {o['bracket'][1]:.4f}] at d = {o['d']} "
                   f"(R_b = {v['rb']:.5f}, b^(3/4) = {b ** 0.75:.4f})")
    n = len(bs)
    pars = {b: list(v["parity"].values()) for b, v in bs.items()}
    n_b34 = sum(all(p["below_b34"] for p in ps) for ps in pars.values())
    above = [b for b, ps in pars.items() if all(p["bracket"][0] > bs[b]["rb"] for p in ps)]
    holds_rb = [b for b, ps in pars.items() if all(p["rb_in_bracket"] for p in ps)]
    half = max(0.5 * (p["bracket"][1] - p["bracket"][0]) / p["growth"] for ps in pars.values() for p in ps)
    rigorous = ("Rigorous (the bracket's ends): the growth sqrt(N(d)/N(d-2)) of leaves at the deepest depths lies in "
                + "; ".join(rig) + f". The interval lies below b^(3/4) at {n_b34} of {n} b"
                + (f", above R_b at {len(above)} (b = {', '.join(map(str, above))}: there the growth is still, "
                   "provably, above R_b)" if above else "")
                + (f", and contains R_b at {len(holds_rb)} (b = {', '.join(map(str, holds_rb))})" if holds_rb else "")
                + f"; it is up to ±{half:.1%} wide" + (", so where it contains R_b it cannot tell from which side, "
                                                      "or how monotonically, the growth approaches R_b."
                                                      if holds_rb else "."))
    side = ("from above at every b, odd and even depths apart, decreasing monotonically at every depth shown"
            if f["all_above"] and f["all_monotone"] else
            "from above at the deepest depths" if f["all_above"] else "not monotonically from one side")
    parts = []
    for b, v in bs.items():
        e, o = v["parity"]["even"], v["parity"]["odd"]
        rate = ", ".join(f"{x['rate']:.3f}" for x in (e, o) if x["rate"] is not None) or "n/a"
        parts.append(f"b = {b}: {e['growth']:.5f} at d = {e['d']}, {o['growth']:.5f} at d = {o['d']} "
                     f"(R_b = {v['rb']:.5f}; gap {e['gap']:+.1e} / {o['gap']:+.1e}, closing by {rate} per ply)")
    estimate = ("Estimate (the bracket's midpoint; its error estimated from the change between M/2 and M cells per "
                f"height, not a bound): the midpoint's growth approaches R_b {side}: " + "; ".join(parts)
                + ". Midpoint N(d)/R_b^d at the deepest d (two plies earlier): "
                + ", ".join(f"b = {b}: {v['ratio_rb']:.4f} ({v['ratio_rb_prev']:.4f})" for b, v in bs.items())
                + ", i.e. N ≈ c·R_b^d with c settling.")
    if f["all_below_b34"]:
        concl = ("So, rigorously, the growth at these depths is below b^(3/4) at every b"
                 + (" and consistent with R_b" if f["all_rb_in_bracket"] else "")
                 + "; that it tends to R_b from above is the estimate's reading (and Pearl's theorem), not proved here.")
    else:
        concl = ("So the bracket does not place the growth below b^(3/4) at every b; whether it tends to R_b rests on "
                 "the estimate.")
    return " ".join([rigorous, estimate, concl])


def plot_gap(st: ExactStudy, path: Path, fmt: str = "png") -> Path:
    """sqrt(N(d)/N(d-2)) - R_b (leaves) on a log scale against d, one line per b and parity;
    written as ``fmt`` (png, pdf or svg)."""
    fig, ax = plt.subplots(figsize=(7.2, 4.4))
    for i, (b, e) in enumerate(st.conv.items()):
        rb = T.pearl_rb(b)
        for par, ls in ((0, "-"), (1, ":")):
            ds = [d for d in range(4, e.bounds.low.dmax + 1) if d % 2 == par]
            gap = [e.growth2("leaves", d) - rb for d in ds]
            ok = [(d, g) for d, g in zip(ds, gap) if g > 0]
            if ok:
                ax.semilogy(*zip(*ok), ls, color=SERIES[i % len(SERIES)],
                            label=f"b = {b}" if par == 0 else None)
    ax.set_xlabel("depth d (solid: even, dotted: odd)")
    ax.set_ylabel("sqrt(N(d)/N(d-2)) - R_b  (leaves, exact)")
    ax.set_title("Exact growth of random-order alpha-beta minus Pearl's R_b")
    ax.legend(fontsize=7, ncol=2)
    ax.grid(alpha=0.3, which="both")
    return P.save(fig, path, fmt)


def _sampled_rows(st: ExactStudy) -> list[list]:
    """The paired sampled convergence study's mean leaves against the exact value, per b."""
    rows = []
    for b, r in sorted((st.sampled or {}).items()):
        e = st.conv.get(b)
        if e is None:
            continue
        zs = []
        for j, d in enumerate(r.depths):
            d = int(d)
            if d > e.bounds.low.dmax:
                continue
            x = r.leaves[:, j]
            se = x.std(ddof=1) / math.sqrt(len(x))
            lo, hi = e.bracket("leaves", d)
            m = x.mean()
            zs.append((m - hi) / se if m > hi else (m - lo) / se if m < lo else 0.0)
        if zs:
            zs = np.array(zs)
            rows.append([b, f"{int(r.depths[0])}..{int(r.depths[-1])}", r.n, f"{np.max(np.abs(zs)):.2f}",
                         int(np.sum(np.abs(zs) > 2)), len(zs)])
    return rows


def section(st: ExactStudy, fig_dir: Path, tree_rows=None, fmt: str = "png") -> str:
    """The report section; ``tree_rows``: the studies' tree rows for the every-cell check; the
    figure written as ``fmt`` (png, pdf or svg)."""
    f = facts(st)
    rows = []
    for b, v in f["b"].items():
        for p in ("even", "odd"):
            x = v["parity"][p]
            e = st.conv[b]
            d = x["d"]
            rows.append([b, d, f"{e.value('nodes', d):.6g}", f"{e.value('leaves', d):.6g}",
                         f"{e.value('nodes', d) / b ** (0.75 * d):.3g}", f"{e.value('leaves', d) / v['rb'] ** d:.4g}",
                         f"{e.growth1('leaves', d):.5f}", f"{x['growth']:.5f} ± {x['growth_err']:.0e}",
                         f"[{x['bracket'][0]:.4f}, {x['bracket'][1]:.4f}]", f"{v['rb']:.5f}", f"{x['gap']:+.2e}",
                         "n/a" if x["rate"] is None else f"{x['rate']:.3f}"])
    deep = []
    for b in (2, 8):
        e = st.conv.get(b)
        if e is None:
            continue
        dmax = e.bounds.low.dmax
        step = max(1, dmax // 12)
        for d in sorted({*range(4, dmax + 1, 2 * step), *range(5, dmax + 1, 2 * step), dmax - 1, dmax}):
            deep.append([b, d, "even" if d % 2 == 0 else "odd", f"{e.value('nodes', d):.6g}",
                         f"{e.value('leaves', d):.6g}", f"{e.value('nodes', d) / b ** (0.75 * d):.3f}",
                         f"{e.value('leaves', d) / T.pearl_rb(b) ** d:.4f}", f"{e.growth1('leaves', d):.5f}",
                         f"{e.growth2('leaves', d):.5f}", f"{e.growth2('nodes', d):.5f}"])
    cost = [[b, v["dmax"], f"{v['cells'][0]}, {v['cells'][1]}", f"{v['rel_bracket']:.1e}", f"{v['rel_err']:.1e}",
             f"{v['seconds']:.1f}"] for b, v in f["b"].items()]
    cross = [[c.b, c.K, c.depth if c.depth is not None else f"> {max(c.growth)}",
              f"{c.growth[max(c.growth)]:.4f} (d = {max(c.growth)})", f"{T.pearl_rb(c.b):.4f}",
              f"{math.sqrt(c.b):.4f}"] for c in st.cross]
    crit = [[r.b, f"{r.w:.4f}" + (" (ξ_b)" if abs(r.w - T.pearl_xi(r.b)) < 1e-12 else ""), r.d,
             f"{r.leaves:.6g}", f"{r.growth:.4f}", f"{T.pearl_rb(r.b):.4f}", f"{math.sqrt(r.b):.4f}"] for r in st.crit]
    chk = [[c.b, c.d, c.leaves_model, c.count, c.n, f"{c.mean:.5g} ± {1.96 * c.se:.2g}",
            f"{c.exact_low:.6g}" if c.exact_low == c.exact_high else f"[{c.exact_low:.6g}, {c.exact_high:.6g}]",
            f"{c.z:+.2f}", f"{c.z_mid:+.2f}"] for c in st.check]
    x2, k, p = f["chi2"]
    x2m, _, pm = chi_square(st.check, midpoint=True)
    fig = plot_gap(st, fig_dir / "exact_growth_gap.png", fmt)
    sampled = _sampled_rows(st)
    secs = ", ".join(f"{k} {v:.0f} s" for k, v in st.seconds.items())
    parts = [
        "Expected counts of random-order alpha-beta (the trees' natural order on i.i.d. trees) computed, not "
        "sampled: searchlab.theory.exact solves a dynamic programme over the search window (for a node of "
        "height h and window (α, β), the expected count is 1 plus, over the children, the probability of "
        "reaching child i with running bound α' times the count below it with (α', β); the siblings' values are "
        "F^b / 1-(1-F)^b of the height below; prefix sums give all windows of a height in O(K^2)). It reproduces "
        "searchlab's fail-soft alpha-beta (ties cut, nodes and leaves as search() counts them) exactly: equal in "
        "exact rationals to the mean over every leaf assignment of tiny trees (b = 2, d ≤ 3, K ≤ 4; b = 3, d = 2), "
        "fail-hard visiting the same nodes, and equal to the Knuth-Moore count under perfect order "
        "(tests/theory/test_exact.py). Continuous leaves are not a large fixed K (that is Pearl's discrete case, "
        "below): the DP runs on a partition whose cells have equal mass 1/M at every height of the tree, once "
        "with ties cutting (a subset of the continuous search's nodes, so a lower bound) and once with the strict "
        "rule (a superset, an upper bound): the true expectation lies in the bracket, rigorously. The value shown "
        "is the bracket's midpoint; ± is its change from M/2 to M cells per height (an estimate of its error, "
        "not a bound); the rigorous interval of the growth is given beside it. "
        f"M = {st.conv[next(iter(st.conv))].per_height} cells per height; cost {secs} (the seconds of each "
        "part's tasks on the engine's runner, summed).",
        md_table(["b", "d", "E[nodes]", "E[leaves]", "nodes / b^(3d/4)", "leaves / R_b^d", "N(d)/N(d-1)",
                  "sqrt(N(d)/N(d-2)), midpoint ± est. error", "rigorous interval", "R_b", "gap (midpoint)",
                  "gap ratio per ply (midpoint)"], rows),
        "**Verdict (exact):** " + verdict_words(f),
        f"![exact growth minus R_b](figures/{fig.name})",
        "The bracket's midpoint (an estimate) at b = 2 and b = 8, odd and even depths apart (leaves unless marked):",
        md_table(["b", "d", "parity", "E[nodes]", "E[leaves]", "nodes / b^(3d/4)", "leaves / R_b^d", "N(d)/N(d-1)",
                  "sqrt(N(d)/N(d-2))", "same, nodes"], deep),
        "Cost and accuracy per b (cells of the two partitions, even- and odd-depth chains; the largest half-width "
        "of the rigorous bracket and the largest estimated error of the midpoint, relative, over all depths):",
        md_table(["b", "deepest d", "cells", "bracket half-width", "est. error", "seconds"], cost),
        "**Pearl's discrete case, exact** (K equiprobable leaf levels, IIDTree(levels=K)): the growth of leaves "
        "first follows the continuous one towards R_b, then falls to sqrt(b) once the root's value settles on one "
        "level. Crossover depth: the first d ≥ 4 where sqrt(N(d)/N(d-2)) < (R_b + sqrt(b))/2.",
        md_table(["b", "K", "crossover depth", "growth at the deepest d", "R_b", "sqrt(b)"], cross),
        "**Win/loss leaves, exact** (a leaf is a win for the side to move there with probability w; Pearl's "
        "critical w = ξ_b and ξ_b ± 0.15): at ξ_b the growth tends to R_b, off it to sqrt(b).",
        md_table(["b", "w", "d", "E[leaves]", "sqrt(N(d)/N(d-2))", "R_b", "sqrt(b)"], crit),
        f"**Check by simulation** (the kernel, n independent trees per cell, seeds derived from 25 and the cell; "
        f"continuous cells against the rigorous bracket, z = 0 inside it): χ² = {x2:.1f} over {k} leaves cells, "
        f"p = {p:.3f}; largest |z| over nodes and leaves {f['max_abs_z']:.2f}. Against the bracket's midpoint "
        f"(the value the tables use; sharper, since the bracket is wider than the CI at this n): χ² = {x2m:.1f}, "
        f"p = {pm:.3f}.",
        md_table(["b", "d", "leaves", "count", "n", "mean ± 95 %", "exact", "z", "z against the midpoint"], chk),
    ]
    if st.no_deep:
        nd = []
        for b, cb in st.no_deep.items():
            e = st.conv.get(b)
            dm = cb.low.dmax
            for d in sorted({dm // 2, dm - 1, dm}):
                ab = e.value("leaves", d) if e is not None and d <= e.bounds.low.dmax else math.nan
                nd.append([b, d, f"{cb.leaves(d):.6g} ± {cb.leaves_error(d) / cb.leaves(d):.1%}", f"{ab:.6g}",
                           f"{cb.leaves(d) / ab:.3f}", f"{math.sqrt(cb.leaves(d) / cb.leaves(d - 2)):.4f}",
                           f"{e.growth2('leaves', d):.4f}" if e is not None and d <= e.bounds.low.dmax else "n/a"])
        parts += ["**Alpha-beta without deep cutoffs** (Knuth & Moore's F1: a node's only bound is its parent's "
                  "value so far; searchlab.theory.exact.expected_counts_no_deep_cutoffs, equal to brute force over "
                  f"every leaf assignment in tests/theory/test_exact.py), continuous leaves, bracket at "
                  f"{B2_PER_HEIGHT} cells per height (± its relative half-width, a rigorous bound):",
                  md_table(["b", "d", "E[leaves], no deep cutoffs", "E[leaves], alpha-beta", "ratio",
                            "growth sqrt(N(d)/N(d-2)), no deep cutoffs", "same, alpha-beta"], nd)]
    every = study_rows_check(st, tree_rows)
    if every:
        x2e, ke, pe = chi_square(every)
        worst = sorted(every, key=lambda c: -abs(c.z))[:5]
        models = sorted({c.leaves_model for c in every})
        parts += [f"**Every cell of the studies run above** (their i.i.d. rows searched by alpha-beta in natural or "
                  f"random order: {ke} (b, d, leaf model) cells, leaf models {', '.join(models)}, "
                  f"n = {min(c.n for c in every)}–{max(c.n for c in every)} trees per cell; z from each cell's own t "
                  f"statistic, continuous cells against the rigorous bracket): χ² = {x2e:.1f} over {ke} leaves "
                  f"cells, p = {pe:.3f}; the five largest |z|:",
                  md_table(["b", "d", "leaves", "count", "n", "mean", "exact", "z", "sample skewness"],
                           [[c.b, c.d, c.leaves_model, c.count, c.n, f"{c.mean:.5g}",
                             f"{c.exact_low:.6g}" if c.exact_low == c.exact_high else
                             f"[{c.exact_low:.6g}, {c.exact_high:.6g}]", f"{c.z:+.2f}",
                             f"{c.skew:.2f}"] for c in worst]),
                  _small_n_note(worst, pe)]
    if sampled:
        parts += ["The paired sampled convergence study below against the exact bracket (its depths share seeds, "
                  "so the z's of one b are correlated and are not combined into a χ²):",
                  md_table(["b", "depths", "n trees", "max |z|", "|z| > 2", "depths compared"], sampled)]
    return "\n\n".join(parts)
