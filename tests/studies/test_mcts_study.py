"""The MCTS study family at a tiny size: alpha-beta against MCTS by b, and search traps."""

from __future__ import annotations

import dataclasses
import math

import pandas as pd
import pytest

from searchlab.errors import InvalidParameterError
from searchlab.games.hex import Hex
from searchlab.studies.mcts import traps as T
from searchlab.studies.mcts import vs_alphabeta as V


def test_tiny_study_plays_every_pairing_in_colour_swapped_pairs(tmp_path):
    games, s = V.run(V.TINY, progress=False)
    cfg = V.TINY
    assert len(games) == len(cfg.domains()) * len(cfg.node_budgets) * cfg.openings * 2
    assert set(s["domain"]) == set(cfg.domains()) and (s["pairs"] == cfg.openings).all()
    for _, g in games.groupby(["domain", "pair"]):
        assert sorted(g["a_is_max"]) == [False, True]          # each opening with both colours
    assert (games["technique"] == "alpha-beta").all() and (games["opponent"] == "mcts").all()
    # both sides spend the same node budget per move (MCTS: plus less than one playout)
    assert (games["a_mean_nodes"] <= 300).all()
    assert (games["b_mean_nodes"] < 300 + 16).all()
    row = s.iloc[0]
    assert row["score"] == pytest.approx(games[games["domain"] == row["domain"]]["result"].mean())
    assert set(s["verdict"]) <= {"not testable", "A stronger", "A weaker", "not shown at this power"}
    b = dict(zip(s["domain"], s["b"]))
    assert b["hex3"] < b["hex4"] and 6 < b["connect4"] < 7     # Connect Four's mean b is about 6.6
    path = V.figure(s, tmp_path / "elo_by_b.png")
    assert path.stat().st_size > 10_000


def test_sign_change_is_found_and_judged():
    s = pd.DataFrame(dict(budget_label=["n"] * 3, domain=["hex3", "hex5", "hex9"], b=[5.0, 20.0, 70.0],
                          elo=[150.0, 40.0, -120.0], elo_lo=[60.0, -30.0, -200.0], elo_hi=[240.0, 110.0, -40.0]))
    (c,) = V.sign_changes(s)
    assert (c["from_domain"], c["to_domain"], c["b_low"], c["b_high"], c["shown"]) == ("hex5", "hex9", 20.0, 70.0, False)
    s.loc[1, "elo_lo"] = 10.0
    assert V.sign_changes(s)[0]["shown"] is True
    # an Elo of exactly 0 (every pair split 1-1) is no sign: 0 then +40 is not a change
    s["elo"] = [0.0, 40.0, 120.0]
    assert V.sign_changes(s) == []


@pytest.mark.parametrize("change,match", [
    (dict(hex_sizes=(2,)), r"hex_sizes\[\] must be an integer in \[3, 11\]"),
    (dict(others=("chess",)), "others must list connect4 and/or othello"),
    (dict(node_budgets=(), cpu_seconds=()), "the study needs a budget"),
    (dict(openings=0), r"openings must be an integer in \[1"),
])
def test_bad_study_config(change, match):
    with pytest.raises(InvalidParameterError, match=match):
        V.validate(dataclasses.replace(V.TINY, **change))


def test_traps_tiny():
    df = T.run(T.TINY, progress=False)
    assert set(df["family"]) == {"alpha-beta", "mcts"} and set(df["model"]) == {"iid", "incremental", "hex"}
    assert ((df["found"] >= 0) & (df["found"] <= df["trials"])).all()
    assert (df["rate"] == df["found"] / df["trials"]).all()
    # a budget above the whole tree: alpha-beta proves the root, so it always plays a minimax move
    big = T.tree_rows(dataclasses.replace(T.TINY, models=("iid",), bs=(2,), ds=(3,), budgets=(10**6,)))
    assert [r["rate"] for r in big if r["family"] == "alpha-beta"] == [1.0]


def test_shallow_wins_are_wins_in_three():
    (g,) = T.shallow_wins(5, 1, 10, seed=1)
    assert isinstance(g, Hex)
    from searchlab import search
    assert search(g, "alphabeta", "adjacent", depth=3).value == 1.0
    assert search(g, "alphabeta", "adjacent", depth=1).value != 1.0
    winning = [m for m in g.legal_moves(g.initial_state()) if T.keeps_win(g, m)]
    assert winning


def _summary(verdicts_small, verdicts_large):
    rows = []
    for label, vs, vl in zip(("1,000 nodes/move", "10,000 nodes/move"), verdicts_small, verdicts_large):
        rows.append(dict(budget_label=label, domain="hex3", b=5.0, elo=200.0, elo_lo=100.0, elo_hi=300.0,
                         pairs=100, min_elo=50.0, verdict=vs))
        rows.append(dict(budget_label=label, domain="hex11", b=100.0, elo=-150.0, elo_lo=-250.0, elo_hi=-50.0,
                         pairs=100, min_elo=50.0, verdict=vl))
    return pd.DataFrame(rows)


def test_go_verdict_reads_the_study_and_names_what_is_not_tested():
    from searchlab.studies.claims.verdict import Context
    from searchlab.studies.mcts.mcts_verdict import KEY, go_second_half

    def judge(s):
        return go_second_half(Context(df=pd.DataFrame(), summary=pd.DataFrame(), exact={KEY: s} if s is not None else {}))

    v = judge(None)
    assert v.category == "pending" and "learned networks" in v.detail
    v = judge(_summary(["A stronger", "A stronger"], ["A weaker", "not shown at this power"]))
    assert v.category == "holds only under conditions" and "1,000 nodes/move" in v.detail
    assert "learned networks" in v.detail and "n = 100 pairs" in v.measured and "hex11" in v.measured
    assert judge(_summary(["A stronger"] * 2, ["A stronger"] * 2)).category == "does not hold"
    assert judge(_summary(["A stronger"] * 2, ["not shown at this power"] * 2)).category == "not shown at this power"


def test_preset_runs_tiny_through_the_engine_and_resumes(tmp_path):
    """experiment=mcts_vs_alphabeta at claim_study.size=tiny: tasks, tables, report; a second
    run into the same directory resumes (every task stored: nothing replayed)."""
    from searchlab.experiment.api import run_study
    from searchlab.studies.claim_study.claim_study import load_tables
    ov = ["claim_study.size=tiny", "runner.n_jobs=1", "runner.progress=false"]
    run = run_study("mcts_vs_alphabeta", ov, output_dir=tmp_path / "run", progress=False)
    tables = load_tables(run)
    assert len(tables["mcts_games"]) == 3 * 2 * 2 and len(tables["mcts_traps"]) == 10
    report = (run / "report.md").read_text()
    assert "000-p, second half" in report and "learned networks" in report
    assert "| hex4 |" in report and (run / "figures" / "elo_by_b.png").stat().st_size > 10_000
    games = tables["mcts_games"].sort_values(["domain", "pair", "a_is_max"]).reset_index(drop=True)
    again = run_study("mcts_vs_alphabeta", ov, output_dir=tmp_path / "run", progress=False)
    assert again == run
    pd.testing.assert_frame_equal(load_tables(run)["mcts_games"].sort_values(["domain", "pair", "a_is_max"])
                                  .reset_index(drop=True).drop(columns="wall_seconds"),
                                  games.drop(columns="wall_seconds"))


def test_a_clean_sweep_is_judged_by_the_sign_test():
    """Every game pair won by alpha-beta at the largest b: the pentanomial Elo and its CI are
    infinite (the pairing is "not testable"), so the exact sign test on pairs judges it, with
    Holm over the sweeps; 12 of 12 pairs is p = 2^-11, shown; 3 of 3 is not."""
    from searchlab.studies.claims.verdict import Context
    from searchlab.studies.mcts.mcts_verdict import KEY, go_second_half

    s = _summary(["A stronger"] * 2, ["not testable"] * 2)
    s[["p0", "p1", "p2", "p3", "p4"]] = [0, 0, 40, 30, 30]
    large = s["domain"] == "hex11"
    s.loc[large, ["elo", "elo_lo", "elo_hi", "min_elo", "pairs", "score"]] = [math.inf, math.inf, math.inf,
                                                                             math.inf, 12, 1.0]
    s.loc[large, ["p2", "p3", "p4"]] = [0, 0, 12]
    sweeps = V.sign_test_sweeps(s)
    assert list(sweeps["domain"]) == ["hex11", "hex11"] and (sweeps["won"] == 12).all()
    assert sweeps["p_sign"].iloc[0] == pytest.approx(2.0 ** -11)
    assert (sweeps["sweep_verdict"] == "A stronger").all()
    v = go_second_half(Context(df=pd.DataFrame(), summary=pd.DataFrame(), exact={KEY: s}))
    assert v.category == "does not hold" and "by the sign test" in v.detail
    assert "sign test 12 pairs won to 0 lost" in v.measured and "Elo CI open-ended" in v.measured
    assert "none in the range measured" not in v.detail or "Hex alone" in v.detail
    s.loc[large, ["pairs", "p4"]] = [3, 3]
    assert (V.sign_test_sweeps(s)["sweep_verdict"] == "not shown at this power").all()
    assert go_second_half(Context(df=pd.DataFrame(), summary=pd.DataFrame(), exact={KEY: s})).category \
        == "not shown at this power"


def test_the_verdict_states_no_sign_change_as_none_in_the_range():
    from searchlab.studies.claims.verdict import Context
    from searchlab.studies.mcts.mcts_verdict import KEY, go_second_half

    s = _summary(["A stronger"] * 2, ["A stronger"] * 2)
    s["elo"], s["elo_lo"] = 150.0, 50.0                     # positive everywhere: no change of sign
    v = go_second_half(Context(df=pd.DataFrame(), summary=pd.DataFrame(), exact={KEY: s}))
    assert v.category == "does not hold"
    assert "Hex alone (b 5 to 100): none in the range measured" in v.detail
    assert "1,000 nodes/move, 10,000 nodes/move" in v.detail and "n = 100 colour-swapped game pairs" in v.detail
    assert "detect differences of ±50 at 80 % power" in v.detail and "strong evaluation functions" in v.detail


def test_the_second_half_of_000p_is_a_registry_entry_judged_from_game_rows():
    """The claims registry has 000-p twice: the arithmetic, and the second half (its own key and
    label) judged from the study's game rows through vs_alphabeta.summarize."""
    from searchlab.studies.claims import registry as C
    from searchlab.studies.claims.verdict import Context
    from searchlab.studies.mcts.mcts_verdict import KEY

    halves = [c for c in C.CLAIMS if c.ids == ("000-p",)]
    assert [c.key for c in halves] == ["000-p", "000-p-second-half"]
    assert halves[1].label == "000-p (second half)" and "000-p-second-half" in C.claim_keys()
    cfg = dataclasses.replace(V.TINY, hex_sizes=(3,), others=(), node_budgets=(200,), openings=12, b_games=5,
                              pairs_per_task=12)
    games, summary = V.run(cfg, progress=False)
    assert len(games) == 24
    ctx = Context(df=pd.DataFrame(), summary=pd.DataFrame(), exact={KEY: summary})
    got = {c.key: v for c, v in C.evaluate_all(ctx)}
    v = got["000-p-second-half"]
    assert v.category in ("holds only under conditions", "does not hold", "not shown at this power")
    assert "hex3 (b " in v.measured and "n = 12 pairs" in v.measured and "learned networks" in v.detail
    assert got["000-p"].category == "holds"                   # the arithmetic half, unchanged
    pending = {c.key: v for c, v in C.evaluate_all(Context(df=pd.DataFrame(), summary=pd.DataFrame(), exact={}))}
    assert pending["000-p-second-half"].category == "pending"
