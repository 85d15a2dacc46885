"""Matches played in game pairs: per-pairing summaries with pentanomial statistics, and the
verdict of a set of pairings with Holm's correction.

A *pairing* is one configuration A against one opponent B in one domain at one node budget
per move; its games come in *pairs* (each opening once with each colour). ``summarize_games``
turns the per-game rows (studies/tradeoff/tradeoff_schemas.py MATCH_GAME_SCHEMA) into one row per pairing:
the game totals, A's score, and from the complete pairs the pentanomial counts, the Elo
difference with a 95 % CI, the two-sided p-value of "score = 1/2" and the smallest Elo
difference the run's size detects (80 % power, 5 % level) — stats.pentanomial; where every
pair had the same outcome the observed variance is 0 and the power statement uses the
largest possible one (SD_MAX) instead.
Beside Elo each pairing carries how it was played (``play``, ``persist_across_moves``: game rows
from before those columns were all played fresh-per-depth), the GSPRT on its pentanomial counts
(stats.gsprt, H0: Elo = GSPRT_ELO0 against H1: Elo = GSPRT_ELO1, error rates GSPRT_ALPHA and
GSPRT_BETA), the depth bought (A's mean depth per move minus B's, averaged per game pair, with a
95 % t-interval over the pairs: the comparison is paired by opening) and the node ratio (A's
mean nodes per move over B's).
``judge_pairings`` gives each pairing a verdict kind after Holm's correction over the testable
ones (at least MIN_PAIRS complete pairs, not all of one outcome), and its verdict words
(match_words.pairing_words: stronger / weaker / no difference shown at ±X Elo / not shown at
this power / buys too little depth).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats

from searchlab.errors import InvalidParameterError

from searchlab.analysis.stats import gsprt, holm, min_detectable_elo, pentanomial_from_pairs
from searchlab.studies.tradeoff.match_words import MARGIN, pairing_words

#: columns that identify a pairing
PAIRING = ["domain", "technique", "family", "opponent", "ordering", "budget"]
#: the power and level at which ``min_elo`` is stated
POWER, ALPHA = 0.8, 0.05
#: fewer complete pairs than this, or pairs all of one outcome (no variance to estimate), and a
#: pairing is not tested (the normal approximation would claim p = 0 from one lucky pair)
MIN_PAIRS = 10
#: how the pairing was played (game rows without these columns: fresh-per-depth, no
#: persistence, a node budget per move)
PLAY_COLUMNS = {"play": "fresh-per-depth", "persist_across_moves": False,
                "budget_mode": "nodes", "cpu_seconds": math.nan}
#: the GSPRT every pairing gets: H0 Elo = GSPRT_ELO0 against H1 Elo = GSPRT_ELO1 (A over B)
GSPRT_ELO0, GSPRT_ELO1, GSPRT_ALPHA, GSPRT_BETA = 0.0, 20.0, 0.05, 0.05
#: the largest standard deviation of a pair's per-game score (pairs 0 or 1 only, half each):
#: the power statement's stand-in when the observed one is 0
SD_MAX = 0.5


def summarize_games(games: pd.DataFrame) -> pd.DataFrame:
    """One row per pairing (PAIRING and PLAY_COLUMNS; ``study`` kept): games, a_wins, draws,
    b_wins, score (A's mean per game), openings (played), pairs (complete game pairs), p0..p4
    (pairs in which A scored 0, ½, 1, 1½, 2 points), elo, elo_lo, elo_hi, sd_pair, p_value,
    min_elo (pentanomial over the complete pairs), gsprt_llr, gsprt_state (the GSPRT of the
    module docstring on those counts), a_mean_depth, b_mean_depth (mean of the games' per-move
    means), depth_bought, depth_lo, depth_hi (``depth_bought_ci``), node_ratio (A's mean
    nodes per move over B's, NaN without node columns), a_cv_nodes, b_cv_nodes (mean over the
    games of each side's coefficient of variation of nodes per move), a_nps, b_nps (mean over
    the games of each side's nodes per CPU second), load_avg (mean load at the games' start),
    probe_cv (mean clock-probe CV; NaN under a node budget or where the rows predate these
    columns), endings (e.g. "terminal 380, repetition 20"), wall_seconds (sum)."""
    games = games.copy()
    for col, old in PLAY_COLUMNS.items():
        games[col] = games[col].fillna(old) if col in games.columns else old
    games["persist_across_moves"] = games["persist_across_moves"].astype(bool)
    games["cpu_seconds"] = games["cpu_seconds"].astype(float)
    rows = []
    for key, g in games.groupby(PAIRING + list(PLAY_COLUMNS), sort=True, dropna=False):
        res = g["result"].to_numpy()
        full = g.groupby("pair").filter(lambda x: len(x) == 2).sort_values(["pair", "a_is_max"])
        pairs = full.groupby("pair")["result"].apply(list).tolist()
        row = dict(zip(PAIRING + list(PLAY_COLUMNS), key))
        bought, lo, hi = depth_bought_ci(g)
        nodes = {"a_mean_nodes", "b_mean_nodes"} <= set(g.columns)
        row.update(depth_bought=bought, depth_lo=lo, depth_hi=hi,
                   node_ratio=float(g["a_mean_nodes"].mean() / g["b_mean_nodes"].mean())
                   if nodes and g["b_mean_nodes"].mean() > 0 else math.nan)
        row.update(study=str(g["study"].iloc[0]), games=len(g), a_wins=int((res == 1).sum()),
                   draws=int((res == 0.5).sum()), b_wins=int((res == 0).sum()),
                   score=float(res.mean()), pairs=len(pairs), openings=int(g["pair"].nunique()),
                   a_mean_depth=float(g["a_mean_depth"].mean()),
                   b_mean_depth=float(g["b_mean_depth"].mean()),
                   a_cv_nodes=_col_mean(g, "a_cv_nodes"), b_cv_nodes=_col_mean(g, "b_cv_nodes"),
                   a_nps=_col_mean(g, "a_nps"), b_nps=_col_mean(g, "b_nps"),
                   load_avg=_col_mean(g, "load_avg"), probe_cv=_col_mean(g, "probe_cv"),
                   endings=", ".join(f"{k} {v}" for k, v in g["ending"].value_counts().items()),
                   wall_seconds=float(g["wall_seconds"].sum()))
        if pairs:
            p = pentanomial_from_pairs(pairs)
            row.update({f"p{k}": p.counts[k] for k in range(5)})
            sd = p.sd_pair if p.sd_pair > 0 else SD_MAX
            t = gsprt(p.counts, GSPRT_ELO0, GSPRT_ELO1, alpha=GSPRT_ALPHA, beta=GSPRT_BETA)
            row.update(elo=p.elo, elo_lo=p.elo_low, elo_hi=p.elo_high, sd_pair=p.sd_pair,
                       p_value=p.p_value,
                       min_elo=min_detectable_elo(p.pairs, sd, power=POWER, alpha=ALPHA),
                       gsprt_llr=t.llr, gsprt_state=t.state)
        else:
            row.update({f"p{k}": 0 for k in range(5)})
            row.update(elo=math.nan, elo_lo=math.nan, elo_hi=math.nan, sd_pair=math.nan,
                       p_value=math.nan, min_elo=math.inf, gsprt_llr=math.nan,
                       gsprt_state="no complete pair")
        rows.append(row)
    return pd.DataFrame(rows)


def _col_mean(g: pd.DataFrame, col: str) -> float:
    """The mean of a column over a pairing's games (NaN where the rows predate it)."""
    return float(g[col].astype(float).mean()) if col in g.columns else math.nan


#: the two conditions a pairing's budget per move can set (budget_mode "nodes" / "cpu")
EQUAL_NODES, EQUAL_TIME = "equal nodes", "equal CPU time"


def condition(budget_mode: str, budget: int, cpu_seconds: float) -> tuple[str, str]:
    """(kind, budget) of a pairing's budget per move: (EQUAL_NODES, "10,000 nodes/move") or,
    under a time control, (EQUAL_TIME, "0.01 s CPU/move"): the condition a verdict names."""
    if str(budget_mode) == "cpu":
        return EQUAL_TIME, f"{float(cpu_seconds):g} s CPU/move"
    return EQUAL_NODES, f"{int(budget):,} nodes/move"


def depth_bought_ci(g: pd.DataFrame, confidence: float = 0.95) -> tuple[float, float, float]:
    """(mean, low, high): the depth A buys over B in one pairing's games ``g``, in plies: per
    game pair (opening) the mean over its games of A's mean depth per move minus B's, then the
    mean over the pairs with a Student-t CI (paired by opening). NaN bounds with fewer than two
    pairs; a zero-width CI where every pair bought the same depth."""
    d = (g["a_mean_depth"] - g["b_mean_depth"]).groupby(g["pair"]).mean().to_numpy(float)
    if len(d) == 0:
        return math.nan, math.nan, math.nan
    m = float(d.mean())
    if len(d) < 2:
        return m, math.nan, math.nan
    se = float(d.std(ddof=1)) / math.sqrt(len(d))
    if se == 0:
        return m, m, m
    lo, hi = stats.t.interval(confidence, len(d) - 1, loc=m, scale=se)
    return m, float(lo), float(hi)


@dataclass(frozen=True)
class PairingVerdict:
    """One pairing's verdict: ``kind`` is "A stronger", "A weaker" (Holm-adjusted p below the
    level, by the sign of the Elo estimate), "no effect" (the CI inside +-``margin`` Elo),
    "not shown at this power" (neither: the CI is wider than the effects it could rule out;
    ``min_elo`` the smallest effect the run detects) or "not testable" (under MIN_PAIRS pairs,
    or all pairs of one outcome; ``p_holm`` is NaN). ``words``: the verdict worded from the
    numbers (match_words.pairing_words, which also weighs the depth bought); ``play`` how
    both sides played (e.g. "engine, persist"); the GSPRT's LLR and state; the depth bought
    with its CI and the node ratio (summarize_games); ``budget_mode`` and ``cpu_seconds``
    whether the budget per move was nodes or CPU time (``condition``)."""

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
    words: str = ""
    play: str = ""
    gsprt_llr: float = math.nan
    gsprt_state: str = ""
    depth_bought: float = math.nan
    depth_lo: float = math.nan
    depth_hi: float = math.nan
    node_ratio: float = math.nan
    budget_mode: str = "nodes"
    cpu_seconds: float = math.nan

    @property
    def condition(self) -> tuple[str, str]:
        """(kind, budget): equal nodes or equal CPU time per move, and how much (``condition``)."""
        return condition(self.budget_mode, self.budget, self.cpu_seconds)


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
        depth = [float(r.get(c, math.nan)) for c in ("depth_bought", "depth_lo", "depth_hi")]
        words = pairing_words(float(r["elo_lo"]) if ok else -math.inf,
                              float(r["elo_hi"]) if ok else math.inf, float(p_adj),
                              depth[1], depth[2], alpha=alpha,
                              margin=MARGIN if margin is None else margin)
        out.append(PairingVerdict(str(r["domain"]), str(r["technique"]), int(r["budget"]),
                                  float(r["elo"]), float(r["elo_lo"]), float(r["elo_hi"]),
                                  float(r["p_value"]), float(p_adj), float(r["min_elo"]),
                                  int(r["pairs"]), kind, words, play_text(r),
                                  float(r.get("gsprt_llr", math.nan)),
                                  str(r.get("gsprt_state", "")), *depth,
                                  float(r.get("node_ratio", math.nan)),
                                  str(r.get("budget_mode", "nodes")),
                                  float(r.get("cpu_seconds", math.nan))))
    return out


def play_text(r) -> str:
    """How a pairing (a summarize_games row) was played: "engine, persist", "engine, fresh
    table per move" or "fresh-per-depth"; a CPU-time pairing adds its time per move
    ("engine, persist, 0.05 s CPU/move")."""
    play = str(r.get("play", PLAY_COLUMNS["play"]))
    if play != "engine":
        return play
    text = "engine, " + ("persist" if bool(r.get("persist_across_moves")) else
                         "fresh table per move")
    if r.get("budget_mode", "nodes") == "cpu":
        text += f", {float(r.get('cpu_seconds')):g} s CPU/move"
    return text
