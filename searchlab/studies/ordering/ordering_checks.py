"""Claims about ordering techniques (000-j/k/l/m, 001-k, 002-a): iterative deepening, killer,
history, transposition tables, captures first, aspiration windows, a game's own order.

``ordering_checks()`` runs the searches (synthetic incremental trees, Connect Four, Othello,
chess, tic-tac-toe) and returns plain numbers; the verdict functions turn them into claim
verdicts and ``ordering_section`` into the report's tables. Every figure is computed here;
nothing is typed in. Positions are seeded (random play from the start, or the shipped WAC
suite), so a rerun gives the same numbers.
"""

from __future__ import annotations

import math
from typing import Any


from searchlab.studies.rigor.convergence import fmt_ci
from searchlab.studies.ordering.ordering_costs import COST_DEFINITION, best_by_cost
from searchlab.analysis.format import interval, number
from searchlab.analysis.stats import classify, holm
from searchlab.studies.claim_study.claim_steps import run_steps
from searchlab.studies.ordering import chess_ordering_study as COS
from searchlab.studies.ordering import ordering_checks_study as OCS
from searchlab.studies.ordering import deep_ordering_verdicts as OD
from searchlab.studies.claims.verdict import Verdict

def ordering_checks(small: bool = False) -> dict[str, Any]:
    """Run every measurement in this process (about a minute at full size; ``small``: a few
    seconds): the steps of ordering_checks_study (``searchlab experiment=ordering_checks`` runs
    the same steps as tasks of the engine) and their summary."""
    size = "small" if small else "full"
    return OCS.summarise(run_steps(OCS.ordering_steps(size), OCS.KINDS), size)


def policy_table(agg: dict, reference: str = "perfect") -> str:
    """Markdown: one row per policy, nodes relative to perfect order (or natural)."""
    ref = agg.get(reference) or agg["natural"]
    rows = ["| policy | mean nodes | × " + (reference if reference in agg else "natural") +
            " | mean last-iteration nodes | fail-high-first | TT hit rate | same value as natural |",
            "|---|---|---|---|---|---|---|"]
    for p, a in agg.items():
        rows.append(f"| {p} | {number(a['nodes'])} | {a['nodes'] / ref['nodes']:.2f} | {number(a['last'])} | "
                    f"{number(a['fhf'])} | {number(a['tt_hit'])} | {a['same_value']}/{a['n']} |")
    return "\n".join(rows)


def ordering_section(data: dict) -> str:
    """The report section on ordering techniques (tables from ``ordering_checks``)."""
    t = data["tree"]
    parts = [f"Measured by `searchlab experiment=ordering_checks` (searchlab.studies.ordering."
             f"ordering_checks_study; the searches took {data['seconds']:.0f} CPU s); alpha-beta (fail-soft), every policy returns plain "
             "alpha-beta's value (last column). Nodes include every iterative-deepening iteration; "
             "the last-iteration column is the final search alone."]
    for corr, agg in t["by_corr"].items():
        parts.append(f"### Incremental trees, b = {t['b']}, d = {t['d']}, decay {t['decay']}, "
                     f"correlation {corr} (n = {t['n']} trees)\n\n" + policy_table(agg))
    asp = t["aspiration"]
    parts.append("### Aspiration windows on iterative deepening (id+tt, correlation 0.5)\n\n"
                 "| window half-width | mean nodes | mean cutoffs | mean re-searches |\n|---|---|---|---|\n"
                 + "\n".join(f"| {k} | {number(v['nodes'])} | {number(v['cutoffs'])} | {number(v['re_searches'])} |"
                             for k, v in asp.items()))
    for key, label in (("connect4", "Connect Four"), ("othello", "Othello")):
        g = data[key]
        parts.append(f"### {label}: {g['n']} seeded positions, depth {g['depth']}, mean branching "
                     f"{g['b_bar']:.2f} (√b̄ = {math.sqrt(g['b_bar']):.2f}, b̄^(3/4) = "
                     f"{g['b_bar'] ** 0.75:.2f})\n\n" + policy_table(g["agg"]))
    c = data["chess"]
    # the n = 8 chess table is not printed: the chess ordering verdicts rest on the deep study and
    # the chess_ordering study (WAC + BK, 324 positions); its rows stay in the study's table
    parts.append(f"### Chess\n\nThis study also searches WAC 1–{c['n']} at depth {c['depth']} (its table "
                 "`ordering_search`); with n = {n} positions that table is not shown: chess ordering is measured "
                 "on WAC and Bratko-Kopec (324 positions) in the sections \"Chess at depth 7\" and \"Chess "
                 "ordering as engines compose it\".".replace("{n}", str(c["n"])))
    q = data["quiescence"]
    parts.append(f"### Quiescence (chess, WAC 1–{q['n']}, depth {q['depth'] - 1} → {q['depth']})\n\n"
                 "| search | median value swing (centipawns) | mean swing | WAC best move found |\n|---|---|---|---|\n"
                 + "\n".join(f"| {k} | {number(q['swing'][k])} | {number(q['swing_mean'][k])} | "
                             f"{q['solved'][k]}/{q['n']} |" for k in ("plain", "quiescence")))
    tm = data["tt_mistake"]
    parts.append(f"### Transposition tables\n\nTic-tac-toe, whole game: {data['tictactoe']['natural']:,} "
                 f"nodes without a table, {data['tictactoe']['tt']:,} with one. A table that keeps only "
                 f"values (no depth, no bound type), used by iterative deepening on {tm['n']} incremental "
                 f"trees: wrong root value in {tm['wrong']['value-only']}/{tm['n']} searches; the table "
                 f"that stores depth and bound type: {tm['wrong']['right']}/{tm['n']}.")
    return "\n\n".join(parts)


COMMAND = "searchlab experiment=ordering_checks (run by analysis/reproduce.py; searchlab.studies.ordering.ordering_checks_study)"
COST_COMMAND = "searchlab.studies.ordering.ordering_costs.study() (run by analysis/reproduce.py)"


def measurements(ctx):
    return (ctx.exact or {}).get("ordering")


def not_measured():
    return Verdict("no data", "the ordering measurements were not run",
                   "not measured", "see the claim", COMMAND)


def _ratio(agg, a, b="natural"):
    return agg[a]["nodes"] / agg[b]["nodes"]


def _domains(d):
    """(label, aggregate) for every domain with dynamic policies."""
    out = [(f"incremental corr {c}", agg) for c, agg in d["tree"]["by_corr"].items()]
    out += [("Connect Four", d["connect4"]["agg"]), ("Othello", d["othello"]["agg"])]
    return out


def _id_by_nodes(ctx):
    """000-k by node counts alone (without the cost study)."""
    d = measurements(ctx)
    if d is None:
        return not_measured()
    pays, best = [], []
    singles = ("static", "killer", "history", "centre", "corners", "id")
    for label, agg in _domains(d):
        pid = "id" if "id" in agg else "id+tt"
        pays.append((label, _ratio(agg, pid)))
        cands = {p: agg[p]["nodes"] for p in singles if p in agg}
        cands[pid] = agg[pid]["nodes"]
        best.append((label, min(cands, key=cands.get)))
    all_pay = all(r < 1 for _, r in pays)
    id_best = [lab for lab, p in best if p.startswith("id")]
    measured = ("iterative deepening's total nodes (all iterations) / natural order's single search: "
                + ", ".join(f"{lab}: {r:.2f}" for lab, r in pays)
                + "; the best single technique per domain: " + ", ".join(f"{lab}: {p}" for lab, p in best))
    if all_pay and len(id_best) == len(best):
        cat, det = "holds", "ID pays for itself and is the best single technique everywhere measured"
    elif all_pay:
        cat = "holds only under conditions"
        det = (f"ID more than pays for itself in every domain (ratio < 1), but it is the best single "
               f"technique only in {len(id_best)}/{len(best)} domains: a good static evaluation "
               "ordering (or killer/history) beats it where one exists")
    else:
        cat, det = "does not hold", "ID costs more than it saves in some domain"
    return Verdict(cat, det, measured, "ID total < plain search; ID best of the single techniques",
                   COMMAND)


def iterative_deepening_pays(ctx):
    """000-k/001-h/003-h: iterative deepening's best move first is the most effective ordering;
    its repeated shallow work more than pays. Judged by *cost* (nodes + ordering evaluations) on
    the cost study's domains (studies/ordering/ordering_costs.py: incremental trees, Connect Four and Othello
    positions, named in the domain labels), and by nodes on the games of the deep studies
    (paired at depth, searchlab.studies.ordering.deep_ordering_verdicts) where the run has them."""
    costs = (ctx.exact or {}).get("costs")
    if not costs:
        return _id_by_nodes(ctx)
    doms = list(dict.fromkeys(c.domain for c in costs))
    ids = [next(c for c in costs if c.domain == dom and c.policy == "id") for dom in doms]
    p_adj = holm([c.p_raw for c in ids])          # the verdict rests on one test per domain
    pays, best, kinds, flips = [], [], [], []
    for dom, idc, p in zip(doms, ids, p_adj):
        kind = classify(idc.cost_ratio.low, idc.cost_ratio.high, 1.0, direction=-1)
        if kind in ("shown", "contradicted") and p > 0.05:
            kind = "not shown at this power"
        kinds.append(kind)
        pays.append(f"{dom}: id cost / natural {fmt_ci(idc.cost_ratio)} (paired t-test on log ratio, Holm over "
                    f"{len(ids)} domains: p = {p:.2g}; {kind})")
        singles = [c for c in costs if c.domain == dom and ("+" not in c.policy) and c.policy != "perfect"]
        b1 = min(singles, key=lambda c: c.means["cost"])
        by_nodes = min(singles, key=lambda c: c.means["nodes"])
        ball = best_by_cost(costs, dom)
        best.append((dom, b1.policy, ball.policy))
        if by_nodes.policy != b1.policy:
            flips.append(f"{dom}: {by_nodes.policy} by nodes, {b1.policy} by cost")
    measured = ("; ".join(pays) + ". Cheapest single technique by cost: "
                + ", ".join(f"{d}: {p}" for d, p, _ in best)
                + "; cheapest policy overall: " + ", ".join(f"{d}: {p}" for d, _, p in best)
                + f" ({COST_DEFINITION})")
    games = ""
    d = (ctx.exact or {}).get("ordering")
    deep = OD.data(ctx)
    if deep is not None:
        gkinds, gtext = OD.family_summary(deep, "iterative deepening")
        kinds += gkinds
        cheap = OD.cheapest_single(deep)
        best += [(f"{s} d = {dd}", p, p) for s, p, dd in cheap]
        games = (f". Games ({OD.datasets(deep)}): {gtext}; cheapest single technique by nodes (static's per-child "
                 "evaluations not counted): " + ", ".join(f"{s}: {p} (d = {dd})" for s, p, dd in cheap))
    elif d is not None and all(dom.startswith("incremental") for dom in doms):
        c4, ot = d["connect4"]["agg"], d["othello"]["agg"]
        games = (f". Games (nodes only; their cost accounting waits for the compiled engine): id / natural nodes "
                 f"Connect Four {c4['id']['nodes'] / c4['natural']['nodes']:.2f}, Othello id+tt / natural "
                 f"{ot['id+tt']['nodes'] / ot['natural']['nodes']:.2f}")
    id_best = [dd for dd, p, _ in best if p.startswith("id")]
    all_pay = all(k == "shown" for k in kinds)
    if all_pay and len(id_best) == len(best):
        cat, det = "holds", "ID pays for itself and is the cheapest single technique in every domain"
    elif all_pay or any(k == "shown" for k in kinds):
        cat = "holds only under conditions"
        det = (f"ID costs significantly less than its counterpart without ID in {kinds.count('shown')}/{len(kinds)} "
               f"comparisons ({len(ids)} cost-study domains by cost"
               + (", the deep game studies by nodes" if deep is not None else "")
               + f") and is the cheapest single technique in {len(id_best)}/{len(best)} domains"
               + (f" ({', '.join(id_best)})" if id_best else "")
               + (f"; counting its evaluations changes the cheapest single technique ({'; '.join(flips)})"
                  if flips else ""))
    elif any(k == "contradicted" for k in kinds):
        cat, det = "does not hold", "ID costs more than natural order in some domain"
    else:
        cat, det = "not shown at this power", ("no domain's cost ratio is significant after Holm's correction "
                                              f"(n = {ids[0].n} trees per domain)")
    command = COST_COMMAND + ("; " + OD.COMMAND if deep is not None else "")
    return Verdict(cat, det, measured + games, "ID total cost < natural; ID cheapest single technique", command)


def _incremental_text(d, rows) -> str:
    """The incremental-tree rows of 000-l: killer / natural and history / natural, with the
    paired 95 % bootstrap CI over the trees where the run has it (``tree.ratio_ci``)."""
    cis = d["tree"].get("ratio_ci") or {}

    def one(lab: str, pol: str, r: float) -> str:
        e = cis.get(float(lab.rsplit(" ", 1)[1]), {}).get(pol)
        return f"{r:.2f}" if e is None else interval(e.value, e.low, e.high)
    return (f"incremental trees (nodes / natural, killer / history; paired 95 % bootstrap CI over "
            f"n = {d['tree']['n']} trees where shown): "
            + ", ".join(f"{lab}: {one(lab, 'killer', k)} / {one(lab, 'history', h)}"
                        for lab, k, h in rows if lab.startswith("incremental")))


def killer_and_history(ctx):
    d = measurements(ctx)
    if d is None:
        return not_measured()
    deep = OD.data(ctx)
    doms = _domains(d) if deep is None else [(lab, agg) for lab, agg in _domains(d) if lab.startswith("incremental")]
    rows = [(lab, _ratio(agg, "killer"), _ratio(agg, "history") if "history" in agg else math.nan)
            for lab, agg in doms]
    measured = "nodes relative to natural order, killer / history: " + ", ".join(
        f"{lab}: {k:.2f} / {'n/a' if math.isnan(h) else f'{h:.2f}'}" for lab, k, h in rows)
    # "improve" = at least 5 % fewer nodes: a ratio of 0.998 is no improvement worth the name;
    # where the run has the paired CIs, their upper ends below 1 as well
    cis = d["tree"].get("ratio_ci") or {}

    def _ci_below(lab: str) -> bool:
        if not lab.startswith("incremental"):
            return True
        e = cis.get(float(lab.rsplit(" ", 1)[1]), {})
        return all(e[p].high < 1 for p in ("killer", "history") if p in e)
    better = [lab for lab, k, h in rows if k < 0.95 and (math.isnan(h) or h < 0.95) and _ci_below(lab)]
    tree = d["tree"]["by_corr"]
    gain0 = 1 - _ratio(tree[0.0], "killer")
    gain1 = 1 - _ratio(tree[1.0], "killer")
    command = COMMAND
    if deep is not None:                    # the games: paired ratios at depth (deep studies)
        comps = OD.comparisons(deep, "killer and history")
        for s in deep["settings"]:
            mine = [c for c in comps if c.setting == s]
            rows.append((s, math.nan, math.nan))
            if mine and all(c.kind == "shown" for c in mine):
                better.append(s)
        measured = (_incremental_text(d, rows) + f"; games ({OD.datasets(deep)}): {OD.measured(comps)}")
        command = COMMAND + "; " + OD.COMMAND
    chess = COS.killer_history_comparison(ctx)
    if chess is not None:                   # chess as engines order it, paired per position
        rows.append(("chess (staged order)", math.nan, math.nan))
        if chess.high < 1 and chess.ratio <= 0.95:
            better.append("chess (staged order)")
        measured += "; chess: " + COS.comparison_text(chess)
        command += "; " + COS.COMMAND
    if len(better) == len(rows):
        cat = "holds"
        det = (f"both improve on natural order everywhere measured; on incremental trees the killer "
               f"gain grows with sibling correlation ({gain0:.0%} at 0 → {gain1:.0%} at 1)")
    else:
        cat = "holds only under conditions"
        none = [lab for lab, _, _ in rows if lab not in better]
        why = (": a move that was good in one subtree says nothing about its siblings there"
               if all(lab == "incremental corr 0.0" for lab in none) else "")
        det = (f"improve (>= 5 % fewer nodes; in games: every paired comparison shown) in {len(better)}/{len(rows)} "
               f"domains ({', '.join(better)}); not in {', '.join(none)}{why}")
    return Verdict(cat, det, measured, "fewer nodes than natural order", command)


def transposition_tables(ctx):
    d = measurements(ctx)
    if d is None:
        return not_measured()
    ttt, tm, c4 = d["tictactoe"], d["tt_mistake"], d["connect4"]["agg"]
    saving = 1 - ttt["tt"] / ttt["natural"]
    measured = (f"tic-tac-toe whole game: {ttt['natural']:,} → {ttt['tt']:,} nodes with a table "
                f"({saving:.0%} saved); Connect Four depth {d['connect4']['depth']}: tt / natural "
                f"{_ratio(c4, 'tt'):.2f}, id+tt / id {c4['id+tt']['nodes'] / c4['id']['nodes']:.2f}; "
                f"value-only table: wrong root value in {tm['wrong']['value-only']}/{tm['n']} ID "
                f"searches, depth-and-bound table {tm['wrong']['right']}/{tm['n']}")
    ok = saving > 0.5 and tm["wrong"]["right"] == 0 and tm["wrong"]["value-only"] > 0
    deep = OD.data(ctx)
    if deep is not None:                    # the games at depth replace the shallow Connect Four figure
        kinds, text = OD.family_summary(deep, "transposition table")
        measured = (f"tic-tac-toe whole game: {ttt['natural']:,} → {ttt['tt']:,} nodes with a table "
                    f"({saving:.0%} saved); games ({OD.datasets(deep)}): {text}; value-only table: wrong root "
                    f"value in {tm['wrong']['value-only']}/{tm['n']} ID searches, depth-and-bound table "
                    f"{tm['wrong']['right']}/{tm['n']}")
        games_ok = bool(kinds) and all(k == "shown" for k in kinds)
        not_shown = [f"{c.setting} ({c.policy} / {c.baseline}: {c.kind})"
                     for c in OD.comparisons(deep, "transposition table") if c.kind != "shown"]
        cat = "holds" if ok and games_ok else "holds only under conditions"
        det = ("large savings where positions transpose (every game comparison shown); a value-only table "
               "gives wrong answers, one with depth and bound type none" if cat == "holds" else
               ("the table saves nodes in every game" if not not_shown else
                "the table saves nodes in the games except " + ", ".join(not_shown))
               + ("" if ok else "; see the tic-tac-toe and value-only figures"))
        return Verdict(cat, det, measured, "large savings; depth and bound type needed for correctness",
                       COMMAND + "; " + OD.COMMAND)
    return Verdict("holds" if ok else "holds only under conditions",
                   "large savings where positions transpose; a value-only table gives wrong answers, "
                   "one with depth and bound type none" if ok else
                   "see the measured figures", measured,
                   "large savings; depth and bound type needed for correctness", COMMAND)


def captures_and_aspiration(ctx):
    d = measurements(ctx)
    if d is None:
        return not_measured()
    ch = d["chess"]["agg"]
    asp = d["tree"]["aspiration"]
    cap = _ratio(ch, "captures")
    deltas = [k for k in asp if k != "none"]
    more_cuts = all(asp[k]["cutoffs"] > asp["none"]["cutoffs"] for k in deltas)
    fewer_nodes = all(asp[k]["nodes"] < asp["none"]["nodes"] for k in deltas)
    measured = (f"chess (WAC 1–{d['chess']['n']}, depth {d['chess']['depth']}): captures-first nodes / natural = {cap:.2f}, "
                f"fail-high-first {ch['captures']['fhf']:.2f} vs {ch['natural']['fhf']:.2f}; aspiration "
                "windows on id+tt (incremental trees): " + ", ".join(
                    f"half-width {k}: {asp[k]['cutoffs']:.0f} cutoffs, {asp[k]['nodes']:.0f} nodes"
                    for k in asp))
    per_width = "; ".join(
        f"half-width {k}: cutoffs {asp[k]['cutoffs'] - asp['none']['cutoffs']:+.0f}, "
        f"nodes {asp[k]['nodes'] / asp['none']['nodes'] - 1:+.0%}" for k in deltas)
    if cap < 1 and more_cuts and fewer_nodes:
        cat, det = "holds", "captures first and aspiration windows both cut more and search less"
    else:
        cat = "holds only under conditions" if cap < 1 else "does not hold"
        det = (f"captures first {'saves' if cap < 1 else 'does not save'} nodes ({cap:.2f}× natural); "
               f"aspiration windows against no window: {per_width}")
    return Verdict(cat, det, measured, "fewer nodes, more cutoffs", COMMAND)


def game_specific_order(ctx):
    deep = OD.data(ctx)
    if deep is not None:
        return OD.game_order_verdict(deep)
    d = measurements(ctx)
    if d is None:
        return not_measured()
    c4, ot = d["connect4"]["agg"], d["othello"]["agg"]
    rc, ro = _ratio(c4, "centre"), _ratio(ot, "corners")
    measured = (f"Connect Four (depth {d['connect4']['depth']}, n={d['connect4']['n']}): centre-first "
                f"nodes / natural = {rc:.2f}; Othello (depth {d['othello']['depth']}, "
                f"n={d['othello']['n']}): corners-first / natural = {ro:.2f}; the better the first "
                f"move, the fewer nodes: perfect / natural = {_ratio(c4, 'perfect'):.2f} (Connect Four), "
                f"{_ratio(ot, 'perfect'):.2f} (Othello); Hex is not implemented")
    ok = rc < 1 and ro < 1
    return Verdict("holds" if ok else "holds only under conditions",
                   "centre first and corners first both cut more (Hex not measured)" if ok else
                   "see the measured figures", measured, "fewer nodes than natural order", COMMAND)


def chess_near_minimal_tree(ctx):
    d = measurements(ctx)
    if d is None:
        return not_measured()
    c = d["chess"]
    best = min(c["agg"], key=lambda p: c["agg"][p]["leaves"])
    leaves = c["agg"][best]["leaves"]
    # the minimal tree at the positions' mean branching factor (non-integer b: the same formula)
    km = c["b_bar"] ** math.ceil(c["depth"] / 2) + c["b_bar"] ** (c["depth"] // 2) - 1
    full = c["b_bar"] ** c["depth"]
    ratio = leaves / km
    measured = (f"chess, WAC 1–{c['n']} (the first {c['n']} positions of wac.epd), depth {c['depth']} "
                f"(mean branching b̄ = {c['b_bar']:.1f}): best policy {best}: {leaves:,.0f} leaves = "
                f"{ratio:.2f}× b̄^⌈d/2⌉+b̄^⌊d/2⌋−1 = {km:,.0f} (b̄^d = {full:,.0f})")
    cat = "holds only under conditions"
    det = (f"{ratio:.2f}× the minimal tree of a *uniform* tree with the positions' mean branching factor, at "
           f"depth {c['depth']} on {c['n']} positions: that reference is not the positions' own minimal tree "
           f"(branching varies by node), and depth {c['depth']} in a Python engine is not what 'chess programs' search; "
           "the claim about chess programs waits for the compiled engine's deeper searches")
    return Verdict(cat, det, measured, "close to b^(d/2) (Knuth–Moore's minimal tree)", COMMAND)
