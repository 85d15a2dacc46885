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

Every cell (configuration, algorithm, p) carries 95 % bootstrap CIs over its trees or positions
for the mean speedup and the mean search overhead (analysis.stats.mean_ci); the verdict says
whether the efficiency crossing is shown by the CIs. The sensitivity grid (rows of table
"sensitivity": the verdict's trees under each of the split, message and table costs scaled, one
at a time) is judged by the same rule per cost setting, and the verdict says whether it changes.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd

from searchlab.analysis.format import number, percent
from searchlab.analysis.stats import mean_ci
from searchlab.analysis.markdown_tables import md_table
from searchlab.studies.claims.verdict import Context, Verdict
from searchlab.parallel.simulate import ALGORITHMS, Costs
from searchlab.studies.parallel.parallel_tasks import (overhead_table, plot_overhead, plot_policies, plot_speedup,
                                      policy_table, speedup_table)

COMMAND = "searchlab experiment=parallel (run by analysis/reproduce.py; --small: parallel_small)"
#: below this efficiency (speedup / p) more processors are judged to buy little
EFFICIENCY_FLOOR = 0.5
#: below this many trees per cell the CIs are not used to call the crossing shown
MIN_TREES = 20
#: below this many trees or positions a cell gets no bootstrap CI, only its range
MIN_CI_UNITS = 10


def load_run(run_dir: str | Path) -> pd.DataFrame:
    """The parallel study's rows of one run directory (its table/ parts)."""
    return pd.read_parquet(Path(run_dir) / "table").sort_values(
        ["task_index", "algorithm", "p"], kind="stable").reset_index(drop=True)


COST_COLUMNS = ("cost_split", "cost_message", "cost_tt")


def with_ci(table: pd.DataFrame, rows: pd.DataFrame, keys: list[str], seed: int = 0,
            resamples: int = 999) -> pd.DataFrame:
    """``table`` (one row per cell of ``keys``) with 95 % bootstrap CIs over the cell's rows
    (its trees or positions) of the mean speedup (speedup_lo, speedup_hi) and of the mean
    search overhead (overhead_lo, overhead_hi); nan for a cell of fewer than MIN_CI_UNITS
    trees or positions (a bootstrap over 3 positions is not an interval one can read), which
    get the range over their units instead (speedup_min, speedup_max, overhead_min,
    overhead_max; set for every cell)."""
    ci = []
    nan = float("nan")
    for key, g in rows.groupby(keys, sort=True, dropna=False):
        sp_x, ov_x = g["speedup"].to_numpy(float), g["search_overhead"].to_numpy(float)
        cell = dict(zip(keys, key if isinstance(key, tuple) else (key,)), speedup_lo=nan, speedup_hi=nan,
                    overhead_lo=nan, overhead_hi=nan, speedup_min=float(sp_x.min()), speedup_max=float(sp_x.max()),
                    overhead_min=float(ov_x.min()), overhead_max=float(ov_x.max()))
        if len(g) >= MIN_CI_UNITS:
            sp = mean_ci(sp_x, n_resamples=resamples, seed=seed)
            ov = mean_ci(ov_x, n_resamples=resamples, seed=seed)
            cell.update(speedup_lo=sp.low, speedup_hi=sp.high, overhead_lo=ov.low, overhead_hi=ov.high)
        ci.append(cell)
    ci = pd.DataFrame(ci)
    # speedup_table already has the speedup's range: keep the table's columns
    return table.merge(ci[[c for c in ci.columns if c in keys or c not in table.columns]], on=keys, how="left")


SPEEDUP_KEYS = ["domain", "b", "d", "order_p", "ordering", "algorithm", "p"]


def _speedup_ci(rows: pd.DataFrame, seed: int, resamples: int) -> pd.DataFrame:
    return with_ci(speedup_table(rows), rows, SPEEDUP_KEYS, seed, resamples)


def sensitivity_tables(df: pd.DataFrame, base: Costs, seed: int = 0,
                       resamples: int = 999) -> list[dict[str, Any]]:
    """The cost grid: per setting (the base costs first, then each varied cost and factor, in
    cost then factor order), its label and the speedup table of its ordered trees with CIs.
    The base setting's rows are the "speedup" table's rows of the same trees."""
    sens = df[df["table"] == "sensitivity"]
    if sens.empty:
        return []
    trees = set(sens["instance"])
    out = [dict(cost="none", factor=1.0, label="base costs",
                table=_speedup_ci(df[(df["table"] == "speedup") & df["instance"].isin(trees)], seed, resamples))]
    for vals, g in sens.groupby(list(COST_COLUMNS), sort=False):
        varied = [(c, v / getattr(base, c[5:])) for c, v in zip(COST_COLUMNS, vals)
                  if v != getattr(base, c[5:])]
        cost, factor = varied[0] if varied else ("none", 1.0)
        out.append(dict(cost=cost[5:], factor=float(factor),
                        label=f"{cost[5:]} × {number(factor)} ({number(vals[COST_COLUMNS.index(cost)])})",
                        table=_speedup_ci(g, seed, resamples)))
    rank = {c[5:]: i for i, c in enumerate(COST_COLUMNS)}
    out[1:] = sorted(out[1:], key=lambda e: (rank.get(e["cost"], -1), e["factor"]))
    return out


def summarise(df: pd.DataFrame, seconds: float, command: str = COMMAND, seed: int = 0,
              resamples: int = 999) -> dict[str, Any]:
    """The verdict's and the section's input from the study's rows: the tables "speedup"
    (the rows of the blocks labelled speedup), "ordering" (ordered trees against order_p),
    "depth", "games" (per game, depth and ordering policy), each cell with bootstrap CIs over
    its trees or positions (``with_ci``), and the cost grid ("sensitivity": sensitivity_tables)."""
    main = df[df["table"] != "sensitivity"]
    costs = main.iloc[0]
    base = Costs(costs["cost_node"], costs["cost_split"], costs["cost_message"], costs["cost_tt"])
    by = {t: df[df["table"] == t] for t in ("speedup", "ordering", "depth", "games")}
    ov_keys = ["b", "d", "order_p", "algorithm", "p"]
    pol_keys = ["domain", "d", "ordering", "algorithm", "p"]
    ordered = by["ordering"][by["ordering"]["domain"] == "ordered"]
    games = by["games"][by["games"]["b"].isna()]
    return {"speedup": _speedup_ci(by["speedup"], seed, resamples) if len(by["speedup"]) else None,
            "ordering": with_ci(overhead_table(by["ordering"]), ordered, ov_keys, seed, resamples)
            if len(by["ordering"]) else None,
            "depth": _speedup_ci(by["depth"], seed, resamples) if len(by["depth"]) else None,
            "games": with_ci(policy_table(by["games"]), games, pol_keys, seed, resamples)
            if len(by["games"]) else None,
            "games_speedup": _speedup_ci(by["games"], seed, resamples) if len(by["games"]) else None,
            "sensitivity": sensitivity_tables(df, base, seed, resamples),
            "costs": base,
            "seconds": seconds, "command": command, "rows": len(df),
            "same_value": (int(df["same_value"].sum()), len(df))}


def _ordered(data: dict) -> pd.DataFrame:
    s = data["speedup"]
    return s[s["domain"] == "ordered"]


def _efficiency_by_p(s: pd.DataFrame) -> pd.DataFrame:
    """Per p, the algorithm with the best mean speedup, its speedup (with its CI where the
    table has one) and efficiency."""
    best = s.loc[s.groupby("p")["speedup"].idxmax()].sort_values("p")
    cols = ["p", "algorithm", "speedup", "efficiency", "overhead", "idle_fraction", "n"]
    return best[cols + [c for c in ("speedup_lo", "speedup_hi", "overhead_lo", "overhead_hi")
                        if c in best.columns]]


def judge(s: pd.DataFrame) -> dict[str, Any]:
    """The verdict's rule on one speedup table of ordered trees: the first p where the best
    algorithm's mean efficiency falls below EFFICIENCY_FLOOR (``p_half``, None if never) and
    the category ("holds" if p_half <= 4, "does not hold" if never, else "holds only under
    conditions"). With CIs and at least MIN_TREES trees per cell (else None): ``shown`` is whether the crossing is shown by them (at p_half the
    best speedup's CI lies below p_half · floor, and at every smaller p the best speedup's CI
    lies above p · floor)."""
    eff = _efficiency_by_p(s)
    below = eff[eff["efficiency"] < EFFICIENCY_FLOOR]
    p_half = int(below["p"].iloc[0]) if len(below) else None
    if p_half is None:
        cat = "does not hold"
    else:
        cat = "holds" if p_half <= 4 else "holds only under conditions"
    shown = None
    if "speedup_lo" in eff.columns and eff["speedup_lo"].notna().all() and eff["n"].min() >= MIN_TREES:
        if p_half is None:
            shown = bool((eff["speedup_lo"] >= EFFICIENCY_FLOOR * eff["p"]).all())
        else:
            at = eff[eff["p"] == p_half].iloc[0]
            before = eff[eff["p"] < p_half]
            shown = bool(at.speedup_hi < EFFICIENCY_FLOOR * p_half and
                         (before["speedup_lo"] >= EFFICIENCY_FLOOR * before["p"]).all())
    return dict(eff=eff, p_half=p_half, category=cat, shown=shown)


def _ci(lo: float, hi: float, fmt=number) -> str:
    return "" if lo != lo else f" [{fmt(lo)}, {fmt(hi)}]"


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
    j = judge(s)
    eff = j["eff"]
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
            ci = _ci(getattr(r, "overhead_lo", float("nan")), getattr(r, "overhead_hi", float("nan")), percent)
            return f"{percent(r.overhead)}{ci} at order_p = {number(r.order_p)}{kind}"

        ordering_note = (f"; YBWC's search overhead at p = {p_o}: "
                         + ", ".join(at(r) for r in yb.itertuples()))
    measured = (f"ordered trees b = {b}, d = {d}, best move first with probability {number(op)} "
                f"(n = {int(s['n'].min())} trees per cell; 95 % bootstrap CIs over trees): best speedup per p: "
                + ", ".join(f"p={int(r.p)}: {number(r.speedup)}"
                            f"{_ci(getattr(r, 'speedup_lo', float('nan')), getattr(r, 'speedup_hi', float('nan')))}"
                            f" ({r.algorithm}, efficiency {percent(r.efficiency)})" for r in eff.itertuples())
                + ordering_note + _games_note(data) + _sensitivity_note(data, j))
    theory = ("ideal speedup p; minimax's subtrees are independent, so it splits anywhere with no "
              "extra nodes")
    command = data.get("command", COMMAND)
    robust = _robustness(data, j)
    if below.empty:
        return Verdict("does not hold", f"the best algorithm keeps at least "
                       f"{percent(EFFICIENCY_FLOOR)} efficiency up to p = {p_max}" + robust, measured, theory,
                       command)
    p_half = int(below["p"].iloc[0])
    p_ok = eff[eff["p"] < p_half]["p"].max()
    model = (f"; the model judged is ordered trees b = {b}, d = {d} with the best move first with probability "
             f"{number(op)}" + _other_models(data, p_ok))
    where = (f"best efficiency falls below {percent(EFFICIENCY_FLOOR)} from p = {p_half}; at "
             f"p = {p_max} the best speedup is {number(top.speedup)} ({top.algorithm}, "
             f"{percent(top.efficiency)} efficiency, search overhead {percent(top.overhead)})")
    if p_half <= 4:
        return Verdict("holds", where + robust, measured, theory, command)
    return Verdict("holds only under conditions",
                   f"on few processors alpha-beta parallelises well (efficiency at least "
                   f"{percent(EFFICIENCY_FLOOR)} up to p = {number(p_ok)}); {where} and "
                   f"{percent(top.idle_fraction)} of the processors' time idle" + model + robust, measured, theory,
                   command)


def _other_models(data: dict, p: float) -> str:
    """The best efficiency at ``p`` on the speedup table's other tree models (with its CI
    where the cell has one): the verdict's '50 % up to p' is a statement about its model."""
    s = data["speedup"]
    out = []
    for dom, sl in s[s["domain"] != "ordered"].groupby("domain", sort=False):
        at = sl[sl["p"] == p]
        if at.empty:
            continue
        r = at.loc[at["speedup"].idxmax()]
        lo, hi = r.get("speedup_lo", float("nan")), r.get("speedup_hi", float("nan"))
        out.append(f"{dom} trees b = {int(r.b)}, d = {int(r.d)}: {percent(r.speedup / p)}"
                   f"{_ci(lo / p, hi / p, percent)} ({r.algorithm}, n = {int(r.n)})")
    return (f"; the best efficiency at p = {number(p)} under the other tree models: " + "; ".join(out)) if out else ""


def _robustness(data: dict, j: dict) -> str:
    """What the CIs and the cost grid say about the verdict: whether the efficiency crossing
    is shown by the CIs, and whether any cost setting changes the category."""
    out = ""
    n = int(_ordered(data)["n"].min())
    if n < MIN_TREES:
        out += f"; whether the CIs show the crossing: not shown (n = {n} trees per cell, fewer than {MIN_TREES})"
    elif j["shown"] is not None:
        out += (f"; the crossing is shown by the 95 % CIs over n = {n} trees" if j["shown"] else
                f"; the crossing is not shown by the 95 % CIs over n = {n} trees (they reach across "
                f"{percent(EFFICIENCY_FLOOR)} efficiency)")
    grid = data.get("sensitivity") or []
    if len(grid) > 1:
        judged = [(e, judge(e["table"][e["table"]["domain"] == "ordered"])) for e in grid]
        changed = [(e, r) for e, r in judged[1:] if r["category"] != judged[0][1]["category"]]
        moved = [(e, r) for e, r in judged[1:] if r["p_half"] != judged[0][1]["p_half"]]
        if not changed:
            out += (f"; the verdict is the same under all {len(grid) - 1} varied cost settings "
                    f"({', '.join(e['label'] for e, _ in judged[1:])})")
            if moved:
                out += ("; the crossing moves to " + ", ".join(f"p = {r['p_half']} under {e['label']}"
                                                             for e, r in moved))
        else:
            out += ("; the verdict changes under " + ", ".join(
                f"{e['label']} (to \"{r['category']}\": " + (
                    f"efficiency below {percent(EFFICIENCY_FLOOR)} from p = {r['p_half']})" if r["p_half"] is not None
                    else f"efficiency never below {percent(EFFICIENCY_FLOOR)})") for e, r in changed))
    return out


def _sensitivity_note(data: dict, j: dict) -> str:
    grid = data.get("sensitivity") or []
    if len(grid) < 2:
        return ""
    parts = []
    for e in grid:
        r = judge(e["table"][e["table"]["domain"] == "ordered"])
        top = r["eff"].iloc[-1]
        parts.append(f"{e['label']}: below {percent(EFFICIENCY_FLOOR)} from p = "
                     f"{r['p_half'] if r['p_half'] is not None else 'never'}, best speedup at p = {int(top.p)} "
                     f"{number(top.speedup)}{_ci(top.speedup_lo, top.speedup_hi)} ({top.algorithm})")
    return "; cost sensitivity (the same trees, one cost scaled at a time): " + "; ".join(parts)


def _speedup_rows(sl: pd.DataFrame) -> list[list]:
    rows = []
    for p in sorted(sl["p"].unique()):
        row = [int(p)]
        for alg in ALGORITHMS:
            r = sl[(sl["p"] == p) & (sl["algorithm"] == alg)]
            if not len(r):
                row.append("n/a")
                continue
            x = r.iloc[0]
            if x.get("speedup_lo", 0) != x.get("speedup_lo", 0) and "speedup_min" in x:     # no CI: the range
                row.append(f"{number(x.speedup)} ({number(x.speedup_min)}..{number(x.speedup_max)}) "
                           f"({percent(x.overhead)} ({percent(x.overhead_min)}..{percent(x.overhead_max)}))")
                continue
            row.append(f"{number(x.speedup)}{_ci(x.get('speedup_lo', float('nan')), x.get('speedup_hi', float('nan')))}"
                       f" ({percent(x.overhead)}"
                       f"{_ci(x.get('overhead_lo', float('nan')), x.get('overhead_hi', float('nan')), percent)})")
        rows.append(row)
    return rows


def parallel_section(data: dict, fig_dir: Path, fmt: str = "png") -> str:
    """The report's section: speedup against p per algorithm (trees and games), overhead
    against ordering quality (order_p on ordered trees; ordering policies on games), speedup
    against depth (tables; figures written to ``fig_dir`` as ``fmt``: png, pdf or svg, and
    linked as written). Raises ValueError for another format."""
    if fmt not in ("png", "pdf", "svg"):
        raise ValueError(f"fmt must be png, pdf or svg, got {fmt!r}")
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
        name = f"parallel_speedup_{dom}_d{int(d)}.{fmt}"
        title = (f"{dom} trees, b = {int(sl['b'].iloc[0])}, d = {int(d)}"
                 + (f", order_p = {number(sl['order_p'].iloc[0])}" if dom == "ordered" else ""))
        plot_speedup(sl, fig_dir / name, title)
        parts.append(f"### Speedup against p: {title} (n = {int(sl['n'].iloc[0])} trees)\n\n"
                     "Mean speedup [95 % bootstrap CI over trees] (mean search overhead [CI]):\n\n"
                     + md_table(["p"] + list(ALGORITHMS), _speedup_rows(sl))
                     + f"\n\n![{name}](figures/{name})")
    gs = data.get("games_speedup")
    if gs is not None:
        for (dom, d, o), sl in gs.groupby(["domain", "d", "ordering"], sort=False):
            if o != gs[(gs["domain"] == dom) & (gs["d"] == d)].groupby("ordering")[
                    "seq_nodes"].mean().idxmin():
                continue                      # the figure for the best policy; the rest: below
            name = f"parallel_speedup_{dom}_d{int(d)}.{fmt}"
            title = f"{dom}, depth {int(d)}, ordering {o}"
            plot_speedup(sl, fig_dir / name, title)
            n_pos = int(sl['n'].iloc[0])
            how = ("Mean speedup [95 % bootstrap CI over positions] (mean search overhead [CI]):" if n_pos >= MIN_CI_UNITS
                   else f"Mean speedup (its range over the {n_pos} positions) (mean search overhead (range)); no "
                   f"bootstrap CI over fewer than {MIN_CI_UNITS} positions:")
            parts.append(f"### Speedup against p: {title} (n = {n_pos} positions)"
                         f"\n\n{how}\n\n"
                         + md_table(["p"] + list(ALGORITHMS), _speedup_rows(sl))
                         + f"\n\n![{name}](figures/{name})")
    o = data["ordering"]
    if o is not None:
        rows = []
        for (op, p), g in o.groupby(["order_p", "p"]):
            row = [number(op), int(p)]
            for alg in ALGORITHMS:
                r = g[g["algorithm"] == alg]
                row.append(f"{percent(r['overhead'].iloc[0])}"
                           f"{_ci(r['overhead_lo'].iloc[0], r['overhead_hi'].iloc[0], percent)} / "
                           f"{number(r['speedup'].iloc[0])}" if len(r) else "n/a")
            rows.append(row)
        figs = []
        for p in sorted(o["p"].unique()):
            name = f"parallel_overhead_p{int(p)}.{fmt}"
            plot_overhead(o, fig_dir / name, int(p), f"ordered trees b = {int(o['b'].iloc[0])}, "
                          f"d = {int(o['d'].iloc[0])}, p = {int(p)}")
            figs.append(f"![{name}](figures/{name})")
        parts.append("### Search overhead against ordering quality (ordered trees, "
                     f"n = {int(o['n'].min())} trees per cell)\n\n"
                     "Search overhead [95 % bootstrap CI over trees] / speedup; order_p = P(best move "
                     "first), 1/b is random order:\n\n" + md_table(["order_p", "p"] + list(ALGORITHMS), rows)
                     + "\n\n" + " ".join(figs))
    g = data.get("games")
    if g is not None:
        rows, figs = [], []
        for (dom, d), sl in g.groupby(["domain", "d"], sort=False):
            p_show = sorted(sl["p"].unique())
            p_fig = 16 if 16 in p_show else int(max(p_show))
            name = f"parallel_policies_{dom}_d{int(d)}.{fmt}"
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
    grid = data.get("sensitivity") or []
    if len(grid) > 1:
        rows = []
        for e in grid:
            j = judge(e["table"][e["table"]["domain"] == "ordered"])
            top = j["eff"].iloc[-1]
            rows.append([e["label"], "never" if j["p_half"] is None else j["p_half"], j["category"],
                         "n/a" if j["shown"] is None else ("yes" if j["shown"] else "no"), int(top.p),
                         f"{number(top.speedup)}{_ci(top.speedup_lo, top.speedup_hi)} ({top.algorithm})",
                         int(j["eff"]["n"].min())])
        first = grid[0]["table"]
        first = first[first["domain"] == "ordered"]
        parts.append("### Sensitivity to the simulated costs (the verdict's ordered trees, b = "
                     f"{int(first['b'].iloc[0])}, d = {int(first['d'].iloc[0])})\n\n"
                     "Each of the split, message and table costs scaled by each factor, one at a time, "
                     "the others at their base values; the same trees; the verdict's rule applied per "
                     "setting (crossing: the first p where the best algorithm's efficiency falls below "
                     f"{percent(EFFICIENCY_FLOOR)}; shown: whether the 95 % CIs show it):\n\n"
                     + md_table(["costs", "crossing p", "verdict", "shown by CIs", "p", "best speedup [CI]",
                                 "trees"], rows))
    dp = data["depth"]
    if dp is not None:
        rows = [[int(d)] + [number(dp[(dp["d"] == d) & (dp["algorithm"] == a)]["speedup"].iloc[0])
                            for a in ALGORITHMS] for d in sorted(dp["d"].unique())]
        parts.append(f"### Speedup against depth (ordered trees, p = {int(dp['p'].iloc[0])})\n\n"
                     + md_table(["d"] + list(ALGORITHMS), rows))
    return "\n\n".join(parts)
