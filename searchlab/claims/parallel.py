"""Claim 002-b: "alpha-beta has to see the whole window, so it is awkward to run in parallel".

The numbers come from the parallel study's table: the engine's preset ``searchlab
experiment=parallel`` (or ``parallel_small``), read back by ``load_run`` and summarised by
``summarise``; ``parallel_verdict`` judges the claim from the summaries and ``parallel_section``
writes the report's tables and figures. Every figure is computed; nothing is typed in.

The verdict: parallel alpha-beta is *awkward* where adding processors buys little, i.e. where
the best of the four algorithms falls below 50 % efficiency (speedup / p) on the "speedup"
ordered trees. It "holds" if that happens already at p <= 4, "does not hold" if never up to the
largest p simulated, and "holds only under conditions" in between (the conditions: how many
processors, and how good the move ordering is; the games' numbers are quoted beside).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd

from searchlab.analysis.format import number, percent
from searchlab.analysis.tables import md_table
from searchlab.claims.verdict import Context, Verdict
from searchlab.parallel.simulate import ALGORITHMS, Costs
from searchlab.parallel.study import (overhead_table, plot_overhead, plot_policies, plot_speedup,
                                      policy_table, speedup_table)

COMMAND = "searchlab experiment=parallel (run by analysis/reproduce.py; --small: parallel_small)"
#: below this efficiency (speedup / p) more processors are judged to buy little
EFFICIENCY_FLOOR = 0.5


def load_run(run_dir: str | Path) -> pd.DataFrame:
    """The parallel study's rows of one run directory (its table/ parts)."""
    return pd.read_parquet(Path(run_dir) / "table").sort_values(
        ["task_index", "algorithm", "p"], kind="stable").reset_index(drop=True)


def summarise(df: pd.DataFrame, seconds: float, command: str = COMMAND) -> dict[str, Any]:
    """The verdict's and the section's input from the study's rows: the tables "speedup"
    (the rows of the blocks labelled speedup), "ordering" (ordered trees against order_p),
    "depth", "games" (per game, depth and ordering policy)."""
    costs = df.iloc[0]
    by = {t: df[df["table"] == t] for t in ("speedup", "ordering", "depth", "games")}
    return {"speedup": speedup_table(by["speedup"]) if len(by["speedup"]) else None,
            "ordering": overhead_table(by["ordering"]) if len(by["ordering"]) else None,
            "depth": speedup_table(by["depth"]) if len(by["depth"]) else None,
            "games": policy_table(by["games"]) if len(by["games"]) else None,
            "games_speedup": speedup_table(by["games"]) if len(by["games"]) else None,
            "costs": Costs(costs["cost_node"], costs["cost_split"], costs["cost_message"],
                           costs["cost_tt"]),
            "seconds": seconds, "command": command, "rows": len(df),
            "same_value": (int(df["same_value"].sum()), len(df))}


def _ordered(data: dict) -> pd.DataFrame:
    s = data["speedup"]
    return s[s["domain"] == "ordered"]


def _efficiency_by_p(s: pd.DataFrame) -> pd.DataFrame:
    """Per p, the algorithm with the best mean speedup, its speedup and efficiency."""
    best = s.loc[s.groupby("p")["speedup"].idxmax()].sort_values("p")
    return best[["p", "algorithm", "speedup", "efficiency", "overhead", "idle_fraction"]]


def _games_note(data: dict) -> str:
    """Per game and depth, at the largest p: the best algorithm's speedup under the policy
    with the fewest sequential nodes, and the range of YBWC's overhead over the policies."""
    g = data.get("games_speedup")
    if g is None or g.empty:
        return ""
    notes = []
    for (dom, d), sl in g.groupby(["domain", "d"]):
        p_max = int(sl["p"].max())
        at = sl[sl["p"] == p_max]
        best_policy = at.groupby("ordering")["seq_nodes"].mean().idxmin()
        b = at[at["ordering"] == best_policy].sort_values("speedup").iloc[-1]
        yb = at[at["algorithm"] == "ybwc"]
        notes.append(f"{dom} depth {int(d)}, p = {p_max}: best speedup {number(b.speedup)} "
                     f"({b.algorithm}, ordering {best_policy}, overhead {percent(b.overhead)}); "
                     f"YBWC's overhead {percent(yb['overhead'].min())}..{percent(yb['overhead'].max())}"
                     f" over {yb['ordering'].nunique()} policies")
    return "; games: " + "; ".join(notes)


def parallel_verdict(ctx: Context) -> Verdict:
    data = (ctx.exact or {}).get("parallel")
    if data is None or data.get("speedup") is None:
        return Verdict("no data", "the parallel study was not run", "not measured",
                       "see the claim", COMMAND)
    s = _ordered(data)
    eff = _efficiency_by_p(s)
    below = eff[eff["efficiency"] < EFFICIENCY_FLOOR]
    p_max = int(eff["p"].max())
    top = eff[eff["p"] == p_max].iloc[0]
    b, d, op = int(s["b"].iloc[0]), int(s["d"].iloc[0]), float(s["order_p"].iloc[0])
    o = data["ordering"]
    ordering_note = ""
    if o is not None:
        p_o = 16 if (o["p"] == 16).any() else int(o["p"].max())
        yb = o[(o["algorithm"] == "ybwc") & (o["p"] == p_o)].sort_values("order_p")

        def at(r) -> str:
            kind = (" (random order)" if abs(r.order_p - 1 / r.b) < 1e-9 else
                    " (perfect order)" if r.order_p == 1 else "")
            return f"{percent(r.overhead)} at order_p = {number(r.order_p)}{kind}"

        ordering_note = (f"; YBWC's search overhead at p = {p_o}: "
                         + ", ".join(at(r) for r in yb.itertuples()))
    measured = (f"ordered trees b = {b}, d = {d}, best move first with probability {number(op)} "
                f"(n = {int(s['n'].iloc[0])} trees): best speedup per p: "
                + ", ".join(f"p={int(r.p)}: {number(r.speedup)} ({r.algorithm}, efficiency "
                            f"{percent(r.efficiency)})" for r in eff.itertuples())
                + ordering_note + _games_note(data))
    theory = ("ideal speedup p; minimax's subtrees are independent, so it splits anywhere with no "
              "extra nodes")
    command = data.get("command", COMMAND)
    if below.empty:
        return Verdict("does not hold", f"the best algorithm keeps at least "
                       f"{percent(EFFICIENCY_FLOOR)} efficiency up to p = {p_max}", measured, theory,
                       command)
    p_half = int(below["p"].iloc[0])
    p_ok = eff[eff["p"] < p_half]["p"].max()
    where = (f"best efficiency falls below {percent(EFFICIENCY_FLOOR)} from p = {p_half}; at "
             f"p = {p_max} the best speedup is {number(top.speedup)} ({top.algorithm}, "
             f"{percent(top.efficiency)} efficiency, search overhead {percent(top.overhead)})")
    if p_half <= 4:
        return Verdict("holds", where, measured, theory, command)
    return Verdict("holds only under conditions",
                   f"on few processors alpha-beta parallelises well (efficiency at least "
                   f"{percent(EFFICIENCY_FLOOR)} up to p = {number(p_ok)}); {where} and "
                   f"{percent(top.idle_fraction)} of the processors' time idle", measured, theory,
                   command)


def _speedup_rows(sl: pd.DataFrame) -> list[list]:
    rows = []
    for p in sorted(sl["p"].unique()):
        row = [int(p)]
        for alg in ALGORITHMS:
            r = sl[(sl["p"] == p) & (sl["algorithm"] == alg)]
            row.append(f"{number(r['speedup'].iloc[0])} ({percent(r['overhead'].iloc[0])})"
                       if len(r) else "n/a")
        rows.append(row)
    return rows


def parallel_section(data: dict, fig_dir: Path) -> str:
    """The report's section: speedup against p per algorithm (trees and games), overhead
    against ordering quality (order_p on ordered trees; ordering policies on games), speedup
    against depth (tables and figures written to ``fig_dir``)."""
    c = data["costs"]
    parts = [f"The parallel study (`{data['command']}`, {data['rows']:,} simulations, "
             f"{data['seconds']:.0f} s): a deterministic discrete-event simulation of p virtual "
             "processors (searchlab.parallel.simulate), the clock in node visits, a split costing "
             f"{number(c.split)}, a message {number(c.message)} and a table access {number(c.tt)} "
             "visits. Speedup = the sequential search's time / parallel time; search overhead = "
             f"extra nodes over the sequential search. {data['same_value'][0]:,} of the "
             f"{data['same_value'][1]:,} simulated searches returned the sequential search's root "
             "value (tests/parallel checks it against minimax). Rules: docs/parallel.md."]
    fig_dir = Path(fig_dir)
    s = data["speedup"]
    for key in ([] if s is None else s.groupby(["domain", "d"], sort=False).groups):
        dom, d = key
        sl = s[(s["domain"] == dom) & (s["d"] == d)]
        name = f"parallel_speedup_{dom}_d{int(d)}.png"
        title = (f"{dom} trees, b = {int(sl['b'].iloc[0])}, d = {int(d)}"
                 + (f", order_p = {number(sl['order_p'].iloc[0])}" if dom == "ordered" else ""))
        plot_speedup(sl, fig_dir / name, title)
        parts.append(f"### Speedup against p: {title} (n = {int(sl['n'].iloc[0])} trees)\n\n"
                     "Mean speedup (mean search overhead):\n\n"
                     + md_table(["p"] + list(ALGORITHMS), _speedup_rows(sl))
                     + f"\n\n![{name}](figures/{name})")
    gs = data.get("games_speedup")
    if gs is not None:
        for (dom, d, o), sl in gs.groupby(["domain", "d", "ordering"], sort=False):
            if o != gs[(gs["domain"] == dom) & (gs["d"] == d)].groupby("ordering")[
                    "seq_nodes"].mean().idxmin():
                continue                      # the figure for the best policy; the rest: below
            name = f"parallel_speedup_{dom}_d{int(d)}.png"
            title = f"{dom}, depth {int(d)}, ordering {o}"
            plot_speedup(sl, fig_dir / name, title)
            parts.append(f"### Speedup against p: {title} (n = {int(sl['n'].iloc[0])} positions)"
                         "\n\nMean speedup (mean search overhead):\n\n"
                         + md_table(["p"] + list(ALGORITHMS), _speedup_rows(sl))
                         + f"\n\n![{name}](figures/{name})")
    o = data["ordering"]
    if o is not None:
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
                     "Search overhead / speedup; order_p = P(best move first), 1/b is random "
                     "order:\n\n" + md_table(["order_p", "p"] + list(ALGORITHMS), rows)
                     + "\n\n" + " ".join(figs))
    g = data.get("games")
    if g is not None:
        rows, figs = [], []
        for (dom, d), sl in g.groupby(["domain", "d"], sort=False):
            p_show = sorted(sl["p"].unique())
            p_fig = 16 if 16 in p_show else int(max(p_show))
            name = f"parallel_policies_{dom}_d{int(d)}.png"
            plot_policies(sl, fig_dir / name, p_fig, f"{dom}, depth {int(d)}, p = {p_fig}")
            figs.append(f"![{name}](figures/{name})")
            at = sl[sl["p"] == p_fig]
            for pol, r in at.groupby("ordering", sort=False):
                row = [dom, int(d), pol, f"{r['seq_nodes'].iloc[0]:,.0f}"]
                for alg in ALGORITHMS:
                    x = r[r["algorithm"] == alg]
                    row.append(f"{percent(x['overhead'].iloc[0])} / {number(x['speedup'].iloc[0])}"
                               if len(x) else "n/a (needs tt)")
                rows.append(row)
        parts.append("### Search overhead against the ordering policy (games)\n\n"
                     f"Search overhead / speedup at p = {p_fig} (sequential nodes: the sequential "
                     "search's mean, the policy's quality):\n\n"
                     + md_table(["game", "depth", "ordering", "sequential nodes"]
                                + list(ALGORITHMS), rows) + "\n\n" + " ".join(figs))
    dp = data["depth"]
    if dp is not None:
        rows = [[int(d)] + [number(dp[(dp["d"] == d) & (dp["algorithm"] == a)]["speedup"].iloc[0])
                            for a in ALGORITHMS] for d in sorted(dp["d"].unique())]
        parts.append(f"### Speedup against depth (ordered trees, p = {int(dp['p'].iloc[0])})\n\n"
                     + md_table(["d"] + list(ALGORITHMS), rows))
    return "\n\n".join(parts)
