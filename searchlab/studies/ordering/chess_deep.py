"""The deep chess ordering study (preset ``chess_deep``): WAC and Bratko-Kopec
positions searched at depths 1..7 with quiescence on the compiled engine, every ordering
policy, each search capped at its policy's node budget (``sweep.max_nodes_by_ordering``, else
``search.max_nodes``; the caller reads them from the run's config with
``searchlab.experiment.api.node_caps``).

``measure(table, caps)`` turns the study's rows into plain numbers; ``section`` writes the report's
tables; ``captures_first`` and ``killer_and_history`` are the verdicts for claims 001-k and
000-l/001-i from these rows (with the earlier shallow measurements when the study did not
run); ``close_to_minimal_tree`` (000-j without the minimal-tree study) is the shallow
measurement's verdict: the closeness below is not a minimal tree of the position.

Definitions (every figure below follows them):
- work of a search = ``nodes + q_nodes`` (main search and quiescence nodes). A search that hit
  its policy's per-search cap has status "aborted": it counts as unsolved at its depth.
- solved share by depth: every policy under one cap, the run's smallest per-search cap (a
  search of a higher-capped policy that finished only above it counts as unsolved there,
  censored), so the shares compare orderings and not caps.
- solved = the best move is an EPD ``bm`` move (and no ``am`` move) (EpdPosition.is_solution).
- solved share at a node budget N: on each position the deepest depth k the policy completes
  within N (for policies with ``id`` the row at depth k already counts every iteration; for the
  others the search restarts at every depth, so depths 1..k are summed, as plain iterative
  deepening without information kept); solved if that row solved it. ``censored`` counts
  positions where the policy's last depth run fit within N, so a deeper one might have too.
  The share is defined only for N up to the policy's cap: above it a stopped search's work is
  unknown (it might or might not fit within N), so those budgets are "beyond cap" (no share,
  neither solved nor unsolved).
- paired node ratios: policy A's work over policy B's on the same positions at one depth (the
  deepest depth where both finished on at least 90 % of the positions: deeper, the positions
  both finish are a selection of easy ones), positions where both finished within the pair's
  *common cap*, the smaller of the two policies' caps (censoring made explicit: a search of the
  higher-capped policy whose work lies between the two caps counts as not finished, as it would
  have under the other's cap, so the pair is judged under one cap; the caps and the searches so
  censored are reported); the geometric mean of the per-position ratios with a
  bootstrap CI over positions (searchlab.analysis.stats.paired_ratio), Holm-adjusted p-values
  over the comparisons of one claim.
- closeness to the minimal tree: per position, the horizon nodes of the last iteration
  (``per_ply[d]``) of the best composed policy against Knuth and Moore's minimal tree
  b̄^⌈d/2⌉ + b̄^⌊d/2⌋ − 1 with the position's own mean branching b̄ (plies 0 and 1); and the
  growth exponent α = ln(L(d) / L(d − 2)) / (2 ln b̄) of those horizon counts (1/2 for the
  minimal tree, 3/4 for random order, 1 for minimax). Invalid as a minimal tree (the section
  says so): b̄ of plies 0-1 overstates the branching deeper down and transpositions save nodes,
  so the ratio falls below 1; 000-j is judged against each position's own minimal tree
  (studies/ordering/minimal_trees_study.py).
"""

from __future__ import annotations

import math
from typing import Any, Mapping

import numpy as np
import pandas as pd
from scipy import stats

from searchlab.algorithms.ordering_registry import describe
from searchlab.analysis.stats import classify, holm, mean_ci, paired_ratio
from searchlab.analysis.markdown_tables import md_table
from searchlab.studies.claims import complexity as X
from searchlab.studies.ordering import ordering_checks as O
from searchlab.studies.claims.verdict import Verdict
from searchlab.analysis.format import interval

COMMAND = "searchlab experiment=chess_deep (run by analysis/reproduce.py; searchlab.studies.ordering.chess_deep)"
BUDGETS = (10_000, 100_000, 1_000_000, 5_000_000)
BEST = "id+tt+killer+history+captures"
#: (claim, policy A, policy B): A searches fewer nodes than B (ratio A/B < 1)
CAPTURE_PAIRS = (("captures", "natural"), ("id+tt+captures", "id+tt"))
KILLER_PAIRS = (("killer", "natural"), ("history", "natural"),
                ("killer+history+captures", "captures"))


def _frame(table: pd.DataFrame, caps: Mapping[str, int]) -> pd.DataFrame:
    """The chess rows with the columns the measures use; ``cap``: each row's per-search node
    budget, from ``caps`` (policy -> cap). Raises ValueError naming a policy without a cap."""
    df = table[table["game"] == "chess"].copy()
    missing = sorted(set(df["ordering"]) - set(caps))
    if missing:
        raise ValueError(f"chess_deep: no node cap for the policies {missing} (caps: the run's "
                         "searchlab.experiment.api.node_caps)")
    df["cap"] = df["ordering"].map(caps).astype(float)
    df["unit"] = df["positions"].astype(str) + ":" + df["position"].astype(str)
    df["work"] = df["nodes"].astype(float) + df["q_nodes"].astype(float)
    df["ok"] = df["status"] == "ok"
    df["won"] = df["ok"] & df["solved"].fillna(False).astype(bool)
    return df


def solved_by_depth(df: pd.DataFrame) -> pd.DataFrame:
    """Per suite, policy and depth: positions, solved, aborted (aborted = unsolved), and the
    cap they are judged under: the run's *common cap*, the smallest per-search cap of any
    policy, the same for every policy so that the shares compare orderings, not caps. A search
    of a higher-capped policy that finished only above the common cap counts as aborted there
    (``censored`` counts them): the search is deterministic and the cap only stops it, so a
    search that finished within the common cap would have finished identically under it, and
    one that needed more would have been stopped."""
    common = float(df["cap"].min())
    df = df.assign(ok_c=df["ok"] & (df["work"] <= common),
                   censored_c=df["ok"] & (df["work"] > common))
    df = df.assign(won_c=df["won"] & df["ok_c"])
    g = df.groupby(["positions", "ordering", "d"])
    out = g.agg(n=("unit", "size"), solved=("won_c", "sum"),
                aborted=("ok_c", lambda s: int((~s).sum())), censored=("censored_c", "sum"),
                own_cap=("cap", "first"))
    out["cap"] = common
    out["share"] = out["solved"] / out["n"]
    return out.reset_index()


def solved_by_budget(df: pd.DataFrame, budgets=BUDGETS) -> pd.DataFrame:
    """Per suite, policy and budget N: solved share, mean depth reached, censored positions;
    a budget above the policy's cap is ``beyond_cap`` (share, solved, mean depth None)."""
    rows = []
    for (suite, policy), g in df.groupby(["positions", "ordering"], sort=True):
        has_id = describe(policy).has("id")
        cap = g["cap"].iloc[0]
        for budget in budgets:
            if budget > cap:
                rows.append(dict(positions=suite, ordering=policy, budget=budget,
                                 n=g["unit"].nunique(), solved=None, share=None,
                                 mean_depth=None, censored=None, beyond_cap=True))
                continue
            solved = censored = 0
            depths = []
            for _, pos in g.groupby("unit"):
                pos = pos.sort_values("d")
                d = pos["d"].to_numpy()
                cost = np.where(pos["ok"], pos["work"], np.inf)
                if not has_id:
                    cost = np.cumsum(cost)
                fit = (cost <= budget) & (d == np.arange(1, len(d) + 1))
                fit = np.logical_and.accumulate(fit)
                reach = int(d[fit].max()) if fit.any() else 0
                depths.append(reach)
                if reach:
                    solved += bool(pos.loc[pos["d"] == reach, "won"].iloc[0])
                censored += bool(reach and reach == d.max())
            n = len(depths)
            rows.append(dict(positions=suite, ordering=policy, budget=budget, n=n, solved=solved,
                             share=solved / n, mean_depth=float(np.mean(depths)), censored=censored,
                             beyond_cap=False))
    return pd.DataFrame(rows)


FINISHED = 0.9


def paired(df: pd.DataFrame, pairs, n_resamples: int = 999) -> list[dict]:
    """Paired node ratios A/B (module docstring), with Holm-adjusted p-values."""
    out = []
    units = df["unit"].nunique()
    for a, b in pairs:
        caps = df[df["ordering"].isin((a, b))].groupby("ordering")["cap"].first()
        if len(caps) < 2:
            continue
        common = float(caps.min())
        done = df["ok"] & (df["work"] <= common)         # finished within the common cap
        for depth in sorted(df["d"].unique(), reverse=True):
            at = df["d"] == depth
            x = df[(df["ordering"] == a) & at & done].set_index("unit")["work"]
            y = df[(df["ordering"] == b) & at & done].set_index("unit")["work"]
            both = x.index.intersection(y.index)
            if len(both) >= max(2, FINISHED * units):
                break
        else:
            continue
        censored = int((df["ordering"].isin((a, b)) & at & df["ok"] & ~done).sum())
        xa, yb = x[both].to_numpy(), y[both].to_numpy()
        est = paired_ratio(xa, yb, kind="geometric", n_resamples=n_resamples)
        out.append(dict(a=a, b=b, d=int(depth), n=len(both), ratio=est.value, low=est.low,
                        high=est.high, p=_t_pvalue(np.log(xa / yb)), cap=int(common),
                        censored=censored))
    if out:
        for row, adj in zip(out, holm([r["p"] for r in out])):
            row["p_holm"] = float(adj)
            row["kind"] = classify(row["low"], row["high"], 1.0, direction=-1)
    return out


def _t_pvalue(x: np.ndarray) -> float:
    """Two-sided p-value of a one-sample t-test of mean 0 (log ratios: no difference)."""
    if len(x) < 2 or np.allclose(x, x[0]):
        return 0.0 if len(x) and x[0] != 0 else 1.0
    return float(stats.ttest_1samp(x, 0.0).pvalue)


def minimal_tree(df: pd.DataFrame, policy: str = BEST, n_resamples: int = 999) -> list[dict]:
    """Per depth d: the geometric mean of L(d) / KM(b̄, d) and the growth exponent α over
    positions where the policy finished (module docstring), with bootstrap CIs."""
    sub = df[(df["ordering"] == policy) & df["ok"]]
    leaves = {(r.unit, int(r.d)): float(r.per_ply[int(r.d)]) for r in sub.itertuples()
              if len(r.per_ply) > int(r.d)}
    bbar = sub.groupby("unit")["branching"].first()
    out = []
    for d in sorted(sub["d"].unique()):
        d = int(d)
        units = [u for u in bbar.index if (u, d) in leaves and leaves[(u, d)] > 0
                 and math.isfinite(bbar[u]) and bbar[u] > 1]
        if len(units) < 2:
            continue
        km = np.array([bbar[u] ** math.ceil(d / 2) + bbar[u] ** (d // 2) - 1 for u in units])
        lr = np.log(np.array([leaves[(u, d)] for u in units]) / km)
        ratio = mean_ci(lr, n_resamples=n_resamples)
        row = dict(d=d, n=len(units), ratio=math.exp(ratio.value), low=math.exp(ratio.low),
                   high=math.exp(ratio.high), b_bar=float(np.mean([bbar[u] for u in units])))
        grow = [u for u in units if (u, d - 2) in leaves and leaves[(u, d - 2)] > 0]
        if d >= 3 and len(grow) >= 2:
            a = np.array([math.log(leaves[(u, d)] / leaves[(u, d - 2)]) / (2 * math.log(bbar[u]))
                          for u in grow])
            est = mean_ci(a, n_resamples=n_resamples)
            row.update(alpha=est.value, alpha_low=est.low, alpha_high=est.high, alpha_n=len(grow))
        out.append(row)
    return out


def measure(table: pd.DataFrame, caps: Mapping[str, int], n_resamples: int = 999) -> dict[str, Any]:
    """The study's numbers (module docstring) from its table (every status); ``caps``: each
    policy's per-search node budget in the run (searchlab.experiment.api.node_caps). Raises
    ValueError when a policy of the table has no cap."""
    df = _frame(table, caps)
    if df.empty:
        return {}
    depths = df.groupby("ordering")["d"].max()
    return dict(
        n={s: int(g["unit"].nunique()) for s, g in df.groupby("positions")},
        rows=len(df), aborted=int((~df["ok"]).sum()),
        caps={p: int(caps[p]) for p in depths.index},
        depths={p: int(v) for p, v in depths.items()},
        by_depth=solved_by_depth(df).to_dict("records"),
        by_budget=solved_by_budget(df).to_dict("records"),
        captures=paired(df, CAPTURE_PAIRS, n_resamples),
        killer=paired(df, KILLER_PAIRS, n_resamples),
        minimal=minimal_tree(df, n_resamples=n_resamples),
        cpu_seconds=float(df["wall_seconds"].sum()),
    )


def _ratio_text(r: dict) -> str:
    return (f"{r['a']} / {r['b']} at d={r['d']}: {interval(r['ratio'], r['low'], r['high'])} "
            f"(n={r['n']}, Holm p={r['p_holm']:.2g})")


# --- verdicts --------------------------------------------------------------------------------
def _data(ctx) -> dict[str, Any] | None:
    d = (ctx.exact or {}).get("chess_deep")
    return d or None


def close_to_minimal_tree(ctx) -> Verdict:
    """000-j without the minimal-tree study: the shallow measurement's verdict (which says its
    own limits), never the deep study's horizon nodes over KM(b̄, d): with b̄ the branching of
    plies 0-1 that is not a minimal tree of the position (its ratio falls below 1 at depth)."""
    v = X.close_to_minimal_tree(ctx)
    if _data(ctx) is None:
        return v
    return Verdict(v.category, v.detail + ("; " if v.detail else "") + "the deep study's ratio to the Knuth–Moore "
                   "tree of the root's branching b̄ is not used: it is not a minimal tree of the position (invalid)",
                   v.measured, v.theory, v.command)


#: pairs printed beside a verdict but not its evidence, with the reason (000-l: in the
#: lexicographic composition killer+history+captures every move is sorted by history and
#: MVV-LVA only breaks ties, so quiet moves with a history score go before the captures: the pair
#: measures history displacing captures, not killers and history added on top of them; the
#: staged order, tt+tactical+killer+history, is the composition that adds them, and 000-l's chess
#: evidence is its paired comparison. tests/algorithms/test_staged_ordering.py pins the order.)
NOT_EVIDENCE = {("killer+history+captures", "captures"):
                "not evidence on 000-l: in this composition history outranks captures (every move sorted by "
                "history, MVV-LVA only breaking ties), so it measures history displacing captures, not killers and "
                "history added to them; the staged order (tt, captures, killers, history) is the chess evidence"}


def _with_deep(v: Verdict, ctx, key: str) -> Verdict:
    """The shallow verdict ``v`` with the deep study's paired ratios ``key`` added to its
    measurement, when the study ran; a pair of NOT_EVIDENCE is printed with its reason, and the
    detail says it was left out of the evidence."""
    d = _data(ctx)
    if d is None or not d[key]:
        return v
    deep = "; deep chess: " + "; ".join(
        _ratio_text(r) + f" ({r['kind']}" + (f"; {NOT_EVIDENCE[(r['a'], r['b'])]}" if (r["a"], r["b"]) in NOT_EVIDENCE
                                              else "") + ")" for r in d[key])
    left = [r for r in d[key] if (r["a"], r["b"]) in NOT_EVIDENCE]
    detail = v.detail + "".join(f"; the deep study's {r['a']} / {r['b']} = {r['ratio']:.2f} is left out of the "
                                "evidence (history outranks captures in that composition)" for r in left)
    return Verdict(v.category, detail, v.measured + deep, v.theory, v.command + "; " + COMMAND)


def captures_first(ctx) -> Verdict:
    """001-k: the shallow verdict (captures and aspiration windows) with the deep ratios."""
    return _with_deep(O.captures_and_aspiration(ctx), ctx, "captures")


def killer_and_history(ctx) -> Verdict:
    """000-l/001-i: the shallow verdict with the deep ratios."""
    return _with_deep(O.killer_and_history(ctx), ctx, "killer")


# --- the report section ------------------------------------------------------------------------
def caps_text(caps: Mapping[str, int]) -> str:
    """'1,000,000 nodes for natural, tt; 5,000,000 nodes for captures': the caps, smallest
    first, each with its policies."""
    by: dict[int, list[str]] = {}
    for policy, cap in caps.items():
        by.setdefault(int(cap), []).append(policy)
    return "; ".join(f"{c:,} nodes for {', '.join(ps)}" for c, ps in sorted(by.items()))


def _budget_cell(x: Any) -> str:
    if x.beyond_cap:
        return "beyond cap"
    return f"{x.share:.2f} (d̄ {x.mean_depth:.1f}{', ' + str(int(x.censored)) + ' cens.' if x.censored else ''})"


def section(d: dict[str, Any]) -> str:
    """Markdown: solved share by depth and by budget, paired ratios, closeness to b^(d/2)."""
    if not d:
        return "The chess_deep study did not run."
    parts = [f"Positions: {', '.join(f'{k} {v}' for k, v in d['n'].items())}; {d['rows']:,} "
             f"searches, {d['aborted']:,} stopped at their policy's per-search cap (counted "
             f"unsolved). Per-search caps (search + quiescence nodes): {caps_text(d['caps'])}. "
             f"Depths per policy: " + ", ".join(f"{p} 1..{k}" for p, k in d["depths"].items())
             + f". Search time summed over tasks: {d['cpu_seconds']:.0f} s.\n"]
    bd = pd.DataFrame(d["by_depth"])
    for suite, g in bd.groupby("positions"):
        piv = g.pivot(index="ordering", columns="d", values="share")
        ab = g.pivot(index="ordering", columns="d", values="aborted")
        rows = [[p, f"{d['caps'][p]:,}"]
                + [("" if math.isnan(v) else f"{v:.2f}" + (f" ({a:.0f} ab.)" if a else ""))
                   for v, a in zip(piv.loc[p], ab.loc[p])] for p in piv.index]
        common = int(g["cap"].iloc[0])
        parts.append(f"Solved share by depth, {suite}, every policy judged under one cap of "
                     f"{common:,} nodes per search, the smallest policy's (ab.: searches that "
                     "did not finish within it, counted unsolved; those of a higher-capped "
                     "policy that finished only above it are among them, censored at the common "
                     "cap; own cap: the policy's cap in the run):\n\n"
                     + md_table(["policy", "own cap"] + [f"d={c}" for c in piv.columns], rows))
    bb = pd.DataFrame(d["by_budget"])
    for suite, g in bb.groupby("positions"):
        rows = [[r.ordering] + [_budget_cell(x) for x in g[g["ordering"] == r.ordering].itertuples()]
                for r in g.drop_duplicates("ordering").itertuples()]
        parts.append(f"Solved share at a node budget per move, {suite} (d̄: mean depth reached; "
                     "cens.: positions whose last depth run fit, so a deeper one might have; "
                     "beyond cap: a budget above the policy's cap, where a stopped search might "
                     "or might not have fit, so no share is given):\n\n"
                     + md_table(["policy"] + [f"N={b:,}" for b in sorted(g["budget"].unique())], rows))
    pr = d["captures"] + d["killer"]
    if pr:
        parts.append("Paired node ratios (work = nodes + quiescence nodes; geometric mean over "
                     "positions both finished within the pair's common cap, the smaller of the "
                     "two policies' caps: a search of the higher-capped policy that finished "
                     "only above it is censored, counted as not finished; 95 % bootstrap CI, "
                     "Holm within each claim):\n\n" + md_table(
                         ["A / B", "depth", "common cap", "censored", "n", "ratio [CI]",
                          "Holm p", "verdict kind"],
                         [[f"{r['a']} / {r['b']}", r["d"], f"{r.get('cap', 0):,}",
                           r.get("censored", 0), r["n"], interval(r["ratio"], r["low"], r["high"]),
                           f"{r['p_holm']:.2g}", r["kind"]] for r in pr]))
    if d["minimal"]:
        below = [m["d"] for m in d["minimal"] if m["high"] < 1]
        parts.append(f"{BEST} against the Knuth–Moore tree of each position's b̄. **Invalid as a minimal tree, "
                     "kept for the record; no verdict uses it**: b̄ is the branching of plies 0–1, deeper positions "
                     "branch less and transpositions save nodes, so KM(b̄, d) is not the position's minimal tree"
                     + (f" (the ratio's CI lies below 1 at d = {', '.join(map(str, below))}, which no search can "
                        "reach against its own minimal tree)" if below else "")
                     + "; 000-j is judged against each position's own minimal tree (experiment=minimal_trees):\n\n"
                     + md_table(
            ["depth", "n", "horizon nodes / KM [CI]", "α over d−2 → d [CI]"],
            [[m["d"], m["n"], interval(m["ratio"], m["low"], m["high"]),
              interval(m["alpha"], m["alpha_low"], m["alpha_high"]) if "alpha" in m else ""]
             for m in d["minimal"]]))
    return "\n\n".join(parts)
