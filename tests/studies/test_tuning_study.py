"""The tuning study (tasks: tuning; studies/tradeoff/tuning_study.py) and the time-control
matches: config errors name the key, the tune stage picks the best setting by score on a
crafted case, tuning and confirmation openings are disjoint, the small presets run end to end
(tune, then confirm over the tune run; time control) and their report sections word verdicts
from the numbers only."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from searchlab import InvalidParameterError
from searchlab.algorithms.engine_session import SessionConfig
from searchlab.experiment import api
from searchlab.experiment.schema import ConfigError
from searchlab.play.clock_noise import clock_noise
from searchlab.play.tuning import GRID
from searchlab.studies.tradeoff.match_words import MARGIN, pairing_words
from searchlab.studies.tradeoff.matches import ALPHA, judge_pairings
from searchlab.studies.tradeoff.tradeoff_config import from_engine
from searchlab.studies.tradeoff.tradeoff_measure import match_game
from searchlab.studies.tradeoff.tradeoff_tables import NONDETERMINISTIC, load_table
from searchlab.studies.tradeoff.tradeoff_tasks import plan_tradeoff_tasks
from searchlab.studies.tradeoff.tuning_report import time_control_section, tuning_section
from searchlab.studies.tradeoff.tuning_study import chosen_settings, opening_split

C4 = ["tradeoff.domain=connect4", "runner.n_jobs=1", "runner.progress=false"]


def load(preset: str, overrides: list[str] = ()):
    return from_engine(api.compose(preset, list(overrides)))


@pytest.mark.parametrize("override,match", [
    ("tradeoff.tuning.settings=[null_r2,null_r9]", "tradeoff.tuning.settings: 'null_r9' is not a grid"),
    ("tradeoff.tuning.settings=[null_r2,null_r2]", "tradeoff.tuning.settings: listed twice"),
    ("tradeoff.tuning.settings=[]", "tradeoff.tuning.settings: the list is empty"),
    ("tradeoff.tuning.stage=both", "tradeoff.tuning.stage must be one of tune, confirm"),
    ("tradeoff.tuning.stage=confirm", "tradeoff.tuning.tuned_run: stage 'confirm' needs"),
    ("tradeoff.tuning.confirm_budget=100", "tradeoff.tuning.confirm_budget must be >= tune_budget"),
    ("tradeoff.tuning.tune_openings=0", "tradeoff.tuning.tune_openings"),
    ("tradeoff.tasks=tune", "tradeoff.tasks must be one of all, positions, matches, tuning"),
    ("+tradeoff.domains.connect4.match.budget_mode=cpu",
     "tradeoff.domains.connect4.match.cpu_seconds must be a number > 0 with budget_mode 'cpu'"),
    ("+tradeoff.domains.connect4.match.cpu_seconds=0.1",
     "tradeoff.domains.connect4.match.cpu_seconds is for budget_mode 'cpu'"),
])
def test_bad_tuning_and_time_control_config_names_the_key(override, match):
    with pytest.raises(ConfigError, match=match):
        load("unsound_tuning_small", [override])


def test_cpu_time_needs_engine_play_and_a_positive_time():
    with pytest.raises(ConfigError, match="connect4.match.budget_mode must be one of nodes, cpu"):
        load("unsound_matches_time_small", ["tradeoff.domains.connect4.match.budget_mode=wall"])
    with pytest.raises(ConfigError, match="connect4.match.budget_mode: 'cpu' needs match.play"):
        load("unsound_matches_time_small", ["tradeoff.domains.connect4.match.play=fresh-per-depth"])
    with pytest.raises(ConfigError, match="tradeoff.domains.othello.match.cpu_seconds must be a number > 0"):
        load("unsound_matches_time_small", ["tradeoff.domains.othello.match.cpu_seconds=-1"])


def test_the_full_presets_are_the_briefs_sizes():
    t = load("unsound_tuning")
    assert t.tasks == "tuning" and t.tuning.settings == list(GRID)
    assert (t.tuning.tune_openings, t.tuning.tune_budget) == (100, 10_000)
    assert (t.tuning.confirm_openings, t.tuning.confirm_budget) == (200, 100_000)
    assert [n for n in ("connect4", "othello", "chess") if getattr(t.domains, n).match.enabled] \
        == ["connect4", "othello", "chess"]
    tc = load("unsound_matches_time")
    for d in ("connect4", "othello"):
        m = getattr(tc.domains, d).match
        assert (m.budget_mode, m.play, m.openings) == ("cpu", "engine", 200) and m.cpu_seconds > 0


def test_the_tune_stage_picks_the_best_by_score_ties_to_the_first():
    order = ["null_r2", "null_r3", "null_adaptive", "lmr_after2_r1", "lmr_after3_r1"]
    summary = pd.DataFrame([
        ("connect4", "null_move", "null_r2", 0.45), ("connect4", "null_move", "null_r3", 0.55),
        ("connect4", "null_move", "null_adaptive", 0.55), ("connect4", "lmr", "lmr_after3_r1", 0.5),
        ("connect4", "lmr", "lmr_after2_r1", 0.5), ("othello", "null_move", "null_r2", 0.7),
        ("othello", "null_move", "null_r3", 0.2)], columns=["domain", "family", "technique", "score"])
    assert chosen_settings(summary, order) == {
        ("connect4", "null_move"): "null_r3", ("connect4", "lmr"): "lmr_after2_r1",
        ("othello", "null_move"): "null_r2"}


def test_tuning_and_confirmation_openings_are_disjoint_and_planned_apart():
    cfg = load("unsound_tuning_small", ["tradeoff.domain=connect4"])
    tune, confirm = opening_split("connect4", cfg.domains.connect4, cfg)
    assert (len(tune), len(confirm)) == (2, 2)
    g = match_game("connect4", cfg.domains.connect4)
    assert not {g.hash_key(o.state) for o in tune} & {g.hash_key(o.state) for o in confirm}
    tasks = plan_tradeoff_tasks(cfg, {})            # no ProbCut model: its settings not played
    assert {t.args[2].label for t in tasks} == {"null_r2", "null_r3", "lmr_after3_r1", "futility_03"}
    assert {t.args[5] for t in tasks} == {0, 1} and all(t.args[1].match.budget == 500 for t in tasks)
    assert len({t.task_id for t in tasks}) == len(tasks) == 8


def _words_follow_from_numbers(summary: pd.DataFrame, text: str) -> None:
    """Every verdict is pairing_words of the pairing's own figures, and is in the text."""
    for v in judge_pairings(summary, ALPHA, MARGIN):
        testable = v.kind != "not testable"
        assert v.words == pairing_words(v.elo_lo if testable else -math.inf,
                                        v.elo_hi if testable else math.inf, v.p_holm,
                                        v.depth_lo, v.depth_hi, alpha=ALPHA, margin=MARGIN)
        assert f"| {v.words} |" in text


def test_small_presets_run_end_to_end_and_report_from_the_numbers(tmp_path):
    tune, confirm, timed = tmp_path / "tune", tmp_path / "confirm", tmp_path / "time"
    api.run_study("unsound_tuning_small", C4, output_dir=tune)
    with pytest.raises(ConfigError, match="tradeoff.tuning.tuned_run: .* is a run of another config"):
        api.run_study("unsound_tuning_small", C4 + ["tradeoff.tuning.stage=confirm",
                                                    "tradeoff.tuning.tune_budget=400",
                                                    f"tradeoff.tuning.tuned_run={tune}"],
                      output_dir=tmp_path / "bad")
    with pytest.raises(ConfigError, match="tradeoff.tuning.tuned_run: .* not a finished run"):
        api.run_study("unsound_tuning_small", C4 + ["tradeoff.tuning.stage=confirm",
                                                    f"tradeoff.tuning.tuned_run={tmp_path}"],
                      output_dir=tmp_path / "bad2")
    api.run_study("unsound_tuning_small", C4 + ["tradeoff.tuning.stage=confirm",
                                                f"tradeoff.tuning.tuned_run={tune}"],
                  output_dir=confirm)
    ts, cs = load_table(tune, "matches"), load_table(confirm, "matches")
    settings = load("unsound_tuning_small").tuning.settings
    assert set(ts["technique"]) == set(settings) and (ts["budget"] == 500).all()
    chosen = chosen_settings(ts, settings)
    # the confirmation plays exactly the chosen setting per family, at its budget
    assert {(r["domain"], r["family"]): r["technique"] for _, r in cs.iterrows()} == chosen
    assert (cs["budget"] == 1000).all()
    tg, cg = load_table(tune, "games"), load_table(confirm, "games")
    assert set(tg["pair"]) == {0, 1} and set(cg["pair"]) == {2, 3}
    assert not set(tg["opening"]) & set(cg["opening"])
    text = tuning_section(tune, confirm)
    for (_, fam), name in chosen.items():
        assert f"| connect4 | {fam} | {name} |" in text
    assert text.count("**chosen**") == len(chosen)
    _words_follow_from_numbers(cs, text)
    assert "Confirmation: not run" in tuning_section(tune, None)
    assert (confirm / "report.md").read_text().count("**chosen**") == len(chosen)

    api.run_study("unsound_matches_time_small", C4, output_dir=timed)
    g = load_table(timed, "games")
    assert (g["budget_mode"] == "cpu").all() and (g["cpu_seconds"] == 0.002).all()
    assert g["clock"].str.startswith("time.thread_time").all()
    assert g[["a_cv_nodes", "b_cv_nodes"]].notna().all().all()
    text = time_control_section(timed)
    assert "not reproducible row for row" in text and "resolution" in text
    _words_follow_from_numbers(load_table(timed, "matches"), text)
    assert "The clock's noise alone" in (timed / "report.md").read_text()


def test_clock_noise_repeats_one_search_at_a_fixed_cpu_time():
    g = match_game("connect4")
    cfg = SessionConfig(ordering="static", budget_mode="cpu", nodes=10**7, cpu_seconds=0.002)
    n = clock_noise(g, [g.initial_state()], cfg, repeats=3)
    assert len(n.nodes) == 1 and len(n.nodes[0]) == 3 and all(x > 0 for x in n.nodes[0])
    assert len(n.cvs) == 1 and n.cvs[0] >= 0
    with pytest.raises(InvalidParameterError, match="budget_mode must be 'cpu'"):
        clock_noise(g, [g.initial_state()], SessionConfig(ordering="static"), repeats=3)
    with pytest.raises(InvalidParameterError, match="repeats must be an integer >= 2"):
        clock_noise(g, [g.initial_state()], cfg, repeats=1)


def test_the_tune_stage_gives_the_same_table_on_one_or_two_workers(tmp_path):
    """Seeds and task ids come from the config and the task's identity only."""
    ov = ["tradeoff.domain=connect4", "tradeoff.tuning.settings=[null_r2,futility_03]",
          "runner.progress=false"]
    one, two = tmp_path / "one", tmp_path / "two"
    api.run_study("unsound_tuning_small", ov + ["runner.n_jobs=1"], output_dir=one)
    api.run_study("unsound_tuning_small", ov + ["runner.n_jobs=2"], output_dir=two)
    a, b = (load_table(d, "games").drop(columns=list(NONDETERMINISTIC), errors="ignore")
            for d in (one, two))
    pd.testing.assert_frame_equal(a, b)
