"""Claims about unsound pruning (000-n/001-l, 001-m): the trade-off study's decision errors and
matches, and quiescence against the horizon effect (chess, from ``ordering.ordering_checks``)."""

from __future__ import annotations

from searchlab.claims.ordering import COMMAND, measurements, not_measured
from searchlab.claims.verdict import Verdict


def quiescence_horizon(ctx):
    d = measurements(ctx)
    if d is None:
        return not_measured()
    q = d["quiescence"]
    sp, sq = q["swing"]["plain"], q["swing"]["quiescence"]
    measured = (f"chess, WAC (n={q['n']}), value swing from depth {q['depth'] - 1} to {q['depth']} "
                f"(median, centipawns): {sp:.0f} without quiescence, {sq:.0f} with; best move found "
                f"{q['solved']['plain']}/{q['n']} vs {q['solved']['quiescence']}/{q['n']}")
    mp, mq = q["swing_mean"]["plain"], q["swing_mean"]["quiescence"]
    det = (f"median swing {sp:.0f} → {sq:.0f} centipawns, mean {mp:,.0f} → {mq:,.0f} (mate scores "
           f"found at one depth and not the other dominate the mean)")
    if sq < sp and mq == 0:
        cat = "holds"
    elif sq < sp:
        cat = "holds only under conditions"
        det = "reduces the horizon effect, does not cure it: " + det
    else:
        cat = "does not hold"
    return Verdict(cat, det, measured, "stable values across depths", COMMAND)


def unsound_pruning_worth_it(ctx):
    """000-n/001-l from the trade-off study (searchlab-tradeoff): part (a) from the decision
    errors against exact ground truth, part (b) from the matches at equal node budget."""
    t = (ctx.exact or {}).get("tradeoff")
    if t is None:
        return Verdict("no data", "the trade-off study was not run", "not measured",
                       "see the claim", "searchlab-tradeoff (run by analysis/reproduce.py)")
    measured = (f"{t['erring']}/{t['configs']} unsound configurations chose a move that is not an "
                f"exact best move somewhere (worst rate {t['worst_error']:.1%}); matches at equal "
                f"node budget against sound alpha-beta ({t['games']} games): {t['wins']} won, "
                f"{t['losses']} lost, {t['undecided']} without a significant difference "
                f"(Elo 95 % CI) of {t['matches']}")
    unsound = t["erring"] > 0
    worth = t["wins"] > t["losses"] and t["wins"] >= t["undecided"]
    if unsound and worth:
        cat, det = "holds", "they err, and at equal node budget the depth bought wins"
    elif unsound:
        cat = "holds only under conditions"
        det = ("they are unsound (they do prune the best move), but at this sample size the "
               "matches do not show the depth bought to be worth the errors")
    else:
        cat, det = "does not hold", "no unsound configuration erred on this sample"
    return Verdict(cat, det, measured, "unsound, and worth it at equal budget",
                   "searchlab-tradeoff (run by analysis/reproduce.py)")
