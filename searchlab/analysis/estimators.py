"""Estimators of the effective branching factor (EBF), with bootstrap confidence intervals.

Every EBF the project reports is one of these, and is named wherever it is shown:

- ``per-depth``   b_eff(d) = N(d)^(1/d)                                   (``beff_per_depth``)
- ``parity``      sqrt(N(d) / N(d-2)): alpha-beta's counts alternate between odd and even d
                  (Knuth–Moore), so the naive ratio N(d)/N(d-1) oscillates   (``parity_growth``)
- ``fit``         least squares of log N on d with a parity term (or odd and even d separately),
                  giving b_eff = exp(slope) and the exponent alpha = log b_eff / log b (``fit_growth``)
- ``R&N b*``      Russell & Norvig's b* with N_total = 1 + b* + ... + b*^d     (``rn_bstar``)

N is the number of leaves (static evaluations) or of nodes, as the caller chooses. Over tree
instances the count at depth d is the *mean* over instances (so b_eff describes the growth of the
expected count, which is what Knuth–Moore and Pearl analyse). Confidence intervals come from
``scipy.stats.bootstrap`` resampling tree *instances*; for a fit over depths the instance indices
are resampled jointly across depths (instance i at depth d and at depth d' are resampled
together, although they are different trees). Every summary reports n, the number of instances.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass
from typing import Any, Callable, Sequence

import numpy as np
import pandas as pd
from scipy import stats
from scipy.optimize import brentq

from searchlab.analysis import theory
from searchlab.analysis.completeness import complete_depths, depth_cells, n_per_depth, norm_key

__all__ = [
    "ESTIMATORS", "beff_per_depth", "parity_growth", "naive_ratio", "fit_growth", "FitResult",
    "exponent", "rn_bstar", "Estimate", "bootstrap_ci", "count_matrix", "fit_with_ci",
    "per_depth_with_ci", "parity_growth_with_ci", "rn_bstar_with_ci", "GROUP_KEYS",
    "ok_rows", "group_key_columns", "summarize", "check_fit_depths", "FIT_DEPTHS",
]

#: the default fit window: the deepest 8 depths of a configuration enter its fits
FIT_DEPTHS = 8

#: the estimator names used in tables and figures
ESTIMATORS = {
    "per-depth": "b_eff(d) = N(d)^(1/d)",
    "parity": "sqrt(N(d)/N(d-2)) (parity-corrected growth)",
    "fit": "least squares of log N on d with a parity term; b_eff = exp(slope)",
    "fit-odd": "least squares of log N on odd d only",
    "fit-even": "least squares of log N on even d only",
    "R&N b*": "Russell & Norvig b*: N_total = 1 + b* + ... + b*^d",
}

#: the columns that identify one configuration (one series of depths)
GROUP_KEYS = ["experiment", "tree", "b", "levels", "win_prob", "p", "decay", "correlation", "algorithm", "ordering",
              "pruning"]


# --------------------------------------------------------------------------- point estimators

def beff_per_depth(n: float | np.ndarray, d: float | np.ndarray) -> np.ndarray | float:
    """b_eff(d) = N(d)^(1/d)."""
    n = np.asarray(n, dtype=float)
    d = np.asarray(d, dtype=float)
    out = np.exp(np.log(n) / d)
    return float(out) if out.ndim == 0 else out


def parity_growth(n_d: float | np.ndarray, n_dm2: float | np.ndarray) -> np.ndarray | float:
    """Parity-corrected growth per ply: sqrt(N(d) / N(d-2))."""
    out = np.sqrt(np.asarray(n_d, dtype=float) / np.asarray(n_dm2, dtype=float))
    return float(out) if out.ndim == 0 else out


def naive_ratio(n_d: float | np.ndarray, n_dm1: float | np.ndarray) -> np.ndarray | float:
    """N(d)/N(d-1): shown only to exhibit the odd/even oscillation the parity estimator removes."""
    out = np.asarray(n_d, dtype=float) / np.asarray(n_dm1, dtype=float)
    return float(out) if out.ndim == 0 else out


def exponent(beff: float | np.ndarray, b: float | np.ndarray) -> np.ndarray | float:
    """alpha = log b_eff / log b (1 = no pruning, 3/4 = the random-order rule, 1/2 = perfect)."""
    out = np.log(np.asarray(beff, dtype=float)) / np.log(np.asarray(b, dtype=float))
    return float(out) if out.ndim == 0 else out


@dataclass(frozen=True)
class FitResult:
    """A least-squares fit of log N on d. ``beff`` = exp(slope). ``parity_offset`` is the log
    ratio between odd and even depths' lines (0 without a parity term)."""

    beff: float
    slope: float
    intercept: float
    parity_offset: float
    method: str
    depths: tuple[int, ...]


def fit_growth(d: Sequence[float], n: Sequence[float], method: str = "parity") -> FitResult:
    """Least squares of log N on d.

    method: "parity" (common slope, one intercept for even d and one for odd d; needs at least
    one odd and one even depth and three depths in all, else falls back to "plain"), "odd" or
    "even" (only those depths), "plain" (one line through all depths).
    """
    d = np.asarray(d, dtype=float)
    n = np.asarray(n, dtype=float)
    keep = np.isfinite(n) & (n > 0) & np.isfinite(d)
    d, n = d[keep], n[keep]
    if method in ("odd", "even"):
        sel = (d % 2 == 1) if method == "odd" else (d % 2 == 0)
        d, n = d[sel], n[sel]
    parity = (d % 2 == 1).astype(float)
    use_parity = method == "parity" and 0 < parity.sum() < len(d) and len(d) >= 3
    if len(np.unique(d)) < 2:
        raise ValueError(f"fit_growth({method}) needs at least two distinct depths, got {sorted(set(d.tolist()))}")
    y = np.log(n)
    cols = [np.ones_like(d), d] + ([parity] if use_parity else [])
    coef, *_ = np.linalg.lstsq(np.column_stack(cols), y, rcond=None)
    return FitResult(beff=float(math.exp(coef[1])), slope=float(coef[1]), intercept=float(coef[0]),
                     parity_offset=float(coef[2]) if use_parity else 0.0,
                     method=method if (use_parity or method != "parity") else "plain",
                     depths=tuple(int(x) for x in np.unique(d)))


def rn_bstar(n_total: float, d: int) -> float:
    """Russell & Norvig's effective branching factor: the b* with 1 + b* + ... + b*^d = N_total,
    found with scipy's brentq. N_total counts the nodes *including the root* (searchlab's
    ``nodes``); R&N write N + 1 = 1 + b* + ... with N the nodes generated, root excluded, so
    their worked example (N = 52, d = 5, b* = 1.92) is ``rn_bstar(53, 5)``."""
    n_total = float(n_total)
    d = int(d)
    if d < 1:
        raise ValueError("rn_bstar needs d >= 1")
    if n_total < 1:
        raise ValueError("rn_bstar needs N_total >= 1")
    if n_total == 1:
        return 0.0

    def f(x: float) -> float:
        if abs(x - 1.0) < 1e-12:
            return (d + 1) - n_total
        return (x ** (d + 1) - 1.0) / (x - 1.0) - n_total

    return float(brentq(f, 0.0, max(n_total, 2.0), xtol=1e-13, rtol=1e-13, maxiter=500))


# --------------------------------------------------------------------------- bootstrap

@dataclass(frozen=True)
class Estimate:
    """A point estimate with a bootstrap confidence interval over n tree instances."""

    value: float
    low: float
    high: float
    n: int
    confidence: float = 0.95
    method: str = "BCa"

    def contains(self, x: float, rtol: float = 0.0) -> bool:
        lo, hi = self.low, self.high
        pad = rtol * abs(x)
        return (lo - pad) <= x <= (hi + pad)

    def fmt(self, digits: int = 3) -> str:
        if not np.isfinite(self.value):
            return "not estimable"
        if self.n < 2 or not (np.isfinite(self.low) and np.isfinite(self.high)):
            return f"{self.value:.{digits}g} (no CI: n={self.n})"
        if self.low == self.high:
            return f"{self.value:.{digits}g} [CI {self.low:.{digits}g}, {self.high:.{digits}g}: all instances equal] (n={self.n})"
        return f"{self.value:.{digits}g} [{self.low:.{digits}g}, {self.high:.{digits}g}] (n={self.n})"


def bootstrap_ci(n_instances: int, statistic: Callable[[np.ndarray], float], *,
                 confidence: float = 0.95, n_resamples: int = 999, seed: int = 0,
                 method: str = "BCa", vectorized: bool = False) -> Estimate:
    """Bootstrap CI of ``statistic(instance_indices)`` over ``n_instances`` instances.

    The statistic gets an integer array of (resampled) instance indices; the point estimate uses
    all of them once. Uses ``scipy.stats.bootstrap``; BCa falls back to percentile when BCa is not
    defined (e.g. a degenerate jackknife); if every instance gives the same statistic the CI is
    that single value. With ``vectorized=True`` the statistic takes an integer array of shape
    (k, n) (k resamples of n indices) and returns k values (much faster).
    """
    idx = np.arange(n_instances)
    point = float(np.asarray(statistic(idx[None, :]) if vectorized else statistic(idx)).reshape(-1)[0])
    if vectorized:
        def scipy_stat(s, axis=-1):
            s = np.moveaxis(np.asarray(s, dtype=int), axis, -1)
            shape = s.shape[:-1]
            return np.asarray(statistic(s.reshape(-1, s.shape[-1])), dtype=float).reshape(shape)
    else:
        def scipy_stat(s):
            return statistic(np.asarray(s, dtype=int))
    if n_instances < 2 or not np.isfinite(point):
        return Estimate(point, math.nan, math.nan, n_instances, confidence, "none")
    for m in ([method, "percentile"] if method != "percentile" else ["percentile"]):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                res = stats.bootstrap((idx,), scipy_stat,
                                      vectorized=vectorized, n_resamples=n_resamples,
                                      confidence_level=confidence, method=m,
                                      rng=np.random.default_rng(seed))
            except Exception:  # noqa: BLE001 - scipy raises on degenerate input; try the next method
                continue
        lo, hi = float(res.confidence_interval.low), float(res.confidence_interval.high)
        if np.isfinite(lo) and np.isfinite(hi):
            return Estimate(point, min(lo, point), max(hi, point), n_instances, confidence, m)
        # a NaN interval: every resample gave the same value (degenerate) or BCa failed
        dist = np.asarray(res.bootstrap_distribution, dtype=float)
        if dist.size and np.all(np.isfinite(dist)) and np.ptp(dist) == 0:
            return Estimate(point, point, point, n_instances, confidence, "degenerate")
    return Estimate(point, math.nan, math.nan, n_instances, confidence, "failed")


# --------------------------------------------------------------------------- tables

def ok_rows(df: pd.DataFrame) -> tuple[pd.DataFrame, int]:
    """The rows that enter fits (status == "ok") and how many were excluded."""
    if "status" not in df.columns:
        return df, 0
    ok = df["status"].astype(str) == "ok"
    return df[ok], int((~ok).sum())


def group_key_columns(df: pd.DataFrame) -> list[str]:
    """The identifier columns present in df that vary a configuration (GROUP_KEYS ∩ columns)."""
    return [k for k in GROUP_KEYS if k in df.columns]


def count_matrix(df: pd.DataFrame, count: str = "leaves") -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For one configuration: (depths, instance ids, matrix[instance, depth]) of ``count``
    (NaN where an instance has no ok row at that depth). Duplicate rows are averaged."""
    piv = df.pivot_table(index="instance", columns="d", values=count, aggfunc="mean")
    piv = piv.sort_index().sort_index(axis=1)
    return piv.columns.to_numpy(dtype=int), piv.index.to_numpy(), piv.to_numpy(dtype=float)


def _mean_counts(mat: np.ndarray, idx: np.ndarray) -> np.ndarray:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return np.nanmean(mat[idx], axis=0)


def fit_with_ci(depths: np.ndarray, mat: np.ndarray, b: float | None = None, *, method: str = "parity",
                confidence: float = 0.95, n_resamples: int = 999, seed: int = 0
                ) -> tuple[Estimate, Estimate | None, FitResult]:
    """b_eff (and alpha if b is given) from a fit of log(mean N) on d, with instance-joint
    bootstrap CIs. Returns (b_eff, alpha or None, the point fit)."""
    point = fit_growth(depths, _mean_counts(mat, np.arange(mat.shape[0])), method)
    sel = np.isin(np.asarray(depths), point.depths)
    dd = np.asarray(depths, dtype=float)[sel]
    cols = [np.ones_like(dd), dd] + ([(dd % 2 == 1).astype(float)] if point.parity_offset != 0.0 or
                                      (point.method == "parity") else [])
    pinv = np.linalg.pinv(np.column_stack(cols))
    sub = mat[:, sel]
    has_nan = bool(np.isnan(sub).any())

    def stat(idx: np.ndarray) -> np.ndarray:  # idx: (k, n) -> k slopes' exp
        x = sub[idx]                                     # (k, n, D)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            m = np.nanmean(x, axis=1) if has_nan else x.mean(axis=1)
        y = np.log(m)
        out = np.exp(y @ pinv[1])
        bad = ~np.all(np.isfinite(y), axis=1)
        if bad.any():  # a depth with no instance in this resample: refit without it
            for k in np.flatnonzero(bad):
                try:
                    out[k] = fit_growth(dd, m[k], method).beff
                except ValueError:
                    out[k] = np.nan
        return out

    be = bootstrap_ci(mat.shape[0], stat, confidence=confidence, n_resamples=n_resamples, seed=seed,
                      vectorized=True)
    al = None
    if b is not None and b > 1:
        lb = math.log(b)
        al = Estimate(math.log(be.value) / lb,
                      math.log(be.low) / lb if np.isfinite(be.low) and be.low > 0 else math.nan,
                      math.log(be.high) / lb if np.isfinite(be.high) and be.high > 0 else math.nan,
                      be.n, be.confidence, be.method)
    return be, al, point


def per_depth_with_ci(depths: np.ndarray, mat: np.ndarray, *, confidence: float = 0.95,
                      n_resamples: int = 999, seed: int = 0) -> dict[int, Estimate]:
    """b_eff(d) = (mean N(d))^(1/d) at each depth, with a bootstrap CI over that depth's instances."""
    out = {}
    for j, d in enumerate(depths):
        col = mat[:, j]
        col = col[np.isfinite(col)]
        if d < 1 or col.size == 0:
            continue
        out[int(d)] = bootstrap_ci(col.size, lambda i, c=col, dd=d: c[i].mean(axis=-1) ** (1.0 / dd),
                                   confidence=confidence, n_resamples=n_resamples, seed=seed, vectorized=True)
    return out


def parity_growth_with_ci(depths: np.ndarray, mat: np.ndarray, *, confidence: float = 0.95,
                          n_resamples: int = 999, seed: int = 0, only: int | None = None) -> dict[int, Estimate]:
    """sqrt(mean N(d) / mean N(d-2)) for every d with d-2 present (or only d = ``only``),
    instances resampled jointly."""
    pos = {int(d): j for j, d in enumerate(depths)}
    out = {}
    for d, j in pos.items():
        if d - 2 not in pos or (only is not None and d != only):
            continue
        j2 = pos[d - 2]
        rows = np.isfinite(mat[:, j]) & np.isfinite(mat[:, j2])
        sub = mat[rows][:, [j2, j]]
        if sub.shape[0] == 0:
            continue
        out[d] = bootstrap_ci(sub.shape[0], lambda i, s=sub: np.sqrt(s[i, 1].mean(axis=-1) / s[i, 0].mean(axis=-1)),
                              confidence=confidence, n_resamples=n_resamples, seed=seed, vectorized=True)
    return out


def rn_bstar_with_ci(nodes: np.ndarray, d: int, *, confidence: float = 0.95, n_resamples: int = 999,
                     seed: int = 0) -> Estimate:
    """R&N b* of the mean node count at depth d, bootstrap over instances."""
    nodes = np.asarray(nodes, dtype=float)
    nodes = nodes[np.isfinite(nodes)]
    return bootstrap_ci(nodes.size, lambda i: rn_bstar(float(np.mean(nodes[i])), d),
                        confidence=confidence, n_resamples=n_resamples, seed=seed)


def _key_value(v):
    if isinstance(v, float) and math.isnan(v):
        return None
    if v is pd.NA or v is None:
        return None
    if isinstance(v, (np.integer,)):
        return int(v)
    if isinstance(v, (np.floating,)):
        return None if np.isnan(v) else float(v)
    return v


def check_fit_depths(fit_depths: Any) -> int | None:
    """The fit window: an integer >= 2 (the deepest that many depths enter every fit) or None
    (every depth); ValueError otherwise."""
    if fit_depths is None:
        return None
    if isinstance(fit_depths, bool) or not isinstance(fit_depths, int) or fit_depths < 2:
        raise ValueError(f"fit_depths must be an integer >= 2 (the deepest depths a fit uses) or "
                         f"None (all); got {fit_depths!r}")
    return fit_depths


def summarize(df: pd.DataFrame, *, count: str = "leaves", min_depth: int = 2, max_fit_depths: int | None = 8,
              confidence: float = 0.95, n_resamples: int = 999, seed: int = 0) -> pd.DataFrame:
    """One row per configuration (GROUP_KEYS present in df) of ok rows: n instances, depth
    range, fitted b_eff and alpha with CIs (parity fit), the parity-corrected growth at the
    deepest d, the per-depth b_eff at the deepest d, R&N b* at the deepest d (on nodes), and the
    theory figures for that b. Rows with d < min_depth are left out, and only the deepest
    ``max_fit_depths`` depths enter the fit (the asymptotic growth is the quantity of interest;
    the shallowest depths carry the largest finite-depth bias). Where a configuration has fewer
    than two depths >= min_depth, every depth >= 1 is kept.

    ``df`` may hold every status: only the (configuration, depth) cells where every instance
    has an ok row enter (an aborted search leaves the hard instances out: the survivors' mean is
    biased low). ``n_per_depth`` says how many instances each depth has and which depths were
    left out (n ok / n total)."""
    keys = group_key_columns(df)
    cells = depth_cells(df, keys)
    df, _ = ok_rows(df)
    rows = []
    if df.empty:
        return pd.DataFrame(rows)
    for gkey, g in df.groupby(keys, dropna=False, sort=True):
        gkey = gkey if isinstance(gkey, tuple) else (gkey,)
        ident = {k: _key_value(v) for k, v in zip(keys, gkey)}
        cell = cells.get(tuple(norm_key(v) for v in gkey), {})
        g = g[g["d"].isin(complete_depths(cell))]
        if g.empty:
            continue
        g0 = g
        g = g[g["d"] >= min_depth]
        if g["d"].nunique() < 2:
            g = g0[g0["d"] >= 1]
        if g.empty:
            continue
        if max_fit_depths is not None:
            keep = sorted(g["d"].unique())[-max_fit_depths:]
            g = g[g["d"].isin(keep)]
        depths, inst, mat = count_matrix(g, count)
        b = ident.get("b")
        rec = dict(ident)
        rec.update(count=count, n=int(mat.shape[0]), n_per_depth=n_per_depth(cell),
                   d_min=int(depths.min()), d_max=int(depths.max()),
                   depths=",".join(str(int(x)) for x in depths), mean_count_dmax=float(np.nanmean(mat[:, -1])))
        fit_ok = len(depths) >= 2
        if fit_ok:
            be, al, pt = fit_with_ci(depths, mat, b, confidence=confidence, n_resamples=n_resamples, seed=seed)
            rec.update(beff_fit=be.value, beff_fit_lo=be.low, beff_fit_hi=be.high, fit_method=pt.method,
                       alpha_fit=al.value if al else math.nan, alpha_fit_lo=al.low if al else math.nan,
                       alpha_fit_hi=al.high if al else math.nan, ci_method=be.method)
        else:
            rec.update(beff_fit=math.nan, beff_fit_lo=math.nan, beff_fit_hi=math.nan, fit_method="none",
                       alpha_fit=math.nan, alpha_fit_lo=math.nan, alpha_fit_hi=math.nan, ci_method="none")
        with_dm2 = [int(x) for x in depths if x - 2 in set(depths.tolist())]
        pg = parity_growth_with_ci(depths, mat, confidence=confidence, n_resamples=n_resamples, seed=seed,
                                   only=max(with_dm2)) if with_dm2 else {}
        if pg:
            dd = max(pg)
            e = pg[dd]
            rec.update(parity_d=dd, parity_growth=e.value, parity_growth_lo=e.low, parity_growth_hi=e.high)
        else:
            rec.update(parity_d=math.nan, parity_growth=math.nan, parity_growth_lo=math.nan, parity_growth_hi=math.nan)
        dmax = int(depths.max())
        col = mat[:, -1]
        col = col[np.isfinite(col)]
        pd_e = bootstrap_ci(col.size, lambda i: col[i].mean(axis=-1) ** (1.0 / dmax),
                            confidence=confidence, n_resamples=n_resamples, seed=seed, vectorized=True)
        rec.update(beff_dmax=pd_e.value, beff_dmax_lo=pd_e.low, beff_dmax_hi=pd_e.high)
        if "nodes" in g.columns and dmax >= 1:
            nd = g[g["d"] == dmax]["nodes"].to_numpy(dtype=float)
            e = rn_bstar_with_ci(nd, dmax, confidence=confidence, n_resamples=n_resamples, seed=seed)
            rec.update(rn_bstar=e.value, rn_bstar_lo=e.low, rn_bstar_hi=e.high)
        else:
            rec.update(rn_bstar=math.nan, rn_bstar_lo=math.nan, rn_bstar_hi=math.nan)
        if b is not None and b >= 2:
            rec.update(theory_b=float(b), theory_b34=theory.regime_beff(b, "random"),
                       theory_sqrtb=theory.regime_beff(b, "perfect"), theory_pearl=theory.pearl_rb(b))
        rows.append(rec)
    return pd.DataFrame(rows)
