"""Claims about chance nodes (003-i, 003-c's chance half, 003-j), measured by the engine.

``chance_checks(size)`` runs the studies of searchlab.analysis.chance_study (growth of
expectiminimax / alpha-beta / Star1 / Star2 over b, n and the tightness of [L, U]; the
relabelling experiment; the Ludo example; Pig through the engine) in this process and returns
plain values; the preset ``searchlab experiment=chance`` runs the same steps on the engine and
gets the same values from its tables (report/claimstudy.py), which is how
``analysis/reproduce.py`` fills ``exact["chance"]``. The verdict functions read them.
"""

from __future__ import annotations

from typing import Any

from searchlab.analysis import chance_study as CS
from searchlab.analysis.format import number, percent
from searchlab.analysis.steps import run_steps
from searchlab.analysis.tables import md_table
from searchlab.claims import exact_trees
from searchlab.claims.verdict import Context, Verdict, exact_missing, run_standalone

COMMAND = "searchlab experiment=chance (run by analysis/reproduce.py; in-process: searchlab.claims.chance.chance_checks())"


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
    ok = exact_full and no_gain and lo > 0.75
    detail = (f"expectiminimax examines exactly (b·n)^m leaves; Star1/Star2 with bounds [L, U] reach α between "
              f"{number(lo)} and {number(hi)}: they cut, but the exponent stays close to the full tree's 1, "
              "far above deterministic alpha-beta's 1/2 to 3/4; plain alpha-beta, "
              "whose window cannot pass a chance node, cuts nothing when every move meets chance. The EVAL-scale "
              "part is 003-c's measurement")
    cat = "holds" if ok else ("holds only under conditions" if exact_full else "does not hold")
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
                   f"expectiminimax through the engine (searchlab.trees.chance.ludo_example): best move "
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
    ])


#: the verdicts this family's measurements decide
VERDICTS = (expectiminimax_cost_and_weak_pruning, relabelling_under_chance, ludo_example)


def exact_entries(chance: dict[str, Any]) -> dict[str, Any]:
    """The ``exact`` entries VERDICTS read: the measurements, and exact_trees' minimax control
    of the relabelling claim (seconds)."""
    return {"chance": chance, "relabel": exact_trees.exact_checks()["relabel"]}


def main(argv: list[str] | None = None) -> None:
    """``python -m searchlab.claims.chance [--size full|small|tiny]``: run the measurements and
    print the verdicts and the report section."""
    run_standalone(argv, main.__doc__, SIZES, lambda size: exact_entries(chance_checks(size)), VERDICTS,
                   lambda exact: chance_section(exact["chance"]))


if __name__ == "__main__":
    main()
