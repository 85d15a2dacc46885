"""Theory: the counts and branching factors the measurements are compared against.

Every number here is computed, never typed: Knuth & Moore's minimal tree, Pearl's asymptotic
branching factor of alpha-beta on random uniform trees, the curves b, b^(3/4) and sqrt(b), the
depth a node budget buys under each regime, and the chess/Go arithmetic of the background notes.

Sources: Knuth & Moore (1975), "An analysis of alpha-beta pruning"; Pearl (1982), "The solution
for the branching factor of the alpha-beta pruning algorithm and its optimality"; the course
course notes (claim IDs refer to docs/claims.md).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy.optimize import brentq

__all__ = [
    "minimax_leaves", "minimax_nodes", "knuth_moore_leaves", "knuth_moore_nodes",
    "pearl_xi", "pearl_rb", "pearl_alpha", "regime_beff", "REGIMES", "REGIME_EXPONENT",
    "depth_reachable", "depth_reachable_exact", "chess_arithmetic", "ChessFigure",
]


# --------------------------------------------------------------------------- exact counts

def minimax_leaves(b: int, d: int) -> int:
    """Leaves of the full uniform tree: b^d (what minimax examines)."""
    return int(b) ** int(d)


def minimax_nodes(b: int, d: int) -> int:
    """Nodes of the full uniform tree, root and leaves included: 1 + b + ... + b^d."""
    b, d = int(b), int(d)
    return sum(b ** k for k in range(d + 1))


def knuth_moore_leaves(b: int, d: int) -> int:
    """Leaves of Knuth & Moore's minimal tree: b^ceil(d/2) + b^floor(d/2) - 1.

    This is what alpha-beta examines with perfect (best-first) ordering on a tree whose sibling
    values are distinct, and the least any algorithm must examine to prove the minimax value.
    """
    b, d = int(b), int(d)
    return b ** ((d + 1) // 2) + b ** (d // 2) - 1


def knuth_moore_nodes(b: int, d: int) -> int:
    """Nodes of the minimal tree, root and leaves included: sum over ply k of the minimal tree's
    width at ply k (which is ``knuth_moore_leaves(b, k)``)."""
    return sum(knuth_moore_leaves(b, k) for k in range(int(d) + 1))


# --------------------------------------------------------------------------- Pearl

def pearl_xi(b: float) -> float:
    """xi_b, the positive root of x^b + x - 1 = 0 (it lies in (0, 1)); scipy's brentq."""
    b = float(b)
    if b < 1:
        raise ValueError(f"b must be >= 1, got {b}")
    return float(brentq(lambda x: x ** b + x - 1.0, 0.0, 1.0, xtol=1e-15, rtol=4 * np.finfo(float).eps))


def pearl_rb(b: float) -> float:
    """Pearl's asymptotic branching factor of alpha-beta on uniform trees with continuous i.i.d.
    leaf values: R_b = xi_b / (1 - xi_b). R_2 is the golden ratio."""
    xi = pearl_xi(b)
    return xi / (1.0 - xi)


def pearl_alpha(b: float) -> float:
    """Pearl's exponent log R_b / log b (the counterpart of the 3/4 rule)."""
    return math.log(pearl_rb(b)) / math.log(float(b))


#: exponent of b in the effective branching factor of each regime
REGIME_EXPONENT = {"minimax": 1.0, "random": 0.75, "perfect": 0.5}
REGIMES = ("minimax", "random", "perfect", "pearl")


def regime_beff(b: float, regime: str) -> float:
    """The effective branching factor a regime predicts: minimax b, random b^(3/4) (the rule of
    thumb of the notes), perfect sqrt(b), pearl R_b."""
    if regime == "pearl":
        return pearl_rb(b)
    try:
        return float(b) ** REGIME_EXPONENT[regime]
    except KeyError:
        raise ValueError(f"unknown regime {regime!r}; one of {REGIMES}") from None


def depth_reachable(budget: float, b: float, regime: str) -> float:
    """The (fractional) depth d with beff^d = budget, beff from ``regime_beff``.

    The background's worked example: b = 35, 10^9 positions gives minimax ~5.8 plies, random
    order ~7.8 and perfect order ~11.7."""
    return math.log(float(budget)) / math.log(regime_beff(b, regime))


def depth_reachable_exact(budget: float, b: int, regime: str, count: str = "leaves") -> int:
    """The largest whole depth whose exact count stays within the budget: minimax counts b^d
    (or the full tree's nodes), perfect counts Knuth–Moore's minimal tree; the random regime has
    no exact count and uses ceil-free b^(3d/4); pearl uses R_b^d."""
    d = 0
    while True:
        nxt = d + 1
        if regime == "minimax":
            n = minimax_leaves(b, nxt) if count == "leaves" else minimax_nodes(b, nxt)
        elif regime == "perfect":
            n = knuth_moore_leaves(b, nxt) if count == "leaves" else knuth_moore_nodes(b, nxt)
        else:
            n = regime_beff(b, regime) ** nxt
        if n > budget:
            return d
        d = nxt
        if d > 10_000:
            raise ValueError("budget too large for an exact depth")


# --------------------------------------------------------------------------- chess arithmetic

@dataclass(frozen=True)
class ChessFigure:
    """One computed figure of the background's arithmetic: what, the computed value, and the
    figure the note states (as the note writes it)."""

    claim: str
    what: str
    value: float
    stated: str


def chess_arithmetic(b_chess: int = 35, b_go: int = 250, budget: float = 1e9) -> list[ChessFigure]:
    """Every figure of claims 000-h, 001-g, 000-o, 000-p, 003-f and 003-g, computed."""
    b = b_chess
    out = [
        ChessFigure("000-h", f"full tree {b}^8", float(b) ** 8, "≈ 2.25·10^12"),
        ChessFigure("000-h", f"perfect order {b}^4", float(b) ** 4, "≈ 1.50·10^6"),
        ChessFigure("000-h", f"factor {b}^8 / {b}^4", float(b) ** 4, "about 1.5 million"),
        ChessFigure("000-h", f"Knuth–Moore leaves at d=8: {b}^4+{b}^4−1",
                    float(knuth_moore_leaves(b, 8)), "(not stated)"),
        ChessFigure("000-h", f"factor {b}^8 / Knuth–Moore leaves(d=8)",
                    float(b) ** 8 / knuth_moore_leaves(b, 8), "(not stated)"),
        ChessFigure("000-h", f"full tree {b}^12", float(b) ** 12, "3.38·10^18"),
        ChessFigure("000-h", f"perfect order {b}^6", float(b) ** 6, "1.84·10^9"),
        ChessFigure("000-h", f"random order at d=8: {b}^(3·8/4) = {b}^6", float(b) ** 6, "≈ 1.84·10^9"),
        ChessFigure("000-h", f"full / random at d=8 ({b}^2)", float(b) ** 8 / float(b) ** 6,
                    "roughly a thousandfold"),
        ChessFigure("000-h", f"random / perfect at d=8 ({b}^2)", float(b) ** 6 / float(b) ** 4,
                    "another thousandfold"),
        ChessFigure("000-h", f"Pearl R_{b} at d=8: R^8", pearl_rb(b) ** 8, "(not stated)"),
        ChessFigure("001-g", f"minimax to depth 10: {b}^10", float(b) ** 10, "over 2.7 trillion (2.7·10^12)"),
        ChessFigure("003-f", f"perfect-order effective branching factor √{b}", math.sqrt(b), "≈ 6"),
        ChessFigure("000-o", f"perfect order to 80 ply: {b}^40", float(b) ** 40, "≈ 10^61"),
        ChessFigure("000-o", f"log10({b}^40)", 40 * math.log10(b), "61"),
        ChessFigure("000-p", f"Go: √{b_go}", math.sqrt(b_go), "≈ 16"),
        ChessFigure("000-p", f"Go: depth reachable with √{b_go} at {budget:.0e} positions",
                    depth_reachable(budget, b_go, "perfect"), "(still unmanageable)"),
    ]
    for regime, stated in (("minimax", "asked"), ("random", "asked"), ("perfect", "asked"),
                           ("pearl", "(not in the note)")):
        out.append(ChessFigure("003-g", f"depth reachable at {budget:.0e} positions, {regime}"
                               f" (b_eff = {regime_beff(b, regime):.3g})",
                               depth_reachable(budget, b, regime), stated))
    for regime in ("minimax", "perfect"):
        out.append(ChessFigure("003-g", f"whole plies within {budget:.0e} leaves, exact {regime} count",
                               float(depth_reachable_exact(budget, b, regime)), "(not in the note)"))
    return out
