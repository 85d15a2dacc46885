"""000-n / 001-l on the clock: the verdict counts the time-control pairings and names its
conditions (studies/tradeoff/matches_report.py, fixed rules in docs/matches.md), the clock's
noise and the nodes per CPU second summarised from the rows recorded during the games
(studies/tradeoff/clock_rows.py), and a chess time-control match end to end."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from searchlab.experiment import api
from searchlab.studies.claims.verdict import Context
from searchlab.studies.ordering import unsound as U
from searchlab.studies.tradeoff.clock_rows import (noise_summary, noise_table, nps_summary,
                                                   nps_table)
from searchlab.studies.tradeoff.matches import EQUAL_NODES, EQUAL_TIME, summarize_games
from searchlab.studies.tradeoff.matches_report import RULES_FIXED, match_verdict
from searchlab.studies.tradeoff.tradeoff_report import _paired_counts
from searchlab.studies.tradeoff.tradeoff_tables import load_table
from searchlab.studies.tradeoff.tuning_report import time_control_section

STRONG = [(1, 1)] * 30 + [(1, 0)] * 10          # A wins clearly
EVEN = [(1, 0)] * 20 + [(1, 1)] * 10 + [(0, 0)] * 10   # A scores one half


def games(technique: str, pairs: list, *, domain: str = "chess", mode: str = "nodes",
          cpu: float = math.nan, budget: int = 10_000) -> pd.DataFrame:
    """Engine-grade game rows of one pairing; A buys 1.0-1.2 plies per pair (a depth CI above
    the minimum gain, so strength is judged)."""
    rows = []
    for i, (r1, r2) in enumerate(pairs):
        for a_is_max, r in ((True, r1), (False, r2)):
            rows.append(dict(study="s", domain=domain, technique=technique, family="null_move",
                             opponent="sound", ordering="tt", budget=budget, pair=i,
                             opening=str(i), a_is_max=a_is_max, result=r, ending="terminal",
                             plies=60, a_mean_depth=6.0 + 0.1 * (i % 3), b_mean_depth=5.0,
                             a_mean_nodes=1.0, b_mean_nodes=1.0, seed=0, wall_seconds=1.0,
                             play="engine", persist_across_moves=True, budget_mode=mode,
                             cpu_seconds=cpu))
    return pd.DataFrame(rows)


def test_verdict_names_its_condition_when_only_the_node_budget_is_stronger():
    """Stronger at equal nodes, not at equal CPU time: "holds only under conditions", and the
    detail (and the claim's verdict) names both conditions: kind, domain, budget."""
    s = summarize_games(pd.concat([games("null R=2", STRONG),
                                   games("null R=2", EVEN, mode="cpu", cpu=0.01,
                                         budget=10_000_000)]))
    cat, det, verdicts = match_verdict(s)
    assert cat == "holds only under conditions"
    by = {v.condition[0]: v for v in verdicts}
    assert by[EQUAL_NODES].words == "stronger" and by[EQUAL_TIME].words != "stronger"
    assert "equal nodes per move: stronger in 1 of 1 pairings: chess 10,000 nodes/move" in det
    assert "equal CPU time per move: stronger in 0 of 1 pairings: chess 0.01 s CPU/move" in det
    assert ("a stronger pairing only under: equal nodes, chess, 10,000 nodes/move; none under: "
            "equal CPU time, chess, 0.01 s CPU/move") in det
    assert f"rules fixed {RULES_FIXED}" in det
    # one Holm family over both conditions: the node pairing's adjusted p counts two tests
    assert by[EQUAL_NODES].p_holm == pytest.approx(min(1.0, 2 * by[EQUAL_NODES].p_value))
    # the claim's verdict (studies/ordering/unsound.py) carries the conditions in its detail
    p = _paired_counts(s)
    t = dict(erring=2, configs=2, worst_error=0.1, games=p["games"], wins=0, losses=0,
             undecided=0, matches=0, match_rows=[], datasets=[], paired=p)
    v = U.unsound_pruning_worth_it(Context(df=pd.DataFrame(), summary=pd.DataFrame(),
                                           exact={"tradeoff": t}))
    assert v.category == "holds only under conditions"
    assert "none under: equal CPU time, chess, 0.01 s CPU/move" in v.detail
    assert "nodes or CPU time per move" in v.theory


def test_verdict_says_when_no_time_control_was_played_and_counts_it_when_it_was():
    cat, det, _ = match_verdict(summarize_games(games("null R=2", STRONG)))
    assert cat == "holds" and "equal CPU time per move: not played" in det
    # stronger on the clock too: every pairing stronger, under both conditions
    both = summarize_games(pd.concat([games("null R=2", STRONG),
                                      games("null R=2", STRONG, mode="cpu", cpu=0.01)]))
    cat, det, _ = match_verdict(both)
    assert cat == "holds" and "equal CPU time per move: stronger in 1 of 1" in det
    assert "none under" not in det
    # stronger on the clock only: the condition named is the other way round
    flip = summarize_games(pd.concat([games("lmr", EVEN),
                                      games("lmr", STRONG, mode="cpu", cpu=0.01)]))
    cat, det, _ = match_verdict(flip)
    assert cat == "holds only under conditions"
    assert "only under: equal CPU time, chess, 0.01 s CPU/move; none under: equal nodes" in det


def _noise_rows() -> pd.DataFrame:
    g = pd.concat([games("a", EVEN[:6], mode="cpu", cpu=0.01, domain="connect4"),
                   games("b", EVEN[:4], mode="cpu", cpu=0.01, domain="connect4"),
                   games("a", EVEN[:5], domain="connect4")], ignore_index=True)
    n = len(g)
    g["load_avg"] = np.linspace(0.5, 9.5, n)
    g["probe_cv"] = np.linspace(0.02, 0.4, n)
    g["probe_nodes"] = np.linspace(1000, 2000, n)
    g["a_cv_nodes"], g["b_cv_nodes"] = 0.3, 0.5
    g["a_nps"] = np.linspace(1e5, 2e5, n)
    g["b_nps"] = 1e5
    return g


def test_noise_summary_is_computed_from_the_rows_of_the_cpu_time_games():
    g = _noise_rows()
    cpu = g[g["budget_mode"] == "cpu"]
    s = noise_summary(g)
    assert len(s) == 1
    r = s.iloc[0]
    assert (r["domain"], r["cpu_seconds"], r["games"], r["recorded"]) == ("connect4", 0.01, 20, 20)
    assert r["load_median"] == pytest.approx(cpu["load_avg"].median())
    assert (r["load_min"], r["load_max"]) == (cpu["load_avg"].min(), cpu["load_avg"].max())
    q = np.quantile(cpu["probe_cv"], [0.25, 0.5, 0.75])
    assert [r["probe_q1"], r["probe_median"], r["probe_q3"]] == pytest.approx(list(q))
    assert r["probe_nodes"] == pytest.approx(cpu["probe_nodes"].mean())
    assert f"{r['load_median']:.2f} [{r['load_min']:.2f}, {r['load_max']:.2f}]" in noise_table(s)
    # rows written before these columns: counted, "not recorded"
    old = noise_summary(g.drop(columns=["load_avg", "probe_cv", "probe_nodes"]))
    assert old.iloc[0]["recorded"] == 0 and "not recorded" in noise_table(old)
    assert len(noise_summary(g[g["budget_mode"] == "nodes"])) == 0


def test_nodes_per_cpu_second_per_technique_and_condition_from_the_rows():
    g = _noise_rows()
    s = nps_summary(g)
    keys = [(r["kind"], r["budget"], r["technique"]) for _, r in s.iterrows()]
    assert keys == [(EQUAL_NODES, "10,000 nodes/move", "a"), (EQUAL_TIME, "0.01 s CPU/move", "a"),
                    (EQUAL_TIME, "0.01 s CPU/move", "b")]
    part = g[(g["budget_mode"] == "cpu") & (g["technique"] == "a")]
    r = s[(s["kind"] == EQUAL_TIME) & (s["technique"] == "a")].iloc[0]
    assert r["a_nps"] == pytest.approx(part["a_nps"].median())
    assert r["ratio"] == pytest.approx((part["a_nps"] / part["b_nps"]).median())
    assert "| connect4 | equal CPU time | 0.01 s CPU/move | b |" in nps_table(s)


def test_a_chess_time_control_match_end_to_end(tmp_path):
    """chess_matches_time_small cut to 1 opening and 8 plies: every game row holds the clock's
    noise measured while it was played, and the report states it from the rows."""
    out = tmp_path / "run"
    api.run_study("chess_matches_time_small",
                  ["runner.n_jobs=1", "runner.progress=false",
                   "tradeoff.domains.chess.match.openings=1",
                   "tradeoff.domains.chess.match.max_plies=8"], output_dir=out)
    g = load_table(out, "games")
    assert len(g) == 4 and set(g["technique"]) == {"null R=2", "LMR after 3"}
    assert (g["budget_mode"] == "cpu").all() and (g["cpu_seconds"] == 0.002).all()
    assert (g["a_nps"] > 0).all() and (g["b_nps"] > 0).all()
    assert g["load_avg"].notna().all() and (g["probe_nodes"] > 0).all()
    assert (g["probe_cv"] >= 0).all()
    text = time_control_section(out)
    assert "measured during the run" in text and "| chess | 0.002 | 4 (4) |" in text
    cat, det, verdicts = match_verdict(load_table(out, "matches"))
    assert len(verdicts) == 2 and {v.condition for v in verdicts} == {(EQUAL_TIME, "0.002 s CPU/move")}
    assert "equal nodes per move: not played" in det


def test_the_fixed_rules_are_written_down_with_their_date():
    """docs/matches.md states the rules match_verdict applies, dated as RULES_FIXED, including
    that only engine-grade pairings count and that both budget kinds do."""
    from pathlib import Path
    text = (Path(__file__).resolve().parents[2] / "docs" / "matches.md").read_text()
    rules = text.split("## The verdict on 000-n / 001-l: fixed rules", 1)[1].split("\n## ", 1)[0]
    assert f"Fixed on {RULES_FIXED}" in rules
    assert "engine-grade only" in rules and "declared" in rules
    assert "equal CPU time" in rules and "one Holm correction over all counted pairings" in rules
