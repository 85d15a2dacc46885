"""Exact expected counts of alpha-beta on i.i.d. uniform trees, by dynamic programming over
the search window (Baudet 1978, Pearl 1980/82), not over trees.

The model (docs/iid-tree-spec.md, searchlab.trees.IIDTree): a uniform tree of branching ``b``
and depth ``d``, MAX at the root, players alternating; the leaves' values are i.i.d. with a
given distribution over ``K`` ordered levels 0..K-1 (``pmf``). ``levels = K`` of IIDTree is the
uniform pmf; ``win_prob = q`` is K = 2 with pmf (1 - q, q). The search is fail-soft alpha-beta
exactly as searchlab.algorithms.reference.alphabeta runs it, in natural order, root window
(-inf, +inf); a *node* is one call of the search (root and leaves included), a *leaf* is a call
at depth d, as in SearchResult's ``nodes`` and ``leaves``.

Why a window DP is exact. Fail-soft returns c with: c <= alpha iff the true value m <= alpha,
c >= beta iff m >= beta, and c = m in between. So at a MAX node searched with (alpha, beta) the
i-th child is reached iff every earlier sibling's *true* value is < beta (the spec's ">=" cut,
ties cut) and is searched with (max(alpha, m_1..m_{i-1}), beta); MIN mirrored (reached iff all
earlier m > alpha, window (alpha, min(beta, m_1..m_{i-1}))). The siblings are independent of the
child's own subtree, so with E_h(a, c) the expected count below a node of height h searched
with window (a, c), and G the cdf of the children's values,

    MAX:  E_h(a, c) = [1] + sum_{k=0}^{b-1} sum_{a'} P(max(a, M_k) = a', M_k < c) E_{h-1}(a', c)
                    = [1] + S(a) E_{h-1}(a, c) + sum_{a < a' < c} (S(a') - S(a'-1)) E_{h-1}(a', c),
    S(x) = sum_{k=0}^{b-1} G(x)^k      (M_k: the max of k i.i.d. children; [1]: nodes only)

and MIN with T(y) = sum_k P(m >= y)^k. A suffix (prefix) sum over a' gives every window of one
height in O(K^2) (O(b K) for the powers): a depth-d sequence costs O(d K^2). The values' cdf
of a height is F^b (MAX) or 1 - (1 - F)^b (MIN) of the one below.

``cut_rule=">"`` is the strict rule (cut when v > beta, v < alpha; not searchlab's search, but
searchlab.studies.rigor.instrumented's ``cut_rule=">"``): reached iff all earlier m <= beta.

Continuous leaves (``continuous_bounds``). Map every leaf value x to the index q(x) of the cell
of a partition of [0, 1) that contains it. Alpha-beta on the cell indices with ties cutting
examines a *subset* of the nodes the continuous search examines, and with the strict rule a
*superset* (by induction over the nodes reached: the index search's windows are nested inside,
resp. around, the continuous search's, and a narrower window reaches fewer children). Both are
discrete models this DP solves exactly, so

    N_ties-cut(partition) <= N_continuous <= N_strict(partition)

rigorously (up to floating point), node by node and hence in expectation, for any partition.
The partition follows the mass: it holds the points where the value cdf of *every* height
(of the tree being solved) passes through j / M, j = 1..M-1, computed in decimal
arithmetic of ``partition_digits`` digits (a deep height's values crowd into an interval far narrower than 2^-53 of the leaf
scale; the points are kept as every height's cdf value, not as a leaf value). The bracket's width
is the stated, computed error bound; it falls as M grows.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence, Set as AbstractSet
from dataclasses import dataclass
from decimal import Decimal, localcontext
from fractions import Fraction
from numbers import Real

import numpy as np

from searchlab.errors import InvalidParameterError

__all__ = ["ExactSequence", "uniform_pmf", "win_loss_pmf", "expected_counts", "ContinuousBounds",
           "continuous_bounds", "partition_cdfs", "perfect_order_counts", "expected_counts_no_deep_cutoffs",
           "CUT_RULES", "max_finite_depth", "continuous_cells"]

CUT_RULES = (">=", ">")
#: decimal digits for the continuous model's partition (module docstring): a height's values
#: crowd into an interval that shrinks by up to about b^2 per height in the leaf scale (measured:
#: 40 digits no longer separate the points of b = 8 above height 22), so the digits grow with
#: dmax log10(b^2), over a margin of 30
PARTITION_MARGIN = 4


#: The DP's range (docs/exact-expectations.md, "Range"). Every expected count, and every
#: intermediate value of the DP, is at most the minimax tree's node count sum_{i<=d} b^i, so a
#: (b, dmax) whose minimax count is below float64's largest value (LOG_FLOAT_MAX, with a margin
#: of e^-1 for rounding) gives finite results for every pmf; beyond it a pmf can overflow (b = 2
#: does from depth 2,041 with 2 levels, b = 64 from 340) and it is refused. Work and memory:
#: a height costs about (K + 1) * (K + 1 + b) operations on arrays of (K + 1)^2 floats, so the
#: levels are at most MAX_EXACT_LEVELS (~130 MB per array) and dmax (K + 1) (K + 1 + b) at most
#: MAX_DP_WORK (about 2 minutes at the measured 30-40 ns per window and height).
#: the largest branching factor (searchlab.limits.MAX_BRANCHING's value; limits is a module of
#: this layer, which the architecture keeps from importing it)
MAX_BRANCHING = 1 << 16
LOG_FLOAT_MAX = math.log(np.finfo(np.float64).max) - 1.0
MAX_EXACT_LEVELS = 4096
MAX_DP_WORK = 2_000_000_000
#: continuous_bounds' partition (partition_work, in digit^2 operations): measured about 5e-9 s
#: each for b > 2 on one core, so about a minute at most
MAX_PARTITION_WORK = 12_000_000_000
#: exact=True (fractions): a height's cdf has denominator D^(b^h) for a pmf of denominator D,
#: so the largest numerator/denominator has about log2(D) b^dmax bits; that is at most
#: MAX_FRACTION_BITS, and the levels at most MAX_FRACTION_LEVELS.
MAX_FRACTION_BITS = 1 << 16
MAX_FRACTION_LEVELS = 256
#: no-deep-cutoffs and perfect order: O(dmax K) and O(d) work, capped by depth
MAX_DP_DEPTH = 100_000


def max_finite_depth(b: int) -> int:
    """The largest dmax at which every expected count of a tree of branching b is finite in
    float64 whatever the leaf distribution (its minimax node count is below float64's
    largest value); MAX_DP_DEPTH for b = 1."""
    if b == 1:
        return MAX_DP_DEPTH
    # log of sum_{i<=d} b^i = (b^(d+1) - 1) / (b - 1) < (d + 1) log b - log(b - 1)
    d = math.floor((LOG_FLOAT_MAX + math.log(b - 1)) / math.log(b)) - 1
    return min(d, MAX_DP_DEPTH)


def _check_range(b: int, dmax: int, levels: int, exact: bool, per_height: bool = False,
                 work_per_height: int | None = None, denominator: int = 1) -> None:
    """Refuse (InvalidParameterError, one line naming the parameter and its allowed range) a
    DP whose results could overflow or whose work or memory is beyond the module's limits."""
    what = "cells (from dmax and per_height)" if per_height else "pmf levels K"
    if not exact:
        top = max_finite_depth(b)
        if dmax > top:
            raise InvalidParameterError(
                f"dmax must be an integer in [0, {top}] for b = {b} (above it the expected "
                f"counts can exceed float64's range); got {dmax}")
    else:
        if levels > MAX_FRACTION_LEVELS:
            raise InvalidParameterError(f"with exact=True the {what} must be at most "
                                        f"{MAX_FRACTION_LEVELS}; got {levels}")
        bits = max(1, denominator.bit_length()) * (b ** min(dmax, 64) if b > 1 else 1)
        if bits > MAX_FRACTION_BITS:
            top = 0
            while max(1, denominator.bit_length()) * b ** (top + 1) <= MAX_FRACTION_BITS:
                top += 1
            raise InvalidParameterError(
                f"with exact=True, dmax must be an integer in [0, {top}] for b = {b} and this "
                f"pmf (the fractions' sizes grow as b^dmax; floats reach further); got {dmax}")
    if levels > MAX_EXACT_LEVELS:
        raise InvalidParameterError(f"the {what} must be at most {MAX_EXACT_LEVELS}; got {levels}")
    per = work_per_height if work_per_height is not None else (levels + 1) * (levels + 1 + b)
    if dmax * per > MAX_DP_WORK:
        raise InvalidParameterError(
            f"dmax must be an integer in [0, {MAX_DP_WORK // per}] for b = {b} and {levels} "
            f"{'cells' if per_height else 'levels'} (dmax (K + 1) (K + 1 + b) at most "
            f"{MAX_DP_WORK:,}); got {dmax}")


def partition_digits(b: int, dmax: int) -> int:
    return 30 + math.ceil(2 * dmax * math.log10(b))


def partition_work(b: int, dmax: int, per_height: int) -> float:
    """The high-precision work of partition_cdfs, in digit^2 operations: (dmax + margin)^2
    (per_height - 1) Decimal roots or powers at partition_digits digits, each costing about
    digits^2 (b = 2: square roots, about 25 times cheaper than b > 2's fractional powers)."""
    top = dmax + PARTITION_MARGIN
    return top * top * (per_height - 1) * partition_digits(b, top) ** 2 / (25 if b == 2 else 1)


def _check_partition(b: int, dmax: int, per_height: int) -> None:
    """Refuse a partition whose high-precision work is beyond MAX_PARTITION_WORK (b = 3 at
    its largest float depth asked for half an hour, inside every other limit)."""
    if partition_work(b, dmax, per_height) <= MAX_PARTITION_WORK:
        return
    lo, hi = 0, dmax                    # the work grows with dmax: the largest allowed one
    while lo < hi:
        mid = (lo + hi + 1) // 2
        lo, hi = (mid, hi) if partition_work(b, mid, per_height) <= MAX_PARTITION_WORK else (lo, mid - 1)
    raise InvalidParameterError(
        f"dmax must be an integer in [1, {lo}] for b = {b} and per_height = {per_height} (the "
        f"partition's high-precision work grows as dmax^4; at most {MAX_PARTITION_WORK:,} "
        f"digit^2 operations, about a minute); got {dmax}")


@dataclass(frozen=True)
class ExactSequence:
    """Expected nodes and leaves of alpha-beta at depths 0..dmax (index = depth) for one
    (b, leaf distribution, cut rule). Entries are floats, or Fractions with ``exact=True``."""

    b: int
    pmf: tuple
    cut_rule: str
    nodes: tuple
    leaves: tuple

    @property
    def dmax(self) -> int:
        return len(self.nodes) - 1


def uniform_pmf(levels: int, exact: bool = False) -> tuple:
    """The leaf distribution of IIDTree(levels=K): K equiprobable levels."""
    levels = _int("levels", levels, 1, MAX_EXACT_LEVELS)
    p = Fraction(1, levels) if exact else 1.0 / levels
    return (p,) * levels


def win_loss_pmf(q, exact: bool = False) -> tuple:
    """The leaf distribution of IIDTree(win_prob=q): loss (0) with 1 - q, win (1) with q."""
    if isinstance(q, bool) or not isinstance(q, (int, float, Fraction)) or not 0 <= q <= 1:
        raise InvalidParameterError(f"q must be a probability in [0, 1]; got {q!r}")
    q = Fraction(q) if exact else float(q)
    return (1 - q, q)


def _int(name: str, x, lo: int, hi: int | None = None) -> int:
    if isinstance(x, bool) or not isinstance(x, (int, np.integer)) or x < lo or (hi is not None and x > hi):
        allowed = f"an integer >= {lo}" if hi is None else f"an integer in [{lo}, {hi}]"
        raise InvalidParameterError(f"{name} must be {allowed}; got {x!r}")
    return int(x)


def _check_pmf(pmf: Sequence, exact: bool) -> np.ndarray:
    """pmf as an array (Fractions when exact), or InvalidParameterError naming what is wrong: a
    mapping or set is refused (their order is not the levels'; a dict passed its keys), and so
    is any entry that is not a real number (a string was parsed)."""
    if isinstance(pmf, (Mapping, AbstractSet)):
        raise InvalidParameterError(f"pmf must be a sequence of probabilities, level 0 first; "
                                    f"got a {type(pmf).__name__}: {excerpt(pmf)}")
    try:
        n = len(pmf)
    except TypeError:
        raise InvalidParameterError(f"pmf must be a sequence of probabilities; got {excerpt(pmf)}") from None
    if n < 1:
        raise InvalidParameterError("pmf must list at least one level's probability")
    if n > MAX_EXACT_LEVELS:
        raise InvalidParameterError(f"pmf must list at most {MAX_EXACT_LEVELS} levels; got {n}")
    try:
        if not all(isinstance(p, Real) for p in pmf):
            raise TypeError("not a real number")
        vals = [Fraction(p) if exact else float(p) for p in pmf]
    except (TypeError, ValueError, OverflowError):
        raise InvalidParameterError(f"pmf must hold finite numbers in [0, 1]; got {excerpt(pmf)}") from None
    if not all(isinstance(p, Fraction) or math.isfinite(p) for p in vals) \
            or any(isinstance(p, bool) for p in pmf):
        raise InvalidParameterError(f"pmf must hold finite numbers in [0, 1]; got {excerpt(pmf)}")
    if any(p < 0 for p in vals):
        raise InvalidParameterError(f"pmf must be non-negative; got {excerpt(pmf)}")
    total = sum(vals)
    if (total != 1) if exact else abs(total - 1) > 1e-9:
        raise InvalidParameterError(f"pmf must sum to 1; sums to {float(total)!r}")
    return np.array(vals, dtype=object if exact else float)


def excerpt(value) -> str:
    """A short repr of value for an error message."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _denominator(p: np.ndarray) -> int:
    """The least common denominator of an exact pmf (its fractions' size at height 0)."""
    return math.lcm(*(Fraction(x).denominator for x in p))


def _power_sum(x: np.ndarray, b: int) -> np.ndarray:
    """sum_{k=0}^{b-1} x^k elementwise (x in [0, 1]; 0^0 = 1), without dividing by 1 - x."""
    out = np.ones_like(x)
    term = np.ones_like(x)
    for _ in range(b - 1):
        term = term * x
        out = out + term
    return out


def _level(b: int, is_max: bool, child_cdf: np.ndarray, C: np.ndarray, add_one: bool,
           strict: bool, mask: np.ndarray) -> np.ndarray:
    """One height of the window DP: E[ia, ib] for every window from the children's E = ``C``.

    Windows are indexed by ia = alpha + 1 (alpha = -1 plays -inf: no value is <= -1) and
    ib = beta (beta = K plays +inf), both 0..K; ``child_cdf[j]`` = P(child value <= j - 1),
    j = 0..K. Entries outside ``mask`` (windows that never occur) are set to 0.
    """
    K = C.shape[0] - 1
    j = np.arange(K + 1)
    if is_max:
        Sx = _power_sum(child_cdf, b)                  # Sx[j] = S(j - 1)
        w = np.zeros_like(Sx)
        w[1:] = Sx[1:] - Sx[:-1]                       # P(running max first equals j - 1), summed over k
        # the child reached with running alpha a' = j - 1 > alpha: needs a' < beta (ties cut),
        # a' <= beta (strict), i.e. j <= ib (+ 1)
        reach = j[:, None] <= j[None, :] + (1 if strict else 0)
        P = np.where(reach, w[:, None] * C, 0)
        suffix = np.cumsum(P[::-1], axis=0)[::-1]       # sum over j' >= j
        R = np.zeros_like(C)
        R[:-1] = suffix[1:]                             # sum over j' > ia
        E = Sx[:, None] * C + R
    else:
        surv = 1 - child_cdf                            # surv[y] = P(child value >= y), y = 0..K
        Tx = _power_sum(surv, b)
        u = np.zeros_like(Tx)
        u[:-1] = Tx[:-1] - Tx[1:]                       # P(running min first equals y), summed over k
        # running beta b' = y < beta searched when y > alpha (ties cut: y >= ia), y >= alpha
        # (strict: y >= ia - 1)
        reach = j[None, :] >= j[:, None] - (1 if strict else 0)
        P = np.where(reach, u[None, :] * C, 0)
        Q = np.zeros_like(C)
        Q[:, 1:] = np.cumsum(P, axis=1)[:, :-1]         # sum over y < ib
        E = Tx[None, :] * C + Q
    if add_one:
        E = E + 1
    return np.where(mask, E, 0)


def _chain(b: int, pmf: np.ndarray, dmax: int, strict: bool, parity: int,
           cdfs: list | None = None) -> dict[int, tuple]:
    """Root counts (nodes, leaves) at the heights h <= dmax with h % 2 == parity, from the chain
    of heights whose MAX nodes sit at those heights (the root of a depth-h tree is MAX).
    ``cdfs[h]``, when given, is height h's value cdf at the cell boundaries (else it is
    computed from ``pmf`` height by height)."""
    K = len(pmf)
    j = np.arange(K + 1)
    mask = j[:, None] <= j[None, :] + (1 if strict else 0)
    one = np.ones((K + 1, K + 1), dtype=pmf.dtype)
    cdf = np.concatenate([np.zeros(1, dtype=pmf.dtype), np.cumsum(pmf)])
    cdf[-1] = 1 if pmf.dtype == object else 1.0        # exactly 1: no value exceeds level K - 1
    N, L, out = one, one, {}
    for h in range(1, dmax + 1):
        is_max = (h % 2) == parity
        if cdfs is not None:
            cdf = cdfs[h - 1]
        N = _level(b, is_max, cdf, N, True, strict, mask)
        L = _level(b, is_max, cdf, L, False, strict, mask)
        if cdfs is None:
            cdf = cdf ** b if is_max else 1 - (1 - cdf) ** b
        if is_max:
            out[h] = (N[0, K], L[0, K])
    return out


def _chains(b: int, pmf: np.ndarray, dmax: int, strict: bool) -> tuple[list, list]:
    """Root counts (nodes, leaves) at depths 0..dmax: the two chains of heights."""
    nodes, leaves = [1] * (dmax + 1), [1] * (dmax + 1)
    for parity in (0, 1):
        for h, (n, l) in _chain(b, pmf, dmax, strict, parity).items():
            nodes[h], leaves[h] = n, l
    return nodes, leaves


def expected_counts(b: int, dmax: int, pmf: Sequence, cut_rule: str = ">=",
                    exact: bool = False) -> ExactSequence:
    """E[nodes] and E[leaves] of alpha-beta (natural order, fail-soft, root window (-inf, inf))
    on i.i.d. trees of branching ``b`` and every depth 0..dmax whose leaves take level j with
    probability ``pmf[j]``. ``cut_rule`` ">=" is searchlab's (ties cut), ">" the strict rule.
    ``exact=True`` computes in fractions.Fraction (small K and dmax only: object arrays).
    Cost O(dmax K^2) (two chains of heights). Raises InvalidParameterError on bad input."""
    b = _int("b", b, 1, MAX_BRANCHING)
    dmax = _int("dmax", dmax, 0, MAX_DP_DEPTH)
    if cut_rule not in CUT_RULES:
        raise InvalidParameterError(f"cut_rule must be one of {CUT_RULES}; got {cut_rule!r}")
    p = _check_pmf(pmf, exact)
    _check_range(b, dmax, len(p), exact, denominator=_denominator(p) if exact else 1)
    nodes, leaves = _chains(b, p, dmax, cut_rule == ">")
    conv = (lambda x: Fraction(x)) if exact else float
    return ExactSequence(b, tuple(pmf), cut_rule, tuple(map(conv, nodes)), tuple(map(conv, leaves)))


# --------------------------------------------------------------------------- continuous leaves

def partition_cdfs(b: int, dmax: int, per_height: int, parity: int) -> list[np.ndarray]:
    """The partition of [0, 1) that follows the mass (module docstring), for the chain of
    heights whose MAX nodes sit at heights h with h % 2 == parity: entry h (0..dmax-1) is the
    float array F_h(x_j), j = 0..K, of height h's value cdf at the K + 1 cell boundaries
    (x_0 = 0, x_K = 1). Boundaries: where some height's cdf is i / per_height."""
    b, dmax = _int("b", b, 2, MAX_BRANCHING), _int("dmax", dmax, 1, MAX_DP_DEPTH)
    M = _int("per_height", per_height, 2, MAX_EXACT_LEVELS)
    _check_range(b, dmax, continuous_cells(dmax, M), False, per_height=True)
    _check_partition(b, dmax, M)
    # quantile points of PARTITION_MARGIN heights above the tree too: a height's resolution also
    # comes from its neighbours' points (measured: without them the top heights' bracket widens
    # 1.5x and their midpoint moves by the estimated error)
    top = dmax + PARTITION_MARGIN
    heights = range(top)
    is_max = [h % 2 == parity for h in heights]            # is_max[h]: F_h = F_{h-1}^b
    with localcontext() as ctx:
        ctx.prec = partition_digits(b, top)
        one, inv_b = Decimal(1), Decimal(1) / Decimal(b)
        root = (lambda x: x.sqrt()) if b == 2 else (lambda x: x ** inv_b)
        down = lambda p, mx: root(p) if mx else one - root(one - p)
        up = lambda p, mx: p ** b if mx else one - (one - p) ** b
        points = set()
        for h in heights:
            for i in range(1, M):
                v = [None] * top
                v[h] = Decimal(i) / Decimal(M)
                for g in range(h, 0, -1):
                    v[g - 1] = down(v[g], is_max[g])
                for g in range(h + 1, top):
                    v[g] = up(v[g - 1], is_max[g])
                points.add(tuple(v))
        # distinct leaf values, ascending; two points with one leaf value are one boundary
        pts = sorted({p[0]: p for p in points}.values(), key=lambda p: p[0])
        cols = [[0.0] + [float(p[h]) for p in pts] + [1.0] for h in range(dmax)]
    return [np.maximum.accumulate(np.array(c)) for c in cols]   # monotone after rounding


def continuous_cells(dmax: int, per_height: int) -> int:
    """An upper bound on the cells K of a chain's partition: (per_height - 1) points per height
    of dmax + PARTITION_MARGIN heights (equal points merge, so K can be smaller)."""
    return (dmax + PARTITION_MARGIN) * (per_height - 1) + 1


@dataclass(frozen=True)
class ContinuousBounds:
    """E[nodes], E[leaves] of alpha-beta on i.i.d. trees with continuous leaf values, bracketed:
    ``low`` (cell indices, ties cut) <= true <= ``high`` (cell indices, strict rule), at every
    depth 0..dmax; ``cells`` = K of each chain's partition (even-depth chain, odd-depth chain)."""

    b: int
    per_height: int
    low: ExactSequence
    high: ExactSequence
    cells: tuple[int, int]

    def nodes(self, d: int) -> float:
        """The bracket's midpoint (the estimate); its half-width is ``nodes_error(d)``."""
        return 0.5 * (self.low.nodes[d] + self.high.nodes[d])

    def leaves(self, d: int) -> float:
        return 0.5 * (self.low.leaves[d] + self.high.leaves[d])

    def nodes_error(self, d: int) -> float:
        return 0.5 * (self.high.nodes[d] - self.low.nodes[d])

    def leaves_error(self, d: int) -> float:
        return 0.5 * (self.high.leaves[d] - self.low.leaves[d])


def continuous_bounds(b: int, dmax: int, per_height: int = 64,
                      algorithm: str = "alphabeta") -> ContinuousBounds:
    """Rigorous bounds on the expected nodes and leaves of alpha-beta on IIDTree(b, d) with
    continuous leaves (levels = 0), d = 0..dmax, from a partition with ``per_height`` cells of
    equal mass at every height (module docstring). Cost O(dmax^3 per_height^2).
    ``algorithm="no-deep-cutoffs"``: the same for ``expected_counts_no_deep_cutoffs`` (the
    bracket's argument holds for it too: its one bound per node nests the same way)."""
    if algorithm not in ("alphabeta", "no-deep-cutoffs"):
        raise InvalidParameterError(f"algorithm must be 'alphabeta' or 'no-deep-cutoffs'; got {algorithm!r}")
    chain = _chain if algorithm == "alphabeta" else _chain_b2
    b = _int("b", b, 2, MAX_BRANCHING)
    dmax = _int("dmax", dmax, 1, MAX_DP_DEPTH)
    per_height = _int("per_height", per_height, 2, MAX_EXACT_LEVELS)
    _check_range(b, dmax, continuous_cells(dmax, per_height), False, per_height=True)
    _check_partition(b, dmax, per_height)
    cdfs = [partition_cdfs(b, dmax, per_height, parity) for parity in (0, 1)]
    seqs = []
    for strict in (False, True):
        nodes, leaves = [1.0] * (dmax + 1), [1.0] * (dmax + 1)
        for parity in (0, 1):
            pmf = np.diff(cdfs[parity][0])
            for h, (n, l) in chain(b, pmf, dmax, strict, parity, cdfs[parity]).items():
                nodes[h], leaves[h] = float(n), float(l)
        seqs.append(ExactSequence(b, (), ">" if strict else ">=", tuple(nodes), tuple(leaves)))
    return ContinuousBounds(b, per_height, seqs[0], seqs[1],
                            (len(cdfs[0][0]) - 1, len(cdfs[1][0]) - 1))


# --------------------------------------------------------------------------- perfect order

def perfect_order_counts(b: int, d: int) -> tuple[int, int]:
    """(nodes, leaves) of alpha-beta in perfect (best-first) order on a uniform tree whose
    values are all distinct (continuous leaves: with probability 1), by the node-type DP of
    Knuth & Moore: a PV node's first child is PV and the others CUT; a CUT node searches one
    child (ALL); an ALL node searches all b (CUT). The count is the same on every such tree, so
    the expectation is this number. (With tied values, as with K levels, stable best-first order
    can cut more: the counts are then random and this DP does not apply.)"""
    b, d = _int("b", b, 1, MAX_BRANCHING), _int("d", d, 0, 10_000)
    pv, cut, all_ = (1, 1), (1, 1), (1, 1)          # (nodes, leaves) below a node of height 0
    for _ in range(d):
        pv, cut, all_ = ((1 + pv[0] + (b - 1) * cut[0], pv[1] + (b - 1) * cut[1]),
                         (1 + all_[0], all_[1]),
                         (1 + b * cut[0], b * cut[1]))
    return pv


# --------------------------------------------------------------------------- no deep cutoffs

def _level_b2(b: int, is_max: bool, child_cdf: np.ndarray, C: np.ndarray, add_one: bool,
              strict: bool) -> np.ndarray:
    """One height of the shallow-cutoff DP. A MAX node holds only its parent's bound beta
    (index ib = beta, 0..K), a MIN node only alpha (index ia = alpha + 1, 0..K); ``C`` is the
    children's E by their own bound index (a MIN child's alpha is the running max)."""
    if is_max:
        Sx = _power_sum(child_cdf, b)
        w = np.zeros_like(Sx)
        w[0] = Sx[0]                                   # the first child: alpha = -inf
        w[1:] = Sx[1:] - Sx[:-1]
        terms = np.cumsum(w * C)                       # sum over j' <= j
        # reached with running max a' = j - 1: j <= ib (ties cut), j <= ib + 1 (strict)
        E = terms.copy() if not strict else np.concatenate([terms[1:], terms[-1:]])
    else:
        surv = 1 - child_cdf
        Tx = _power_sum(surv, b)
        u = np.zeros_like(Tx)
        u[-1] = Tx[-1]                                 # the first child: beta = +inf (index K)
        u[:-1] = Tx[:-1] - Tx[1:]
        terms = np.cumsum((u * C)[::-1])[::-1]         # sum over y' >= y
        # reached with running min y > alpha = ia - 1 (ties cut: y >= ia), y >= ia - 1 (strict)
        E = terms.copy() if not strict else np.concatenate([terms[:1], terms[:-1]])
    return E + 1 if add_one else E


def _chain_b2(b: int, pmf: np.ndarray, dmax: int, strict: bool, parity: int,
              cdfs: list | None = None) -> dict[int, tuple]:
    """``_chain`` for the shallow-cutoff search: root counts at the heights with h % 2 == parity."""
    K = len(pmf)
    cdf = np.concatenate([np.zeros(1, dtype=pmf.dtype), np.cumsum(pmf)])
    cdf[-1] = 1 if pmf.dtype == object else 1.0
    N = L = np.ones(K + 1, dtype=pmf.dtype)
    out = {}
    for h in range(1, dmax + 1):
        is_max = (h % 2) == parity
        if cdfs is not None:
            cdf = cdfs[h - 1]
        N = _level_b2(b, is_max, cdf, N, True, strict)
        L = _level_b2(b, is_max, cdf, L, False, strict)
        if cdfs is None:
            cdf = cdf ** b if is_max else 1 - (1 - cdf) ** b
        if is_max:
            out[h] = (N[K], L[K])                      # the root: no bound (beta = +inf)
    return out


def expected_counts_no_deep_cutoffs(b: int, dmax: int, pmf: Sequence, cut_rule: str = ">=",
                                    exact: bool = False) -> ExactSequence:
    """E[nodes], E[leaves] of alpha-beta *without deep cutoffs* (Knuth & Moore's F1, "B2" in the
    issue): each node gets only its parent's current value as its one bound (a MAX child of a MIN
    node cuts when its value >= that bound, a MIN child of a MAX node when <= it); the root has
    none. Same leaf model and counting as ``expected_counts``; O(dmax K) (one bound per node)."""
    b = _int("b", b, 1, MAX_BRANCHING)
    dmax = _int("dmax", dmax, 0, MAX_DP_DEPTH)
    if cut_rule not in CUT_RULES:
        raise InvalidParameterError(f"cut_rule must be one of {CUT_RULES}; got {cut_rule!r}")
    p = _check_pmf(pmf, exact)
    _check_range(b, dmax, len(p), exact, work_per_height=(len(p) + 1) * b,
                 denominator=_denominator(p) if exact else 1)
    nodes, leaves = [1] * (dmax + 1), [1] * (dmax + 1)
    for parity in (0, 1):
        for h, (n, l) in _chain_b2(b, p, dmax, cut_rule == ">", parity).items():
            nodes[h], leaves[h] = n, l
    conv = Fraction if exact else float
    return ExactSequence(b, tuple(pmf), cut_rule, tuple(map(conv, nodes)), tuple(map(conv, leaves)))
