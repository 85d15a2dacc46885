"""Claims about chance nodes (003-i, 003-c's chance half, 003-j), measured by the engine.

``chance_checks(size)`` runs the studies of searchlab.studies.chance.chance_study (growth of
expectiminimax / alpha-beta / Star1 / Star2 over b, n and the tightness of [L, U]; the
relabelling experiment; the Ludo example; Pig through the engine) in this process and returns
plain values; the preset ``searchlab experiment=chance`` runs the same steps on the engine and
gets the same values from its tables (studies/claim_study/claim_study_report.py), which is how
``analysis/reproduce.py`` fills ``exact["chance"]``. The verdict functions read them.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from searchlab.studies.chance import chance_study as CS
from searchlab.analysis.format import number, percent
from searchlab.studies.claim_study.claim_steps import run_steps
from searchlab.analysis.markdown_tables import md_table
from searchlab.studies.claims import exact_trees
from searchlab.studies.claims.verdict import Context, Verdict, exact_missing, run_standalone

COMMAND = "searchlab experiment=chance (run by analysis/reproduce.py; in-process: searchlab.studies.chance.chance_verdicts.chance_checks())"


SIZES = CS.SIZES


def chance_checks(size: str = "full", seed: int = 15) -> dict[str, Any]:
    """The chance-node measurements at ``size`` "full" (a few minutes), "small" (seconds) or
    "tiny" (the tests'): the steps of chance_study.chance_steps in this process, summarised from their
    tables (the preset ``searchlab experiment=chance`` runs the same steps on the engine)."""
    return CS.summarise(run_steps(CS.chance_steps(size, seed), CS.KINDS), size, seed)


def _missing(ctx: Context) -> Verdict | None:
    if (m := exact_missing(ctx)):
        return m
    if "chance" not in ctx.exact:
        return Verdict("no data", "the chance-node measurements were not run", "not measured", "see the claim",
                       COMMAND)
    return None


#: an exponent whose CI lies above this is "weak" pruning (deterministic alpha-beta reaches
#: 3/4 under random order, 1/2 under perfect order)
WEAK_ALPHA = 0.75


def ordering_evidence(c: dict[str, Any]) -> dict[str, Any]:
    """The ordering study's reading for 003-i. Per ordering (on the synthetic trees): the
    lowest Star1/Star2 node exponent over (b, n) with its CI, the trees per point, and its
    status: "weak" (CI above WEAK_ALPHA), "strong" (CI below it), "not shown" (CI across it, or
    fewer than chance_study.MIN_UNITS trees). Also Pig's node ratios at each depth, each with
    its n and "not shown" below MIN_UNITS positions, and whether every search returned
    expectiminimax's value."""
    fits, ratios = c["order_growth"], c["orders"]
    star = fits[fits["algorithm"].isin(CS.STAR)]
    per = {}
    for o, g in star.groupby("ordering", sort=False):
        r = g.sort_values("alpha").iloc[0]
        n = int(g["instances"].min())
        if n < CS.MIN_UNITS or not (r.alpha_lo == r.alpha_lo and r.alpha_hi == r.alpha_hi):
            status = "not shown"
        elif r.alpha_lo > WEAK_ALPHA:
            status = "weak"
        elif r.alpha_hi < WEAK_ALPHA:
            status = "strong"
        else:
            status = "not shown"
        per[o] = dict(alpha=float(r.alpha), lo=float(r.alpha_lo), hi=float(r.alpha_hi), b=int(r.b), n=int(r.n),
                      algorithm=r.algorithm, trees=n, d=f"{int(r.d_min)}..{int(r.d_max)}", status=status)
    pig = ratios[ratios["domain"] == "pig"]
    pig_rows = [dict(d=int(r.d), ordering=r.ordering, algorithm=r.algorithm, units=int(r.units),
                     ratio=float(r.nodes_ratio), lo=float(r.nodes_lo), hi=float(r.nodes_hi),
                     shown=int(r.units) >= CS.MIN_UNITS) for r in pig.itertuples()]
    return dict(per=per, pig=pig_rows, same=(int(ratios["same_value"].sum()), int(ratios["units"].sum())))


def _ordering_measured(ev: dict[str, Any]) -> str:
    parts = []
    for o, e in ev["per"].items():
        parts.append(f"{o}: lowest α {number(e['alpha'])} [{number(e['lo'])}, {number(e['hi'])}] "
                     f"({e['algorithm']}, b={e['b']}, n={e['n']}, d = {e['d']}, {e['trees']} trees per d)"
                     + ("" if e["status"] != "not shown" else
                        f", not shown ({'CI across ' + number(WEAK_ALPHA) if e['trees'] >= CS.MIN_UNITS else 'n < ' + str(CS.MIN_UNITS)})"))
    pig = []
    for r in ev["pig"]:
        ci = f"[{number(r['lo'])}, {number(r['hi'])}]" if r["shown"] else f"(n < {CS.MIN_UNITS}: not shown)"
        pig.append(f"d={r['d']} {r['ordering']} {r['algorithm']} {number(r['ratio'])} {ci}")
    n_pig = ev["pig"][0]["units"] if ev["pig"] else 0
    return ("; under each move ordering (synthetic trees, node exponents, 95 % bootstrap CI over trees): "
            + "; ".join(parts)
            + f"; Pig ({n_pig} positions sampled from the study seed, winscore 20), nodes over "
            "expectiminimax's nodes, ratio of means with a 95 % paired bootstrap CI over positions: "
            + ", ".join(pig)
            + f"; {ev['same'][0]}/{ev['same'][1]} Star searches returned expectiminimax's value exactly")


def expectiminimax_cost_and_weak_pruning(ctx: Context) -> Verdict:
    """003-i: expectiminimax O(b^m n^m); alpha-beta prunes only weakly at chance nodes."""
    if (m := _missing(ctx)):
        return m
    c = ctx.exact["chance"]
    g = c["growth"]
    emm = g[g["algorithm"] == "expectiminimax"]
    exact_full = bool(((emm["alpha"] - 1.0).abs() < 1e-9).all())
    ab = g[g["algorithm"] == "alphabeta-emm"]
    no_gain = bool(((ab["alpha"] - 1.0).abs() < 1e-9).all())
    star = g[g["algorithm"].isin(["star1", "star2"])]
    lines = [f"{r.algorithm} b={r.b}, n={r.n}, spread {number(r.spread)}: α={number(r.alpha)} "
             f"[{number(r.alpha_lo)}, {number(r.alpha_hi)}]" for r in star.itertuples()]
    lo, hi = float(star["alpha"].min()), float(star["alpha"].max())
    measured = (f"leaves per decision ply fitted over d = {int(g['d_min'].min())}..{int(g['d_max'].max())}, "
                f"{c['instances']} trees per point, as α = log(growth) / log(b·n), 95 % bootstrap CI: "
                f"expectiminimax α = 1 exactly at every (b, n) ({'yes' if exact_full else 'no'}: leaves = (b·n)^d); "
                f"alpha-beta at decision nodes only: α = 1 ({'no pruning at all' if no_gain else 'some pruning'}); "
                + "; ".join(lines) + " (compare 000-e / 000-f's measured exponents of deterministic alpha-beta)")
    ev = ordering_evidence(c)
    measured += _ordering_measured(ev)
    ok = exact_full and no_gain and lo > WEAK_ALPHA
    strong = [o for o, e in ev["per"].items() if e["status"] == "strong"]
    unshown = [o for o, e in ev["per"].items() if e["status"] == "not shown"]
    sound = ev["same"][0] == ev["same"][1]
    detail = (f"expectiminimax examines exactly (b·n)^m leaves; Star1/Star2 with bounds [L, U] reach α between "
              f"{number(lo)} and {number(hi)} in natural order: they cut, but the exponent stays close to the full "
              "tree's 1, far above deterministic alpha-beta's 1/2 to 3/4; plain alpha-beta, "
              "whose window cannot pass a chance node, cuts nothing when every move meets chance")
    if strong:
        e = {o: ev["per"][o] for o in strong}
        detail += ("; but under " + ", ".join(f"{o} ordering the exponent falls to {number(x['alpha'])} "
                                            f"[{number(x['lo'])}, {number(x['hi'])}]" for o, x in e.items())
                   + f", below {number(WEAK_ALPHA)}: pruning is weak only when the move ordering is not good")
    weak = [o for o, e in ev["per"].items() if e["status"] == "weak"]
    if weak:
        detail += ("; the exponent stays above " + number(WEAK_ALPHA) + " under every ordering measured ("
                   + ", ".join(f"{o}: lowest α {number(ev['per'][o]['alpha'])} [{number(ev['per'][o]['lo'])}, "
                               f"{number(ev['per'][o]['hi'])}]" for o in weak) + ")")
    if unshown:
        detail += "; under " + ", ".join(unshown) + " ordering not shown (see the measurements)"
    deep = [r for r in ev["pig"] if r["d"] == max(x["d"] for x in ev["pig"])] if ev["pig"] else []
    if deep and deep[0]["shown"]:
        # every depth measured, not the deepest alone: at a shallower depth Star2 under random
        # order can cost more than expectiminimax (CI above 1)
        for d in sorted({r["d"] for r in ev["pig"]}):
            at = [r for r in ev["pig"] if r["d"] == d]
            spans = []
            for alg in CS.STAR:
                rs = [r for r in at if r["algorithm"] == alg]
                if not rs:
                    continue
                lo_r = min(rs, key=lambda r: r["ratio"])
                hi_r = max(rs, key=lambda r: r["ratio"])
                spans.append(f"{alg} {number(lo_r['ratio'])} [{number(lo_r['lo'])}, {number(lo_r['hi'])}] "
                             f"({lo_r['ordering']}) to {number(hi_r['ratio'])} [{number(hi_r['lo'])}, "
                             f"{number(hi_r['hi'])}] ({hi_r['ordering']})")
            more = [f"{r['algorithm']} ({r['ordering']})" for r in at if r["lo"] > 1]
            detail += (f"; on {at[0]['units']} Pig positions at depth {d} they visit " + " and ".join(spans)
                       + " of expectiminimax's nodes over the orderings"
                       + (f" ({', '.join(more)}: more nodes than expectiminimax, the CI above 1)" if more else ""))
    elif deep:
        detail += f"; on Pig not shown ({deep[0]['units']} positions, fewer than {CS.MIN_UNITS})"
    detail += ". The EVAL-scale part is 003-c's measurement"
    if not (exact_full and sound):
        cat = "does not hold"
    elif ok and not strong:
        cat = "holds"
    else:
        cat = "holds only under conditions"
    if not sound:
        detail = (f"{ev['same'][1] - ev['same'][0]} Star searches returned a value other than expectiminimax's; "
                  + detail)
    return Verdict(cat, detail, measured, "O(b^m·n^m); pruning weak at chance nodes: α above deterministic "
                   "alpha-beta's 3/4 (random order) and 1/2 (perfect order)", COMMAND)


def relabelling_under_chance(ctx: Context) -> Verdict:
    """003-c: the minimax half from exact_trees, the chance half from the engine experiment."""
    if (m := _missing(ctx)):
        return m
    r = ctx.exact["relabel"]
    tab = ctx.exact["chance"]["relabel"]["table"]
    dy = ctx.exact["chance"]["relabel_dyadic"]["table"]

    def cell(t, alg, kind):
        row = t[(t["algorithm"] == alg) & (t["relabelling"] == kind)].iloc[0]
        return row, (f"{int(row.changed)}/{int(row.trials)} = {percent(row.share)} "
                     f"[{percent(row.lo)}, {percent(row.hi)}]")

    parts = []
    for name, t, probs in (("uniform n=2", tab, "½, ½"), ("n=2, p = (¾, ¼)", dy, "¾, ¼")):
        bg, s_bg = cell(t, "expectiminimax", "background map")
        _, s_inc = cell(t, "expectiminimax", "random increasing map")
        af, s_af = cell(t, "expectiminimax", "positive affine map")
        mm = t[t["algorithm"] == "minimax"]["changed"].sum()
        parts.append(f"chance trees b=3, d=2 ({name}), leaf values 1..4: expectiminimax's move changes under "
                     f"1→1, 2→20, 3→30, 4→400 in {s_bg}, under random increasing maps in {s_inc}, under "
                     f"positive affine maps in {s_af}; minimax on deterministic trees of the same values: "
                     f"{int(mm)} changes in {int(3 * bg.trials)} relabellings")
        if af.changed or mm or not bg.changed:
            return Verdict("does not hold", "a relabelling behaved against the claim", "; ".join(parts),
                           "minimax invariant; expectiminimax not", COMMAND)
    measured = (f"minimax: best moves unchanged in {r['same_moves']}/{r['trials']} random trees (b=3, d=3); "
                + "; ".join(parts) + " (95 % Clopper–Pearson CIs; a change = no move optimal both before and "
                "after; every sum exact)")
    return Verdict("holds", "measured by the engine over random chance trees: order-preserving maps change "
                   "expectiminimax's move in a few per cent of trees, positive affine maps never, minimax never",
                   measured, "minimax move invariant; expectiminimax move can change", COMMAND)


def ludo_example(ctx: Context) -> Verdict:
    """003-j: the Ludo example through the engine."""
    if (m := _missing(ctx)):
        return m
    lu = ctx.exact["chance"]["ludo"]
    vals = ", ".join(f"{a}: {number(v)}" for a, v in lu["values"].items())
    ok = lu["best"] == "safe" and lu["values"]["safe"] == 4.0 and abs(lu["values"]["race"] - 3.8) < 1e-12
    return Verdict("holds" if ok else "does not hold",
                   f"expectiminimax through the engine (searchlab.trees.chance_tree.ludo_example): best move "
                   f"{lu['best']}, value {number(lu['value'])} ({lu['nodes']} nodes, {lu['chance_nodes']} chance)",
                   vals, "safe 4.0, race 3.8: safe", "search_chance(ludo_example(), 'expectiminimax')")


def chance_section(c: dict[str, Any]) -> str:
    """The report's section on chance nodes: growth fits, the relabelling table, Pig."""
    g = c["growth"]
    rows = [[r.b, r.n, r.spread, r.algorithm, r.growth, f"[{number(r.lo)}, {number(r.hi)}]", r.alpha,
             f"[{number(r.alpha_lo)}, {number(r.alpha_hi)}]", f"{r.d_min}..{r.d_max}", r.instances]
            for r in g.sort_values(["b", "n", "spread", "algorithm"]).itertuples()]
    t = c["relabel"]["table"]
    rel = [[r.algorithm, r.relabelling, r.trials, r.changed, percent(r.share), f"[{percent(r.lo)}, {percent(r.hi)}]"]
           for r in t.itertuples()]
    pig = [[p["depth"], p["value"], p["expectiminimax"], p["star1"], p["star2"]] for p in c["pig"]]
    og = c["order_growth"]
    ogr = [[r.ordering, r.b, r.n, r.algorithm, r.growth, f"[{number(r.lo)}, {number(r.hi)}]", r.alpha,
            f"[{number(r.alpha_lo)}, {number(r.alpha_hi)}]", f"{r.d_min}..{r.d_max}", r.instances]
           for r in og.sort_values(["ordering", "b", "n", "algorithm"]).itertuples()]
    ra = c["orders"]
    trees = ra[ra["domain"] == "tree"]
    shown = pd.concat([trees[trees["d"] == trees.groupby(["b", "n"])["d"].transform("max")],
                       ra[ra["domain"] == "pig"]])

    def ci(r, count):
        lo, hi = getattr(r, f"{count}_lo"), getattr(r, f"{count}_hi")
        return "n/a" if lo != lo else f"[{number(lo)}, {number(hi)}]"

    rat = [["synthetic" if r.domain == "tree" else "Pig", r.b, r.n, r.d, r.ordering, r.algorithm, r.units,
            r.nodes_ratio, ci(r, "nodes"), r.leaves_ratio, ci(r, "leaves"), f"{r.same_value}/{r.units}"]
           for r in shown.sort_values(["domain", "b", "n", "d", "ordering", "algorithm"]).itertuples()]
    return "\n\n".join([
        "Synthetic chance trees (MAX, chance, MIN, chance; docs/chance-tree-spec.md), leaf values in [0, 1); "
        "search bounds centred on [0, 1] with width `spread`. Leaves per decision ply (growth) and α = "
        "log(growth) / log(b·n), 95 % bootstrap CIs over trees:",
        md_table(["b", "n", "spread", "algorithm", "growth", "CI", "α", "α CI", "d", "trees"], rows),
        "003-c over random chance trees (b=3, n=2, d=2, values 1..4):",
        md_table(["algorithm", "relabelling", "trees", "move changed", "share", "95 % CI"], rel),
        "Pig (winscore 20, static order, race-model evaluation): nodes per algorithm at equal depth "
        "(decision plies), the same value by construction:",
        md_table(["depth", "value", "expectiminimax", "star1", "star2"], pig),
        "Move ordering (003-i): Star1 and Star2 under natural order, a seeded random order, the static "
        "evaluation's order (Pig only: the synthetic trees have no static values) and perfect order (best "
        "first by the child's exact expectiminimax value, an uncounted oracle). On the synthetic trees natural "
        "order is itself random (i.i.d. leaves). Nodes per decision ply and α = log(growth) / log(b·n), 95 % "
        "bootstrap CIs over trees:",
        md_table(["ordering", "b", "n", "algorithm", "growth", "CI", "α", "α CI", "d", "trees"], ogr),
        "Nodes (and leaves) over expectiminimax's at the deepest synthetic depth and on the sampled Pig "
        "positions (winscore 20; positions drawn from the study seed): ratio of means with a 95 % paired "
        f"bootstrap CI over the trees or positions (units: how many; below {CS.MIN_UNITS} units a verdict does not "
        "use the CI); value = searches that returned expectiminimax's value exactly:",
        md_table(["domain", "b", "n", "d", "ordering", "algorithm", "units", "nodes ratio", "CI", "leaves ratio",
                  "CI", "value"], rat),
    ])


#: the verdicts this family's measurements decide
VERDICTS = (expectiminimax_cost_and_weak_pruning, relabelling_under_chance, ludo_example)


def exact_entries(chance: dict[str, Any]) -> dict[str, Any]:
    """The ``exact`` entries VERDICTS read: the measurements, and exact_trees' minimax control
    of the relabelling claim (seconds)."""
    return {"chance": chance, "relabel": exact_trees.exact_checks()["relabel"]}


def main(argv: list[str] | None = None) -> None:
    """``python -m searchlab.studies.chance.chance_verdicts [--size full|small|tiny]``: run the measurements and
    print the verdicts and the report section."""
    run_standalone(argv, main.__doc__, SIZES, lambda size: exact_entries(chance_checks(size)), VERDICTS,
                   lambda exact: chance_section(exact["chance"]))


if __name__ == "__main__":
    main()
