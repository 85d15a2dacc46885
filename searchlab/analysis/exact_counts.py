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
SearchResult; natural order on i.i.d. trees, i.e. random order (analysis.convergence.ORDERING).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

import numpy as np
from joblib import Parallel, delayed
from scipy import stats

from searchlab.algorithms.kernels import run_kernel
from searchlab.hashing import GOLDEN, MASK64, mix64
from searchlab.theory.exact import (ContinuousBounds, continuous_bounds, expected_counts,
                                    uniform_pmf, win_loss_pmf)
from searchlab.trees import IIDTree

from . import theory as T
from .discrete import OFFSET, leaf_win_prob
from .tables import md_table

__all__ = ["FULL_DEPTHS", "SMALL_DEPTHS", "FULL_PER_HEIGHT", "SMALL_PER_HEIGHT", "ExactB",
           "convergence", "Crossover", "crossover", "CriticalRow", "critical", "CheckCell",
           "simulation_check", "ExactStudy", "study", "facts", "section"]

#: deepest depth per b (continuous leaves). Full size: b = 2 to 60 and 8 to 24 as the issue asks;
#: the cost is in the section (O(dmax^3 per_height^2) per b).
FULL_DEPTHS = {2: 60, 3: 40, 4: 32, 6: 26, 8: 24, 12: 20, 16: 18, 24: 16, 32: 16, 35: 14, 64: 12}
SMALL_DEPTHS = {2: 24, 4: 14, 8: 10}
FULL_PER_HEIGHT, SMALL_PER_HEIGHT = 32, 16
#: the crossover's K and depth range per b
CROSS_K = (2, 4, 8, 16, 32, 64, 128, 256)
CROSS_DMAX = {2: 80, 4: 60, 8: 40}
CROSS_SMALL = ((2, 4, 8, 16), {2: 40})


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


def _one_b(b: int, dmax: int, per_height: int) -> ExactB:
    t0 = time.perf_counter()
    fine = continuous_bounds(b, dmax, per_height)
    coarse = continuous_bounds(b, dmax, per_height // 2)
    return ExactB(b, per_height, fine, coarse, time.perf_counter() - t0)


def convergence(depths: dict[int, int], per_height: int, n_jobs: int = 1) -> dict[int, ExactB]:
    """ExactB per b, in parallel over b (joblib)."""
    order = sorted(depths, key=lambda b: -depths[b] ** 3)     # the longest first
    got = Parallel(n_jobs=n_jobs)(delayed(_one_b)(b, depths[b], per_height) for b in order)
    return {r.b: r for r in sorted(got, key=lambda r: r.b)}


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

    @property
    def z(self) -> float:
        """(mean - nearest point of [low, high]) / se; 0 inside the bracket."""
        gap = self.mean - self.exact_high if self.mean > self.exact_high else (
            self.mean - self.exact_low if self.mean < self.exact_low else 0.0)
        return gap / self.se if self.se > 0 else (0.0 if gap == 0 else math.inf)


def _seeds(base: int, key: int, n: int) -> list[int]:
    return [mix64((base + (key * 2**20 + i + 1) * GOLDEN) & MASK64) for i in range(n)]


def _simulate(b: int, d: int, seeds, levels: int, win_prob) -> np.ndarray:
    out = np.empty((len(seeds), 2))
    for i, s in enumerate(seeds):
        r = run_kernel(IIDTree(b, d, s, levels=levels, win_prob=win_prob), "alphabeta", "natural")
        out[i] = r.nodes, r.leaves
    return out


#: (b, d, leaf model) of the check: continuous cells of the convergence section, K-level cells
#: of the crossover, win/loss cells of the critical case
CHECK_FULL = ([(b, d, "continuous") for b, d in ((2, 10), (2, 16), (2, 20), (4, 10), (8, 6), (8, 8),
                                                  (16, 5), (32, 4))]
              + [(b, d, f"K={K}") for b, d, K in ((2, 12, 2), (2, 16, 4), (2, 20, 16), (4, 8, 4), (8, 6, 16))]
              + [(b, d, "critical") for b, d in ((2, 15), (2, 16), (4, 10), (8, 7))])
CHECK_SMALL = [(2, 8, "continuous"), (4, 5, "continuous"), (2, 8, "K=3"), (4, 5, "K=2"), (2, 9, "critical")]


def simulation_check(cells, n: int, base_seed: int = 25, per_height: int = 32,
                     n_jobs: int = 1) -> list[CheckCell]:
    """The kernel's mean nodes and leaves over ``n`` independent trees per cell against the DP."""
    out = []
    for key, (b, d, model) in enumerate(cells):
        seeds = _seeds(base_seed, key, n)
        levels, win_prob = 0, None
        if model.startswith("K="):
            levels = int(model[2:])
            seq = expected_counts(b, d, uniform_pmf(levels))
            exact = {c: (getattr(seq, c)[d],) * 2 for c in ("nodes", "leaves")}
        elif model == "critical":
            win_prob = leaf_win_prob(T.pearl_xi(b), d)
            seq = expected_counts(b, d, win_loss_pmf(win_prob))
            exact = {c: (getattr(seq, c)[d],) * 2 for c in ("nodes", "leaves")}
        else:
            cb = continuous_bounds(b, d, per_height)
            exact = {c: (getattr(cb.low, c)[d], getattr(cb.high, c)[d]) for c in ("nodes", "leaves")}
        chunks = [seeds[i::max(n_jobs, 1)] for i in range(max(n_jobs, 1))]
        sims = np.vstack(Parallel(n_jobs=n_jobs)(delayed(_simulate)(b, d, c, levels, win_prob)
                                                 for c in chunks if c))
        for j, c in enumerate(("nodes", "leaves")):
            x = sims[:, j]
            out.append(CheckCell(b, d, model, c, n, float(x.mean()), float(x.std(ddof=1) / math.sqrt(n)),
                                 *exact[c]))
    return out


def chi_square(cells: list[CheckCell]) -> tuple[float, int, float]:
    """(sum z^2, cells, p) over the leaves cells (nodes and leaves of one tree are dependent;
    the leaves are the count the section reports)."""
    zs = [c.z for c in cells if c.count == "leaves"]
    x2 = float(sum(z * z for z in zs))
    return x2, len(zs), float(stats.chi2.sf(x2, len(zs)))


@dataclass
class ExactStudy:
    small: bool
    conv: dict[int, ExactB]
    cross: list[Crossover]
    crit: list[CriticalRow]
    check: list[CheckCell]
    seconds: dict[str, float] = field(default_factory=dict)
    sampled: dict | None = None         # analysis.convergence's results, for the paired comparison


def study(small: bool = False, n_jobs: int = 1, log=print) -> ExactStudy:
    """Everything the section reports; ``small`` for a quick check (--small)."""
    secs = {}
    t0 = time.perf_counter()
    log("== exact expectations: convergence (continuous leaves)")
    conv = convergence(SMALL_DEPTHS if small else FULL_DEPTHS,
                       SMALL_PER_HEIGHT if small else FULL_PER_HEIGHT, n_jobs)
    secs["convergence"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    Ks, dm = CROSS_SMALL if small else (CROSS_K, CROSS_DMAX)
    cross = [c for b, dmax in dm.items() for c in crossover(b, Ks, dmax)]
    secs["crossover"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    crit = [r for b, dmax in ({2: 24} if small else {2: 60, 4: 40, 8: 24}).items() for r in critical(b, dmax)]
    secs["critical"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    log("== exact expectations: simulation check")
    check = simulation_check(CHECK_SMALL if small else CHECK_FULL, 300 if small else 3000,
                             per_height=SMALL_PER_HEIGHT if small else FULL_PER_HEIGHT, n_jobs=n_jobs)
    secs["simulation check"] = time.perf_counter() - t0
    return ExactStudy(small, conv, cross, crit, check, secs)
