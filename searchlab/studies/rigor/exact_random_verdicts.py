"""000-f / 001-d / 003-e judged on the exact expectations of studies.rigor.exact_counts (nodes, as
the claim says; leaves beside them), with the growth against Pearl's R_b from the exact sequence.
The simulation is the exact numbers' check, not the evidence: the study's simulation check (the
kernel's mean counts over independent trees against the DP, chi-square over cells) is quoted,
and a check that fails (p below CHECK_ALPHA) withholds the verdict."""

from __future__ import annotations

import math

from scipy import stats

from searchlab.studies.rigor import exact_counts as EC

from searchlab.studies.claims.verdict import Verdict

EXACT_COMMAND = ".venv/bin/python analysis/reproduce.py (section: random-order alpha-beta from exact expectations)"
#: the simulation check fails below this p (chi-square over its cells)
CHECK_ALPHA = 1e-3


def _ranges(ds: list[int]) -> str:
    """[1, 2, 3, 7, 8] -> "1..3, 7..8"."""
    out, start = [], None
    for i, d in enumerate(ds):
        if start is None:
            start = d
        if i + 1 == len(ds) or ds[i + 1] != d + 1:
            out.append(f"{start}..{d}" if d > start else f"{d}")
            start = None
    return ", ".join(out) or "no depth"


def _chi_square(cells: list[EC.CheckCell], count: str) -> tuple[float, int, float]:
    """Sum of z² over the check's cells of ``count`` ("nodes" or "leaves"), their number, p."""
    zs = [c.z for c in cells if c.count == count]
    x2 = float(sum(z * z for z in zs))
    return x2, len(zs), float(stats.chi2.sf(x2, len(zs))) if zs else math.nan


def random_order_three_quarters_exact(study: EC.ExactStudy, count_factor: float) -> Verdict:
    """The count scale (E[nodes] / b^(3d/4) within ``count_factor``, at which depths) and the
    growth scale (the exact growth against b^(3/4) and R_b)."""
    f = EC.facts(study)
    bs = f["b"]
    # "within count_factor" is decided from the rigorous bracket: a depth is within when the whole
    # bracket of E[nodes] / b^(3d/4) is, undecided when the bracket straddles a limit
    within, undecided = {}, {}
    for b, e in study.conv.items():
        ds = range(1, e.bounds.low.dmax + 1)
        ends = {d: [x / b ** (0.75 * d) for x in e.bracket("nodes", d)] for d in ds}
        within[b] = [d for d in ds if 1 / count_factor <= ends[d][0] and ends[d][1] <= count_factor]
        undecided[b] = [d for d in ds if d not in within[b]
                        and not (ends[d][1] < 1 / count_factor or ends[d][0] > count_factor)]
    peak = {b: v["max34"] for b, v in bs.items()}
    leaf_peak = {b: max((e.value("leaves", d) / b ** (0.75 * d), d) for d in range(1, e.bounds.low.dmax + 1))
                 for b, e in study.conv.items()}
    measured = "; ".join(
        f"b={b}: nodes/b^(3d/4) peaks at {peak[b][0]:.2f} (d = {peak[b][1]}), {v['ratio34_nodes']:.3g} at d = {v['dmax']} "
        f"(leaves {v['ratio34_leaves']:.3g}); growth {v['parity']['even']['growth']:.5f} (R_b {v['rb']:.5f}, "
        f"b^(3/4) {b ** 0.75:.4f})" for b, v in bs.items())
    measured += (" (exact expectations, the bracket's midpoint; continuous leaves bracketed, largest half-width "
                 f"{max(v['rel_bracket'] for v in bs.values()):.1e} relative)")
    tests = {c: _chi_square(study.check, c) for c in ("nodes", "leaves")}
    k = tests["nodes"][1] + tests["leaves"][1]
    if k:
        check = ("simulation check of the DP (the kernel's mean counts over independent trees against the exact "
                 "values, chi-square over cells): " + "; ".join(
                     f"{c}: chi² = {x2:.1f} over {n} cells, p = {p:.3g}" for c, (x2, n, p) in tests.items() if n)
                 + f"; largest |z| {f['max_abs_z']:.2f}")
    else:
        check = "no simulation check in this study"
    measured += "; " + check
    if k and not all(p >= CHECK_ALPHA for _, n, p in tests.values() if n):
        return Verdict("no data", f"the exact expectations fail their simulation check ({check}, below "
                       f"{CHECK_ALPHA:g}): not used as evidence", measured, "N ≈ b^(3d/4); Pearl: growth → R_b",
                       EXACT_COMMAND)
    where = "; ".join(f"b = {b}: d = {_ranges(ds)}" for b, ds in within.items())
    open_ = "; ".join(f"b = {b}: d = {_ranges(ds)}" for b, ds in undecided.items() if ds)
    if open_:
        where += f" (the bracket straddles a limit, undecided, at {open_})"
    # rigorous: the upper end of the growth's interval below b^(3/4) at the deepest depths
    growth_below = f["all_below_b34"]
    bounded = growth_below and all(v["below34_from_bracket"] is not None for v in bs.values())
    fell = ", ".join(f"b = {b}: d ≥ {v['below34_from_bracket']}" for b, v in bs.items()
                     if v["below34_from_bracket"] is not None)
    if growth_below:
        cat = "holds only under conditions"
        det = (f"as an upper bound O(b^(3d/4)) it holds (the rigorous interval of the growth lies below b^(3/4) "
               f"at the deepest depths of every b, so E[nodes] / b^(3d/4) peaks at {min(r for r, _ in peak.values()):.2f}–{max(r for r, _ in peak.values()):.2f} "
               f"and then falls geometrically{', its bracket below 1 from ' + fell if bounded else ''}; leaves, beside: "
               f"E[leaves] / b^(3d/4) peaks at {min(r for r, _ in leaf_peak.values()):.2f}–"
               f"{max(r for r, _ in leaf_peak.values()):.2f}); as \"about b^(3d/4)\" on nodes "
               f"(within {count_factor:g}×) only at the depths {where}. " + EC.verdict_words(f))
    elif any(v["parity"][p]["bracket"][0] > b ** 0.75 for b, v in bs.items() for p in ("even", "odd")):
        cat = "does not hold"
        det = "the rigorous interval of the growth lies above b^(3/4) at some b. " + EC.verdict_words(f)
    else:
        cat = "not shown at this power"
        det = ("the rigorous interval of the growth straddles b^(3/4) at some b: the bracket at "
               f"{study.conv[next(iter(study.conv))].per_height} cells per height does not decide (more cells "
               "per height narrow it). " + EC.verdict_words(f))
    return Verdict(cat, det, measured, "N ≈ b^(3d/4); Pearl: growth → R_b", EXACT_COMMAND)
