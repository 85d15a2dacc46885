"""Claim 000-q (with three or more players the pruning argument breaks down), measured.

``multiplayer_checks(size)`` runs searchlab.analysis.multiplayer_study: leaves versus depth of
max^n, shallow pruning, paranoid (natural and perfect order) and best-reply search on
synthetic 3- and 4-player trees, and Rolit matches between max^n, paranoid and BRS at equal
node budgets, in this process; the preset ``searchlab experiment=multiplayer`` runs the same
steps on the engine and gets the same values from its tables (report/claimstudy.py), which is
how ``analysis/reproduce.py`` fills ``exact["multiplayer"]``.
"""

from __future__ import annotations

from typing import Any

from searchlab.analysis import multiplayer_study as MS
from searchlab.analysis.format import number
from searchlab.analysis.steps import run_steps
from searchlab.analysis.tables import md_table
from searchlab.claims.verdict import Context, Verdict, exact_missing, run_standalone

COMMAND = "searchlab experiment=multiplayer (run by analysis/reproduce.py; in-process: searchlab.claims.multiplayer.multiplayer_checks())"


SIZES = MS.SIZES


def multiplayer_checks(size: str = "full", seed: int = 15) -> dict[str, Any]:
    """The n-player measurements at ``size`` "full" (minutes), "small" (about a minute) or
    "tiny" (the tests'): the steps of multiplayer_study.plan in this process, summarised from
    their tables (the preset ``searchlab experiment=multiplayer`` runs the same steps on the
    engine)."""
    return MS.summarise(run_steps(MS.plan(size, seed), MS.KINDS), size, seed)


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
                f"{line('paranoid')}; paranoid perfect order {line('paranoid-perfect')} (its leaves equal "
                f"b^⌈d/n⌉ + b^(d−⌈d/n⌉) − 1 exactly, tests); BRS {line('brs')}. Rolit, 3 players, "
                f"{c['match']['openings']} openings × 6 seatings, {c['match']['budget']} nodes per move: {match}; "
                f"smallest difference in win share this design detects (80 % power, 5 %): "
                f"{number(c['match']['min_detectable'])}")
    ranked = summ.sort_values("win_share", ascending=False)
    top, low = ranked.iloc[0], ranked.iloc[-1]
    separated = top.lo > low.hi and c["match"]["openings"] > 1     # one opening: no CI at all
    play = (f"in Rolit at an equal node budget {top.algorithm} wins the largest share "
            f"({number(top.win_share)}) and {low.algorithm} the smallest ({number(low.win_share)}); "
            + ("their 95 % CIs do not overlap" if separated else
               "their 95 % CIs overlap, so the match does not separate them at this size"))
    shallow_gain = float((1.0 - shallow["alpha"]).max()) if len(shallow) else float("nan")
    paranoid_ok = bool((perfect["alpha"] > 0.5).all()) if len(perfect) else False
    cat = "holds only under conditions" if shallow_gain < 0.05 and paranoid_ok else "does not hold"
    detail = (f"for max^n the argument does break down: shallow pruning (Korf's conditions) lowers the exponent by "
              f"at most {number(shallow_gain)}, deep pruning is unsound; paranoid search restores alpha-beta by "
              "reducing the game to two players (the others as one coalition) but only to b^(d(n−1)/n) in the "
              "best case, weaker than two players' b^(d/2), at the price of a pessimistic model of the opponents; "
              "BRS prunes too, on its own tree (its MIN plies offer (n−1)·b moves, so its α against log b can "
              f"exceed 1); {play}")
    return Verdict(cat, detail, measured, "max^n: b^d (shallow pruning gains nothing asymptotically); paranoid best "
                   "case b^(d(n−1)/n)", COMMAND)


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
        f"Rolit, 3 players, every seating of max^n (shallow pruning), paranoid and BRS from "
        f"{c['match']['openings']} random openings, {c['match']['budget']} nodes per move (iterative deepening): "
        f"win share (ties split) with 95 % bootstrap CIs over openings; detectable difference "
        f"{number(c['match']['min_detectable'])}:",
        md_table(["algorithm", "games", "openings", "win share", "CI", "mean discs", "mean depth"], mrows),
    ])


#: the verdicts this family's measurements decide
VERDICTS = (pruning_with_many_players,)


def exact_entries(multiplayer: dict[str, Any]) -> dict[str, Any]:
    """The ``exact`` entries VERDICTS read."""
    return {"multiplayer": multiplayer}


def main(argv: list[str] | None = None) -> None:
    """``python -m searchlab.claims.multiplayer [--size full|small|tiny]``: run the measurements and
    print the verdicts and the report section."""
    run_standalone(argv, main.__doc__, SIZES, lambda size: exact_entries(multiplayer_checks(size)), VERDICTS,
                   lambda exact: multiplayer_section(exact["multiplayer"]))


if __name__ == "__main__":
    main()
