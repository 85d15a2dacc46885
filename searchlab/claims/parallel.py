"""Claim 002-b: "alpha-beta has to see the whole window, so it is awkward to run in parallel".

``parallel_checks()`` runs the parallel simulator's sweeps (searchlab.parallel.study) and keeps
the summaries; ``parallel_verdict`` judges the claim from them and ``parallel_section`` writes
the report's tables and figures. Every figure is computed; nothing is typed in.

The verdict: parallel alpha-beta is *awkward* where adding processors buys little, i.e. where
the best of the four algorithms falls below 50 % efficiency (speedup / p). It "holds" if that
happens already at p <= 4, "does not hold" if never up to the largest p simulated, and "holds
only under conditions" in between (the conditions: how many processors, and how good the move
ordering is).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pandas as pd

from searchlab.analysis.format import number, percent
from searchlab.analysis.tables import md_table
from searchlab.claims.verdict import Context, Verdict
from searchlab.parallel.simulate import ALGORITHMS, Costs
from searchlab.parallel.study import (default_sweeps, overhead_table, plot_overhead, plot_speedup,
                                      speedup_table)

COMMAND = ("searchlab.claims.parallel.parallel_checks() (run by analysis/reproduce.py; the same "
           "sweeps: python -m searchlab.parallel.study)")
#: below this efficiency (speedup / p) more processors are judged to buy little
EFFICIENCY_FLOOR = 0.5


def parallel_checks(small: bool = False, n_jobs: int = 1) -> dict[str, Any]:
    """The simulator's default sweeps (``study.default_sweeps``), summarised."""
    t0 = time.perf_counter()
    tables = default_sweeps(small, n_jobs)
    return summarise(tables, time.perf_counter() - t0)


def summarise(tables: dict[str, pd.DataFrame], seconds: float) -> dict[str, Any]:
    """The verdict's and the section's input from sweep tables "speedup", "ordering" and
    "depth" (as ``study.default_sweeps`` returns them, with the default costs)."""
    same = pd.concat([t["same_value"] for t in tables.values()])
    return {"speedup": speedup_table(tables["speedup"]),
            "ordering": overhead_table(tables["ordering"]),
            "depth": speedup_table(tables["depth"]), "costs": Costs(), "seconds": seconds,
            "same_value": (int(same.sum()), len(same))}


def _ordered(data: dict) -> pd.DataFrame:
    s = data["speedup"]
    return s[s["model"] == "ordered"]


def _efficiency_by_p(s: pd.DataFrame) -> pd.DataFrame:
    """Per p, the algorithm with the best mean speedup, its speedup and efficiency."""
    best = s.loc[s.groupby("p")["speedup"].idxmax()].sort_values("p")
    return best[["p", "algorithm", "speedup", "efficiency", "overhead", "idle_fraction"]]


def parallel_verdict(ctx: Context) -> Verdict:
    data = (ctx.exact or {}).get("parallel")
    if data is None:
        return Verdict("no data", "the parallel simulations were not run", "not measured",
                       "see the claim", COMMAND)
    s = _ordered(data)
    eff = _efficiency_by_p(s)
    below = eff[eff["efficiency"] < EFFICIENCY_FLOOR]
    p_max = int(eff["p"].max())
    top = eff[eff["p"] == p_max].iloc[0]
    b, d, op = int(s["b"].iloc[0]), int(s["d"].iloc[0]), float(s["order_p"].iloc[0])
    o = data["ordering"]
    p_o = 16 if (o["p"] == 16).any() else int(o["p"].max())
    yb = o[(o["algorithm"] == "ybwc") & (o["p"] == p_o)].sort_values("order_p")

    def at(r) -> str:
        kind = (" (random order)" if abs(r.order_p - 1 / r.b) < 1e-9 else
                " (perfect order)" if r.order_p == 1 else "")
        return f"{percent(r.overhead)} at order_p = {number(r.order_p)}{kind}"

    ordering_note = (f"YBWC's search overhead at p = {p_o}: "
                     + ", ".join(at(r) for r in yb.itertuples()))
    measured = (f"ordered trees b = {b}, d = {d}, best move first with probability {number(op)} "
                f"(n = {int(s['n'].iloc[0])} trees): best speedup per p: "
                + ", ".join(f"p={int(r.p)}: {number(r.speedup)} ({r.algorithm}, efficiency "
                            f"{percent(r.efficiency)})" for r in eff.itertuples())
                + f"; {ordering_note}")
    theory = ("ideal speedup p; minimax's subtrees are independent, so it splits anywhere with no "
              "extra nodes")
    if below.empty:
        return Verdict("does not hold", f"the best algorithm keeps at least "
                       f"{percent(EFFICIENCY_FLOOR)} efficiency up to p = {p_max}", measured, theory,
                       COMMAND)
    p_half = int(below["p"].iloc[0])
    p_ok = eff[eff["p"] < p_half]["p"].max()
    where = (f"best efficiency falls below {percent(EFFICIENCY_FLOOR)} from p = {p_half}; at "
             f"p = {p_max} the best speedup is {number(top.speedup)} ({top.algorithm}, "
             f"{percent(top.efficiency)} efficiency, search overhead {percent(top.overhead)})")
    if p_half <= 4:
        return Verdict("holds", where, measured, theory, COMMAND)
    return Verdict("holds only under conditions",
                   f"on few processors alpha-beta parallelises well (efficiency at least "
                   f"{percent(EFFICIENCY_FLOOR)} up to p = {number(p_ok)}); {where} and "
                   f"{percent(top.idle_fraction)} of the processors' time idle", measured, theory,
                   COMMAND)


def parallel_section(data: dict, fig_dir: Path) -> str:
    """The report's section: speedup against p per algorithm, overhead against ordering
    quality, speedup against depth (tables and figures written to ``fig_dir``)."""
    c = data["costs"]
    parts = [f"Simulated by `searchlab.parallel.simulate` ({data['seconds']:.0f} s; the same sweeps: "
             "`python -m searchlab.parallel.study`): a deterministic discrete-event simulation of p "
             "virtual processors, the clock in node visits, a split costing "
             f"{number(c.split)}, a message {number(c.message)} and a table access {number(c.tt)} "
             "visits. Speedup = sequential alpha-beta's nodes / parallel time; search overhead = "
             f"extra nodes over sequential alpha-beta. {data['same_value'][0]:,} of the "
             f"{data['same_value'][1]:,} simulated searches returned sequential alpha-beta's root "
             "value (tests/parallel checks it against minimax). Rules: docs/parallel.md."]
    s = data["speedup"]
    for model in s["model"].unique():
        sl = s[s["model"] == model]
        name = f"parallel_speedup_{model}.png"
        title = (f"{model} trees, b = {int(sl['b'].iloc[0])}, d = {int(sl['d'].iloc[0])}"
                 + (f", order_p = {number(sl['order_p'].iloc[0])}" if model == "ordered" else ""))
        plot_speedup(sl, fig_dir / name, title)
        rows = []
        for p in sorted(sl["p"].unique()):
            row = [int(p)]
            for alg in ALGORITHMS:
                r = sl[(sl["p"] == p) & (sl["algorithm"] == alg)]
                row.append(f"{number(r['speedup'].iloc[0])} ({percent(r['overhead'].iloc[0])})"
                           if len(r) else "n/a")
            rows.append(row)
        parts.append(f"### Speedup against p: {title} (n = {int(sl['n'].iloc[0])} trees)\n\n"
                     "Mean speedup (mean search overhead):\n\n"
                     + md_table(["p"] + list(ALGORITHMS), rows) + f"\n\n![{name}](figures/{name})")
    o = data["ordering"]
    rows = []
    for (op, p), g in o.groupby(["order_p", "p"]):
        row = [number(op), int(p)]
        for alg in ALGORITHMS:
            r = g[g["algorithm"] == alg]
            row.append(f"{percent(r['overhead'].iloc[0])} / {number(r['speedup'].iloc[0])}"
                       if len(r) else "n/a")
        rows.append(row)
    figs = []
    for p in sorted(o["p"].unique()):
        name = f"parallel_overhead_p{int(p)}.png"
        plot_overhead(o, fig_dir / name, int(p), f"ordered trees b = {int(o['b'].iloc[0])}, "
                      f"d = {int(o['d'].iloc[0])}, p = {int(p)}")
        figs.append(f"![{name}](figures/{name})")
    parts.append("### Search overhead against ordering quality (ordered trees)\n\n"
                 "Search overhead / speedup; order_p = P(best move first), 1/b is random order:\n\n"
                 + md_table(["order_p", "p"] + list(ALGORITHMS), rows) + "\n\n" + " ".join(figs))
    dp = data["depth"]
    rows = [[int(d)] + [number(dp[(dp["d"] == d) & (dp["algorithm"] == a)]["speedup"].iloc[0])
                        for a in ALGORITHMS] for d in sorted(dp["d"].unique())]
    parts.append(f"### Speedup against depth (ordered trees, p = {int(dp['p'].iloc[0])})\n\n"
                 + md_table(["d"] + list(ALGORITHMS), rows))
    return "\n\n".join(parts)
