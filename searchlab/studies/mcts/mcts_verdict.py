"""The verdict on the second half of claim 000-p: "as b grows and the evaluation stays weak,
alpha-beta at equal effort loses to sampling-based search" (Go needed MCTS), from the summary
of studies/mcts/vs_alphabeta (``ctx.exact["mcts_vs_alphabeta"]``: its ``summarize`` frame).

Reading: per budget line, the pairings ordered by b. The claim *holds only under conditions*
when some line has alpha-beta shown weaker (Holm-adjusted, "A weaker") at its largest b and
not shown weaker at its smallest; it *does not hold* at these sizes when alpha-beta is shown
stronger in every domain of the largest b of every line; else it is *not shown at this power*.
The words state the conditions (budgets, the evaluation alpha-beta used, the rollouts MCTS
used), n (game pairs per pairing), the CIs, the smallest Elo each pairing could detect (80 %
power, 5 % level) and that learned networks (the policy and value networks of modern Go
programs) are not tested. Without the study's summary the verdict is "pending".

Not yet read by the claims registry (studies/claims/registry.py) or analysis/reproduce.py:
the full-size run and its wiring into a reproduction part are a later session's.
"""

from __future__ import annotations

import math

import pandas as pd

from searchlab.analysis.format import number
from searchlab.studies.claims.verdict import Context, Verdict

KEY = "mcts_vs_alphabeta"
CONDITIONS = ("alpha-beta: iterative deepening, transposition table kept across moves, killers, "
              "history, the game's own order, the game's static evaluation at the horizon; MCTS: "
              "UCT with uniformly random rollouts to the end and the solver; equal nodes or equal "
              "CPU time per move; Hex 3x3..11x11, Connect Four, Othello")
NETWORKS = "learned networks (policy and value networks) are not tested: both sides use no learning"


def _line(g: pd.DataFrame) -> str:
    parts = []
    for _, r in g.sort_values("b").iterrows():
        parts.append(f"{r['domain']} (b {number(float(r['b']))}): Elo {number(float(r['elo']))} "
                     f"[{number(float(r['elo_lo']))}, {number(float(r['elo_hi']))}], n = {int(r['pairs'])} pairs, "
                     f"detects ±{number(float(r['min_elo']))}, {r['verdict']}")
    return "; ".join(parts)


def go_second_half(ctx: Context) -> Verdict:
    """000-p, second half: alpha-beta against MCTS as b grows.

    The reading is the module docstring's."""
    s = (ctx.exact or {}).get(KEY)
    command = "python -m searchlab.studies.mcts --size full --part study --out DIR"
    if s is None or len(s) == 0:
        return Verdict("pending", "needs the study of alpha-beta against MCTS as b grows "
                       f"(searchlab.studies.mcts, not run at full size yet); {NETWORKS}",
                       "not measured", "MCTS overtakes alpha-beta as b grows (note 000)", command)
    holds, against = [], []
    for label, g in s.groupby("budget_label", sort=True):
        g = g.sort_values("b")
        small, large = g.iloc[0], g.iloc[-1]
        if large["verdict"] == "A weaker" and small["verdict"] != "A weaker":
            holds.append(label)
        if large["verdict"] == "A stronger":
            against.append(label)
    lines = {label: _line(g) for label, g in s.groupby("budget_label", sort=True)}
    measured = " | ".join(f"{k}: {v}" for k, v in lines.items())
    if holds:
        cat = "holds only under conditions"
        detail = (f"alpha-beta is shown weaker than MCTS at the largest b, not at the smallest, at "
                  f"{', '.join(holds)}; conditions: {CONDITIONS}; {NETWORKS}")
    elif len(against) == s["budget_label"].nunique():
        cat = "does not hold"
        detail = (f"at every budget alpha-beta is shown stronger than MCTS at the largest b measured "
                  f"(b up to {number(float(s['b'].max()))}); conditions: {CONDITIONS}; {NETWORKS}")
    elif (s["verdict"] == "not testable").all():
        cat = "not shown at this power"
        detail = (f"no pairing is testable (each needs at least 10 game pairs not all of one outcome: "
                  f"studies/tradeoff/matches.MIN_PAIRS); conditions: {CONDITIONS}; {NETWORKS}")
    else:
        cat = "not shown at this power"
        mins = s["min_elo"].replace(math.inf, math.nan)
        detail = (f"no budget line shows the change; the pairings detect differences of "
                  f"±{number(float(mins.min()))} Elo and more; conditions: {CONDITIONS}; {NETWORKS}")
    return Verdict(cat, detail, measured, "MCTS overtakes alpha-beta as b grows (note 000)", command)
