"""Misuse, round three: the study asked for or a refusal. Run directories are unique even when
two runs start in the same second; a report that could not be written (disk full) makes the
command exit non-zero. (Removed keys and sections, names leaving results_dir: the one-line
refusals in test_cli_misuse.py MISUSE_23; one run one identity: test_load_identity.py.)"""

from __future__ import annotations

import datetime
import errno
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pandas as pd
import pytest
from hydra.core import utils as hydra_utils

from searchlab.experiment import api, lock, store
from searchlab.experiment.composition import forget_claimed, run_dir

from .conftest import run_main as _main

TINY = ["experiment=quick", "sweep.b=[2]", "sweep.d=[1]", "sweep.instances=1",
        "sweep.ordering=[random]", "runner.n_jobs=1", "runner.progress=false"]


def test_claimed_directories_are_distinct_under_concurrency(tmp_path):
    base = tmp_path / "quick" / "2026-01-01_00-00-00"
    with ThreadPoolExecutor(8) as pool:
        got = list(pool.map(lambda _: lock.claim_new(base), range(16)))
    assert len(set(got)) == 16 and base in got
    assert {p.name for p in got} == {base.name} | {f"{base.name}_{k}" for k in range(1, 16)}


def test_hydra_run_dir_is_claimed_once_per_command(tmp_path):
    fresh = str(tmp_path / "q" / "stamp")
    forget_claimed()
    first = run_dir(None, fresh)
    assert first == fresh and run_dir("None", fresh) == first      # resolved again: the same
    forget_claimed()
    assert run_dir(None, fresh) == fresh + "_1"                     # the next command: its own
    assert run_dir("/some/run", fresh) == "/some/run"               # resume: the run's own


def test_two_commands_in_the_same_second_write_two_runs(tmp_path, monkeypatch, capsys):
    """Hydra's ${now:} is frozen to one second: before, the second command resumed the first's
    directory (same config) instead of writing its own run."""
    monkeypatch.chdir(tmp_path)

    class Frozen(datetime.datetime):
        @classmethod
        def now(cls, tz=None):
            return cls(2026, 1, 1)

    monkeypatch.setattr(hydra_utils, "datetime", Frozen)     # Hydra's ${now:} resolver
    for _ in range(2):
        code, out, err = _main(monkeypatch, capsys, *TINY, "runner.report=false")
        assert code == 0, err
    runs = sorted(p.name for p in (tmp_path / "results" / "quick").iterdir())
    assert runs == ["2026-01-01_00-00-00", "2026-01-01_00-00-00_1"]
    for r in runs:
        assert len(store.load(tmp_path / "results" / "quick" / r)) == 1


def test_run_study_in_the_same_second_gets_its_own_directory(tmp_path, monkeypatch):
    monkeypatch.setattr(api.time, "strftime", lambda fmt: "2026-01-01_00-00-00")
    ov = [o for o in TINY if not o.startswith("experiment=")] + ["runner.report=false",
                                                                f"results_dir={tmp_path}"]
    a = api.run_study("quick", ov, progress=False)
    b = api.run_study("quick", ov, progress=False)
    assert a != b and {a.name, b.name} == {"2026-01-01_00-00-00", "2026-01-01_00-00-00_1"}


def test_a_refused_run_leaves_no_claimed_directory(tmp_path, monkeypatch):
    ov = ["sweep.b=[2]", "sweep.d=[40]", "sweep.d_budget=null", "sweep.ordering=[worst]",
          "runner.max_nodes=10", f"results_dir={tmp_path}"]
    with pytest.raises(api.ConfigError):
        api.run_study("quick", ov, progress=False)
    assert list(tmp_path.rglob("*")) in ([], [tmp_path / "quick"])


def test_a_report_that_cannot_be_written_exits_non_zero(tmp_path, monkeypatch, capsys):
    """Disk full while writing the report: the table is kept and the command says so, with a
    non-zero exit (it exited 0 before)."""
    monkeypatch.chdir(tmp_path)
    real = Path.write_text

    def full(self, *a, **k):
        if self.name == "report.md":
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(self, *a, **k)

    monkeypatch.setattr(Path, "write_text", full)
    code, out, err = _main(monkeypatch, capsys, *TINY)
    assert code == 2, err
    assert err.startswith("searchlab: error: the report of ") and err.count("\n") == 1, err
    assert "could not be written (No space left on device); the table is complete" in err
    (run,) = (tmp_path / "results" / "quick").iterdir()
    assert len(store.load(run)) >= 1


@pytest.fixture(scope="module")
def claim_run(tmp_path_factory):
    return api.run_study("chance", ["runner.n_jobs=1", "runner.progress=false",
                                    "claim_study.size=tiny", "runner.report=false"],
                         output_dir=tmp_path_factory.mktemp("claim") / "run", progress=False)


def test_report_tables_of_a_healthy_claim_study_run(claim_run, capsys):
    """It said the run's tables were deleted (exit 2): a claim study's rows are not in table/.
    Now its own tables are exported, one file per table and format."""
    from searchlab.report import report_cli
    from searchlab.studies.claim_study.claim_study import load_tables

    assert report_cli.main([str(claim_run), "--tables", "csv,md"]) == 0, capsys.readouterr().err
    tables = load_tables(claim_run)
    assert sorted(p.name for p in (claim_run / "tables").iterdir()) == sorted(
        f"{k}.{ext}" for k in tables for ext in ("csv", "md"))
    for k, frame in tables.items():
        assert len(pd.read_csv(claim_run / "tables" / f"{k}.csv")) == len(frame)


def test_report_partial_tables_of_a_killed_run_exit_0(tmp_path, capsys):
    """--partial --tables wrote the report, then refused the tables (exit 2)."""
    from searchlab.report import report_cli

    run = api.run_study("quick", ["sweep.b=[2]", "sweep.d=1..2", "sweep.instances=2",
                                  "sweep.ordering=[random]", "runner.n_jobs=1",
                                  "runner.progress=false", "runner.report=false",
                                  "runner.flush_rows=1", "runner.max_batch_tasks=1"],
                        output_dir=tmp_path / "run", progress=False)
    parts = store.list_parts(run)
    assert len(parts) == 4
    parts[-1].unlink()             # as if killed before its last part
    args = [str(run), "--no-exact", "--resamples", "1", "--tables", "csv"]
    assert report_cli.main(args) == 2 and "missing parts" in capsys.readouterr().err
    assert report_cli.main([*args, "--partial"]) == 0, capsys.readouterr().err
    assert (run / "tables").is_dir() and any((run / "tables").glob("*.csv"))
    assert "partial" in (run / "report.md").read_text().lower()


def test_runner_dask_without_the_extra_is_one_line_before_any_directory(tmp_path, monkeypatch,
                                                                         capsys):
    """The dask extra missing (simulated: importing distributed raises ImportError): refused by
    the pre-run check, so Hydra never creates the run directory."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setitem(sys.modules, "distributed", None)      # import distributed: ImportError
    code, out, err = _main(monkeypatch, capsys, "runner=dask", *TINY[1:])
    assert code == 2 and err.count("\n") == 1, err
    assert err.startswith("searchlab: error: runner=dask needs the dask extra (dask and "
                          "distributed): pip install 'searchlab[dask]'")
    assert list(tmp_path.iterdir()) == []
    with pytest.raises(api.ConfigError, match=r"runner=dask needs the dask extra"):
        api.run_study("quick", ["runner=dask", f"results_dir={tmp_path}"], progress=False)
    assert list(tmp_path.iterdir()) == []


def test_the_budget_guard_refuses_from_the_grid_before_expanding_instances(tmp_path, monkeypatch,
                                                                            capsys):
    """10^6 instances of a point over runner.max_nodes: refused from the grid's points; no task
    is built (it built 3*10^6 tasks, 3 GB and 600 s, first)."""
    from searchlab.experiment import grid

    def no_task(*a, **k):
        raise AssertionError("a task was planned")

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(grid, "Task", no_task)
    for flags in ([], ["--cfg", "job"]):
        code, out, err = _main(monkeypatch, capsys, "sweep.instances=1000000", "sweep.b=[2]",
                               "sweep.d=1", "runner.max_nodes=1", *flags)
        assert code == 2 and err.count("\n") == 1, err
        assert "tasks are estimated above runner.max_nodes=1: " in err
        assert "alphabeta/random: ~3 nodes x1000000" in err
    with pytest.raises(api.ConfigError, match=r"above runner.max_nodes=1: .* x1000000"):
        api.run_study("quick", ["sweep.instances=1000000", "sweep.b=[2]", "sweep.d=1",
                                "runner.max_nodes=1", f"results_dir={tmp_path}"], progress=False)
    assert list(tmp_path.iterdir()) == []


def test_cfg_job_of_a_large_accepted_study_plans_no_task(tmp_path, monkeypatch, capsys):
    from searchlab.experiment import grid

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(grid, "plan", lambda *a, **k: pytest.fail("--cfg planned the tasks"))
    code, out, err = _main(monkeypatch, capsys, "experiment=quick", "sweep.instances=1000000",
                           "sweep.b=[2]", "sweep.d=1", "sweep.ordering=[random]", "--cfg", "job")
    assert code == 0, err
    assert "instances: 1000000" in out


@pytest.mark.parametrize("overrides", [
    ["sweep.b=[2,3]", "sweep.d=1..3", "sweep.instances=3", "pruning=none"],
    ["game=othello", "sweep.d=1..2", "sweep.instances=3", "ordering=natural"],
], ids=["trees", "othello"])
def test_the_point_guard_counts_what_the_task_guard_counts(overrides, monkeypatch):
    """check_points (grid points x instances x techniques, built no task) and check_budget
    (the planned tasks) refuse with one message."""
    from searchlab.experiment import grid
    from searchlab.experiment.validation import validate

    study = validate(api.compose("quick", overrides))
    real_task = grid.Task
    monkeypatch.setattr(grid, "Task", lambda *a, **k: pytest.fail("check_points built a task"))
    with pytest.raises(api.ConfigError) as by_points:
        grid.check_points(study, 5)
    monkeypatch.setattr(grid, "Task", real_task)
    with pytest.raises(api.ConfigError) as by_tasks:
        grid.check_budget(grid.plan(study, check_support=False), 5)
    assert str(by_points.value) == str(by_tasks.value)


@pytest.mark.parametrize("where", ["results_dir=LOOP", "results_dir=LOOP/deeper",
                                   "hydra.run.dir=LOOP/run"])
def test_a_symlink_loop_as_the_output_directory_is_one_line(where, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a").symlink_to(tmp_path / "b")
    (tmp_path / "b").symlink_to(tmp_path / "a")
    code, out, err = _main(monkeypatch, capsys, *TINY, where.replace("LOOP", "a"))
    assert code == 2 and err.count("\n") == 1, err
    assert f"{tmp_path / 'a'} is a symbolic link that leads nowhere (a loop" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a", "b"]
    with pytest.raises(api.RunError, match=r"cannot write to output directory .*a/quick/"):
        api.run_study("quick", [o for o in TINY if not o.startswith("experiment=")]
                      + [f"results_dir={tmp_path / 'a'}"], progress=False)


def test_cfg_job_of_a_million_othello_positions_builds_none(tmp_path, monkeypatch, capsys):
    """The positions of a random source are built when read: --cfg job of 10^6 Othello
    positions derives no position's seed (it took 122 s)."""
    from searchlab.experiment import games, grid

    seeds = []
    real = games.derive_seed
    monkeypatch.setattr(games, "derive_seed", lambda *a: seeds.append(a) or real(*a))
    monkeypatch.setattr(grid, "plan", lambda *a, **k: pytest.fail("--cfg planned the tasks"))
    monkeypatch.chdir(tmp_path)
    code, out, err = _main(monkeypatch, capsys, "game=othello", "sweep.instances=1000000",
                           "--cfg", "job")
    assert code == 0, err
    assert "x 1000000 othello positions" in err and seeds == []


def test_max_tasks_bounds_a_game_study(tmp_path, monkeypatch, capsys):
    from searchlab.limits import MAX_TASKS

    monkeypatch.chdir(tmp_path)
    code, out, err = _main(monkeypatch, capsys, "game=othello", "sweep.instances=1000000",
                           "sweep.d=1..60", "--plan")
    assert code == 2 and err.count("\n") == 1, err
    assert f"over the limit of {MAX_TASKS} per study (searchlab.limits.MAX_TASKS)" in err
    assert list(tmp_path.iterdir()) == []


def test_report_tables_with_an_unknown_column_is_one_line_exit_2(tmp_path, capsys):
    """A variant of class 8: ``--columns`` naming no column of the run ended in exit 1 and
    ``error: ValueError: ...``; it is a refusal of the input (exit 2), one line."""
    from searchlab.report import report_cli

    run = api.run_study("quick", ["sweep.b=[2]", "sweep.d=1..2", "sweep.instances=2",
                                  "sweep.ordering=[random]", "runner.n_jobs=1",
                                  "runner.progress=false", "runner.report=false"],
                        output_dir=tmp_path / "run", progress=False)
    capsys.readouterr()
    args = [str(run), "--no-exact", "--resamples", "1", "--tables", "csv", "--columns", "nosuch"]
    assert report_cli.main(args) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "columns must be among this run's table columns" in err
    assert "got nosuch" in err and "ValueError" not in err
    assert not (run / "report.md").exists()     # refused before the report was written
