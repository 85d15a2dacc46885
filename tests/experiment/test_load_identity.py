"""load() says what it read: each part carries its run's identity (experiment hash
and run id); a part of another run in table/, a run named twice (also through a symlink) and
a complete run whose parts are gone are errors naming the files; ``combine=True`` reads parts
of several runs on purpose and adds a ``run`` column."""

from __future__ import annotations

import json
import shutil

import pytest

from searchlab.experiment import store
from searchlab.experiment.api import run_study
from searchlab.experiment.run_status import IncompleteRunError, NotARunError
from searchlab.experiment.session import RunError
from searchlab.report import report_cli

TINY = ["sweep.b=[2]", "sweep.d=1..2", "sweep.instances=2", "sweep.ordering=[random]",
        "runner.n_jobs=1", "runner.progress=false", "runner.report=false"]


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """Two complete runs of different configs (seed 0 and seed 1), 4 tasks each."""
    base = tmp_path_factory.mktemp("ident")
    for name, seed in (("a", 0), ("b", 1)):
        run_study("quick", [*TINY, f"seed={seed}"], output_dir=base / name, progress=False)
    return base


def test_every_part_carries_its_runs_identity(runs):
    prov = json.loads((runs / "a" / "provenance.json").read_text())
    for p in store.list_parts(runs / "a"):
        assert store.part_identity(p) == {"config_hash": prov["config_hash"],
                                          "run_id": prov["run_id"]}
    assert len(store.load(runs / "a")) == 4


def test_a_part_of_another_run_in_table_is_refused_naming_it(runs, tmp_path):
    run = tmp_path / "a"
    shutil.copytree(runs / "a", run)
    stray = store.list_parts(runs / "b")[0]
    shutil.copy(stray, run / "table" / ("part-09999-" + stray.name.split("-")[2]))
    with pytest.raises(store.MixedRunError, match=r"part-09999-.*is a part of another run "
                                                  r"\(experiment hash .*combine=True"):
        store.load(run)
    both = store.load(run, combine=True)
    assert both["run"].nunique() == 2 and len(both) == 8


@pytest.mark.parametrize("twice", ["same path", "symlink", "glob and path"])
def test_a_run_named_twice_is_refused(runs, tmp_path, twice):
    a = runs / "a"
    if twice == "same path":
        args = [a, a]
    elif twice == "symlink":
        (tmp_path / "link").symlink_to(a, target_is_directory=True)
        args = [a, tmp_path / "link"]
    else:
        args = [str(runs / "*"), a]
    with pytest.raises(store.MixedRunError, match="are the same file .*a run named twice"):
        store.load(args)


def test_a_complete_run_whose_parts_are_gone_is_an_error_naming_its_table(runs, tmp_path, capsys):
    run = tmp_path / "a"
    shutil.copytree(runs / "a", run)
    for p in store.list_parts(run):
        p.unlink()
    with pytest.raises(IncompleteRunError, match=r"missing parts: its manifest.json records a "
                                                 rf"complete run of 4 tasks, but {run / 'table'} holds rows of 0"):
        store.load(run)
    assert report_cli.main([str(run), "--no-exact", "--resamples", "1"]) == 2
    assert "missing parts" in capsys.readouterr().err


@pytest.mark.parametrize("bad", [None, 3, b"results", [None]])
def test_a_value_that_is_no_path_is_refused(bad):
    with pytest.raises(NotARunError, match="expected a"):
        store.load(bad)


def test_a_copy_of_a_run_beside_it_is_refused_or_skipped_with_a_line(runs, tmp_path):
    """`cp -r <ts> <ts>.bak`: the folder holds one run twice (one run id); reading the folder
    would count every row twice."""
    folder = tmp_path / "quick"
    shutil.copytree(runs / "a", folder / "2026-01-01_00-00-00")
    shutil.copytree(runs / "a", folder / "2026-01-01_00-00-00.bak")
    with pytest.raises(store.MixedRunError, match=r"00\.bak is a copy of the run .*00-00-00 "
                                                  r"\(the same run id .*skip_copies=True"):
        store.load(folder)
    with pytest.raises(store.MixedRunError, match="is a copy of the run"):
        store.load(folder, combine=True)
    with pytest.warns(UserWarning, match=r"skipped .*00\.bak: a copy of the run") as seen:
        df = store.load(folder, skip_copies=True)
    assert len(seen) == 1 and len(df) == 4 and df["run_dir"].nunique() == 1
    assert df["run_dir"].iloc[0].endswith("00-00-00")


def test_a_part_the_manifest_lists_that_is_gone_is_an_error_unless_partial(runs, tmp_path):
    """The tasks are all there (a duplicate of the part's rows under another name), but a part
    the run's manifest lists is gone: not the run that was written."""
    run = tmp_path / "a"
    shutil.copytree(runs / "a", run)
    listed = json.loads((run / "manifest.json").read_text())["parts"]["table"]
    assert listed == [p.name for p in store.list_parts(run)]
    first = store.list_parts(run)[0]
    shutil.copy(first, first.with_name("part-09999-00000000.parquet"))
    first.unlink()
    with pytest.raises(IncompleteRunError, match=rf"missing 1 part\(s\) its manifest.json lists "
                                                 rf"\(table/{first.name}: deleted or moved\)"):
        store.load(run)
    with pytest.warns(UserWarning, match="missing 1 part"):
        assert len(store.load(run, partial=True)) == 4


def test_resume_with_a_part_of_another_run_is_refused_and_the_manifest_untouched(runs, tmp_path):
    """The seed-1 run's rows have the seed-0 run's task ids: taken as done, they made a
    resumed run 'complete' with another run's measurements."""
    run = tmp_path / "a"
    shutil.copytree(runs / "a", run)
    for p in store.list_parts(run):
        p.unlink()
    stray = store.list_parts(runs / "b")[0]
    shutil.copy(stray, run / "table" / stray.name)
    before = (run / "manifest.json").read_text()
    with pytest.raises(RunError, match=rf"{run} holds 1 part\(s\) of another run, e.g. "
                                       rf".*{stray.name} \(experiment hash .*move them out"):
        run_study("quick", [*TINY, f"runner.resume={run}"], progress=False)
    assert (run / "manifest.json").read_text() == before
    assert [p.name for p in store.list_parts(run)] == [stray.name]


def test_a_resumed_run_is_complete_only_when_every_task_has_its_row(runs, tmp_path):
    """The manifest's `complete` counts the planned tasks' rows, not rows: a part of the run
    removed, the resume runs its tasks again and the manifest lists the parts it holds."""
    run = tmp_path / "a"
    shutil.copytree(runs / "a", run)
    gone = store.list_parts(run)[0]
    gone.unlink()
    run_study("quick", [*TINY, f"runner.resume={run}"], progress=False)
    manifest = json.loads((run / "manifest.json").read_text())
    assert manifest["complete"] and manifest["rows"] == 4
    assert manifest["parts"]["table"] == [p.name for p in store.list_parts(run)]
    assert len(store.load(run)) == 4


def test_a_run_without_manifest_and_rows_is_not_read_as_an_empty_table(runs, tmp_path):
    """manifest.json deleted and table/ emptied: nothing says what the run was, so an empty
    frame would pass for a run that measured nothing."""
    run = tmp_path / "a"
    shutil.copytree(runs / "a", run)
    (run / "manifest.json").unlink()
    for part in store.list_parts(run):
        part.unlink()
    with pytest.raises(IncompleteRunError, match="has no manifest.json and no rows"):
        store.load(run)
    with pytest.warns(UserWarning, match="no manifest.json and no rows"):
        assert store.load(run, partial=True).empty
