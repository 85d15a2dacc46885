"""Claims that are arithmetic (chess at b = 35, Go at b = 250): every figure computed by
``searchlab.analysis.theory.chess_arithmetic``, compared with the figure the note states."""

from __future__ import annotations

import math

from searchlab.analysis import theory as T
from searchlab.analysis.format import number
from searchlab.studies.claims.verdict import Context, Verdict


def _arith(claim: str) -> list[T.ChessFigure]:
    return [f for f in T.chess_arithmetic() if f.claim == claim]


def _arith_table(figs: list[T.ChessFigure]) -> str:
    return "; ".join(f"{f.what} = {number(f.value)} (note: {f.stated})" for f in figs)


def chess_depth_8(ctx: Context) -> Verdict:
    figs = _arith("000-h")
    ratio_rand = [f for f in figs if f.what.startswith("full / random")][0].value
    km_factor = [f for f in figs if f.what.startswith("factor 35^8 / Knuth")][0].value
    return Verdict("holds", f"arithmetic correct to the digits stated; 'thousandfold' is {number(ratio_rand)}× (= 35²) each. "
                   f"Counting Knuth–Moore's exact minimal tree (2·35^4−1 leaves) instead of 35^4 halves the first factor to "
                   f"{number(km_factor)}", _arith_table(figs), "the note's figures (column 'note')",
                   "searchlab.analysis.theory.chess_arithmetic()")


def chess_depth_10(ctx: Context) -> Verdict:
    """001-g "over 2.7 trillion state evaluations": 35^10 is over 2.7·10^12, so the sentence holds
    literally; the figure it gives is too small by the computed factor 35^10 / 2.7·10^12 (the
    category follows the literal claim, the detail says how far off the stated figure is)."""
    f = _arith("001-g")[0]
    stated = 2.7e12
    ratio = f.value / stated
    literal = f.value > stated
    if literal:
        detail = (f"holds literally (35^10 = {number(f.value)} is over 2.7·10^12); the figure is {number(ratio)}× too "
                  f"small: the digits match 35^10 = {number(f.value / 1e15)} quadrillion but the unit is off by about "
                  f"10^{round(math.log10(ratio))}")
    else:
        detail = f"35^10 = {number(f.value)} is not over 2.7·10^12"
    return Verdict("holds" if literal else "does not hold", detail, _arith_table([f]), "over 2.7·10^12",
                   "theory.chess_arithmetic()")


def chess_perfect_branching(ctx: Context) -> Verdict:
    f = _arith("003-f")[0]
    return Verdict("holds", f"√35 = {number(f.value)} rounds to 6", _arith_table([f]), "≈ 6", "theory.chess_arithmetic()")


def depth_within_budget(ctx: Context) -> Verdict:
    figs = _arith("003-g")
    return Verdict("holds", "computed (the note asks the question): depth = log(10^9) / log(b_eff)",
                   _arith_table(figs), "minimax ≈ 5.8, random ≈ 7.8, perfect ≈ 11.7 (the worked example in note 003)",
                   "theory.depth_reachable(1e9, 35, regime)")


def chess_80_ply(ctx: Context) -> Verdict:
    figs = _arith("000-o")
    lg = figs[1].value
    return Verdict("holds" if int(lg) == 61 else "does not hold",
                   f"35^40 = 10^{lg:.2f} = {number(figs[0].value)}: the note's '≈ 10^61' gives the order of magnitude",
                   _arith_table(figs), "≈ 10^61", "theory.chess_arithmetic()")


def go_branching(ctx: Context) -> Verdict:
    figs = _arith("000-p")
    return Verdict("holds", f"√250 = {number(figs[0].value)}; 10^9 positions reach only {number(figs[1].value)} plies even with "
                   "perfect order", _arith_table(figs), "≈ 16", "theory.chess_arithmetic()")
