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

import pytest
from hydra.core import utils as hydra_utils

from searchlab import cli
from searchlab.experiment import api, lock, store
from searchlab.experiment.composition import forget_claimed, run_dir

TINY = ["experiment=quick", "sweep.b=[2]", "sweep.d=[1]", "sweep.instances=1",
        "sweep.ordering=[random]", "runner.n_jobs=1", "runner.progress=false"]


def _main(monkeypatch, capsys, *argv: str) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "argv", ["searchlab", *argv])
    monkeypatch.setattr(sys, "stdout", sys.stdout)
    try:
        cli.main()
        code = 0
    except SystemExit as e:
        code = e.code
    out, err = capsys.readouterr()
    return code, out, err


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
