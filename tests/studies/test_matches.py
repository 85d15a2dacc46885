"""Per-pairing summaries of game pairs and their verdicts (studies/tradeoff/matches.py), and the claim
verdict built on them (studies/tradeoff/matches_report.py, studies/ordering/unsound.py): every category reachable."""

from __future__ import annotations

import math

import pandas as pd
import pytest

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
