"""load() and searchlab-report refuse what is not a run, and incomplete or damaged runs unless
partial data is accepted explicitly."""

from __future__ import annotations

import json
import shutil

import pytest

from searchlab.experiment import store
from searchlab.experiment.api import run_study
from searchlab.experiment.run_status import IncompleteRunError, NotARunError
from searchlab.report import report_cli

TINY = ["sweep.b=[2]", "sweep.d=1..3", "sweep.instances=3", "sweep.ordering=[random]",
        "runner.n_jobs=1", "runner.progress=false", "runner.report=false",
        "runner.flush_rows=3"]                      # several parts: one can be lost or truncated


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """results/quick/a and results/quick/b: two complete runs of 9 tasks."""
    base = tmp_path_factory.mktemp("load") / "results"
    for name in ("a", "b"):
        run_study("quick", TINY, output_dir=base / "quick" / name, progress=False)
    return base


def _copy(runs, tmp_path):
    run = tmp_path / "run"
    shutil.copytree(runs / "quick" / "a", run)
    return run


def test_what_is_not_a_run_is_refused(runs, tmp_path):
    with pytest.raises(NotARunError, match="an empty path is not a run"):
        store.load("")
    (tmp_path / "empty").mkdir()
    with pytest.raises(NotARunError, match=rf"{tmp_path / 'empty'} is not a run directory and holds no run"):
        store.load(tmp_path / "empty")
    assert len(store.load(runs)) == 2 * 9          # a folder of runs: documented, every run


def test_report_on_a_folder_of_runs_names_them_and_writes_nothing(runs, capsys):
    assert report_cli.main([str(runs)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"searchlab-report: error: {runs} is not a run directory: it holds 2 run(s)")
    assert "\n" not in err and not (runs / "report.md").exists() and not (runs / "figures").exists()
    assert len(store.load(str(runs / "quick" / "*"))) == 18


@pytest.mark.parametrize("bad", ["-5", "0", "x"])
def test_bad_resamples_are_rejected(runs, bad, capsys):
    with pytest.raises(SystemExit) as e:
        report_cli.main([str(runs / "quick" / "a"), "--resamples", bad])
    assert e.value.code == 2 and "--resamples: must be an integer in [1, 1000000]" in capsys.readouterr().err


def test_a_killed_run_is_an_error_unless_partial(runs, tmp_path, capsys):
    run = _copy(runs, tmp_path)
    store.list_parts(run)[-1].unlink()                 # its last part never got written
    manifest = json.loads((run / "manifest.json").read_text())
    assert manifest["tasks"] == 9
    # a killed run's manifest is the starting one: not complete, still running
    manifest.update(complete=False, running=True)
    (run / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(IncompleteRunError, match=r"is incomplete: 6 of 9 tasks done .* partial=True"):
        store.load(run)
    with pytest.warns(UserWarning, match="6 of 9 tasks done"):
        assert len(store.load(run, partial=True)) == 6
    assert report_cli.main([str(run), "--no-exact", "--resamples", "19"]) == 2
    assert "is incomplete: 6 of 9 tasks done" in capsys.readouterr().err
    assert report_cli.main([str(run), "--no-exact", "--resamples", "19", "--partial"]) == 0
    md = (run / "report.md").read_text()
    assert "**Partial data: an incomplete run.** 6 of 9 planned tasks have rows" in md


def test_a_truncated_part_is_an_error_unless_partial(runs, tmp_path):
    run = _copy(runs, tmp_path)
    part = store.list_parts(run)[0]
    part.write_bytes(part.read_bytes()[:40])
    with pytest.raises(IncompleteRunError, match=rf"damaged: 1 part\(s\) cannot be read \({part.name}\)"):
        store.load(run)
    with pytest.warns(UserWarning, match="damaged"):
        assert len(store.load(run, partial=True)) == 6
