"""Claim 000-q (with three or more players the pruning argument breaks down), measured.

``multiplayer_checks(size)`` runs searchlab.studies.multiplayer.multiplayer_study: leaves versus depth of
max^n, shallow pruning, paranoid (natural and perfect order) and best-reply search on
synthetic 3- and 4-player trees, and Rolit matches between max^n, paranoid and BRS at equal
node budgets, and (with open-spiel) leaves versus depth on OpenSpiel's chinese_checkers as a
second domain, in this process; the preset ``searchlab experiment=multiplayer`` runs the same
steps on the engine and gets the same values from its tables (studies/claim_study/claim_study_report.py), which is
how ``analysis/reproduce.py`` fills ``exact["multiplayer"]``.
"""

from __future__ import annotations

from typing import Any

from searchlab.studies.multiplayer import multiplayer_study as MS
from searchlab.analysis.format import number
from searchlab.studies.claim_study.claim_steps import run_steps
from searchlab.analysis.markdown_tables import md_table
from searchlab.studies.claims.verdict import Context, Verdict, exact_missing, run_standalone

COMMAND = "searchlab experiment=multiplayer (run by analysis/reproduce.py; in-process: searchlab.studies.multiplayer.multiplayer_verdicts.multiplayer_checks())"


SIZES = MS.SIZES


def multiplayer_checks(size: str = "full", seed: int = 15) -> dict[str, Any]:
    """The n-player measurements at ``size`` "full" (minutes), "small" (about a minute) or
    "tiny" (the tests'): the steps of multiplayer_study.multiplayer_steps in this process, summarised from
    their tables (the preset ``searchlab experiment=multiplayer`` runs the same steps on the
    engine)."""
    return MS.summarise(run_steps(MS.multiplayer_steps(size, seed), MS.KINDS), size, seed)


def cc_measured(cc: dict[str, Any]) -> str:
    """The chinese_checkers domain in words: its data set, n, depths, fitted growth with CIs
    (or "not shown") and paranoid against its best case."""
    if not cc.get("measured"):
        return f"OpenSpiel chinese_checkers: {cc.get('reason', MS.CC_NOT_MEASURED)}"
    f, dep = cc["fits"], cc["depths"]
    fits = "; ".join(f"{r.algorithm} {number(r.growth)} [{number(r.lo)}, {number(r.hi)}] per ply "
                     f"(d {r.d_min}..{r.d_max}, α vs max^n {number(r.alpha)})" for r in f.itertuples())
    missing = "; ".join(f"{a}: not shown (every position reached only d <= {d}, fewer than "
                        f"{MS.CC_MIN_DEPTHS} depths)" for a, d in sorted(cc["not_shown"].items()))
    par = dep[dep["algorithm"].str.startswith("paranoid") & dep["bound"].notna() & (dep["d"] >= 2)]
    bound = "; ".join(f"{r.algorithm} d={r.d}: {number(r.leaves)} leaves = {number(r.ratio)} × the bound"
                      for r in par.itertuples())
    return (f"OpenSpiel chinese_checkers, {cc['players']} players, {cc['positions']} positions after "
            f"{cc['plies']} seeded random actions (mean {number(cc['branching'])} moves at the root), reference "
            f"engine, {cc['budget']:,} nodes per search: growth per ply with 95 % bootstrap CIs over positions: "
            f"{fits or 'none'}{'; ' + missing if missing else ''}; shallow pruning's cutoffs in all searches: "
            f"{cc['shallow_cutoffs']}; paranoid against its best case b^(d(n−1)/n) (b^d = max^n's leaves at that "
            f"position): {bound or 'no depth >= 2 that max^n completed at every position'}"
            + (". " + cc_hop_note(cc) if cc_hop_note(cc) else ""))


def cc_hop_note(cc: dict[str, Any]) -> str:
    """Why perfect-order paranoid's chinese_checkers counts can lie below the b1·b2 leaves any
    alpha-beta examines when the mover changes every ply (computed from the table's
    ``keeps_turn``; the mechanism is checked in tests/games/test_openspiel_chinese_checkers.py)."""
    dep = cc["depths"]
    pp = dep[(dep["algorithm"] == "paranoid-perfect") & (dep["d"] >= 2)]
    if pp.empty:
        return ""
    keep = ", ".join(f"d={r.d}: {number(r.keeps_turn)}" for r in pp.itertuples())
    return ("Perfect-order paranoid's counts here (down to "
            f"{number(pp['leaves'].min())} leaves at d={int(pp.loc[pp['leaves'].idxmin(), 'd'])} with about "
            f"{number(cc['branching'])} root moves) are a counting convention, not a defect: the floor of "
            "b1·b2 leaves (under the root's first move a MIN node with α = −∞ cannot cut, nor can its MIN "
            "children) assumes that move passes the turn. A hop is one OpenSpiel action and the chain continues "
            "with the same player, so when the best root move is a hop the first child is the root player's "
            "again, with only the chain's continuations (hop on or pass), and every other root move is refuted "
            f"by one leaf. The best root move kept the turn at this share of the positions: {keep}. The engine's "
            "count equals the minimal proof tree with the movers as played (an independent recursion in "
            "tests/games/test_openspiel_chinese_checkers.py); for the same reason perfect-order paranoid's "
            "fitted growth here is the hop chain's, not a best case of alternating play.")


def cc_contradicts(cc: dict[str, Any]) -> str | None:
    """Why the chinese_checkers measurements contradict 000-q's conditional verdict, or None:
    shallow pruning saving more than 5 % of max^n's leaves at a depth every position reached,
    or paranoid (natural order) growing at least as fast as max^n where both are fitted."""
    if not cc.get("measured"):
        return None
    dep = cc["depths"].set_index(["algorithm", "d"])["leaves"]
    for (alg, d), v in dep.items():
        if alg == "maxn-shallow" and ("maxn", d) in dep.index and v < 0.95 * dep[("maxn", d)]:
            return f"in chinese_checkers shallow pruning saves {number(1 - v / dep[('maxn', d)])} of max^n's leaves at d={d}"
    g = cc["fits"].set_index("algorithm")["growth"]
    if "maxn" in g and "paranoid" in g and g["paranoid"] >= g["maxn"]:
        return "in chinese_checkers paranoid's leaves grow as fast as max^n's"
    return None


def cc_agrees(cc: dict[str, Any]) -> str:
    """What the chinese_checkers checks of cc_contradicts found when they found nothing."""
    g = cc["fits"].set_index("algorithm")["growth"]
    fitted = ("paranoid's fitted growth per ply is below max^n's (point estimates; CIs in the measurements)"
              if "maxn" in g and "paranoid" in g
              else "their growth is not fitted (too few depths), so the comparison of growth is not shown")
    return (f"chinese_checkers does not contradict it: shallow pruning saves under 5 % of max^n's leaves at every "
            f"depth all {cc['positions']} positions reached, {fitted}")


def paranoid_best_line(pb) -> str:
    """Paranoid against its exact finite-depth best case b^⌈d/n⌉ + b^(d−⌈d/n⌉) − 1 (not the
    asymptote b^(d(n−1)/n)): perfect order's exact matches, natural order's ratio with its CI
    at the deepest d per (n, b)."""
    if pb is None or len(pb) == 0:
        return "paranoid against its exact best case: not measured"
    perf = pb[pb["algorithm"] == "paranoid-perfect"]
    nat = pb[pb["algorithm"] == "paranoid"]
    deep = nat.sort_values("d").groupby(["players", "b"]).tail(1).sort_values(["players", "b"])
    return (f"against paranoid's exact finite-depth best case b^⌈d/n⌉ + b^(d−⌈d/n⌉) − 1: perfect order equals it in "
            f"{int(perf['equal'].sum())}/{int(perf['trees'].sum())} searches (d ≥ 2); natural order's leaves / best "
            f"case at the deepest d (mean, 95 % bootstrap CI over trees): " + ", ".join(
                f"n={r.players}, b={r.b}, d={r.d}: {number(r.ratio)} [{number(r.lo)}, {number(r.hi)}] (n={r.trees})"
                for r in deep.itertuples()))


def pruning_with_many_players(ctx: Context) -> Verdict:
    """000-q: max^n cannot prune (shallow pruning's gain vanishes); paranoid's can, to a weaker
    exponent; the measured trade-off in play."""
    if (m := exact_missing(ctx)):
        return m
    if "multiplayer" not in ctx.exact:
        return Verdict("no data", "the n-player measurements were not run", "not measured", "see the claim", COMMAND)
    c = ctx.exact["multiplayer"]
    f = c["fits"]

    def line(alg):
        sub = f[f["algorithm"] == alg]
        return ", ".join(f"n={r.players}, b={r.b}: {number(r.alpha)} [{number(r.lo)}, {number(r.hi)}]"
                         for r in sub.itertuples())
    shallow = f[f["algorithm"] == "maxn-shallow"]
    perfect = f[f["algorithm"] == "paranoid-perfect"]
    summ = c["match"]["summary"]
    match = "; ".join(f"{r.algorithm}: win share {number(r.win_share)} [{number(r.lo)}, {number(r.hi)}], "
                      f"mean depth {number(r.depth)}" for r in summ.itertuples())
    measured = (f"α = log(leaves per ply) / log b, 95 % bootstrap CI over {c['instances']} trees per point: "
                f"max^n {line('maxn')}; max^n + shallow pruning {line('maxn-shallow')}; paranoid natural order "
                f"{line('paranoid')}; paranoid perfect order {line('paranoid-perfect')}; "
                f"{paranoid_best_line(c.get('paranoid_best'))}; BRS {line('brs')}. Rolit, 3 players, "
                f"{c['match']['openings']} openings × 6 seatings, {c['match']['budget']} nodes per move: {match}; "
                f"smallest difference in win share this design detects (80 % power, 5 %): "
                f"{number(c['match']['min_detectable'])}. Second domain: {cc_measured(c.get('cc') or {})}")
    ranked = summ.sort_values("win_share", ascending=False)
    top, low = ranked.iloc[0], ranked.iloc[-1]
    separated = top.lo > low.hi and c["match"]["openings"] > 1     # one opening: no CI at all
    play = (f"in Rolit at an equal node budget {top.algorithm} wins the largest share "
            f"({number(top.win_share)}) and {low.algorithm} the smallest ({number(low.win_share)}); "
            + ("their 95 % CIs do not overlap" if separated else
               "their 95 % CIs overlap, so the match does not separate them at this size"))
    shallow_gain = float((1.0 - shallow["alpha"]).max()) if len(shallow) else float("nan")
    pb = c.get("paranoid_best")
    perfect_exact = (pb is not None and len(pb) > 0 and
                     bool((pb.loc[pb["algorithm"] == "paranoid-perfect", "equal"]
                           == pb.loc[pb["algorithm"] == "paranoid-perfect", "trees"]).all()))
    paranoid_ok = bool((perfect["alpha"] > 0.5).all()) if len(perfect) else False
    against = cc_contradicts(c.get("cc") or {})
    cat = "holds only under conditions" if shallow_gain < 0.05 and paranoid_ok and against is None else "does not hold"
    detail = (f"for max^n the argument does break down: shallow pruning (Korf's conditions) lowers the exponent by "
              f"at most {number(shallow_gain)}, deep pruning is unsound; paranoid search restores alpha-beta by "
              "reducing the game to two players (the others as one coalition) but only to "
              + ("its exact best case b^⌈d/n⌉ + b^(d−⌈d/n⌉) − 1 (measured: perfect order attains it in every search), "
                 "growing as b^(d(n−1)/n)" if perfect_exact else "b^(d(n−1)/n) in the best case")
              + ", weaker than two players' b^(d/2), at the price of a pessimistic model of the opponents; "
              "BRS prunes too, on its own tree (its MIN plies offer (n−1)·b moves, so its α against log b can "
              f"exceed 1); {play}; " + (against or (
                  cc_agrees(c["cc"]) if (c.get("cc") or {}).get("measured")
                  else "chinese_checkers was not measured (open-spiel missing)")))
    return Verdict(cat, detail, measured, "max^n: b^d (shallow pruning gains nothing asymptotically); paranoid best "
                   "case b^⌈d/n⌉ + b^(d−⌈d/n⌉) − 1 at depth d (→ b^(d(n−1)/n))", COMMAND)


def multiplayer_section(c: dict[str, Any]) -> str:
    """The report's section on three or more players."""
    f = c["fits"]
    rows = [[r.players, r.b, r.algorithm, r.alpha, f"[{number(r.lo)}, {number(r.hi)}]", r.best_case,
             f"{r.d_min}..{r.d_max}", r.instances] for r in f.sort_values(["players", "b", "algorithm"]).itertuples()]
    s = c["match"]["summary"]
    mrows = [[r.algorithm, r.games, r.openings, r.win_share, f"[{number(r.lo)}, {number(r.hi)}]", r.discs, r.depth]
             for r in s.itertuples()]
    return "\n\n".join([
        "Synthetic n-player trees (docs/chance-tree-spec.md; constant-sum for max^n, i.i.d. continuous for "
        "paranoid and BRS): α = log(leaves per ply) / log b with 95 % bootstrap CIs; paranoid's best case is "
        "(n−1)/n:",
        md_table(["n", "b", "algorithm", "α", "CI", "(n−1)/n", "d", "trees"], rows),
        *_paranoid_best_table(c.get("paranoid_best")),
        f"Rolit, 3 players, every seating of max^n (shallow pruning), paranoid and BRS from "
        f"{c['match']['openings']} random openings, {c['match']['budget']} nodes per move (iterative deepening): "
        f"win share (ties split) with 95 % bootstrap CIs over openings; detectable difference "
        f"{number(c['match']['min_detectable'])}:",
        md_table(["algorithm", "games", "openings", "win share", "CI", "mean discs", "mean depth"], mrows),
        *cc_section(c.get("cc") or {}),
    ])


def _paranoid_best_table(pb) -> list[str]:
    if pb is None or len(pb) == 0:
        return []
    rows = [[r.players, r.b, r.d, r.algorithm, r.trees, r.leaves, f"{r.best:,}", r.ratio,
             f"[{number(r.lo)}, {number(r.hi)}]", f"{r.equal}/{r.trees}"]
            for r in pb.sort_values(["players", "b", "algorithm", "d"]).itertuples()]
    return ["Paranoid against its exact finite-depth best case b^⌈d/n⌉ + b^(d−⌈d/n⌉) − 1 "
            "(multiplayer_study.paranoid_best_leaves; the asymptote b^(d(n−1)/n) underestimates it at small d): "
            "mean leaves, leaves / best case with a 95 % bootstrap CI over the trees, and the trees that equal it:",
            md_table(["n", "b", "d", "algorithm", "trees", "mean leaves", "best case", "leaves / best", "CI",
                      "equal"], rows)]


def cc_section(cc: dict[str, Any]) -> list[str]:
    """The report's paragraphs and tables on chinese_checkers (or the line saying it was not
    measured)."""
    if not cc.get("measured"):
        return [f"OpenSpiel chinese_checkers (second domain): {cc.get('reason', MS.CC_NOT_MEASURED)}."]
    drows = [[r.algorithm, r.d, r.positions, r.leaves, r.nodes, r.cutoffs, r.keeps_turn,
              "" if r.bound != r.bound else r.bound, "" if r.ratio != r.ratio else r.ratio]
             for r in cc["depths"].itertuples()]
    frows = [[r.algorithm, r.growth, f"[{number(r.lo)}, {number(r.hi)}]", r.alpha, f"{r.d_min}..{r.d_max}",
              r.positions] for r in cc["fits"].itertuples()]
    frows += [[a, "not shown", f"reached d <= {d} at every position", "", "", cc["positions"]]
              for a, d in sorted(cc["not_shown"].items())]
    return [
        f"OpenSpiel chinese_checkers through the adapter (second domain; games/openspiel_chinese_checkers.py): "
        f"{cc['players']} players, {cc['positions']} positions after {cc['plies']} seeded random actions "
        f"(mean {number(cc['branching'])} moves at the root), plies = OpenSpiel actions (a hop chain is several "
        f"plies of one player), relative-progress evaluation (non-negative, constant sum: shallow pruning's "
        f"conditions hold for it and for the mapped returns, not for OpenSpiel's raw returns), reference engine, "
        f"each search as deep as {cc['budget']:,} nodes allow. Mean counts at the depths every position "
        f"completed; for paranoid, its best case b^(d(n−1)/n) with b^d = max^n's leaves at the position, and "
        f"leaves / bound (an asymptotic bound: at small d the minimal tree exceeds it; it assumes the mover "
        f"changes at every ply, which a hop chain breaks: when the best root move keeps the turn, the principal "
        f"variation stays with the root player and perfect-order paranoid examines far fewer leaves). Best-reply "
        f"search is not available (OpenSpiel states cannot change the player to move):",
        md_table(["algorithm", "d", "positions", "leaves", "nodes", "cutoffs", "root move keeps the turn",
                  "bound", "leaves / bound"], drows),
        f"Growth per ply (one line through log mean leaves, 95 % bootstrap CI over positions; α = log growth / "
        f"log max^n's growth; fitted only with >= {MS.CC_MIN_DEPTHS} depths at every position):",
        md_table(["algorithm", "growth", "CI", "α vs max^n", "d", "positions"], frows),
    ] + ([cc_hop_note(cc)] if cc_hop_note(cc) else [])


#: the verdicts this family's measurements decide
VERDICTS = (pruning_with_many_players,)


def exact_entries(multiplayer: dict[str, Any]) -> dict[str, Any]:
    """The ``exact`` entries VERDICTS read."""
    return {"multiplayer": multiplayer}


def main(argv: list[str] | None = None) -> None:
    """``python -m searchlab.studies.multiplayer.multiplayer_verdicts [--size full|small|tiny]``: run the measurements and
    print the verdicts and the report section."""
    run_standalone(argv, main.__doc__, SIZES, lambda size: exact_entries(multiplayer_checks(size)), VERDICTS,
                   lambda exact: multiplayer_section(exact["multiplayer"]))


if __name__ == "__main__":
    main()
