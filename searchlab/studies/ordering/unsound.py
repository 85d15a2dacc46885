"""Claims about unsound pruning (000-n/001-l, 001-m): the trade-off study's decision errors and
matches, and quiescence against the horizon effect (chess, from ``ordering.ordering_checks``)."""

from __future__ import annotations

import numpy as np
from scipy.stats import binomtest

from searchlab.analysis.estimators import bootstrap_ci
from searchlab.analysis.format import number
from searchlab.analysis.stats import holm, min_detectable_elo, trinomial
from searchlab.studies.ordering.ordering_checks import COMMAND, measurements, not_measured
from searchlab.studies.claims.verdict import Verdict


def quiescence_horizon(ctx):
    """001-m "quiescence cures the horizon effect", from the per-position value swings between
    consecutive depths (studies.ordering.ordering_checks.quiescence_swings): the median paired reduction
    (plain − quiescence) with a 95 % bootstrap CI over positions, and a two-sided sign test on
    the positions where the swing changed. "Cures" needs every swing with quiescence to be 0;
    "reduces" needs the CI of the reduction above 0; otherwise not shown at this power."""
    d = measurements(ctx)
    if d is None:
        return not_measured()
    q = d["quiescence"]
    sp, sq = q["swing"]["plain"], q["swing"]["quiescence"]
    mp, mq = q["swing_mean"]["plain"], q["swing_mean"]["quiescence"]
    n = q["n"]
    per = q.get("swings")
    test = ""
    lo = hi = float("nan")
    if per and n >= 2:
        diff = np.asarray(per["plain"], float) - np.asarray(per["quiescence"], float)
        e = bootstrap_ci(len(diff), lambda i: np.median(diff[i], axis=-1), n_resamples=999, seed=1,
                         vectorized=True)
        lo, hi = e.low, e.high
        better, worse = int((diff > 0).sum()), int((diff < 0).sum())
        p = binomtest(better, better + worse).pvalue if better + worse else float("nan")
        test = (f"; paired reduction of the swing (plain − quiescence), median {number(e.value)} [{number(lo)}, "
                f"{number(hi)}] centipawns (95 % bootstrap CI over positions); smaller with quiescence at {better}, "
                f"larger at {worse}, equal at {n - better - worse} of {n} positions (sign test p = {number(p)})")
    measured = (f"chess, WAC 1–{n} (n={n}), value swing from depth {q['depth'] - 1} to {q['depth']} "
                f"(median, centipawns): {number(sp)} without quiescence, {number(sq)} with; best move found "
                f"{q['solved']['plain']}/{n} vs {q['solved']['quiescence']}/{n}" + test)
    # number(), as the quiescence table prints them (":.0f" printed the median 2.5 as "2")
    det = (f"median swing {number(sp)} → {number(sq)} centipawns, mean {mp:,.0f} → {mq:,.0f} over n = {n} WAC positions "
           f"(mate scores found at one depth and not the other dominate the mean)")
    shown = lo > 0 if per else sq < sp
    if shown and mq == 0:
        cat = "holds"
    elif shown:
        cat = "holds only under conditions"
        det = "reduces the horizon effect, does not cure it: " + det + (
            f"; the median reduction's CI [{number(lo)}, {number(hi)}] lies above 0" if per else "")
    elif sq < sp or (per and hi > 0):
        cat = "not shown at this power"
        det = (f"the reduction is not shown at n = {n}: its CI [{number(lo)}, {number(hi)}] contains 0; " + det)
    else:
        cat = "does not hold"
    return Verdict(cat, det, measured, "stable values across depths", COMMAND)


def unsound_pruning_worth_it(ctx):
    """000-n/001-l from the trade-off study (searchlab experiment=unsound_tradeoff): part (a) from the decision
    errors against exact ground truth, part (b) from the matches at equal node budget."""
    t = (ctx.exact or {}).get("tradeoff")
    if t is None:
        return Verdict("no data", "the trade-off study was not run", "not measured",
                       "see the claim", "searchlab experiment=unsound_tradeoff (run by analysis/reproduce.py)")
    measured = (f"{t['erring']}/{t['configs']} unsound configurations chose a move that is not an "
                f"exact best move somewhere (worst rate {t['worst_error']:.1%}); matches at equal "
                f"node budget against sound alpha-beta ({t['games']} games): {t['wins']} won, "
                f"{t['losses']} lost, {t['undecided']} without a significant difference "
                f"(Elo 95 % CI) of {t['matches']}")
    unsound = t["erring"] > 0
    if t.get("paired"):             # the game pairs replace the old per-match totals
        measured = measured.split("; matches at equal node budget")[0]
    if t.get("datasets"):
        measured += "; data set: " + "; ".join(t["datasets"])
    if t.get("paired"):
        return _paired_verdict(t, measured, unsound)
    power = _match_power(t.get("match_rows", []))
    if power:
        mde = ("none: too few games" if power["mde_lo"] == float("inf") else
               f"{power['mde_lo']:.0f}–{power['mde_hi']:.0f} Elo".replace("–inf", " or more (some: none)"))
        measured += (f"; z-tests on the game scores with Holm's correction over the {power['m']} matches: "
                     f"{power['won']} won, {power['lost']} lost"
                     + (f", {power['untestable']} not testable (under {MIN_GAMES_FOR_TEST} games or one result "
                        "only)" if power["untestable"] else "")
                     + f"; the smallest Elo difference one match detects (80 % power, 5 % level, games as "
                     f"independent): {mde} ({power['games_lo']}–{power['games_hi']} games per match)")
        won, lost = power["won"], power["lost"]
    else:
        won, lost = t["wins"], t["losses"]
    if unsound and won and not lost:
        cat, det = "holds", "they err, and at equal node budget the depth bought wins"
    elif unsound and lost and not won:
        cat, det = "holds only under conditions", "they err, and at equal node budget the depth bought loses"
    elif unsound:
        cat = "not shown at this power"
        det = ("part (a) holds: they are unsound (they do prune the best move); part (b), that the depth "
               "bought is worth the errors, is not shown at this power"
               + (f": no match is significant after Holm's correction, and a match of this size detects "
                  f"only differences of {power['mde_lo']:.0f} Elo or more" if power and power["mde_lo"] < float("inf")
                  else ": no match is significant after Holm's correction" if power else ""))
    else:
        cat, det = "does not hold", "no unsound configuration erred on this sample"
    return Verdict(cat, det, measured, "unsound, and worth it at equal budget",
                   "searchlab experiment=unsound_tradeoff (run by analysis/reproduce.py)")


def _paired_verdict(t: dict, measured: str, unsound: bool) -> Verdict:
    """Part (b) from matches played in stored game pairs (studies.tradeoff.matches_report.match_verdict:
    pentanomial per pairing, Holm over the pairings): its category is the claim's when part
    (a) holds; "does not hold" when no unsound configuration erred."""
    p = t["paired"]
    measured += (f"; matches in game pairs: {p['pairings']} pairings, {p['games']} games "
                 f"({p['pairs']} pairs): {p['detail']}")
    cmd = ("searchlab experiment=unsound_tradeoff; searchlab experiment=unsound_matches; "
           "searchlab experiment=chess_matches; with --matches also unsound_matches_1e5, "
           "unsound_tuning's confirmation stage and the time-control matches "
           "unsound_matches_time and chess_matches_time, with --matches-1e6 unsound_matches_1e6 "
           "(analysis/reproduce.py --part pruning)")
    if not unsound:
        return Verdict("does not hold", "no unsound configuration erred on this sample", measured,
                       "unsound, and worth it at equal budget", cmd)
    det = {"holds": "they err, and the technique is stronger in every pairing counted",
           "holds only under conditions": "they err; the technique is stronger under some "
                                          "conditions only (the pairings named under measured)",
           "does not hold": "they err; not reproduced at these budgets with these "
                            "implementations: no pairing stronger, and weaker where it buys "
                            "depth and a match decides (pairings that buy too little depth are not "
                            "judged)",
           "not shown at this power": "part (a) holds (they prune the best move); part (b), "
                                      "that the depth bought is worth the errors, is not shown "
                                      "at this power"}[p["category"]]
    if p.get("conditions"):         # equal nodes vs equal CPU time, domain, budget: named
        det += "; " + p["conditions"]
    return Verdict(p["category"], det, measured,
                   "unsound, and worth it at equal budget (nodes or CPU time per move)", cmd)


#: fewer games than this and a match's normal-approximation test is not run (counted untestable)
MIN_GAMES_FOR_TEST = 10


def _match_power(rows: list[dict]) -> dict | None:
    """Holm-corrected wins/losses and the per-match smallest detectable Elo of the trade-off
    matches, from their game totals (the pairs are not stored: games treated as independent).
    Matches under MIN_GAMES_FOR_TEST games, or whose games all had one result, are not tested."""
    rows = [r for r in rows if r.get("games", 0) >= 1]
    if not rows:
        return None
    tri = [trinomial(int(r["a_wins"]), int(r["draws"]), int(r["b_wins"])) for r in rows]
    testable = [x.pairs >= MIN_GAMES_FOR_TEST and x.sd_pair > 0 for x in tri]
    p = holm([x.p_value if t else 1.0 for x, t in zip(tri, testable)])
    won = sum(1 for x, q, t in zip(tri, p, testable) if t and q <= 0.05 and x.score > 0.5)
    lost = sum(1 for x, q, t in zip(tri, p, testable) if t and q <= 0.05 and x.score < 0.5)
    # the detectable difference at a draw-free 50 % score (sd 1/2 per game): the largest variance
    mde = [min_detectable_elo(x.pairs, 0.5) for x in tri]
    games = [x.pairs for x in tri]
    return dict(m=len(rows), won=won, lost=lost, untestable=testable.count(False), mde_lo=min(mde),
                mde_hi=max(mde), games_lo=min(games), games_hi=max(games))
