"""Matches played in game pairs: per-pairing summaries with pentanomial statistics, and the
verdict of a set of pairings with Holm's correction.

A *pairing* is one configuration A against one opponent B in one domain at one node budget
per move; its games come in *pairs* (each opening once with each colour). ``summarize_games``
turns the per-game rows (experiment/table_kinds.py MATCH_GAME_SCHEMA) into one row per pairing:
the game totals, A's score, and from the complete pairs the pentanomial counts, the Elo
difference with a 95 % CI, the two-sided p-value of "score = 1/2" and the smallest Elo
difference the run's size detects (80 % power, 5 % level) — stats.pentanomial; where every
pair had the same outcome the observed variance is 0 and the power statement uses the
largest possible one (SD_MAX) instead.
``judge_pairings`` gives each pairing a verdict kind after Holm's correction over the testable
ones (at least MIN_PAIRS complete pairs, not all of one outcome).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from searchlab.errors import InvalidParameterError

from searchlab.analysis.stats import holm, min_detectable_elo, pentanomial_from_pairs

#: columns that identify a pairing
PAIRING = ["domain", "technique", "family", "opponent", "ordering", "budget"]
#: the power and level at which ``min_elo`` is stated
POWER, ALPHA = 0.8, 0.05
#: fewer complete pairs than this, or pairs all of one outcome (no variance to estimate), and a
#: pairing is not tested (the normal approximation would claim p = 0 from one lucky pair)
MIN_PAIRS = 10
#: the largest standard deviation of a pair's per-game score (pairs 0 or 1 only, half each):
#: the power statement's stand-in when the observed one is 0
SD_MAX = 0.5


def summarize_games(games: pd.DataFrame) -> pd.DataFrame:
    """One row per pairing (PAIRING columns; ``study`` kept): games, a_wins, draws, b_wins,
    score (A's mean per game), openings (played), pairs (complete game pairs), p0..p4 (pairs in which A scored
    0, ½, 1, 1½, 2 points), elo, elo_lo, elo_hi, sd_pair, p_value, min_elo (pentanomial over
    the complete pairs), a_mean_depth, b_mean_depth (mean of the games' per-move means),
    endings (e.g. "terminal 380, repetition 20"), wall_seconds (sum)."""
    rows = []
    for key, g in games.groupby(PAIRING, sort=True, dropna=False):
        res = g["result"].to_numpy()
        full = g.groupby("pair").filter(lambda x: len(x) == 2).sort_values(["pair", "a_is_max"])
        pairs = full.groupby("pair")["result"].apply(list).tolist()
        row = dict(zip(PAIRING, key))
        row.update(study=str(g["study"].iloc[0]), games=len(g), a_wins=int((res == 1).sum()),
                   draws=int((res == 0.5).sum()), b_wins=int((res == 0).sum()),
                   score=float(res.mean()), pairs=len(pairs), openings=int(g["pair"].nunique()),
                   a_mean_depth=float(g["a_mean_depth"].mean()),
                   b_mean_depth=float(g["b_mean_depth"].mean()),
                   endings=", ".join(f"{k} {v}" for k, v in g["ending"].value_counts().items()),
                   wall_seconds=float(g["wall_seconds"].sum()))
        if pairs:
            p = pentanomial_from_pairs(pairs)
            row.update({f"p{k}": p.counts[k] for k in range(5)})
            sd = p.sd_pair if p.sd_pair > 0 else SD_MAX
            row.update(elo=p.elo, elo_lo=p.elo_low, elo_hi=p.elo_high, sd_pair=p.sd_pair,
                       p_value=p.p_value,
                       min_elo=min_detectable_elo(p.pairs, sd, power=POWER, alpha=ALPHA))
        else:
            row.update({f"p{k}": 0 for k in range(5)})
            row.update(elo=math.nan, elo_lo=math.nan, elo_hi=math.nan, sd_pair=math.nan,
                       p_value=math.nan, min_elo=math.inf)
        rows.append(row)
    return pd.DataFrame(rows)


@dataclass(frozen=True)
class PairingVerdict:
    """One pairing's verdict: ``kind`` is "A stronger", "A weaker" (Holm-adjusted p below the
    level, by the sign of the Elo estimate), "no effect" (the CI inside +-``margin`` Elo),
    "not shown at this power" (neither: the CI is wider than the effects it could rule out;
    ``min_elo`` the smallest effect the run detects) or "not testable" (under MIN_PAIRS pairs,
    or all pairs of one outcome; ``p_holm`` is NaN)."""

    domain: str
    technique: str
    budget: int
    elo: float
    elo_lo: float
    elo_hi: float
    p_value: float
    p_holm: float
    min_elo: float
    pairs: int
    kind: str


def judge_pairings(summary: pd.DataFrame, alpha: float = ALPHA, margin: float | None = None
                   ) -> list[PairingVerdict]:
    """The verdict kind of every pairing of ``summary`` (summarize_games), Holm-adjusting the
    p-values over its testable pairings (PairingVerdict). ``margin``: the equivalence margin in
    Elo (None: no "no effect" verdicts). Raises InvalidParameterError for a summary without
    the pentanomial columns (a run that stored no game pairs) or alpha outside (0, 1)."""
    if not 0 < alpha < 1:
        raise InvalidParameterError(f"alpha must lie in (0, 1); got {alpha!r}")
    need = {"p_value", "elo_lo", "elo_hi", "pairs", "min_elo", "sd_pair"}
    if not need <= set(summary.columns):
        raise InvalidParameterError(
            f"judge_pairings needs a summary of game pairs (columns {sorted(need)}); this one "
            f"has {sorted(summary.columns)[:8]} (a run that stored no game pairs)")
    testable = (summary["pairs"] >= MIN_PAIRS) & (summary["sd_pair"] > 0)
    adj = np.full(len(summary), np.nan)
    if testable.any():
        adj[testable.to_numpy()] = holm(summary.loc[testable, "p_value"].to_numpy())
    out = []
    for (_, r), p_adj, ok in zip(summary.iterrows(), adj, testable):
        if not ok:
            kind = "not testable"
        elif p_adj < alpha:
            kind = "A stronger" if r["elo"] > 0 else "A weaker"
        elif margin is not None and -margin <= r["elo_lo"] and r["elo_hi"] <= margin:
            kind = "no effect"
        else:
            kind = "not shown at this power"
        out.append(PairingVerdict(str(r["domain"]), str(r["technique"]), int(r["budget"]),
                                  float(r["elo"]), float(r["elo_lo"]), float(r["elo_hi"]),
                                  float(r["p_value"]), float(p_adj), float(r["min_elo"]),
                                  int(r["pairs"]), kind))
    return out
