"""The claim-study presets (experiment=chance, experiment=multiplayer) through the engine:
tables, resume, report from the tables, config errors."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pandas as pd
import pytest

from searchlab.studies.chance import chance_verdicts as CH
from searchlab.studies.multiplayer import multiplayer_verdicts as MP
from searchlab.experiment import api
from searchlab.studies.claim_study.claim_study import load_tables
from searchlab.experiment.schema import ConfigError
from searchlab.games import openspiel
from searchlab.studies.claim_study.claim_study_report import results

QUIET = ["runner.n_jobs=1", "runner.progress=false", "claim_study.size=tiny"]


@pytest.fixture(scope="module")
def chance_run(tmp_path_factory) -> Path:
    return api.run_study("chance", QUIET, output_dir=tmp_path_factory.mktemp("chance") / "run",
                         progress=False)


def _same_results(a: dict, b: dict) -> None:
    for k, v in a.items():
        if isinstance(v, pd.DataFrame):
            pd.testing.assert_frame_equal(v.reset_index(drop=True), b[k].reset_index(drop=True), check_dtype=False)
        elif isinstance(v, dict):
            _same_results(v, b[k])
        elif isinstance(v, float) and v != v:
            assert b[k] != b[k], k
        else:
            assert v == b[k], k


def test_chance_preset_writes_tables_and_a_report_from_them(chance_run):
    tables = load_tables(chance_run)
    assert set(tables) == {"growth", "relabel", "pig", "ludo", "orders"}
    assert len(tables["growth"]) > 0 and set(tables["ludo"]["move"]) == {"safe", "race"}
    manifest = json.loads((chance_run / "manifest.json").read_text())
    assert manifest["complete"] and manifest["tasks"] == len(CH.CS.chance_steps("tiny", 15))
    text = (chance_run / "report.md").read_text()
    for claim in ("003-i", "003-c", "003-j"):
        assert f"### {claim}" in text
    assert "**holds**" in text
    # the same numbers as the in-process command (python -m searchlab.studies.chance.chance_verdicts --size tiny)
    _same_results(CH.chance_checks("tiny"), results(chance_run)["chance"])


def test_resume_runs_only_the_missing_tasks(chance_run, tmp_path, capsys):
    run = tmp_path / "run"
    shutil.copytree(chance_run, run)
    growth_parts = sorted((run / "growth").glob("part-*.parquet"))
    assert growth_parts
    growth_parts[0].unlink()                      # as if killed before that part was written
    before = results(chance_run)
    api.run_study("chance", QUIET, output_dir=run, progress=False)
    out = capsys.readouterr().out
    assert "resume:" in out and "running the 0 missing" not in out
    _same_results(before, results(run))


def test_multiplayer_preset_with_a_match_override(tmp_path):
    run = api.run_study("multiplayer", QUIET + ["claim_study.openings=2", "claim_study.budget=60"],
                        output_dir=tmp_path / "mp", progress=False)
    games = load_tables(run)["games"]
    assert len(games) == 2 * 6 * 3                # openings x seatings x players
    m = results(run)["multiplayer"]
    assert m["match"]["budget"] == 60 and m["match"]["openings"] == 2
    assert abs(m["match"]["summary"]["win_share"].sum() - 1.0) < 1e-12
    assert "### 000-q" in (run / "report.md").read_text()
    assert MP.pruning_with_many_players.__doc__.startswith("000-q")
    # the second domain: measured through the engine where open-spiel is installed, else said to be missing
    cc = load_tables(run)["cc"]
    assert m["cc"]["measured"] == openspiel.available() == (len(cc) > 0)
    assert "chinese_checkers" in (run / "report.md").read_text()


@pytest.mark.parametrize("overrides,match", [
    (["claim_study.family=dice"], "claim_study.family must be one of chance, multiplayer"),
    (["claim_study.size=huge"], "claim_study.size must be one of full, small, tiny"),
    (["+claim_study.depth=3"], "claim_study.depth: unknown key"),
    (["claim_study.budget=5"], r"claim_study.budget must be null or an integer in \[10, "),
])
def test_bad_claim_study_config(tmp_path, overrides, match):
    with pytest.raises(ConfigError, match=match):
        api.run_study("multiplayer", overrides, output_dir=tmp_path / "x", progress=False)
    assert not (tmp_path / "x").exists()


def test_match_options_belong_to_multiplayer(tmp_path):
    with pytest.raises(ConfigError, match="applies to family multiplayer only"):
        api.run_study("chance", ["+claim_study.openings=3"], output_dir=tmp_path / "x", progress=False)
