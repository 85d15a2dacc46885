"""Statistics for comparisons: paired ratios, multiplicity, matches, power and verdict kinds.

Every comparison the report makes between two policies, orderings or players goes through one
of these, so a verdict can say *how strong* its evidence is:

- ``paired_ratio``: the ratio of two counts measured on the same trees / positions (policy A's
  nodes over policy B's), with a bootstrap CI that resamples the *pairs* (scipy.stats.bootstrap);
  both the ratio of means and the geometric mean of per-pair ratios.
- ``holm``: Holm's step-down adjustment of p-values when a verdict rests on several tests.
- ``pentanomial``: a match played in game pairs (each opening once with each colour) summarised
  by the five pair outcomes 0, ½, 1, 1½, 2 points; score, Elo, a normal CI and a p-value from the
  pair-level variance, and ``min_detectable_elo``: the smallest Elo difference the match size
  detects with the given power.
- ``gsprt``: a sequential test of a pentanomial match (Fishtest's GSPRT): H0 Elo = elo0
  against H1 Elo = elo1, error rates alpha and beta; its log-likelihood ratio exact
  (``llr_pentanomial``: the multinomial likelihood maximised under each hypothesis's mean) or
  in the normal approximation (``llr_normal``); ``holm_pairings`` Holm across pairings.
- ``classify``: the verdict kind of one estimate with a CI: "shown", "contradicted",
  "no effect" (the CI lies inside an equivalence margin) or "not shown at this power".

Scores are from player A's point of view (1 = A won, ½ = draw, 0 = A lost). Elo differences
use the logistic model: Elo = 400 log10(s / (1 - s)).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

import numpy as np
from scipy import stats
from scipy.optimize import brentq

from searchlab.errors import InvalidParameterError

from .estimators import Estimate, bootstrap_ci

__all__ = ["paired_ratio", "gmean_ci", "holm", "Pentanomial", "pentanomial", "pentanomial_from_pairs",
           "trinomial", "min_detectable_elo", "elo", "classify", "VERDICT_KINDS", "mean_ci",
           "score_of_elo", "llr_pentanomial", "llr_normal", "SPRT", "gsprt", "holm_pairings"]

#: the kinds ``classify`` returns, and what each means for a claim
VERDICT_KINDS = {
    "shown": "the CI excludes the null value on the claimed side",
    "contradicted": "the CI excludes the null value on the other side",
    "no effect": "the CI lies inside the equivalence margin around the null value",
    "not shown at this power": "the CI contains the null value and is too wide to rule out an effect",
}


def elo(score: float) -> float:
    """Elo difference of an expected score in [0, 1] (±inf at 0 and 1)."""
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return 400.0 * math.log10(score / (1.0 - score))


def mean_ci(x: Sequence[float], *, confidence: float = 0.95, n_resamples: int = 999,
            seed: int = 0) -> Estimate:
    """The mean of ``x`` with a bootstrap CI over its elements (BCa, percentile fallback)."""
    x = np.asarray(x, dtype=float)
    return bootstrap_ci(x.size, lambda i: x[i].mean(axis=-1), confidence=confidence,
                        n_resamples=n_resamples, seed=seed, vectorized=True)


def paired_ratio(a: Sequence[float], b: Sequence[float], *, kind: str = "mean",
                 confidence: float = 0.95, n_resamples: int = 999, seed: int = 0) -> Estimate:
    """A over B measured on the same units (trees, positions), pairs resampled jointly.

    kind: "mean" = sum(a) / sum(b) (the ratio of mean costs), "geometric" = exp(mean(log(a/b)))
    (the typical per-unit ratio). Raises InvalidParameterError for unequal lengths, fewer than
    one pair, or non-positive values with kind="geometric".
    """
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    if a.shape != b.shape or a.ndim != 1 or a.size < 1:
        raise InvalidParameterError(f"paired_ratio needs two equal-length 1-d samples; got shapes "
                                    f"{a.shape} and {b.shape}")
    if kind == "mean":
        def stat(i):
            return a[i].sum(axis=-1) / b[i].sum(axis=-1)
    elif kind == "geometric":
        if (a <= 0).any() or (b <= 0).any():
            raise InvalidParameterError("paired_ratio(kind='geometric') needs positive values")
        lr = np.log(a / b)

        def stat(i):
            return np.exp(lr[i].mean(axis=-1))
    else:
        raise InvalidParameterError(f"kind must be 'mean' or 'geometric'; got {kind!r}")
    return bootstrap_ci(a.size, stat, confidence=confidence, n_resamples=n_resamples, seed=seed,
                        vectorized=True)


def holm(pvalues: Sequence[float]) -> np.ndarray:
    """Holm's step-down adjusted p-values (same order as given): the k-th smallest p is
    multiplied by (m - k + 1), then made non-decreasing in that order and capped at 1. Reject
    hypothesis i at family-wise level a when ``holm(p)[i] <= a``."""
    p = np.asarray(pvalues, dtype=float)
    if p.ndim != 1 or np.any((p < 0) | (p > 1)) or np.isnan(p).any():
        raise InvalidParameterError("holm needs a 1-d sequence of p-values in [0, 1]")
    m = p.size
    order = np.argsort(p, kind="stable")
    adj_sorted = np.maximum.accumulate(p[order] * (m - np.arange(m)))
    out = np.empty(m)
    out[order] = np.minimum(adj_sorted, 1.0)
    return out


@dataclass(frozen=True)
class Pentanomial:
    """A paired match: ``counts[k]`` pairs scored k/2 points out of 2 (k = 0..4), for A.

    ``score`` is A's mean score per game, ``sd_pair`` the standard deviation of a pair's
    per-game score (pair points / 2), ``elo`` with a normal-approximation CI, ``p_value`` the
    two-sided test of score = 1/2."""

    counts: tuple[int, int, int, int, int]
    pairs: int
    score: float
    sd_pair: float
    score_low: float
    score_high: float
    elo: float
    elo_low: float
    elo_high: float
    p_value: float
    confidence: float

    def min_detectable_elo(self, power: float = 0.8, alpha: float = 0.05) -> float:
        return min_detectable_elo(self.pairs, self.sd_pair, power=power, alpha=alpha)


def pentanomial(counts: Sequence[int], confidence: float = 0.95) -> Pentanomial:
    """Summarise pair counts [LL, LD, DD or WL, WD, WW] (A's points 0, ½, 1, 1½, 2 per pair).

    The pair is the unit: each opening played once with each colour, so the colour advantage
    cancels within a pair and the variance is the pairs' (smaller than the games' when openings
    are lopsided). Raises InvalidParameterError for anything but five non-negative counts with
    at least one pair.
    """
    c = np.asarray(counts, dtype=float)
    if c.shape != (5,) or (c < 0).any() or c.sum() < 1 or not np.all(c == np.round(c)):
        raise InvalidParameterError(f"pentanomial needs five non-negative integer counts; got {counts!r}")
    n = int(c.sum())
    x = np.arange(5) / 4.0                               # per-game score of each pair outcome
    s = float((c * x).sum() / n)
    var = float((c * (x - s) ** 2).sum() / n)
    sd = math.sqrt(var)
    z = stats.norm.ppf(0.5 + confidence / 2)
    se = sd / math.sqrt(n)
    lo, hi = max(s - z * se, 0.0), min(s + z * se, 1.0)
    if se > 0:
        p = float(2 * stats.norm.sf(abs(s - 0.5) / se))
    else:
        p = 1.0 if s == 0.5 else 0.0
    return Pentanomial(tuple(int(v) for v in c), n, s, sd, lo, hi, elo(s), elo(lo), elo(hi), p,
                       confidence)


def pentanomial_from_pairs(pair_results: Sequence[Sequence[float]], confidence: float = 0.95
                           ) -> Pentanomial:
    """``pentanomial`` from per-pair game results [(r1, r2), ...], each r in {0, ½, 1} for A."""
    counts = [0] * 5
    for pair in pair_results:
        if len(pair) != 2 or any(r not in (0, 0.5, 1) for r in pair):
            raise InvalidParameterError(f"a pair is two results in {{0, 0.5, 1}}; got {pair!r}")
        counts[int(round(2 * (pair[0] + pair[1])))] += 1
    return pentanomial(counts, confidence)


def trinomial(a_wins: int, draws: int, b_wins: int, confidence: float = 0.95) -> Pentanomial:
    """A match known only by its game totals (A's wins, draws, losses), games treated as
    independent: the per-game score variance stands in for the pairs' (conservative when the
    games were played in colour-swapped pairs). Returned as a Pentanomial whose "pairs" are the
    games and whose ``counts`` are (losses, 0, draws, 0, wins) scaled to one game each."""
    if min(a_wins, draws, b_wins) < 0 or a_wins + draws + b_wins < 1:
        raise InvalidParameterError(f"trinomial needs non-negative counts and at least one game; got "
                                    f"{(a_wins, draws, b_wins)!r}")
    return pentanomial([b_wins, 0, draws, 0, a_wins], confidence)


def min_detectable_elo(pairs: int, sd_pair: float, *, power: float = 0.8,
                       alpha: float = 0.05) -> float:
    """The smallest Elo difference a two-sided z-test at level ``alpha`` detects with
    probability ``power`` from ``pairs`` game pairs whose per-game pair score has standard
    deviation ``sd_pair``: delta = (z_(1-alpha/2) + z_power) * sd_pair / sqrt(pairs) in score,
    converted to Elo around 1/2. Infinite when delta reaches 1/2."""
    if pairs < 1 or sd_pair < 0 or not 0 < power < 1 or not 0 < alpha < 1:
        raise InvalidParameterError("min_detectable_elo needs pairs >= 1, sd_pair >= 0, 0 < power, alpha < 1")
    delta = (stats.norm.ppf(1 - alpha / 2) + stats.norm.ppf(power)) * sd_pair / math.sqrt(pairs)
    return math.inf if delta >= 0.5 else elo(0.5 + delta)


def classify(low: float, high: float, null: float = 0.0, *, direction: int = 1,
             margin: float | None = None) -> str:
    """The verdict kind of a CI [low, high] for a claim that the quantity lies above ``null``
    (direction=+1) or below it (-1); ``margin``: the equivalence margin (an effect smaller
    than it counts as none). One of VERDICT_KINDS."""
    if direction not in (1, -1):
        raise InvalidParameterError(f"direction must be +1 or -1; got {direction!r}")
    if not (math.isfinite(low) and math.isfinite(high)) or low > high:
        raise InvalidParameterError(f"classify needs a finite interval low <= high; got [{low}, {high}]")
    lo, hi = (low - null, high - null) if direction == 1 else (null - high, null - low)
    if lo > 0:
        return "shown"
    if margin is not None and -margin <= lo and hi <= margin:
        return "no effect"
    if hi < 0:
        return "contradicted"
    return "not shown at this power"


def gmean_ci(logs: np.ndarray, n_resamples: int = 999, seed: int = 0) -> tuple[float, float, float]:
    """exp(mean(logs)) with a 95 % percentile bootstrap CI over the units (nan CI for n < 2,
    the point itself when every log ratio is equal)."""
    v = float(np.exp(logs.mean()))
    if len(logs) < 2:
        return v, math.nan, math.nan
    if np.all(logs == logs[0]):
        return v, v, v
    res = stats.bootstrap((logs,), np.mean, n_resamples=n_resamples, method="percentile",
                          confidence_level=0.95, random_state=np.random.default_rng(seed))
    return v, float(np.exp(res.confidence_interval.low)), float(np.exp(res.confidence_interval.high))


def score_of_elo(e: float) -> float:
    """The expected score of an Elo difference (logistic model): 1 / (1 + 10^(-e / 400))."""
    return 1.0 / (1.0 + 10.0 ** (-e / 400.0))


_PAIR_SCORES = np.arange(5) / 4.0          # per-game score of the pair outcomes 0, ½, 1, 1½, 2


def _check_sprt_args(counts: Sequence[int], elo0: float, elo1: float) -> np.ndarray:
    c = np.asarray(counts, dtype=float)
    if c.shape != (5,) or (c < 0).any() or c.sum() < 1 or not np.all(c == np.round(c)):
        raise InvalidParameterError(f"counts must be five non-negative integer pair counts; "
                                    f"got {counts!r}")
    for name, v in (("elo0", elo0), ("elo1", elo1)):
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v) \
                or abs(v) >= 2000:
            raise InvalidParameterError(f"{name} must be a finite Elo in (-2000, 2000); got {v!r}")
    if not elo0 < elo1:
        raise InvalidParameterError(f"elo0 must be below elo1; got {elo0} and {elo1}")
    return c


def _mle_under_mean(f: np.ndarray, s: float) -> np.ndarray:
    """The pair-outcome probabilities that maximise sum f_i log p_i with mean score s (Van den
    Bergh's constrained MLE, as Fishtest's): p_i = f_i / (n (1 + lam (x_i - s))), lam the root
    of sum f_i (x_i - s) / (1 + lam (x_i - s)) = 0 (scipy.optimize.brentq)."""
    x, n = _PAIR_SCORES[f > 0], f[f > 0]
    d = x - s
    if d.max() <= 0 or d.min() >= 0:
        raise InvalidParameterError(
            f"a mean score of {s:.4f} lies outside the observed pair outcomes: no likelihood "
            f"with that mean (use prior > 0)")
    lo, hi = -1.0 / d.max(), -1.0 / d.min()          # 1 + lam d_i > 0 for every i
    span = hi - lo
    lam = brentq(lambda t: float((n * d / (1.0 + t * d)).sum()), lo + 1e-12 * span,
                 hi - 1e-12 * span, xtol=1e-15, rtol=1e-15, maxiter=500)
    p = np.zeros(5)
    p[f > 0] = n / (n.sum() * (1.0 + lam * d))
    return p


def llr_pentanomial(counts: Sequence[int], elo0: float, elo1: float,
                    prior: float = 1e-3) -> float:
    """The generalised log-likelihood ratio of H1 (Elo = elo1) over H0 (Elo = elo0) for pair
    counts [LL, LD, DD or WL, WD, WW] (A's points 0 .. 2): sum_i n_i log(p1_i / p0_i), p_h the
    multinomial MLE whose mean per-game score is score_of_elo(elo_h) (Fishtest's exact GSPRT,
    logistic Elo). ``prior`` is added to every count first (Fishtest's regularisation, so that a
    hypothesis's mean outside the observed outcomes still has a likelihood); 0 = none."""
    c = _check_sprt_args(counts, elo0, elo1)
    if isinstance(prior, bool) or not isinstance(prior, (int, float)) or not 0 <= prior < 1:
        raise InvalidParameterError(f"prior must be a number in [0, 1); got {prior!r}")
    f = c + prior
    p0, p1 = _mle_under_mean(f, score_of_elo(elo0)), _mle_under_mean(f, score_of_elo(elo1))
    k = c > 0
    return float((c[k] * np.log(p1[k] / p0[k])).sum())


def llr_normal(counts: Sequence[int], elo0: float, elo1: float) -> float:
    """The GSPRT's log-likelihood ratio in the normal approximation (Fishtest's LLR_alt2):
    N / (2 var) * ((s - s0)^2 - (s - s1)^2), N pairs, s their mean per-game score, var the
    variance of a pair's per-game score, s_h = score_of_elo(elo_h). Raises
    InvalidParameterError when every pair scored the same (var = 0)."""
    c = _check_sprt_args(counts, elo0, elo1)
    n = c.sum()
    s = float((c * _PAIR_SCORES).sum() / n)
    var = float((c * (_PAIR_SCORES - s) ** 2).sum() / n)
    if var == 0:
        raise InvalidParameterError("llr_normal needs pairs of at least two outcomes (variance 0)")
    s0, s1 = score_of_elo(elo0), score_of_elo(elo1)
    return float(n / (2 * var) * ((s - s0) ** 2 - (s - s1) ** 2))


@dataclass(frozen=True)
class SPRT:
    """A sequential test's state: ``llr`` between the bounds ``lower`` = log(beta / (1 -
    alpha)) and ``upper`` = log((1 - beta) / alpha); ``state`` "H1 accepted" (llr >= upper),
    "H0 accepted" (llr <= lower) or "continue"; the hypotheses H0: Elo = elo0, H1: Elo = elo1
    (logistic Elo of A over B), the error rates and the pairs seen."""

    llr: float
    lower: float
    upper: float
    state: str
    elo0: float
    elo1: float
    alpha: float
    beta: float
    pairs: int


def gsprt(counts: Sequence[int], elo0: float = 0.0, elo1: float = 10.0, *, alpha: float = 0.05,
          beta: float = 0.05, exact: bool = True) -> SPRT:
    """The GSPRT on pentanomial pair counts (``llr_pentanomial``, or ``llr_normal`` with
    exact=False) against Wald's bounds: the test stops and accepts H1 or H0 once the LLR
    leaves (lower, upper). Read after every pair (or chunk of pairs), its error rates are at
    most about alpha (accepting H1 when Elo <= elo0) and beta (accepting H0 when Elo >=
    elo1). Raises InvalidParameterError for bad counts, Elo bounds or rates."""
    for name, v in (("alpha", alpha), ("beta", beta)):
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not 0 < v < 0.5:
            raise InvalidParameterError(f"{name} must be in (0, 0.5); got {v!r}")
    llr = llr_pentanomial(counts, elo0, elo1) if exact else llr_normal(counts, elo0, elo1)
    lower, upper = math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)
    state = "H1 accepted" if llr >= upper else "H0 accepted" if llr <= lower else "continue"
    return SPRT(llr, lower, upper, state, float(elo0), float(elo1), float(alpha), float(beta),
                int(sum(counts)))


def holm_pairings(matches: dict) -> dict:
    """Holm-adjusted p-values across pairings: {name: Pentanomial} -> {name: adjusted p} (each
    pairing's two-sided test of score 1/2, ``Pentanomial.p_value``, adjusted for the family)."""
    if not matches or not all(isinstance(m, Pentanomial) for m in matches.values()):
        raise InvalidParameterError("holm_pairings needs a non-empty {name: Pentanomial} dict")
    names = list(matches)
    adj = holm([matches[k].p_value for k in names])
    return {k: float(a) for k, a in zip(names, adj)}
