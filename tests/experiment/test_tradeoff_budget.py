"""The budget guard covers the trade-off study (studies/tradeoff/tradeoff_estimate.py): an oversized
study is refused in one line before any work, with nothing created; the shipped presets pass."""

from __future__ import annotations

import pytest

from searchlab.experiment import api
from searchlab.experiment.schema import ConfigError
from searchlab.studies.tradeoff.tradeoff_estimate import check_budget, match_work
from searchlab.experiment.validation import validate

from .test_cli_misuse import _main


@pytest.mark.parametrize("preset", ["unsound_tradeoff", "unsound_tradeoff_small",
                                    "unsound_tradeoff_tiny", "unsound_matches",
                                    "unsound_matches_1e5", "chess_matches",
                                    "unsound_matches_small", "chess_matches_small"])
def test_the_presets_pass_the_guard(preset):
    cfg = api.compose(preset)
    tc = api.tradeoff_config(cfg)
    check_budget(tc, validate(cfg).runner.max_nodes)          # raises if refused


def test_an_oversized_study_is_refused_by_the_cli_in_one_line(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    code, _, err = _main(monkeypatch, capsys, "experiment=unsound_tradeoff_tiny",
                         "runner.max_nodes=50000")
    assert code == 2, err
    assert err.startswith("searchlab: error: ") and err.count("\n") == 1, err
    assert "tasks are estimated above runner.max_nodes=50000: connect4 positions d=5" in err, err
    assert list(tmp_path.iterdir()) == []


def test_an_oversized_study_is_refused_by_run_study_before_any_work(tmp_path):
    out = tmp_path / "run"
    with pytest.raises(ConfigError) as e:
        api.run_study("unsound_tradeoff_tiny", ["tradeoff.domains.connect4.depth=12",
                                                "tradeoff.domains.othello.match.budget=10000000"],
                      output_dir=out, progress=False)
    msg = str(e.value)
    assert "\n" not in msg and "above runner.max_nodes=100000000" in msg, msg
    assert "connect4 positions d=12: ~" in msg and "othello matches budget=10000000: ~" in msg, msg
    assert not out.exists()


def test_match_work_is_games_times_plies_times_budget():
    dconf = api.tradeoff_config(api.compose("unsound_tradeoff_tiny")).domains.connect4
    assert match_work("connect4", dconf) == 2 * 1 * 42 * 150
    chess = api.tradeoff_config(api.compose("chess_matches")).domains.chess
    assert match_work("chess", chess) == 2 * 10 * 300 * 10_000     # a chunk of 10 pairs
