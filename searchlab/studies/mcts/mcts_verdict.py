"""The verdict on the second half of claim 000-p: "as b grows and the evaluation stays weak,
alpha-beta at equal effort loses to sampling-based search" (Go needed MCTS), from the summary
of studies/mcts/vs_alphabeta (``ctx.exact["mcts_vs_alphabeta"]``: its ``summarize`` frame).
The claims registry (studies/claims/registry.py) judges it as the entry "000-p (second half)";
analysis/reproduce.py's part mcts runs the study.

Reading: each pairing's verdict is the Holm-adjusted pentanomial one (studies/tradeoff/
matches.py), or, where the Elo CI is open-ended (a clean sweep: every game pair of one
outcome), the exact sign test's on game pairs with Holm over those pairings
(vs_alphabeta.sign_test_sweeps). Per budget line, the pairings ordered by b. The claim *holds
only under conditions* when some line has alpha-beta shown weaker at its largest b and not
shown weaker at its smallest; it *does not hold* at these sizes when alpha-beta is shown
stronger at the largest b of every line; else it is *not shown at this power*. The words state
the conditions (the budgets, the evaluation alpha-beta used, the rollouts MCTS used, the games),
n (game pairs per pairing), the CIs, the smallest Elo each pairing could detect (80 % power,
5 % level), the b at which a line's sign changes ("none in the range measured" when none does)
and that learned networks and strong evaluations are not tested. Without the study's summary
the verdict is "pending".
"""

from __future__ import annotations

import math

import pandas as pd

from searchlab.analysis.format import number
from searchlab.studies.claims.verdict import Context, Verdict
from searchlab.studies.mcts import vs_alphabeta as V

KEY = "mcts_vs_alphabeta"
#: what each side used (vs_alphabeta.players; the games' evaluate())
PLAYERS = ("alpha-beta: iterative deepening, transposition table kept across moves, killers, history, the "
           "game's own order, and at the horizon the game's static evaluation (Hex: the difference of the two "
           "sides' shortest connection distances; Connect Four: open windows and threats; Othello: mobility, "
           "corners, edge-stable discs and discs), hand-written and weak; MCTS: UCT (c = √2) with uniformly "
           "random rollouts to the end of the game and the solver, no evaluation")
NETWORKS = ("learned networks (the policy and value networks of modern Go programs) and strong evaluation "
            "functions are not tested: neither side learns, and alpha-beta's evaluation is the weak one above")
#: what equal nodes means for MCTS (docs/mcts.md, "What one node is")
MCTS_NODES = ("a node counts every ply of MCTS's rollouts, so at equal nodes its simulations per move are the "
              "budget divided by a random game's length, few at 10^3 nodes on the large boards; the equal-CPU-time "
              "budget does not have that handicap")
CLAIM = "MCTS overtakes alpha-beta as b grows when the evaluation is weak (note 000)"
COMMAND = ".venv/bin/python analysis/reproduce.py --part mcts"


def judged(s: pd.DataFrame) -> pd.DataFrame:
    """The summary with ``reading`` (each pairing's verdict as the claim reads it: the Holm-adjusted
    pentanomial verdict, or the sign test's where the Elo CI is open-ended) and ``by`` ("Elo" or
    "sign test", with ``won``/``lost`` pairs and ``p_holm_sign`` for the latter)."""
    s = s.copy()
    s["reading"], s["by"] = s["verdict"], "Elo"
    s["won"], s["lost"], s["p_holm_sign"] = math.nan, math.nan, math.nan
    if not {"p0", "p1", "p3", "p4"} <= set(s.columns):
        return s
    sweeps = V.sign_test_sweeps(s)
    for _, r in sweeps.iterrows():
        at = (s["domain"] == r["domain"]) & (s["budget_label"] == r["budget_label"])
        s.loc[at, ["reading", "by", "won", "lost", "p_holm_sign"]] = [r["sweep_verdict"], "sign test", r["won"],
                                                                     r["lost"], r["p_holm_sign"]]
    return s


def _pairing(r: pd.Series) -> str:
    n = f"n = {int(r['pairs'])} pairs"
    if r["by"] == "sign test":
        if int(r["won"]) + int(r["lost"]) == 0:                 # e.g. Hex 3x3: each side wins as first player
            return f"{r['domain']} (b {number(float(r['b']))}): {n}, every pair split 1-1, {r['reading']}"
        return (f"{r['domain']} (b {number(float(r['b']))}): Elo CI open-ended (A's score "
                f"{number(float(r['score']))}), {n}, sign test {int(r['won'])} pairs won to {int(r['lost'])} lost, "
                f"Holm p {number(float(r['p_holm_sign']))}, {r['reading']}")
    return (f"{r['domain']} (b {number(float(r['b']))}): Elo {number(float(r['elo']))} "
            f"[{number(float(r['elo_lo']))}, {number(float(r['elo_hi']))}], {n}, detects "
            f"±{number(float(r['min_elo']))}, {r['reading']}")


def sign_change_text(s: pd.DataFrame) -> str:
    """Where each budget line's Elo changes sign along b (vs_alphabeta.sign_changes), over Hex
    alone (one rule set as b grows) and over every domain."""
    out = []
    for what, sub in (("Hex alone", s[s["domain"].str.startswith("hex")]), ("every domain", s)):
        if sub.empty:
            continue
        ch = V.sign_changes(sub)
        lo, hi = number(float(sub["b"].min())), number(float(sub["b"].max()))
        out.append(f"{what} (b {lo} to {hi}): " + ("; ".join(
            f"{c['budget']} between b {number(float(c['b_low']))} ({c['from_domain']}) and "
            f"{number(float(c['b_high']))} ({c['to_domain']}), Elo {number(float(c['elo_low_b']))} to "
            f"{number(float(c['elo_high_b']))} (alpha-beta "
            f"{'falls behind' if c['elo_high_b'] < 0 else 'draws ahead'} as b grows"
            f"{'' if V.family_of(c['from_domain']) == V.family_of(c['to_domain']) else '; across games'}), "
            f"{'both CIs exclude 0' if c['shown'] else 'not shown: a CI contains 0'}" for c in ch)
            or "none in the range measured"))
    return "the b at which the sign changes: " + "; ".join(out)


def _conditions(s: pd.DataFrame) -> str:
    games = ", ".join(f"{d} (b {number(float(b))})" for d, b in
                      s.groupby("domain")["b"].first().sort_values().items())
    pairs = s["pairs"].astype(int)
    n = f"{pairs.min()}" if pairs.min() == pairs.max() else f"{pairs.min()} to {pairs.max()}"
    budgets = ", ".join(dict.fromkeys(s["budget_label"]))
    return (f"budgets per move, equal for both sides: {budgets} (nodes counted alike for both: docs/mcts.md; CPU "
            f"time is thread time); {PLAYERS}; games: {games}; n = {n} colour-swapped game pairs per pairing "
            f"from seeded openings")


def go_second_half(ctx: Context) -> Verdict:
    """000-p, second half: alpha-beta against MCTS as b grows.

    The reading is the module docstring's."""
    s = (ctx.exact or {}).get(KEY)
    if s is None or len(s) == 0:
        return Verdict("pending", "needs the study of alpha-beta against MCTS as b grows "
                       f"(analysis/reproduce.py --part mcts); {NETWORKS}", "not measured", CLAIM, COMMAND)
    s = judged(s)
    holds, against = [], []
    lines = {}
    for label, g in s.groupby("budget_label", sort=False):
        g = g.sort_values("b")
        small, large = g.iloc[0], g.iloc[-1]
        if large["reading"] == "A weaker" and small["reading"] != "A weaker":
            holds.append(label)
        if large["reading"] == "A stronger":
            against.append(f"{label} ({large['domain']}, by {'its Elo CI' if large['by'] == 'Elo' else 'the sign test'})")
        lines[label] = "; ".join(_pairing(r) for _, r in g.iterrows())
    measured = " | ".join(f"{k}: {v}" for k, v in lines.items())
    mins = s.loc[s["by"] == "Elo", "min_elo"].astype(float).replace(math.inf, math.nan)
    lo, hi = number(float(mins.min())), number(float(mins.max()))
    power = (f"the Elo tests detect differences of ±{lo}{'' if lo == hi else f' to ±{hi}'} at 80 % power "
             "(5 % level)" if mins.notna().any() else "no pairing has an Elo test")
    tail = f"{sign_change_text(s)}; {MCTS_NODES}; {power}; conditions: {_conditions(s)}; {NETWORKS}"
    if holds:
        cat = "holds only under conditions"
        detail = (f"alpha-beta is shown weaker than MCTS at the largest b, not at the smallest, at "
                  f"{', '.join(holds)}; {tail}")
    elif len(against) == s["budget_label"].nunique():
        cat = "does not hold"
        detail = (f"at these sizes alpha-beta is shown stronger than MCTS at the largest b of every budget "
                  f"(b {number(float(s['b'].max()))}): {', '.join(against)}; {tail}")
    elif (s["reading"] == "not testable").all():
        cat = "not shown at this power"
        detail = (f"no pairing is testable (each needs at least 10 game pairs not all of one outcome: "
                  f"studies/tradeoff/matches.MIN_PAIRS); {tail}")
    else:
        cat = "not shown at this power"
        detail = f"no budget line shows alpha-beta weaker at large b, nor stronger at every budget; {tail}"
    return Verdict(cat, detail, measured, CLAIM, COMMAND)
