"""Per-pairing summaries of game pairs and their verdicts (studies/tradeoff/matches.py), and the claim
verdict built on them (studies/tradeoff/matches_report.py, studies/ordering/unsound.py): every category reachable."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from searchlab.studies.tradeoff.match_words import MIN_DEPTH_GAIN

from searchlab import InvalidParameterError
from searchlab.studies.tradeoff.matches import MIN_PAIRS, judge_pairings, summarize_games
from searchlab.analysis.stats import pentanomial_from_pairs
from searchlab.studies.ordering import unsound as U
from searchlab.studies.claims.verdict import Context
from searchlab.studies.tradeoff.matches_report import match_verdict


def games(technique: str, pairs: list[tuple[float, float]], domain: str = "connect4",
          budget: int = 10_000) -> pd.DataFrame:
    rows = []
    for i, (r1, r2) in enumerate(pairs):
        for a_is_max, r in ((True, r1), (False, r2)):
            rows.append(dict(study="s", domain=domain, technique=technique, family="lmr",
                             opponent="sound", ordering="static", budget=budget, pair=i,
                             opening=str(i), a_color="first" if a_is_max else "second",
                             a_is_max=a_is_max, result=r, ending="terminal", plies=30,
                             a_mean_depth=6.0, b_mean_depth=5.0, a_mean_nodes=1.0,
                             b_mean_nodes=1.0, seed=0, wall_seconds=1.0, task_id="t"))
    return pd.DataFrame(rows)


def test_summary_counts_pairs_and_matches_the_pentanomial():
    pairs = [(1, 0)] * 20 + [(1, 1)] * 15 + [(0.5, 0)] * 5 + [(0, 0)] * 4
    g = games("x", pairs)
    g = pd.concat([g, games("x", [(1, 1)]).assign(pair=99).iloc[:1]])   # a half pair
    s = summarize_games(g).iloc[0]
    ref = pentanomial_from_pairs(pairs)
    assert (s["games"], s["pairs"]) == (89, 44)
    assert [s[f"p{k}"] for k in range(5)] == list(ref.counts) == [4, 5, 20, 0, 15]
    assert s["elo"] == pytest.approx(ref.elo) and s["p_value"] == pytest.approx(ref.p_value)
    assert s["min_elo"] == pytest.approx(ref.min_detectable_elo())
    assert "terminal 89" == s["endings"]


def test_judge_pairings_every_kind_and_holm():
    s = summarize_games(pd.concat([
        games("strong", [(1, 1)] * 30 + [(1, 0)] * 10 + [(0, 0)] * 2),
        games("weak", [(0, 0)] * 30 + [(1, 0)] * 10 + [(1, 1)] * 2),
        games("even", [(1, 0)] * 400 + [(1, 1)] * 30 + [(0, 0)] * 30),
        games("noisy", [(1, 1)] * 8 + [(0, 0)] * 6 + [(1, 0)] * 2),
        games("few", [(1, 1)] * (MIN_PAIRS - 1)),
        games("draws", [(0.5, 0.5)] * 50)]))
    kinds = {v.technique: v.kind for v in judge_pairings(s, margin=50)}
    assert kinds == {"strong": "A stronger", "weak": "A weaker", "even": "no effect",
                     "noisy": "not shown at this power", "few": "not testable",
                     "draws": "not testable"}
    v = {x.technique: x for x in judge_pairings(s, margin=50)}
    tested = [x for x in v.values() if not math.isnan(x.p_holm)]
    assert len(tested) == 4 and all(x.p_holm >= x.p_value for x in tested)
    assert math.isfinite(v["draws"].min_elo) and v["draws"].min_elo > 0   # SD_MAX stands in
    with pytest.raises(InvalidParameterError, match="game pairs"):
        judge_pairings(pd.DataFrame({"elo": [1.0]}))


@pytest.mark.parametrize("techniques, category", [
    (["strong"], "holds"),
    (["strong", "weak"], "holds only under conditions"),
    (["strong", "noisy"], "holds only under conditions"),
    (["weak", "noisy"], "does not hold"),
    (["noisy", "few"], "not shown at this power"),
])
def test_match_verdict_can_come_out_every_way(techniques, category):
    pairs = {"strong": [(1, 1)] * 30 + [(1, 0)] * 10, "weak": [(0, 0)] * 30 + [(1, 0)] * 10,
             "noisy": [(1, 1)] * 8 + [(0, 0)] * 6 + [(1, 0)] * 2, "few": [(1, 1)] * 3}
    s = summarize_games(pd.concat([games(t, pairs[t]) for t in techniques]))
    cat, det, verdicts = match_verdict(s)
    assert cat == category and len(verdicts) == len(techniques)
    assert "Holm" in det
    # the claim's verdict follows part (b) when part (a) holds, and fails without part (a)
    t = dict(erring=2, configs=3, worst_error=0.1, games=int(s["games"].sum()), wins=0, losses=0,
             undecided=0, matches=0, match_rows=[], datasets=["connect4: 2: line1, line2"],
             paired=dict(category=cat, detail=det, pairings=len(verdicts),
                         games=int(s["games"].sum()), pairs=int(s["pairs"].sum()),
                         stronger=0, weaker=0))
    v = U.unsound_pruning_worth_it(Context(df=pd.DataFrame(), summary=pd.DataFrame(),
                                           exact={"tradeoff": t}))
    assert v.category == category and "line1, line2" in v.measured
    v = U.unsound_pruning_worth_it(Context(df=pd.DataFrame(), summary=pd.DataFrame(),
                                           exact={"tradeoff": dict(t, erring=0)}))
    assert v.category == "does not hold"


# --- the verdict words, from the numbers only (studies/tradeoff/match_words.py) ---------------
def _depth_games(technique, pairs, depth_diffs, nodes=(1.0, 1.0), **kw):
    """games() with A's mean depth per game pair set to 5 + the pair's difference (B: 5)."""
    g = games(technique, pairs, **kw)
    g["a_mean_depth"] = 5.0 + g["pair"].map(dict(enumerate(depth_diffs)))
    g["b_mean_depth"] = 5.0
    g["a_mean_nodes"], g["b_mean_nodes"] = nodes
    return g


def test_pairing_words_every_branch_and_its_boundaries():
    from searchlab.studies.tradeoff.match_words import pairing_words
    nan = math.nan
    w = pairing_words
    assert w(10, 90, 0.01, 0.5, 1.5) == "stronger"
    assert w(-90, -10, 0.01, 0.5, 1.5) == "weaker"
    assert w(-20, 20, 0.5, 0.5, 1.5) == "no difference shown at ±20 Elo"
    assert w(-50, 50, 0.5, 0.5, 1.5) == "no difference shown at ±50 Elo"     # X = margin
    assert w(-50.5, 50.5, 0.5, 0.5, 1.5) == "not shown at this power"       # X > margin
    # undecided (p = alpha): the CI [10, 90] rules out nothing below 90, not "±40"
    assert w(10, 90, 0.05, 0.5, 1.5) == "not shown at this power"
    assert w(-36, 20, 0.5, 0.5, 1.5) == "no difference shown at ±36 Elo"    # the larger distance
    assert w(7, 45, 0.1, 0.5, 1.5) == "no difference shown at ±45 Elo"
    assert w(10, 90, nan, 0.5, 1.5) == "not shown at this power"            # not testable
    # "buys too little depth" only when the depth CI excludes the stated minimum gain (MIN_DEPTH_GAIN)
    assert w(10, 90, 0.01, -1.0, -0.2) == "buys too little depth"
    assert w(10, 90, 0.01, -0.3, 0.2) == "buys too little depth"                    # below a quarter ply
    assert w(10, 90, 0.01, 0.05, 0.2) == "buys too little depth"                    # some, but below it
    assert w(10, 90, 0.01, -0.3, 0.25) == "not shown at this power"         # boundary: hi = min
    # a CI containing 0 and reaching the minimum: neither shown nor excluded (the case)
    assert w(10, 90, 0.01, -0.21, 1.19) == "not shown at this power"
    assert w(-90, -10, 0.01, 0.0, 1.5) == "not shown at this power"         # boundary: low = 0
    assert w(10, 90, 0.01, -0.2, 0.6, min_gain=1.0) == "buys too little depth"      # a stated minimum
    with pytest.raises(InvalidParameterError, match="min_gain"):
        w(0, 1, 0.5, 0.5, 1.5, min_gain=0)
    assert w(10, 90, 0.01, nan, nan) == "not shown at this power"           # no depth CI
    for bad in (dict(alpha=0), dict(margin=-1)):
        with pytest.raises(InvalidParameterError):
            w(0, 1, 0.5, 0.5, 1.5, **bad)
    with pytest.raises(InvalidParameterError, match="depth_lo must not exceed"):
        w(0, 1, 0.5, 2, 1)


def test_constructed_tables_reach_every_word_with_depth_and_node_ratio():
    strong = [(1, 1)] * 30 + [(1, 0)] * 10
    weak = [(0, 0)] * 30 + [(1, 0)] * 10
    even = [(1, 0)] * 400 + [(1, 1)] * 30 + [(0, 0)] * 30
    noisy = [(1, 1)] * 8 + [(0, 0)] * 6 + [(1, 0)] * 2
    deeper = lambda n: [1.0 + 0.1 * (i % 3) for i in range(n)]          # noqa: E731
    s = summarize_games(pd.concat([
        _depth_games("strong", strong, deeper(40), nodes=(900.0, 1000.0)),
        _depth_games("weak", weak, deeper(40)),
        _depth_games("even", even, deeper(460)),
        _depth_games("noisy", noisy, deeper(16)),
        # as strong as "strong", but its depth bought's CI lies within ±0.02 ply, below the
        # minimum gain: it buys too little depth, not judged on strength
        _depth_games("shallow", strong, [0.05 * (-1.0) ** i for i in range(40)])]))
    by = {r["technique"]: r for _, r in s.iterrows()}
    assert by["strong"]["node_ratio"] == pytest.approx(0.9)
    assert by["strong"]["depth_bought"] == pytest.approx(np.mean(deeper(40)))
    assert by["strong"]["depth_lo"] < by["strong"]["depth_bought"] < by["strong"]["depth_hi"]
    assert by["shallow"]["depth_lo"] < 0 < by["shallow"]["depth_hi"] < MIN_DEPTH_GAIN
    assert (by["strong"]["play"], bool(by["strong"]["persist_across_moves"])) == \
        ("fresh-per-depth", False)                  # rows without the columns: the older play
    # the GSPRT (H0 Elo 0, H1 Elo +20) leans to H1 for the strong side, to H0 for the weak one
    assert by["strong"]["gsprt_llr"] > 0 > by["weak"]["gsprt_llr"]
    words = {v.technique: v.words for v in judge_pairings(s, margin=50)}
    half = max(abs(by["even"]["elo_lo"]), abs(by["even"]["elo_hi"]))
    assert words == {"strong": "stronger", "weak": "weaker",
                     "even": f"no difference shown at ±{half:.0f} Elo",
                     "noisy": "not shown at this power", "shallow": "buys too little depth"}
    cat, det, _ = match_verdict(s)
    assert cat == "holds only under conditions"
    assert "buys too little depth in 1" in det and "stronger in 1" in det and "weaker in 1" in det
    assert "H0: Elo = 0 against H1: Elo = +20" in det
    # without the stronger pairing: weaker where depth is bought -> not reproduced
    cat, det, _ = match_verdict(s[s["technique"] != "strong"])
    assert cat == "does not hold" and det.startswith("not reproduced at these budgets")
    # only a pairing that buys too little depth and loses: nothing is judged on strength
    lose_flat = summarize_games(_depth_games("flat", weak, [0.05 * (-1.0) ** i for i in range(40)]))
    assert match_verdict(lose_flat)[0] == "not shown at this power"
    # as strong, its depth CI straddling 0 but reaching the minimum gain (about ±0.33 ply):
    # the run neither shows nor excludes a gain worth having, so not "buys too little depth"
    wide = summarize_games(_depth_games("wide", strong, [(-1.0) ** i for i in range(40)]))
    assert wide["depth_lo"].iloc[0] < 0 and wide["depth_hi"].iloc[0] > MIN_DEPTH_GAIN
    assert [v.words for v in judge_pairings(wide, margin=50)] == ["not shown at this power"]


def test_play_columns_split_pairings_and_are_worded():
    g = games("x", [(1, 0)] * 12)
    eng = g.assign(play="engine", persist_across_moves=True)
    s = summarize_games(pd.concat([g, eng]))
    assert sorted(s["play"]) == ["engine", "fresh-per-depth"] and len(s) == 2
    plays = sorted(v.play for v in judge_pairings(s))
    assert plays == ["engine, persist", "fresh-per-depth"]


def test_part_a_counts_unsound_techniques_only():
    from searchlab.studies.tradeoff.tradeoff_report import _part_a
    summary = pd.DataFrame({"technique": ["ab", "null", "lmr", "q4"],
                            "family": ["sound", "null_move", "lmr", "quiescence"],
                            "decision_error": [0.0, 0.2, 0.0, 0.5]})
    erring, techs, line = _part_a(summary)
    assert erring == ["null"] and sorted(techs) == ["lmr", "null"]
    assert "1 of 2 unsound" in line and "Not counted" in line and "q4" in line


def test_part_b_counts_engine_grade_pairings_only_when_there_are_any():
    from searchlab.studies.tradeoff.tradeoff_report import engine_grade
    strong = [(1, 1)] * 30 + [(1, 0)] * 10 + [(0, 0)] * 2
    fresh = games("weak_fresh", [(0, 0)] * 30 + [(1, 0)] * 10)          # fresh-per-depth, loses
    eng = games("strong_engine", strong).assign(play="engine", persist_across_moves=True)
    s = summarize_games(pd.concat([fresh, eng]))
    counted, aside = engine_grade(s)
    assert list(counted["technique"]) == ["strong_engine"] and list(aside["technique"]) == ["weak_fresh"]
    assert match_verdict(counted)[0] == "holds"              # the fresh-per-depth loss is not in it
    assert match_verdict(s)[0] == "holds only under conditions"
    only_fresh = summarize_games(fresh)                       # a trade-off run judged on its own
    counted, aside = engine_grade(only_fresh)
    assert len(counted) == 1 and len(aside) == 0


def test_opening_sets_name_the_table_without_the_machines_absolute_path(tmp_path):
    """The report named the authors' machine (/work/main/results/...): the shown path starts at
    the results folder, or is relative to the working directory."""
    from pathlib import Path
    from searchlab.studies.tradeoff.matches_report import _shown_path
    assert _shown_path(Path("/work/main/results/reproduce/full/chess_matches/games")) == \
        "results/reproduce/full/chess_matches/games"
    assert _shown_path(Path.cwd() / "runs" / "x" / "games") == "runs/x/games"
    assert _shown_path(Path("/elsewhere/run7/games")) == "run7/games"
